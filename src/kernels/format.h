// The device format codec: pack and unpack any format of formats.def in OpenCL C 1.2.
//
// Consumers: the tile rasterizer (colour and depth/stencil attachments), vertex fetch,
// texture sampling, clears, blits and transfers; kernels `#include "format.h"`.
// Producer of its rules: the host codec (src/frontend/format_codec.{h,cpp}); every
// function here returns bit for bit what its host twin returns (tests/kernels/ check
// every format against it), except NaN payloads.
//
// A format is a runtime `uint`, the clpipe::Format value (CLP_FMT_<name>); a block (one
// texel or vertex element) is a uint4 of little-endian words ("raw", format_block.h).
//
//   raw   uint4 clp_load_block(fmt, p)            void clp_store_block(fmt, p, raw)
//         uint4 clp_component_mask(fmt, rgba)     void clp_store_block_masked(fmt, p, raw, m)
//         uint4 clp_aspect_mask(fmt, aspects)
//   colour  float4 clp_decode_float(fmt, raw)     uint4 clp_encode_float(fmt, float4)
//           uint4  clp_decode_uint(fmt, raw)      uint4 clp_encode_uint(fmt, uint4)
//           int4   clp_decode_sint(fmt, raw)      uint4 clp_encode_sint(fmt, int4)
//   depth/stencil (one pixel)  float clp_decode_depth(fmt, raw)   uint clp_decode_stencil
//                              uint4 clp_encode_depth(fmt, raw, z) clp_encode_stencil
//   depth/stencil (2x2 quad, one lane per pixel): clp_decode_depth4 ... (below)
//   vertex fetch (every format, 64-bit ones included): clp_fetch_float / uint / sint,
//           clp_fetch_double2 (the words of 64-bit attributes)
//   queries: format_table.h (clp_format_has_depth, clp_format_is_pure_uint, ...)
//
// Rules (the host's): decode returns RGBA after the format swizzle, missing components
// 0 and alpha 1 (depth/stencil formats: depth in R, stencil in G, the rest 0); encode
// stores the first RGBA component whose swizzle names a channel, writes VOID channels as
// zero bits, rounds and clamps per channel type, and sRGB-encodes colour but not alpha.
// decode_uint/sint return the raw channel bits (sint sign-extended); encode_uint clamps to
// the channel's unsigned (SINT: non-negative) range, encode_sint to its signed (UINT:
// non-negative) range. Vertex-only formats (blocks over 16 bytes) have no raw form: use
// clp_fetch_*; clp_load_block / clp_store_block read and write nothing for them, and the
// raw codecs read bits past the 16 bytes of a raw block as zero. sRGB goes through tables
// made from the host's functions (format_srgb.h), so it is exact too.
//
// Fast paths (explicit vectors, chosen by a switch before the table-driven path):
// R8G8B8A8 / B8G8R8A8 / R8G8B8X8 / B8G8R8X8 in UNORM and SRGB, R16G16B16A16_FLOAT,
// R32G32B32A32_FLOAT, Z24_UNORM_S8_UINT and Z32_FLOAT (and the quad depth/stencil calls).
#ifndef CLPIPE_KERNELS_FORMAT_H
#define CLPIPE_KERNELS_FORMAT_H

#include "format_block.h"
#include "format_convert.h"
#include "format_srgb.h"
#include "format_table.h"

// ---------------------------------------------------------------------------------
// Table-driven channel conversions

static float clp_channel_to_float(uint type, uint bits, ulong v) {
  switch (type) {
    case CLP_TYPE_UNORM:
      return clp_unorm_to_float((uint)v, bits);
    case CLP_TYPE_SNORM:
      return clp_snorm_to_float((uint)v, bits);
    case CLP_TYPE_UINT:
    case CLP_TYPE_USCALED:
      return convert_float((uint)v);
    case CLP_TYPE_SINT:
    case CLP_TYPE_SSCALED:
      return convert_float(clp_fmt_sign_extend((uint)v, bits));
    case CLP_TYPE_FIXED:
      return convert_float(clp_fmt_sign_extend((uint)v, bits)) * 0x1p-16f;
    case CLP_TYPE_FLOAT:
      if (bits == 16u) return as_float(clp_half_to_float_bits((uint)v));
      if (bits == 32u) return as_float((uint)v);
      if (bits == 64u) return as_float(clp_double_bits_to_float_bits(v));
      return 0.0f;
    default:
      return 0.0f;
  }
}

