// The device library of generated shader code: lane-parallel helpers the OpenCL C
// emitter (src/compiler/emit) calls for what is more than one expression: TGSI's defined
// results of integer division, bit-field and conversion edge cases, derivatives, per-lane
// gathers and scatters of indirectly addressed registers and of constant, shader-buffer
// and shared memory (bounds-checked), atomics, packing, subgroup (quad) operations, and
// the 64-bit value pairs.
//
// Included at the top of every generated body, after the prelude, shader_abi.h and
// format.h (which provides the half-float and normalised conversions). Every function
// works for CLP_LANES 4, 8 and 16 (one value per lane in a vector) and 1 (scalars).
//
// Conventions: masks are vi with ~0 (active) or 0 per lane; results of inactive lanes of
// a gather are 0; scatters and atomics touch memory only for active lanes in range.
#ifndef CLPIPE_SHADER_LIB_H
#define CLPIPE_SHADER_LIB_H

#include "shader_lib_shared.h"

// floor() rounds with one instruction where the compiler offers the elementwise builtin;
// PoCL's floor() is a sequence of about thirteen (truncate, correct, special cases). Both
// are exact, so they give the same results.
#if defined(__has_builtin)
#if __has_builtin(__builtin_elementwise_floor)
#define CLP_FLOOR(x) __builtin_elementwise_floor(x)
#endif
#endif
#ifndef CLP_FLOOR
#define CLP_FLOOR(x) floor(x)
#endif
// rint() the same way: OpenCL C rounds to nearest even (kernels cannot change the mode),
// which is what roundeven does.
#if defined(__has_builtin)
#if __has_builtin(__builtin_elementwise_roundeven)
#define CLP_RINT(x) __builtin_elementwise_roundeven(x)
#endif
#endif
#ifndef CLP_RINT
#define CLP_RINT(x) rint(x)
#endif

#if CLP_LANES > 1
// The OR and the AND of the lanes of v: halves combined (a few vector operations, where
// PoCL's any() and all() test the lanes one by one, each with a branch).
static uint clp_or_lanes(vu v) {
#if CLP_LANES == 16
  const uint8 v8 = v.lo | v.hi;
  const uint4 v4 = v8.lo | v8.hi;
#elif CLP_LANES == 8
  const uint4 v4 = v.lo | v.hi;
#else
  const uint4 v4 = v;
#endif
  const uint2 v2 = v4.lo | v4.hi;
  return v2.x | v2.y;
}
static uint clp_and_lanes(vu v) {
#if CLP_LANES == 16
  const uint8 v8 = v.lo & v.hi;
  const uint4 v4 = v8.lo & v8.hi;
#elif CLP_LANES == 8
  const uint4 v4 = v.lo & v.hi;
#else
  const uint4 v4 = v;
#endif
  const uint2 v2 = v4.lo & v4.hi;
  return v2.x & v2.y;
}
// any() and all(): whether the top bit of some lane (of every lane) of m is set.
#define CLP_ANY(m) ((int)clp_or_lanes(CLP_AS_VU(m)) < 0)
#define CLP_ALL(m) ((int)clp_and_lanes(CLP_AS_VU(m)) < 0)
#if CLP_LANES == 4
#define CLP_LANE_IDS ((vi)(0, 1, 2, 3))
#elif CLP_LANES == 8
#define CLP_LANE_IDS ((vi)(0, 1, 2, 3, 4, 5, 6, 7))
#else
#define CLP_LANE_IDS ((vi)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
#endif
// Lane l set in a mask.
#define CLP_ONE_LANE(l) (CLP_LANE_IDS == (vi)(l))
#define CLP_UNPACK(T, v, a) \
  T a[CLP_LANES];           \
  CLP_VN(vstore)((v), 0, a)
#define CLP_PACK(a) CLP_VN(vload)(0, a)
#else
static uint clp_or_lanes(vu v) {
  return v;
}
static uint clp_and_lanes(vu v) {
  return v;
}
#define CLP_ANY(m) ((m) != 0)
#define CLP_ALL(m) ((m) != 0)
#define CLP_ONE_LANE(l) ((vi)(-1))
#define CLP_LANE_IDS ((vi)(0))
#define CLP_UNPACK(T, v, a) \
  T a[1];                   \
  a[0] = (v)
