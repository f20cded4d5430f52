// Number conversions of the device format codec: one channel value <-> float, bit-exact
// with the host codec (src/frontend/format_codec.cpp, the rules of format_codec.h).
//
// Producer of the values: raw channel bits from format_block.h; consumers: the table-
// driven and fast paths of format.h. Everything here is integer arithmetic on float bits
// or float arithmetic whose every step is exact (or one fma away from it), so results do
// not depend on the device's division, pow or denormal handling:
// * UNORM/SNORM decode: v / (2^n - 1) correctly rounded (one Markstein fma correction of
//   v * RN(1/(2^n - 1)); the host's double quotient rounded to float is the same value,
//   because a quotient by 2^n - 1 has a period-n binary expansion and so is never close
//   enough to a float midpoint for double rounding to matter). 32-bit: see
//   clp_div_mersenne_wide.
// * UNORM/SNORM encode: the host multiplies in double; x * (2^n - 1) is exact in double
//   up to n = 29, so for 32-bit channels (and the +0.5) the double rounding is emulated
//   with integers (clp_fmt_rn53).
// * half, 11/10-bit floats, RGB9E5 and double: integer ports of the host routines.
// Kernels including this must not be built with -cl-fast-relaxed-math,
// -cl-finite-math-only or -cl-unsafe-math-optimizations (they may rewrite fma chains).
#ifndef CLPIPE_KERNELS_FORMAT_CONVERT_H
#define CLPIPE_KERNELS_FORMAT_CONVERT_H

static ulong clp_fmt_mask64(uint bits) {
  return bits >= 64u ? ~0UL : (1UL << bits) - 1UL;
}
// 2^e as a float, exactly, for -126 <= e <= 127.
static float clp_fmt_exp2i(int e) {
  return as_float((uint)(e + 127) << 23);
}
// NaN test on the bits: immune to finite-math assumptions of the compiler.
static bool clp_fmt_isnan_bits(float x) {
  return (as_uint(x) & 0x7fffffffu) > 0x7f800000u;
}
static int clp_fmt_sign_extend(uint v, uint bits) {
  if (bits == 0u || bits >= 32u) return (int)v;
  const uint s = 32u - bits;
  return ((int)(v << s)) >> s;
}
// v >> s rounded to nearest, ties to even; 1 <= s <= 63.
static ulong clp_fmt_shift_rne(ulong v, uint s) {
  const ulong r = v >> s, rem = v & ((1UL << s) - 1UL), tie = 1UL << (s - 1u);
  return r + ((rem > tie || (rem == tie && (r & 1UL) != 0UL)) ? 1UL : 0UL);
}

// ---------------------------------------------------------------------------------
// UNORM / SNORM decode

// RN(1 / (2^n - 1)) for n = 0..24 (index n; n = 0 unused), correctly rounded (computed
// with exact rationals).
// clang-format off
constant float clp_rcp_mersenne[25] = {
    0.0f, 0x1p+0f, 0x1.555556p-2f, 0x1.24924ap-3f, 0x1.111112p-4f,
    0x1.084210p-5f, 0x1.041042p-6f, 0x1.020408p-7f, 0x1.010102p-8f, 0x1.008040p-9f,
    0x1.004010p-10f, 0x1.002004p-11f, 0x1.001002p-12f, 0x1.000800p-13f, 0x1.000400p-14f,
    0x1.000200p-15f, 0x1.000100p-16f, 0x1.000080p-17f, 0x1.000040p-18f, 0x1.000020p-19f,
    0x1.000010p-20f, 0x1.000008p-21f, 0x1.000004p-22f, 0x1.000002p-23f, 0x1.000002p-24f};
// clang-format on

// RN(v / (2^n - 1)) for 1 <= n <= 24 and |v| <= 2^n: q = RN(v * y) is faithful, the
// residual v - q * m is exact in one fma, and q + r * y rounded once is the correctly
// rounded quotient (Markstein's theorem; the device tests check every 8- and 16-bit value
// and all 2^24 24-bit ones).
static float clp_div_mersenne(float v, uint n) {
  const float m = (float)((1u << n) - 1u);
  const float y = clp_rcp_mersenne[n];
  const float q = v * y;
  return fma(fma(-q, m, v), y, q);
}
static float4 clp_div_mersenne4(float4 v, uint n) {
  const float m = (float)((1u << n) - 1u);
  const float y = clp_rcp_mersenne[n];
  const float4 q = v * y;
  return fma(fma(-q, (float4)(m), v), (float4)(y), q);
}

