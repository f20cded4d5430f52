// Primitive assembly: every PIPE_PRIM type yields the expected primitives, in API order,
// with the right provoking vertex; primitive restart, loop closing and strip winding.
#include <catch2/catch.hpp>

#include <tuple>

#include "draw/draw_fixture.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::frontend::draw;

namespace {

// (v0, v1, v2, provoking vertex) of an assembled primitive, as setup records show it.
using Prim = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>;

// Vertices on a circle so that no primitive is degenerate or culled, small enough that
// every primitive lands inside the window.
std::vector<float> ring(uint32_t n) {
  std::vector<float> d;
  for (uint32_t i = 0; i < n; ++i) {
    const float a = 6.2831853f * float(i) / float(n) + 0.1f * float(i % 3);
    const float r = 0.4f + 0.5f * float(i % 2);
    d.insert(d.end(), {r * std::cos(a), r * std::sin(a), 0, 1, float(i), 0, 0, 1});
  }
  return d;
}

struct AssemblyRun {
  DrawFixture fx;
  DrawSetup s;
  AssemblyRun() {
    s = fx.basic_setup(64, 64);
    s.vs = fx.passthrough_vs(2);
    s.fs = fx.varying_fs(0);
    s.fs_links = {ClpFsLink{1, -1, CLP_LINK_ALL_CHANNELS, {0, 0, 0, 1}}};
    s.cbufs[0] = fx.target(Format::R32G32B32A32_FLOAT, 64, 64);
    // Both faces, filled, no culling: each assembled triangle gives one record.
    s.rasterizer.cull_face = Face::NONE;
  }
  // Distinct primitives of the records (lines are two records each, the points here, of
  // whole pixels, one: prim_emit.h's clp_emit_square).
  std::vector<Prim> run(PrimType mode, uint32_t n, bool first = false,
                        const std::vector<uint32_t>* indices = nullptr, uint32_t restart = 0) {
    s.rasterizer.flatshade_first = first;
    fx.set_vertices(s, ring(16), 8, {Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT});
    DrawInfo info;
    info.mode = mode;
    if (indices) {
      s.index_buffer = fx.buffer(indices->data(), indices->size() * 4);
      s.index_offset = 0;
      s.index_size_bytes = indices->size() * 4;
      info.index_size = 4;
      info.primitive_restart = true;
      info.restart_index = restart;
    }
    fx.pipeline().draw(s, info, DrawStartCountBias{0, n, 0}, 0);
    std::vector<Prim> out;
    const std::vector<ClpTri> recs = fx.pipeline().read_records();
    for (size_t i = 0; i < recs.size(); ++i) {
      const ClpTri& t = recs[i];
      const uint32_t kind = (t.flags >> CLP_TRI_KIND_SHIFT) & 3;
      const uint32_t prov = t.vert[(t.flags >> CLP_TRI_PROVOKING_SHIFT) & 3];
      Prim p{t.vert[0], t.vert[1], t.vert[2], prov};
      if (kind == CLP_KIND_POINT) {
        for (int e = 0; e < 3; ++e)
          CHECK((t.edge_a[e] == 0 && t.edge_b[e] == 0));
      } else if (kind != CLP_KIND_TRIANGLE) {
        // The second half of a line's quad repeats the first.
        REQUIRE(i + 1 < recs.size());
        CHECK(recs[i + 1].vert[0] == t.vert[0]);
        CHECK(recs[i + 1].vert[1] == t.vert[1]);
        ++i;
      }
      out.push_back(p);
    }
    return out;
  }
};

}  // namespace

TEST_CASE("points, lines, loops and strips assemble in order", "[draw][assembly]") {
  AssemblyRun r;
  CHECK(r.run(PrimType::POINTS, 3) == std::vector<Prim>{{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}});
  CHECK(r.run(PrimType::LINES, 5) == std::vector<Prim>{{0, 1, 1, 1}, {2, 3, 3, 3}});
  CHECK(r.run(PrimType::LINES, 4, true) == std::vector<Prim>{{0, 1, 1, 0}, {2, 3, 3, 2}});
  CHECK(r.run(PrimType::LINE_STRIP, 4) ==
        std::vector<Prim>{{0, 1, 1, 1}, {1, 2, 2, 2}, {2, 3, 3, 3}});
  CHECK(r.run(PrimType::LINE_LOOP, 4) ==
        std::vector<Prim>{{0, 1, 1, 1}, {1, 2, 2, 2}, {2, 3, 3, 3}, {3, 0, 0, 0}});
  CHECK(r.run(PrimType::LINE_LOOP, 4, true) ==
        std::vector<Prim>{{0, 1, 1, 0}, {1, 2, 2, 1}, {2, 3, 3, 2}, {3, 0, 0, 3}});
  CHECK(r.run(PrimType::LINE_LOOP, 1).empty());
}

