// The tile pass's colour stage across lanes, for specialised programs whose enabled colour
// buffers are all 8-bit RGBA/BGRA UNORM (with or without alpha) and use no logic op
// (tile_variant.cpp defines CLP_TILE_SOA for those keys). A buffer's block is held as four
// lane vectors, one per channel (R, G, B, A in the working form of tile.cl), so decoding,
// blending, rounding and encoding run on every lane at once instead of pixel by pixel.
//
// Each function computes, lane for lane, the same operations in the same order as tile.cl's
// per-pixel path (clp_rt_decode, clp_combine, clp_blend, clp_rt_encode of format.h): the
// two paths store bit-identical pixels (tests/draw/tile_variant_test.cpp compares them).
// Included by tile.cl after its CLP_KEYED_* accessors and lane geometry.
#ifndef CLPIPE_TILE_COLOR_H
#define CLPIPE_TILE_COLOR_H

// Formats of this path: 4 bytes per pixel, byte i = channel i (RGBA) or BGRA order.
static bool clp_soa_bgra(uint fmt) {
  return fmt == CLP_FMT_B8G8R8A8_UNORM || fmt == CLP_FMT_B8G8R8X8_UNORM;
}
static bool clp_soa_has_alpha(uint fmt) {
  return fmt == CLP_FMT_R8G8B8A8_UNORM || fmt == CLP_FMT_B8G8R8A8_UNORM;
}

// 8-bit UNORM codes -> floats: clp_unorm8x4_to_float4 (clp_div_mersenne4) per lane.
static vf clp_unorm8_decode_v(vu v) {
  return clp_vdiv_mersenne(CLP_CONVERT_VF(v), 8u);
}

// Floats -> 8-bit UNORM codes: clp_float4_to_unorm8x4 per lane.
static vu clp_unorm8_encode_v(vf x) {
  const vu u = CLP_AS_VU(x);
  const vu p = ((u & 0x7fffffu) | 0x800000u) * 255u;
  const vu s = 149u - (u >> 23);
  vu r = select(((p >> s) + 1u) >> 1, (vu)(0u), CLP_AS_VU(s > 31u));
  r = select(r, (vu)(255u), CLP_AS_VU(u >= 0x3f800000u));
  return select(r, (vu)(0u), CLP_AS_VU(u > 0x7f800000u));
}

// The bytes of lane l's pixel in a block whose top-left pixel is at `p`.
global uchar* clp_soa_pixel(global uchar* p, uint pitch, int l) {
  return p + (size_t)clp_lane_dy(l) * pitch + (size_t)clp_lane_dx(l) * 4u;
}

// The working form of the lanes' pixels `px` (4 bytes each, low byte first).
static void clp_soa_decode(uint fmt, vu px, vf* c) {
  const bool bgra = clp_soa_bgra(fmt);
  c[0] = clp_unorm8_decode_v((px >> (bgra ? 16u : 0u)) & 0xffu);
  c[1] = clp_unorm8_decode_v((px >> 8u) & 0xffu);
  c[2] = clp_unorm8_decode_v((px >> (bgra ? 0u : 16u)) & 0xffu);
  c[3] = clp_soa_has_alpha(fmt) ? clp_unorm8_decode_v(px >> 24u) : (vf)(1.0f);
}

// Loads the lanes in `lanes` (bits) of the block at p into c (working form); other lanes
// read 0.
static void clp_soa_load(uint fmt, global uchar* p, uint pitch, uint lanes, vf* c) {
  const bool bgra = clp_soa_bgra(fmt);
  if (lanes == (1u << CLP_LANES) - 1u) {
    clp_soa_decode(fmt, clp_block_load_rows(p, pitch), c);
    return;
  }
  uint ch[4][CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l) {
    const uint4 b =
        ((lanes >> l) & 1u) ? convert_uint4(vload4(0, clp_soa_pixel(p, pitch, l))) : (uint4)(0u);
    ch[0][l] = b.x;
    ch[1][l] = b.y;
    ch[2][l] = b.z;
    ch[3][l] = b.w;
  }
  c[0] = clp_unorm8_decode_v(CLP_PACK(ch[bgra ? 2 : 0]));
  c[1] = clp_unorm8_decode_v(CLP_PACK(ch[1]));
  c[2] = clp_unorm8_decode_v(CLP_PACK(ch[bgra ? 0 : 2]));
  c[3] = clp_soa_has_alpha(fmt) ? clp_unorm8_decode_v(CLP_PACK(ch[3])) : (vf)(1.0f);
}