// The host's float(double(a) / (2^n - 1)) for 26 <= n <= 32, 0 <= a <= 2^n (32-bit UNORM,
// and SNORM magnitudes with n = 31). With q = a / (2^n - 1), q * 2^n = a + q: in units of
// 2^-n the quotient is the integer a plus the fraction q. Below 2^24, a * 2^-n is a float
// and the fraction is under half an ulp. Above, the double keeps k = 52 - l fraction bits
// (l = floor(log2 a)), and rounding to float drops the low `drop` bits of a:
// * if q rounds to 1 in k bits, the double is exactly a + 1, rounded to nearest even;
// * otherwise the fraction is strictly between 0 and 1 and only breaks ties: the low bits
//   of a round half up.
static float clp_div_mersenne_wide(uint a, uint n) {
  if (a < (1u << 24)) return (float)a * clp_fmt_exp2i(-(int)n);
  const uint l = 31u - clz(a), drop = l - 23u, k1 = 53u - l;  // drop 1..8, k1 = k + 1
  const ulong m = (1UL << n) - 1UL;
  // q >= 1 - 2^-(k+1) (a tie there rounds to the even 1): a * 2^(k+1) >= m * (2^(k+1) - 1).
  const bool plus_one = ((ulong)a << k1) >= m * ((1UL << k1) - 1UL);
  const ulong r = plus_one ? clp_fmt_shift_rne((ulong)a + 1UL, drop)
                           : ((ulong)a + (1UL << (drop - 1u))) >> drop;
  return convert_float(r << drop) * clp_fmt_exp2i(-(int)n);  // <= 25 significant bits: exact
}

// n-bit UNORM field -> float (host: float(double(v) / (2^n - 1))).
static float clp_unorm_to_float(uint v, uint bits) {
  if (bits > 24u) return clp_div_mersenne_wide(v, bits);
  return clp_div_mersenne((float)v, bits);
}
// n-bit SNORM field -> float (host: max(float(double(s) / (2^(n-1) - 1)), -1)).
static float clp_snorm_to_float(uint v, uint bits) {
  const int s = clp_fmt_sign_extend(v, bits);
  float q;
  if (bits > 25u) {
    const float a = clp_div_mersenne_wide(abs(s), bits - 1u);
    q = s < 0 ? -a : a;
  } else {
    q = clp_div_mersenne((float)s, bits - 1u);
  }
  return fmax(q, -1.0f);
}

// Four 8-bit UNORM values -> floats (the fast paths).
static float4 clp_unorm8x4_to_float4(uint4 v) {
  return clp_div_mersenne4(convert_float4(v), 8u);
}
// Four 24-bit UNORM values (depth) -> floats.
static float4 clp_unorm24x4_to_float4(uint4 v) {
  return clp_div_mersenne4(convert_float4(v & 0xffffffu), 24u);
}

// ---------------------------------------------------------------------------------
// UNORM / SNORM encode

// p rounded to 53 significant bits, ties to even: what storing p into a double does.
static ulong clp_fmt_rn53(ulong p) {
  const uint l = 63u - (uint)clz(p);
  if (p == 0UL || l < 53u) return p;
  const uint d = l - 52u;
  return clp_fmt_shift_rne(p, d) << d;
}

// Host: floor(double(clamp(x, 0, 1)) * (2^n - 1) + 0.5), NaN -> 0, for n <= 32. With
// x = mant * 2^-f, the product is mant * m * 2^-f: both double roundings (of the product
// and of the sum) are done on the integers.
static ulong clp_float_to_unorm(float x, uint bits) {
  const uint u = as_uint(x);
  const ulong m = clp_fmt_mask64(bits);
  if (u > 0x7f800000u) return 0UL;       // NaN, negatives (sign bit set), -0
  if (u >= 0x3f800000u) return m;        // >= 1, +Inf
  const uint e = u >> 23;                // 0..126
  if (e + bits + 2u < 127u) return 0UL;  // x * m < 0.25
  const uint f = 150u - e;               // 24 <= f <= 57
  const ulong mant = (ulong)((u & 0x7fffffu) | 0x800000u);
  const ulong p = clp_fmt_rn53(mant * m);  // < 2^56
  return clp_fmt_rn53(p + (1UL << (f - 1u))) >> f;
}

