// Raw blocks of the device format codec: loading and storing one block of a format as
// a uint4 of little-endian words, bit fields inside it, and the masks of masked writes.
//
// Producer/consumer: texel and vertex addresses come from the passes (tile pass, vertex
// fetch, sampling, blits); the raw uint4 goes to or comes from the codec of format.h.
// Invariants:
// * A raw block holds block_bytes bytes in words x, y, z, w (byte i of the block is bits
//   8*(i%4).. of word i/4); bytes past block_bytes are zero in loads and never written.
// * Loads and stores touch exactly block_bytes bytes and need only byte alignment (vertex
//   attributes may sit at any offset; texels are only block-aligned, e.g. 3 or 6 bytes).
// * NONE, out-of-range ids and vertex-only formats (blocks over 16 bytes) load as zero
//   and store nothing.
#ifndef CLPIPE_KERNELS_FORMAT_BLOCK_H
#define CLPIPE_KERNELS_FORMAT_BLOCK_H

#include "format_convert.h"
#include "format_table.h"

// ---------------------------------------------------------------------------------
// Bit fields of a 128-bit block (bits <= 64; bits at or past bit 128 read as zero and
// are not written).

static ulong clp_raw_field_get(uint4 raw, uint shift, uint bits) {
  if (bits == 0u || shift >= 128u) return 0UL;
  const ulong lo = upsample(raw.y, raw.x), hi = upsample(raw.w, raw.z);
  ulong v;
  if (shift == 0u) {
    v = lo;
  } else if (shift < 64u) {
    v = (lo >> shift) | (hi << (64u - shift));
  } else {
    v = hi >> (shift - 64u);
  }
  return v & clp_fmt_mask64(bits);
}

static uint4 clp_raw_field_set(uint4 raw, uint shift, uint bits, ulong value) {
  if (bits == 0u || shift >= 128u) return raw;
  const ulong m = clp_fmt_mask64(bits), v = value & m;
  ulong lo = upsample(raw.y, raw.x), hi = upsample(raw.w, raw.z);
  if (shift == 0u) {
    lo = (lo & ~m) | v;
  } else if (shift < 64u) {
    lo = (lo & ~(m << shift)) | (v << shift);
    hi = (hi & ~(m >> (64u - shift))) | (v >> (64u - shift));
  } else {
    hi = (hi & ~(m << (shift - 64u))) | (v << (shift - 64u));
  }
  return (uint4)((uint)lo, (uint)(lo >> 32), (uint)hi, (uint)(hi >> 32));
}

// All bits of one field.
static uint4 clp_raw_field_mask(uint shift, uint bits) {
  return clp_raw_field_set((uint4)(0u), shift, bits, ~0UL);
}

// ---------------------------------------------------------------------------------
// Loads and stores

static uint clp_fmt_le32(uchar4 b) {
#ifdef __ENDIAN_LITTLE__
  return as_uint(b);
#else
  const uint4 w = convert_uint4(b) << (uint4)(0u, 8u, 16u, 24u);
  return w.x | w.y | w.z | w.w;
#endif
}
static uchar4 clp_fmt_le_bytes(uint w) {
#ifdef __ENDIAN_LITTLE__
  return as_uchar4(w);
#else
  return convert_uchar4(((uint4)(w) >> (uint4)(0u, 8u, 16u, 24u)) & 0xffu);
#endif
}

// Block of `bytes` bytes at p (any alignment), as raw words.
static uint4 clp_block_load_bytes(uint bytes, const global uchar* p) {
  switch (bytes) {
    case 1u:
      return (uint4)(p[0], 0u, 0u, 0u);
    case 2u:
      return (uint4)(clp_fmt_le32((uchar4)(vload2(0, p), (uchar)0, (uchar)0)), 0u, 0u, 0u);
    case 3u:
      return (uint4)(clp_fmt_le32((uchar4)(vload3(0, p), (uchar)0)), 0u, 0u, 0u);
    case 4u:
      return (uint4)(clp_fmt_le32(vload4(0, p)), 0u, 0u, 0u);
    case 6u:
      return (uint4)(clp_fmt_le32(vload4(0, p)),
                     clp_fmt_le32((uchar4)(vload2(0, p + 4), (uchar)0, (uchar)0)), 0u, 0u);
    case 8u: {
      const uchar8 b = vload8(0, p);
      return (uint4)(clp_fmt_le32(b.lo), clp_fmt_le32(b.hi), 0u, 0u);
    }
    case 12u: {
      const uchar8 b = vload8(0, p);
      return (uint4)(clp_fmt_le32(b.lo), clp_fmt_le32(b.hi), clp_fmt_le32(vload4(0, p + 8)), 0u);
    }
    case 16u: {
      const uchar16 b = vload16(0, p);
      return (uint4)(clp_fmt_le32(b.lo.lo), clp_fmt_le32(b.lo.hi), clp_fmt_le32(b.hi.lo),
                     clp_fmt_le32(b.hi.hi));
    }
    default:
      return (uint4)(0u);
  }
}