static ulong clp_float_to_channel(uint type, uint bits, float x) {
  switch (type) {
    case CLP_TYPE_UNORM:
      return clp_float_to_unorm(x, bits);
    case CLP_TYPE_SNORM:
      return clp_float_to_snorm(x, bits);
    case CLP_TYPE_UINT:
    case CLP_TYPE_USCALED:
      return clp_float_to_uint_sat(x, bits);
    case CLP_TYPE_SINT:
    case CLP_TYPE_SSCALED:
      return clp_float_to_sint_sat(x, bits);
    case CLP_TYPE_FIXED:
      return clp_float_to_fixed(x, bits);
    case CLP_TYPE_FLOAT:
      if (bits == 16u) return clp_float_bits_to_half(as_uint(x));
      if (bits == 32u) return as_uint(x);
      if (bits == 64u) return clp_float_bits_to_double_bits(as_uint(x));
      return 0UL;
    default:
      return 0UL;
  }
}

static float clp_fmt_pick_f(float4 v, uint i) {
  return i == 0u ? v.x : (i == 1u ? v.y : (i == 2u ? v.z : v.w));
}
static uint clp_fmt_pick_u(uint4 v, uint i) {
  return i == 0u ? v.x : (i == 1u ? v.y : (i == 2u ? v.z : v.w));
}
static int clp_fmt_pick_i(int4 v, uint i) {
  return i == 0u ? v.x : (i == 1u ? v.y : (i == 2u ? v.z : v.w));
}

// Channels -> RGBA through the swizzle (constants 0 / 1; NONE reads 0).
static float4 clp_fmt_swizzle_float(const uchar* s, float4 ch) {
  float out[4];
  for (uint i = 0; i < 4u; ++i) {
    out[i] = s[i] < 4u ? clp_fmt_pick_f(ch, s[i]) : (s[i] == CLP_SWZ_ONE ? 1.0f : 0.0f);
  }
  return (float4)(out[0], out[1], out[2], out[3]);
}
static uint4 clp_fmt_swizzle_uint(const uchar* s, uint4 ch) {
  uint out[4];
  for (uint i = 0; i < 4u; ++i) {
    out[i] = s[i] < 4u ? clp_fmt_pick_u(ch, s[i]) : (s[i] == CLP_SWZ_ONE ? 1u : 0u);
  }
  return (uint4)(out[0], out[1], out[2], out[3]);
}

static bool clp_fmt_channel_is_srgb(ClpFormatDesc d, uint c) {
  return ((d.flags >> (CLP_FLAG_SRGB_SHIFT + c)) & 1u) != 0u;
}

// ---------------------------------------------------------------------------------
// Colour decode

static float4 clp_fmt_decode_float_table(uint fmt, uint4 raw) {
  const ClpFormatDesc d = clp_format_desc(fmt);
  float4 ch;
  if (d.special == CLP_SPECIAL_R9G9B9E5) {
    ch = clp_rgb9e5_to_float4(raw.x);
  } else if (d.special == CLP_SPECIAL_R11G11B10F) {
    ch = (float4)(clp_small_float_to_float(raw.x & 0x7ffu, 6u),
                  clp_small_float_to_float((raw.x >> 11) & 0x7ffu, 6u),
                  clp_small_float_to_float(raw.x >> 22, 5u), 0.0f);
  } else {
    float c[4];
    for (uint i = 0; i < 4u; ++i) {
      const ulong v = clp_raw_field_get(raw, d.shift[i], d.bits[i]);
      if (d.type[i] == CLP_TYPE_VOID) {
        c[i] = 0.0f;
      } else if (clp_fmt_channel_is_srgb(d, i)) {
        c[i] = clp_srgb8_to_linear((uint)v);  // sRGB channels are 8-bit UNORM
      } else {
        c[i] = clp_channel_to_float(d.type[i], d.bits[i], v);
      }
    }
    ch = (float4)(c[0], c[1], c[2], c[3]);
  }
  return clp_fmt_swizzle_float(d.swizzle, ch);
}

