// Structures shared by the host (src/frontend/draw) and the draw passes (src/kernels):
// compiled both as C++ and as OpenCL C. Only 32/64-bit scalars and arrays of them, so
// the layouts agree without alignment surprises (the host static_asserts the sizes).
//
// Data flow of one draw_vbo:
//   host           -> ClpDrawParams, ClpRasterParams (one buffer each per draw)
//   vertex pass    -> post-transform vertices: ClpDrawParams.num_outputs float4 registers
//                     per vertex (the vertex shader's OUT file), indexed by position
//   setup passes   -> ClpTri records in API order (count, scan, write)
//   binning passes -> per tile, the indices of the ClpTri records touching it, in order
//   tile pass      -> framebuffer pixels
#ifndef CLPIPE_DRAW_SHARED_H
#define CLPIPE_DRAW_SHARED_H

#if defined(__OPENCL_C_VERSION__) || defined(__OPENCL_VERSION__)
#define CLP_U32 uint
#define CLP_I32 int
#define CLP_F32 float
#define CLP_I64 long
#else
#include <cstdint>
#define CLP_U32 uint32_t
#define CLP_I32 int32_t
#define CLP_F32 float
#define CLP_I64 int64_t
#endif

// Tiles are CLP_TILE_SIZE x CLP_TILE_SIZE pixels (a power of two); one work-group shades
// a tile, one block of CLP_LANES pixels per work-item (tile.cl).
#define CLP_TILE_SIZE_LOG2 4
#define CLP_TILE_SIZE (1 << CLP_TILE_SIZE_LOG2)
// Window coordinates are snapped to 1/2^CLP_SUBPIXEL_BITS pixel.
#define CLP_SUBPIXEL_BITS 8
#define CLP_SUBPIXEL_ONE (1 << CLP_SUBPIXEL_BITS)
// Primitives are clipped to a guard band of this many pixels around the framebuffer, so
// fixed-point coordinates stay below 2^24 and edge functions fit in 64 bits.
#define CLP_GUARD_BAND 16384.0f
// A primitive clipped against all planes has at most this many vertices:
// 3 + one per plane (near, far, w > 0, 4 guard-band planes, 8 user planes).
#define CLP_MAX_CLIP_PLANES 15
#define CLP_MAX_CLIP_VERTS (3 + CLP_MAX_CLIP_PLANES)
#define CLP_MAX_RTS 8
#define CLP_MAX_FS_INPUTS 80

// Counts a draw reads on the device (device_counts.cl): the layout of its arguments.
#define CLP_COUNT_DIRECT 0u   // {count, instance_count, start, start_instance}
#define CLP_COUNT_INDEXED 1u  // {count, instance_count, start, index_bias, start_instance}
#define CLP_COUNT_AUTO 2u     // a stream output target's filled bytes
#define CLP_NO_PARAMS 0xffffffffu
// The scene's status words (DrawPipeline::run_scene): [0] records and [1] bin entries
// it needs, [2] non-zero when a draw's device count exceeded what the host planned;
// then, per ClpDeviceCount entry, the positions found (device_counts.cl).
#define CLP_STATUS_WORDS 3