static void clp_block_store_bytes(uint bytes, global uchar* p, uint4 raw) {
  switch (bytes) {
    case 1u:
      p[0] = (uchar)raw.x;
      break;
    case 2u:
      vstore2(clp_fmt_le_bytes(raw.x).lo, 0, p);
      break;
    case 3u:
      vstore3(clp_fmt_le_bytes(raw.x).xyz, 0, p);
      break;
    case 4u:
      vstore4(clp_fmt_le_bytes(raw.x), 0, p);
      break;
    case 6u:
      vstore4(clp_fmt_le_bytes(raw.x), 0, p);
      vstore2(clp_fmt_le_bytes(raw.y).lo, 0, p + 4);
      break;
    case 8u:
      vstore8((uchar8)(clp_fmt_le_bytes(raw.x), clp_fmt_le_bytes(raw.y)), 0, p);
      break;
    case 12u:
      vstore8((uchar8)(clp_fmt_le_bytes(raw.x), clp_fmt_le_bytes(raw.y)), 0, p);
      vstore4(clp_fmt_le_bytes(raw.z), 0, p + 8);
      break;
    case 16u:
      vstore16((uchar16)(clp_fmt_le_bytes(raw.x), clp_fmt_le_bytes(raw.y), clp_fmt_le_bytes(raw.z),
                         clp_fmt_le_bytes(raw.w)),
               0, p);
      break;
    default:
      break;
  }
}

// One block of format fmt at p: reads exactly block_bytes bytes.
static uint4 clp_load_block(uint fmt, const global uchar* p) {
  return clp_block_load_bytes(clp_format_block_bytes(fmt), p);
}
// Writes exactly block_bytes bytes of raw at p.
static void clp_store_block(uint fmt, global uchar* p, uint4 raw) {
  clp_block_store_bytes(clp_format_block_bytes(fmt), p, raw);
}

// Little-endian 64-bit word at p (any alignment).
static ulong clp_fmt_load_u64(const global uchar* p) {
  const uchar8 b = vload8(0, p);
  return upsample(clp_fmt_le32(b.hi), clp_fmt_le32(b.lo));
}

// ---------------------------------------------------------------------------------
// Masks for partial writes: raw = (old & ~mask) | (new & mask).

// RGBA component bits for clp_component_mask.
#define CLP_MASK_R 1u
#define CLP_MASK_G 2u
#define CLP_MASK_B 4u
#define CLP_MASK_A 8u
#define CLP_MASK_RGBA 15u

// Raw bits written by the RGBA components in rgba_mask (a colour write mask): the
// channels whose encode source (ClpFormatDesc.source) is one of them. Consequences:
// X (VOID) padding bits are never in a mask, so a masked write keeps them while a plain
// store zeroes them; L/I formats store R only, so a mask without R writes nothing; the
// three RGB9E5 colours share an exponent, so any of R, G, B selects the whole block.
// Depth/stencil formats map R to depth and G to stencil, like their encode.
static uint4 clp_component_mask(uint fmt, uint rgba_mask) {
  const ClpFormatDesc d = clp_format_desc(fmt);
  if (!clp_format_is_valid(fmt) || d.block_bytes > CLP_MAX_RAW_BLOCK_BYTES) return (uint4)(0u);
  if (d.special == CLP_SPECIAL_R9G9B9E5) {
    return (uint4)((rgba_mask & (CLP_MASK_R | CLP_MASK_G | CLP_MASK_B)) != 0u ? ~0u : 0u, 0u, 0u,
                   0u);
  }
  uint4 m = (uint4)(0u);
  for (uint c = 0; c < 4u; ++c) {
    if (d.type[c] != CLP_TYPE_VOID && d.source[c] < 4u && ((rgba_mask >> d.source[c]) & 1u) != 0u) {
      m |= clp_raw_field_mask(d.shift[c], d.bits[c]);
    }
  }
  return m;
}

// Aspects of a depth/stencil format for clp_aspect_mask.
#define CLP_ASPECT_DEPTH 1u
#define CLP_ASPECT_STENCIL 2u

// Raw bits of the depth and/or stencil channel (zero for aspects the format lacks).
static uint4 clp_aspect_mask(uint fmt, uint aspects) {
  const ClpFormatDesc d = clp_format_desc(fmt);
  uint4 m = (uint4)(0u);
  if ((aspects & CLP_ASPECT_DEPTH) != 0u && (d.flags & CLP_FLAG_HAS_DEPTH) != 0u) {
    m |= clp_raw_field_mask(d.shift[d.swizzle[0]], d.bits[d.swizzle[0]]);
  }
  if ((aspects & CLP_ASPECT_STENCIL) != 0u && (d.flags & CLP_FLAG_HAS_STENCIL) != 0u) {
    m |= clp_raw_field_mask(d.shift[d.swizzle[1]], d.bits[d.swizzle[1]]);
  }
  return m;
}

// Writes the bits of raw selected by mask over the block at p (a read-modify-write of
// exactly block_bytes; not atomic: the caller owns the block, as the tile pass owns its
// pixels). A zero mask touches nothing.
static void clp_store_block_masked(uint fmt, global uchar* p, uint4 raw, uint4 mask) {
  if (!any(mask != 0u)) return;
  const uint bytes = clp_format_block_bytes(fmt);
  const uint4 old = clp_block_load_bytes(bytes, p);
  clp_block_store_bytes(bytes, p, (old & ~mask) | (raw & mask));
}

#endif  // CLPIPE_KERNELS_FORMAT_BLOCK_H