// Four 8-bit codes of one word.
static uint4 clp_fmt_unpack_u8x4(uint w) {
  return ((uint4)(w) >> (uint4)(0u, 8u, 16u, 24u)) & 0xffu;
}
static uint clp_fmt_pack_u8x4(uint4 b) {
  return b.x | b.y << 8 | b.z << 16 | b.w << 24;
}
static float4 clp_fmt_decode_srgb8x4(uint w) {
  const uint4 b = clp_fmt_unpack_u8x4(w);
  return (float4)(clp_srgb8_to_linear(b.x), clp_srgb8_to_linear(b.y), clp_srgb8_to_linear(b.z),
                  clp_unorm8x4_to_float4(b).w);
}
static float4 clp_fmt_decode_half4(uint2 w) {
  const uint4 h = (uint4)(w.x & 0xffffu, w.x >> 16, w.y & 0xffffu, w.y >> 16);
  return as_float4(clp_half4_to_float_bits4(h));
}

// RGBA of a raw block, as floats (normalized, scaled, float and fixed channels; integer
// channels converted as they are).
static float4 clp_decode_float(uint fmt, uint4 raw) {
  float4 c;
  switch (fmt) {
    case CLP_FMT_R8G8B8A8_UNORM:
      return clp_unorm8x4_to_float4(clp_fmt_unpack_u8x4(raw.x));
    case CLP_FMT_B8G8R8A8_UNORM:
      return clp_unorm8x4_to_float4(clp_fmt_unpack_u8x4(raw.x)).zyxw;
    case CLP_FMT_R8G8B8X8_UNORM:
      c = clp_unorm8x4_to_float4(clp_fmt_unpack_u8x4(raw.x));
      return (float4)(c.xyz, 1.0f);
    case CLP_FMT_B8G8R8X8_UNORM:
      c = clp_unorm8x4_to_float4(clp_fmt_unpack_u8x4(raw.x));
      return (float4)(c.zyx, 1.0f);
    case CLP_FMT_R8G8B8A8_SRGB:
      return clp_fmt_decode_srgb8x4(raw.x);
    case CLP_FMT_B8G8R8A8_SRGB:
      return clp_fmt_decode_srgb8x4(raw.x).zyxw;
    case CLP_FMT_R8G8B8X8_SRGB:
      return (float4)(clp_fmt_decode_srgb8x4(raw.x).xyz, 1.0f);
    case CLP_FMT_B8G8R8X8_SRGB:
      return (float4)(clp_fmt_decode_srgb8x4(raw.x).zyx, 1.0f);
    case CLP_FMT_R16G16B16A16_FLOAT:
      return clp_fmt_decode_half4(raw.xy);
    case CLP_FMT_R32G32B32A32_FLOAT:
      return as_float4(raw);
    case CLP_FMT_Z32_FLOAT:
      return (float4)(as_float(raw.x), 0.0f, 0.0f, 0.0f);
    case CLP_FMT_Z24_UNORM_S8_UINT:
      return (float4)(clp_div_mersenne((float)(raw.x & 0xffffffu), 24u), (float)(raw.x >> 24), 0.0f,
                      0.0f);
    default:
      return clp_fmt_decode_float_table(fmt, raw);
  }
}

// RGBA of a raw block as raw unsigned channel bits (pure-integer formats; for others the
// bits are returned as they are).
static uint4 clp_decode_uint(uint fmt, uint4 raw) {
  const ClpFormatDesc d = clp_format_desc(fmt);
  uint c[4];
  for (uint i = 0; i < 4u; ++i) {
    c[i] = d.type[i] == CLP_TYPE_VOID ? 0u : (uint)clp_raw_field_get(raw, d.shift[i], d.bits[i]);
  }
  return clp_fmt_swizzle_uint(d.swizzle, (uint4)(c[0], c[1], c[2], c[3]));
}

// RGBA of a raw block as sign-extended channel bits.
static int4 clp_decode_sint(uint fmt, uint4 raw) {
  const ClpFormatDesc d = clp_format_desc(fmt);
  uint c[4];
  for (uint i = 0; i < 4u; ++i) {
    c[i] = d.type[i] == CLP_TYPE_VOID
               ? 0u
               : (uint)clp_fmt_sign_extend((uint)clp_raw_field_get(raw, d.shift[i], d.bits[i]),
                                           d.bits[i]);
  }
  return as_int4(clp_fmt_swizzle_uint(d.swizzle, (uint4)(c[0], c[1], c[2], c[3])));
}

// ---------------------------------------------------------------------------------
// Colour encode