#define CLP_PACK(a) (a[0])
#endif
#define CLP_F2I_SAT(x) CLP_VN2(convert_int, _sat_rtz)(x)
#define CLP_F2U_SAT(x) CLP_VN2(convert_uint, _sat_rtz)(x)
// convert_int_sat_rtn: the saturating conversion of the exact floor.
#define CLP_F2I_FLOOR(x) CLP_VN2(convert_int, _sat)(CLP_FLOOR(x))
#define CLP_CVT_VU CLP_VN(convert_uint)
#define CLP_CVT_VI CLP_VN(convert_int)
#define CLP_AS_VUL CLP_VN(as_ulong)
#define CLP_AS_VL CLP_VN(as_long)

// A lane vector broadcast from bits.
#define CLP_VF_BITS(u) CLP_AS_VF((vu)(u))

// ---------------------------------------------------------------------------------
// Float helpers

// _SAT: fmin(fmax(x, 0), 1); fmax returns the non-NaN operand, so NaN -> 0.
static vf clp_sat(vf x) {
  return fmin(fmax(x, (vf)(0.0f)), (vf)(1.0f));
}
// MIN / MAX order -0 below +0 (IEEE 754-2019 minimum/maximumNumber): GLSL's abs(x) is
// lowered to MAX(x, -x), which must give +0 for x = +-0, and fmin/fmax may return either
// zero. Equal operands differ at most in the sign bit, so AND / OR of the bits picks it.
static vf clp_max(vf a, vf b) {
  return select(fmax(a, b), CLP_AS_VF(CLP_AS_VU(a) & CLP_AS_VU(b)), CLP_MASK(a == b));
}
static vf clp_min(vf a, vf b) {
  return select(fmin(a, b), CLP_AS_VF(CLP_AS_VU(a) | CLP_AS_VU(b)), CLP_MASK(a == b));
}
// Boolean mask -> 1.0 / 0.0.
static vf clp_b2f(vi m) {
  return CLP_AS_VF(CLP_AS_VU(m) & (vu)(0x3f800000u));
}
// LEGACY_MATH_RULES multiply: 0 * anything (Inf, NaN) = 0.
static vf clp_lmul(vf a, vf b) {
  return select(a * b, (vf)(0.0f), CLP_MASK(a == (vf)(0.0f)) | CLP_MASK(b == (vf)(0.0f)));
}
// SSG: 1, -1 or 0 (NaN -> 0).
static vf clp_ssg(vf x) {
  vf r = select((vf)(0.0f), (vf)(1.0f), CLP_MASK(x > (vf)(0.0f)));
  return select(r, (vf)(-1.0f), CLP_MASK(x < (vf)(0.0f)));
}

// SIN / COS. While every lane is moderate (|x| <= 2^16; NaN and infinities are not) a
// block takes clp_sincos_v below, else the library's scalar call lane by lane: PoCL's
// vector sin/cos give wrong results for small lanes when another lane is huge (e.g.
// sin(0.001) = 0.008 next to 1e10), and they cost about twice clp_sincos_v.
#define CLP_TRIG_VECTOR_MAX 65536.0f

// sin(x + quarter * pi/2) of lanes with |x| <= CLP_TRIG_VECTOR_MAX, within 4 ulp of the
// correctly rounded value as OpenCL's sin/cos (tests/compiler/emit): r = x - j * pi/2
// with j = rint(x * 2/pi), pi/2 split in three floats P1 + P2 + P3 (P1 has 8 significant
// bits, so j * P1 and x - j * P1 are exact for |j| < 2^16; the fmas then round relative
// to r itself); |r| <= pi/4 (plus rounding), where the minimax polynomials of Cephes'
// sinf/cosf (public-domain coefficients) are within 1 ulp. Quadrant (j + quarter) & 3:
// sin, cos, -sin, -cos of r.
static vf clp_sincos_v(vf x, int quarter) {
  const vf j = CLP_RINT(x * 0.63661977f);
  vf r = fma(j, (vf)(-1.5703125f), x);
  r = fma(j, (vf)(-4.8382679233327508e-4f), r);
  r = fma(j, (vf)(-2.5633440682570896e-12f), r);
  const vf r2 = r * r;
  const vf s = fma(
      fma(fma((vf)(-1.9515295891e-4f), r2, (vf)(8.3321608736e-3f)), r2, (vf)(-1.6666654611e-1f)),
      r2 * r, r);
  const vf c = fma(fma(fma(fma((vf)(2.443315711809948e-5f), r2, (vf)(-1.388731625493765e-3f)), r2,
                           (vf)(4.166664568298827e-2f)),
                       r2, (vf)(-0.5f)),
                   r2, (vf)(1.0f));
  const vi q = CLP_CONVERT_VI(j) + quarter;
  const vf v = select(s, c, (q & 1) != 0);
  return CLP_AS_VF(CLP_AS_VU(v) ^ (CLP_AS_VU(q & 2) << 30));
}

