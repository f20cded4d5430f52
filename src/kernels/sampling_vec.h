// The lane-parallel path of clp_tex_sample (sampling.h): every lane of a call sampled at
// once in lane vectors, for the commonest sampling there is. It computes what the
// per-lane path (sampling_filter.h) computes, operation for operation in the same order,
// so the two give the same results; it only declines (returns false, having written
// nothing) where the per-lane path must run:
//   target       2D, 2D array, RECT, 3D, cube and cube array, and the shadow forms
//                (no 1D targets)
//   format       every present channel 8-bit UNORM or sRGB on a byte boundary or 16-bit
//                float on a 16-bit one, blocks of 1, 2, 4 or 8 bytes (R8, RG8, RGBA8,
//                BGRA8, RGBX8, L8, A8, their sRGB forms, R16F, RG16F, RGBA16F); Z16,
//                Z24S8, S8Z24, Z24X8, X8Z24 or Z32F, with a depth compare or without;
//                the stencil-only views (S8, X24S8, S8X24, X32_S8X24) without a linear
//                filter (they sample as the integer bits (S, 0, 0, 1))
//   wrap         REPEAT, MIRROR_REPEAT, CLAMP_TO_EDGE, MIRROR_CLAMP_TO_EDGE, CLAMP and
//                CLAMP_TO_BORDER (not the mirror-clamp border modes). Texels outside the
//                level take the border colour, read at index 0 (inside the level) and
//                replaced. Seamless cube maps: every lane's footprint inside its face (no
//                texel from a neighbouring face)
//   filter       the lanes that take part agree on nearest or linear (always when the min
//                and mag filters are equal)
//   bounds       every level the lanes use lies inside the bound data, so no texel read
//                needs the robust-access check
// Levels may differ per lane (each lane its own level of detail); sizes, offsets and
// pitches are then gathered per lane. Lanes outside the mask compute with zeroed inputs
// (which address the texel (0, 0) of a checked level) and return zero. Defining
// CLP_TEX_PER_LANE before the library turns the path off (tests compare the two).
#ifndef CLPIPE_SAMPLING_VEC_H
#define CLPIPE_SAMPLING_VEC_H

#if CLP_LANES > 1

// On the larger helpers below: PoCL's inliner otherwise calls them, passing lane vectors
// and texel arrays through memory (measured: ~10% of bench_texture's trilinear time).
#define CLP_VTEX_INLINE static __attribute__((always_inline))

// Bytes per texel of a format the vector path decodes, or 0.
CLP_VTEX_INLINE uint clp_vtex_format_bytes(uint fmt) {
  if (!clp_format_is_valid(fmt)) return 0u;
  constant const ClpFormatDesc* d = &clp_format_table[fmt];  // as clp_vtex_rgba8_layout
  if (d->colorspace == CLP_CS_ZS || d->special != CLP_SPECIAL_NONE) return 0u;
  if (d->block_bytes != 1u && d->block_bytes != 2u && d->block_bytes != 4u && d->block_bytes != 8u)
    return 0u;
#pragma unroll
  for (uint c = 0; c < 4u; ++c) {
    if (d->type[c] == CLP_TYPE_VOID) continue;
    const bool unorm8 =
        d->type[c] == CLP_TYPE_UNORM && d->bits[c] == 8u && (d->shift[c] & 7u) == 0u;
    const bool half16 =
        d->type[c] == CLP_TYPE_FLOAT && d->bits[c] == 16u && (d->shift[c] & 15u) == 0u;
    if (!unorm8 && !half16) return 0u;
  }
  return d->block_bytes;
}

// Bytes per texel of a depth format the vector path compares against, or 0.
static uint clp_vtex_depth_bytes(uint fmt) {
  switch (fmt) {
    case CLP_FMT_Z16_UNORM:
      return 2u;
    case CLP_FMT_Z24_UNORM_S8_UINT:
    case CLP_FMT_S8_UINT_Z24_UNORM:
    case CLP_FMT_Z24X8_UNORM:
    case CLP_FMT_X8Z24_UNORM:
    case CLP_FMT_Z32_FLOAT:
      return 4u;
    default:
      return 0u;
  }
}

// Bytes per texel of a stencil-only view the vector path reads, or 0.
static uint clp_vtex_stencil_bytes(uint fmt) {
  switch (fmt) {
    case CLP_FMT_S8_UINT:
      return 1u;
    case CLP_FMT_X24S8_UINT:
    case CLP_FMT_S8X24_UINT:
      return 4u;
    case CLP_FMT_X32_S8X24_UINT:
      return 8u;
    default:
      return 0u;
  }
}

// The least and the greatest lane of x.
#if CLP_LANES == 16
#define CLP_VREDUCE_(op, x) \
  int8 a8 = op(x.lo, x.hi); \
  int4 a4 = op(a8.lo, a8.hi)
