// Texel addressing of ClpTexView resources (sampling_abi.h) and shader image access
// (LOAD / STORE / atomics / RESQ on IMAGE registers, tgsi.md §12) for generated code.
//
// Consumers: generated bodies that use images, and sampling.h (texel addressing).
// Producer of the descriptors: the host (sampling_abi.h). Texels go through the format
// codec of format.h: pure-integer formats as raw channel bits (sign-extended for SINT),
// everything else as floats. Out-of-range coordinates read (0, 0, 0, 0) and write
// nothing; atomics only work on 4-byte texels (R32_UINT, R32_SINT, R32_FLOAT), others
// return 0 and change nothing.
#ifndef CLPIPE_SHADER_LIB_IMAGE_H
#define CLPIPE_SHADER_LIB_IMAGE_H

#include "format.h"
#include "sampling_abi.h"
#include "shader_lib.h"

// Size of absolute level `level` of a dimension whose level-0 size is size0.
static uint clp_level_size(uint size0, uint level) {
  return max(size0 >> min(level, 31u), 1u);
}

// Byte offset of texel (x, y) of layer-or-slice `layer` of absolute level `level`, or -1
// when x or y lies outside the level or the texel outside the data buffer. The caller
// checks `layer` against the view (array layers) or the level's depth (3D).
static long clp_texel_offset(global const ClpTexView* v, uint level, int x, int y, int layer) {
  const uint bb = clp_format_block_bytes(v->format);
  if (bb == 0u) return -1;
  ulong off;
  if (v->target == CLP_TEXTARGET_BUFFER) {
    if (x < 0 || y != 0 || (ulong)(uint)x * bb + bb > v->buffer_size) return -1;
    off = (ulong)v->buffer_offset + (ulong)(uint)x * bb;
  } else {
    if (level >= CLP_TEX_MAX_LEVELS || layer < 0) return -1;
    const uint w = clp_level_size(v->width, level);
    const uint h = (v->target == CLP_TEXTARGET_1D || v->target == CLP_TEXTARGET_1D_ARRAY)
                       ? 1u
                       : clp_level_size(v->height, level);
    if (x < 0 || y < 0 || (uint)x >= w || (uint)y >= h) return -1;
    off = (ulong)v->level_offset[level] + (ulong)(uint)layer * v->layer_pitch[level] +
          (ulong)(uint)y * v->row_pitch[level] + (ulong)(uint)x * bb;
  }
  if (off + bb > (ulong)v->data_size) return -1;
  return (long)off;
}

// Layers of the view (array targets), or 1.
static uint clp_view_layers(global const ClpTexView* v) {
  return v->last_layer >= v->first_layer ? v->last_layer - v->first_layer + 1u : 0u;
}

// Decoded texel at byte offset `off`, as the bits of the shader-visible value.
static float4 clp_texel_decode(uint fmt, global const uchar* data, long off) {
  if (off < 0) return (float4)(0.0f);
  const uint4 raw = clp_load_block(fmt, data + off);
  // Stencil-only views (S8_UINT, X24S8_UINT, S8X24_UINT, X32_S8X24_UINT) sample as the
  // unsigned integer (S, 0, 0, 1), like any UINT format with one channel.
  if (clp_format_has_stencil(fmt) && !clp_format_has_depth(fmt))
    return as_float4((uint4)(clp_decode_stencil(fmt, raw), 0u, 0u, 1u));
  if (clp_format_is_pure_uint(fmt)) return as_float4(clp_decode_uint(fmt, raw));
  if (clp_format_is_pure_sint(fmt)) return as_float4(clp_decode_sint(fmt, raw));
  return clp_decode_float(fmt, raw);
}

// ---------------------------------------------------------------------------------
// Shader images. `target` is the TGSI texture target (CLP_TGSI_TEX_*) naming the
// coordinate layout: x (1D, BUFFER), x y (2D, RECT), x y z (3D), x L (1D array),
// x y L (2D array, cube, cube array: L = face + 6 * cube), x y _ s / x y L s (MSAA).
// The image's level is the view's first_level.

static long clp_image_offset(global const ClpTexView* v, int target, int x, int y, int z, int s) {
  const uint level = v->first_level;
  int layer = 0;
  switch (target) {
    case CLP_TGSI_TEX_BUFFER:
    case CLP_TGSI_TEX_1D:
      y = 0;
      break;
    case CLP_TGSI_TEX_1D_ARRAY:
      layer = y;
      y = 0;
      break;
    case CLP_TGSI_TEX_3D:
      if (z < 0 || (uint)z >= clp_level_size(v->depth, level)) return -1;
      return clp_texel_offset(v, level, x, y, z);
    case CLP_TGSI_TEX_2D_ARRAY:
    case CLP_TGSI_TEX_CUBE:
    case CLP_TGSI_TEX_CUBE_ARRAY:
    case CLP_TGSI_TEX_2D_ARRAY_MSAA:
      layer = z;
      break;
    default:
      break;
  }
  // Single-sampled storage: only sample 0 exists.
  if ((target == CLP_TGSI_TEX_2D_MSAA || target == CLP_TGSI_TEX_2D_ARRAY_MSAA) && s != 0) return -1;
  if (layer < 0 || (uint)layer >= max(clp_view_layers(v), 1u)) return -1;
  return clp_texel_offset(v, level, x, y, (int)v->first_layer + layer);
}

