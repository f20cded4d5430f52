// Clear-on-load in the tile pass (ClpRunParams::clear_mask): stores of the cleared texel
// where no fragment changed a pixel, as raw bytes, so that cleared pixels cost a fill's
// store rather than an encode each. Included by tile.cl after its lane helpers.
#ifndef CLPIPE_TILE_CLEAR_H
#define CLPIPE_TILE_CLEAR_H

#include "format.h"
#include "raster_shared.h"
#include "raster_zs.h"

// Stores the texel `raw` (clp_block_store_bytes's words of `bytes` bytes) at the n
// pixels from p: four 4-byte texels per store where it can.
static void clp_clear_row(global uchar* p, uint bytes, int n, uint4 raw) {
  int x = 0;
  if (bytes == 4u) {
    const uchar4 b = clp_fmt_le_bytes(raw.x);
    const uchar16 four = (uchar16)(b, b, b, b);
    for (; x + 4 <= n; x += 4)
      vstore16(four, 0, p + (size_t)x * 4u);
  }
  for (; x < n; ++x)
    clp_block_store_bytes(bytes, p + (size_t)x * bytes, raw);
}

// Stores the cleared texels of every buffer in clear_mask over the pixels [x0, x1) x
// [y0, y1) (inside the framebuffer): a region whose pixels no primitive reaches.
static void clp_clear_region(global const ClpRasterParams* rp0, uint clear_mask, uint nrt,
                             global const ClpClearTexels* clear, global uchar* const* cbuf,
                             global uchar* zsbuf, int x0, int y0, int x1, int y1) {
  for (uint r = 0; r < nrt; ++r) {
    if (!((clear_mask >> r) & 1u)) continue;
    const uint bytes = clp_format_block_bytes(CLP_KEYED_RT(rp0, r, format));
    const uint4 raw = vload4(0, clear->color[r]);
    global uchar* row = cbuf[r] + rp0->rt[r].offset + (size_t)y0 * rp0->rt[r].pitch;
    for (int y = y0; y < y1; ++y, row += rp0->rt[r].pitch)
      clp_clear_row(row + (size_t)x0 * bytes, bytes, x1 - x0, raw);
  }
  if (!((clear_mask >> CLP_CLEAR_ZS_BIT) & 1u)) return;
  // clp_zs_store's bytes: those of the words, low first, as clp_block_store_bytes writes.
  const uint zbytes = clp_zs_bytes(CLP_KEYED_ZS_FORMAT(rp0));
  const uint4 raw = (uint4)(vload2(0, clear->zs), 0u, 0u);
  global uchar* row = zsbuf + rp0->zs_offset + (size_t)y0 * rp0->zs_pitch;
  for (int y = y0; y < y1; ++y, row += rp0->zs_pitch)
    clp_clear_row(row + (size_t)x0 * zbytes, zbytes, x1 - x0, raw);
}

// Stores the raw texel `raw` (fmt) at the lanes in `lanes` (bits) of the block at p.
static void clp_store_texel_lanes(uint fmt, global uchar* p, uint pitch, uint lanes, uint4 raw) {
  const uint bytes = clp_format_block_bytes(fmt);
  if (bytes == 4u && lanes == (1u << CLP_LANES) - 1u) {
    clp_block_store_rows(p, pitch, (vu)(raw.x));  // the texel is one word
    return;
  }
  for (int l = 0; l < CLP_LANES; ++l) {
    if ((lanes >> l) & 1u) {
      clp_block_store_bytes(
          bytes, p + (size_t)clp_lane_dy(l) * pitch + (size_t)clp_lane_dx(l) * bytes, raw);
    }
  }
}

#endif  // CLPIPE_TILE_CLEAR_H