#elif CLP_LANES == 8
#define CLP_VREDUCE_(op, x) int4 a4 = op(x.lo, x.hi)
#else
#define CLP_VREDUCE_(op, x) int4 a4 = x
#endif
static int clp_vreduce_min(vi x) {
  CLP_VREDUCE_(min, x);
  const int2 a2 = min(a4.lo, a4.hi);
  return min(a2.x, a2.y);
}
static int clp_vreduce_max(vi x) {
  CLP_VREDUCE_(max, x);
  const int2 a2 = max(a4.lo, a4.hi);
  return max(a2.x, a2.y);
}
#undef CLP_VREDUCE_

// Positive remainder (clp_wrap_repeat); sizes that are powers of two by a mask.
static vi clp_vwrap_repeat(vi i, vi size) {
  if (CLP_ALL((size & (size - 1)) == 0)) return i & (size - 1);
  const vi r = i % size;
  return select(r, r + size, r < 0);
}
static vi clp_vwrap_mirror(vi i, vi size) {
  const vi m = clp_vwrap_repeat(i, 2 * size);
  return select(m, 2 * size - 1 - m, m >= size);
}
static vi clp_vwrap_mirror_edge(vi i, vi size) {
  return clamp(select(-(1 + i), i, i >= 0), (vi)(0), size - 1);
}
// An index outside the level as -1 ("border").
static vi clp_vwrap_border(vi i, vi size) {
  return select(i, (vi)(-1), (i < 0) | (i >= size));
}
// The index of texel i after `wrap`; -1 for a border texel (CLAMP_TO_BORDER, and CLAMP
// when filtering linearly).
static vi clp_vwrap_index(uint wrap, vi i, vi size, bool linear) {
  switch (wrap) {
    case CLP_WRAP_REPEAT:
      return clp_vwrap_repeat(i, size);
    case CLP_WRAP_MIRROR_REPEAT:
      return clp_vwrap_mirror(i, size);
    case CLP_WRAP_MIRROR_CLAMP_TO_EDGE:
      return clp_vwrap_mirror_edge(i, size);
    case CLP_WRAP_CLAMP_TO_BORDER:
      return clp_vwrap_border(i, size);
    case CLP_WRAP_CLAMP:
      if (linear) return clp_vwrap_border(i, size);
      return clamp(i, (vi)(0), size - 1);
    default:  // CLAMP_TO_EDGE
      return clamp(i, (vi)(0), size - 1);
  }
}

// clp_wrap_nearest and clp_wrap_linear for the wrap modes the path takes.
static vi clp_vwrap_nearest(uint wrap, vf x, vi size) {
  return clp_vwrap_index(wrap, CLP_F2I_FLOOR(x), size, false);
}
CLP_VTEX_INLINE void clp_vwrap_linear(uint wrap, vf x, vi size, vi* i0, vi* i1, vf* a) {
  const vf fs = CLP_CONVERT_VF(size);
  if (wrap == CLP_WRAP_CLAMP) x = clamp(x, (vf)(0.0f), fs);
  if (wrap == CLP_WRAP_CLAMP_TO_EDGE || wrap == CLP_WRAP_CLAMP_TO_BORDER) {
    x = clamp(x, (vf)(-1.0f), fs + 1.0f);
  }
  if (wrap == CLP_WRAP_MIRROR_CLAMP_TO_EDGE) x = clamp(x, -fs - 0.5f, fs + 0.5f);
  x -= 0.5f;
  const vf f = CLP_FLOOR(x);
  *a = x - f;
  const vi j = CLP_F2I_FLOOR(f);
  *i0 = clp_vwrap_index(wrap, j, size, true);
  *i1 = clp_vwrap_index(wrap, j + 1, size, true);
}

// Whether the path takes a wrap mode: all but the mirror-clamp ones (EXT_texture_mirror_clamp)
// that reach the border or clamp a mirrored coordinate.
static bool clp_vwrap_supported(uint wrap) {
  return clp_wrap_stays_inside(wrap) || wrap == CLP_WRAP_CLAMP || wrap == CLP_WRAP_CLAMP_TO_BORDER;
}

// One level per lane: its size in texels, the byte offset of the lane's layer in it, its
// row and layer (3D: slice) pitches. Levels are absolute and already checked against the
// table's size.
typedef struct {
  vi w, h, d;
  vu base, row, slice;
} ClpVLevel;

CLP_VTEX_INLINE ClpVLevel clp_vtex_level(global const ClpTexView* v, vi level, vu layer) {
  ClpVLevel r;
  const int first = CLP_LANE(level, 0);
  if (CLP_ALL(level == first)) {
    const uint L = (uint)first;
    r.w = (vi)((int)clp_level_size(v->width, L));
    r.h = (vi)((int)clp_level_size(v->height, L));
    r.d = (vi)((int)clp_level_size(v->depth, L));
    r.base = v->level_offset[L] + layer * v->layer_pitch[L];
    r.row = (vu)(v->row_pitch[L]);
    r.slice = (vu)(v->layer_pitch[L]);
    return r;
  }
  CLP_UNPACK(int, level, ls);
  int w[CLP_LANES], h[CLP_LANES], d[CLP_LANES];
  uint off[CLP_LANES], lp[CLP_LANES], row[CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l) {
    const uint L = (uint)ls[l];
    w[l] = (int)clp_level_size(v->width, L);
    h[l] = (int)clp_level_size(v->height, L);
    d[l] = (int)clp_level_size(v->depth, L);
    off[l] = v->level_offset[L];
    lp[l] = v->layer_pitch[L];
    row[l] = v->row_pitch[L];
  }
  r.w = CLP_PACK(w);
  r.h = CLP_PACK(h);
  r.d = CLP_PACK(d);
  r.slice = CLP_PACK(lp);
  r.base = CLP_PACK(off) + layer * r.slice;
  r.row = CLP_PACK(row);
  return r;
}

