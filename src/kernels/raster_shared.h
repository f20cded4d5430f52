// Per-draw parameters of the tile pass (tile.cl), shared by host and device.
// Producer: src/frontend/draw (from the bound blend, depth-stencil-alpha and rasterizer
// state, the framebuffer and the shader linkage). Consumer: tile.cl.
#ifndef CLPIPE_RASTER_SHARED_H
#define CLPIPE_RASTER_SHARED_H

#include "draw_shared.h"

// ClpRtState.flags
#define CLP_RT_ENABLED (1u << 0)
#define CLP_RT_BLEND (1u << 1)    // blending on (never for integer formats)
#define CLP_RT_UINT (1u << 2)     // pure unsigned integer format
#define CLP_RT_SINT (1u << 3)     // pure signed integer format
#define CLP_RT_UNORM (1u << 4)    // values clamp to [0, 1] for blending
#define CLP_RT_SNORM (1u << 5)    // values clamp to [-1, 1] for blending
#define CLP_RT_LOGICOP (1u << 6)  // logic op instead of blending (not for float/sRGB)
#define CLP_RT_SRC_REG_SHIFT 8    // 8 bits: FS output register feeding this RT, 255 = none

// One colour buffer: where its pixels are and how fragments combine with them.
typedef struct {
  CLP_I64 offset;     // byte offset of pixel (0, 0) of the bound level/layer
  CLP_U32 pitch;      // bytes per row
  CLP_U32 format;     // clpipe::Format
  CLP_U32 flags;      // CLP_RT_*
  CLP_U32 colormask;  // clpipe::Mask R|G|B|A
  // clpipe::BlendFunc / BlendFactor values.
  CLP_U32 rgb_func, rgb_src, rgb_dst, alpha_func, alpha_src, alpha_dst;
  // Rows from one sample plane to the next (the level's height; layout.h): sample s of
  // pixel (x, y) is at offset + (s * sample_rows + y) * pitch.
  CLP_U32 sample_rows;
} ClpRtState;

// ClpFsLink.flags
#define CLP_LINK_SPRITE (1u << 0)  // replaced by the point sprite coordinate on points
#define CLP_LINK_COLOR (1u << 1)   // a COLOR input: clamp_vertex_color and two-sided apply
#define CLP_LINK_CHAN_SHIFT 4      // 4 bits: channel c comes from src_reg (else def[c])
#define CLP_LINK_ALL_CHANNELS (0xfu << CLP_LINK_CHAN_SHIFT)
#define CLP_LINK_BCOLOR_CHAN_SHIFT 8  // 4 bits: channel c comes from bcolor_reg on back faces
#define CLP_LINK_ALL_BCOLOR_CHANNELS (0xfu << CLP_LINK_BCOLOR_CHAN_SHIFT)

// How one fragment shader input register gets its value.
typedef struct {
  CLP_I32 src_reg;     // post-transform vertex register, or -1: the default value
  CLP_I32 bcolor_reg;  // BCOLOR register for back faces (two-sided colour), or -1
  CLP_U32 flags;       // CLP_LINK_*
  CLP_F32 def[4];      // value when src_reg is -1
} ClpFsLink;

// ClpRasterParams.flags
#define CLP_RAST_DEPTH_TEST (1u << 0)
#define CLP_RAST_DEPTH_WRITE (1u << 1)
#define CLP_RAST_STENCIL_FRONT (1u << 2)
#define CLP_RAST_STENCIL_BACK (1u << 3)  // two-sided: back faces use stencil state [1]
#define CLP_RAST_ALPHA_TEST (1u << 4)
#define CLP_RAST_DEPTH_CLAMP (1u << 5)
#define CLP_RAST_POLY_STIPPLE (1u << 6)
#define CLP_RAST_FLATSHADE (1u << 7)
#define CLP_RAST_LIGHT_TWOSIDE (1u << 8)
#define CLP_RAST_CLAMP_FRAGMENT_COLOR (1u << 9)
#define CLP_RAST_CLAMP_VERTEX_COLOR (1u << 10)
#define CLP_RAST_SPRITE_LOWER_LEFT (1u << 11)
#define CLP_RAST_HALF_PIXEL_CENTER (1u << 12)
#define CLP_RAST_COLOR0_BROADCAST (1u << 13)  // FS COLOR[0] goes to every colour buffer
#define CLP_RAST_DUAL_SOURCE (1u << 14)       // SRC1 blend factors read FS COLOR[1]
#define CLP_RAST_ALPHA_TO_ONE (1u << 15)
#define CLP_RAST_DEPTH_BOUNDS (1u << 16)
#define CLP_RAST_ZS_PRESENT (1u << 17)
#define CLP_RAST_COUNT (1u << 18)  // accumulate the fragment counters (queries)
// Conditional rendering evaluated on the device: skip the draw when the 64-bit value at
// predicate[0..1] is non-zero and CLP_RAST_PREDICATE_WHEN_TRUE is set, or zero and it
// is not (Gallium: skipped when the result equals `condition`).
#define CLP_RAST_PREDICATE (1u << 19)
#define CLP_RAST_PREDICATE_WHEN_TRUE (1u << 20)
// Multisampled framebuffer, multisample rasterization: colour 0's alpha decides how many
// of the pixel's samples stay covered (tile.cl).
#define CLP_RAST_ALPHA_TO_COVERAGE (1u << 21)
// Multisampled framebuffer, multisample rasterization, min_samples > 1: the fragment
// shader runs once per covered sample rather than once per pixel.
#define CLP_RAST_SAMPLE_SHADING (1u << 22)
// The fragment shader's gl_FragCoord conventions (TGSI FS_COORD_ORIGIN and
// FS_COORD_PIXEL_CENTER): state, not program, so that they split no programs.
#define CLP_RAST_FS_COORD_LOWER_LEFT (1u << 23)
#define CLP_RAST_FS_COORD_PIXEL_CENTER_INTEGER (1u << 24)

