// The depth/stencil side of the tile pass: the test of one lane against its pixel
// (stencil, depth bounds, depth), the whole-block depth test of draws without stencil,
// the lane accessors of a block's depth/stencil words, and their loads where a run starts
// (with a clear-on-load's texel). Included by tile.cl after its CLP_KEYED_* state accessors,
// which fold a specialised program's state into constants, and its lane helpers.
#ifndef CLPIPE_TILE_ZS_H
#define CLPIPE_TILE_ZS_H

#include "raster_shared.h"
#include "raster_zs.h"

// Depth/stencil test of one lane; updates *zs (the pixel) and returns whether the
// fragment survives. z is the fragment's window depth; ref_override >= 0 is a stencil
// reference exported by the shader.
static bool clp_zs_test(global const ClpRasterParams* rp, bool front, float z, int ref_override,
                        uint2* zs) {
  const uint fmt = CLP_KEYED_ZS_FORMAT(rp), rflags = CLP_KEYED_FLAGS(rp);
  const uint face = (!front && (rflags & CLP_RAST_STENCIL_BACK)) ? 1 : 0;
  const bool stencil = (rflags & CLP_RAST_STENCIL_FRONT) && clp_zs_has_stencil(fmt);
  const bool depth = (rflags & CLP_RAST_DEPTH_TEST) && clp_zs_depth_bits(fmt) > 0;
  uint s = clp_zs_get_stencil(fmt, *zs);
  const uint ref = ref_override >= 0 ? ((uint)ref_override & 0xffu) : rp->stencil_ref[face];
  if (stencil) {
    const uint vm = rp->stencil_valuemask[face];
    if (!clp_compare_u(rp->stencil_func[face], ref & vm, s & vm)) {
      const uint ns = clp_stencil_op(rp->stencil_fail[face], s, ref);
      const uint wm = rp->stencil_writemask[face];
      *zs = clp_zs_set_stencil(fmt, *zs, (s & ~wm) | (ns & wm));
      return false;
    }
  }
  bool zpass = true;
  if (depth) {
    if (rflags & CLP_RAST_DEPTH_BOUNDS) {
      const float stored = clp_zs_depth_value(fmt, clp_zs_get_depth(fmt, *zs));
      if (stored < rp->depth_bounds_min || stored > rp->depth_bounds_max) zpass = false;
    }
    const uint key = clp_zs_depth_key(fmt, z);
    const uint stored = clp_zs_get_depth(fmt, *zs);
    zpass = zpass && (clp_zs_depth_float(fmt)
                          ? clp_compare_f(CLP_KEYED_DEPTH_FUNC(rp), as_float(key), as_float(stored))
                          : clp_compare_u(CLP_KEYED_DEPTH_FUNC(rp), key, stored));
    if (zpass && (rflags & CLP_RAST_DEPTH_WRITE)) *zs = clp_zs_set_depth(fmt, *zs, key);
  }
  if (stencil) {
    const uint ns =
        clp_stencil_op(zpass ? rp->stencil_zpass[face] : rp->stencil_zfail[face], s, ref);
    const uint wm = rp->stencil_writemask[face];
    *zs = clp_zs_set_stencil(fmt, *zs, (s & ~wm) | (ns & wm));
  }
  return zpass;
}

// The depth/stencil pixels of a block are kept as two vu: the first and the second
// word of each lane's pixel (clp_zs_load's uint2).
static uint2 clp_zs_lane(vu lo, vu hi, int l) {
  return (uint2)(CLP_LANE(lo, l), CLP_LANE(hi, l));
}

static void clp_zs_set_lane(vu* lo, vu* hi, int l, uint2 v) {
  const vi at = CLP_LANE_IDS == (vi)(l);
  *lo = select(*lo, (vu)(v.x), at);
  *hi = select(*hi, (vu)(v.y), at);
}

// The depth test of the `live` lanes at once, for draws without stencil and depth
// bounds (what clp_zs_test does then, lane by lane): returns the lanes that pass and
// writes their depth to *lo when depth writes are on.
static vi clp_depth_test_v(global const ClpRasterParams* rp, vf z, vi live, vu* lo) {
  const uint fmt = CLP_KEYED_ZS_FORMAT(rp);
  if (!(CLP_KEYED_FLAGS(rp) & CLP_RAST_DEPTH_TEST) || clp_zs_depth_bits(fmt) == 0) return live;
  const vu key = clp_zs_depth_key_v(fmt, z);
  const vu stored = clp_zs_get_depth_v(fmt, *lo);
  const vi pass =
      live & (clp_zs_depth_float(fmt)
                  ? clp_compare_f_v(CLP_KEYED_DEPTH_FUNC(rp), CLP_AS_VF(key), CLP_AS_VF(stored))
                  : clp_compare_u_v(CLP_KEYED_DEPTH_FUNC(rp), key, stored));
  if (CLP_KEYED_FLAGS(rp) & CLP_RAST_DEPTH_WRITE) {
    *lo = select(*lo, clp_zs_set_depth_v(fmt, *lo, key), CLP_AS_VU(pass));
  }
  return pass;
}

// Loads the lanes in `lanes` (bits) of the depth/stencil block at p: lane l gets
// clp_zs_load's words of its pixel in (lo, hi), the others 0.
static void clp_zs_block_load(uint fmt, global const uchar* p, uint pitch, uint lanes, vu* lo,
                              vu* hi) {
  const uint bytes = clp_zs_bytes(fmt);
  if (bytes == 4 && lanes == (1u << CLP_LANES) - 1u) {
    *lo = clp_block_load_rows(p, pitch);  // the words clp_zs_load assembles
    *hi = (vu)(0u);
    return;
  }
  // Lane by lane with constant lanes into arrays: inserting into a vector at a variable
  // lane goes through memory.
  uint z0[CLP_LANES], z1[CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l) {
    const uint2 z =
        ((lanes >> l) & 1u)
            ? clp_zs_load(fmt, p + (size_t)clp_lane_dy(l) * pitch + (size_t)clp_lane_dx(l) * bytes)
            : (uint2)(0u);
    z0[l] = z.x;
    z1[l] = z.y;
  }
  *lo = CLP_PACK(z0);
  *hi = CLP_PACK(z1);
}

// The depth/stencil words of a block where a run starts: the lanes in `cleared` (bits)
// hold the words of a clear-on-load's texel, the other lanes in `load` those of their
// pixel at p, the rest 0.
static void clp_zs_block_start(uint fmt, global const uchar* p, uint pitch, uint load, uint cleared,
                               uint2 clear_words, vu* lo, vu* hi) {
  *lo = *hi = (vu)(0u);
  if (load & ~cleared) clp_zs_block_load(fmt, p, pitch, load, lo, hi);
  if (cleared) {
    const vi m = clp_lane_mask(cleared);
    *lo = select(*lo, (vu)(clear_words.x), m);
    *hi = select(*hi, (vu)(clear_words.y), m);
  }
}

#endif  // CLPIPE_TILE_ZS_H
