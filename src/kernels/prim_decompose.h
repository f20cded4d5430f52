// Decomposition of a draw's primitives into basic primitives (points, lines, triangles,
// lines and triangles with adjacency) in API order, with every vertex in the order a
// geometry shader receives it and stream output writes it. Used by stream.cl (GS input
// assembly, stream output); the rasterization path uses prim_assemble.h, whose order
// only has to keep the winding and the provoking vertex.
//
// Vertex orders (the GL rules, as Mesa's draw module applies them): a strip's odd
// triangles swap two vertices so that the provoking vertex keeps its place (last: the
// new vertex stays last; first: the oldest vertex stays first); fans and polygons
// rotate the shared vertex to the end (last) or keep it first; quads split into two
// triangles that both end (last) or both start (first) with the provoking vertex;
// strips with adjacency alternate like strips, adjacent vertices following their edges.
//
// Every position completes 0, 1 or 2 basic primitives, so positions run in parallel and
// a prefix sum of the counts orders the primitives.
#ifndef CLPIPE_PRIM_DECOMPOSE_H
#define CLPIPE_PRIM_DECOMPOSE_H

#include "draw_shared.h"
#include "prim_assemble.h"

typedef struct {
  uint v[6];  // vertex positions within the instance; unused entries repeat v[n - 1]
  uint n;     // 1, 2, 3, 4 (lines with adjacency) or 6 (triangles with adjacency)
} ClpFullPrim;

static void clp_full_prim(ClpFullPrim* p, uint n, uint a, uint b, uint c, uint d, uint e, uint f) {
  p->n = n;
  p->v[0] = a;
  p->v[1] = b;
  p->v[2] = c;
  p->v[3] = d;
  p->v[4] = e;
  p->v[5] = f;
}
#define CLP_POINT(p, a) clp_full_prim(p, 1, a, a, a, a, a, a)
#define CLP_LINE(p, a, b) clp_full_prim(p, 2, a, b, b, b, b, b)
#define CLP_TRI(p, a, b, c) clp_full_prim(p, 3, a, b, c, c, c, c)

// Vertices of the basic primitives of `mode`, with adjacency.
static uint clp_full_verts(uint mode) {
  switch (mode) {
    case CLP_PRIM_POINTS:
      return 1;
    case CLP_PRIM_LINES:
    case CLP_PRIM_LINE_LOOP:
    case CLP_PRIM_LINE_STRIP:
      return 2;
    case CLP_PRIM_LINES_ADJACENCY:
    case CLP_PRIM_LINE_STRIP_ADJACENCY:
      return 4;
    case CLP_PRIM_TRIANGLES_ADJACENCY:
    case CLP_PRIM_TRIANGLE_STRIP_ADJACENCY:
      return 6;
    default:
      return 3;
  }
}

// Vertices of the basic primitives of `mode` without adjacency (what stream output
// writes when no geometry shader runs).
static uint clp_basic_verts(uint mode) {
  const uint n = clp_full_verts(mode);
  return n == 4 ? 2u : n == 6 ? 3u : n;
}

// Vertex i < clp_basic_verts(mode) of a full primitive: adjacent vertices skipped.
static uint clp_basic_vertex(const ClpFullPrim* p, uint i) {
  return p->n == 4 ? p->v[1 + i] : p->n == 6 ? p->v[2 * i] : p->v[i];
}