// Host: round-half-away(double(clamp(x, -1, 1)) * (2^(n-1) - 1)), NaN -> 0, as an n-bit
// two's complement field (n <= 32).
static ulong clp_float_to_snorm(float x, uint bits) {
  const uint u = as_uint(x), a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return 0UL;
  const ulong m = clp_fmt_mask64(bits - 1u);
  ulong mag;
  if (a >= 0x3f800000u) {
    mag = m;
  } else {
    const uint e = a >> 23;
    if (e + bits + 1u < 127u) return 0UL;  // |x| * m < 0.25
    const uint f = 150u - e;               // 24 <= f <= 56
    const ulong mant = (ulong)((a & 0x7fffffu) | 0x800000u);
    mag = (clp_fmt_rn53(mant * m) + (1UL << (f - 1u))) >> f;  // std::round is exact
  }
  return ((u >> 31) != 0u ? (0UL - mag) : mag) & clp_fmt_mask64(bits);
}

// Four floats -> 8-bit UNORM codes: the 8-bit case of clp_float_to_unorm in 32-bit
// lanes (mant * 255 < 2^32 and both double roundings are exact for 8 bits).
static uint4 clp_float4_to_unorm8x4(float4 x) {
  const uint4 u = as_uint4(x);
  const uint4 p = ((u & 0x7fffffu) | 0x800000u) * 255u;
  const uint4 s = 149u - (u >> 23);  // f - 1 for x = mant * 2^-f
  // floor(p / 2^f + 1/2) = ((p >> (f - 1)) + 1) >> 1; x < 2^-9 (s > 31) gives 0.
  uint4 r = s > 31u ? (uint4)(0u) : ((p >> s) + 1u) >> 1;
  r = u >= 0x3f800000u ? (uint4)(255u) : r;
  return u > 0x7f800000u ? (uint4)(0u) : r;
}
// Four floats -> 24-bit UNORM (depth) codes, in 64-bit lanes (mant * (2^24-1) < 2^48).
static uint4 clp_float4_to_unorm24x4(float4 x) {
  const uint4 u = as_uint4(x);
  const ulong4 p = convert_ulong4((u & 0x7fffffu) | 0x800000u) * 0xffffffUL;
  const uint4 s = 149u - (u >> 23);
  const uint4 r = convert_uint4(((p >> convert_ulong4(s)) + 1UL) >> 1);
  uint4 v = s > 63u ? (uint4)(0u) : r;  // s > 63: x < 2^-41, and the shift would wrap
  v = u >= 0x3f800000u ? (uint4)(0xffffffu) : v;
  return u > 0x7f800000u ? (uint4)(0u) : v;
}

// ---------------------------------------------------------------------------------
// Integer and fixed-point encode (decode is a plain conversion in format.h)

// UINT / USCALED from float: NaN and x <= 0 -> 0, else min(round-half-away(x), 2^n - 1).
static ulong clp_float_to_uint_sat(float x, uint bits) {
  if (!(as_uint(x) > 0u && as_uint(x) <= 0x7f800000u)) return 0UL;
  const float r = round(x);
  if (r >= clp_fmt_exp2i((int)bits)) return clp_fmt_mask64(bits);
  return (ulong)convert_uint(r);
}
// SINT / SSCALED from float: NaN -> 0, else clamp(round-half-away(x)) to the n-bit range.
static ulong clp_float_to_sint_sat(float x, uint bits) {
  if (clp_fmt_isnan_bits(x)) return 0UL;
  const float r = round(x), lim = clp_fmt_exp2i((int)bits - 1);
  const long hi = (long)((1UL << (bits - 1u)) - 1UL);
  const long v = r >= lim ? hi : (r < -lim ? -hi - 1L : convert_long(r));
  return (ulong)v & clp_fmt_mask64(bits);
}
// 16.16 fixed point: round-half-away(x * 65536) clamped to int32 (x * 65536 is exact, or
// overflows to an infinity that clamps the same way).
static ulong clp_float_to_fixed(float x, uint bits) {
  if (clp_fmt_isnan_bits(x)) return 0UL;
  const float r = round(x * 65536.0f);
  const long v = r >= 0x1p31f ? 0x7fffffffL : (r < -0x1p31f ? -0x80000000L : convert_long(r));
  return (ulong)v & clp_fmt_mask64(bits);
}

// ---------------------------------------------------------------------------------
// Half floats, written once for uint and uint4 lanes (vector ?: selects per lane).

