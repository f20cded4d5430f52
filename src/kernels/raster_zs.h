// Depth and stencil buffer access and tests for the tile pass (tile.cl).
//
// Depth is compared as an integer key in the buffer's own representation: the UNORM
// integer, or the bits of a non-negative float (which order like the values). The
// fragment's depth is converted to that representation first, as GL specifies, so that
// equal depths compare equal however they were computed.
#ifndef CLPIPE_RASTER_ZS_H
#define CLPIPE_RASTER_ZS_H

#include "compare_func.h"
#include "format_table.h"  // CLP_FMT_<name> ids

// Bytes per pixel of a depth/stencil format (0 if not one).
static uint clp_zs_bytes(uint fmt) {
  switch (fmt) {
    case CLP_FMT_Z16_UNORM:
      return 2;
    case CLP_FMT_S8_UINT:
      return 1;
    case CLP_FMT_Z32_FLOAT_S8X24_UINT:
      return 8;
    case CLP_FMT_Z32_UNORM:
    case CLP_FMT_Z32_FLOAT:
    case CLP_FMT_Z24_UNORM_S8_UINT:
    case CLP_FMT_S8_UINT_Z24_UNORM:
    case CLP_FMT_Z24X8_UNORM:
    case CLP_FMT_X8Z24_UNORM:
      return 4;
    default:
      return 0;
  }
}

static uint clp_zs_depth_bits(uint fmt) {
  switch (fmt) {
    case CLP_FMT_Z16_UNORM:
      return 16;
    case CLP_FMT_Z24_UNORM_S8_UINT:
    case CLP_FMT_S8_UINT_Z24_UNORM:
    case CLP_FMT_Z24X8_UNORM:
    case CLP_FMT_X8Z24_UNORM:
      return 24;
    case CLP_FMT_Z32_UNORM:
    case CLP_FMT_Z32_FLOAT:
    case CLP_FMT_Z32_FLOAT_S8X24_UINT:
      return 32;
    default:
      return 0;
  }
}

static bool clp_zs_depth_float(uint fmt) {
  return fmt == CLP_FMT_Z32_FLOAT || fmt == CLP_FMT_Z32_FLOAT_S8X24_UINT;
}

static bool clp_zs_has_stencil(uint fmt) {
  return fmt == CLP_FMT_S8_UINT || fmt == CLP_FMT_Z24_UNORM_S8_UINT ||
         fmt == CLP_FMT_S8_UINT_Z24_UNORM || fmt == CLP_FMT_Z32_FLOAT_S8X24_UINT;
}

// A pixel of a depth/stencil buffer: two 32-bit words (the second only for 8-byte formats).
static uint2 clp_zs_load(uint fmt, global const uchar* p) {
  switch (clp_zs_bytes(fmt)) {
    case 1:
      return (uint2)(p[0], 0);
    case 2:
      return (uint2)(p[0] | ((uint)p[1] << 8), 0);
    case 4:
      return (uint2)(p[0] | ((uint)p[1] << 8) | ((uint)p[2] << 16) | ((uint)p[3] << 24), 0);
    case 8: {
      uchar8 b = vload8(0, p);
      return (uint2)(b.s0 | ((uint)b.s1 << 8) | ((uint)b.s2 << 16) | ((uint)b.s3 << 24),
                     b.s4 | ((uint)b.s5 << 8) | ((uint)b.s6 << 16) | ((uint)b.s7 << 24));
    }
    default:
      return (uint2)(0, 0);
  }
}

static void clp_zs_store(uint fmt, global uchar* p, uint2 v) {
  const uint n = clp_zs_bytes(fmt);
  for (uint i = 0; i < n; ++i)
    p[i] = (uchar)((i < 4 ? v.x : v.y) >> (8 * (i & 3)));
}

// The depth key of a fragment depth z: round(clamp(z, 0, 1) * (2^bits - 1)) for UNORM,
// computed exactly in integers from z's mantissa; the float's bits (with -0 and NaN as 0)
// for float depth.
static uint clp_zs_depth_key(uint fmt, float z) {
  if (clp_zs_depth_float(fmt)) {
    if (isnan(z) || z == 0.0f) return 0;
    return as_uint(z);
  }
  const uint bits = clp_zs_depth_bits(fmt);
  if (!(z > 0.0f)) return 0;
  const ulong maxv = (bits >= 32 ? 0xffffffffUL : ((1UL << bits) - 1));
  if (z >= 1.0f) return (uint)maxv;
  // z = m * 2^-k with m < 2^24: the product m * maxv fits in 64 bits for bits <= 32.
  int e;
  const float mant = frexp(z, &e);              // z = mant * 2^e, mant in [0.5, 1)
  const ulong m = (ulong)(mant * 16777216.0f);  // exact: 24 bits
  const int k = 24 - e;                         // z = m / 2^k, k >= 24
  if (k >= 64) return 0;
  const ulong prod = m * maxv;
  const ulong r = k > 0 ? (prod + (1UL << (k - 1))) >> k : prod;
  return (uint)min(r, maxv);
}

// The lane-vector forms below work on vf, vu, vi of shader_abi.h: the tile pass's
// fragments.