static uint4 clp_fmt_encode_float_table(uint fmt, float4 rgba) {
  const ClpFormatDesc d = clp_format_desc(fmt);
  if (!clp_format_is_valid(fmt)) return (uint4)(0u);
  if (d.special == CLP_SPECIAL_R9G9B9E5) {
    return (uint4)(clp_float3_to_rgb9e5(rgba.x, rgba.y, rgba.z), 0u, 0u, 0u);
  }
  if (d.special == CLP_SPECIAL_R11G11B10F) {
    return (uint4)(clp_float_to_small_float(rgba.x, 6u) |
                       clp_float_to_small_float(rgba.y, 6u) << 11 |
                       clp_float_to_small_float(rgba.z, 5u) << 22,
                   0u, 0u, 0u);
  }
  uint4 raw = (uint4)(0u);
  for (uint i = 0; i < 4u; ++i) {
    if (d.type[i] == CLP_TYPE_VOID || d.source[i] >= 4u) continue;
    const float x = clp_fmt_pick_f(rgba, d.source[i]);
    const ulong v = clp_fmt_channel_is_srgb(d, i) ? (ulong)clp_linear_to_srgb8(x)
                                                  : clp_float_to_channel(d.type[i], d.bits[i], x);
    raw = clp_raw_field_set(raw, d.shift[i], d.bits[i], v);
  }
  return raw;
}

static uint clp_fmt_encode_srgb8x4(float4 c) {
  const uint4 s = clp_linear4_to_srgb8x4(c);
  return clp_fmt_pack_u8x4((uint4)(s.xyz, clp_float4_to_unorm8x4(c).w));
}

// A raw block from an RGBA float colour.
static uint4 clp_encode_float(uint fmt, float4 c) {
  switch (fmt) {
    case CLP_FMT_R8G8B8A8_UNORM:
      return (uint4)(clp_fmt_pack_u8x4(clp_float4_to_unorm8x4(c)), 0u, 0u, 0u);
    case CLP_FMT_B8G8R8A8_UNORM:
      return (uint4)(clp_fmt_pack_u8x4(clp_float4_to_unorm8x4(c.zyxw)), 0u, 0u, 0u);
    case CLP_FMT_R8G8B8X8_UNORM:
      return (uint4)(clp_fmt_pack_u8x4(clp_float4_to_unorm8x4(c)) & 0xffffffu, 0u, 0u, 0u);
    case CLP_FMT_B8G8R8X8_UNORM:
      return (uint4)(clp_fmt_pack_u8x4(clp_float4_to_unorm8x4(c.zyxw)) & 0xffffffu, 0u, 0u, 0u);
    case CLP_FMT_R8G8B8A8_SRGB:
      return (uint4)(clp_fmt_encode_srgb8x4(c), 0u, 0u, 0u);
    case CLP_FMT_B8G8R8A8_SRGB:
      return (uint4)(clp_fmt_encode_srgb8x4(c.zyxw), 0u, 0u, 0u);
    case CLP_FMT_R8G8B8X8_SRGB:
      return (uint4)(clp_fmt_encode_srgb8x4(c) & 0xffffffu, 0u, 0u, 0u);
    case CLP_FMT_B8G8R8X8_SRGB:
      return (uint4)(clp_fmt_encode_srgb8x4(c.zyxw) & 0xffffffu, 0u, 0u, 0u);
    case CLP_FMT_R16G16B16A16_FLOAT: {
      const uint4 h = clp_float_bits4_to_half4(as_uint4(c));
      return (uint4)(h.x | h.y << 16, h.z | h.w << 16, 0u, 0u);
    }
    case CLP_FMT_R32G32B32A32_FLOAT:
      return as_uint4(c);
    case CLP_FMT_Z32_FLOAT:
      return (uint4)(as_uint(c.x), 0u, 0u, 0u);
    case CLP_FMT_Z24_UNORM_S8_UINT:
      return (uint4)((uint)clp_float_to_unorm(c.x, 24u) | (uint)clp_float_to_uint_sat(c.y, 8u)
                                                              << 24,
                     0u, 0u, 0u);
    default:
      return clp_fmt_encode_float_table(fmt, c);
  }
}