// ClpDrawParams.flags
#define CLP_DRAW_FLATSHADE_FIRST (1u << 0)
#define CLP_DRAW_RESTART (1u << 1)  // primitive restart enabled (indexed)
#define CLP_DRAW_CULL_FRONT (1u << 2)
#define CLP_DRAW_CULL_BACK (1u << 3)
#define CLP_DRAW_FRONT_CCW (1u << 4)
#define CLP_DRAW_HALF_PIXEL_CENTER (1u << 5)
#define CLP_DRAW_BOTTOM_EDGE_RULE (1u << 6)
#define CLP_DRAW_DEPTH_CLIP_NEAR (1u << 7)
#define CLP_DRAW_DEPTH_CLIP_FAR (1u << 8)
#define CLP_DRAW_CLIP_HALFZ (1u << 9)
#define CLP_DRAW_QUADS_FOLLOW_PROVOKING (1u << 10)
#define CLP_DRAW_OFFSET_POINT (1u << 11)
#define CLP_DRAW_OFFSET_LINE (1u << 12)
#define CLP_DRAW_OFFSET_TRI (1u << 13)
#define CLP_DRAW_WINDOW_SPACE_POSITION (1u << 14)  // VS_WINDOW_SPACE_POSITION
#define CLP_DRAW_POINT_SIZE_PER_VERTEX (1u << 15)
#define CLP_DRAW_LINE_LAST_PIXEL (1u << 16)
#define CLP_DRAW_DEPTH_FLOAT (1u << 17)      // the depth buffer is floating point
#define CLP_DRAW_POINT_QUAD_RAST (1u << 18)  // points are quads: no size/centre rounding
#define CLP_DRAW_NEED_PRIM_ID (1u << 19)     // the fragment stage reads PRIMID
// PRIMID of position p is prim_write's prim_base[p] (a geometry shader's output stream
// carries the id of the input primitive that emitted each vertex; gs.cl).
#define CLP_DRAW_PRIM_ID_TABLE (1u << 20)
// Multisample rasterization: the framebuffer has samples and the rasterizer's
// `multisample` is on. Coverage is then tested at each sample's position (ClpRunParams),
// so a primitive's bounds reach one pixel further each way; otherwise every sample of a
// pixel takes the pixel centre's outcome.
#define CLP_DRAW_MULTISAMPLE (1u << 21)
// The scene's record count must be the records that draw (the host counts rasterized
// primitives for a pipeline statistics query). Otherwise point and line primitives take
// a fixed number of record slots each, the empty ones with an empty pixel box
// (prim.cl's clp_records_bound), which spares the count pass their setup.
#define CLP_DRAW_EXACT_RECORDS (1u << 22)

// Parameters of the vertex, setup and binning passes of one draw.
typedef struct {
  // Post-transform vertices: num_outputs float4 registers each.
  CLP_U32 num_outputs;
  CLP_U32 pos_reg;          // register holding the clip-space position
  CLP_I32 psize_reg;        // point size register, -1 if none
  CLP_I32 clipdist_reg[2];  // CLIPDIST[0], [1] registers, -1 if none
  CLP_I32 clipvertex_reg;   // CLIPVERTEX register, -1 if none (then POSITION)
  CLP_U32 num_clip_dist;    // clip distances in CLIPDIST (the rest up to +cull are cull)
  CLP_U32 num_cull_dist;
  CLP_U32 clip_plane_enable;  // rasterizer mask of clip distances / user planes

  // Primitive assembly. A "position" is one element of the draw: index k of instance i
  // is position i * count + k.
  CLP_U32 prim_mode;  // clpipe::PrimType
  CLP_U32 count;      // positions per instance
  CLP_U32 instance_count;
  CLP_U32 flags;                  // CLP_DRAW_*
  CLP_U32 fill_front, fill_back;  // clpipe::PolygonMode
  CLP_U32 prim_id_base;           // PRIMID of the first primitive of this draw

  // Viewport and window.
  CLP_F32 vp_scale[4], vp_translate[4];
  CLP_I32 scissor[4];  // [x0, y0, x1, y1) already intersected with the framebuffer
  // The scissor box cut to the pixels whose centres lie in the viewport: the bounds of
  // triangles. They are clipped to the guard band, not to the viewport's edges, so this
  // box takes the place of those clip planes. Points and lines use the scissor box: GL
  // clips them by their vertices only, and a wide one may reach past the viewport.
  CLP_I32 tri_box[4];
  CLP_U32 fb_width, fb_height;
  CLP_U32 tiles_x, tiles_y;
  CLP_F32 depth_min, depth_max;  // viewport depth range, for depth clamp
  CLP_F32 ucp[8][4];             // user clip planes

  // Rasterization of points, lines, polygon offset.
  CLP_F32 point_size, line_width;
  CLP_F32 offset_units, offset_scale, offset_clamp;
  CLP_F32 depth_mrd;  // minimum resolvable depth difference of a fixed-point depth buffer
  // Layered rendering: when layer_reg >= 0, only primitives whose provoking vertex has
  // the integer `layer` in .x of register layer_reg are set up (DrawPipeline::draw runs
  // the setup passes once per layer); -1 = all primitives.
  CLP_I32 layer_reg;
  CLP_U32 layer;
  // Unfilled polygons (fill mode line or point): an edge whose first vertex has 0.0 in
  // .x of register edgeflag_reg (the VS's EDGEFLAG output, GL's glEdgeFlag) is not
  // drawn; -1 = every boundary edge is drawn.
  CLP_I32 edgeflag_reg;
  // The draw's post-transform vertices start at float4 verts_base of the vertex buffer
  // the setup and tile passes read (a scene's draws share one buffer).
  CLP_U32 verts_base;
  // The tile pass's state of the draw: its ClpRasterParams (draws with equal state share
  // one) and the fragment shader's entry in its ClpResourceInfo table.
  CLP_U32 raster_index;
  CLP_U32 fs_ri_index;
  // The draw's first position in its setup launch (prim.cl: clp_batch_unit).
  CLP_U32 pos_base;
} ClpDrawParams;