// LOAD: out[c] = channel c of the texel per lane (0 for lanes outside `mask`).
static void clp_image_load(global const ClpTexView* v, global const uchar* data, int target,
                           uint fmt, vi x, vi y, vi z, vi s, vi mask, vf* out) {
  CLP_UNPACK(int, x, xs);
  CLP_UNPACK(int, y, ys);
  CLP_UNPACK(int, z, zs);
  CLP_UNPACK(int, s, ss);
  CLP_UNPACK(int, mask, mk);
  float r[4][CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l) {
    const long off = mk[l] ? clp_image_offset(v, target, xs[l], ys[l], zs[l], ss[l]) : -1;
    const float4 t = clp_texel_decode(fmt, data, off);
    r[0][l] = t.x;
    r[1][l] = t.y;
    r[2][l] = t.z;
    r[3][l] = t.w;
  }
  for (int c = 0; c < 4; ++c)
    out[c] = CLP_PACK(r[c]);
}

// STORE: the texel of each lane in `mask` becomes (val[0..3]) encoded in `fmt`.
static void clp_image_store(global const ClpTexView* v, global uchar* data, int target, uint fmt,
                            vi x, vi y, vi z, vi s, const vf* val, vi mask) {
  CLP_UNPACK(int, x, xs);
  CLP_UNPACK(int, y, ys);
  CLP_UNPACK(int, z, zs);
  CLP_UNPACK(int, s, ss);
  CLP_UNPACK(int, mask, mk);
  CLP_UNPACK(float, val[0], v0);
  CLP_UNPACK(float, val[1], v1);
  CLP_UNPACK(float, val[2], v2);
  CLP_UNPACK(float, val[3], v3);
  for (int l = 0; l < CLP_LANES; ++l) {
    if (!mk[l]) continue;
    const long off = clp_image_offset(v, target, xs[l], ys[l], zs[l], ss[l]);
    if (off < 0) continue;
    const float4 t = (float4)(v0[l], v1[l], v2[l], v3[l]);
    uint4 raw;
    if (clp_format_is_pure_uint(fmt)) {
      raw = clp_encode_uint(fmt, as_uint4(t));
    } else if (clp_format_is_pure_sint(fmt)) {
      raw = clp_encode_sint(fmt, as_int4(t));
    } else {
      raw = clp_encode_float(fmt, t);
    }
    clp_store_block(fmt, data + off, raw);
  }
}

// ATOM* on a texel (CLP_ATOM_* of shader_lib.h); returns the old value per lane.
static vf clp_image_atomic(global const ClpTexView* v, global uchar* data, int target, uint fmt,
                           vi x, vi y, vi z, vi s, int op, vu a, vu b, vi mask) {
  CLP_UNPACK(int, x, xs);
  CLP_UNPACK(int, y, ys);
  CLP_UNPACK(int, z, zs);
  CLP_UNPACK(int, s, ss);
  CLP_UNPACK(int, mask, mk);
  CLP_UNPACK(uint, a, av);
  CLP_UNPACK(uint, b, bv);
  uint r[CLP_LANES];
  const bool word = clp_format_block_bytes(fmt) == 4u;
  for (int l = 0; l < CLP_LANES; ++l) {
    r[l] = 0u;
    if (!mk[l] || !word) continue;
    const long off = clp_image_offset(v, target, xs[l], ys[l], zs[l], ss[l]);
    // Texels of 4-byte formats sit at multiples of 4 when the layout is 4-aligned.
    if (off < 0 || (off & 3) != 0) continue;
    r[l] = clp_atomic_one_g((volatile global uint*)(data + off), op, av[l], bv[l]);
  }
  return CLP_AS_VF(CLP_PACK(r));
}

// RESQ: (width, height, depth or layers, samples) of the image, integers. Cube arrays
// report cubes (layers / 6) in z.
static void clp_image_size(global const ClpTexView* v, int target, vf* out) {
  const uint level = v->first_level;
  uint w = clp_level_size(v->width, level), h = clp_level_size(v->height, level), d = 1u;
  switch (target) {
    case CLP_TGSI_TEX_BUFFER: {
      const uint bb = clp_format_block_bytes(v->format);
      w = bb ? v->buffer_size / bb : 0u;
      h = 1u;
      break;
    }
    case CLP_TGSI_TEX_1D:
      h = 1u;
      break;
    case CLP_TGSI_TEX_1D_ARRAY:
      h = clp_view_layers(v);
      break;
    case CLP_TGSI_TEX_3D:
      d = clp_level_size(v->depth, level);
      break;
    case CLP_TGSI_TEX_2D_ARRAY:
    case CLP_TGSI_TEX_2D_ARRAY_MSAA:
    case CLP_TGSI_TEX_CUBE:
      d = clp_view_layers(v);
      break;
    case CLP_TGSI_TEX_CUBE_ARRAY:
      d = clp_view_layers(v) / 6u;
      break;
    default:
      break;
  }
  out[0] = CLP_AS_VF((vu)(w));
  out[1] = CLP_AS_VF((vu)(h));
  out[2] = CLP_AS_VF((vu)(d));
  out[3] = CLP_AS_VF((vu)(max(v->samples, 1u)));
}

#endif  // CLPIPE_SHADER_LIB_IMAGE_H