// Half bits (low 16 bits) -> float bits, exact; NaN payloads are kept like the host does.
#define CLP_DEFINE_HALF_TO_FLOAT(NAME, U, CONVERT_F, AS_U)     \
  static U NAME(U h) {                                         \
    const U sign = (h & 0x8000u) << 16;                        \
    const U e = (h >> 10) & 0x1fu, m = h & 0x3ffu;             \
    const U normal = sign | ((e + 112u) << 23) | (m << 13);    \
    const U special = sign | 0x7f800000u | (m << 13);          \
    const U denormal = sign | AS_U(CONVERT_F(m) * 0x1p-24f);   \
    return e == 31u ? special : (e == 0u ? denormal : normal); \
  }
CLP_DEFINE_HALF_TO_FLOAT(clp_half_to_float_bits, uint, convert_float, as_uint)
CLP_DEFINE_HALF_TO_FLOAT(clp_half4_to_float_bits4, uint4, convert_float4, as_uint4)

// Float bits -> half bits, round to nearest even, overflow to Inf, NaN -> quiet NaN
// (sign | 0x7e00): the host's float_to_half step by step.
#define CLP_DEFINE_FLOAT_TO_HALF(NAME, U)                                               \
  static U NAME(U u) {                                                                  \
    const U sign = (u >> 16) & 0x8000u;                                                 \
    const U exp = (u >> 23) & 0xffu, mant = u & 0x7fffffu;                              \
    /* exp < 113: a half denormal, the implicit one shifted out with the rest. */       \
    const U shift = exp < 113u ? 126u - exp : (U)(13u);                                 \
    const U m = exp < 113u ? (mant | 0x800000u) : mant;                                 \
    const U exp_field = exp < 113u ? (U)(0u) : exp - 112u;                              \
    U r = m >> shift;                                                                   \
    const U rem = m & (((U)(1u) << shift) - 1u), tie = (U)(1u) << (shift - 1u);         \
    r += (rem > tie || (rem == tie && (r & 1u) != 0u)) ? (U)(1u) : (U)(0u);             \
    U res = sign | min((exp_field << 10) + r, (U)(0x7c00u));                            \
    res = exp < 102u ? sign : res; /* below half the smallest denormal: 0 */            \
    res = exp > 142u ? (sign | 0x7c00u) : res;                                          \
    return exp == 255u ? (sign | 0x7c00u | (mant != 0u ? (U)(0x200u) : (U)(0u))) : res; \
  }
CLP_DEFINE_FLOAT_TO_HALF(clp_float_bits_to_half, uint)
CLP_DEFINE_FLOAT_TO_HALF(clp_float_bits4_to_half4, uint4)

// ---------------------------------------------------------------------------------
// R11G11B10 floats (unsigned, 5-bit exponent with bias 15, `mbits` mantissa bits)

static float clp_small_float_to_float(uint v, uint mbits) {
  const uint e = v >> mbits, m = v & ((1u << mbits) - 1u);
  if (e == 31u) return as_float(m != 0u ? 0x7fc00000u : 0x7f800000u);
  if (e == 0u) return (float)m * clp_fmt_exp2i(-14 - (int)mbits);  // exact
  return as_float(((e + 112u) << 23) | (m << (23u - mbits)));
}

// Round to nearest even; negatives and -0 -> 0; NaN -> NaN; too large -> Inf.
static uint clp_float_to_small_float(float x, uint mbits) {
  const uint u = as_uint(x);
  if (clp_fmt_isnan_bits(x)) return (31u << mbits) | 1u;
  if ((u >> 31) != 0u || u == 0u) return 0u;
  const int e = (int)(u >> 23) - 127;
  if (e > 15) return 31u << mbits;
  uint mant = (u & 0x7fffffu) | 0x800000u;
  uint shift, exp_field;
  if (e < -14) {
    const int s = 23 - (int)mbits + (-14 - e);
    if (s > 24) return 0u;
    shift = (uint)s;
    exp_field = 0u;
  } else {
    shift = 23u - mbits;
    exp_field = (uint)(e + 15);
    mant &= 0x7fffffu;
  }
  const uint r = (exp_field << mbits) + (uint)clp_fmt_shift_rne(mant, shift);
  return min(r, 31u << mbits);  // a mantissa carry moves into the exponent, as intended
}

// ---------------------------------------------------------------------------------
// RGB9E5 (EXT_texture_shared_exponent)

static float4 clp_rgb9e5_to_float4(uint v) {
  const float scale = clp_fmt_exp2i((int)(v >> 27) - 24);
  const uint4 m = ((uint4)(v) >> (uint4)(0u, 9u, 18u, 27u)) & 0x1ffu;
  return (float4)(convert_float3(m.xyz) * scale, 0.0f);
}