static vf clp_sin(vf x) {
#if CLP_LANES > 1
  if (CLP_ALL(fabs(x) <= (vf)(CLP_TRIG_VECTOR_MAX))) return clp_sincos_v(x, 0);
#endif
  CLP_UNPACK(float, x, a);
  for (int l = 0; l < CLP_LANES; ++l)
    a[l] = sin(a[l]);
  return CLP_PACK(a);
}
static vf clp_cos(vf x) {
#if CLP_LANES > 1
  if (CLP_ALL(fabs(x) <= (vf)(CLP_TRIG_VECTOR_MAX))) return clp_sincos_v(x, 1);
#endif
  CLP_UNPACK(float, x, a);
  for (int l = 0; l < CLP_LANES; ++l)
    a[l] = cos(a[l]);
  return CLP_PACK(a);
}

// clp_div_mersenne of format_convert.h per lane: n-bit UNORM codes (n <= 24) -> floats,
// for the decodes that run on lane vectors (the tile pass's colour stage, sampling).
static vf clp_vdiv_mersenne(vf x, uint n) {
  const float m = (float)((1u << n) - 1u), y = clp_rcp_mersenne[n];
  const vf q = x * y;
  return fma(fma(-q, (vf)(m), x), (vf)(y), q);
}

// ---------------------------------------------------------------------------------
// Integer division (tgsi.md §15.7: never a trapping division on any lane)

// UDIV: ~0 for a zero divisor.
static vu clp_udiv(vu a, vu b) {
  const vi z = CLP_MASK(b == (vu)(0u));
  const vu q = a / select(b, (vu)(1u), z);
  return select(q, (vu)(0xffffffffu), z);
}
// UMOD: ~0 for a zero divisor.
static vu clp_umod(vu a, vu b) {
  const vi z = CLP_MASK(b == (vu)(0u));
  const vu r = a % select(b, (vu)(1u), z);
  return select(r, (vu)(0xffffffffu), z);
}
// IDIV: 0 for a zero divisor (softpipe); INT_MIN / -1 = INT_MIN (wraps).
static vi clp_idiv(vi a, vi b) {
  const vi z = CLP_MASK(b == (vi)(0));
  const vi ovf = CLP_MASK(a == (vi)(INT_MIN)) & CLP_MASK(b == (vi)(-1));
  const vi q = a / select(b, (vi)(1), z | ovf);
  return select(q, (vi)(0), z);
}
// MOD: ~0 for a zero divisor (softpipe); INT_MIN % -1 = 0. C remainder (sign of a).
static vi clp_imod(vi a, vi b) {
  const vi z = CLP_MASK(b == (vi)(0));
  const vi ovf = CLP_MASK(a == (vi)(INT_MIN)) & CLP_MASK(b == (vi)(-1));
  const vi r = a % select(b, (vi)(1), z | ovf);
  return select(r, (vi)(-1), z);
}

// ---------------------------------------------------------------------------------
// Bit fields (softpipe's micro_ibfe / micro_ubfe / micro_bfi, with shift counts kept in
// range): offset & 31; width 32 at offset 0 returns the source; otherwise width & 31,
// width 0 gives 0, and a field reaching past bit 31 takes the bits up to bit 31.

