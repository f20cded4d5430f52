// The sampling library: the lane-parallel texture functions of sampling_abi.h, for
// generated shader code (TEX..., TXF, TXQ, TG4, LODQ and the SAMPLE_* family).
//
// Consumer: generated bodies (#include "sampling.h" when the shader samples). Producer of
// the descriptors: the host (sampling_abi.h). The commonest sampling (2D targets, 8-bit
// UNORM/sRGB formats, wraps that stay inside) runs every lane at once (sampling_vec.h);
// everything else per lane (sampling_filter.h does one lane):
//   coordinates -> cube face selection (cube targets) -> level of detail (GL rules:
//   lambda = log2(rho) from the gradients, + shader bias, + sampler bias, clamped to
//   [min_lod, max_lod]; magnification when lambda <= 0) -> level choice per mip filter
//   (NONE: first level; NEAREST: GL's ceil(lambda + 1/2) - 1; LINEAR: blend of floor and
//   floor + 1) -> wrap and filter (nearest / linear) at each level -> shadow compare
//   (per texel, before filtering) -> view swizzle.
// Integer formats are never filtered (nearest texel of the nearest level). Texel offsets
// apply to the target's spatial axes only (never to an array layer). Seamless cube
// filtering follows the sampler's seamless_cube_map (sampling_cube.h). Not done, and
// capped off accordingly (caps.cpp): anisotropic filtering (max_anisotropy is ignored:
// ANISOTROPIC_FILTER = 0, MAX_TEXTURE_ANISOTROPY = 0), min/max reduction modes (refused
// at sampler creation), multisampled textures (only sample 0 exists).
#ifndef CLPIPE_SAMPLING_H
#define CLPIPE_SAMPLING_H

#include "sampling_filter.h"

static int clp_target_dims(int target) {
  switch (target) {
    case CLP_TGSI_TEX_BUFFER:
    case CLP_TGSI_TEX_1D:
    case CLP_TGSI_TEX_SHADOW1D:
    case CLP_TGSI_TEX_1D_ARRAY:
    case CLP_TGSI_TEX_SHADOW1D_ARRAY:
      return 1;
    case CLP_TGSI_TEX_3D:
      return 3;
    default:
      return 2;
  }
}
static bool clp_target_is_cube(int target) {
  return target == CLP_TGSI_TEX_CUBE || target == CLP_TGSI_TEX_SHADOWCUBE ||
         target == CLP_TGSI_TEX_CUBE_ARRAY || target == CLP_TGSI_TEX_SHADOWCUBE_ARRAY;
}
static bool clp_target_is_array(int target) {
  switch (target) {
    case CLP_TGSI_TEX_1D_ARRAY:
    case CLP_TGSI_TEX_2D_ARRAY:
    case CLP_TGSI_TEX_SHADOW1D_ARRAY:
    case CLP_TGSI_TEX_SHADOW2D_ARRAY:
    case CLP_TGSI_TEX_2D_ARRAY_MSAA:
    case CLP_TGSI_TEX_CUBE_ARRAY:
    case CLP_TGSI_TEX_SHADOWCUBE_ARRAY:
      return true;
    default:
      return false;
  }
}
static bool clp_target_is_shadow(int target) {
  switch (target) {
    case CLP_TGSI_TEX_SHADOW1D:
    case CLP_TGSI_TEX_SHADOW2D:
    case CLP_TGSI_TEX_SHADOWRECT:
    case CLP_TGSI_TEX_SHADOW1D_ARRAY:
    case CLP_TGSI_TEX_SHADOW2D_ARRAY:
    case CLP_TGSI_TEX_SHADOWCUBE:
    case CLP_TGSI_TEX_SHADOWCUBE_ARRAY:
      return true;
    default:
      return false;
  }
}
static bool clp_target_is_rect(int target) {
  return target == CLP_TGSI_TEX_RECT || target == CLP_TGSI_TEX_SHADOWRECT;
}

