// The depth/stencil side of the tile pass: the test of a block's lanes against their
// pixels (depth bounds, stencil, depth), the lane accessor of a block's depth/stencil
// words, and their loads where a run starts (with a clear-on-load's texel). Included by
// tile.cl after its CLP_KEYED_* state accessors, which fold a specialised program's state
// into constants, and its lane helpers.
#ifndef CLPIPE_TILE_ZS_H
#define CLPIPE_TILE_ZS_H

#include "raster_shared.h"
#include "raster_zs.h"

// The depth/stencil pixels of a block are kept as two vu: the first and the second
// word of each lane's pixel (clp_zs_load's uint2).
static uint2 clp_zs_lane(vu lo, vu hi, int l) {
  return (uint2)(CLP_LANE(lo, l), CLP_LANE(hi, l));
}

// Depth bounds, stencil and depth test of the `live` lanes against their pixels (lo, hi);
// returns the lanes whose fragments survive and updates the pixels of the live lanes as
// the tests write them. z: the fragments' window depths; ref: a stencil reference
// exported by the shader in the lanes where it is >= 0, else the state's. Lane for lane
// this is GL's per-fragment sequence: EXT_depth_bounds_test discards a fragment whose
// pixel's stored depth lies outside the bounds (quantised to the buffer's depth as if
// written to it) before the stencil test, whether or not the depth test is on, and
// without touching the pixel; a fragment that fails the stencil test gets the stencil
// fail operation and no depth test; the others the zpass or zfail operation by their
// depth test, whose write follows it.
static vi clp_zs_test_v(global const ClpRasterParams* rp, bool front, vf z, vi ref, vi live, vu* lo,
                        vu* hi) {
  const uint fmt = CLP_KEYED_ZS_FORMAT(rp), rflags = CLP_KEYED_FLAGS(rp);
  const uint face = (!front && (rflags & CLP_RAST_STENCIL_BACK)) ? 1 : 0;
  const bool stencil = (rflags & CLP_RAST_STENCIL_FRONT) && clp_zs_has_stencil(fmt);
  const bool depth = (rflags & CLP_RAST_DEPTH_TEST) && clp_zs_depth_bits(fmt) > 0;
  if ((rflags & CLP_RAST_DEPTH_BOUNDS) && clp_zs_depth_bits(fmt) > 0) {
    const vu stored = clp_zs_get_depth_v(fmt, *lo);
    const uint kmin = clp_zs_depth_key(fmt, rp->depth_bounds_min);
    const uint kmax = clp_zs_depth_key(fmt, rp->depth_bounds_max);
    live &= clp_zs_depth_float(fmt) ? CLP_MASK((CLP_AS_VF(stored) >= as_float(kmin)) &
                                               (CLP_AS_VF(stored) <= as_float(kmax)))
                                    : CLP_MASK((stored >= kmin) & (stored <= kmax));
  }
  vi pass = live;
  vu s = (vu)(0u), sref = (vu)(0u), sfailed = (vu)(0u);
  if (stencil) {
    s = clp_zs_get_stencil_v(fmt, *lo, *hi);
    sref =
        select((vu)(rp->stencil_ref[face]), CLP_AS_VU(ref) & 0xffu, CLP_AS_VU(CLP_MASK(ref >= 0)));
    const uint vm = rp->stencil_valuemask[face];
    pass &= clp_compare_u_v(rp->stencil_func[face], sref & vm, s & vm);
    sfailed = clp_stencil_op_v(rp->stencil_fail[face], s, sref);
  }
  vi zpass = pass;
  if (depth) {
    const vu stored = clp_zs_get_depth_v(fmt, *lo);
    const vu key = clp_zs_depth_key_v(fmt, z);
    zpass &= clp_zs_depth_float(fmt)
                 ? clp_compare_f_v(CLP_KEYED_DEPTH_FUNC(rp), CLP_AS_VF(key), CLP_AS_VF(stored))
                 : clp_compare_u_v(CLP_KEYED_DEPTH_FUNC(rp), key, stored);
    if (rflags & CLP_RAST_DEPTH_WRITE)
      *lo = select(*lo, clp_zs_set_depth_v(fmt, *lo, key), CLP_AS_VU(zpass));
  }
  if (stencil) {
    const vu zop = select(clp_stencil_op_v(rp->stencil_zfail[face], s, sref),
                          clp_stencil_op_v(rp->stencil_zpass[face], s, sref), CLP_AS_VU(zpass));
    const vu ns = select(sfailed, zop, CLP_AS_VU(pass));
    const uint wm = rp->stencil_writemask[face];
    vu nlo = *lo, nhi = *hi;
    clp_zs_set_stencil_v(fmt, &nlo, &nhi, (s & ~wm) | (ns & wm));
    *lo = select(*lo, nlo, CLP_AS_VU(live));
    *hi = select(*hi, nhi, CLP_AS_VU(live));
  }
  return zpass;
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
