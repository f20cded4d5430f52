// The per-texel layer of the sampling library: wrap modes, texel fetch with border
// colours, shadow compare, view swizzles, and nearest / linear filtering of one level.
// Everything here works on one lane (scalars); sampling.h runs it per lane.
//
// Consumer: sampling.h. Inputs: ClpTexView / ClpSamplerState (sampling_abi.h) and the
// texel codec of format.h (through clp_texel_decode of shader_lib_image.h).
// Coordinates are texel-space floats (x = u * size for normalized coordinates); wrap
// functions return texel indices or -1 for "border". Seamless cube filtering
// (sampling_cube.h) replaces the wrap of cube faces: texels across an edge come from the
// adjacent face, a texel across a corner is the average of the three that meet there.
#ifndef CLPIPE_SAMPLING_FILTER_H
#define CLPIPE_SAMPLING_FILTER_H

#include "compare_func.h"
#include "sampling_cube.h"
#include "shader_lib_image.h"

// pipe_compare_func of the reference and the texel.
static bool clp_tex_compare(uint func, float ref, float texel) {
  CLP_COMPARE_BODY(func & 7u, ref, texel, false, true)
}

static int clp_floor_int(float x) {
  return convert_int_sat_rtn(x);
}

// Positive remainder.
static int clp_wrap_repeat(int i, int size) {
  const int r = i % size;
  return r < 0 ? r + size : r;
}

// Mirrored repeat of an integer texel index: period 2 * size.
static int clp_wrap_mirror(int i, int size) {
  const int m = clp_wrap_repeat(i, 2 * size);
  return m >= size ? 2 * size - 1 - m : m;
}

// MIRROR_CLAMP and MIRROR_CLAMP_TO_BORDER (EXT_texture_mirror_clamp) mirror the
// coordinate itself, then clamp it.
static bool clp_wrap_is_mirror_clamp(uint wrap) {
  return wrap == CLP_WRAP_MIRROR_CLAMP || wrap == CLP_WRAP_MIRROR_CLAMP_TO_BORDER;
}

// MIRROR_CLAMP_TO_EDGE of an integer texel index (GL 4.6 table 8.20):
// clamp(mirror(i), 0, size - 1) with mirror(a) = a >= 0 ? a : -(1 + a).
static int clp_wrap_mirror_edge(int i, int size) {
  return clamp(i >= 0 ? i : -(1 + i), 0, size - 1);
}

// Nearest texel of texel coordinate x along an axis of `size` texels.
static int clp_wrap_nearest(uint wrap, float x, int size) {
  if (clp_wrap_is_mirror_clamp(wrap)) x = fabs(x);
  const int i = clp_floor_int(x);
  switch (wrap) {
    case CLP_WRAP_REPEAT:
      return clp_wrap_repeat(i, size);
    case CLP_WRAP_MIRROR_REPEAT:
      return clp_wrap_mirror(i, size);
    case CLP_WRAP_MIRROR_CLAMP_TO_EDGE:
      return clp_wrap_mirror_edge(i, size);
    case CLP_WRAP_CLAMP_TO_BORDER:
    case CLP_WRAP_MIRROR_CLAMP_TO_BORDER:
      return (i < 0 || i >= size) ? -1 : i;
    default:
      return clamp(i, 0, size - 1);  // CLAMP, CLAMP_TO_EDGE, MIRROR_CLAMP
  }
}

