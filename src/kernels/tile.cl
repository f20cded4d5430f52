// The tile pass of a scene's run of draws (ClpRunParams): one work-group per
// CLP_TILE_SIZE^2 screen tile, in blocks of CLP_LANES pixels (2x2, 4x2 or 4x4: whole
// quads, lanes in the quad-major order of shader_abi.h; or one pixel, for shaders that
// read no other pixel of their quad); a work-item shades one block or all the tile's
// (CLP_TILE_WHOLE below). Each work-item loads its pixels' depth/stencil once (and their
// colour at most once, when a fragment first reads it), walks the run's
// part of the tile's primitive list in API order with each record's own draw state
// (coverage with the fill convention, early or late depth/stencil, the fragment shader,
// alpha test, blending or logic op, colour masks) over its blocks, and stores the pixels
// it changed once at the end. No barriers, no atomics: a pixel belongs to exactly one
// work-item. A multisampled framebuffer's blocks hold every sample (CLP_NS): coverage and
// depth/stencil are per sample, the shader runs once per pixel (or once per sample), and
// colour is per sample, kept once while a block's samples agree (tile_rt.h).
//
// This file is a template: the program is
//   [generated prelude] [shader_abi.h, libraries] [generated body] [this file]
// with, for a specialised variant, the key's state before the prelude (CLP_KEYED_* below).
// Producer of its inputs: bin.cl (lists), prim.cl (records), the vertex pass (vertices).

// The small fixed-count loops of the per-block path carry `#pragma unroll` (here and in
// tile_fs.h, tile_color.h): PoCL does not unroll them itself, and a loop left rolled keeps
// its arrays (stage context, colour channels, shader outputs) in memory instead of
// registers. Unrolled, the specialised fill runs ~20 % fewer instructions.

// The fixed-function arithmetic below (barycentrics, depth, blending) is evaluated
// without contraction into fused multiply-adds, so it rounds exactly like the host
// reference of the tests; the shader body before this point keeps the default.
#pragma OPENCL FP_CONTRACT OFF

#include "draw_shared.h"
#include "format.h"
#include "raster_blend.h"
#include "raster_shared.h"
#include "raster_zs.h"
#include "shader_lib.h"  // lane helpers (CLP_PACK, CLP_LANE_IDS); generated bodies include it too

// The state a specialised variant of this program compiles in: tile_variant.cpp
// prepends CLP_TILE_KEY, the CLP_TILE_* values and clp_tile_rt_*() of one
// TileVariantKey. The generic variant reads the same fields from each record's
// ClpRasterParams. A run's draws share their key (DrawPipeline::same_run compares the
// programs), so in both variants every draw sees its own state. Fields outside the key
// (stencil values, blend colour, targets' addresses, ...) are always read at run time.
#ifdef CLP_TILE_KEY
#define CLP_KEYED_FLAGS(rp) ((uint)CLP_TILE_RAST_FLAGS)
#define CLP_KEYED_NR_CBUFS(rp) ((uint)CLP_TILE_NR_CBUFS)
#define CLP_KEYED_ZS_FORMAT(rp) ((uint)CLP_TILE_ZS_FORMAT)
#define CLP_KEYED_DEPTH_FUNC(rp) ((uint)CLP_TILE_DEPTH_FUNC)
#define CLP_KEYED_ALPHA_FUNC(rp) ((uint)CLP_TILE_ALPHA_FUNC)
#define CLP_KEYED_LOGICOP_FUNC(rp) ((uint)CLP_TILE_LOGICOP_FUNC)
#define CLP_KEYED_RT(rp, r, field) clp_tile_rt_##field(r)
#else
#define CLP_KEYED_FLAGS(rp) ((rp)->flags)
#define CLP_KEYED_NR_CBUFS(rp) ((rp)->nr_cbufs)
#define CLP_KEYED_ZS_FORMAT(rp) ((rp)->zs_format)
#define CLP_KEYED_DEPTH_FUNC(rp) ((rp)->depth_func)
#define CLP_KEYED_ALPHA_FUNC(rp) ((rp)->alpha_func)
#define CLP_KEYED_LOGICOP_FUNC(rp) ((rp)->logicop_func)
#define CLP_KEYED_RT(rp, r, field) ((rp)->rt[r].field)
#endif

