// Device view of the one format table (include/clpipe/formats.def): format ids, the
// compact descriptor table and the predicates kernels branch on.
//
// Producer: formats.def (shared with the host table of src/frontend/format.cpp).
// Consumers: the rest of the device format codec (format.h and its helpers), and through
// it the tile rasterizer, vertex fetch, texture sampling, clears and blits. A format is a
// runtime `uint`: the clpipe::Format enum value, i.e. the row index of formats.def. Ids
// out of range read as row 0 (NONE), so a bad id never indexes past the table.
#ifndef CLPIPE_KERNELS_FORMAT_TABLE_H
#define CLPIPE_KERNELS_FORMAT_TABLE_H

// CLP_FMT_<name> == (uint)clpipe::Format::<name>. The macro names every parameter because
// OpenCL C 1.2 (6.9) has no variadic macros: clang accepts them, NVIDIA's compiler does not.
enum ClpFormatId {
#define CLPIPE_FORMAT(name, bytes, cs, sp, s0, s1, s2, s3, t0, b0, h0, t1, b1, h1, t2, b2, h2, t3, \
                      b3, h3)                                                                      \
  CLP_FMT_##name,
#include "clpipe/formats.def"
#undef CLPIPE_FORMAT
  CLP_FMT_COUNT
};

// The values of clpipe::ChannelType, Colorspace, FormatSpecial and FormatSwizzle.
#define CLP_TYPE_VOID 0u
#define CLP_TYPE_UNORM 1u
#define CLP_TYPE_SNORM 2u
#define CLP_TYPE_UINT 3u
#define CLP_TYPE_SINT 4u
#define CLP_TYPE_USCALED 5u
#define CLP_TYPE_SSCALED 6u
#define CLP_TYPE_FLOAT 7u
#define CLP_TYPE_FIXED 8u
#define CLP_CS_RGB 0u
#define CLP_CS_SRGB 1u
#define CLP_CS_ZS 2u
#define CLP_SPECIAL_NONE 0u
#define CLP_SPECIAL_R11G11B10F 1u
#define CLP_SPECIAL_R9G9B9E5 2u
#define CLP_SWZ_X 0u
#define CLP_SWZ_Y 1u
#define CLP_SWZ_Z 2u
#define CLP_SWZ_W 3u
#define CLP_SWZ_ZERO 4u
#define CLP_SWZ_ONE 5u
#define CLP_SWZ_NONE 6u

// ClpFormatDesc.flags
#define CLP_FLAG_HAS_DEPTH 0x01u
#define CLP_FLAG_HAS_STENCIL 0x02u
#define CLP_FLAG_PURE_UINT 0x04u
#define CLP_FLAG_PURE_SINT 0x08u
// Bits 4..7: channel c (bit 4 + c) holds an sRGB-encoded colour value (not alpha).
#define CLP_FLAG_SRGB_SHIFT 4u

// Largest block that fits the uint4 raw form of the codec. Larger blocks
// (R64G64B64_FLOAT, R64G64B64A64_FLOAT) are vertex-only: see clp_fetch_* in format.h.
#define CLP_MAX_RAW_BLOCK_BYTES 16u

// One row of formats.def, plus facts derived from it at compile time. 24 bytes.
typedef struct {
  uchar block_bytes;  // bytes per block (texel or vertex element), 1..32; NONE: 1
  uchar colorspace;   // CLP_CS_*
  uchar special;      // CLP_SPECIAL_*
  uchar flags;        // CLP_FLAG_*
  uchar swizzle[4];   // RGBA <- channel (CLP_SWZ_*); ZS: [0] depth, [1] stencil channel
  uchar type[4];      // per channel: CLP_TYPE_*
  uchar bits[4];      // per channel: width in bits (0 when absent), <= 64
  uchar shift[4];     // per channel: lowest bit in the little-endian block
  uchar source[4];    // per channel: the RGBA component an encode stores there, 4 = none
} ClpFormatDesc;

#define CLP_T_VOID CLP_TYPE_VOID
#define CLP_T_UNORM CLP_TYPE_UNORM
#define CLP_T_SNORM CLP_TYPE_SNORM
#define CLP_T_UINT CLP_TYPE_UINT
#define CLP_T_SINT CLP_TYPE_SINT
#define CLP_T_USCALED CLP_TYPE_USCALED
#define CLP_T_SSCALED CLP_TYPE_SSCALED
#define CLP_T_FLOAT CLP_TYPE_FLOAT
#define CLP_T_FIXED CLP_TYPE_FIXED
#define CLP_C_RGB CLP_CS_RGB
#define CLP_C_SRGB CLP_CS_SRGB
#define CLP_C_ZS CLP_CS_ZS
#define CLP_P_NONE CLP_SPECIAL_NONE
#define CLP_P_R11G11B10F CLP_SPECIAL_R11G11B10F
#define CLP_P_R9G9B9E5 CLP_SPECIAL_R9G9B9E5
#define CLP_S_X CLP_SWZ_X
#define CLP_S_Y CLP_SWZ_Y
#define CLP_S_Z CLP_SWZ_Z
#define CLP_S_W CLP_SWZ_W
#define CLP_S_0 CLP_SWZ_ZERO
#define CLP_S_1 CLP_SWZ_ONE
#define CLP_S_N CLP_SWZ_NONE