// Whether levels first..last (absolute) hold every texel of layers up to `layer_max`
// (3D: of every slice) inside the bound data.
static bool clp_vtex_levels_inside(global const ClpTexView* v, int first, int last, uint layer_max,
                                   bool three_d, uint bytes) {
  if (first < 0 || last >= CLP_TEX_MAX_LEVELS) return false;
  for (int L = first; L <= last; ++L) {
    const ulong w = clp_level_size(v->width, (uint)L), h = clp_level_size(v->height, (uint)L);
    const uint top = three_d ? clp_level_size(v->depth, (uint)L) - 1u : layer_max;
    const ulong end = (ulong)v->level_offset[L] + (ulong)top * v->layer_pitch[L] +
                      (h - 1u) * v->row_pitch[L] + w * bytes;
    if (end > (ulong)v->data_size) return false;
  }
  return true;
}

CLP_DEFINE_HALF_TO_FLOAT(clp_vhalf_to_float_bits, vu, CLP_CONVERT_VF, CLP_AS_VU)
CLP_DEFINE_LOD_LOG2(clp_vlod_log2, vf, vi, CLP_AS_VI, CLP_AS_VF, CLP_CONVERT_VF, CLP_ANY)

// The raw texels at byte offsets `addr` (checked by the caller): bytes 0..3 in raw[0],
// 4..7 of 8-byte texels in raw[1].
CLP_VTEX_INLINE void clp_vtex_load(global const uchar* data, vu addr, uint bytes, vu* raw) {
  CLP_UNPACK(uint, addr, a);
  uint t[CLP_LANES];
  if (bytes == 8u) {
    uint t1[CLP_LANES];
#pragma unroll
    for (int l = 0; l < CLP_LANES; ++l) {
      const uint2 p = as_uint2(vload8(0, data + a[l]));
      t[l] = p.x;
      t1[l] = p.y;
    }
    raw[1] = CLP_PACK(t1);
  } else if (bytes == 4u) {
#pragma unroll
    for (int l = 0; l < CLP_LANES; ++l)
      t[l] = as_uint(vload4(0, data + a[l]));
  } else if (bytes == 2u) {
#pragma unroll
    for (int l = 0; l < CLP_LANES; ++l)
      t[l] = as_ushort(vload2(0, data + a[l]));
  } else {
#pragma unroll
    for (int l = 0; l < CLP_LANES; ++l)
      t[l] = data[a[l]];
  }
  raw[0] = CLP_PACK(t);
}

// Two neighbouring 4-byte texels at byte offsets `addr` and `addr` + 4.
CLP_VTEX_INLINE void clp_vtex_load_pair(global const uchar* data, vu addr, vu* first, vu* second) {
  CLP_UNPACK(uint, addr, a);
  uint t0[CLP_LANES], t1[CLP_LANES];
#pragma unroll
  for (int l = 0; l < CLP_LANES; ++l) {
    const uint2 p = as_uint2(vload8(0, data + a[l]));
    t0[l] = p.x;
    t1[l] = p.y;
  }
  *first = CLP_PACK(t0);
  *second = CLP_PACK(t1);
}

// A code below 2^24 as a float, exactly: converted as a signed integer, one instruction
// (the unsigned conversion takes several where the ISA has none).
static vf clp_vcode_to_float(vu code) {
  return CLP_CONVERT_VF(CLP_AS_VI(code));
}

// clp_srgb8_to_linear per lane.
static vf clp_vsrgb8_to_linear(vu code) {
  CLP_UNPACK(uint, code, k);
  float f[CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l)
    f[l] = clp_srgb8_to_linear_table[k[l]];
  return CLP_PACK(f);
}

// The RGBA of raw texels before the view swizzle: clp_decode_float of each lane's texel
// (clp_unorm_to_float, the sRGB table for sRGB colour channels, half floats exactly,
// the format's swizzle).
CLP_VTEX_INLINE void clp_vtex_decode(constant const ClpFormatDesc* d, const vu* raw, vf* rgba) {
  vf ch[4];
#pragma unroll
  for (uint c = 0; c < 4u; ++c) {
    const uint shift = d->shift[c];
    const vu word = (shift >= 32u ? raw[1] : raw[0]) >> (shift & 31u);
    const vu code = word & 0xffu;
    if (d->type[c] == CLP_TYPE_VOID) {
      ch[c] = (vf)(0.0f);
    } else if (d->type[c] == CLP_TYPE_FLOAT) {
      ch[c] = CLP_AS_VF(clp_vhalf_to_float_bits(word & 0xffffu));
    } else if (clp_fmt_channel_is_srgb(*d, c)) {
      ch[c] = clp_vsrgb8_to_linear(code);
    } else {
      ch[c] = clp_vdiv_mersenne(clp_vcode_to_float(code), 8u);
    }
  }
#pragma unroll
  for (uint k = 0; k < 4u; ++k) {
    const uint s = d->swizzle[k];
    rgba[k] = s < 4u ? ch[s] : (vf)(s == CLP_SWZ_ONE ? 1.0f : 0.0f);
  }
}

