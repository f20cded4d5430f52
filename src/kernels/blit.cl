// Context::blit and generate_mipmap on the device: one work-item per destination texel
// reads the source level with nearest or linear filtering, converts between the two
// formats through the device codec (format.h) and writes the texel.
//
// Producer of the parameters: src/frontend/blit.cpp (ClpBlitParams, blit_shared.h);
// it validates the request, so the kernel trusts formats, levels and extents. Consumers
// of the written texels: any later pass.
//
// Sampling rules (the llvmpipe / softpipe rules of a Gallium blit):
// * destination texel d (per axis) samples the source at the continuous coordinate
//     c = src_origin + ((float)(d - dst_origin) + 0.5f) * scale
//   texel centres sit at integer + 0.5, so nearest takes floor(c) and linear blends the
//   two texels around c - 0.5;
// * every source texel index is clamped to the level (clamp to edge): boxes partly
//   outside the source read its edge texels, and linear taps next to the edge too;
// * layers of non-3D sources are chosen by nearest; 3D sources filter between slices
//   when CLP_BLIT_LINEAR_Z is set.
// Arithmetic is plain IEEE single precision with contraction off, so the host reference
// of the tests (same expressions) gets the same bits.
#pragma OPENCL FP_CONTRACT OFF

#include "blit_shared.h"
#include "format.h"

// Source coordinate of destination texel d along one axis.
static float clp_blit_coord(int d, int dst_origin, float src_origin, float scale) {
  return src_origin + ((float)(d - dst_origin) + 0.5f) * scale;
}

// The nearest texel of coordinate c in [0, n): floor, clamped to the edge. The clamp runs
// in float, which is exact: level sizes are far below 2^24.
static int clp_blit_nearest(float c, int n) {
  return (int)clamp(floor(c), 0.0f, (float)(n - 1));
}

// Linear taps of coordinate c: indices i0, i1 (clamped to [0, n)) and the weight of i1.
static float clp_blit_taps(float c, int n, int* i0, int* i1) {
  const float t = c - 0.5f;
  const float f = floor(t);
  *i0 = (int)clamp(f, 0.0f, (float)(n - 1));
  *i1 = (int)clamp(f + 1.0f, 0.0f, (float)(n - 1));
  return t - f;
}

// a * (1 - w) + b * w, and exactly a for w == 0 (so an infinite b never leaks in as a NaN).
static float4 clp_blit_lerp(float4 a, float4 b, float w) {
  return w == 0.0f ? a : a * (1.0f - w) + b * w;
}
static float clp_blit_lerp1(float a, float b, float w) {
  return w == 0.0f ? a : a * (1.0f - w) + b * w;
}

static const global uchar* clp_blit_src_texel(const global uchar* src, const ClpBlitParams* p,
                                              uint bytes, int x, int y, int z) {
  return src + p->src_base + (ulong)z * p->src_layer_pitch + (ulong)y * p->src_row_pitch +
         (ulong)x * bytes;
}

static float4 clp_blit_fetch_float(const global uchar* src, const ClpBlitParams* p, uint bytes,
                                   int x, int y, int z) {
  return clp_decode_float(
      p->src_format, clp_load_block(p->src_format, clp_blit_src_texel(src, p, bytes, x, y, z)));
}

// Bilinear (or nearest) float colour of one source layer / slice z at (cx, cy).
static float4 clp_blit_sample_2d(const global uchar* src, const ClpBlitParams* p, uint bytes,
                                 float cx, float cy, int z) {
  if ((p->flags & CLP_BLIT_LINEAR_XY) == 0u) {
    return clp_blit_fetch_float(src, p, bytes, clp_blit_nearest(cx, p->src_size[0]),
                                clp_blit_nearest(cy, p->src_size[1]), z);
  }
  int x0, x1, y0, y1;
  const float wx = clp_blit_taps(cx, p->src_size[0], &x0, &x1);
  const float wy = clp_blit_taps(cy, p->src_size[1], &y0, &y1);
  const float4 top = clp_blit_lerp(clp_blit_fetch_float(src, p, bytes, x0, y0, z),
                                   clp_blit_fetch_float(src, p, bytes, x1, y0, z), wx);
  if (wy == 0.0f) return top;
  const float4 bottom = clp_blit_lerp(clp_blit_fetch_float(src, p, bytes, x0, y1, z),
                                      clp_blit_fetch_float(src, p, bytes, x1, y1, z), wx);
  return clp_blit_lerp(top, bottom, wy);
}

