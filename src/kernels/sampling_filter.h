// The per-texel layer of the sampling library: wrap modes, texel fetch with border
// colours, shadow compare, view swizzles, and nearest / linear filtering of one level.
// Everything here works on one lane (scalars); sampling.h runs it per lane.
//
// Consumer: sampling.h. Inputs: ClpTexView / ClpSamplerState (sampling_abi.h) and the
// texel codec of format.h (through clp_texel_decode of shader_lib_image.h).
// Coordinates are texel-space floats (x = u * size for normalized coordinates); wrap
// functions return texel indices or -1 for "border".
#ifndef CLPIPE_SAMPLING_FILTER_H
#define CLPIPE_SAMPLING_FILTER_H

#include "shader_lib_image.h"

// pipe_compare_func: NEVER LESS EQUAL LEQUAL GREATER NOTEQUAL GEQUAL ALWAYS.
bool clp_tex_compare(uint func, float ref, float texel) {
  switch (func & 7u) {
    case 0u:
      return false;
    case 1u:
      return ref < texel;
    case 2u:
      return ref == texel;
    case 3u:
      return ref <= texel;
    case 4u:
      return ref > texel;
    case 5u:
      return ref != texel;
    case 6u:
      return ref >= texel;
    default:
      return true;
  }
}

int clp_floor_int(float x) {
  return convert_int_sat_rtn(x);
}

// Positive remainder.
int clp_wrap_repeat(int i, int size) {
  const int r = i % size;
  return r < 0 ? r + size : r;
}

// Mirrored repeat of an integer texel index: period 2 * size.
int clp_wrap_mirror(int i, int size) {
  const int m = clp_wrap_repeat(i, 2 * size);
  return m >= size ? 2 * size - 1 - m : m;
}

bool clp_wrap_is_mirror_clamp(uint wrap) {
  return wrap == CLP_WRAP_MIRROR_CLAMP || wrap == CLP_WRAP_MIRROR_CLAMP_TO_EDGE ||
         wrap == CLP_WRAP_MIRROR_CLAMP_TO_BORDER;
}

// Nearest texel of texel coordinate x along an axis of `size` texels.
int clp_wrap_nearest(uint wrap, float x, int size) {
  if (clp_wrap_is_mirror_clamp(wrap)) x = fabs(x);
  const int i = clp_floor_int(x);
  switch (wrap) {
    case CLP_WRAP_REPEAT:
      return clp_wrap_repeat(i, size);
    case CLP_WRAP_MIRROR_REPEAT:
      return clp_wrap_mirror(i, size);
    case CLP_WRAP_CLAMP_TO_BORDER:
    case CLP_WRAP_MIRROR_CLAMP_TO_BORDER:
      return (i < 0 || i >= size) ? -1 : i;
    default:
      return clamp(i, 0, size - 1);  // CLAMP, CLAMP_TO_EDGE, MIRROR_CLAMP(_TO_EDGE)
  }
}

// The two texels of linear filtering around x and the weight of the second one.
void clp_wrap_linear(uint wrap, float x, int size, int* i0, int* i1, float* a) {
  if (clp_wrap_is_mirror_clamp(wrap)) x = fabs(x);
  const float fs = (float)size;
  switch (wrap) {
    case CLP_WRAP_CLAMP_TO_EDGE:
    case CLP_WRAP_MIRROR_CLAMP_TO_EDGE:
      x = clamp(x, 0.5f, fs - 0.5f);
      break;
    case CLP_WRAP_CLAMP:
    case CLP_WRAP_MIRROR_CLAMP:
      x = clamp(x, 0.0f, fs);
      break;
    case CLP_WRAP_CLAMP_TO_BORDER:
    case CLP_WRAP_MIRROR_CLAMP_TO_BORDER:
      x = clamp(x, -0.5f, fs + 0.5f);
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
    case CLP_WRAP_MIRROR_CLAMP_TO_EDGE:
      *i0 = clamp(j, 0, size - 1);
      *i1 = clamp(j + 1, 0, size - 1);
      break;
    default:  // CLAMP and the border modes: outside texels are the border colour
      *i0 = (j < 0 || j >= size) ? -1 : j;
      *i1 = (j + 1 < 0 || j + 1 >= size) ? -1 : j + 1;
      break;
  }
}