// The codes of c in the buffer's byte order (an X channel is stored as 0).
static void clp_soa_encode(uint fmt, const vf* c, vu* bytes) {
  const bool bgra = clp_soa_bgra(fmt);
  bytes[0] = clp_unorm8_encode_v(c[bgra ? 2 : 0]);
  bytes[1] = clp_unorm8_encode_v(c[1]);
  bytes[2] = clp_unorm8_encode_v(c[bgra ? 0 : 2]);
  bytes[3] = clp_soa_has_alpha(fmt) ? clp_unorm8_encode_v(c[3]) : (vu)(0u);
}

// Whether a and b hold the same bits in every lane and channel.
static bool clp_soa_same(const vf* a, const vf* b) {
  const vi d = (CLP_AS_VI(a[0]) ^ CLP_AS_VI(b[0])) | (CLP_AS_VI(a[1]) ^ CLP_AS_VI(b[1])) |
               (CLP_AS_VI(a[2]) ^ CLP_AS_VI(b[2])) | (CLP_AS_VI(a[3]) ^ CLP_AS_VI(b[3]));
  return !CLP_ANY(CLP_MASK(d != (vi)(0)));
}

// Loads the lanes `need` (bits) of every sample plane of the block at p (planes `plane`
// bytes apart) into c[s]; returns whether every plane holds sample 0's pixels there, and
// then only c[0] is set (a primitive's inside holds one colour in every sample: decoded once).
static bool clp_soa_load_planes(uint fmt, global uchar* p, size_t plane, uint pitch, uint need,
                                vf (*c)[4]) {
  bool equal = true;
  if (need == (1u << CLP_LANES) - 1u) {
    vu px[CLP_NS];
    for (int s = 0; s < CLP_NS; ++s) {
      px[s] = clp_block_load_rows(p + s * plane, pitch);
      equal = equal && !CLP_ANY(CLP_MASK(px[s] != px[0]));
    }
    for (int s = 0; s < (equal ? 1 : CLP_NS); ++s)
      clp_soa_decode(fmt, px[s], c[s]);
    return equal;
  }
  for (int s = 0; s < CLP_NS; ++s) {
    clp_soa_load(fmt, p + s * plane, pitch, need, c[s]);
    equal = equal && clp_soa_same(c[s], c[0]);
  }
  return equal;
}

// Stores the lanes in `lanes` (bits) of the codes `bytes` (clp_soa_encode) to the block at p.
static void clp_soa_store_bytes(global uchar* p, uint pitch, uint lanes, const vu* bytes) {
  if (lanes == (1u << CLP_LANES) - 1u) {
    clp_block_store_rows(p, pitch, bytes[0] | bytes[1] << 8 | bytes[2] << 16 | bytes[3] << 24);
    return;
  }
  uint ch[4][CLP_LANES];
  for (int k = 0; k < 4; ++k) {
#if CLP_LANES == 1
    ch[k][0] = bytes[k];
#else
    CLP_VN(vstore)(bytes[k], 0, ch[k]);
#endif
  }
  for (int l = 0; l < CLP_LANES; ++l) {
    if ((lanes >> l) & 1u) {
      vstore4(convert_uchar4((uint4)(ch[0][l], ch[1][l], ch[2][l], ch[3][l])), 0,
              clp_soa_pixel(p, pitch, l));
    }
  }
}