static vi clp_ibfe(vi v, vi offset, vi bits) {
  const vi o = offset & 31, w = bits & 31;
  const vi inside = CLP_MASK((w + o) < (vi)(32));
  const vi a =
      CLP_AS_VI(CLP_AS_VU(v) << CLP_AS_VU(((vi)(32) - w - o) & 31)) >> (((vi)(32) - w) & 31);
  const vi b = v >> o;
  vi r = select(b, a, inside);
  r = select(r, (vi)(0), CLP_MASK(w == (vi)(0)));
  return select(r, v, CLP_MASK(bits == (vi)(32)) & CLP_MASK(o == (vi)(0)));
}
static vu clp_ubfe(vu v, vi offset, vi bits) {
  const vi o = offset & 31, w = bits & 31;
  const vi inside = CLP_MASK((w + o) < (vi)(32));
  const vu a = (v << CLP_AS_VU(((vi)(32) - w - o) & 31)) >> CLP_AS_VU(((vi)(32) - w) & 31);
  const vu b = v >> CLP_AS_VU(o);
  vu r = select(b, a, inside);
  r = select(r, (vu)(0u), CLP_MASK(w == (vi)(0)));
  return select(r, v, CLP_MASK(bits == (vi)(32)) & CLP_MASK(o == (vi)(0)));
}
// BFI: base with `bits` bits of insert placed at `offset`; width 32 returns insert.
static vu clp_bfi(vu base, vu insert, vi offset, vi bits) {
  const vu o = CLP_AS_VU(offset & 31), w = CLP_AS_VU(bits & 31);
  const vu field = ((vu)(1u) << w) - (vu)(1u);  // w < 32: no overflow
  const vu mask = field << o;
  const vu r = ((insert << o) & mask) | (base & ~mask);
  return select(r, insert, CLP_MASK(bits == (vi)(32)));
}
static vu clp_brev(vu x) {
  x = ((x >> 1) & (vu)(0x55555555u)) | ((x & (vu)(0x55555555u)) << 1);
  x = ((x >> 2) & (vu)(0x33333333u)) | ((x & (vu)(0x33333333u)) << 2);
  x = ((x >> 4) & (vu)(0x0f0f0f0fu)) | ((x & (vu)(0x0f0f0f0fu)) << 4);
  x = ((x >> 8) & (vu)(0x00ff00ffu)) | ((x & (vu)(0x00ff00ffu)) << 8);
  return (x >> 16) | (x << 16);
}
// LSB: index of the lowest set bit, -1 for 0.
static vi clp_lsb(vu x) {
  const vu low = x & ((vu)(0u) - x);
  return select((vi)(31) - CLP_AS_VI(clz(low)), (vi)(-1), CLP_MASK(x == (vu)(0u)));
}
// UMSB: index of the highest set bit, -1 for 0.
static vi clp_umsb(vu x) {
  return select((vi)(31) - CLP_AS_VI(clz(x)), (vi)(-1), CLP_MASK(x == (vu)(0u)));
}
// IMSB: index of the highest bit that differs from the sign bit; -1 for 0 and -1.
static vi clp_imsb(vi x) {
  const vu y = CLP_AS_VU(select(x, ~x, CLP_MASK(x < (vi)(0))));
  return clp_umsb(y);
}
static vi clp_issg(vi x) {
  return select(select((vi)(0), (vi)(1), CLP_MASK(x > (vi)(0))), (vi)(-1), CLP_MASK(x < (vi)(0)));
}

// ---------------------------------------------------------------------------------
// Packing (PK2H, UP2H, PK2US, PK4B, PK4UB) through format.h's exact converters.

// format.h converts four values at a time: wider lane vectors go by quarters or halves.
#if CLP_LANES == 4
#define CLP_BY4(f, x) f(x)
#elif CLP_LANES == 8
#define CLP_BY4(f, x) ((vu)(f((x).lo), f((x).hi)))
#elif CLP_LANES == 16
#define CLP_BY4(f, x) ((vu)(f((x).lo.lo), f((x).lo.hi), f((x).hi.lo), f((x).hi.hi)))
#endif
static vu clp_f2h(vf x) {
#if CLP_LANES == 1
  return clp_float_bits_to_half(as_uint(x));
#else
  return CLP_BY4(clp_float_bits4_to_half4, CLP_AS_VU(x));
#endif
}
static vf clp_h2f(vu h) {
#if CLP_LANES == 1
  return as_float(clp_half_to_float_bits(h & 0xffffu));
#else
  return CLP_AS_VF(CLP_BY4(clp_half4_to_float_bits4, h & (vu)(0xffffu)));
#endif
}
// Each lane of x through a normalised converter of format_convert.h, n bits.
static vu clp_f2unorm(vf x, uint n) {
  CLP_UNPACK(float, x, a);
  uint r[CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l)
    r[l] = (uint)clp_float_to_unorm(a[l], n);
  return CLP_PACK(r);
}
static vu clp_f2snorm(vf x, uint n) {
  CLP_UNPACK(float, x, a);
  uint r[CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l)
    r[l] = (uint)clp_float_to_snorm(a[l], n);
  return CLP_PACK(r);
}