// The layout of a format whose four components (after its swizzle) are 8-bit UNORM
// channels of one 4-byte word (RGBA8, BGRA8 and their sRGB forms), packed in one word:
// bits 2c and 2c + 1 the byte of component c, bit 8 + c set where component c goes
// through the sRGB table, bit 12 set for such a format; 0 for any other. It reads the
// constant table itself (not a private copy of its entry), so that for a constant format
// the whole word folds to a constant and the decode below to fixed shifts.
CLP_VTEX_INLINE uint clp_vtex_rgba8_layout(uint fmt) {
  if (!clp_format_is_valid(fmt)) return 0u;
  constant const ClpFormatDesc* d = &clp_format_table[fmt];
  if (d->block_bytes != 4u) return 0u;
  uint layout = 1u << 12;
#pragma unroll
  for (uint k = 0; k < 4u; ++k) {
    const uint c = d->swizzle[k];
    if (c >= 4u || d->type[c] != CLP_TYPE_UNORM || d->bits[c] != 8u || (d->shift[c] & 7u) != 0u)
      return 0u;
    layout |= (d->shift[c] / 8u) << (2u * k);
    if (clp_fmt_channel_is_srgb(*d, c)) layout |= 1u << (8u + k);
  }
  return layout;
}

// What every lane of a call shares: how texels are read, wrapped, filtered, compared.
typedef struct {
  constant const ClpFormatDesc* d;  // the format's table entry (read there, see above)
  uint fmt, bytes;                  // view format, bytes per texel
  uint rgba8;  // clp_vtex_rgba8_layout of the format (0 unless RGBA8, BGRA8 or sRGB)
  uint wrap_s, wrap_t, wrap_r;  // seamless cube faces: CLAMP_TO_EDGE (footprints checked)
  bool three_d;
  bool linear, normalized, seamless;
  bool depth;    // a depth format (clp_vtex_depth_bytes)
  bool stencil;  // a stencil-only view (clp_vtex_stencil_bytes)
  bool shadow;   // compare with the reference: results (r, r, r, 1)
  uint compare_func;
  bool border;         // a wrap mode may give border texels
  float4 border_rgba;  // clp_border_texel of the format, where `border`
} ClpVTexCall;

// clp_tex_compare per lane.
static vi clp_vtex_compare(uint func, vf ref, vf texel) {
  CLP_COMPARE_BODY(func & 7u, ref, texel, (vi)(0), (vi)(-1));
}

// The depth of raw depth texels (clp_decode_float's first component).
static vf clp_vtex_depth(uint fmt, const vu* raw) {
  switch (fmt) {
    case CLP_FMT_Z16_UNORM:
      return clp_vdiv_mersenne(clp_vcode_to_float(raw[0] & 0xffffu), 16u);
    case CLP_FMT_Z32_FLOAT:
      return CLP_AS_VF(raw[0]);
    case CLP_FMT_S8_UINT_Z24_UNORM:
    case CLP_FMT_X8Z24_UNORM:
      return clp_vdiv_mersenne(clp_vcode_to_float(raw[0] >> 8), 24u);
    default:  // Z24S8, Z24X8
      return clp_vdiv_mersenne(clp_vcode_to_float(raw[0] & 0xffffffu), 24u);
  }
}