// The two texels of linear filtering around x and the weight of the second one. The
// texels are GL 4.6's (8.14.2, table 8.20): i0 = wrap(floor(x - 1/2)), i1 = wrap(i0 + 1)
// before wrapping, so that textureGather sees the same footprint at the edges (clamping
// the coordinate instead would move it inwards). Coordinates are first limited to a
// range that leaves every result unchanged and keeps the integers small.
static void clp_wrap_linear(uint wrap, float x, int size, int* i0, int* i1, float* a) {
  if (clp_wrap_is_mirror_clamp(wrap)) x = fabs(x);
  const float fs = (float)size;
  switch (wrap) {
    case CLP_WRAP_CLAMP:
    case CLP_WRAP_MIRROR_CLAMP:
      x = clamp(x, 0.0f, fs);  // GL_CLAMP clamps s to [0, 1]
      break;
    case CLP_WRAP_CLAMP_TO_EDGE:
    case CLP_WRAP_CLAMP_TO_BORDER:
      // Past one texel outside, both texels are the edge (or border) texel already.
      x = clamp(x, -1.0f, fs + 1.0f);
      break;
    case CLP_WRAP_MIRROR_CLAMP_TO_BORDER:
      x = fmin(x, fs + 0.5f);  // EXT_texture_mirror_clamp: clamp(|s|, .., 1 + 1/2N)
      break;
    case CLP_WRAP_MIRROR_CLAMP_TO_EDGE:
      x = clamp(x, -fs - 0.5f, fs + 0.5f);
      break;
    default:
      break;
  }
  x -= 0.5f;
  const float f = floor(x);
  *a = x - f;
  const int j = clp_floor_int(f);
  switch (wrap) {
    case CLP_WRAP_REPEAT:
      *i0 = clp_wrap_repeat(j, size);
      *i1 = clp_wrap_repeat(j + 1, size);
      break;
    case CLP_WRAP_MIRROR_REPEAT:
      *i0 = clp_wrap_mirror(j, size);
      *i1 = clp_wrap_mirror(j + 1, size);
      break;
    case CLP_WRAP_CLAMP_TO_EDGE:
      *i0 = clamp(j, 0, size - 1);
      *i1 = clamp(j + 1, 0, size - 1);
      break;
    case CLP_WRAP_MIRROR_CLAMP_TO_EDGE:
      *i0 = clp_wrap_mirror_edge(j, size);
      *i1 = clp_wrap_mirror_edge(j + 1, size);
      break;
    default:  // CLAMP and the border modes: outside texels are the border colour
      *i0 = (j < 0 || j >= size) ? -1 : j;
      *i1 = (j + 1 < 0 || j + 1 >= size) ? -1 : j + 1;
      break;
  }
}

// The border colour as texel bits (floats, or integers for integer formats). GL 4.6
// 8.14.2: border values are clamped to the range of the format's components, [0, 1] for
// unsigned and [-1, 1] for signed normalized ones (depth formats: component 0).
static float4 clp_border_texel(global const ClpSamplerState* smp, uint fmt) {
  const uint4 b = (uint4)(smp->border_color[0], smp->border_color[1], smp->border_color[2],
                          smp->border_color[3]);
  const uint kind = smp->border_color_kind;
  if (clp_format_is_pure_integer(fmt)) {
    // Float border on an integer texture: converted (truncated), so the value stays near.
    return kind != CLP_BORDER_FLOAT ? as_float4(b) : as_float4(convert_int4_sat_rtz(as_float4(b)));
  }
  float4 c = kind == CLP_BORDER_INTEGER ? convert_float4(as_int4(b)) : as_float4(b);
  float r[4] = {c.x, c.y, c.z, c.w};
  for (uint k = 0; k < 4u; ++k) {
    const uint type = clp_format_component_type(fmt, k);
    if (type == CLP_TYPE_UNORM) r[k] = clamp(r[k], 0.0f, 1.0f);
    if (type == CLP_TYPE_SNORM) r[k] = clamp(r[k], -1.0f, 1.0f);
  }
  return (float4)(r[0], r[1], r[2], r[3]);
}

// Texel (i, j) of layer-or-slice `layer` of absolute level `level`; -1 indices: border.
static float4 clp_fetch_texel(global const ClpTexView* v, global const uchar* data,
                              global const ClpSamplerState* smp, uint level, int i, int j,
                              int layer) {
  if (i < 0 || j < 0 || layer < 0) return clp_border_texel(smp, v->format);
  return clp_texel_decode(v->format, data, clp_texel_offset(v, level, i, j, layer));
}

// Shadow compare of a texel: 1.0 or 0.0. Fixed-point depth compares a reference clamped
// to [0, 1].
static float clp_shadow_value(global const ClpSamplerState* smp, uint fmt, float ref,
                              float4 texel) {
  if (clp_format_base_type(fmt) != CLP_TYPE_FLOAT) ref = clamp(ref, 0.0f, 1.0f);
  return clp_tex_compare(smp->compare_func, ref, texel.x) ? 1.0f : 0.0f;
}

// View swizzle of a (filtered) texel: X Y Z W, 0, 1 (integer 1 for integer formats).
static float4 clp_view_swizzle(global const ClpTexView* v, float4 t) {
  const float one = clp_format_is_pure_integer(v->format) ? as_float(1u) : 1.0f;
  float r[4];
  for (int c = 0; c < 4; ++c) {
    const uint s = v->swizzle[c];
    r[c] = s == 0u ? t.x : s == 1u ? t.y : s == 2u ? t.z : s == 3u ? t.w : s == 5u ? one : 0.0f;
  }
  return (float4)(r[0], r[1], r[2], r[3]);
}

// What filtering of one level needs.
typedef struct {
  uint level;     // absolute level
  int dims;       // 1, 2 or 3 filtered axes
  int layer;      // absolute layer (arrays, cube faces); 3D uses the r axis instead
  int cube_face;  // seamless cube filtering of this face (layer = first face + cube_face), or -1
  bool linear;    // linear filter, else nearest
  bool shadow;    // compare with ref
  float ref;
} ClpFilterArgs;

