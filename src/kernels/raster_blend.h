// Blending and logic ops of the tile pass (tile.cl), on RGBA values of one pixel.
// clpipe::BlendFactor / BlendFunc / LogicOp values; see gallium.md §2.2.
#ifndef CLPIPE_RASTER_BLEND_H
#define CLPIPE_RASTER_BLEND_H

// The factor `f` for the RGB part (alpha == false) or the alpha part of a blend.
static float4 clp_blend_factor(uint f, float4 s, float4 s1, float4 d, float4 c) {
  const float4 one = (float4)(1.0f);
  switch (f) {
    case 0x01:
      return one;
    case 0x02:
      return s;
    case 0x03:
      return (float4)(s.w);
    case 0x04:
      return (float4)(d.w);
    case 0x05:
      return d;
    case 0x06: {  // SRC_ALPHA_SATURATE: rgb = min(As, 1 - Ad), alpha = 1
      const float m = min(s.w, 1.0f - d.w);
      return (float4)(m, m, m, 1.0f);
    }
    case 0x07:
      return c;
    case 0x08:
      return (float4)(c.w);
    case 0x09:
      return s1;
    case 0x0A:
      return (float4)(s1.w);
    case 0x11:
      return (float4)(0.0f);
    case 0x12:
      return one - s;
    case 0x13:
      return one - (float4)(s.w);
    case 0x14:
      return one - (float4)(d.w);
    case 0x15:
      return one - d;
    case 0x17:
      return one - c;
    case 0x18:
      return one - (float4)(c.w);
    case 0x19:
      return one - s1;
    case 0x1A:
      return one - (float4)(s1.w);
    default:
      return (float4)(0.0f);
  }
}

// clpipe::BlendFunc of source s and destination d with their factors: one body for RGBA
// values of a pixel and for a channel across lanes (tile_color.h).
#define CLP_BLEND_EQ_BODY(func, s, sf, d, df) \
  switch (func) {                             \
    case 0:                                   \
      return s * sf + d * df;                 \
    case 1:                                   \
      return s * sf - d * df;                 \
    case 2:                                   \
      return d * df - s * sf;                 \
    case 3:                                   \
      return fmin(s, d);                      \
    case 4:                                   \
      return fmax(s, d);                      \
    default:                                  \
      return s;                               \
  }

static float4 clp_blend_eq(uint func, float4 s, float4 sf, float4 d, float4 df) {
  CLP_BLEND_EQ_BODY(func, s, sf, d, df)
}

// Blends s (with second source s1) over d with constant colour c; the RGB and alpha
// parts take their own function and factors.
static float4 clp_blend(uint rgb_func, uint rgb_src, uint rgb_dst, uint a_func, uint a_src,
                        uint a_dst, float4 s, float4 s1, float4 d, float4 c) {
  const float4 rgb = clp_blend_eq(rgb_func, s, clp_blend_factor(rgb_src, s, s1, d, c), d,
                                  clp_blend_factor(rgb_dst, s, s1, d, c));
  // Alpha factors: the .w of the same factor (SRC_ALPHA_SATURATE gives 1 there).
  const float4 a = clp_blend_eq(a_func, s, clp_blend_factor(a_src, s, s1, d, c), d,
                                clp_blend_factor(a_dst, s, s1, d, c));
  return (float4)(rgb.xyz, a.w);
}

// clpipe::LogicOp on raw bits.
static uint4 clp_logic_op(uint op, uint4 s, uint4 d) {
  switch (op) {
    case 0:
      return (uint4)(0);
    case 1:
      return ~(s | d);
    case 2:
      return ~s & d;
    case 3:
      return ~s;
    case 4:
      return s & ~d;
    case 5:
      return ~d;
    case 6:
      return s ^ d;
    case 7:
      return ~(s & d);
    case 8:
      return s & d;
    case 9:
      return ~(s ^ d);
    case 10:
      return d;
    case 11:
      return ~s | d;
    case 12:
      return s;
    case 13:
      return s | ~d;
    case 14:
      return s | d;
    default:
      return (uint4)(0xffffffffu);
  }
}

#endif  // CLPIPE_RASTER_BLEND_H