// ---------------------------------------------------------------------------------
// Derivatives within each 2x2 quad (lanes 4q .. 4q + 3, lane = 4q + x + 2 * y): coarse
// ones use the quad's top row / left column for the whole quad, fine ones each row /
// column. Swizzles of whole quads, so every quad's result is its own.
#if CLP_LANES == 4
static vf clp_ddx(vf v) {
  return v.s1111 - v.s0000;
}
static vf clp_ddy(vf v) {
  return v.s2222 - v.s0000;
}
static vf clp_ddx_fine(vf v) {
  return v.s1133 - v.s0022;
}
static vf clp_ddy_fine(vf v) {
  return v.s2323 - v.s0101;
}
#elif CLP_LANES == 8
static vf clp_ddx(vf v) {
  return v.s11115555 - v.s00004444;
}
static vf clp_ddy(vf v) {
  return v.s22226666 - v.s00004444;
}
static vf clp_ddx_fine(vf v) {
  return v.s11335577 - v.s00224466;
}
static vf clp_ddy_fine(vf v) {
  return v.s23236767 - v.s01014545;
}
#elif CLP_LANES == 16
static vf clp_ddx(vf v) {
  return v.s111155559999dddd - v.s000044448888cccc;
}
static vf clp_ddy(vf v) {
  return v.s22226666aaaaeeee - v.s000044448888cccc;
}
static vf clp_ddx_fine(vf v) {
  return v.s1133557799bbddff - v.s0022446688aaccee;
}
static vf clp_ddy_fine(vf v) {
  return v.s23236767ababefef - v.s010145458989cdcd;
}
#endif

// Every lane of each quad that holds a lane of mask m (its top bit set), as a -1 / 0
// mask. A quad's other lanes run as helpers for its derivatives; a quad without a lane of
// m has nothing to derive for: the tile pass leaves its lanes out of the invocation, so
// per-lane work (texel fetches, samples, loops) skips them.
static vi clp_quad_lanes(vi m) {
#if CLP_LANES == 1
  return m < 0 ? -1 : 0;
#else
#if CLP_LANES == 4
  vi t = m | m.s1032;
  t |= t.s2301;
#elif CLP_LANES == 8
  vi t = m | m.s10325476;
  t |= t.s23016745;
#else
  vi t = m | m.s1032547698badcfe;
  t |= t.s23016745ab89efcd;
#endif
  return t < (vi)(0);
#endif
}

// ---------------------------------------------------------------------------------
// Indirectly addressed private registers: element (i, chan) of a `vf [len][4]` array
// is base[i * 4 + chan]. Out-of-range lanes read 0 and write nothing.

static vf clp_reg_gather(const vf* base, int len, vi idx, int chan) {
  CLP_UNPACK(int, idx, ix);
  float r[CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l) {
    const int i = ix[l];
    r[l] = (i >= 0 && i < len) ? CLP_LANE(base[i * 4 + chan], l) : 0.0f;
  }
  return CLP_PACK(r);
}
static void clp_reg_scatter(vf* base, int len, vi idx, int chan, vf v, vi m) {
  CLP_UNPACK(int, idx, ix);
  CLP_UNPACK(int, m, mk);
  for (int l = 0; l < CLP_LANES; ++l) {
    const int i = ix[l];
    if (mk[l] && i >= 0 && i < len)
      base[i * 4 + chan] = select(base[i * 4 + chan], v, CLP_ONE_LANE(l));
  }
}

// Per-vertex registers of GS / TCS / TES addressed with a per-lane register index: one
// hook call per lane (shader_abi.h takes the register as a scalar). Registers outside
// [0, num_regs) read 0 and are not written.
#if defined(CLP_STAGE_GEOMETRY) || defined(CLP_STAGE_TESS_CTRL) || defined(CLP_STAGE_TESS_EVAL)
static vf clp_vin_gather(ClpStageCtx* stage, vi vertex, vi reg, int chan, int num_regs) {
  CLP_UNPACK(int, reg, rg);
  float r[CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l) {
    r[l] = (rg[l] >= 0 && rg[l] < num_regs)
               ? CLP_LANE(clp_vertex_input(stage, vertex, rg[l], chan), l)
               : 0.0f;
  }
  return CLP_PACK(r);
}
#endif
#ifdef CLP_STAGE_TESS_CTRL
static vf clp_vout_gather(ClpStageCtx* stage, vi vertex, vi reg, int chan, int num_regs) {
  CLP_UNPACK(int, reg, rg);
  float r[CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l) {
    r[l] = (rg[l] >= 0 && rg[l] < num_regs)
               ? CLP_LANE(clp_vertex_output_load(stage, vertex, rg[l], chan), l)
               : 0.0f;
  }
  return CLP_PACK(r);
}
static void clp_vout_scatter(ClpStageCtx* stage, vi vertex, vi reg, int chan, vf v, vi m,
                             int num_regs) {
  CLP_UNPACK(int, reg, rg);
  CLP_UNPACK(int, m, mk);
  for (int l = 0; l < CLP_LANES; ++l) {
    if (mk[l] && rg[l] >= 0 && rg[l] < num_regs) {
      clp_vertex_output_store(stage, vertex, rg[l], chan, v, m & CLP_ONE_LANE(l));
    }
  }
}
#endif