// The blend factor f for channel `ch` (0..2: the RGB factor's channel, 3: alpha) of
// clp_blend_factor: source s (second source s1), destination d, constant colour k.
static vf clp_blend_factor_v(uint f, int ch, const vf* s, const vf* s1, const vf* d, float4 k) {
  const float kc = ch == 0 ? k.x : ch == 1 ? k.y : ch == 2 ? k.z : k.w;
  switch (f) {
    case 0x01:
      return (vf)(1.0f);
    case 0x02:
      return s[ch];
    case 0x03:
      return s[3];
    case 0x04:
      return d[3];
    case 0x05:
      return d[ch];
    case 0x06:  // SRC_ALPHA_SATURATE: rgb = min(As, 1 - Ad), alpha = 1
      return ch == 3 ? (vf)(1.0f) : fmin(s[3], (vf)(1.0f) - d[3]);
    case 0x07:
      return (vf)(kc);
    case 0x08:
      return (vf)(k.w);
    case 0x09:
      return s1[ch];
    case 0x0A:
      return s1[3];
    case 0x11:
      return (vf)(0.0f);
    case 0x12:
      return (vf)(1.0f) - s[ch];
    case 0x13:
      return (vf)(1.0f) - s[3];
    case 0x14:
      return (vf)(1.0f) - d[3];
    case 0x15:
      return (vf)(1.0f) - d[ch];
    case 0x17:
      return (vf)(1.0f - kc);
    case 0x18:
      return (vf)(1.0f - k.w);
    case 0x19:
      return (vf)(1.0f) - s1[ch];
    case 0x1A:
      return (vf)(1.0f) - s1[3];
    default:
      return (vf)(0.0f);
  }
}

static vf clp_blend_eq_v(uint func, vf s, vf sf, vf d, vf df) {
  CLP_BLEND_EQ_BODY(func, s, sf, d, df)
}

// clp_combine for colour buffer r of this path: the new values of the lanes (all lanes
// computed; the caller keeps those of the live ones).
static void clp_combine_v(global const ClpRasterParams* rp, uint r, const vf* src_in,
                          const vf* src1_in, const vf* dst, bool round, vf* out) {
  const uint fmt = CLP_KEYED_RT(rp, r, format), flags = CLP_KEYED_RT(rp, r, flags);
  const uint mask = CLP_KEYED_RT(rp, r, colormask);
  vf s[4], s1[4], res[4];
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    s[c] = src_in[c];
    s1[c] = src1_in[c];
    if (CLP_KEYED_FLAGS(rp) & CLP_RAST_CLAMP_FRAGMENT_COLOR) {
      s[c] = clamp(s[c], 0.0f, 1.0f);
      s1[c] = clamp(s1[c], 0.0f, 1.0f);
    }
  }
  if (flags & CLP_RT_BLEND) {
    // UNORM buffers: sources and the constant colour clamp to [0, 1] (clp_combine).
    const float4 k = clamp(vload4(0, rp->blend_color), 0.0f, 1.0f);
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      s[c] = clamp(s[c], 0.0f, 1.0f);
      s1[c] = clamp(s1[c], 0.0f, 1.0f);
    }
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      const bool alpha = c == 3;
      const uint func = alpha ? CLP_KEYED_RT(rp, r, alpha_func) : CLP_KEYED_RT(rp, r, rgb_func);
      const uint sf = alpha ? CLP_KEYED_RT(rp, r, alpha_src) : CLP_KEYED_RT(rp, r, rgb_src);
      const uint df = alpha ? CLP_KEYED_RT(rp, r, alpha_dst) : CLP_KEYED_RT(rp, r, rgb_dst);
      res[c] = clp_blend_eq_v(func, s[c], clp_blend_factor_v(sf, c, s, s1, dst, k), dst[c],
                              clp_blend_factor_v(df, c, s, s1, dst, k));
    }
  } else {
#pragma unroll
    for (int c = 0; c < 4; ++c)
      res[c] = s[c];
  }
#pragma unroll
  for (int c = 0; c < 4; ++c)
    out[c] = ((mask >> c) & 1u) ? res[c] : dst[c];
  if (round) {
    // The buffer holds 8 bits: what later fragments blend with.
    vu bytes[4];
    clp_soa_encode(fmt, out, bytes);
    const bool bgra = clp_soa_bgra(fmt);
    out[0] = clp_unorm8_decode_v(bytes[bgra ? 2 : 0]);
    out[1] = clp_unorm8_decode_v(bytes[1]);
    out[2] = clp_unorm8_decode_v(bytes[bgra ? 0 : 2]);
    out[3] = clp_soa_has_alpha(fmt) ? clp_unorm8_decode_v(bytes[3]) : (vf)(1.0f);
  }
}

#endif  // CLPIPE_TILE_COLOR_H
