// Primitive assembly: which primitives a draw position completes, in API order.
// Used by the setup passes (prim.cl). Every position completes 0, 1 or 2 primitives
// (quads split into two triangles, a line loop's last position also closes the loop),
// so positions can be processed in parallel and compacted by a prefix sum.
#ifndef CLPIPE_PRIM_ASSEMBLE_H
#define CLPIPE_PRIM_ASSEMBLE_H

// clpipe::PrimType values.
#define CLP_PRIM_POINTS 0
#define CLP_PRIM_LINES 1
#define CLP_PRIM_LINE_LOOP 2
#define CLP_PRIM_LINE_STRIP 3
#define CLP_PRIM_TRIANGLES 4
#define CLP_PRIM_TRIANGLE_STRIP 5
#define CLP_PRIM_TRIANGLE_FAN 6
#define CLP_PRIM_QUADS 7
#define CLP_PRIM_QUAD_STRIP 8
#define CLP_PRIM_POLYGON 9
#define CLP_PRIM_LINES_ADJACENCY 10
#define CLP_PRIM_LINE_STRIP_ADJACENCY 11
#define CLP_PRIM_TRIANGLES_ADJACENCY 12
#define CLP_PRIM_TRIANGLE_STRIP_ADJACENCY 13

// An assembled primitive: vertex positions (within the instance), how many (1-3), which
// of them provokes flat values, and edge flags for unfilled polygons (bit e = edge from
// v[e] to v[(e+1) % n] is a boundary edge; interior edges of split quads/polygons are 0).
typedef struct {
  uint v[3];
  uint n;
  uint provoking;
  uint edges;
} ClpPrim;

// OpenCL C gets static definitions, like every helper of the kernel sources (a C99
// `inline` one emits no symbol, so a compiler that does not inline a call could not link
// it: cmake/check_kernel_links.cmake). The host includes this header in several C++
// files, where `inline` keeps one definition.
#if defined(__OPENCL_C_VERSION__) || defined(__OPENCL_VERSION__)
#define CLP_ASSEMBLE_FN static
#else
#define CLP_ASSEMBLE_FN inline
#endif

CLP_ASSEMBLE_FN ClpPrim clp_prim3(uint a, uint b, uint c, uint provoking, uint edges) {
  ClpPrim p;
  p.v[0] = a;
  p.v[1] = b;
  p.v[2] = c;
  p.n = 3;
  p.provoking = provoking;
  p.edges = edges;
  return p;
}

CLP_ASSEMBLE_FN ClpPrim clp_prim2(uint a, uint b, uint provoking) {
  ClpPrim p;
  p.v[0] = a;
  p.v[1] = b;
  p.v[2] = b;
  p.n = 2;
  p.provoking = provoking;
  p.edges = 1;
  return p;
}

CLP_ASSEMBLE_FN ClpPrim clp_prim1(uint a) {
  ClpPrim p;
  p.v[0] = a;
  p.v[1] = a;
  p.v[2] = a;
  p.n = 1;
  p.provoking = 0;
  p.edges = 0;
  return p;
}