// ---------------------------------------------------------------------------------
// Constant buffers: `size` bytes bound; word w (= vec4 slot * 4 + channel) reads 0 at or
// past the end (LOAD of raw bytes uses clp_mem_load_g).

static vf clp_cb_load(global const uint* cb, uint size, int w) {
  return (w >= 0 && (uint)w < (size >> 2)) ? (vf)(as_float(cb[w])) : (vf)(0.0f);
}
// Channel `chan` of vec4 slot `slot` per lane (CONST[ADDR...]).
static vf clp_cb_gather(global const uint* cb, uint size, vi slot, int chan) {
  CLP_UNPACK(int, slot, ix);
  uint r[CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l) {
    const int i = ix[l];
    const uint w = (uint)i * 4u + (uint)chan;  // i < 2^28: no overflow
    r[l] = (i >= 0 && i < (1 << 28) && w < (size >> 2)) ? cb[w] : 0u;
  }
  return CLP_AS_VF(CLP_PACK(r));
}

// ---------------------------------------------------------------------------------
// Raw memory (shader buffers, atomic counters, global/input memory, shared memory):
// `size` bytes; lane address = byte offset (word aligned: the low 2 bits are ignored)
// plus 4 * chan. Written once per address space.

#define CLP_ATOM_ADD 0
#define CLP_ATOM_XCHG 1
#define CLP_ATOM_CAS 2
#define CLP_ATOM_AND 3
#define CLP_ATOM_OR 4
#define CLP_ATOM_XOR 5
#define CLP_ATOM_UMIN 6
#define CLP_ATOM_UMAX 7
#define CLP_ATOM_IMIN 8
#define CLP_ATOM_IMAX 9
#define CLP_ATOM_FADD 10
#define CLP_ATOM_INC_WRAP 11
#define CLP_ATOM_DEC_WRAP 12