// Float colour at (cx, cy, cz): linear between slices for 3D sources when asked.
static float4 clp_blit_sample_float(const global uchar* src, const ClpBlitParams* p, uint bytes,
                                    float cx, float cy, float cz) {
  if ((p->flags & CLP_BLIT_LINEAR_Z) == 0u) {
    return clp_blit_sample_2d(src, p, bytes, cx, cy, clp_blit_nearest(cz, p->src_size[2]));
  }
  int z0, z1;
  const float wz = clp_blit_taps(cz, p->src_size[2], &z0, &z1);
  const float4 front = clp_blit_sample_2d(src, p, bytes, cx, cy, z0);
  if (wz == 0.0f) return front;
  return clp_blit_lerp(front, clp_blit_sample_2d(src, p, bytes, cx, cy, z1), wz);
}

// Depth at (cx, cy) of layer z: nearest or bilinear.
static float clp_blit_sample_depth(const global uchar* src, const ClpBlitParams* p, uint bytes,
                                   float cx, float cy, int z) {
  const uint f = p->src_format;
  if ((p->flags & CLP_BLIT_LINEAR_XY) == 0u) {
    const int x = clp_blit_nearest(cx, p->src_size[0]), y = clp_blit_nearest(cy, p->src_size[1]);
    return clp_decode_depth(f, clp_load_block(f, clp_blit_src_texel(src, p, bytes, x, y, z)));
  }
  int x0, x1, y0, y1;
  const float wx = clp_blit_taps(cx, p->src_size[0], &x0, &x1);
  const float wy = clp_blit_taps(cy, p->src_size[1], &y0, &y1);
  const float d00 =
      clp_decode_depth(f, clp_load_block(f, clp_blit_src_texel(src, p, bytes, x0, y0, z)));
  const float d10 =
      clp_decode_depth(f, clp_load_block(f, clp_blit_src_texel(src, p, bytes, x1, y0, z)));
  const float top = clp_blit_lerp1(d00, d10, wx);
  if (wy == 0.0f) return top;
  const float d01 =
      clp_decode_depth(f, clp_load_block(f, clp_blit_src_texel(src, p, bytes, x0, y1, z)));
  const float d11 =
      clp_decode_depth(f, clp_load_block(f, clp_blit_src_texel(src, p, bytes, x1, y1, z)));
  return clp_blit_lerp1(top, clp_blit_lerp1(d01, d11, wx), wy);
}

// The float colour at (cx, cy, cz) averaged over the source's first `samples` sample
// planes (a resolve), or of the plane at p->src_base (samples 1).
static float4 clp_blit_resolve_float(const global uchar* src, const ClpBlitParams* p, uint bytes,
                                     float cx, float cy, float cz, uint samples) {
  float4 sum = clp_blit_sample_float(src, p, bytes, cx, cy, cz);
  if (samples <= 1u) return sum;
  ClpBlitParams q = *p;
  for (uint s = 1; s < samples; ++s) {
    q.src_base += p->src_sample_pitch;
    sum += clp_blit_sample_float(src, &q, bytes, cx, cy, cz);
  }
  return sum / (float)samples;
}