// log2 of the squared scale factor, for the level of detail, without the library's call
// (a fifth of the sampler's time in it): x = 2^e m with m in [sqrt(1/2), sqrt(2)), and
// ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172, in four terms (the fifth is
// below 2e-8). Exact at powers of two (s = 0), so levels switch where GL says. Zero (the
// lanes outside a mask) gives -Inf; denormals, negatives, Inf and NaN take the library's
// log2. Each lane computes what the scalar form computes for it.
#define CLP_DEFINE_LOD_LOG2(NAME, F, I, AS_I, AS_F, CONVERT_F, ANY)                     \
  static F NAME(F x) {                                                                  \
    const I bits = AS_I(x);                                                             \
    const I up = (bits & 0x7fffff) > 0x3504f3; /* m >= sqrt(2): halve it */             \
    const F m = AS_F((bits & 0x7fffff) | select((I)(0x3f800000), (I)(0x3f000000), up)); \
    const I e = ((bits >> 23) & 0xff) - select((I)(127), (I)(126), up);                 \
    const F s = (m - 1.0f) / (m + 1.0f), s2 = s * s;                                    \
    const F p = 1.0f + s2 * (1.0f / 3.0f + s2 * (0.2f + s2 * (1.0f / 7.0f)));           \
    F r = CONVERT_F(e) + (2.0f * 1.44269504f) * s * p;                                  \
    r = select(r, (F)(-INFINITY), bits == 0);                                           \
    const I odd = ((bits < 0x00800000) & (bits != 0)) | (bits >= 0x7f800000);           \
    if (ANY(odd)) r = select(r, log2(x), odd);                                          \
    return r;                                                                           \
  }
#define CLP_SCALAR_ANY_(c) (c)
CLP_DEFINE_LOD_LOG2(clp_lod_log2, float, int, as_int, as_float, convert_float, CLP_SCALAR_ANY_)
#undef CLP_SCALAR_ANY_

// The state of a sampling unit that decides how the lane-parallel path samples (the two
// words of sampling_abi.h): read from the descriptors (clp_tex_key_read), or constants
// that a specialised tile program compiles in (clp_tex_key_words, CLP_TEX_SAMPLE), so
// that the path's tests of format, wrap and filter fold away.
typedef struct {
  uint format, swizzle[4];
  uint wrap[3], min_img_filter, mag_img_filter, min_mip_filter;
  uint compare_mode, compare_func, unnormalized_coords, seamless_cube_map;
} ClpTexKey;

static ClpTexKey clp_tex_key_read(global const ClpTexView* v, global const ClpSamplerState* s) {
  ClpTexKey k;
  k.format = v->format;
  for (int i = 0; i < 4; ++i)
    k.swizzle[i] = v->swizzle[i];
  for (int i = 0; i < 3; ++i)
    k.wrap[i] = s->wrap[i];
  k.min_img_filter = s->min_img_filter;
  k.mag_img_filter = s->mag_img_filter;
  k.min_mip_filter = s->min_mip_filter;
  k.compare_mode = s->compare_mode;
  k.compare_func = s->compare_func;
  k.unnormalized_coords = s->unnormalized_coords;
  k.seamless_cube_map = s->seamless_cube_map;
  return k;
}

// Inlined, so that constant words fold into constant fields.
static __attribute__((always_inline)) ClpTexKey clp_tex_key_words(uint view, uint sampler) {
  ClpTexKey k;
  k.format = view & 0xffffu;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    k.swizzle[i] = (view >> (CLP_TEXKEY_SWIZZLE_SHIFT + 3 * i)) & 7u;
#pragma unroll
  for (int i = 0; i < 3; ++i)
    k.wrap[i] = (sampler >> (3 * i)) & 7u;
  k.min_img_filter = (sampler >> CLP_TEXKEY_MIN_IMG_SHIFT) & 1u;
  k.mag_img_filter = (sampler >> CLP_TEXKEY_MAG_IMG_SHIFT) & 1u;
  k.min_mip_filter = (sampler >> CLP_TEXKEY_MIN_MIP_SHIFT) & 3u;
  k.compare_mode = (sampler >> CLP_TEXKEY_COMPARE_MODE_SHIFT) & 1u;
  k.compare_func = (sampler >> CLP_TEXKEY_COMPARE_FUNC_SHIFT) & 7u;
  k.unnormalized_coords = (sampler >> CLP_TEXKEY_UNNORMALIZED_SHIFT) & 1u;
  k.seamless_cube_map = (sampler >> CLP_TEXKEY_SEAMLESS_SHIFT) & 1u;
  return k;
}

// The lane-parallel path of clp_tex_sample (after the target predicates it uses).
#include "sampling_vec.h"

// One lane's coordinates.
typedef struct {
  float s, t, r, layer, ref, lod;
  float ddx[3], ddy[3];
  int off[3];
} ClpTexLane;