// The pixel block of a work-item: CLP_BLOCK_W x CLP_BLOCK_H pixels, lane l at
// (clp_lane_dx(l), clp_lane_dy(l)) from its top-left corner: quad q = l / 4 at
// (2 (q % 2), 2 (q / 2)), then x + 2 y within the quad.
#define CLP_BLOCK_W (CLP_LANES >= 8 ? 4 : CLP_LANES == 4 ? 2 : 1)
#define CLP_BLOCK_H (CLP_LANES == 16 ? 4 : CLP_LANES >= 4 ? 2 : 1)
// The region of a work-item: the whole tile when CLP_TILE_WHOLE (a CPU: a primitive's
// set-up and its tests against the tile are done once for all the tile's blocks, as a
// core runs one work-item at a time), else one block (a GPU: the blocks spread over its
// SIMD lanes). The prelude defines CLP_TILE_WHOLE from the device (EmitOptions), and the
// host launches CLP_TILE_ITEMS work-items per tile to match (draw_pipeline.cpp).
#ifndef CLP_TILE_WHOLE
#define CLP_TILE_WHOLE 0
#endif
#if CLP_TILE_WHOLE && CLP_LANES == 1
#error "a one-lane work-item shades one pixel, not a whole tile (emit.h)"
#endif
#if CLP_TILE_WHOLE
#define CLP_ITEM_W CLP_TILE_SIZE
#define CLP_ITEM_H CLP_TILE_SIZE
#else
#define CLP_ITEM_W CLP_BLOCK_W
#define CLP_ITEM_H CLP_BLOCK_H
#endif
#define CLP_ITEM_COLS (CLP_ITEM_W / CLP_BLOCK_W)
#define CLP_ITEM_ROWS (CLP_ITEM_H / CLP_BLOCK_H)
#define CLP_ITEM_BLOCKS (CLP_ITEM_COLS * CLP_ITEM_ROWS)
#define CLP_TILE_ITEMS ((CLP_TILE_SIZE / CLP_ITEM_W) * (CLP_TILE_SIZE / CLP_ITEM_H))
static int clp_lane_dx(int l) {
  return ((l >> 2) & 1) * 2 + (l & 1);
}
static int clp_lane_dy(int l) {
  return (l >> 3) * 2 + ((l >> 1) & 1);
}
#if CLP_LANES == 1
#define CLP_LANE_DX ((vi)(0))
#define CLP_LANE_DY ((vi)(0))
#elif CLP_LANES == 4
#define CLP_LANE_DX ((vi)(0, 1, 0, 1))
#define CLP_LANE_DY ((vi)(0, 0, 1, 1))
#elif CLP_LANES == 8
#define CLP_LANE_DX ((vi)(0, 1, 0, 1, 2, 3, 2, 3))
#define CLP_LANE_DY ((vi)(0, 0, 1, 1, 0, 0, 1, 1))
#elif CLP_LANES == 16
#define CLP_LANE_DX ((vi)(0, 1, 0, 1, 2, 3, 2, 3, 0, 1, 0, 1, 2, 3, 2, 3))
#define CLP_LANE_DY ((vi)(0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3))
#else
#error "the tile pass runs 1, 4, 8 or 16 lanes"
#endif
// The framebuffer's samples (1, 2, 4 or 8): a multisampled one keeps every sample of its
// pixels in the block state, tests coverage and depth per sample and shades once per
// pixel, or once per sample when the shader or the state asks (tile_variant.cpp defines
// it for the programs of multisampled framebuffers).
#ifndef CLP_TILE_SAMPLES
#define CLP_TILE_SAMPLES 1
#endif
#define CLP_NS CLP_TILE_SAMPLES
#if CLP_NS != 1 && CLP_NS != 2 && CLP_NS != 4 && CLP_NS != 8
#error "the tile pass draws 1, 2, 4 or 8 samples"
#endif
#ifndef CLP_FS_PER_SAMPLE
#define CLP_FS_PER_SAMPLE 0
#endif
// Axis 0 (x) or 1 (y) of sample s's position from the pixel centre, in fixed-point units
// (0 for the one sample of a single-sampled pixel).
static int clp_sample_offset(int s, int axis) {
  return (int)((clp_sample_pos16(CLP_NS, (uint)s) >> (4 * axis)) & 15u) * (CLP_SUBPIXEL_ONE / 16) -
         CLP_SUBPIXEL_ONE / 2;
}
// Lane masks are ~0 / 0 at every width: comparisons that make one go through CLP_MASK,
// as a scalar comparison (one lane) gives 1 (shader_abi.h).
#include "tile_block.h"

// 64-bit lane vectors: the edge functions.
typedef CLP_VN(long) vlong;
#define CLP_CONVERT_VLONG CLP_VN(convert_long)

#include "tile_fs.h"
#include "tile_prim.h"

#ifndef CLP_FS_HAS_SIDE_EFFECTS
#define CLP_FS_HAS_SIDE_EFFECTS 0
#endif
// Whether the shader reads other lanes of its quads, so that helper lanes must run
// (an interpreted shader's program serves shaders that do).
#ifndef CLP_FS_READS_QUADS
#define CLP_FS_READS_QUADS 1
#endif
// Depth/stencil may run before the shader when the shader cannot change their outcome
// (no discard, no depth, stencil or sample mask export, no side effects) or asks for it.
#ifdef CLP_INTERP_TEMPS
// An interpreted shader's program serves shaders of any of these: the header of the code
// it runs (`clp_icode`, the tile pass's parameter) says, by the rule below (the compiler's
// interp_encode applies it).
#define CLP_FS_EARLY_FORCED ((clp_icode[CLP_INTERP_H_FS] & CLP_INTERP_FS_EARLY_FORCED) != 0u)
#define CLP_FS_EARLY_ALLOWED ((clp_icode[CLP_INTERP_H_FS] & CLP_INTERP_FS_EARLY_ALLOWED) != 0u)
#define CLP_FS_SHADES_SAMPLES ((clp_icode[CLP_INTERP_H_FS] & CLP_INTERP_FS_PER_SAMPLE) != 0u)
#define clp_fs_depth_reg() clp_interp_fs_reg(clp_icode, 0)
#define clp_fs_stencil_reg() clp_interp_fs_reg(clp_icode, 1)
#define clp_fs_samplemask_reg() clp_interp_fs_reg(clp_icode, 2)
#define CLP_FS_EXPORTS 1  // the code below reads the registers at run time
#else
#define CLP_FS_SHADES_SAMPLES CLP_FS_PER_SAMPLE
#define clp_fs_depth_reg() CLP_FS_DEPTH_REG
#define clp_fs_stencil_reg() CLP_FS_STENCIL_REG
#define clp_fs_samplemask_reg() CLP_FS_SAMPLEMASK_REG
#define CLP_FS_EXPORTS 0
#if CLP_FS_EARLY_DEPTH
#define CLP_FS_EARLY_FORCED 1
#define CLP_FS_EARLY_ALLOWED 1
#elif !CLP_FS_USES_KILL && CLP_FS_DEPTH_REG < 0 && CLP_FS_STENCIL_REG < 0 && \
    CLP_FS_SAMPLEMASK_REG < 0 && !CLP_FS_HAS_SIDE_EFFECTS
#define CLP_FS_EARLY_FORCED 0
#define CLP_FS_EARLY_ALLOWED 1
#else
#define CLP_FS_EARLY_FORCED 0
#define CLP_FS_EARLY_ALLOWED 0
#endif
#endif

#include "tile_rt.h"

// Adds n to the 64-bit counter (low, high) at c with 32-bit atomics: the low word's
// previous value tells whether the addition carried into the high word.
static void clp_counter_add(global uint* c, uint n) {
  if (n == 0) return;
  const uint old = atomic_add(&c[0], n);
  if (old + n < old) atomic_inc(&c[1]);
}