// The fragment counters the tile pass accumulates when CLP_RAST_COUNT is set: 64-bit
// values as (low, high) 32-bit words, so that 32-bit atomics suffice.
#define CLP_COUNTER_SAMPLES_PASSED 0  // samples passing depth/stencil (occlusion)
#define CLP_COUNTER_PS_INVOCATIONS 2  // fragments shaded (pipeline statistics)
#define CLP_NUM_COUNTER_WORDS 4

typedef struct {
  ClpRtState rt[CLP_MAX_RTS];
  CLP_I64 zs_offset;  // depth/stencil buffer: byte offset of pixel (0, 0)
  CLP_U32 zs_pitch;
  CLP_U32 zs_format;  // clpipe::Format
  CLP_U32 flags;      // CLP_RAST_*
  CLP_U32 nr_cbufs;
  CLP_U32 depth_func;  // clpipe::CompareFunc
  CLP_U32 alpha_func;
  CLP_F32 alpha_ref;
  CLP_F32 depth_clamp_min, depth_clamp_max;
  CLP_F32 depth_bounds_min, depth_bounds_max;
  // Stencil, [0] front, [1] back.
  CLP_U32 stencil_func[2], stencil_fail[2], stencil_zpass[2], stencil_zfail[2];
  CLP_U32 stencil_valuemask[2], stencil_writemask[2], stencil_ref[2];
  CLP_F32 blend_color[4];
  CLP_U32 logicop_func;
  CLP_U32 sample_mask;     // bit s: sample s may be written (multisample rasterization)
  CLP_U32 samples;         // of the framebuffer: 1, 2, 4 or 8
  CLP_U32 zs_sample_rows;  // as ClpRtState.sample_rows, for the depth/stencil buffer
  CLP_U32 fb_width, fb_height;
  CLP_U32 tiles_x;
  CLP_U32 sprite_coord_enable;
  CLP_U32 num_fs_inputs;
  CLP_U32 stipple[32];
  ClpFsLink link[CLP_MAX_FS_INPUTS];
} ClpRasterParams;

// One launch of the tile pass: a run of consecutive scene draws [first_draw, end_draw)
// that share the fragment program, its resources, the vertex buffer and the targets
// (ClpRasterParams of first_draw say where the targets are). The records of the run are
// those of the scene's bin lists with draw_base[first_draw] <= index < draw_base[end_draw].
typedef struct {
  // Work-group g shades tile (tile_x0 + g % tiles_w, tile_y0 + g / tiles_w): the tiles
  // the run's scissor rectangles cover.
  CLP_U32 tile_x0, tile_y0, tiles_w;
  CLP_U32 bin_chunks;  // chunks of the scene's binning (see bin.cl)
  CLP_U32 first_draw, end_draw;
  // The scene fits its buffers when status[0] <= record_capacity and status[1] <=
  // list_capacity (records and bin entries it needed); otherwise the host replays it
  // with larger buffers and this launch writes nothing.
  CLP_U32 record_capacity, list_capacity;
  CLP_U32 round_each;  // bit r: colour buffer r is rounded after every fragment
  CLP_U32 zs_load;     // some draw of the run tests depth or stencil
  // Clear-on-load: the scene began with a clear of its framebuffer, and this run (its
  // first tile pass) applies it. In the buffers of clear_mask (bit r: colour buffer r, bit
  // CLP_CLEAR_ZS_BIT: every aspect of the depth/stencil buffer), the pixels inside
  // clear_rect (x0, y0, x1, y1) read as the cleared texel (ClpClearTexels), and every such
  // pixel is stored, drawn or not; the launch covers the rectangle's tiles too.
  CLP_U32 clear_mask;
  CLP_I32 clear_rect[4];
  CLP_U32 pad;
} ClpRunParams;

// The texels of a clear-on-load, as the words clp_load_block (colour buffer r) and
// clp_zs_load (depth/stencil) assemble from their bytes. In global memory rather than in
// ClpRunParams: the tile pass's parameters must stay within OpenCL 1.2's 1024 bytes with
// every resource parameter of the fragment shader.
typedef struct {
  CLP_U32 color[CLP_MAX_RTS][4];
  CLP_U32 zs[2];
  CLP_U32 pad[2];
} ClpClearTexels;

#define CLP_CLEAR_ZS_BIT CLP_MAX_RTS

// Position of sample i of the standard `samples`-sample pattern (GL / D3D 2x, 4x, 8x),
// in 1/16 pixel from the pixel's top-left corner: x in bits 0-3, y in bits 4-7. One
// sample is the pixel centre.
#define CLP_SAMPLE_POS16_2 0x44ccu  // one byte per sample, sample 0 lowest
#define CLP_SAMPLE_POS16_4 0xeaa26e26u
#define CLP_SAMPLE_POS16_8_LO 0x359db759u
#define CLP_SAMPLE_POS16_8_HI 0x1ffb71d3u
static inline CLP_U32 clp_sample_pos16(CLP_U32 samples, CLP_U32 i) {
  CLP_U32 word = 0x88u;
  if (samples == 2) word = CLP_SAMPLE_POS16_2 >> (8 * (i & 1u));
  if (samples == 4) word = CLP_SAMPLE_POS16_4 >> (8 * (i & 3u));
  if (samples == 8)
    word = (i & 4u ? CLP_SAMPLE_POS16_8_HI : CLP_SAMPLE_POS16_8_LO) >> (8 * (i & 3u));
  return word & 0xffu;
}

#endif  // CLPIPE_RASTER_SHARED_H