// Texels `raw` as clp_filter_texel returns them: decoded, or their shadow compare with
// `ref` (already clamped for fixed-point depth) in every component. Lanes of `outside`
// (where k->border) take the border colour instead of their texel.
CLP_VTEX_INLINE void clp_vtex_texel(const ClpVTexCall* k, const vu* raw, vf ref, vi outside,
                                    vf* out) {
  if (k->shadow) {
    vf depth = clp_vtex_depth(k->fmt, raw);
    if (k->border) depth = select(depth, (vf)(k->border_rgba.x), outside);
    const vf value = select((vf)(0.0f), (vf)(1.0f), clp_vtex_compare(k->compare_func, ref, depth));
#pragma unroll
    for (int c = 0; c < 4; ++c)
      out[c] = value;
    return;
  }
  if (k->rgba8) {
    // clp_vtex_decode's operations for these formats, without its loops over channels.
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      const vu code = (raw[0] >> (8u * ((k->rgba8 >> (2 * c)) & 3u))) & 0xffu;
      out[c] = ((k->rgba8 >> (8 + c)) & 1u) ? clp_vsrgb8_to_linear(code)
                                            : clp_vdiv_mersenne(clp_vcode_to_float(code), 8u);
    }
  } else if (k->stencil) {
    // clp_texel_decode's (S, 0, 0, 1) as integer bits.
    const vu s = k->fmt == CLP_FMT_X24S8_UINT       ? raw[0] >> 24
                 : k->fmt == CLP_FMT_X32_S8X24_UINT ? raw[1] & 0xffu
                                                    : raw[0] & 0xffu;
    out[0] = CLP_AS_VF(s);
    out[1] = out[2] = (vf)(0.0f);
    out[3] = CLP_AS_VF((vu)(1u));
  } else if (k->depth) {
    // (depth, stencil, 0, 0) with stencil, (depth, 0, 0, 0) without (clp_decode_float).
    out[0] = clp_vtex_depth(k->fmt, raw);
    out[1] = k->fmt == CLP_FMT_Z24_UNORM_S8_UINT   ? clp_vcode_to_float(raw[0] >> 24)
             : k->fmt == CLP_FMT_S8_UINT_Z24_UNORM ? clp_vcode_to_float(raw[0] & 0xffu)
                                                   : (vf)(0.0f);
    out[2] = out[3] = (vf)(0.0f);
  } else {
    clp_vtex_decode(k->d, raw, out);
  }
  if (k->border) {
    const float b[4] = {k->border_rgba.x, k->border_rgba.y, k->border_rgba.z, k->border_rgba.w};
#pragma unroll
    for (int c = 0; c < 4; ++c)
      out[c] = select(out[c], (vf)(b[c]), outside);
  }
}

// An index with border texels (-1) read at 0, which lies inside the level.
static vi clp_vtex_read_index(vi i) {
  return max(i, (vi)(0));
}

// The four texels of a bilinear footprint in the slice or layer at byte offset `base`:
// (i0, j0) (i1, j0) (i0, j1) (i1, j1), read and as clp_filter_texel returns them. Indices
// of -1 are border texels, as are all four in the lanes of `slice_out`.
CLP_VTEX_INLINE void clp_vtex_footprint(global const uchar* data, const ClpVTexCall* k, vu base,
                                        vu row, vi i0, vi i1, vi j0, vi j1, vi slice_out, vf ref,
                                        vf t[4][4]) {
  const vi out_i[2] = {i0 < 0, i1 < 0}, out_j[2] = {j0 < 0, j1 < 0};
  i0 = clp_vtex_read_index(i0);
  i1 = clp_vtex_read_index(i1);
  j0 = clp_vtex_read_index(j0);
  j1 = clp_vtex_read_index(j1);
  const vu row0 = base + CLP_AS_VU(j0) * row, row1 = base + CLP_AS_VU(j1) * row;
  const vu c0 = CLP_AS_VU(i0) * k->bytes, c1 = CLP_AS_VU(i1) * k->bytes;
  vu r[4][2];
  if (k->bytes == 4u && CLP_ALL(i1 == i0 + 1)) {
    // No lane wraps between its two columns: each row's pair is one 8-byte read.
    clp_vtex_load_pair(data, row0 + c0, r[0], r[1]);
    clp_vtex_load_pair(data, row1 + c0, r[2], r[3]);
  } else {
    clp_vtex_load(data, row0 + c0, k->bytes, r[0]);
    clp_vtex_load(data, row0 + c1, k->bytes, r[1]);
    clp_vtex_load(data, row1 + c0, k->bytes, r[2]);
    clp_vtex_load(data, row1 + c1, k->bytes, r[3]);
  }
#pragma unroll
  for (int n = 0; n < 4; ++n)
    clp_vtex_texel(k, r[n], ref, out_i[n & 1] | out_j[n >> 1] | slice_out, t[n]);
}