// Offsets along the target's spatial axes (none for cube maps); others are ignored, as
// TGSI's offset register may repeat a channel into the unused ones.
static int clp_offset_axes(int target) {
  return clp_target_is_cube(target) ? 0 : clp_target_dims(target);
}

static void clp_tex_lane(const ClpTexCoords* c, int target, int l, ClpTexLane* a) {
  a->s = CLP_LANE(c->s, l);
  a->t = CLP_LANE(c->t, l);
  a->r = CLP_LANE(c->r, l);
  a->layer = CLP_LANE(c->layer, l);
  a->ref = CLP_LANE(c->ref, l);
  a->lod = CLP_LANE(c->lod, l);
  for (int k = 0; k < 3; ++k) {
    a->ddx[k] = CLP_LANE(c->ddx[k], l);
    a->ddy[k] = CLP_LANE(c->ddy[k], l);
    a->off[k] = k < clp_offset_axes(target) ? CLP_LANE(c->offset[k], l) : 0;
  }
}

// Where a lane samples: face-resolved coordinates, the layer, the gradients in texel
// units of the first level.
typedef struct {
  float u, v, w;     // normalized (or texel, for unnormalized) coordinates
  int layer;         // absolute layer (arrays, cube faces)
  int face;          // cube face (cube targets), else 0
  float lambda_raw;  // log2 of the scale factor (GRADIENTS / BIAS modes)
  bool normalized;
} ClpTexPoint;

static void clp_tex_point(global const ClpTexView* v, global const ClpSamplerState* smp, int target,
                          const ClpTexLane* a, ClpTexPoint* p) {
  const int dims = clp_target_dims(target);
  float du[2] = {a->ddx[0], a->ddy[0]}, dv[2] = {a->ddx[1], a->ddy[1]},
        dw[2] = {a->ddx[2], a->ddy[2]};
  int layer = 0;
  if (clp_target_is_cube(target)) {
    const int face = clp_cube_face(a->s, a->t, a->r);
    const float2 st = clp_cube_st(face, a->s, a->t, a->r);
    p->u = st.x;
    p->v = st.y;
    p->w = 0.0f;
    // Gradients of the face coordinates: the face is kept for the neighbouring lanes.
    for (int k = 0; k < 2; ++k) {
      const float* g = k == 0 ? a->ddx : a->ddy;
      const float2 n = clp_cube_st(face, a->s + g[0], a->t + g[1], a->r + g[2]);
      du[k] = n.x - st.x;
      dv[k] = n.y - st.y;
      dw[k] = 0.0f;
    }
    layer = face;
    p->face = face;
    if (clp_target_is_array(target)) {
      const int cubes = (int)(clp_view_layers(v) / 6u);
      layer += 6 * clamp(clp_floor_int(a->layer + 0.5f), 0, max(cubes - 1, 0));
    }
  } else {
    p->face = 0;
    p->u = a->s;
    p->v = dims >= 2 ? a->t : 0.0f;
    p->w = dims >= 3 ? a->r : 0.0f;
    if (clp_target_is_array(target)) {
      layer = clamp(clp_floor_int(a->layer + 0.5f), 0, max((int)clp_view_layers(v) - 1, 0));
    }
  }
  p->layer = (int)v->first_layer + layer;
  p->normalized = !clp_target_is_rect(target) && !smp->unnormalized_coords;
  const uint base = v->first_level;
  const float sx = p->normalized ? (float)clp_level_size(v->width, base) : 1.0f;
  const float sy = p->normalized ? (float)clp_level_size(v->height, base) : 1.0f;
  const float sz = p->normalized ? (float)clp_level_size(v->depth, base) : 1.0f;
  float rho2 = 0.0f;
  for (int k = 0; k < 2; ++k) {
    float q = du[k] * sx * du[k] * sx;
    if (dims >= 2 || clp_target_is_cube(target)) q += dv[k] * sy * dv[k] * sy;
    if (dims >= 3) q += dw[k] * sz * dw[k] * sz;
    rho2 = fmax(rho2, q);
  }
  p->lambda_raw = 0.5f * clp_lod_log2(rho2);
}