// The encode source of channel c: the first RGBA component whose swizzle names c (the
// host's channel_source: L stores R, LA stores R and A).
#define CLP_ROW_SOURCE(c, s0, s1, s2, s3) \
  ((s0) == (c) ? 0u : (s1) == (c) ? 1u : (s2) == (c) ? 2u : (s3) == (c) ? 3u : 4u)
// Channel c is sRGB-encoded: an sRGB format's present channel that is not its alpha
// (the host's is_rgb_component_of_srgb; L8A8_SRGB keeps A linear, L8_SRGB has no A).
#define CLP_ROW_SRGB(c, cs, t, s0, s3) \
  (((cs) == CLP_CS_SRGB && (t) != CLP_TYPE_VOID && !((s3) == (c) && (s0) != (s3))) ? 1u : 0u)
#define CLP_ROW_ALL(t0, t1, t2, t3, want)                                                    \
  (((t0) == (want) || (t0) == CLP_TYPE_VOID) && ((t1) == (want) || (t1) == CLP_TYPE_VOID) && \
   ((t2) == (want) || (t2) == CLP_TYPE_VOID) && ((t3) == (want) || (t3) == CLP_TYPE_VOID) && \
   ((t0) == (want) || (t1) == (want) || (t2) == (want) || (t3) == (want)))
// Pure integer: every present channel has that type, and the format is a plain colour
// format (the host's format_is_pure_uint / format_is_pure_sint).
#define CLP_ROW_PURE(cs, sp, t0, t1, t2, t3, want) \
  (((cs) != CLP_CS_ZS && (sp) == CLP_SPECIAL_NONE && CLP_ROW_ALL(t0, t1, t2, t3, want)) ? 1u : 0u)
#define CLP_ROW_FLAGS(cs, sp, s0, s1, s3, t0, t1, t2, t3)                            \
  (((cs) == CLP_CS_ZS && (s0) != CLP_SWZ_NONE ? CLP_FLAG_HAS_DEPTH : 0u) |           \
   ((cs) == CLP_CS_ZS && (s1) != CLP_SWZ_NONE ? CLP_FLAG_HAS_STENCIL : 0u) |         \
   (CLP_ROW_PURE(cs, sp, t0, t1, t2, t3, CLP_TYPE_UINT) ? CLP_FLAG_PURE_UINT : 0u) | \
   (CLP_ROW_PURE(cs, sp, t0, t1, t2, t3, CLP_TYPE_SINT) ? CLP_FLAG_PURE_SINT : 0u) | \
   ((CLP_ROW_SRGB(0u, cs, t0, s0, s3) | CLP_ROW_SRGB(1u, cs, t1, s0, s3) << 1 |      \
     CLP_ROW_SRGB(2u, cs, t2, s0, s3) << 2 | CLP_ROW_SRGB(3u, cs, t3, s0, s3) << 3)  \
    << CLP_FLAG_SRGB_SHIFT))
#define CLP_ROW(bytes, cs, sp, s0, s1, s2, s3, t0, b0, h0, t1, b1, h1, t2, b2, h2, t3, b3, h3) \
  {                                                                                            \
    bytes, cs, sp, CLP_ROW_FLAGS(cs, sp, s0, s1, s3, t0, t1, t2, t3), {s0, s1, s2, s3},        \
        {t0, t1, t2, t3}, {b0, b1, b2, b3}, {h0, h1, h2, h3}, {                                \
      CLP_ROW_SOURCE(0u, s0, s1, s2, s3), CLP_ROW_SOURCE(1u, s0, s1, s2, s3),                  \
          CLP_ROW_SOURCE(2u, s0, s1, s2, s3), CLP_ROW_SOURCE(3u, s0, s1, s2, s3)               \
    }                                                                                          \
  }