// A raw block from unsigned integers, each clamped to its channel's range.
static uint4 clp_encode_uint(uint fmt, uint4 rgba) {
  const ClpFormatDesc d = clp_format_desc(fmt);
  uint4 raw = (uint4)(0u);
  if (!clp_format_is_valid(fmt)) return raw;
  for (uint i = 0; i < 4u; ++i) {
    if (d.type[i] == CLP_TYPE_VOID || d.source[i] >= 4u) continue;
    const ulong lim = clp_fmt_mask64(d.type[i] == CLP_TYPE_SINT ? d.bits[i] - 1u : d.bits[i]);
    raw = clp_raw_field_set(raw, d.shift[i], d.bits[i],
                            min((ulong)clp_fmt_pick_u(rgba, d.source[i]), lim));
  }
  return raw;
}

// A raw block from signed integers, each clamped to its channel's range.
static uint4 clp_encode_sint(uint fmt, int4 rgba) {
  const ClpFormatDesc d = clp_format_desc(fmt);
  uint4 raw = (uint4)(0u);
  if (!clp_format_is_valid(fmt)) return raw;
  for (uint i = 0; i < 4u; ++i) {
    if (d.type[i] == CLP_TYPE_VOID || d.source[i] >= 4u) continue;
    const bool is_uint = d.type[i] == CLP_TYPE_UINT;
    const ulong shi = clp_fmt_mask64(is_uint ? d.bits[i] : d.bits[i] - 1u);
    const long hi = (long)min(shi, 0x7fffffffffffffffUL);
    const long lo = is_uint ? 0L : -(long)clp_fmt_mask64(d.bits[i] - 1u) - 1L;
    const long v = clamp((long)clp_fmt_pick_i(rgba, d.source[i]), lo, hi);
    raw = clp_raw_field_set(raw, d.shift[i], d.bits[i], (ulong)v);
  }
  return raw;
}

// ---------------------------------------------------------------------------------
// Depth and stencil of one pixel. Formats without that aspect read 0 and keep raw.

static float clp_decode_depth(uint fmt, uint4 raw) {
  switch (fmt) {
    case CLP_FMT_Z24_UNORM_S8_UINT:
      return clp_div_mersenne((float)(raw.x & 0xffffffu), 24u);
    case CLP_FMT_Z32_FLOAT:
    case CLP_FMT_Z32_FLOAT_S8X24_UINT:
      return as_float(raw.x);
    default: {
      const ClpFormatDesc d = clp_format_desc(fmt);
      if ((d.flags & CLP_FLAG_HAS_DEPTH) == 0u) return 0.0f;
      const uint c = d.swizzle[0];
      return clp_channel_to_float(d.type[c], d.bits[c],
                                  clp_raw_field_get(raw, d.shift[c], d.bits[c]));
    }
  }
}

static uint clp_decode_stencil(uint fmt, uint4 raw) {
  if (fmt == CLP_FMT_Z24_UNORM_S8_UINT) return raw.x >> 24;
  const ClpFormatDesc d = clp_format_desc(fmt);
  if ((d.flags & CLP_FLAG_HAS_STENCIL) == 0u) return 0u;
  const uint c = d.swizzle[1];
  return (uint)clp_raw_field_get(raw, d.shift[c], d.bits[c]);
}

// Stores depth z (UNORM: clamped to [0, 1], NaN -> 0, rounded as the host's double
// arithmetic does; FLOAT: as is), keeping every other bit of raw.
static uint4 clp_encode_depth(uint fmt, uint4 raw, float z) {
  switch (fmt) {
    case CLP_FMT_Z24_UNORM_S8_UINT:
      raw.x = (raw.x & 0xff000000u) | (uint)clp_float_to_unorm(z, 24u);
      return raw;
    case CLP_FMT_Z32_FLOAT:
    case CLP_FMT_Z32_FLOAT_S8X24_UINT:
      raw.x = as_uint(z);
      return raw;
    default: {
      const ClpFormatDesc d = clp_format_desc(fmt);
      if ((d.flags & CLP_FLAG_HAS_DEPTH) == 0u) return raw;
      const uint c = d.swizzle[0];
      const ulong v =
          d.type[c] == CLP_TYPE_FLOAT ? (ulong)as_uint(z) : clp_float_to_unorm(z, d.bits[c]);
      return clp_raw_field_set(raw, d.shift[c], d.bits[c], v);
    }
  }
}

// Stores the low bits of stencil s, keeping every other bit of raw.
static uint4 clp_encode_stencil(uint fmt, uint4 raw, uint s) {
  if (fmt == CLP_FMT_Z24_UNORM_S8_UINT) {
    raw.x = (raw.x & 0xffffffu) | s << 24;
    return raw;
  }
  const ClpFormatDesc d = clp_format_desc(fmt);
  if ((d.flags & CLP_FLAG_HAS_STENCIL) == 0u) return raw;
  const uint c = d.swizzle[1];
  return clp_raw_field_set(raw, d.shift[c], d.bits[c], (ulong)s);
}

