// Clear-on-load in the tile pass (ClpRunParams::clear_mask): stores of the cleared texel
// where no fragment changed a pixel, as raw bytes, so that cleared pixels cost a fill's
// store rather than an encode each. Included by tile.cl after its lane helpers.
#ifndef CLPIPE_TILE_CLEAR_H
#define CLPIPE_TILE_CLEAR_H

#include "format.h"
#include "raster_shared.h"
#include "raster_zs.h"

// Stores the cleared texels of every buffer in clear_mask over the pixels [x0, x1) x
// [y0, y1) (inside the framebuffer): a region whose pixels no primitive reaches.
static void clp_clear_region(global const ClpRasterParams* rp0, uint clear_mask, uint nrt,
                             global const ClpClearTexels* clear, global uchar* const* cbuf,
                             global uchar* zsbuf, int x0, int y0, int x1, int y1) {
  for (uint r = 0; r < nrt; ++r) {
    if (!((clear_mask >> r) & 1u)) continue;
    const uint fmt = CLP_KEYED_RT(rp0, r, format), bytes = clp_format_block_bytes(fmt);
    const uint4 raw = vload4(0, clear->color[r]);
    global uchar* row = cbuf[r] + rp0->rt[r].offset + (size_t)y0 * rp0->rt[r].pitch;
    for (int y = y0; y < y1; ++y, row += rp0->rt[r].pitch) {
      for (int x = x0; x < x1; ++x)
        clp_block_store_bytes(bytes, row + (size_t)x * bytes, raw);
    }
  }
  if (!((clear_mask >> CLP_CLEAR_ZS_BIT) & 1u)) return;
  const uint zfmt = CLP_KEYED_ZS_FORMAT(rp0), zbytes = clp_zs_bytes(zfmt);
  const uint2 words = vload2(0, clear->zs);
  global uchar* row = zsbuf + rp0->zs_offset + (size_t)y0 * rp0->zs_pitch;
  for (int y = y0; y < y1; ++y, row += rp0->zs_pitch) {
    for (int x = x0; x < x1; ++x)
      clp_zs_store(zfmt, row + (size_t)x * zbytes, words);
  }
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