constant ClpFormatDesc clp_format_table[CLP_FMT_COUNT] = {
#define CLPIPE_FORMAT(name, bytes, cs, sp, s0, s1, s2, s3, t0, b0, h0, t1, b1, h1, t2, b2, h2, t3, \
                      b3, h3)                                                                      \
  CLP_ROW(bytes, CLP_C_##cs, CLP_P_##sp, CLP_S_##s0, CLP_S_##s1, CLP_S_##s2, CLP_S_##s3,           \
          CLP_T_##t0, b0, h0, CLP_T_##t1, b1, h1, CLP_T_##t2, b2, h2, CLP_T_##t3, b3, h3),
#include "clpipe/formats.def"
#undef CLPIPE_FORMAT
};
// The row macros are for the table only: keep them out of the including programs.
#undef CLP_ROW
#undef CLP_ROW_FLAGS
#undef CLP_ROW_PURE
#undef CLP_ROW_ALL
#undef CLP_ROW_SRGB
#undef CLP_ROW_SOURCE
#undef CLP_T_VOID
#undef CLP_T_UNORM
#undef CLP_T_SNORM
#undef CLP_T_UINT
#undef CLP_T_SINT
#undef CLP_T_USCALED
#undef CLP_T_SSCALED
#undef CLP_T_FLOAT
#undef CLP_T_FIXED
#undef CLP_C_RGB
#undef CLP_C_SRGB
#undef CLP_C_ZS
#undef CLP_P_NONE
#undef CLP_P_R11G11B10F
#undef CLP_P_R9G9B9E5
#undef CLP_S_X
#undef CLP_S_Y
#undef CLP_S_Z
#undef CLP_S_W
#undef CLP_S_0
#undef CLP_S_1
#undef CLP_S_N

// ---------------------------------------------------------------------------------
// Queries. `fmt` is any uint; out-of-range ids behave as NONE.

static uint clp_format_index(uint fmt) {
  return fmt < (uint)CLP_FMT_COUNT ? fmt : 0u;
}
static ClpFormatDesc clp_format_desc(uint fmt) {
  return clp_format_table[clp_format_index(fmt)];
}
// NONE and out-of-range ids are not valid formats.
static bool clp_format_is_valid(uint fmt) {
  return fmt > 0u && fmt < (uint)CLP_FMT_COUNT;
}
// Bytes per block; 0 for an invalid format (so that loads and stores touch nothing).
static uint clp_format_block_bytes(uint fmt) {
  return clp_format_is_valid(fmt) ? clp_format_table[fmt].block_bytes : 0u;
}
// Blocks over 16 bytes: only the vertex-fetch entry points of format.h read them.
static bool clp_format_is_vertex_only(uint fmt) {
  return clp_format_block_bytes(fmt) > CLP_MAX_RAW_BLOCK_BYTES;
}
static bool clp_format_is_depth_or_stencil(uint fmt) {
  return clp_format_table[clp_format_index(fmt)].colorspace == CLP_CS_ZS;
}
static bool clp_format_has_depth(uint fmt) {
  return (clp_format_table[clp_format_index(fmt)].flags & CLP_FLAG_HAS_DEPTH) != 0u;
}
static bool clp_format_has_stencil(uint fmt) {
  return (clp_format_table[clp_format_index(fmt)].flags & CLP_FLAG_HAS_STENCIL) != 0u;
}
static bool clp_format_is_srgb(uint fmt) {
  return clp_format_table[clp_format_index(fmt)].colorspace == CLP_CS_SRGB;
}
// Every present channel is UINT (resp. SINT): integer values, never filtered or blended.
static bool clp_format_is_pure_uint(uint fmt) {
  return (clp_format_table[clp_format_index(fmt)].flags & CLP_FLAG_PURE_UINT) != 0u;
}
static bool clp_format_is_pure_sint(uint fmt) {
  return (clp_format_table[clp_format_index(fmt)].flags & CLP_FLAG_PURE_SINT) != 0u;
}
static bool clp_format_is_pure_integer(uint fmt) {
  return (clp_format_table[clp_format_index(fmt)].flags &
          (CLP_FLAG_PURE_UINT | CLP_FLAG_PURE_SINT)) != 0u;
}
// Type of the first present channel (CLP_TYPE_VOID for NONE).
static uint clp_format_base_type(uint fmt) {
  const ClpFormatDesc d = clp_format_desc(fmt);
  for (uint c = 0; c < 4u; ++c) {
    if (d.type[c] != CLP_TYPE_VOID) return d.type[c];
  }
  return CLP_TYPE_VOID;
}
// Channel feeding RGBA component `comp` (0..3), or 4 when the component is a constant.
// For depth/stencil formats component 0 is depth and 1 stencil.
static uint clp_format_component_channel(uint fmt, uint comp) {
  const uint s = comp < 4u ? clp_format_table[clp_format_index(fmt)].swizzle[comp] : CLP_SWZ_NONE;
  return s < 4u ? s : 4u;
}
// Width in bits of the channel behind RGBA component `comp` (0 for a constant).
static uint clp_format_component_bits(uint fmt, uint comp) {
  const uint c = clp_format_component_channel(fmt, comp);
  return c < 4u ? clp_format_table[clp_format_index(fmt)].bits[c] : 0u;
}
// Type of the channel behind RGBA component `comp` (CLP_TYPE_VOID for a constant).
static uint clp_format_component_type(uint fmt, uint comp) {
  const uint c = clp_format_component_channel(fmt, comp);
  return c < 4u ? clp_format_table[clp_format_index(fmt)].type[c] : CLP_TYPE_VOID;
}

#endif  // CLPIPE_KERNELS_FORMAT_TABLE_H