// Destination texel (x, y, z) of the plane at p->dst_base, from the source plane at
// p->src_base (or the average of `resolve` planes from there, in FLOAT mode).
static void clp_blit_texel(const global uchar* src, global uchar* dst, const ClpBlitParams* pp,
                           int x, int y, int z, uint resolve) {
  const ClpBlitParams p = *pp;
  const float cx = clp_blit_coord(x, p.dst_origin[0], p.src_origin[0], p.scale[0]);
  const float cy = clp_blit_coord(y, p.dst_origin[1], p.src_origin[1], p.scale[1]);
  const float cz = clp_blit_coord(z, p.dst_origin[2], p.src_origin[2], p.scale[2]);
  const uint src_bytes = clp_format_block_bytes(p.src_format);
  const uint dfmt = p.dst_format;
  global uchar* out = dst + p.dst_base + (ulong)z * p.dst_layer_pitch + (ulong)y * p.dst_row_pitch +
                      (ulong)x * clp_format_block_bytes(dfmt);

  uint4 raw;
  uint4 mask = (uint4)(~0u);
  if (p.mode == CLP_BLIT_MODE_ZS) {
    const int sz = clp_blit_nearest(cz, p.src_size[2]);
    uint aspects = 0u;
    raw = (uint4)(0u);
    if ((p.flags & CLP_BLIT_DEPTH) != 0u) {
      raw = clp_encode_depth(dfmt, raw, clp_blit_sample_depth(src, &p, src_bytes, cx, cy, sz));
      aspects |= CLP_ASPECT_DEPTH;
    }
    if ((p.flags & CLP_BLIT_STENCIL) != 0u) {
      const int sx = clp_blit_nearest(cx, p.src_size[0]), sy = clp_blit_nearest(cy, p.src_size[1]);
      const uint4 s =
          clp_load_block(p.src_format, clp_blit_src_texel(src, &p, src_bytes, sx, sy, sz));
      raw = clp_encode_stencil(dfmt, raw, clp_decode_stencil(p.src_format, s));
      aspects |= CLP_ASPECT_STENCIL;
    }
    if ((p.flags & CLP_BLIT_MASKED) != 0u) mask = clp_aspect_mask(dfmt, aspects);
  } else if (p.mode == CLP_BLIT_MODE_FLOAT) {
    float4 c = clp_blit_resolve_float(src, &p, src_bytes, cx, cy, cz, resolve);
    if ((p.flags & CLP_BLIT_ALPHA_BLEND) != 0u) {
      const float4 d = clp_decode_float(dfmt, clp_load_block(dfmt, out));
      c = c * c.w + d * (1.0f - c.w);
    }
    raw = clp_encode_float(dfmt, c);
    if ((p.flags & CLP_BLIT_MASKED) != 0u) mask = clp_component_mask(dfmt, p.write_mask);
  } else {
    const int sx = clp_blit_nearest(cx, p.src_size[0]), sy = clp_blit_nearest(cy, p.src_size[1]);
    const int sz = clp_blit_nearest(cz, p.src_size[2]);
    const uint4 s =
        clp_load_block(p.src_format, clp_blit_src_texel(src, &p, src_bytes, sx, sy, sz));
    raw = p.mode == CLP_BLIT_MODE_UINT ? clp_encode_uint(dfmt, clp_decode_uint(p.src_format, s))
                                       : clp_encode_sint(dfmt, clp_decode_sint(p.src_format, s));
    if ((p.flags & CLP_BLIT_MASKED) != 0u) mask = clp_component_mask(dfmt, p.write_mask);
  }
  if ((p.flags & CLP_BLIT_MASKED) != 0u) {
    clp_store_block_masked(dfmt, out, raw, mask);
  } else {
    clp_store_block(dfmt, out, raw);
  }
}

// One work-item per destination texel: global = (launch width rounded up to the
// work-group size, launch height, launch depth); ids past the launch extent return.
// Each work-item owns its destination texel (all its samples), so masked
// read-modify-writes need no atomics. The source is never written by the launch: a blit
// inside one level whose regions may overlap reads a staging copy (src/frontend/blit.cpp).
__kernel void blit_texels(const global uchar* src, global uchar* dst, ClpBlitParams p) {
  const uint gx = (uint)get_global_id(0);
  if (gx >= p.launch_size[0]) return;
  const int x = p.launch_origin[0] + (int)gx;
  const int y = p.launch_origin[1] + (int)get_global_id(1);
  const int z = p.launch_origin[2] + (int)get_global_id(2);
  const uint ns = max(p.src_samples, 1u), nd = max(p.dst_samples, 1u);
  ClpBlitParams q = p;
  for (uint s = 0; s < nd; ++s) {
    clp_blit_texel(src, dst, &q, x, y, z, ns == nd ? 1u : ns);
    q.dst_base += p.dst_sample_pitch;
    if (ns == nd) q.src_base += p.src_sample_pitch;
  }
}