// ---------------------------------------------------------------------------------
// Depth and stencil of a 2x2 quad: lane i is pixel i. Every depth/stencil format keeps
// depth in word 0 of its block (the device test checks the table), so these take that
// word of each pixel; stencil lives in word clp_stencil_word(fmt).

static uint clp_stencil_word(uint fmt) {
  const ClpFormatDesc d = clp_format_desc(fmt);
  return (d.flags & CLP_FLAG_HAS_STENCIL) != 0u ? d.shift[d.swizzle[1]] / 32u : 0u;
}

static float4 clp_decode_depth4(uint fmt, uint4 w0) {
  switch (fmt) {
    case CLP_FMT_Z24_UNORM_S8_UINT:
      return clp_unorm24x4_to_float4(w0);
    case CLP_FMT_Z32_FLOAT:
    case CLP_FMT_Z32_FLOAT_S8X24_UINT:
      return as_float4(w0);
    default:
      return (float4)(clp_decode_depth(fmt, (uint4)(w0.x, 0u, 0u, 0u)),
                      clp_decode_depth(fmt, (uint4)(w0.y, 0u, 0u, 0u)),
                      clp_decode_depth(fmt, (uint4)(w0.z, 0u, 0u, 0u)),
                      clp_decode_depth(fmt, (uint4)(w0.w, 0u, 0u, 0u)));
  }
}

static uint4 clp_encode_depth4(uint fmt, uint4 w0, float4 z) {
  switch (fmt) {
    case CLP_FMT_Z24_UNORM_S8_UINT:
      return (w0 & 0xff000000u) | clp_float4_to_unorm24x4(z);
    case CLP_FMT_Z32_FLOAT:
    case CLP_FMT_Z32_FLOAT_S8X24_UINT:
      return as_uint4(z);
    default:
      return (uint4)(clp_encode_depth(fmt, (uint4)(w0.x, 0u, 0u, 0u), z.x).x,
                     clp_encode_depth(fmt, (uint4)(w0.y, 0u, 0u, 0u), z.y).x,
                     clp_encode_depth(fmt, (uint4)(w0.z, 0u, 0u, 0u), z.z).x,
                     clp_encode_depth(fmt, (uint4)(w0.w, 0u, 0u, 0u), z.w).x);
  }
}

// The stencil word of one pixel, placed where the raw codec expects it.
static uint4 clp_fmt_stencil_raw(uint word, uint w) {
  return word == 0u ? (uint4)(w, 0u, 0u, 0u) : (uint4)(0u, w, 0u, 0u);
}
static uint clp_fmt_stencil_word_of(uint word, uint4 raw) {
  return word == 0u ? raw.x : raw.y;
}

static uint4 clp_decode_stencil4(uint fmt, uint4 ws) {
  if (fmt == CLP_FMT_Z24_UNORM_S8_UINT) return ws >> 24;
  const uint k = clp_stencil_word(fmt);
  return (uint4)(clp_decode_stencil(fmt, clp_fmt_stencil_raw(k, ws.x)),
                 clp_decode_stencil(fmt, clp_fmt_stencil_raw(k, ws.y)),
                 clp_decode_stencil(fmt, clp_fmt_stencil_raw(k, ws.z)),
                 clp_decode_stencil(fmt, clp_fmt_stencil_raw(k, ws.w)));
}

static uint4 clp_encode_stencil4(uint fmt, uint4 ws, uint4 s) {
  if (fmt == CLP_FMT_Z24_UNORM_S8_UINT) return (ws & 0xffffffu) | s << 24;
  const uint k = clp_stencil_word(fmt);
  return (
      uint4)(clp_fmt_stencil_word_of(k, clp_encode_stencil(fmt, clp_fmt_stencil_raw(k, ws.x), s.x)),
             clp_fmt_stencil_word_of(k, clp_encode_stencil(fmt, clp_fmt_stencil_raw(k, ws.y), s.y)),
             clp_fmt_stencil_word_of(k, clp_encode_stencil(fmt, clp_fmt_stencil_raw(k, ws.z), s.z)),
             clp_fmt_stencil_word_of(k,
                                     clp_encode_stencil(fmt, clp_fmt_stencil_raw(k, ws.w), s.w)));
}