TEST_CASE("triangle types keep winding and provoking vertices", "[draw][assembly]") {
  AssemblyRun r;
  CHECK(r.run(PrimType::TRIANGLES, 7) == std::vector<Prim>{{0, 1, 2, 2}, {3, 4, 5, 5}});
  CHECK(r.run(PrimType::TRIANGLES, 6, true) == std::vector<Prim>{{0, 1, 2, 0}, {3, 4, 5, 3}});
  // Strips swap the first two vertices of odd triangles; the provoking vertex is still
  // vertex i (first) or i + 2 (last).
  CHECK(r.run(PrimType::TRIANGLE_STRIP, 5) ==
        std::vector<Prim>{{0, 1, 2, 2}, {2, 1, 3, 3}, {2, 3, 4, 4}});
  CHECK(r.run(PrimType::TRIANGLE_STRIP, 5, true) ==
        std::vector<Prim>{{0, 1, 2, 0}, {2, 1, 3, 1}, {2, 3, 4, 2}});
  // Fans: with flatshade_first the provoking vertex is the second of each triangle.
  CHECK(r.run(PrimType::TRIANGLE_FAN, 5) ==
        std::vector<Prim>{{0, 1, 2, 2}, {0, 2, 3, 3}, {0, 3, 4, 4}});
  CHECK(r.run(PrimType::TRIANGLE_FAN, 4, true) == std::vector<Prim>{{0, 1, 2, 1}, {0, 2, 3, 2}});
  // Polygons always provoke with the first vertex.
  CHECK(r.run(PrimType::POLYGON, 5) == std::vector<Prim>{{0, 1, 2, 0}, {0, 2, 3, 0}, {0, 3, 4, 0}});
  // Quads: two triangles each, the last vertex provoking (or the first, following the
  // provoking-vertex convention).
  CHECK(r.run(PrimType::QUADS, 9) ==
        std::vector<Prim>{{0, 1, 3, 3}, {1, 2, 3, 3}, {4, 5, 7, 7}, {5, 6, 7, 7}});
  CHECK(r.run(PrimType::QUADS, 4, true) == std::vector<Prim>{{0, 1, 2, 0}, {0, 2, 3, 0}});
  CHECK(r.run(PrimType::QUAD_STRIP, 6) ==
        std::vector<Prim>{{0, 1, 3, 3}, {0, 3, 2, 3}, {2, 3, 5, 5}, {2, 5, 4, 5}});
}

TEST_CASE("adjacency primitives drop their adjacent vertices", "[draw][assembly]") {
  AssemblyRun r;
  CHECK(r.run(PrimType::LINES_ADJACENCY, 8) == std::vector<Prim>{{1, 2, 2, 2}, {5, 6, 6, 6}});
  CHECK(r.run(PrimType::LINE_STRIP_ADJACENCY, 5) == std::vector<Prim>{{1, 2, 2, 2}, {2, 3, 3, 3}});
  CHECK(r.run(PrimType::TRIANGLES_ADJACENCY, 12) ==
        std::vector<Prim>{{0, 2, 4, 4}, {6, 8, 10, 10}});
  CHECK(r.run(PrimType::TRIANGLE_STRIP_ADJACENCY, 10) ==
        std::vector<Prim>{{0, 2, 4, 4}, {4, 2, 6, 6}, {4, 6, 8, 8}});
}

TEST_CASE("primitive restart ends strips, fans and loops, and indices are compared before the bias",
          "[draw][assembly]") {
  AssemblyRun r;
  // Positions (not index values) name post-transform vertices: position k holds index k.
  const std::vector<uint32_t> strip = {0, 1, 2, 3, 99, 5, 6, 7, 99, 9};
  CHECK(r.run(PrimType::TRIANGLE_STRIP, 10, false, &strip, 99) ==
        std::vector<Prim>{{0, 1, 2, 2}, {2, 1, 3, 3}, {5, 6, 7, 7}});
  const std::vector<uint32_t> tris = {0, 1, 99, 3, 4, 5, 6, 7};
  CHECK(r.run(PrimType::TRIANGLES, 8, false, &tris, 99) == std::vector<Prim>{{3, 4, 5, 5}});
  const std::vector<uint32_t> loop = {0, 1, 2, 99, 4, 5};
  CHECK(r.run(PrimType::LINE_LOOP, 6, false, &loop, 99) ==
        std::vector<Prim>{{0, 1, 1, 1}, {1, 2, 2, 2}, {2, 0, 0, 0}, {4, 5, 5, 5}, {5, 4, 4, 4}});
  const std::vector<uint32_t> fan = {0, 1, 2, 3, 99, 5, 6, 7};
  CHECK(r.run(PrimType::TRIANGLE_FAN, 8, false, &fan, 99) ==
        std::vector<Prim>{{0, 1, 2, 2}, {0, 2, 3, 3}, {5, 6, 7, 7}});
}