// Bit l set where lane l of m is set.
static uint clp_lane_bits(vi m) {
  return clp_or_lanes(CLP_AS_VU(m != (vi)(0)) & ((vu)(1u) << CLP_AS_VU(CLP_LANE_IDS)));
}

static uint clp_lanes(vi m) {
  return popcount(clp_lane_bits(m));
}

// The lanes whose bit is set in `bits`.
static vi clp_lane_mask(uint bits) {
  return CLP_MASK(((vi)(bits) >> CLP_LANE_IDS & (vi)(1)) != (vi)(0));
}

// m with lane l cleared.
static vi clp_clear_lane(vi m, int l) {
  return select(m, (vi)(0), CLP_LANE_IDS == (vi)(l));
}

#include "tile_clear.h"
#include "tile_zs.h"
#ifdef CLP_TILE_SOA
#include "tile_color.h"
#endif

// The first entry of list[begin, end) whose value is >= v (the lists are sorted).
static uint clp_lower_bound(global const uint* list, uint begin, uint end, uint v) {
  while (begin < end) {
    const uint mid = begin + (end - begin) / 2;
    if (list[mid] < v) begin = mid + 1;
    else end = mid;
  }
  return begin;
}

__kernel __attribute__((reqd_work_group_size(CLP_TILE_ITEMS, 1, 1))) void tile_pass(
    const ClpRunParams run, global const ClpRasterParams* rps, global const ClpDrawParams* dps,
    global const ClpTri* tris, global const uint* bin_list, global const uint* bin_offsets,
    global const uint* draw_base, global const uint* status, global const float4* verts,
    global uchar* cb0, global uchar* cb1, global uchar* cb2, global uchar* cb3, global uchar* cb4,
    global uchar* cb5, global uchar* cb6, global uchar* cb7, global uchar* zsbuf,
    global uint* counters, global const uint* predicate,
    global const ClpClearTexels* clear CLP_RESOURCE_PARAMS) {
  // A scene that outgrew its buffers or the positions planned for a device count
  // (device_counts.cl) is replayed: nothing of it is drawn now.
  if (status[0] > run.record_capacity || status[1] > run.list_capacity || status[2]) return;
  // Targets, counting and the predicate are the same for every draw of the run. A run
  // that applies a clear has no predicate: the context records no scene clear under a
  // render condition, and setting one runs the scene first (ContextImpl::clear_in_scene).
  global const ClpRasterParams* rp0 = rps + dps[run.first_draw].raster_index;
  if (rp0->flags & CLP_RAST_PREDICATE) {
    const bool value = (predicate[0] | predicate[1]) != 0;
    if (value == ((rp0->flags & CLP_RAST_PREDICATE_WHEN_TRUE) != 0)) return;
  }
  const uint group = get_group_id(0);
  const uint tile = (run.tile_y0 + group / run.tiles_w) * rp0->tiles_x + run.tile_x0 +
                    group % run.tiles_w;
  const uint nc = run.bin_chunks;
  // The tile's list holds the records of the whole scene in order; this run's are those
  // from draw_base[first_draw] to draw_base[end_draw].
  uint list_begin = tile == 0 ? 0 : bin_offsets[tile * nc - 1];
  uint list_end = bin_offsets[tile * nc + nc - 1];
  // A tile no primitive touches has nothing to do, unless the run applies a clear.
  if (list_begin >= list_end && !run.clear_mask) return;
  list_begin = clp_lower_bound(bin_list, list_begin, list_end, draw_base[run.first_draw]);
  list_end = clp_lower_bound(bin_list, list_begin, list_end, draw_base[run.end_draw]);
  if (list_begin >= list_end && !run.clear_mask) return;

  // The work-item's region of the tile, and its blocks: block b at column b %
  // CLP_ITEM_COLS and row b / CLP_ITEM_COLS.
  const uint lid = get_local_id(0);
  const int tx = (int)(tile % rp0->tiles_x), ty = (int)(tile / rp0->tiles_x);
  const int rx = tx * CLP_TILE_SIZE + (int)(lid % (CLP_TILE_SIZE / CLP_ITEM_W)) * CLP_ITEM_W;
  const int ry = ty * CLP_TILE_SIZE + (int)(lid / (CLP_TILE_SIZE / CLP_ITEM_W)) * CLP_ITEM_H;
  const int fbw = (int)rp0->fb_width, fbh = (int)rp0->fb_height;
  if (rx >= fbw || ry >= fbh) return;

  global uchar* cbuf[CLP_MAX_RTS] = {cb0, cb1, cb2, cb3, cb4, cb5, cb6, cb7};
  const uint nrt = min(CLP_KEYED_NR_CBUFS(rp0), (uint)CLP_MAX_RTS);
  // Bytes from one sample plane of a target to the next (0 when single-sampled).
  size_t plane[CLP_MAX_RTS];
  for (uint r = 0; r < CLP_MAX_RTS; ++r)
    plane[r] = CLP_NS > 1 && r < nrt ? (size_t)rp0->rt[r].sample_rows * rp0->rt[r].pitch : 0;
  const size_t zplane = CLP_NS > 1 ? (size_t)rp0->zs_sample_rows * rp0->zs_pitch : 0;
  if (list_begin >= list_end) {  // only the clear reaches this tile
    for (int s = 0; s < CLP_NS; ++s) {
      global uchar* planes[CLP_MAX_RTS];
      for (uint r = 0; r < CLP_MAX_RTS; ++r)
        planes[r] = cbuf[r] + s * plane[r];
      clp_clear_region(rp0, run.clear_mask, nrt, clear, planes, zsbuf + s * zplane,
                       max(rx, run.clear_rect[0]), max(ry, run.clear_rect[1]),
                       min(rx + CLP_ITEM_W, run.clear_rect[2]),
                       min(ry + CLP_ITEM_H, run.clear_rect[3]));
    }
    return;
  }
  // The state of each block, per sample. Colour buffer pixels are loaded when a fragment
  // first combines with them, and not at all where fragments replace them whole (no
  // blending, logic op or colour mask).
  ClpBlockColor color[CLP_MAX_RTS];
  ClpBlockLanes known[CLP_ITEM_BLOCKS];  // bit lane: the lane's colour is the pixel's
  ClpBlockLanes dirty[CLP_ITEM_BLOCKS];  // bit lane: the pixel changed
  // Whether the block's samples of a buffer are shared: every sample holds sample 0's
  // colour, known and dirty lanes, and only sample 0's entries are kept (CLP_SHARED). A
  // block starts shared; the first write or load that differs between its samples splits
  // it (clp_samples_split), for the rest of the launch. The inside of primitives shaded
  // once per pixel then costs one sample's colour work, however many samples.
  bool uni[CLP_ITEM_BLOCKS][CLP_MAX_RTS];
  vu zlo[CLP_ITEM_BLOCKS][CLP_NS], zhi[CLP_ITEM_BLOCKS][CLP_NS];  // clp_zs_load's (x, y)
  uint zs_dirty[CLP_ITEM_BLOCKS][CLP_NS];
  uint exist_bits[CLP_ITEM_BLOCKS];        // bit lane: the lane's pixel is inside the framebuffer
  uint cleared[CLP_ITEM_BLOCKS];           // bit lane: the clear-on-load sets the lane's pixel
  const uint round_each = run.round_each;  // bit rt: round after every fragment
  // Only the depth/stencil test reads or changes the depth/stencil buffer.
  const uint zfmt = CLP_KEYED_ZS_FORMAT(rp0);
  const uint zbytes = clp_zs_bytes(zfmt);
  const uint all_lanes = (1u << CLP_LANES) - 1u;
  for (int b = 0; b < CLP_ITEM_BLOCKS; ++b) {
    const int qx = rx + (b % CLP_ITEM_COLS) * CLP_BLOCK_W,
              qy = ry + (b / CLP_ITEM_COLS) * CLP_BLOCK_H;
    const vi lx = (vi)(qx) + CLP_LANE_DX, ly = (vi)(qy) + CLP_LANE_DY;
    exist_bits[b] = clp_lane_bits((lx < (vi)(fbw)) & (ly < (vi)(fbh)));
    // Lanes the clear-on-load sets (its rectangle lies inside the framebuffer).
    cleared[b] = run.clear_mask ? exist_bits[b] & clp_lane_bits((lx >= (vi)(run.clear_rect[0])) &
                                                                (ly >= (vi)(run.clear_rect[1])) &
                                                                (lx < (vi)(run.clear_rect[2])) &
                                                                (ly < (vi)(run.clear_rect[3])))
                                : 0u;
    // Only the bound buffers' entries are read (every loop over buffers stops at nrt).
    for (uint r = 0; r < nrt; ++r) {
      uni[b][r] = true;
      const bool clears = ((run.clear_mask >> r) & 1u) && cleared[b];
      // The cleared texel as a load would give it; every lane holds it (a lane that is
      // not known loads before it is read). Cleared lanes no fragment changes are stored
      // as the texel's bytes at the end.
      const uint fmt = CLP_KEYED_RT(rp0, r, format);
      const float4 v =
          clears ? clp_rt_decode(fmt, CLP_KEYED_RT(rp0, r, flags), vload4(0, clear->color[r]))
                 : (float4)(0.0f);
      // Shared samples: sample 0's entries stand for all (clp_samples_split).
      dirty[b][r][0] = 0u;
      known[b][r][0] = clears ? cleared[b] : 0u;
#ifdef CLP_TILE_SOA
      color[r][0][b][0] = (vf)(v.x);
      color[r][0][b][1] = (vf)(v.y);
      color[r][0][b][2] = (vf)(v.z);
      color[r][0][b][3] = (vf)(v.w);
#else
      if (clears)
        for (int l = 0; l < CLP_LANES; ++l)
          color[r][0][b][l] = v;
#endif
    }
    const uint zs_cleared = ((run.clear_mask >> CLP_CLEAR_ZS_BIT) & 1u) ? cleared[b] : 0u;
    // Without a load or a clear the block's depth/stencil is never read (zs_dirty stays 0).
    const bool zs_start = run.zs_load || zs_cleared;
    for (int s = 0; s < CLP_NS; ++s) {
      zs_dirty[b][s] = zs_cleared;
      if (!zs_start) continue;
      clp_zs_block_start(
          zfmt,
          zsbuf + s * zplane + rp0->zs_offset + (size_t)qy * rp0->zs_pitch + (size_t)qx * zbytes,
          rp0->zs_pitch, run.zs_load ? exist_bits[b] : 0u, zs_cleared,
          zs_cleared ? vload2(0, clear->zs) : (uint2)(0u), &zlo[b][s], &zhi[b][s]);
    }
  }

  const bool count = (rp0->flags & CLP_RAST_COUNT) != 0;
  uint samples_passed = 0, shaded = 0;
  const long RX = (long)rx << CLP_SUBPIXEL_BITS, RY = (long)ry << CLP_SUBPIXEL_BITS;

  for (uint i = list_begin; i < list_end; ++i) {
    global const ClpTri* t = &tris[bin_list[i]];
    global const ClpDrawParams* dp = dps + t->draw;
    global const ClpRasterParams* rp = rps + dp->raster_index;
    // Multisample rasterization tests each sample at its position and writes only the
    // samples of the sample mask; otherwise every sample takes the pixel centre's outcome.
    const bool ms = CLP_NS > 1 && (dp->flags & CLP_DRAW_MULTISAMPLE) != 0;
    const uint smask = ms ? rp->sample_mask : ~0u;
    if (!(smask & ((1u << CLP_NS) - 1u))) continue;
    // The part of the region inside the bounding box (which includes the scissor), and
    // the blocks that meet it.
    const int bx0 = max(t->bbox[0], rx), by0 = max(t->bbox[1], ry);
    const int bx1 = min(t->bbox[2], min(rx + CLP_ITEM_W, fbw));
    const int by1 = min(t->bbox[3], min(ry + CLP_ITEM_H, fbh));
    if (bx0 >= bx1 || by0 >= by1) continue;
    const int c0 = CLP_ITEM_COLS == 1 ? 0 : (bx0 - rx) / CLP_BLOCK_W;
    const int c1 = CLP_ITEM_COLS == 1 ? 0 : (bx1 - 1 - rx) / CLP_BLOCK_W;
    const int r0 = CLP_ITEM_ROWS == 1 ? 0 : (by0 - ry) / CLP_BLOCK_H;
    const int r1 = CLP_ITEM_ROWS == 1 ? 0 : (by1 - 1 - ry) / CLP_BLOCK_H;
    // The edges at the region's top-left pixel centre, their steps per pixel and their
    // offsets at each sample (eo); whether each leaves the whole box inside at every
    // sample (its smallest value there, at one of the box's corners, is > 0): then its
    // blocks need no lane test of it.
    long er[3], ea[3], eb[3], eo[CLP_NS][3];
    bool edges_in = true;
#pragma unroll
    for (int e = 0; e < 3; ++e) {
      const long a = t->edge_a[e], bb = t->edge_b[e];
      er[e] = a * RX + bb * RY + t->edge_c[e];
      ea[e] = a * CLP_SUBPIXEL_ONE;
      eb[e] = bb * CLP_SUBPIXEL_ONE;
      long omin = 0;
      for (int s = 0; s < CLP_NS; ++s) {
        eo[s][e] = ms ? a * clp_sample_offset(s, 0) + bb * clp_sample_offset(s, 1) : 0;
        omin = min(omin, eo[s][e]);
      }
      const long lo = er[e] + omin + ea[e] * (ea[e] < 0 ? bx1 - 1 - rx : bx0 - rx) +
                      eb[e] * (eb[e] < 0 ? by1 - 1 - ry : by0 - ry);
      edges_in = edges_in && lo > 0;
    }
    // The state of the record's draw.
    global const float4* dverts = verts + dp->verts_base;
    const uint kind = (t->flags >> CLP_TRI_KIND_SHIFT) & 3u;
    const uint rflags = CLP_KEYED_FLAGS(rp);
    const bool stipple = (rflags & CLP_RAST_POLY_STIPPLE) && kind == CLP_KIND_TRIANGLE;
    const bool front = (t->flags & CLP_TRI_FRONT) != 0;
    const bool zs_test =
        (rflags & CLP_RAST_ZS_PRESENT) &&
        (rflags & (CLP_RAST_DEPTH_TEST | CLP_RAST_STENCIL_FRONT | CLP_RAST_DEPTH_BOUNDS));
    // Alpha test and alpha to coverage discard after the shader, like KILL: then
    // depth/stencil must wait.
    const bool early_zs =
        (bool)CLP_FS_EARLY_FORCED ||
        ((bool)CLP_FS_EARLY_ALLOWED &&
         !(rflags & (CLP_RAST_ALPHA_TEST | (ms ? CLP_RAST_ALPHA_TO_COVERAGE : 0u))));
    // The shader runs once per sample (each evaluated at its sample) when it asks for it
    // or the state does (min_samples); otherwise once per pixel, at its centre, for all
    // its covered samples.
    const bool per_sample = ms && (CLP_FS_SHADES_SAMPLES || (rflags & CLP_RAST_SAMPLE_SHADING));
    const bool round_point = ms && (t->flags & CLP_TRI_ROUND);
    // Whether every sample of a block starts with sample 0's coverage: without
    // multisample rasterization, or where no edge crosses the box at any sample and the
    // sample mask keeps every sample (the inside of a primitive). Per block, `same` below
    // keeps saying so while the steps after it keep the samples equal: each per-sample
    // step then runs once, for sample 0, and the others take its outcome.
    const uint all_samples = (1u << CLP_NS) - 1u;
    const bool starts_same =
        !ms || (edges_in && !round_point && (smask & all_samples) == all_samples);
    // Corner barycentrics, planes over each block from the exact edge functions at its
    // top-left pixel (without the fill bias): corner k is opposite edge k + 1.
    ClpBaryPlanes bary;
    long bias[3];
#pragma unroll
    for (int k = 0; k < 3; ++k) {
      const int e = k == 2 ? 0 : k + 1;
      bias[k] = (t->flags >> (CLP_TRI_BIAS_SHIFT + e)) & 1u;
      bary.grad_x[k] = (float)t->edge_a[e] * (float)CLP_SUBPIXEL_ONE * t->inv_area;
      bary.grad_y[k] = (float)t->edge_b[e] * (float)CLP_SUBPIXEL_ONE * t->inv_area;
    }
    // The stage context is only filled for primitives with a block that gets shaded (or
    // clipped per pixel): most blocks of an overdrawn scene fail the early depth test.
    ClpStageCtx ctx;
    bool ctx_prim = false;

    for (int row = r0; row <= r1; ++row) {
      for (int col = c0; col <= c1; ++col) {
        const int b = CLP_ITEM_BLOCKS == 1 ? 0 : row * CLP_ITEM_COLS + col;
        const int qx = rx + col * CLP_BLOCK_W, qy = ry + row * CLP_BLOCK_H;
        const vi lx = (vi)(qx) + CLP_LANE_DX, ly = (vi)(qy) + CLP_LANE_DY;
        // Coverage: inside the box and all edges, each decided for the whole block where it
        // can be; per sample (alive[s]) and of any sample (any).
        vi pix = clp_lane_mask(exist_bits[b]);
        if (qx < bx0 || qy < by0 || qx + CLP_BLOCK_W > bx1 || qy + CLP_BLOCK_H > by1) {
          pix &=
              CLP_MASK((lx >= (vi)(bx0)) & (lx < (vi)(bx1)) & (ly >= (vi)(by0)) & (ly < (vi)(by1)));
        }
        if (stipple) {
          // Bit 31 - (x mod 32) of row y mod 32: the MSB is the leftmost pixel.
          for (int l = 0; l < CLP_LANES; ++l) {
            const uint srow = rp->stipple[CLP_LANE(ly, l) & 31];
            if (!((srow >> (31 - (CLP_LANE(lx, l) & 31))) & 1u)) pix = clp_clear_lane(pix, l);
          }
        }
        long corner[3];
#pragma unroll
        for (int e = 0; e < 3; ++e)
          corner[e] = er[e] + ea[e] * (qx - rx) + eb[e] * (qy - ry);
        vi alive[CLP_NS], any = (vi)(0);
        bool same = starts_same;
        for (int s = 0; s < CLP_NS; ++s) {
          vi c = ((smask >> s) & 1u) ? pix : (vi)(0);
          if (same && s > 0) {
            c = alive[0];
          } else {
            if (!edges_in) {
#pragma unroll
              for (int e = 0; e < 3; ++e)
                c &= clp_edge_cover(corner[e] + eo[s][e], ea[e], eb[e]);
            }
            if (round_point) c &= clp_round_point_cover(dp, t, lx, ly, s);
          }
          alive[s] = c;
          any |= c;
        }
        if (!CLP_ANY(any)) continue;

        // The planes at the pixel centres, the fragment depth there, and at each sample.
#pragma unroll
        for (int k = 0; k < 3; ++k) {
          const int e = k == 2 ? 0 : k + 1;
          bary.base[k] = (float)(corner[e] - bias[k]) * t->inv_area;
        }
        const vf zc = clp_fragment_z(rp, t, &bary);
        ClpBaryPlanes at;
        vf z[CLP_NS];  // read by the depth/stencil tests and per-sample invocations only
        if (zs_test || per_sample) {
          for (int s = 0; s < CLP_NS; ++s)
            z[s] = ms ? clp_fragment_z(rp, t, clp_bary_at(&bary, t, corner, bias, eo[s], &at)) : zc;
        }
        if (t->flags & CLP_TRI_PIXEL_CLIP) {
          if (!ctx_prim) clp_stage_ctx_prim(&ctx, rp, dp, dverts, t, &bary);
          ctx_prim = true;
          // The planes cut the primitive before its samples are tested: each is kept where
          // the clip distances at it are >= 0 (at the centre, without multisampling).
          vi keep = (vi)(0);
          any = (vi)(0);
          for (int s = 0; s < CLP_NS; ++s) {
            if (ms || s == 0) {
              keep = clp_pixel_clip(&ctx,
                                    ms ? clp_bary_at(&bary, t, corner, bias, eo[s], &at) : &bary);
            }
            alive[s] &= keep;
            any |= alive[s];
          }
          same = same && !ms;
          if (!CLP_ANY(any)) continue;
        }
        // Bit s of each lane: its sample s is covered (SAMPLEMASK, centroids).
        vi cov_bits = alive[0] & (vi)(same ? (int)all_samples : 1);
        for (int s = 1; s < (same ? 0 : CLP_NS); ++s)
          cov_bits |= alive[s] & (vi)(1 << s);

        bool ctx_centre = false;  // ctx holds this block at the pixel centres
        if (early_zs && zs_test) {
          any = (vi)(0);
          for (int s = 0; s < CLP_NS; ++s) {
            if (!CLP_ANY(alive[s])) continue;
            zs_dirty[b][s] |= clp_lane_bits(alive[s]);
            alive[s] = clp_zs_test_v(rp, front, z[s], (vi)(-1), alive[s], &zlo[b][s], &zhi[b][s]);
            any |= alive[s];
          }
          same = false;  // the samples' depths differ
          if (!CLP_ANY(any)) continue;
        }

        // One invocation for the block's covered pixels, or one per sample: the samples
        // [s0, s1) take its outputs.
        for (int pass = 0; pass < (per_sample ? CLP_NS : 1); ++pass) {
          const int s0 = per_sample ? pass : 0, s1 = per_sample ? pass + 1 : CLP_NS;
          const vi shade = per_sample ? alive[pass] : any;
          if (!CLP_ANY(shade)) continue;
          if (!ctx_prim) clp_stage_ctx_prim(&ctx, rp, dp, dverts, t, &bary);
          ctx_prim = true;
          if (per_sample) {
            clp_stage_ctx_block(&ctx, clp_bary_at(&bary, t, corner, bias, eo[pass], &at), lx, ly,
                                z[pass], pass, shade & (vi)(1 << pass), 0u);
            ctx_centre = false;
          } else if (!ctx_centre) {
            clp_stage_ctx_block(&ctx, &bary, lx, ly, zc, -1, cov_bits, ms ? CLP_NS : 0u);
            ctx_centre = true;
          }
          if (count) {
            shaded += clp_lanes(shade);
            // With the depth/stencil tests before the shader, passing them is what counts.
            if (early_zs) {
              for (int s = s0; s < s1; ++s)
                samples_passed += clp_lanes(alive[s]);
            }
          }

          // Shade the quads that hold a covered lane: their other lanes run as helpers for
          // derivatives. A shader that takes none runs on the covered lanes alone, so that
          // its per-lane work (texel fetches, loops) skips the rest.
          ctx.covered = shade;
          ClpShaderIo io;
          io.exec_mask = CLP_FS_READS_QUADS ? clp_quad_lanes(shade) : shade;
          io.helper_mask = ~shade;
          // Outputs the shader leaves unwritten read as 0, as in the other stages: never the
          // previous block's values or a device's stale registers. The compiler drops the
          // stores the shader's own unconditional writes overwrite.
#pragma unroll
          for (int r = 0; r < CLP_NUM_OUTPUTS; ++r) {
#pragma unroll
            for (int c = 0; c < 4; ++c)
              io.out[r][c] = (vf)(0.0f);
          }
          clp_shader_main(&io, &ctx CLP_RESOURCE_ARGS);
          vi keep = io.exec_mask;
          if (!CLP_ANY(shade & keep)) continue;
          if (rflags & CLP_RAST_ALPHA_TEST) {
            // After alpha to one (GL), which makes the alpha 1.
            const int areg = clp_fs_color_reg(0);
            const bool one = ms && (rflags & CLP_RAST_ALPHA_TO_ONE);
            const vf a = !one && areg >= 0 ? io.out[areg][3] : (vf)(1.0f);
            keep &= clp_compare_f_v(CLP_KEYED_ALPHA_FUNC(rp), a, (vf)(rp->alpha_ref));
          }
          // Samples alike stay alike unless the shader's sample mask, alpha to coverage or
          // late depth/stencil treats them apart: then sample 0's outcome is every sample's.
          const int creg = clp_fs_color_reg(0);
          const int smr = clp_fs_samplemask_reg();
          const bool apart =
              !same || per_sample || (!early_zs && zs_test) ||
              (ms && (smr >= 0 || ((rflags & CLP_RAST_ALPHA_TO_COVERAGE) && creg >= 0)));
          vi live = (vi)(0);  // lanes with a sample left
          for (int s = s0; s < (apart ? s1 : 1); ++s) {
            vi a = alive[s] & keep;
            if (ms) {
#if CLP_FS_SAMPLEMASK_REG >= 0 || CLP_FS_EXPORTS
              // The shader's sample mask removes sample s where its bit is clear.
              if (smr >= 0) a &= CLP_MASK(((CLP_AS_VI(io.out[smr][0]) >> s) & (vi)(1)) != (vi)(0));
#endif
              if ((rflags & CLP_RAST_ALPHA_TO_COVERAGE) && creg >= 0) {
                // Alpha a covers round(a N) of the N samples: sample s is kept where
                // a N >= s + 1/2.
                const vf ac = clamp(io.out[creg][3], 0.0f, 1.0f) * (float)CLP_NS;
                a &= CLP_MASK(ac >= (vf)((float)s + 0.5f));
              }
            }
            if (!early_zs && zs_test && CLP_ANY(a)) {
              vf zf = z[s];
#if CLP_FS_DEPTH_REG >= 0 || CLP_FS_EXPORTS
              const int dr = clp_fs_depth_reg();
              if (dr >= 0) {
                zf = io.out[dr][2];
                if (rflags & CLP_RAST_DEPTH_CLAMP)
                  zf = clamp(zf, rp->depth_clamp_min, rp->depth_clamp_max);
                zf = clamp(zf, 0.0f, 1.0f);
              }
#endif
              zs_dirty[b][s] |= clp_lane_bits(a);
              vi ref = (vi)(-1);
#if CLP_FS_STENCIL_REG >= 0 || CLP_FS_EXPORTS
              // A stencil reference exported by the shader (.y, an integer) replaces the
              // state's.
              const int sr = clp_fs_stencil_reg();
              if (sr >= 0) ref = CLP_AS_VI(CLP_AS_VU(io.out[sr][1]) & 0xffu);
#endif
              a = clp_zs_test_v(rp, front, zf, ref, a, &zlo[b][s], &zhi[b][s]);
            }
            if (count && !early_zs) samples_passed += clp_lanes(a) * (apart ? 1u : (uint)CLP_NS);
            alive[s] = a;
            live |= a;
          }
          for (int s = 1; s < (apart ? 0 : CLP_NS); ++s)
            alive[s] = alive[0];
          same = !apart;
          if (!CLP_ANY(live)) continue;
          if (ms && (rflags & CLP_RAST_ALPHA_TO_ONE)) {
            for (uint r = 0; r < CLP_MAX_RTS; ++r) {
              const int reg = clp_fs_color_reg((int)r);
              if (reg >= 0) io.out[reg][3] = (vf)(1.0f);
            }
          }
          // The colour of the samples [s0, s1) the invocation kept.
          for (uint r = 0; r < nrt; ++r) {
            if (!(CLP_KEYED_RT(rp, r, flags) & CLP_RT_ENABLED)) continue;
            const int reg = (rflags & CLP_RAST_COLOR0_BROADCAST) ? clp_fs_color_reg(0)
                                                                 : clp_fs_color_reg((int)r);
            if (reg < 0) continue;  // the shader does not write this buffer
            const int reg1 = clp_fs_color_reg(1);
            const bool dual = (rflags & CLP_RAST_DUAL_SOURCE) && reg1 >= 0;
            const bool round = (round_each >> r) & 1u;
            const uint rtflags = CLP_KEYED_RT(rp, r, flags);
            const bool reads_dst = CLP_KEYED_RT(rp, r, colormask) != 0xfu ||
                                   (!(rtflags & (CLP_RT_UINT | CLP_RT_SINT)) &&
                                    (rtflags & (CLP_RT_BLEND | CLP_RT_LOGICOP)));
            // The lanes each sample writes (a sample equal to the first is not counted again).
            uint live[CLP_NS];
            const uint live0 = clp_lane_bits(alive[s0]);
            bool same_live = !per_sample;
            for (int s = 0; s < CLP_NS; ++s) {
              const bool as0 = same || !CLP_ANY(CLP_MASK((alive[s] ^ alive[s0]) != (vi)(0)));
              live[s] = s < s0 || s >= s1 ? 0u : as0 ? live0 : clp_lane_bits(alive[s]);
              same_live = same_live && live[s] == live[0];
            }
            // A write that differs between the samples ends their sharing.
            if (CLP_NS > 1 && !same_live) clp_samples_split(b, r, color, known, dirty, uni);
#ifdef CLP_TILE_SOA
            // Every lane at once; the live ones keep the result.
            global uchar* block =
                cbuf[r] + rp0->rt[r].offset + (size_t)qy * rp0->rt[r].pitch + (size_t)qx * 4u;
            const uint fmt = CLP_KEYED_RT(rp0, r, format);
            vf src1[4], result[4];
#pragma unroll
            for (int c = 0; c < 4; ++c)
              src1[c] = dual ? io.out[reg1][c] : (vf)(0.0f);
            if (reads_dst && CLP_SHARED(b, r)) {
              // The samples' planes of the lanes not known yet; they stay shared where
              // every plane holds the same pixels.
              const uint need = live[0] & ~known[b][r][0];
              if (need) {
                vf loaded[CLP_NS][4];
                if (!clp_soa_load_planes(fmt, block, plane[r], rp0->rt[r].pitch, need, loaded))
                  clp_samples_split(b, r, color, known, dirty, uni);
                const vi fresh = clp_lane_mask(need);
                for (int s = 0; s < (CLP_SHARED(b, r) ? 1 : CLP_NS); ++s) {
#pragma unroll
                  for (int c = 0; c < 4; ++c)
                    color[r][s][b][c] = select(color[r][s][b][c], loaded[s][c], fresh);
                }
              }
            } else if (reads_dst) {
              for (int s = 0; s < CLP_NS; ++s) {
                const uint need = live[s] & ~known[b][r][s];
                if (!need) continue;
                vf loaded[4];
                clp_soa_load(fmt, block + s * plane[r], rp0->rt[r].pitch, need, loaded);
                const vi fresh = clp_lane_mask(need);
#pragma unroll
                for (int c = 0; c < 4; ++c)
                  color[r][s][b][c] = select(color[r][s][b][c], loaded[c], fresh);
              }
            }
            // Without a destination read one combine serves every sample (one call site:
            // the compiler inlines it).
            bool combined = false;
            for (int s = 0; s < (CLP_SHARED(b, r) ? 1 : CLP_NS); ++s) {
              if (!live[s]) continue;
              if (reads_dst || !combined)
                clp_combine_v(rp, r, io.out[reg], src1, color[r][s][b], round, result);
              combined = true;
#pragma unroll
              for (int c = 0; c < 4; ++c)
                color[r][s][b][c] = select(color[r][s][b][c], result[c], clp_lane_mask(live[s]));
              known[b][r][s] |= live[s];
              dirty[b][r][s] |= live[s];
            }
#else
            // Pixel by pixel; a shared block that must load splits first.
            if (CLP_NS > 1 && reads_dst && CLP_SHARED(b, r) && (live[0] & ~known[b][r][0]))
              clp_samples_split(b, r, color, known, dirty, uni);
            for (int s = 0; s < (CLP_SHARED(b, r) ? 1 : CLP_NS); ++s) {
              for (int l = 0; l < CLP_LANES; ++l) {
                if (!((live[s] >> l) & 1u)) continue;
                const uint bit = 1u << l;
                if (reads_dst && !(known[b][r][s] & bit)) {
                  color[r][s][b][l] =
                      clp_rt_load(rp0, r, cbuf[r] + s * plane[r], CLP_LANE(lx, l), CLP_LANE(ly, l));
                }
                const float4 src = clp_out_rgba(&io, reg, l);
                const float4 src1 = dual ? clp_out_rgba(&io, reg1, l) : (float4)(0.0f);
                color[r][s][b][l] = clp_combine(rp, r, src, src1, color[r][s][b][l], round);
                known[b][r][s] |= bit;
                dirty[b][r][s] |= bit;
              }
            }
#endif
          }
        }
      }
    }
  }

  if (count) {
    clp_counter_add(counters + CLP_COUNTER_SAMPLES_PASSED, samples_passed);
    clp_counter_add(counters + CLP_COUNTER_PS_INVOCATIONS, shaded);
  }
  for (int b = 0; b < CLP_ITEM_BLOCKS; ++b) {
    const int qx = rx + (b % CLP_ITEM_COLS) * CLP_BLOCK_W,
              qy = ry + (b / CLP_ITEM_COLS) * CLP_BLOCK_H;
    for (uint r = 0; r < nrt; ++r) {
      global const ClpRtState* rt = &rp0->rt[r];
      const uint fmt = CLP_KEYED_RT(rp0, r, format), flags = CLP_KEYED_RT(rp0, r, flags);
      // Shared samples store sample 0's state into every plane.
      const bool shared = CLP_SHARED(b, r);
#ifdef CLP_TILE_SOA
      vu bytes[4];  // the codes of sample 0 when shared
#endif
      for (int s = 0; s < CLP_NS; ++s) {
        const int k = shared ? 0 : s;
        global uchar* block = cbuf[r] + s * plane[r] + rt->offset + (size_t)qy * rt->pitch +
                              (size_t)qx * clp_format_block_bytes(fmt);
        const uint pristine = ((run.clear_mask >> r) & 1u) ? cleared[b] & ~dirty[b][r][k] : 0u;
        if (pristine && !dirty[b][r][k]) {
          clp_store_texel_lanes(fmt, block, rt->pitch, pristine, vload4(0, clear->color[r]));
          continue;
        }
        // A block a fragment changed is stored whole: its other cleared lanes hold the
        // decoded texel, which encodes back to the same bytes (scene_clear_test checks every
        // renderable format).
        const uint store = dirty[b][r][k] | pristine;
        if (!store) continue;
#ifdef CLP_TILE_SOA
        if (!shared || s == 0) clp_soa_encode(fmt, color[r][k][b], bytes);
        clp_soa_store_bytes(block, rt->pitch, store, bytes);
#else
        for (int l = 0; l < CLP_LANES; ++l) {
          if (!(store & (1u << l))) continue;
          clp_store_block(fmt,
                          block + (size_t)clp_lane_dy(l) * rt->pitch +
                              (size_t)clp_lane_dx(l) * clp_format_block_bytes(fmt),
                          clp_rt_encode(fmt, flags, color[r][k][b][l]));
        }
#endif
      }
    }
    for (int s = 0; s < CLP_NS; ++s) {
      if (!zs_dirty[b][s]) continue;
      global uchar* zblock =
          zsbuf + s * zplane + rp0->zs_offset + (size_t)qy * rp0->zs_pitch + (size_t)qx * zbytes;
      // A whole block of 4-byte pixels at once where every lane holds its pixel's value: all
      // changed, or all loaded (the unchanged ones are stored as they were).
      if (zbytes == 4 &&
          (zs_dirty[b][s] == all_lanes || (run.zs_load && exist_bits[b] == all_lanes))) {
        clp_block_store_rows(zblock, rp0->zs_pitch, zlo[b][s]);
        continue;
      }
      for (int l = 0; l < CLP_LANES; ++l) {
        if (!((zs_dirty[b][s] >> l) & 1u)) continue;
        clp_zs_store(
            zfmt, zblock + (size_t)clp_lane_dy(l) * rp0->zs_pitch + (size_t)clp_lane_dx(l) * zbytes,
            clp_zs_lane(zlo[b][s], zhi[b][s], l));
      }
    }
  }
}