// Filters one level per lane (clp_filter_level): nearest, or bi/trilinear with the
// weights and sums of the per-lane path in its order. False, having written nothing,
// where a lane of a seamless cube face needs a texel of another face.
CLP_VTEX_INLINE bool clp_vtex_filter(global const ClpTexView* v, global const uchar* data,
                                     const ClpVTexCall* k, vi mask, vf u, vf t, vf q, const vi* off,
                                     vi level, vu layer, vf ref, vf* out) {
  const ClpVLevel lv = clp_vtex_level(v, level, layer);
  // Seamless cube faces are square and clamp both axes with the width.
  const vi h = k->seamless ? lv.w : lv.h;
  vf x = u, y = t, z = q;
  if (k->normalized) {
    x *= CLP_CONVERT_VF(lv.w);
    y *= CLP_CONVERT_VF(lv.h);
    z *= CLP_CONVERT_VF(lv.d);
  }
  x += CLP_CONVERT_VF(off[0]);
  y += CLP_CONVERT_VF(off[1]);
  z += CLP_CONVERT_VF(off[2]);
  vf r[4];
  if (!k->linear) {
    const vi i = clp_vwrap_nearest(k->wrap_s, x, lv.w);
    const vi j = clp_vwrap_nearest(k->wrap_t, y, h);
    const vi sl = k->three_d ? clp_vwrap_nearest(k->wrap_r, z, lv.d) : (vi)(0);
    const vu base = lv.base + CLP_AS_VU(clp_vtex_read_index(sl)) * lv.slice;
    const vu addr = base + CLP_AS_VU(clp_vtex_read_index(j)) * lv.row +
                    CLP_AS_VU(clp_vtex_read_index(i)) * k->bytes;
    vu raw[2];
    clp_vtex_load(data, addr, k->bytes, raw);
    clp_vtex_texel(k, raw, ref, (i < 0) | (j < 0) | (sl < 0), r);
  } else {
    if (k->seamless) {
      // The footprint i0, i0 + 1 (j0, j0 + 1) of clp_linear_unwrapped inside the face.
      const vf fw = CLP_CONVERT_VF(lv.w);
      const vi i0 = CLP_F2I_FLOOR(CLP_FLOOR(clamp(x, (vf)(-0.5f), fw + 0.5f) - 0.5f));
      const vi j0 = CLP_F2I_FLOOR(CLP_FLOOR(clamp(y, (vf)(-0.5f), fw + 0.5f) - 0.5f));
      if (CLP_ANY(mask & ((i0 < 0) | (i0 + 1 >= lv.w) | (j0 < 0) | (j0 + 1 >= lv.w)))) return false;
    }
    vi i0, i1, j0, j1, k0 = (vi)(0), k1 = (vi)(0);
    vf a, b, c = (vf)(0.0f);
    clp_vwrap_linear(k->wrap_s, x, lv.w, &i0, &i1, &a);
    clp_vwrap_linear(k->wrap_t, y, h, &j0, &j1, &b);
    if (k->three_d) clp_vwrap_linear(k->wrap_r, z, lv.d, &k0, &k1, &c);
    vf t0[4][4];
    clp_vtex_footprint(data, k, lv.base + CLP_AS_VU(clp_vtex_read_index(k0)) * lv.slice, lv.row, i0,
                       i1, j0, j1, k0 < 0, ref, t0);
    if (k->seamless) {
      // clp_filter_level's seamless cube form: one sum, as written there.
#pragma unroll
      for (int n = 0; n < 4; ++n) {
        r[n] = (1.0f - a) * (1.0f - b) * t0[0][n] + a * (1.0f - b) * t0[1][n] +
               (1.0f - a) * b * t0[2][n] + a * b * t0[3][n];
      }
    } else {
      // clp_filter_level's general form: weights (s * t) * r, slice by slice.
      const vf wc0 = k->three_d ? 1.0f - c : (vf)(1.0f);
      const vf w[4] = {(1.0f - a) * (1.0f - b), a * (1.0f - b), (1.0f - a) * b, a * b};
#pragma unroll
      for (int n = 0; n < 4; ++n) {
        vf acc = (vf)(0.0f);
#pragma unroll
        for (int m = 0; m < 4; ++m)
          acc += w[m] * wc0 * t0[m][n];
        r[n] = acc;
      }
      if (k->three_d) {
        vf t1[4][4];
        clp_vtex_footprint(data, k, lv.base + CLP_AS_VU(clp_vtex_read_index(k1)) * lv.slice, lv.row,
                           i0, i1, j0, j1, k1 < 0, ref, t1);
#pragma unroll
        for (int n = 0; n < 4; ++n) {
#pragma unroll
          for (int m = 0; m < 4; ++m)
            r[n] += w[m] * c * t1[m][n];
        }
      }
    }
  }
  out[0] = r[0];
  out[1] = k->shadow ? r[0] : r[1];
  out[2] = k->shadow ? r[0] : r[2];
  out[3] = k->shadow ? (vf)(1.0f) : r[3];
  return true;
}

static vf clp_vtex_swizzle(uint s, const vf* t) {
  switch (s) {
    case 0u:
      return t[0];
    case 1u:
      return t[1];
    case 2u:
      return t[2];
    case 3u:
      return t[3];
    case 5u:
      return (vf)(1.0f);
    default:
      return (vf)(0.0f);
  }
}

// clp_cube_face and clp_cube_st per lane.
static vi clp_vcube_face(vf x, vf y, vf z) {
  const vf ax = fabs(x), ay = fabs(y), az = fabs(z);
  const vi fx = select((vi)(1), (vi)(0), x >= 0.0f), fy = select((vi)(3), (vi)(2), y >= 0.0f);
  const vi fz = select((vi)(5), (vi)(4), z >= 0.0f);
  return select(select(fz, fy, ay >= az), fx, (ax >= ay) & (ax >= az));
}
static void clp_vcube_st(vi face, vf x, vf y, vf z, vf* u, vf* v) {
  // (sc, tc, ma) per face: (-z -y x) (z -y -x) (x z y) (x -z -y) (x -y z) (-x -y -z).
  vf sc = select(-x, x, face >= 2 & face <= 4);
  sc = select(sc, -z, face == 0);
  sc = select(sc, z, face == 1);
  const vf tc = select(-y, select(-z, z, face == 2), face == 2 | face == 3);
  vf ma = select(-z, z, face == 4);
  ma = select(ma, select(-y, y, face == 2), face == 2 | face == 3);
  ma = select(ma, select(-x, x, face == 0), face <= 1);
  const vf inv = 1.0f / fabs(ma);
  *u = 0.5f * (sc * inv + 1.0f);
  *v = 0.5f * (tc * inv + 1.0f);
}