// The basic primitives completed at position k. s = first position of k's restart
// segment; rest = positions after k in the segment (only 0, 1 or "2 or more" matters);
// first = the first vertex provokes (flatshade_first). Returns the count, fills out[].
static uint clp_decompose(uint mode, uint k, uint s, uint rest, bool first, ClpFullPrim* out) {
  const uint j = k - s;  // index within the segment
  const bool last = rest == 0;
  switch (mode) {
    case CLP_PRIM_POINTS:
      CLP_POINT(&out[0], k);
      return 1;
    case CLP_PRIM_LINES:
      if ((j & 1) != 1) return 0;
      CLP_LINE(&out[0], k - 1, k);
      return 1;
    case CLP_PRIM_LINE_STRIP:
      if (j < 1) return 0;
      CLP_LINE(&out[0], k - 1, k);
      return 1;
    case CLP_PRIM_LINE_LOOP: {
      if (j < 1) return 0;
      CLP_LINE(&out[0], k - 1, k);
      if (!last) return 1;
      CLP_LINE(&out[1], k, s);  // closes the loop
      return 2;
    }
    case CLP_PRIM_TRIANGLES:
      if (j % 3 != 2) return 0;
      CLP_TRI(&out[0], k - 2, k - 1, k);
      return 1;
    case CLP_PRIM_TRIANGLE_STRIP:
      if (j < 2) return 0;
      if ((j & 1) == 0) {
        CLP_TRI(&out[0], k - 2, k - 1, k);
      } else if (first) {
        CLP_TRI(&out[0], k - 2, k, k - 1);
      } else {
        CLP_TRI(&out[0], k - 1, k - 2, k);
      }
      return 1;
    case CLP_PRIM_TRIANGLE_FAN:
      if (j < 2) return 0;
      if (first) {
        CLP_TRI(&out[0], k - 1, k, s);
      } else {
        CLP_TRI(&out[0], s, k - 1, k);
      }
      return 1;
    case CLP_PRIM_POLYGON:
      if (j < 2) return 0;
      if (first) {
        CLP_TRI(&out[0], s, k - 1, k);
      } else {
        CLP_TRI(&out[0], k - 1, k, s);
      }
      return 1;
    case CLP_PRIM_QUADS: {
      if (j % 4 != 3) return 0;
      const uint a = k - 3, b = k - 2, c = k - 1, d = k;
      if (first) {
        CLP_TRI(&out[0], a, b, c);
        CLP_TRI(&out[1], a, c, d);
      } else {
        CLP_TRI(&out[0], a, b, d);
        CLP_TRI(&out[1], b, c, d);
      }
      return 2;
    }
    case CLP_PRIM_QUAD_STRIP: {
      if (j < 3 || (j & 1) != 1) return 0;
      // Quad i of the strip: 2i, 2i+1 on one side, 2i+2, 2i+3 on the other.
      const uint a = k - 3, b = k - 2, c = k - 1, d = k;
      if (first) {
        CLP_TRI(&out[0], a, d, c);
        CLP_TRI(&out[1], a, b, d);
      } else {
        CLP_TRI(&out[0], c, a, d);
        CLP_TRI(&out[1], a, b, d);
      }
      return 2;
    }
    case CLP_PRIM_LINES_ADJACENCY:
      if (j % 4 != 3) return 0;
      clp_full_prim(&out[0], 4, k - 3, k - 2, k - 1, k, k, k);
      return 1;
    case CLP_PRIM_LINE_STRIP_ADJACENCY:
      if (j < 3) return 0;
      clp_full_prim(&out[0], 4, k - 3, k - 2, k - 1, k, k, k);
      return 1;
    case CLP_PRIM_TRIANGLES_ADJACENCY:
      if (j % 6 != 5) return 0;
      clp_full_prim(&out[0], 6, k - 5, k - 4, k - 3, k - 2, k - 1, k);
      return 1;
    case CLP_PRIM_TRIANGLE_STRIP_ADJACENCY: {
      if (j < 5 || (j & 1) != 1) return 0;
      // Triangle t (completed at j = 2t + 5) has the vertices 2t, 2t+2, 2t+4 and the
      // adjacent vertices 2t-2 (1 for the first triangle), 2t+6 (2t+5 for the last
      // triangle, which is the one whose next position does not extend the strip
      // to a further triangle) and 2t+3, relative to the segment start.
      const uint t = (j - 5) / 2;
      const uint v0 = s + 2 * t, v2 = v0 + 2, v4 = v0 + 4, a5 = v0 + 3;
      const uint a1 = t == 0 ? s + 1 : v0 - 2;
      const uint a3 = rest >= 2 ? v0 + 6 : v0 + 5;
      if ((t & 1) == 0) {
        clp_full_prim(&out[0], 6, v0, a1, v2, a3, v4, a5);
      } else if (first) {
        clp_full_prim(&out[0], 6, v0, a5, v4, a3, v2, a1);
      } else {
        clp_full_prim(&out[0], 6, v2, a1, v0, a5, v4, a3);
      }
      return 1;
    }
    default:
      return 0;
  }
}

// The basic primitives position p of a draw completes (positions are instance-major:
// p = instance * count + k). *vbase = the first position of p's instance.
static uint clp_stream_prims(global const ClpDrawParams* dp, global const uint* restart,
                             global const uint* seg_index, global const uint* seg_first, uint p,
                             ClpFullPrim* out, uint* vbase) {
  const uint inst = p / dp->count, k = p % dp->count;
  *vbase = inst * dp->count;
  uint s = 0;
  uint rest = min(dp->count - 1 - k, 2u);
  if (dp->flags & CLP_DRAW_RESTART) {
    if (restart[k]) return 0;
    s = seg_first[seg_index[k]];
    if (rest >= 1 && restart[k + 1]) rest = 0;
    if (rest >= 2 && restart[k + 2]) rest = 1;
  }
  return clp_decompose(dp->prim_mode, k, s, rest, (dp->flags & CLP_DRAW_FLATSHADE_FIRST) != 0, out);
}

#endif  // CLPIPE_PRIM_DECOMPOSE_H