// Texel coordinates at absolute level `level`, offsets added.
static float3 clp_tex_texel_coords(global const ClpTexView* v, const ClpTexPoint* p,
                                   const ClpTexLane* a, uint level) {
  float3 x = (float3)(p->u, p->v, p->w);
  if (p->normalized) {
    x *= (float3)((float)clp_level_size(v->width, level), (float)clp_level_size(v->height, level),
                  (float)clp_level_size(v->depth, level));
  }
  return x + convert_float3((int3)(a->off[0], a->off[1], a->off[2]));
}

// The level of detail after biases and clamps (levels relative to the first level).
static float clp_tex_lambda(global const ClpSamplerState* smp, int lod_mode, const ClpTexPoint* p,
                            const ClpTexLane* a) {
  float lambda = lod_mode == CLP_LOD_EXPLICIT ? a->lod : p->lambda_raw;
  if (lod_mode == CLP_LOD_BIAS) lambda += a->lod;
  lambda += smp->lod_bias;
  return fmin(fmax(lambda, smp->min_lod), smp->max_lod);
}

static float4 clp_sample_lane(global const ClpTexView* v, global const uchar* data,
                              global const ClpSamplerState* smp, int target, int lod_mode,
                              const ClpTexLane* a) {
  ClpTexPoint p;
  clp_tex_point(v, smp, target, a, &p);
  const bool integer = clp_format_is_pure_integer(v->format);
  ClpFilterArgs f;
  f.dims = clp_target_is_cube(target) ? 2 : clp_target_dims(target);
  f.layer = p.layer;
  f.cube_face = clp_target_is_cube(target) && smp->seamless_cube_map ? p.face : -1;
  f.shadow = clp_target_is_shadow(target) && smp->compare_mode != 0u;
  f.ref = a->ref;
  const uint base = v->first_level;
  const int top = v->last_level > base ? (int)(v->last_level - base) : 0;
  const float lambda = clp_tex_lambda(smp, lod_mode, &p, a);
  const bool mag = !(lambda > 0.0f);
  f.linear = !integer && (mag ? smp->mag_img_filter : smp->min_img_filter) == CLP_FILTER_LINEAR;
  uint mip = mag || clp_target_is_rect(target) ? CLP_MIP_NONE : smp->min_mip_filter;
  if (integer && mip == CLP_MIP_LINEAR) mip = CLP_MIP_NEAREST;
  int l0 = 0, l1 = 0;
  float frac = 0.0f;
  if (mip == CLP_MIP_NEAREST) {
    l0 = lambda <= 0.5f ? 0 : min((int)ceil(lambda + 0.5f) - 1, top);
  } else if (mip == CLP_MIP_LINEAR) {
    const float fl = floor(lambda);
    l0 = min((int)fl, top);
    l1 = min(l0 + 1, top);
    frac = l0 == top ? 0.0f : lambda - fl;
  }
  f.level = base + (uint)l0;
  float3 x = clp_tex_texel_coords(v, &p, a, f.level);
  float4 r = clp_filter_level(v, data, smp, &f, x.x, x.y, x.z);
  if (frac > 0.0f) {
    f.level = base + (uint)l1;
    x = clp_tex_texel_coords(v, &p, a, f.level);
    r = mix(r, clp_filter_level(v, data, smp, &f, x.x, x.y, x.z), frac);
  }
  return clp_view_swizzle(v, r);
}

// clp_tex_sample lane by lane.
static void clp_tex_sample_lanes(global const ClpTexView* view, global const uchar* data,
                                 global const ClpSamplerState* smp, int target, int lod_mode,
                                 const ClpTexCoords* c, vf* out) {
  CLP_UNPACK(int, c->mask, mk);
  float r[4][CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l) {
    float4 t = (float4)(0.0f);
    if (mk[l]) {
      ClpTexLane a;
      clp_tex_lane(c, target, l, &a);
      t = clp_sample_lane(view, data, smp, target, lod_mode, &a);
    }
    r[0][l] = t.x;
    r[1][l] = t.y;
    r[2][l] = t.z;
    r[3][l] = t.w;
  }
  for (int k = 0; k < 4; ++k)
    out[k] = CLP_PACK(r[k]);
}

// clp_tex_sample where `key` is the state of `view` and `smp`. Inlined into each call,
// so that a key of constants specialises the lane-parallel path there.
static __attribute__((always_inline)) void clp_tex_sample_keyed(
    global const ClpTexView* view, global const uchar* data, global const ClpSamplerState* smp,
    int target, int lod_mode, const ClpTexCoords* c, vf* out, ClpTexKey key) {
#if CLP_LANES > 1 && !defined(CLP_TEX_PER_LANE)
  if (clp_tex_sample_vec(view, data, smp, &key, target, lod_mode, c, out)) return;
#endif
  clp_tex_sample_lanes(view, data, smp, target, lod_mode, c, out);
}