// clp_tex_sample for every lane at once, or false where the per-lane path must run. The
// format, swizzle, wraps, filters and compare come from `key` (the state of v and smp).
CLP_VTEX_INLINE bool clp_tex_sample_vec(global const ClpTexView* v, global const uchar* data,
                                        global const ClpSamplerState* smp, const ClpTexKey* key,
                                        int target, int lod_mode, const ClpTexCoords* c, vf* out) {
  const bool rect = clp_target_is_rect(target), cube = clp_target_is_cube(target);
  const bool array = clp_target_is_array(target);
  if (clp_target_dims(target) == 1 || target == CLP_TGSI_TEX_2D_MSAA ||
      target == CLP_TGSI_TEX_2D_ARRAY_MSAA) {
    return false;
  }
  ClpVTexCall k;
  k.three_d = target == CLP_TGSI_TEX_3D;
  k.fmt = key->format;
  k.d = &clp_format_table[clp_format_index(k.fmt)];
  k.shadow = clp_target_is_shadow(target) && key->compare_mode != 0u;
  k.compare_func = key->compare_func;
  const uint depth_bytes = clp_vtex_depth_bytes(k.fmt);
  const uint stencil_bytes = clp_vtex_stencil_bytes(k.fmt);
  k.depth = depth_bytes != 0u;
  k.stencil = stencil_bytes != 0u;
  k.bytes = k.depth     ? depth_bytes
            : k.shadow  ? 0u
            : k.stencil ? stencil_bytes
                        : clp_vtex_format_bytes(k.fmt);
  if (k.bytes == 0u) return false;
  k.rgba8 = k.depth || k.stencil ? 0u : clp_vtex_rgba8_layout(k.fmt);
  k.seamless = cube && key->seamless_cube_map;
  k.wrap_s = k.seamless ? CLP_WRAP_CLAMP_TO_EDGE : key->wrap[0];
  k.wrap_t = k.seamless ? CLP_WRAP_CLAMP_TO_EDGE : key->wrap[1];
  k.wrap_r = key->wrap[2];
  if (!clp_vwrap_supported(k.wrap_s) || !clp_vwrap_supported(k.wrap_t)) return false;
  if (k.three_d && !clp_vwrap_supported(k.wrap_r)) return false;
  k.border = !clp_wrap_stays_inside(k.wrap_s) || !clp_wrap_stays_inside(k.wrap_t) ||
             (k.three_d && !clp_wrap_stays_inside(k.wrap_r));
  k.border_rgba = k.border ? clp_border_texel(smp, k.fmt) : (float4)(0.0f);
  const vi mask = c->mask;
  // Lanes outside the mask: zero inputs, so their texel indices and levels stay valid.
  const vf s = select((vf)(0.0f), c->s, mask), t = select((vf)(0.0f), c->t, mask);
  const vf q = k.three_d ? select((vf)(0.0f), c->r, mask) : (vf)(0.0f);
  vf dx[3], dy[3];  // gradients of the face (or texture) coordinates
#pragma unroll
  for (int a = 0; a < 3; ++a) {
    dx[a] = select((vf)(0.0f), c->ddx[a], mask);
    dy[a] = select((vf)(0.0f), c->ddy[a], mask);
  }
  vf u = s, w = t;
  // The layer (clp_tex_point): array layer, cube face.
  const uint layers = clp_view_layers(v);
  // 3D textures address slices from the level's start (clp_fetch_texel).
  vu layer = (vu)(k.three_d ? 0u : v->first_layer);
  uint layer_max = v->first_layer;
  if (cube) {
    const vf r = select((vf)(0.0f), c->r, mask);
    const vf drx = dx[2], dry = dy[2];
    const vi face = clp_vcube_face(s, t, r);
    clp_vcube_st(face, s, t, r, &u, &w);
    // Gradients of the face coordinates: the face is kept for the neighbouring lanes.
    vf nu, nw;
    clp_vcube_st(face, s + dx[0], t + dx[1], r + drx, &nu, &nw);
    dx[0] = nu - u;
    dx[1] = nw - w;
    clp_vcube_st(face, s + dy[0], t + dy[1], r + dry, &nu, &nw);
    dy[0] = nu - u;
    dy[1] = nw - w;
    layer += CLP_AS_VU(face);
    layer_max += 5u;
    if (array) {
      const int top_cube = max((int)(layers / 6u) - 1, 0);
      const vf lf = select((vf)(0.0f), c->layer, mask);
      layer += 6u * CLP_AS_VU(clamp(CLP_F2I_FLOOR(lf + 0.5f), 0, top_cube));
      layer_max += 6u * (uint)top_cube;
    }
  } else if (array) {
    const int top_layer = max((int)layers - 1, 0);
    const vf lf = select((vf)(0.0f), c->layer, mask);
    layer += CLP_AS_VU(clamp(CLP_F2I_FLOOR(lf + 0.5f), 0, top_layer));
    layer_max += (uint)top_layer;
  }
  k.normalized = !rect && !key->unnormalized_coords;
  const uint base = v->first_level;
  // The level of detail (clp_tex_point, clp_tex_lambda).
  vf lambda;
  if (lod_mode == CLP_LOD_EXPLICIT) {
    lambda = select((vf)(0.0f), c->lod, mask);
  } else {
    const float sx = k.normalized ? (float)clp_level_size(v->width, base) : 1.0f;
    const float sy = k.normalized ? (float)clp_level_size(v->height, base) : 1.0f;
    const float sz = k.normalized ? (float)clp_level_size(v->depth, base) : 1.0f;
    vf qx = dx[0] * sx * dx[0] * sx;
    qx += dx[1] * sy * dx[1] * sy;
    vf qy = dy[0] * sx * dy[0] * sx;
    qy += dy[1] * sy * dy[1] * sy;
    if (k.three_d) {
      qx += dx[2] * sz * dx[2] * sz;
      qy += dy[2] * sz * dy[2] * sz;
    }
    const vf rho2 = fmax(fmax((vf)(0.0f), qx), qy);
    lambda = 0.5f * clp_vlod_log2(rho2);
    if (lod_mode == CLP_LOD_BIAS) lambda += select((vf)(0.0f), c->lod, mask);
  }
  lambda += smp->lod_bias;
  lambda = fmin(fmax(lambda, smp->min_lod), smp->max_lod);
  // Magnification per lane; the filter must be one for all lanes that take part.
  const vi mag = ~(lambda > 0.0f);
  const bool lin_mag = key->mag_img_filter == CLP_FILTER_LINEAR;
  const bool lin_min = key->min_img_filter == CLP_FILTER_LINEAR;
  // Integer bits are not filtered here (the per-lane path's weighted sums of them).
  if (k.stencil && (lin_mag || lin_min || key->min_mip_filter == CLP_MIP_LINEAR)) return false;
  k.linear = lin_min;
  if (lin_mag != lin_min) {
    if (!CLP_ANY(mask & ~mag)) {
      k.linear = lin_mag;
    } else if (CLP_ANY(mask & mag)) {
      return false;
    }
  }
  // Levels (relative to the first) and the weight of the second, per lane.
  const int top = v->last_level > base ? (int)(v->last_level - base) : 0;
  const uint mip = rect ? CLP_MIP_NONE : key->min_mip_filter;
  vi l0 = (vi)(0), l1 = (vi)(0);
  vf frac = (vf)(0.0f);
  if (mip == CLP_MIP_NEAREST) {
    const vi n = min(CLP_VN2(convert_int, _sat)(ceil(lambda + 0.5f)) - 1, top);
    l0 = select(n, (vi)(0), mag | (lambda <= 0.5f));
  } else if (mip == CLP_MIP_LINEAR) {
    const vf fl = CLP_FLOOR(lambda);
    l0 = select(min(CLP_VN2(convert_int, _sat)(fl), top), (vi)(0), mag);
    l1 = select(min(l0 + 1, top), (vi)(0), mag);
    frac = select(lambda - fl, (vf)(0.0f), mag | (l0 == top));
  }
  const bool blend = CLP_ANY(frac > 0.0f);
  const int lmin = clp_vreduce_min(l0), lmax = clp_vreduce_max(blend ? l1 : l0);
  if (!clp_vtex_levels_inside(v, (int)base + lmin, (int)base + lmax, layer_max, k.three_d,
                              k.bytes)) {
    return false;
  }
  // Texel offsets move the spatial axes; cube maps take none.
  vi off[3];
#pragma unroll
  for (int a = 0; a < 3; ++a)
    off[a] = cube || (a == 2 && !k.three_d) ? (vi)(0) : select((vi)(0), c->offset[a], mask);
  // clp_shadow_value: fixed-point depth compares a reference clamped to [0, 1].
  vf ref = select((vf)(0.0f), c->ref, mask);
  if (k.fmt != CLP_FMT_Z32_FLOAT) ref = clamp(ref, 0.0f, 1.0f);
  vf r[4];
  if (!clp_vtex_filter(v, data, &k, mask, u, w, q, off, (int)base + l0, layer, ref, r)) {
    return false;
  }
  if (blend) {
    vf r1[4];
    if (!clp_vtex_filter(v, data, &k, mask, u, w, q, off, (int)base + l1, layer, ref, r1)) {
      return false;
    }
#pragma unroll
    for (int a = 0; a < 4; ++a)
      r[a] = select(r[a], mix(r[a], r1[a], frac), frac > 0.0f);
  }
#pragma unroll
  for (int a = 0; a < 4; ++a)
    out[a] = select((vf)(0.0f), clp_vtex_swizzle(key->swizzle[a], r), mask);
  return true;
}

#endif  // CLP_LANES > 1

#endif  // CLPIPE_SAMPLING_VEC_H