// The primitives completed at position k. s = first position of k's restart segment,
// last = k is the last position of its segment. first = flatshade_first;
// quads_first = quads follow the provoking-vertex convention. Returns the count (0-2)
// and fills out[0..count).
CLP_ASSEMBLE_FN uint clp_assemble(uint mode, uint k, uint s, bool last, bool first,
                                  bool quads_first, ClpPrim* out) {
  const uint j = k - s;  // index within the segment
  switch (mode) {
    case CLP_PRIM_POINTS:
      out[0] = clp_prim1(k);
      return 1;
    case CLP_PRIM_LINES:
      if ((j & 1) != 1) return 0;
      out[0] = clp_prim2(k - 1, k, first ? 0 : 1);
      return 1;
    case CLP_PRIM_LINE_STRIP:
      if (j < 1) return 0;
      out[0] = clp_prim2(k - 1, k, first ? 0 : 1);
      return 1;
    case CLP_PRIM_LINE_LOOP: {
      uint n = 0;
      if (j >= 1) out[n++] = clp_prim2(k - 1, k, first ? 0 : 1);
      // The closing segment from the last vertex back to the first.
      if (last && j >= 1) out[n++] = clp_prim2(k, s, first ? 0 : 1);
      return n;
    }
    case CLP_PRIM_TRIANGLES:
      if (j % 3 != 2) return 0;
      out[0] = clp_prim3(k - 2, k - 1, k, first ? 0 : 2, 7);
      return 1;
    case CLP_PRIM_TRIANGLE_STRIP:
      if (j < 2) return 0;
      // Odd triangles swap their first two vertices to keep the winding; the provoking
      // vertex stays vertex i (first) or i+2 (last) of the strip.
      if ((j & 1) == 0) {
        out[0] = clp_prim3(k - 2, k - 1, k, first ? 0 : 2, 7);
      } else {
        out[0] = clp_prim3(k - 1, k - 2, k, first ? 1 : 2, 7);
      }
      return 1;
    case CLP_PRIM_TRIANGLE_FAN:
      if (j < 2) return 0;
      // flatshade_first provokes with the second vertex of each fan triangle (v_{j-1}).
      out[0] = clp_prim3(s, k - 1, k, first ? 1 : 2, 7);
      return 1;
    case CLP_PRIM_POLYGON:
      if (j < 2) return 0;
      // A fan from the first vertex, which always provokes; only outer edges are boundary.
      {
        uint e = 2u;          // edge v[1] -> v[2] is a polygon edge
        if (j == 2) e |= 1u;  // the first edge v0 -> v1
        if (last) e |= 4u;    // the closing edge v_last -> v0
        out[0] = clp_prim3(s, k - 1, k, 0, e);
      }
      return 1;
    case CLP_PRIM_QUADS: {
      if (j % 4 != 3) return 0;
      const uint a = k - 3, b = k - 2, c = k - 1, d = k;
      if (quads_first && first) {
        out[0] = clp_prim3(a, b, c, 0, 3);  // edges a-b, b-c
        out[1] = clp_prim3(a, c, d, 0, 6);  // edges c-d, d-a
      } else {
        out[0] = clp_prim3(a, b, d, 2, 5);  // edges a-b, d-a
        out[1] = clp_prim3(b, c, d, 2, 3);  // edges b-c, c-d
      }
      return 2;
    }
    case CLP_PRIM_QUAD_STRIP: {
      if (j < 3 || (j & 1) != 1) return 0;
      // Quad i uses vertices 2i, 2i+1, 2i+3, 2i+2 (in that order around the quad).
      const uint a = k - 3, b = k - 2, c = k, d = k - 1;
      if (quads_first && first) {
        out[0] = clp_prim3(a, b, c, 0, 3);
        out[1] = clp_prim3(a, c, d, 0, 6);
      } else {
        out[0] = clp_prim3(a, b, c, 2, 3);  // c = 2i+3 provokes
        out[1] = clp_prim3(a, c, d, 1, 6);
      }
      return 2;
    }
    case CLP_PRIM_LINES_ADJACENCY:
      if (j % 4 != 3) return 0;
      out[0] = clp_prim2(k - 2, k - 1, first ? 0 : 1);
      return 1;
    case CLP_PRIM_LINE_STRIP_ADJACENCY:
      if (j < 3) return 0;
      out[0] = clp_prim2(k - 2, k - 1, first ? 0 : 1);
      return 1;
    case CLP_PRIM_TRIANGLES_ADJACENCY:
      if (j % 6 != 5) return 0;
      out[0] = clp_prim3(k - 5, k - 3, k - 1, first ? 0 : 2, 7);
      return 1;
    case CLP_PRIM_TRIANGLE_STRIP_ADJACENCY: {
      if (j < 5 || (j & 1) != 1) return 0;
      // Triangle i (emitted at j = 2i + 5) is 2i, 2i+2, 2i+4, with the first two
      // swapped for odd i to keep the winding.
      const uint i = (j - 5) / 2;
      const uint v0 = s + 2 * i, v2 = s + 2 * i + 2, v4 = s + 2 * i + 4;
      if ((i & 1) == 0) {
        out[0] = clp_prim3(v0, v2, v4, first ? 0 : 2, 7);
      } else {
        out[0] = clp_prim3(v2, v0, v4, first ? 1 : 2, 7);
      }
      return 1;
    }
    default:
      return 0;
  }
}

#endif  // CLPIPE_PRIM_ASSEMBLE_H