// One texel of the footprint: decoded, or its shadow compare in every component.
static float4 clp_filter_texel(global const ClpTexView* v, global const uchar* data,
                               global const ClpSamplerState* smp, const ClpFilterArgs* f, int i,
                               int j, int k) {
  const float4 t = clp_fetch_texel(v, data, smp, f->level, i, j, k);
  return f->shadow ? (float4)(clp_shadow_value(smp, v->format, f->ref, t)) : t;
}

// Texel (i, j) of the seamless cube face f->cube_face (size x size), where i and j may lie
// one texel outside the face: across an edge the adjacent face's texel, across a corner
// the average of the three texels that meet at the cube's corner (GL 4.6 8.13.1; pure
// integer formats, which are not averaged, take the face's own corner texel).
static float4 clp_cube_filter_texel(global const ClpTexView* v, global const uchar* data,
                                    global const ClpSamplerState* smp, const ClpFilterArgs* f,
                                    int i, int j, int size) {
  const int face0 = f->layer - f->cube_face;
  const bool out_i = i < 0 || i >= size, out_j = j < 0 || j >= size;
  if (!out_i && !out_j) return clp_filter_texel(v, data, smp, f, i, j, f->layer);
  const int ci = clamp(i, 0, size - 1), cj = clamp(j, 0, size - 1);
  if (out_i != out_j) {
    const int3 n = clp_cube_neighbor(f->cube_face, i, j, size);
    return clp_filter_texel(v, data, smp, f, n.x, n.y, face0 + n.z);
  }
  // Integer texels are never averaged: the face's own corner texel stands in.
  if (clp_format_is_pure_integer(v->format) && !f->shadow) {
    return clp_filter_texel(v, data, smp, f, ci, cj, f->layer);
  }
  const int3 a = clp_cube_neighbor(f->cube_face, i, cj, size);
  const int3 b = clp_cube_neighbor(f->cube_face, ci, j, size);
  return (clp_filter_texel(v, data, smp, f, ci, cj, f->layer) +
          clp_filter_texel(v, data, smp, f, a.x, a.y, face0 + a.z) +
          clp_filter_texel(v, data, smp, f, b.x, b.y, face0 + b.z)) *
         (1.0f / 3.0f);
}

// The unwrapped texels around x for linear filtering (seamless cube faces): i0 and
// i0 + 1 with the weight of the second.
static int clp_linear_unwrapped(float x, float* a) {
  x -= 0.5f;
  const float fl = floor(x);
  *a = x - fl;
  return clp_floor_int(fl);
}

// Whether a wrap mode always gives texel indices inside the level (no border texels).
static bool clp_wrap_stays_inside(uint wrap) {
  return wrap == CLP_WRAP_REPEAT || wrap == CLP_WRAP_CLAMP_TO_EDGE ||
         wrap == CLP_WRAP_MIRROR_REPEAT || wrap == CLP_WRAP_MIRROR_CLAMP_TO_EDGE;
}

// Bilinear filtering of a 2D level (or layer) of an RGBA8 or BGRA8 UNORM view whose wrap
// modes keep the footprint inside the level, the commonest sampling there is: the four
// texels read and decoded directly instead of through clp_filter_texel's general fetch.
// The weights, products and sums are the general path's, in its order, so the result is
// the same. Returns false, having done nothing, where the general path must run
// (another format or wrap, or a footprint past the bound data, which reads zero there).
static bool clp_filter_rgba8_2d(global const ClpTexView* v, global const uchar* data,
                                global const ClpSamplerState* smp, const ClpFilterArgs* f, float x,
                                float y, int w, int h, float4* out) {
  const uint fmt = v->format;
  if (fmt != CLP_FMT_R8G8B8A8_UNORM && fmt != CLP_FMT_B8G8R8A8_UNORM) return false;
  if (!clp_wrap_stays_inside(smp->wrap[0]) || !clp_wrap_stays_inside(smp->wrap[1])) return false;
  if (f->level >= CLP_TEX_MAX_LEVELS || f->layer < 0) return false;
  int i0, i1, j0, j1;
  float a, b;
  clp_wrap_linear(smp->wrap[0], x, w, &i0, &i1, &a);
  clp_wrap_linear(smp->wrap[1], y, h, &j0, &j1, &b);
  const ulong base =
      (ulong)v->level_offset[f->level] + (ulong)(uint)f->layer * v->layer_pitch[f->level];
  const ulong row0 = base + (ulong)(uint)j0 * v->row_pitch[f->level];
  const ulong row1 = base + (ulong)(uint)j1 * v->row_pitch[f->level];
  if (max(row0, row1) + (ulong)(uint)max(i0, i1) * 4u + 4u > (ulong)v->data_size) return false;
  const uint4 t00 = convert_uint4(vload4(0, data + row0 + (uint)i0 * 4u));
  const uint4 t10 = convert_uint4(vload4(0, data + row0 + (uint)i1 * 4u));
  const uint4 t01 = convert_uint4(vload4(0, data + row1 + (uint)i0 * 4u));
  const uint4 t11 = convert_uint4(vload4(0, data + row1 + (uint)i1 * 4u));
  float4 acc = (float4)(0.0f);
  acc += (1.0f - a) * (1.0f - b) * 1.0f * clp_unorm8x4_to_float4(t00);
  acc += a * (1.0f - b) * 1.0f * clp_unorm8x4_to_float4(t10);
  acc += (1.0f - a) * b * 1.0f * clp_unorm8x4_to_float4(t01);
  acc += a * b * 1.0f * clp_unorm8x4_to_float4(t11);
  *out = fmt == CLP_FMT_B8G8R8A8_UNORM ? acc.zyxw : acc;
  return true;
}