static void clp_tex_sample(global const ClpTexView* view, global const uchar* data,
                           global const ClpSamplerState* smp, int target, int lod_mode,
                           const ClpTexCoords* c, vf* out) {
  clp_tex_sample_keyed(view, data, smp, target, lod_mode, c, out, clp_tex_key_read(view, smp));
}

// The sampling calls of generated code, for view unit `vu` and sampler unit `su`: in a
// specialised tile program whose key holds the units' words (CLP_TILE_VIEW_WORD and
// CLP_TILE_SAMPLER_WORD, tile_variant.cpp), with those constants; elsewhere with the
// descriptors' state. The key is made from the same descriptors that the draws of the
// program bind, so both give the same results.
#ifdef CLP_TILE_KEY
#define CLP_TEX_SAMPLE(vu, su, view, data, smp, target, lod_mode, c, out)                    \
  (CLP_TILE_VIEW_WORD(vu) != CLP_TEX_UNKEYED && CLP_TILE_SAMPLER_WORD(su) != CLP_TEX_UNKEYED \
       ? clp_tex_sample_keyed(                                                               \
             view, data, smp, target, lod_mode, c, out,                                      \
             clp_tex_key_words(CLP_TILE_VIEW_WORD(vu), CLP_TILE_SAMPLER_WORD(su)))           \
       : clp_tex_sample(view, data, smp, target, lod_mode, c, out))
#else
#define CLP_TEX_SAMPLE(vu, su, view, data, smp, target, lod_mode, c, out) \
  clp_tex_sample(view, data, smp, target, lod_mode, c, out)
#endif

// ---------------------------------------------------------------------------------
// Texel fetch

static float4 clp_fetch_lane(global const ClpTexView* v, global const uchar* data, int target,
                             int x, int y, int z, int level, const int* off) {
  // Offsets move the spatial axes only: 1D arrays keep their layer in y, 2D arrays in z.
  const int axes = clp_offset_axes(target);
  x += off[0];
  if (axes >= 2) y += off[1];
  if (axes >= 3) z += off[2];
  if (target == CLP_TGSI_TEX_BUFFER) {
    const long o = clp_texel_offset(v, 0u, x, 0, 0);
    return o < 0 ? (float4)(0.0f) : clp_view_swizzle(v, clp_texel_decode(v->format, data, o));
  }
  const bool msaa = target == CLP_TGSI_TEX_2D_MSAA || target == CLP_TGSI_TEX_2D_ARRAY_MSAA;
  // MSAA: `level` is the sample (single-sampled storage holds sample 0 only).
  const uint samples = max(v->samples, 1u);
  if (msaa && (level < 0 || (uint)level >= samples)) return (float4)(0.0f);
  const int lv = msaa ? 0 : level;
  if (lv < 0 || (uint)lv + v->first_level > v->last_level) return (float4)(0.0f);
  const uint L = v->first_level + (uint)lv;
  int layer = (int)v->first_layer;
  if (target == CLP_TGSI_TEX_1D_ARRAY) {
    if (y < 0 || (uint)y >= clp_view_layers(v)) return (float4)(0.0f);
    layer += y;
    y = 0;
  } else if (clp_target_is_array(target)) {
    if (z < 0 || (uint)z >= clp_view_layers(v)) return (float4)(0.0f);
    layer += z;
  } else if (target == CLP_TGSI_TEX_3D) {
    if (z < 0 || (uint)z >= clp_level_size(v->depth, L)) return (float4)(0.0f);
    layer = z;
  }
  if (clp_target_dims(target) == 1 && y != 0) return (float4)(0.0f);
  long o = clp_texel_offset(v, L, x, y, layer);
  if (msaa && o >= 0) o += (long)level * (long)(v->layer_pitch[L] / samples);
  return o < 0 ? (float4)(0.0f) : clp_view_swizzle(v, clp_texel_decode(v->format, data, o));
}