// The border colour as texel bits (floats, or integers for integer formats).
float4 clp_border_texel(global const ClpSamplerState* smp, uint fmt) {
  const uint4 b = (uint4)(smp->border_color[0], smp->border_color[1], smp->border_color[2],
                          smp->border_color[3]);
  if (clp_format_is_pure_integer(fmt)) {
    // Float border on an integer texture: converted (truncated), so the value stays near.
    return smp->border_color_is_integer ? as_float4(b)
                                        : as_float4(convert_int4_sat_rtz(as_float4(b)));
  }
  return smp->border_color_is_integer ? convert_float4(as_int4(b)) : as_float4(b);
}

// Texel (i, j) of layer-or-slice `layer` of absolute level `level`; -1 indices: border.
float4 clp_fetch_texel(global const ClpTexView* v, global const uchar* data,
                       global const ClpSamplerState* smp, uint level, int i, int j, int layer) {
  if (i < 0 || j < 0 || layer < 0) return clp_border_texel(smp, v->format);
  return clp_texel_decode(v->format, data, clp_texel_offset(v, level, i, j, layer));
}

// Shadow compare of a texel: 1.0 or 0.0. Fixed-point depth compares a reference clamped
// to [0, 1].
float clp_shadow_value(global const ClpSamplerState* smp, uint fmt, float ref, float4 texel) {
  if (clp_format_base_type(fmt) != CLP_TYPE_FLOAT) ref = clamp(ref, 0.0f, 1.0f);
  return clp_tex_compare(smp->compare_func, ref, texel.x) ? 1.0f : 0.0f;
}

// View swizzle of a (filtered) texel: X Y Z W, 0, 1 (integer 1 for integer formats).
float4 clp_view_swizzle(global const ClpTexView* v, float4 t) {
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
  uint level;   // absolute level
  int dims;     // 1, 2 or 3 filtered axes
  int layer;    // absolute layer (arrays, cube faces); 3D uses the r axis instead
  bool linear;  // linear filter, else nearest
  bool shadow;  // compare with ref
  float ref;
} ClpFilterArgs;

// Filters level f->level at texel coordinates (x, y, z) (already offset). Shadow: the
// filtered compare results in .x, (r, r, r, 1).
float4 clp_filter_level(global const ClpTexView* v, global const uchar* data,
                        global const ClpSamplerState* smp, const ClpFilterArgs* f, float x, float y,
                        float z) {
  const int w = (int)clp_level_size(v->width, f->level);
  const int h = f->dims >= 2 ? (int)clp_level_size(v->height, f->level) : 1;
  const int d = f->dims >= 3 ? (int)clp_level_size(v->depth, f->level) : 1;
  float4 acc;
  if (!f->linear) {
    const int i = clp_wrap_nearest(smp->wrap[0], x, w);
    const int j = f->dims >= 2 ? clp_wrap_nearest(smp->wrap[1], y, h) : 0;
    const int k = f->dims >= 3 ? clp_wrap_nearest(smp->wrap[2], z, d) : f->layer;
    const float4 t = clp_fetch_texel(v, data, smp, f->level, i, j, k);
    acc = f->shadow ? (float4)(clp_shadow_value(smp, v->format, f->ref, t)) : t;
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
          const float4 t =
              clp_fetch_texel(v, data, smp, f->level, ii ? i1 : i0, jj ? j1 : j0, kk ? k1 : k0);
          acc += wt * (f->shadow ? (float4)(clp_shadow_value(smp, v->format, f->ref, t)) : t);
        }
      }
    }
  }
  if (f->shadow) acc = (float4)(acc.x, acc.x, acc.x, 1.0f);
  return acc;
}

#endif  // CLPIPE_SAMPLING_FILTER_H