#define CLP_DEFINE_MEMORY(AS, SFX)                                                            \
  static vf clp_mem_load_##SFX(AS const uint* b, uint size, vu addr, int chan) {              \
    CLP_UNPACK(uint, addr, ad);                                                               \
    uint r[CLP_LANES];                                                                        \
    for (int l = 0; l < CLP_LANES; ++l) {                                                     \
      const uint w = (ad[l] >> 2) + (uint)chan;                                               \
      r[l] = w < (size >> 2) ? b[w] : 0u; /* ad >> 2 < 2^30: no overflow */                   \
    }                                                                                         \
    return CLP_AS_VF(CLP_PACK(r));                                                            \
  }                                                                                           \
  static void clp_mem_store_##SFX(AS uint* b, uint size, vu addr, int chan, vf v, vi m) {     \
    CLP_UNPACK(uint, addr, ad);                                                               \
    CLP_UNPACK(int, m, mk);                                                                   \
    CLP_UNPACK(uint, CLP_AS_VU(v), vv);                                                       \
    for (int l = 0; l < CLP_LANES; ++l) {                                                     \
      const uint w = (ad[l] >> 2) + (uint)chan;                                               \
      if (mk[l] && w < (size >> 2)) b[w] = vv[l];                                             \
    }                                                                                         \
  }                                                                                           \
  static uint clp_atomic_one_##SFX(volatile AS uint* p, int op, uint v, uint v2) {            \
    switch (op) {                                                                             \
      case CLP_ATOM_ADD:                                                                      \
        return atomic_add(p, v);                                                              \
      case CLP_ATOM_XCHG:                                                                     \
        return atomic_xchg(p, v);                                                             \
      case CLP_ATOM_CAS:                                                                      \
        return atomic_cmpxchg(p, v, v2);                                                      \
      case CLP_ATOM_AND:                                                                      \
        return atomic_and(p, v);                                                              \
      case CLP_ATOM_OR:                                                                       \
        return atomic_or(p, v);                                                               \
      case CLP_ATOM_XOR:                                                                      \
        return atomic_xor(p, v);                                                              \
      case CLP_ATOM_UMIN:                                                                     \
        return atomic_min(p, v);                                                              \
      case CLP_ATOM_UMAX:                                                                     \
        return atomic_max(p, v);                                                              \
      case CLP_ATOM_IMIN:                                                                     \
        return (uint)atomic_min((volatile AS int*)p, (int)v);                                 \
      case CLP_ATOM_IMAX:                                                                     \
        return (uint)atomic_max((volatile AS int*)p, (int)v);                                 \
      default:                                                                                \
        break;                                                                                \
    }                                                                                         \
    /* Read-modify-write through compare-and-swap (lock-free: some lane always wins). */      \
    uint old = *p, seen;                                                                      \
    for (;;) {                                                                                \
      uint next;                                                                              \
      if (op == CLP_ATOM_FADD) {                                                              \
        next = as_uint(as_float(old) + as_float(v));                                          \
      } else if (op == CLP_ATOM_INC_WRAP) {                                                   \
        next = old >= v ? 0u : old + 1u;                                                      \
      } else {                                                                                \
        next = (old > 0u && old < v) ? old - 1u : 0u;                                         \
      }                                                                                       \
      seen = atomic_cmpxchg(p, old, next);                                                    \
      if (seen == old) return old;                                                            \
      old = seen;                                                                             \
    }                                                                                         \
  }                                                                                           \
  static vf clp_mem_atomic_##SFX(AS uint* b, uint size, vu addr, int op, vu v, vu v2, vi m) { \
    CLP_UNPACK(uint, addr, ad);                                                               \
    CLP_UNPACK(int, m, mk);                                                                   \
    CLP_UNPACK(uint, v, a);                                                                   \
    CLP_UNPACK(uint, v2, c);                                                                  \
    uint r[CLP_LANES];                                                                        \
    for (int l = 0; l < CLP_LANES; ++l) {                                                     \
      const uint w = ad[l] >> 2;                                                              \
      r[l] = (mk[l] && w < (size >> 2)) ? clp_atomic_one_##SFX(b + w, op, a[l], c[l]) : 0u;   \
    }                                                                                         \
    return CLP_AS_VF(CLP_PACK(r));                                                            \
  }

CLP_DEFINE_MEMORY(global, g)
CLP_DEFINE_MEMORY(local, l)

// ---------------------------------------------------------------------------------
// Subgroup operations: the subgroup is the work-item's lanes (a quad, four vertices or
// primitives, or one compute invocation). `m` = the active lanes.

static vi clp_vote_any(vu x, vi m) {
  return (vi)(CLP_ANY(m & CLP_MASK(x != (vu)(0u))) ? -1 : 0);
}
static vi clp_vote_all(vu x, vi m) {
  return (vi)(CLP_ANY(m & CLP_MASK(x == (vu)(0u))) ? 0 : -1);
}
// The first active lane (0 when none is).
static int clp_first_lane(vi m) {
  CLP_UNPACK(int, m, mk);
  for (int l = 0; l < CLP_LANES; ++l) {
    if (mk[l]) return l;
  }
  return 0;
}
static vf clp_read_first(vf x, vi m) {
  return (vf)(CLP_LANE(x, clp_first_lane(m)));
}
static vi clp_vote_eq(vf x, vi m) {
  const vu first = (vu)(as_uint(CLP_LANE(x, clp_first_lane(m))));
  return (vi)(CLP_ANY(m & CLP_MASK(CLP_AS_VU(x) != first)) ? 0 : -1);
}
// READ_INVOC: lane `idx` (modulo the subgroup size) of x, per lane.
static vf clp_read_invoc(vf x, vu idx) {
  CLP_UNPACK(uint, idx, ix);
  float r[CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l)
    r[l] = CLP_LANE(x, (int)(ix[l] % (uint)CLP_LANES));
  return CLP_PACK(r);
}
// BALLOT: bit l set for the active lanes whose x is non-zero (the low word of 64).
static vu clp_ballot(vu x, vi m) {
  const vi on = m & CLP_MASK(x != (vu)(0u));
  CLP_UNPACK(int, on, o);
  uint bits = 0u;
  for (int l = 0; l < CLP_LANES; ++l)
    bits |= o[l] ? (1u << l) : 0u;
  return (vu)(bits);
}

