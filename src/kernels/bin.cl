// Binning: for every screen tile, the list of ClpTri records touching it, in API order.
// One binning covers every record of a scene.
//
// Order is kept by a counting sort: the records are cut into `nchunks` consecutive
// chunks, and the tiles, in row-major order, into `bands` bands of consecutive tiles; one
// work-item per (chunk, band) walks the chunk's records in order over the band's tiles.
// Each (tile, chunk) pair belongs to one work-item, so its entries keep the records'
// order. Bands let a scene of few records (one chunk) spread over many work-items: a GPU
// runs a single work-item hundreds of times slower than its full width, and a band of
// whole rows would leave a few large triangles on as many work-items as the screen has
// tile rows.
//   bin_count    hist[t * nchunks + c] = records of chunk c touching tile t
//   (host: exclusive prefix sum of hist, tile-major, see scan.cl)
//   bin_scatter  each chunk writes its records at its running offsets (below capacity)
// After the scatter, hist[t * nchunks + c] holds the end of (t, c), so tile t's list is
// list[t == 0 ? 0 : hist[t * nchunks - 1] .. hist[t * nchunks + nchunks - 1]).
// The record count lives on the device (status[0], prim.cl's records_advance); records
// past `capacity` were never written and are not binned (the host replays the scene).
// Producer of the input: prim.cl. Consumer of the lists: tile.cl.
#include "draw_shared.h"

// The tile range of a record's bounding box, and whether its edges can touch tile
// (tx, ty) at all (rejects tiles the bounding box covers but the triangle misses).
// A record covering samples off the pixel centres (CLP_TRI_SAMPLES, less than half a
// pixel away) is tested against the tile widened by one pixel.
static bool clp_tri_touches_tile(global const ClpTri* t, int tx, int ty) {
  const long m = (t->flags & CLP_TRI_SAMPLES) ? 1 : 0;
  const long x0 = (long)(tx << CLP_TILE_SIZE_LOG2) - m, y0 = (long)(ty << CLP_TILE_SIZE_LOG2) - m;
  const long x1 = x0 + CLP_TILE_SIZE - 1 + 2 * m, y1 = y0 + CLP_TILE_SIZE - 1 + 2 * m;
  for (int e = 0; e < 3; ++e) {
    const long a = t->edge_a[e], b = t->edge_b[e];
    // The tile corner sample that maximises the edge function.
    const long x = a > 0 ? x1 : x0, y = b > 0 ? y1 : y0;
    if (a * (x << CLP_SUBPIXEL_BITS) + b * (y << CLP_SUBPIXEL_BITS) + t->edge_c[e] <= 0)
      return false;
  }
  return true;
}

// Also whether the range is one tile: then the record goes to it without the edge test
// (a record that covers no sample there draws nothing in the tile pass), which reads
// only its box: most records of small primitives (points, small triangles).
static bool clp_tile_range(global const ClpTri* t, int* tx0, int* ty0, int* tx1, int* ty1) {
  *tx0 = t->bbox[0] >> CLP_TILE_SIZE_LOG2;
  *ty0 = t->bbox[1] >> CLP_TILE_SIZE_LOG2;
  *tx1 = (t->bbox[2] - 1) >> CLP_TILE_SIZE_LOG2;
  *ty1 = (t->bbox[3] - 1) >> CLP_TILE_SIZE_LOG2;
  return *tx0 == *tx1 && *ty0 == *ty1;
}

// Work-item g is chunk g % nchunks of band g / nchunks; the band's tiles are
// [*t0, *t1) in row-major order. False past the last work-item.
static bool clp_bin_item(uint nchunks, uint bands, uint tiles, uint* c, uint* t0, uint* t1) {
  const uint g = get_global_id(0);
  if (g >= nchunks * bands) return false;
  *c = g % nchunks;
  const uint band = g / nchunks, per = (tiles + bands - 1) / bands;
  *t0 = min(tiles, band * per);
  *t1 = min(tiles, band * per + per);
  return true;
}

__kernel void bin_count(global const ClpTri* tris, global const uint* status, uint capacity,
                        uint nchunks, uint bands, uint tiles_x, uint tiles_y, global uint* hist) {
  uint c, t0, t1;
  if (!clp_bin_item(nchunks, bands, tiles_x * tiles_y, &c, &t0, &t1)) return;
  if (t0 >= t1) return;
  const uint ntris = min(status[0], capacity);
  for (uint t = t0; t < t1; ++t)
    hist[t * nchunks + c] = 0;
  const uint per = (ntris + nchunks - 1) / nchunks;
  const uint r0 = c * per, r1 = min(ntris, r0 + per);
  for (uint r = r0; r < r1; ++r) {
    global const ClpTri* t = &tris[r];
    int tx0, ty0, tx1, ty1;
    const bool one = clp_tile_range(t, &tx0, &ty0, &tx1, &ty1);
    // The rows of the range that meet the band, and of each row the band's columns.
    const int ya = max(ty0, (int)(t0 / tiles_x)), yb = min(ty1, (int)((t1 - 1) / tiles_x));
    for (int ty = ya; ty <= yb; ++ty) {
      const int row = ty * (int)tiles_x;
      const int xa = max(tx0, (int)t0 - row), xb = min(tx1, (int)t1 - 1 - row);
      for (int tx = xa; tx <= xb; ++tx) {
        if (one || clp_tri_touches_tile(t, tx, ty)) hist[(uint)(row + tx) * nchunks + c] += 1;
      }
    }
  }
}

// Also status[1] = total[0] (the bin entries the scene needs: the scan's total of the
// histogram), which the tile pass and the host read; no work-item here reads it.
__kernel void bin_scatter(global const ClpTri* tris, global uint* status, uint record_capacity,
                          uint nchunks, uint bands, uint tiles_x, uint tiles_y,
                          global uint* offsets, global const uint* total, global uint* list,
                          uint capacity) {
  if (get_global_id(0) == 0) status[1] = total[0];
  uint c, t0, t1;
  if (!clp_bin_item(nchunks, bands, tiles_x * tiles_y, &c, &t0, &t1)) return;
  if (t0 >= t1) return;
  const uint ntris = min(status[0], record_capacity);
  const uint per = (ntris + nchunks - 1) / nchunks;
  const uint r0 = c * per, r1 = min(ntris, r0 + per);
  for (uint r = r0; r < r1; ++r) {
    global const ClpTri* t = &tris[r];
    int tx0, ty0, tx1, ty1;
    const bool one = clp_tile_range(t, &tx0, &ty0, &tx1, &ty1);
    const int ya = max(ty0, (int)(t0 / tiles_x)), yb = min(ty1, (int)((t1 - 1) / tiles_x));
    for (int ty = ya; ty <= yb; ++ty) {
      const int row = ty * (int)tiles_x;
      const int xa = max(tx0, (int)t0 - row), xb = min(tx1, (int)t1 - 1 - row);
      for (int tx = xa; tx <= xb; ++tx) {
        if (!one && !clp_tri_touches_tile(t, tx, ty)) continue;
        const uint slot = (uint)(row + tx) * nchunks + c;
        const uint at = offsets[slot];
        if (at < capacity) list[at] = r;
        offsets[slot] = at + 1;
      }
    }
  }
}