// floor(t + 0.5) for t >= 0 without rounding the sum: t - floor(t) is exact.
static uint clp_fmt_round_half_up(float t) {
  const float fl = floor(t);
  return (uint)fl + (t - fl >= 0.5f ? 1u : 0u);
}

// The host's pack_rgb9e5. Its exponent is floor(log2(maxc)) from log2f; where log2f
// rounds up to the next integer (a few ulps below a power of two), maxc is also within
// the band where the mantissa rounds to 512 and the exponent is bumped, so taking the
// exact floor(log2) from the float bits gives the same block.
static uint clp_float3_to_rgb9e5(float r, float g, float b) {
  const float kMax = 65408.0f;  // (2^9 - 1) / 2^9 * 2^16
  float3 c = (float3)(r, g, b);
  c.x = clp_fmt_isnan_bits(c.x) ? 0.0f : (c.x < 0.0f ? 0.0f : (kMax < c.x ? kMax : c.x));
  c.y = clp_fmt_isnan_bits(c.y) ? 0.0f : (c.y < 0.0f ? 0.0f : (kMax < c.y ? kMax : c.y));
  c.z = clp_fmt_isnan_bits(c.z) ? 0.0f : (c.z < 0.0f ? 0.0f : (kMax < c.z ? kMax : c.z));
  const float maxc = fmax(c.x, fmax(c.y, c.z));
  const int log2_floor = maxc < 0x1p-16f ? -16 : (int)(as_uint(maxc) >> 23) - 127;
  int exp_shared = log2_floor + 1 + 15;  // 0..31
  if (clp_fmt_round_half_up(maxc * clp_fmt_exp2i(24 - exp_shared)) == 512u) ++exp_shared;
  const float scale = clp_fmt_exp2i(24 - exp_shared);
  const uint mr = min(clp_fmt_round_half_up(c.x * scale), 511u);
  const uint mg = min(clp_fmt_round_half_up(c.y * scale), 511u);
  const uint mb = min(clp_fmt_round_half_up(c.z * scale), 511u);
  return mr | mg << 9 | mb << 18 | (uint)exp_shared << 27;
}

// ---------------------------------------------------------------------------------
// Doubles as bits (64-bit vertex formats), without requiring cl_khr_fp64

// Float bits -> double bits, exact (a NaN gets the quiet bit, payload kept, like x86).
static ulong clp_float_bits_to_double_bits(uint u) {
  const ulong sign = (ulong)(u >> 31) << 63;
  const uint e = (u >> 23) & 0xffu, m = u & 0x7fffffu;
  if (e == 0xffu) {
    return sign | 0x7ff0000000000000UL | ((ulong)m << 29) | (m != 0u ? 0x8000000000000UL : 0UL);
  }
  if (e == 0u) {
    if (m == 0u) return sign;
    const uint l = 31u - clz(m);  // m * 2^-149 = (m / 2^l) * 2^(l - 149), l <= 22
    return sign | ((ulong)(l + 874u) << 52) | (((ulong)m << (52u - l)) & 0xfffffffffffffUL);
  }
  return sign | ((ulong)(e + 896u) << 52) | ((ulong)m << 29);
}

// Double bits -> float bits, round to nearest even (a C cast); NaN keeps its top payload
// bits and becomes quiet.
static uint clp_double_bits_to_float_bits(ulong d) {
  const uint sign = (uint)(d >> 32) & 0x80000000u;
  const uint e = (uint)(d >> 52) & 0x7ffu;
  const ulong m = d & 0xfffffffffffffUL;
  if (e == 0x7ffu) return sign | 0x7f800000u | (m != 0UL ? 0x400000u | (uint)(m >> 29) : 0u);
  if (e == 0u) return sign;  // zero or a double denormal: far below the float range
  const ulong full = m | 0x10000000000000UL;  // 53 bits, value full * 2^(e - 1075)
  if (e >= 897u) {                            // a normal float (or overflow)
    if (e > 1150u) return sign | 0x7f800000u;
    // (exp_field << 23) + mantissa, where r still holds the implicit one at bit 23.
    const uint r = (uint)clp_fmt_shift_rne(full, 29u);
    return sign | min(((e - 897u) << 23) + r, 0x7f800000u);
  }
  const uint shift = 926u - e;  // float denormal: value / 2^-149
  if (shift >= 64u) return sign;
  return sign | (uint)clp_fmt_shift_rne(full, shift);
}

#endif  // CLPIPE_KERNELS_FORMAT_CONVERT_H