// ---------------------------------------------------------------------------------
// 64-bit values in channel pairs: low word in the first channel of the pair.
#ifdef CLP_SHADER_INT64
typedef CLP_VN(long) vl;
typedef CLP_VN(ulong) vul;
#define CLP_CVT_VL CLP_VN(convert_long)
#define CLP_CVT_VUL CLP_VN(convert_ulong)
#define CLP_F2L_SAT(x) CLP_VN2(convert_long, _sat_rtz)(x)
#define CLP_F2UL_SAT(x) CLP_VN2(convert_ulong, _sat_rtz)(x)
// 64-bit comparison -> 32-bit lane mask (ints of a pair's result) or 64-bit select mask.
#if CLP_LANES > 1
#define CLP_LMASK(cmp) CLP_VN(convert_int)(cmp)
#define CLP_M64(cmp) (cmp)
#else
#define CLP_LMASK(cmp) (-(int)(cmp))
#define CLP_M64(cmp) (-(long)(cmp))
#endif
static vul clp_mk64(vf lo, vf hi) {
  return upsample(CLP_AS_VU(hi), CLP_AS_VU(lo));
}
static vf clp_lo64(vul x) {
  return CLP_AS_VF(CLP_CVT_VU(x & (vul)(0xffffffffUL)));
}
static vf clp_hi64(vul x) {
  return CLP_AS_VF(CLP_CVT_VU(x >> 32));
}
static vul clp_u64div(vul a, vul b) {
  const vl z = CLP_M64(b == (vul)(0UL));
  return select(a / select(b, (vul)(1UL), z), (vul)(~0UL), z);
}
static vul clp_u64mod(vul a, vul b) {
  const vl z = CLP_M64(b == (vul)(0UL));
  return select(a % select(b, (vul)(1UL), z), (vul)(~0UL), z);
}
static vl clp_i64div(vl a, vl b) {
  const vl z = CLP_M64(b == (vl)(0L));
  const vl ovf = CLP_M64(a == (vl)(LONG_MIN)) & CLP_M64(b == (vl)(-1L));
  return select(a / select(b, (vl)(1L), z | ovf), (vl)(0L), z);
}
static vl clp_i64mod(vl a, vl b) {
  const vl z = CLP_M64(b == (vl)(0L));
  const vl ovf = CLP_M64(a == (vl)(LONG_MIN)) & CLP_M64(b == (vl)(-1L));
  return select(a % select(b, (vl)(1L), z | ovf), (vl)(-1L), z);
}
#endif

#ifdef CLP_SHADER_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef CLP_VN(double) vd;
#define CLP_AS_VD CLP_VN(as_double)
#define CLP_CVT_VD CLP_VN(convert_double)
#define CLP_D2I_SAT(x) CLP_VN2(convert_int, _sat_rtz)(clp_d_nonan(x))
#define CLP_D2U_SAT(x) CLP_VN2(convert_uint, _sat_rtz)(clp_d_nonan(x))
#define CLP_D2F(x) CLP_VN(convert_float)(x)
#define CLP_D2L_SAT(x) CLP_VN2(convert_long, _sat_rtz)(clp_d_nonan(x))
#define CLP_D2UL_SAT(x) CLP_VN2(convert_ulong, _sat_rtz)(clp_d_nonan(x))
// NaN as 0.0: OpenCL 1.2 (6.2.3.3) says a saturated conversion "should" turn NaN into 0,
// and NVIDIA's double conversions give INT_MIN instead; GL's D2I of NaN is 0 here.
static vd clp_d_nonan(vd x) {
#if CLP_LANES > 1
  return select(x, (vd)(0.0), isnan(x));
#else
  return isnan(x) ? 0.0 : x;
#endif
}
static vd clp_mkd(vf lo, vf hi) {
  return CLP_AS_VD(clp_mk64(lo, hi));
}
static vf clp_dlo(vd x) {
  return clp_lo64(CLP_AS_VUL(x));
}
static vf clp_dhi(vd x) {
  return clp_hi64(CLP_AS_VUL(x));
}
static vd clp_dssg(vd x) {
  const vd r = select((vd)(0.0), (vd)(1.0), CLP_M64(x > (vd)(0.0)));
  return select(r, (vd)(-1.0), CLP_M64(x < (vd)(0.0)));
}
#endif

#endif  // CLPIPE_SHADER_LIB_H