// clp_zs_depth_key of the lanes' fragments.
static vu clp_zs_depth_key_v(uint fmt, vf z) {
  if (clp_zs_depth_float(fmt)) {
    return select(CLP_AS_VU(z), (vu)(0u), CLP_AS_VU(isnan(z) | (z == 0.0f)));
  }
  const uint bits = clp_zs_depth_bits(fmt);
  const uint maxv = bits >= 32 ? 0xffffffffu : (1u << bits) - 1u;
  // For 0 < z < 1 in 32-bit lanes: u = z 2^bits (exact, a power of two) = n + f with n =
  // floor(u) and f = u - n (exact), so round-half-up(z (2^bits - 1)) = n + floor(f - z +
  // 1/2), where f - z + 1/2 lies in (-1/2, 3/2): n + 1 when f - 1/2 >= z, n - 1 when
  // f + 1/2 < z, else n. Both sides are exact: for u >= 1, f is a multiple of 2^-23 below
  // 1, so f +- 1/2 is a float; for u < 1 (n = 0), f - 1/2 is u - 1/2, exact from 1/2 up and
  // negative (below z) under it, and f + 1/2 >= 1/2 > z.
  const vf u = z * (bits >= 32 ? 4294967296.0f : (float)(1u << bits));
  const vf n = floor(u);
  const vf f = u - n;
  // Out-of-range n (z >= 1, NaN) converts to some value the selects below replace.
  vu key = CLP_VN(convert_uint)(n);
  key -= CLP_AS_VU(CLP_MASK(f - 0.5f >= z));  // -1 where true: + 1
  key += CLP_AS_VU(CLP_MASK(f + 0.5f < z));   // - 1
  key = select(key, (vu)(maxv), CLP_AS_VU(z >= 1.0f));
  return select(key, (vu)(0u), CLP_AS_VU(!(z > 0.0f)));
}

// The depth key of the lanes' pixels, whose first words are w, and the words with a new
// key.
static vu clp_zs_get_depth_v(uint fmt, vu w) {
  switch (fmt) {
    case CLP_FMT_Z16_UNORM:
      return w & 0xffffu;
    case CLP_FMT_Z24_UNORM_S8_UINT:
    case CLP_FMT_Z24X8_UNORM:
      return w & 0xffffffu;
    case CLP_FMT_S8_UINT_Z24_UNORM:
    case CLP_FMT_X8Z24_UNORM:
      return w >> 8;
    case CLP_FMT_Z32_UNORM:
    case CLP_FMT_Z32_FLOAT:
    case CLP_FMT_Z32_FLOAT_S8X24_UINT:
      return w;
    default:
      return (vu)(0u);
  }
}

static vu clp_zs_set_depth_v(uint fmt, vu w, vu key) {
  switch (fmt) {
    case CLP_FMT_Z16_UNORM:
      return key & 0xffffu;
    case CLP_FMT_Z24_UNORM_S8_UINT:
      return (w & 0xff000000u) | (key & 0xffffffu);
    case CLP_FMT_Z24X8_UNORM:
      return key & 0xffffffu;
    case CLP_FMT_S8_UINT_Z24_UNORM:
      return (w & 0xffu) | (key << 8);
    case CLP_FMT_X8Z24_UNORM:
      return key << 8;
    case CLP_FMT_Z32_UNORM:
    case CLP_FMT_Z32_FLOAT:
    case CLP_FMT_Z32_FLOAT_S8X24_UINT:
      return key;
    default:
      return w;
  }
}

// The stencil values of the lanes' pixels, whose first and second words are lo and hi,
// and the words with new values.
static vu clp_zs_get_stencil_v(uint fmt, vu lo, vu hi) {
  switch (fmt) {
    case CLP_FMT_S8_UINT:
    case CLP_FMT_S8_UINT_Z24_UNORM:
      return lo & 0xffu;
    case CLP_FMT_Z24_UNORM_S8_UINT:
      return lo >> 24;
    case CLP_FMT_Z32_FLOAT_S8X24_UINT:
      return hi & 0xffu;
    default:
      return (vu)(0u);
  }
}

static void clp_zs_set_stencil_v(uint fmt, vu* lo, vu* hi, vu s) {
  s &= 0xffu;
  switch (fmt) {
    case CLP_FMT_S8_UINT:
      *lo = s;
      break;
    case CLP_FMT_S8_UINT_Z24_UNORM:
      *lo = (*lo & ~0xffu) | s;
      break;
    case CLP_FMT_Z24_UNORM_S8_UINT:
      *lo = (*lo & 0xffffffu) | (s << 24);
      break;
    case CLP_FMT_Z32_FLOAT_S8X24_UINT:
      *hi = (*hi & ~0xffu) | s;
      break;
    default:
      break;
  }
}

static bool clp_compare_u(uint func, uint a, uint b) {
  CLP_COMPARE_BODY(func, a, b, false, true)
}
static bool clp_compare_f(uint func, float a, float b) {
  CLP_COMPARE_BODY(func, a, b, false, true)
}
#if CLP_LANES == 1
// Lane masks are ~0 / 0 at one lane too (shader_lib.h's CLP_MASK).
static vi clp_compare_u_v(uint func, vu a, vu b) {
  return CLP_MASK(clp_compare_u(func, a, b));
}
static vi clp_compare_f_v(uint func, vf a, vf b) {
  return CLP_MASK(clp_compare_f(func, a, b));
}
#else
static vi clp_compare_u_v(uint func, vu a, vu b) {
  CLP_COMPARE_BODY(func, a, b, (vi)(0), (vi)(-1))
}
static vi clp_compare_f_v(uint func, vf a, vf b) {
  CLP_COMPARE_BODY(func, a, b, (vi)(0), (vi)(-1))
}
#endif

// clpipe::StencilOp on the lanes' 8-bit stencil values.
static vu clp_stencil_op_v(uint op, vu s, vu ref) {
  switch (op) {
    case 0:
      return s;
    case 1:
      return (vu)(0u);
    case 2:
      return ref;
    case 3:
      return min(s + 1u, (vu)(255u));
    case 4:
      return max(s, (vu)(1u)) - 1u;
    case 5:
      return (s + 1u) & 0xffu;
    case 6:
      return (s - 1u) & 0xffu;
    case 7:
      return ~s & 0xffu;
    default:
      return s;
  }
}

#endif  // CLPIPE_RASTER_ZS_H