// A draw whose counts the device reads (device_counts.cl; the host's DeviceCount): its
// arguments at word `word` of the argument buffer, in the layout `kind` (CLP_COUNT_*),
// the positions the host planned, and its parameter blocks.
typedef struct {
  CLP_I64 word;
  CLP_U32 kind;
  CLP_U32 stride;                               // CLP_COUNT_AUTO: bytes per vertex
  CLP_U32 auto_instances, auto_start_instance;  // CLP_COUNT_AUTO: the host's
  CLP_U32 planned;                              // positions (count x instances) the passes cover
  CLP_U32 report;             // a count above `planned` marks the scene for a replay (0: dropped)
  CLP_U32 vp_index;           // its ClpVertexParams, or CLP_NO_PARAMS (a geometry shader's output)
  CLP_U32 first_unit, units;  // its ClpDrawParams
  CLP_U32 pad;
} ClpDeviceCount;

// ClpTri.flags
#define CLP_TRI_FRONT (1u << 0)       // front-facing (points and lines are)
#define CLP_TRI_KIND_SHIFT 1          // 2 bits: CLP_KIND_*
#define CLP_TRI_PROVOKING_SHIFT 3     // 2 bits: provoking vertex 0..2 of vert[]
#define CLP_TRI_SPRITE (1u << 5)      // a point: sprite coordinates from point[]
#define CLP_TRI_BIAS_SHIFT 6          // 3 bits: edge e's constant includes +1
#define CLP_TRI_PIXEL_CLIP (1u << 9)  // near/far planes cut it: test per pixel
#define CLP_TRI_SAMPLES (1u << 10)    // CLP_DRAW_MULTISAMPLE: covers samples off the centres
#define CLP_TRI_ROUND (1u << 11)      // a round point: samples inside the circle of point[]
#define CLP_KIND_TRIANGLE 0u
#define CLP_KIND_LINE 1u
#define CLP_KIND_POINT 2u

// One rasterizable triangle after clipping and setup (lines and sprites become pairs of
// these; a point of whole pixels is one record whose constant edges cover its box,
// prim_emit.h's clp_emit_square). Edge functions are in fixed point (CLP_SUBPIXEL_BITS);
// a pixel sample at fixed-point (X, Y) is inside when edge_a[e]*X + edge_b[e]*Y +
// edge_c[e] > 0 for all e (the fill convention is folded into edge_c: bit e of flags >>
// CLP_TRI_BIAS_SHIFT says that 1 was added). Attributes are interpolated with the
// barycentrics of the corners, b_k = E_{k+1}(sample) * inv_area (edge k+1 is opposite
// corner k), exact like the coverage test; corner k carries its weights over the
// original vertices.
typedef struct {
  CLP_I32 bbox[4];  // pixels [x0, y0, x1, y1), inside scissor and framebuffer
  CLP_I64 edge_c[3];
  CLP_I32 edge_a[3], edge_b[3];
  CLP_F32 inv_area;  // 1 / (twice the signed area in fixed-point units), > 0
  CLP_F32 z[3];      // window depth of the corners, polygon offset included
  CLP_F32 inv_w[3];  // 1 / clip w of the corners
  CLP_F32 w[3][3];   // corner k's weights over the original vertices
  CLP_U32 vert[3];   // post-transform vertex index of the original vertices
  CLP_U32 flags;     // CLP_TRI_*
  CLP_U32 prim_id;
  CLP_F32 point[3];  // sprites: centre x, y and size in pixels
  CLP_U32 draw;      // the scene draw it belongs to: index of its ClpDrawParams
  CLP_U32 pad;
} ClpTri;

#if !defined(__OPENCL_C_VERSION__) && !defined(__OPENCL_VERSION__)
static_assert(sizeof(ClpTri) == 168, "ClpTri layout is shared with OpenCL C");
static_assert(sizeof(ClpDeviceCount) == 48, "ClpDeviceCount layout is shared with OpenCL C");
#endif

#endif  // CLPIPE_DRAW_SHARED_H
