// Binning: for every screen tile, the list of ClpTri records touching it, in API order.
//
// Order is kept by a counting sort: the records are cut into `nchunks` consecutive
// chunks, one work-item per chunk walks its records in order.
//   bin_count    hist[t * nchunks + c] = records of chunk c touching tile t; bounds =
//                the tile rectangle of all records' bounding boxes, as (min x, min y,
//                max x, max y) with atomic min / max (the host sets it to
//                (INT_MAX, INT_MAX, -1, -1) first), so that the tile pass can skip
//                the tiles no primitive reaches
//   (host: exclusive prefix sum of hist, tile-major, see scan.cl)
//   bin_scatter  each chunk writes its records at its running offsets
// After the scatter, hist[t * nchunks + c] holds the end of (t, c), so tile t's list is
// list[t == 0 ? 0 : hist[t * nchunks - 1] .. hist[t * nchunks + nchunks - 1]).
// Producer of the input: prim.cl. Consumer of the lists: tile.cl.
#include "draw_shared.h"

// The tile range of a record's bounding box, and whether its edges can touch tile
// (tx, ty) at all (rejects tiles the bounding box covers but the triangle misses).
inline bool clp_tri_touches_tile(global const ClpTri* t, int tx, int ty) {
  const long x0 = (long)(tx << CLP_TILE_SIZE_LOG2), y0 = (long)(ty << CLP_TILE_SIZE_LOG2);
  const long x1 = x0 + CLP_TILE_SIZE - 1, y1 = y0 + CLP_TILE_SIZE - 1;
  for (int e = 0; e < 3; ++e) {
    const long a = t->edge_a[e], b = t->edge_b[e];
    // The tile corner sample that maximises the edge function.
    const long x = a > 0 ? x1 : x0, y = b > 0 ? y1 : y0;
    if (a * (x << CLP_SUBPIXEL_BITS) + b * (y << CLP_SUBPIXEL_BITS) + t->edge_c[e] <= 0)
      return false;
  }
  return true;
}

inline void clp_tile_range(global const ClpTri* t, int* tx0, int* ty0, int* tx1, int* ty1) {
  *tx0 = t->bbox[0] >> CLP_TILE_SIZE_LOG2;
  *ty0 = t->bbox[1] >> CLP_TILE_SIZE_LOG2;
  *tx1 = (t->bbox[2] - 1) >> CLP_TILE_SIZE_LOG2;
  *ty1 = (t->bbox[3] - 1) >> CLP_TILE_SIZE_LOG2;
}

__kernel void bin_count(global const ClpTri* tris, uint ntris, uint nchunks, uint tiles_x,
                        uint tiles_y, global uint* hist, global int* bounds) {
  const uint c = get_global_id(0);
  if (c >= nchunks) return;
  for (uint t = 0; t < tiles_x * tiles_y; ++t) hist[t * nchunks + c] = 0;
  const uint per = (ntris + nchunks - 1) / nchunks;
  const uint r0 = c * per, r1 = min(ntris, r0 + per);
  int bx0 = INT_MAX, by0 = INT_MAX, bx1 = -1, by1 = -1;
  for (uint r = r0; r < r1; ++r) {
    global const ClpTri* t = &tris[r];
    int tx0, ty0, tx1, ty1;
    clp_tile_range(t, &tx0, &ty0, &tx1, &ty1);
    bx0 = min(bx0, tx0);
    by0 = min(by0, ty0);
    bx1 = max(bx1, tx1);
    by1 = max(by1, ty1);
    for (int ty = ty0; ty <= ty1; ++ty) {
      for (int tx = tx0; tx <= tx1; ++tx) {
        if (clp_tri_touches_tile(t, tx, ty)) hist[(ty * tiles_x + tx) * nchunks + c] += 1;
      }
    }
  }
  if (bx1 >= 0) {
    atomic_min(&bounds[0], bx0);
    atomic_min(&bounds[1], by0);
    atomic_max(&bounds[2], bx1);
    atomic_max(&bounds[3], by1);
  }
}

__kernel void bin_scatter(global const ClpTri* tris, uint ntris, uint nchunks, uint tiles_x,
                          global uint* offsets, global uint* list, uint capacity) {
  const uint c = get_global_id(0);
  if (c >= nchunks) return;
  const uint per = (ntris + nchunks - 1) / nchunks;
  const uint r0 = c * per, r1 = min(ntris, r0 + per);
  for (uint r = r0; r < r1; ++r) {
    global const ClpTri* t = &tris[r];
    int tx0, ty0, tx1, ty1;
    clp_tile_range(t, &tx0, &ty0, &tx1, &ty1);
    for (int ty = ty0; ty <= ty1; ++ty) {
      for (int tx = tx0; tx <= tx1; ++tx) {
        if (!clp_tri_touches_tile(t, tx, ty)) continue;
        const uint slot = (ty * tiles_x + tx) * nchunks + c;
        const uint at = offsets[slot];
        if (at < capacity) list[at] = r;
        offsets[slot] = at + 1;
      }
    }
  }
}