static void clp_tex_fetch(global const ClpTexView* view, global const uchar* data, int target, vi x,
                          vi y, vi z, vi level, const vi* offset, vi mask, vf* out) {
  CLP_UNPACK(int, x, xs);
  CLP_UNPACK(int, y, ys);
  CLP_UNPACK(int, z, zs);
  CLP_UNPACK(int, level, ls);
  CLP_UNPACK(int, mask, mk);
  CLP_UNPACK(int, offset[0], o0);
  CLP_UNPACK(int, offset[1], o1);
  CLP_UNPACK(int, offset[2], o2);
  float r[4][CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l) {
    const int off[3] = {o0[l], o1[l], o2[l]};
    const float4 t = mk[l] ? clp_fetch_lane(view, data, target, xs[l], ys[l], zs[l], ls[l], off)
                           : (float4)(0.0f);
    r[0][l] = t.x;
    r[1][l] = t.y;
    r[2][l] = t.z;
    r[3][l] = t.w;
  }
  for (int k = 0; k < 4; ++k)
    out[k] = CLP_PACK(r[k]);
}

// ---------------------------------------------------------------------------------
// Queries

static void clp_tex_size(global const ClpTexView* v, int target, vi level, vf* out) {
  CLP_UNPACK(int, level, ls);
  uint r[4][CLP_LANES];
  const uint levels = v->last_level >= v->first_level ? v->last_level - v->first_level + 1u : 0u;
  for (int l = 0; l < CLP_LANES; ++l) {
    uint w = 0u, h = 0u, d = 0u;
    const int lv = ls[l];
    if (target == CLP_TGSI_TEX_BUFFER) {
      const uint bb = clp_format_block_bytes(v->format);
      w = bb ? v->buffer_size / bb : 0u;
    } else if (lv >= 0 && (uint)lv < levels) {
      const uint L = v->first_level + (uint)lv;
      w = clp_level_size(v->width, L);
      switch (target) {
        case CLP_TGSI_TEX_1D:
        case CLP_TGSI_TEX_SHADOW1D:
          break;
        case CLP_TGSI_TEX_1D_ARRAY:
        case CLP_TGSI_TEX_SHADOW1D_ARRAY:
          h = clp_view_layers(v);
          break;
        case CLP_TGSI_TEX_3D:
          h = clp_level_size(v->height, L);
          d = clp_level_size(v->depth, L);
          break;
        case CLP_TGSI_TEX_2D_ARRAY:
        case CLP_TGSI_TEX_SHADOW2D_ARRAY:
        case CLP_TGSI_TEX_2D_ARRAY_MSAA:
          h = clp_level_size(v->height, L);
          d = clp_view_layers(v);
          break;
        case CLP_TGSI_TEX_CUBE_ARRAY:
        case CLP_TGSI_TEX_SHADOWCUBE_ARRAY:
          h = clp_level_size(v->height, L);
          d = clp_view_layers(v) / 6u;
          break;
        default:
          h = clp_level_size(v->height, L);
          break;
      }
    }
    r[0][l] = w;
    r[1][l] = h;
    r[2][l] = d;
    r[3][l] = target == CLP_TGSI_TEX_BUFFER ? 1u : levels;
  }
  for (int k = 0; k < 4; ++k)
    out[k] = CLP_AS_VF(CLP_PACK(r[k]));
}

static vf clp_tex_samples(global const ClpTexView* v) {
  return CLP_AS_VF((vu)(max(v->samples, 1u)));
}

// ---------------------------------------------------------------------------------
// Gather