// ---------------------------------------------------------------------------------
// Vertex fetch: every format, including the vertex-only 24- and 32-byte ones.

// Bits of channel c of the element at p. Blocks over 16 bytes hold byte-aligned 64-bit
// channels (R64G64B64[A64]_FLOAT): those are read straight from memory.
static ulong clp_fmt_fetch_channel(ClpFormatDesc d, uint bytes, const global uchar* p, uint c) {
  if (bytes <= CLP_MAX_RAW_BLOCK_BYTES) {
    return clp_raw_field_get(clp_block_load_bytes(bytes, p), d.shift[c], d.bits[c]);
  }
  const uint at = d.shift[c] / 8u;
  if (d.bits[c] == 0u || d.bits[c] > 64u || (d.shift[c] & 7u) != 0u || at + 8u > bytes) return 0UL;
  return clp_fmt_load_u64(p + at) & clp_fmt_mask64(d.bits[c]);
}

static float4 clp_fetch_float(uint fmt, const global uchar* p) {
  const uint bytes = clp_format_block_bytes(fmt);
  if (bytes <= CLP_MAX_RAW_BLOCK_BYTES)
    return clp_decode_float(fmt, clp_block_load_bytes(bytes, p));
  const ClpFormatDesc d = clp_format_desc(fmt);
  float c[4];
  for (uint i = 0; i < 4u; ++i) {
    c[i] = clp_channel_to_float(d.type[i], d.bits[i], clp_fmt_fetch_channel(d, bytes, p, i));
  }
  return clp_fmt_swizzle_float(d.swizzle, (float4)(c[0], c[1], c[2], c[3]));
}

static uint4 clp_fetch_uint(uint fmt, const global uchar* p) {
  const uint bytes = clp_format_block_bytes(fmt);
  if (bytes <= CLP_MAX_RAW_BLOCK_BYTES) return clp_decode_uint(fmt, clp_block_load_bytes(bytes, p));
  const ClpFormatDesc d = clp_format_desc(fmt);
  uint c[4];
  for (uint i = 0; i < 4u; ++i)
    c[i] = (uint)clp_fmt_fetch_channel(d, bytes, p, i);
  return clp_fmt_swizzle_uint(d.swizzle, (uint4)(c[0], c[1], c[2], c[3]));
}

static int4 clp_fetch_sint(uint fmt, const global uchar* p) {
  const uint bytes = clp_format_block_bytes(fmt);
  if (bytes <= CLP_MAX_RAW_BLOCK_BYTES) return clp_decode_sint(fmt, clp_block_load_bytes(bytes, p));
  const ClpFormatDesc d = clp_format_desc(fmt);
  uint c[4];
  for (uint i = 0; i < 4u; ++i) {
    c[i] = (uint)clp_fmt_sign_extend((uint)clp_fmt_fetch_channel(d, bytes, p, i), d.bits[i]);
  }
  return as_int4(clp_fmt_swizzle_uint(d.swizzle, (uint4)(c[0], c[1], c[2], c[3])));
}

// 64-bit attributes: the IEEE double bits of RGBA components `first` and `first + 1`
// (first = 0 or 2) as (lo, hi, lo, hi) words. 64-bit float channels come as stored;
// other channels give the exact double of their float value, constant components
// 0.0 / 1.0.
static uint4 clp_fetch_double2(uint fmt, const global uchar* p, uint first) {
  const ClpFormatDesc d = clp_format_desc(fmt);
  const uint bytes = clp_format_block_bytes(fmt);
  const float4 f = clp_fetch_float(fmt, p);
  ulong w[2];
  for (uint k = 0; k < 2u; ++k) {
    const uint comp = min(first + k, 3u), s = d.swizzle[comp];
    if (s < 4u && d.type[s] == CLP_TYPE_FLOAT && d.bits[s] == 64u) {
      w[k] = clp_fmt_fetch_channel(d, bytes, p, s);
    } else {
      w[k] = clp_float_bits_to_double_bits(as_uint(clp_fmt_pick_f(f, comp)));
    }
  }
  return (uint4)((uint)w[0], (uint)(w[0] >> 32), (uint)w[1], (uint)(w[1] >> 32));
}

#endif  // CLPIPE_KERNELS_FORMAT_H
