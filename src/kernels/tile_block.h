// The tile pass's whole-block memory access: a block of 4-byte pixels (colour,
// depth/stencil) as one word per lane. Included by tile.cl after its lane geometry
// (CLP_LANES, CLP_LANE_DX / CLP_LANE_DY).
#ifndef CLPIPE_TILE_BLOCK_H
#define CLPIPE_TILE_BLOCK_H

// A whole block of 4-byte pixels (colour, depth/stencil) as one word per lane, row by row
// (the little-endian words of the pixels' bytes): the rows of the block in lane order
// are lanes (0 1 4 5) (2 3 6 7) (8 9 12 13) (10 11 14 15) at 16 lanes (4x4), the first two
// at 8 (4x2), (0 1) (2 3) at 4 (2x2), one pixel at 1: tile.cl's CLP_LANE_DX / CLP_LANE_DY.
static vu clp_le_words(vu w) {
#ifdef __ENDIAN_LITTLE__
  return w;
#else
  return (w >> 24) | ((w >> 8) & 0xff00u) | ((w << 8) & 0xff0000u) | (w << 24);
#endif
}
static void clp_block_store_rows(global uchar* p, uint pitch, vu words) {
  const vu px = clp_le_words(words);
#if CLP_LANES == 1
  vstore4(as_uchar4(px), 0, p);
#elif CLP_LANES == 4
  vstore8(as_uchar8(px.s01), 0, p);
  vstore8(as_uchar8(px.s23), 0, p + pitch);
#else
  vstore16(as_uchar16(px.s0145), 0, p);
  vstore16(as_uchar16(px.s2367), 0, p + pitch);
#if CLP_LANES == 16
  vstore16(as_uchar16(px.s89cd), 0, p + 2 * (size_t)pitch);
  vstore16(as_uchar16(px.sabef), 0, p + 3 * (size_t)pitch);
#endif
#endif
}
static vu clp_block_load_rows(global const uchar* p, uint pitch) {
#if CLP_LANES == 1
  return clp_le_words(as_uint(vload4(0, p)));
#elif CLP_LANES == 4
  const uint2 r0 = as_uint2(vload8(0, p)), r1 = as_uint2(vload8(0, p + pitch));
  return clp_le_words((vu)(r0, r1));
#else
  const uint4 r0 = as_uint4(vload16(0, p)), r1 = as_uint4(vload16(0, p + pitch));
#if CLP_LANES == 8
  return clp_le_words((vu)(r0.s01, r1.s01, r0.s23, r1.s23));
#else
  const uint4 r2 = as_uint4(vload16(0, p + 2 * (size_t)pitch));
  const uint4 r3 = as_uint4(vload16(0, p + 3 * (size_t)pitch));
  return clp_le_words((vu)(r0.s01, r1.s01, r0.s23, r1.s23, r2.s01, r3.s01, r2.s23, r3.s23));
#endif
#endif
}

#endif  // CLPIPE_TILE_BLOCK_H