static float4 clp_gather_lane(global const ClpTexView* v, global const uchar* data,
                              global const ClpSamplerState* smp, int target, const ClpTexLane* a,
                              int comp, const int* offsets4) {
  ClpTexPoint p;
  clp_tex_point(v, smp, target, a, &p);
  const uint level = v->first_level;
  const bool shadow = clp_target_is_shadow(target) && smp->compare_mode != 0u;
  const bool one_d = clp_target_dims(target) == 1 && !clp_target_is_cube(target);
  const int w = (int)clp_level_size(v->width, level);
  const int h = one_d ? 1 : (int)clp_level_size(v->height, level);
  float r[4];
  // Texel k of the footprint: (i0,j1) (i1,j1) (i1,j0) (i0,j0).
  const int pick_i[4] = {0, 1, 1, 0}, pick_j[4] = {1, 1, 0, 0};
  for (int k = 0; k < 4; ++k) {
    ClpTexLane b = *a;
    if (offsets4) {
      b.off[0] = offsets4[2 * k];
      b.off[1] = offsets4[2 * k + 1];
    }
    const float3 x = clp_tex_texel_coords(v, &p, &b, level);
    int i0, i1, j0 = 0, j1 = 0;
    float fa, fb;
    float4 t;
    const bool seamless = clp_target_is_cube(target) && smp->seamless_cube_map;
    if (seamless) {
      // Across an edge or corner: the adjacent faces' texels (sampling_filter.h).
      ClpFilterArgs f;
      f.level = level;
      f.dims = 2;
      f.layer = p.layer;
      f.cube_face = p.face;
      f.linear = true;
      f.shadow = shadow;  // compared per texel, so a corner averages three compares
      f.ref = a->ref;
      i0 = clp_linear_unwrapped(clamp(x.x, -0.5f, (float)w + 0.5f), &fa);
      j0 = clp_linear_unwrapped(clamp(x.y, -0.5f, (float)w + 0.5f), &fb);
      t = clp_cube_filter_texel(v, data, smp, &f, i0 + pick_i[k], j0 + pick_j[k], w);
    } else {
      clp_wrap_linear(smp->wrap[0], x.x, w, &i0, &i1, &fa);
      if (!one_d) clp_wrap_linear(smp->wrap[1], x.y, h, &j0, &j1, &fb);
      t = clp_fetch_texel(v, data, smp, level, pick_i[k] ? i1 : i0,
                          one_d ? 0 : (pick_j[k] ? j1 : j0), p.layer);
    }
    if (shadow) {
      r[k] = seamless ? t.x : clp_shadow_value(smp, v->format, a->ref, t);
    } else {
      const float4 s = clp_view_swizzle(v, t);
      r[k] = comp == 0 ? s.x : comp == 1 ? s.y : comp == 2 ? s.z : s.w;
    }
  }
  return (float4)(r[0], r[1], r[2], r[3]);
}

static void clp_tex_gather(global const ClpTexView* view, global const uchar* data,
                           global const ClpSamplerState* smp, int target, const ClpTexCoords* c,
                           vi comp, const vi* offsets4, vf* out) {
  CLP_UNPACK(int, c->mask, mk);
  CLP_UNPACK(int, comp, cs);
  float r[4][CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l) {
    float4 t = (float4)(0.0f);
    if (mk[l]) {
      ClpTexLane a;
      clp_tex_lane(c, target, l, &a);
      int o4[8];
      if (offsets4) {
        for (int k = 0; k < 8; ++k)
          o4[k] = CLP_LANE(offsets4[k], l);
      }
      t = clp_gather_lane(view, data, smp, target, &a, cs[l] & 3, offsets4 ? o4 : 0);
    }
    r[0][l] = t.x;
    r[1][l] = t.y;
    r[2][l] = t.z;
    r[3][l] = t.w;
  }
  for (int k = 0; k < 4; ++k)
    out[k] = CLP_PACK(r[k]);
}

// ---------------------------------------------------------------------------------
// LOD query

static void clp_tex_query_lod(global const ClpTexView* v, global const ClpSamplerState* smp,
                              int target, const ClpTexCoords* c, vf* out) {
  CLP_UNPACK(int, c->mask, mk);
  float x[CLP_LANES], y[CLP_LANES];
  const uint base = v->first_level;
  const float top = v->last_level > base ? (float)(v->last_level - base) : 0.0f;
  for (int l = 0; l < CLP_LANES; ++l) {
    x[l] = y[l] = 0.0f;
    if (!mk[l]) continue;
    ClpTexLane a;
    clp_tex_lane(c, target, l, &a);
    ClpTexPoint p;
    clp_tex_point(v, smp, target, &a, &p);
    y[l] = p.lambda_raw + smp->lod_bias;
    const float lambda = clp_tex_lambda(smp, CLP_LOD_GRADIENTS, &p, &a);
    if (!(lambda > 0.0f) || smp->min_mip_filter == CLP_MIP_NONE) {
      x[l] = 0.0f;
    } else if (smp->min_mip_filter == CLP_MIP_NEAREST) {
      x[l] = lambda <= 0.5f ? 0.0f : fmin(ceil(lambda + 0.5f) - 1.0f, top);
    } else {
      x[l] = fmin(lambda, top);
    }
  }
  out[0] = CLP_PACK(x);
  out[1] = CLP_PACK(y);
  out[2] = out[3] = (vf)(0.0f);
}

#endif  // CLPIPE_SAMPLING_H
