// The colour buffers' side of the tile pass: the fragment shader's colour outputs, a
// buffer pixel's working form (RGBA floats, or the integer bits), loading and combining
// one pixel (blending, logic op, colour mask), and the colour state of a work-item's
// blocks with their samples shared until they differ. Included by tile.cl after its
// CLP_KEYED_* accessors, lane geometry and sample count (CLP_NS).
#ifndef CLPIPE_TILE_RT_H
#define CLPIPE_TILE_RT_H

// The FS output register feeding colour buffer `i` (-1: none).
#ifdef CLP_INTERP_TEMPS
// An interpreted shader's program serves shaders of any colour outputs: the header of the
// code it runs names them. `clp_icode` is the tile pass's parameter of that code.
#define clp_fs_color_reg(i) clp_interp_color_reg(clp_icode, (i))
#else
static int clp_fs_color_reg(int i) {
  switch (i) {
    case 0:
      return CLP_FS_COLOR_REG_0;
    case 1:
      return CLP_FS_COLOR_REG_1;
    case 2:
      return CLP_FS_COLOR_REG_2;
    case 3:
      return CLP_FS_COLOR_REG_3;
    case 4:
      return CLP_FS_COLOR_REG_4;
    case 5:
      return CLP_FS_COLOR_REG_5;
    case 6:
      return CLP_FS_COLOR_REG_6;
    default:
      return CLP_FS_COLOR_REG_7;
  }
}
#endif

// Lane l of the shader output register `reg` as an RGBA vector (bits as written).
static float4 clp_out_rgba(const ClpShaderIo* io, int reg, int l) {
  return (float4)(CLP_LANE(io->out[reg][0], l), CLP_LANE(io->out[reg][1], l),
                  CLP_LANE(io->out[reg][2], l), CLP_LANE(io->out[reg][3], l));
}

// Colour value of a buffer pixel in the tile's working form: RGBA floats, or the integer
// bits for pure-integer formats.
static float4 clp_rt_decode(uint fmt, uint flags, uint4 raw) {
  if (flags & CLP_RT_UINT) return as_float4(clp_decode_uint(fmt, raw));
  if (flags & CLP_RT_SINT) return as_float4(clp_decode_sint(fmt, raw));
  return clp_decode_float(fmt, raw);
}

static uint4 clp_rt_encode(uint fmt, uint flags, float4 v) {
  if (flags & CLP_RT_UINT) return clp_encode_uint(fmt, as_uint4(v));
  if (flags & CLP_RT_SINT) return clp_encode_sint(fmt, as_int4(v));
  return clp_encode_float(fmt, v);
}

// Pixel (x, y) of colour buffer r (at cbuf) in the working form. The run's draws share
// their targets, so its first draw's parameters (rp0) say where the pixel is.
static float4 clp_rt_load(global const ClpRasterParams* rp0, uint r, global const uchar* cbuf,
                          int x, int y) {
  const uint fmt = CLP_KEYED_RT(rp0, r, format);
  global const uchar* p = cbuf + rp0->rt[r].offset + (size_t)y * rp0->rt[r].pitch +
                          (size_t)x * clp_format_block_bytes(fmt);
  return clp_rt_decode(fmt, CLP_KEYED_RT(rp0, r, flags), clp_load_block(fmt, p));
}

static float4 clp_select_mask(float4 old_v, float4 new_v, uint colormask) {
  return (float4)((colormask & 1) ? new_v.x : old_v.x, (colormask & 2) ? new_v.y : old_v.y,
                  (colormask & 4) ? new_v.z : old_v.z, (colormask & 8) ? new_v.w : old_v.w);
}