// Filters level f->level at texel coordinates (x, y, z) (already offset). Shadow: the
// filtered compare results in .x, (r, r, r, 1).
static float4 clp_filter_level(global const ClpTexView* v, global const uchar* data,
                               global const ClpSamplerState* smp, const ClpFilterArgs* f, float x,
                               float y, float z) {
  const int w = (int)clp_level_size(v->width, f->level);
  const int h = f->dims >= 2 ? (int)clp_level_size(v->height, f->level) : 1;
  const int d = f->dims >= 3 ? (int)clp_level_size(v->depth, f->level) : 1;
  float4 acc;
  if (f->cube_face >= 0) {
    // Seamless cube faces ignore the wrap modes (GL 4.6 8.13.1).
    if (!f->linear) {
      acc = clp_filter_texel(v, data, smp, f, clamp(clp_floor_int(x), 0, w - 1),
                             clamp(clp_floor_int(y), 0, w - 1), f->layer);
    } else {
      float a, b;
      const int i0 = clp_linear_unwrapped(clamp(x, -0.5f, (float)w + 0.5f), &a);
      const int j0 = clp_linear_unwrapped(clamp(y, -0.5f, (float)w + 0.5f), &b);
      acc = (1.0f - a) * (1.0f - b) * clp_cube_filter_texel(v, data, smp, f, i0, j0, w) +
            a * (1.0f - b) * clp_cube_filter_texel(v, data, smp, f, i0 + 1, j0, w) +
            (1.0f - a) * b * clp_cube_filter_texel(v, data, smp, f, i0, j0 + 1, w) +
            a * b * clp_cube_filter_texel(v, data, smp, f, i0 + 1, j0 + 1, w);
    }
  } else if (!f->linear) {
    const int i = clp_wrap_nearest(smp->wrap[0], x, w);
    const int j = f->dims >= 2 ? clp_wrap_nearest(smp->wrap[1], y, h) : 0;
    const int k = f->dims >= 3 ? clp_wrap_nearest(smp->wrap[2], z, d) : f->layer;
    acc = clp_filter_texel(v, data, smp, f, i, j, k);
  } else if (f->dims == 2 && !f->shadow && clp_filter_rgba8_2d(v, data, smp, f, x, y, w, h, &acc)) {
    return acc;
  } else {
    int i0, i1, j0 = 0, j1 = 0, k0 = f->layer, k1 = f->layer;
    float a, b = 0.0f, c = 0.0f;
    clp_wrap_linear(smp->wrap[0], x, w, &i0, &i1, &a);
    if (f->dims >= 2) clp_wrap_linear(smp->wrap[1], y, h, &j0, &j1, &b);
    if (f->dims >= 3) clp_wrap_linear(smp->wrap[2], z, d, &k0, &k1, &c);
    acc = (float4)(0.0f);
    const int nk = f->dims >= 3 ? 2 : 1, nj = f->dims >= 2 ? 2 : 1;
    for (int kk = 0; kk < nk; ++kk) {
      for (int jj = 0; jj < nj; ++jj) {
        for (int ii = 0; ii < 2; ++ii) {
          const float wt = (ii ? a : 1.0f - a) * (nj == 2 ? (jj ? b : 1.0f - b) : 1.0f) *
                           (nk == 2 ? (kk ? c : 1.0f - c) : 1.0f);
          acc += wt * clp_filter_texel(v, data, smp, f, ii ? i1 : i0, jj ? j1 : j0, kk ? k1 : k0);
        }
      }
    }
  }
  if (f->shadow) acc = (float4)(acc.x, acc.x, acc.x, 1.0f);
  return acc;
}

#endif  // CLPIPE_SAMPLING_FILTER_H