// Combines fragment colour `src` (second source `src1`) with pixel value `dst` of colour
// buffer `r`, and returns the new pixel value, at the format's precision when `round`.
static float4 clp_combine(global const ClpRasterParams* rp, uint r, float4 src, float4 src1,
                          float4 dst, bool round) {
  const uint fmt = CLP_KEYED_RT(rp, r, format), flags = CLP_KEYED_RT(rp, r, flags);
  float4 result;
  if (flags & (CLP_RT_UINT | CLP_RT_SINT)) {
    result = src;  // integer colour buffers never blend
  } else {
    if (CLP_KEYED_FLAGS(rp) & CLP_RAST_CLAMP_FRAGMENT_COLOR) {
      src = clamp(src, 0.0f, 1.0f);
      src1 = clamp(src1, 0.0f, 1.0f);
    }
    if (flags & CLP_RT_LOGICOP) {
      const uint4 s = clp_encode_float(fmt, src), d = clp_encode_float(fmt, dst);
      result = clp_decode_float(fmt, clp_logic_op(CLP_KEYED_LOGICOP_FUNC(rp), s, d));
    } else if (flags & CLP_RT_BLEND) {
      float4 c = vload4(0, rp->blend_color);
      if (flags & CLP_RT_UNORM) {
        src = clamp(src, 0.0f, 1.0f);
        src1 = clamp(src1, 0.0f, 1.0f);
        c = clamp(c, 0.0f, 1.0f);
      } else if (flags & CLP_RT_SNORM) {
        src = clamp(src, -1.0f, 1.0f);
        src1 = clamp(src1, -1.0f, 1.0f);
        c = clamp(c, -1.0f, 1.0f);
      }
      result = clp_blend(CLP_KEYED_RT(rp, r, rgb_func), CLP_KEYED_RT(rp, r, rgb_src),
                         CLP_KEYED_RT(rp, r, rgb_dst), CLP_KEYED_RT(rp, r, alpha_func),
                         CLP_KEYED_RT(rp, r, alpha_src), CLP_KEYED_RT(rp, r, alpha_dst), src, src1,
                         dst, c);
    } else {
      result = src;
    }
  }
  result = clp_select_mask(dst, result, CLP_KEYED_RT(rp, r, colormask));
  // The buffer holds the format's precision: what later fragments blend with.
  return round ? clp_rt_decode(fmt, flags, clp_rt_encode(fmt, flags, result)) : result;
}

// The colour state of a work-item's blocks for one buffer (tile_pass has one per buffer):
// per sample and block, channel c of every lane (across lanes, tile_color.h) or every
// lane's RGBA. Blocks are the innermost index, so the blocks of one buffer and sample lie
// together and a primitive over the region walks one contiguous range. (With blocks
// outermost they lay a power of two apart, in the same few L1 cache sets, and evicted each
// other: fills ran ~15 % slower, single-sampled and 4x alike.)
#ifdef CLP_TILE_SOA
typedef vf ClpBlockColor[CLP_NS][CLP_ITEM_BLOCKS][4];
#else
typedef float4 ClpBlockColor[CLP_NS][CLP_ITEM_BLOCKS][CLP_LANES];
#endif
typedef uint ClpBlockLanes[CLP_MAX_RTS][CLP_NS];

// Whether block b's samples of buffer r are shared (tile_pass's uni).
#define CLP_SHARED(b, r) (CLP_NS == 1 || uni[b][r])

// Ends the sharing of block b's samples of buffer r: every sample takes sample 0's state.
static void clp_samples_split(int b, uint r, ClpBlockColor* color, ClpBlockLanes* known,
                              ClpBlockLanes* dirty, bool (*uni)[CLP_MAX_RTS]) {
  if (!uni[b][r]) return;
  uni[b][r] = false;
  for (int s = 1; s < CLP_NS; ++s) {
    known[b][r][s] = known[b][r][0];
    dirty[b][r][s] = dirty[b][r][0];
#ifdef CLP_TILE_SOA
    for (int c = 0; c < 4; ++c)
      color[r][s][b][c] = color[r][0][b][c];
#else
    for (int l = 0; l < CLP_LANES; ++l)
      color[r][s][b][l] = color[r][0][b][l];
#endif
  }
}

#endif  // CLPIPE_TILE_RT_H
