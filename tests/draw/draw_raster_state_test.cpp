// Rasterizer state: culling, unfilled polygons with edge flags, polygon offset,
// polygon stipple, scissor, rasterizer discard.
#include <catch2/catch.hpp>

#include <cstring>

#include "draw/draw_fixture.h"
#include "draw/reference_raster.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::frontend::draw;

namespace {

constexpr uint32_t kW = 32, kH = 32;

struct Run {
  DrawFixture fx;
  DrawSetup s;
  Run() {
    s = fx.basic_setup(kW, kH);
    s.vs = fx.passthrough_vs(2);
    s.fs = fx.varying_fs(0);
    s.fs_links = {ClpFsLink{1, -1, CLP_LINK_ALL_CHANNELS, {0, 0, 0, 1}}};
  }
  Image draw(const std::vector<std::array<float, 4>>& pos, PrimType mode = PrimType::TRIANGLES) {
    s.cbufs[0] = fx.target(Format::R32G32B32A32_FLOAT, kW, kH);
    std::vector<float> d;
    for (const auto& p : pos)
      d.insert(d.end(), {p[0], p[1], p[2], p[3], 1, 1, 1, 1});
    fx.set_vertices(s, d, 8, {Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT});
    DrawInfo info;
    info.mode = mode;
    fx.pipeline().draw(s, info, DrawStartCountBias{0, uint32_t(pos.size()), 0}, 0);
    return fx.read(s.cbufs[0], kW, kH);
  }
};

int count(const Image& img) {
  int n = 0;
  for (uint32_t y = 0; y < img.height; ++y)
    for (uint32_t x = 0; x < img.width; ++x)
      n += img.rgba(x, y)[3] != 0;
  return n;
}

}  // namespace

TEST_CASE("culling removes front, back or both faces", "[draw][rasterizer]") {
  Run r;
  // Two triangles: A counter-clockwise on screen (y down), B clockwise.
  const std::vector<std::array<float, 4>> a = {
      {-0.9f, -0.9f, 0, 1}, {-0.9f, 0.9f, 0, 1}, {0.0f, -0.9f, 0, 1}};
  const std::vector<std::array<float, 4>> b = {
      {0.1f, -0.9f, 0, 1}, {0.9f, -0.9f, 0, 1}, {0.1f, 0.9f, 0, 1}};
  const int na = count(r.draw(a)), nb = count(r.draw(b));
  REQUIRE(na > 50);
  REQUIRE(nb > 50);
  std::vector<std::array<float, 4>> both = a;
  both.insert(both.end(), b.begin(), b.end());
  for (int ccw = 0; ccw < 2; ++ccw) {
    r.s.rasterizer.front_ccw = ccw;
    // Window y grows downwards: A is counter-clockwise on screen, so front with front_ccw.
    const int front = ccw ? na : nb, back = ccw ? nb : na;
    r.s.rasterizer.cull_face = Face::NONE;
    CHECK(count(r.draw(both)) == na + nb);
    r.s.rasterizer.cull_face = Face::FRONT;
    CHECK(count(r.draw(both)) == back);
    r.s.rasterizer.cull_face = Face::BACK;
    CHECK(count(r.draw(both)) == front);
    r.s.rasterizer.cull_face = Face::FRONT_AND_BACK;
    CHECK(count(r.draw(both)) == 0);
  }
}

TEST_CASE("unfilled polygons draw boundary edges or vertices, not quad diagonals",
          "[draw][rasterizer]") {
  Run r;
  // A quad with corners on pixel centres: (4.5, 4.5) .. (24.5, 20.5) in window space.
  auto ndc = [](float x, float y) {
    return std::array<float, 4>{x / kW * 2 - 1, y / kH * 2 - 1, 0, 1};
  };
  const std::vector<std::array<float, 4>> q = {ndc(4.5f, 4.5f), ndc(24.5f, 4.5f), ndc(24.5f, 20.5f),
                                               ndc(4.5f, 20.5f)};
  r.s.rasterizer.fill_front = r.s.rasterizer.fill_back = PolygonMode::LINE;
  Image img = r.draw(q, PrimType::QUADS);
  // The outline: 4 lines of 20, 16, 20, 16 pixels (each drops its last pixel).
  CHECK(count(img) == 72);
  CHECK(img.rgba(14, 4)[3] != 0);
  CHECK(img.rgba(14, 12)[3] == 0);  // no diagonal, no interior
  CHECK(img.rgba(24, 12)[3] != 0);
  r.s.rasterizer.fill_front = r.s.rasterizer.fill_back = PolygonMode::POINT;
  r.s.rasterizer.point_size = 1.0f;
  img = r.draw(q, PrimType::QUADS);
  CHECK(count(img) == 4);
  CHECK(img.rgba(4, 4)[3] != 0);
  CHECK(img.rgba(24, 20)[3] != 0);
  // Fill modes per face: a back-facing quad stays filled.
  r.s.rasterizer.fill_front = PolygonMode::POINT;
  r.s.rasterizer.fill_back = PolygonMode::FILL;
  r.s.rasterizer.front_ccw = false;
  const int filled = count(r.draw(q, PrimType::QUADS));
  r.s.rasterizer.front_ccw = true;
  const int points = count(r.draw(q, PrimType::QUADS));
  CHECK(std::max(filled, points) == 20 * 16);
  CHECK(std::min(filled, points) == 4);
}

TEST_CASE("edge flags of the vertex shader hide edges and vertices of unfilled polygons",
          "[draw][rasterizer]") {
  Run r;
  r.s.vs = r.fx.passthrough_vs(3);
  r.s.outputs.edgeflag_reg = 2;  // the VS copies GL's edge flag attribute to EDGEFLAG
  auto ndc = [](float x, float y) { return std::array<float, 2>{x / kW * 2 - 1, y / kH * 2 - 1}; };
  // One triangle with corners on pixel centres; vertex i carries edge flag flags[i].
  const std::array<float, 2> v[3] = {ndc(4.5f, 4.5f), ndc(24.5f, 4.5f), ndc(4.5f, 24.5f)};
  auto draw = [&](const float flags[3]) {
    r.s.cbufs[0] = r.fx.target(Format::R32G32B32A32_FLOAT, kW, kH);
    std::vector<float> d;
    for (int i = 0; i < 3; ++i)
      d.insert(d.end(), {v[i][0], v[i][1], 0, 1, 1, 1, 1, 1, flags[i], 0, 0, 1});
    r.fx.set_vertices(
        r.s, d, 12,
        {Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT});
    DrawInfo info;
    r.fx.pipeline().draw(r.s, info, DrawStartCountBias{0, 3, 0}, 0);
    return r.fx.read(r.s.cbufs[0], kW, kH);
  };
  r.s.rasterizer.fill_front = r.s.rasterizer.fill_back = PolygonMode::POINT;
  const float all[3] = {1, 1, 1}, second_off[3] = {1, 0, 1}, none[3] = {0, 0, 0};
  CHECK(count(draw(all)) == 3);
  Image img = draw(second_off);
  CHECK(count(img) == 2);
  CHECK(img.rgba(24, 4)[3] == 0);  // vertex 1 starts no drawn edge
  CHECK(img.rgba(4, 4)[3] != 0);
  CHECK(count(draw(none)) == 0);
  // Lines: the edge from vertex 1 to vertex 2 (the diagonal) disappears.
  r.s.rasterizer.fill_front = r.s.rasterizer.fill_back = PolygonMode::LINE;
  const int outline = count(draw(all));
  img = draw(second_off);
  CHECK(img.rgba(14, 14)[3] == 0);  // on the diagonal
  CHECK(img.rgba(14, 4)[3] != 0);   // edge 0 -> 1 stays
  CHECK(count(img) < outline);
  CHECK(count(draw(none)) == 0);
  // Filled polygons ignore edge flags.
  r.s.rasterizer.fill_front = r.s.rasterizer.fill_back = PolygonMode::FILL;
  CHECK(count(draw(none)) == count(draw(all)));
}

TEST_CASE("polygon offset moves depth by slope and units, within the clamp", "[draw][rasterizer]") {
  Run r;
  r.s.zsbuf = r.fx.target(Format::Z32_FLOAT, kW, kH);
  std::vector<float> far(kW * kH, 1.0f);
  r.s.dsa.depth_enabled = true;
  r.s.dsa.depth_writemask = true;
  r.s.dsa.depth_func = CompareFunc::ALWAYS;
  // Draws a plane with window depth from 0.25 to 0.75 across the window (1/64 per pixel)
  // into the depth buffer and returns the buffer's word at pixel (x, y).
  auto draw_plane = [&](float units, float scale, float clampv, uint32_t x, uint32_t y) {
    r.s.rasterizer.offset_tri = true;
    r.s.rasterizer.offset_units = units;
    r.s.rasterizer.offset_scale = scale;
    r.s.rasterizer.offset_clamp = clampv;
    r.draw({{-1, -1, -0.5f, 1},
            {1, -1, 0.5f, 1},
            {-1, 1, -0.5f, 1},
            {1, -1, 0.5f, 1},
            {1, 1, 0.5f, 1},
            {-1, 1, -0.5f, 1}});
    Image z = r.fx.read(r.s.zsbuf, kW, kH);
    uint32_t v;
    std::memcpy(&v, z.pixel(x, y), 4);
    return v;
  };
  auto depth_at = [&](float units, float scale, float clampv, float x, float y) {
    r.s.zsbuf.buffer = r.fx.buffer(far.data(), far.size() * 4);
    const uint32_t bits = draw_plane(units, scale, clampv, uint32_t(x), uint32_t(y));
    float v;
    std::memcpy(&v, &bits, 4);
    return v;
  };
  const float base = depth_at(0, 0, 0, 16, 16);
  CHECK(base == Approx(0.25f + 16.5f / 64).margin(1e-6));
  CHECK(depth_at(0, 2, 0, 16, 16) - base == Approx(2.0f / 64).margin(1e-6));  // slope * 2
  // Float depth: r = 2^(exponent of max |z| - 23); max z is 0.75, exponent -1.
  CHECK(depth_at(4, 0, 0, 16, 16) - base == Approx(4 * std::ldexp(1.0f, -24)).margin(1e-9));
  CHECK(depth_at(0, 10, 0.01f, 16, 16) - base == Approx(0.01f).margin(1e-6));
  CHECK(depth_at(0, -10, -0.01f, 16, 16) - base == Approx(-0.01f).margin(1e-6));

  // Fixed-point depth: one unit of offset is two units of the buffer (the minimum
  // resolvable difference of float positions, draw_params.cpp).
  r.s.zsbuf = r.fx.target(Format::Z24_UNORM_S8_UINT, kW, kH);
  std::vector<uint32_t> cleared(kW * kH, 0x00ffffffu);
  auto z24_at = [&](float units) {
    r.s.zsbuf.buffer = r.fx.buffer(cleared.data(), cleared.size() * 4);
    return int64_t(draw_plane(units, 0, 0, 16, 16) & 0xffffffu);
  };
  const int64_t z24 = z24_at(0);
  CHECK(z24_at(1) - z24 == 2);
  CHECK(z24_at(-3) - z24 == -6);
}

TEST_CASE("polygon stipple, scissor and rasterizer discard", "[draw][rasterizer]") {
  Run r;
  const std::vector<std::array<float, 4>> full = {{-1, -1, 0, 1}, {1, -1, 0, 1}, {-1, 1, 0, 1},
                                                  {1, -1, 0, 1},  {1, 1, 0, 1},  {-1, 1, 0, 1}};
  r.s.rasterizer.poly_stipple_enable = true;
  for (int y = 0; y < 32; ++y)
    r.s.stipple.stipple[y] = (y & 1) ? 0x80000001u : 0xf0000000u;
  Image img = r.draw(full);
  for (uint32_t y = 0; y < kH; ++y) {
    for (uint32_t x = 0; x < kW; ++x) {
      const uint32_t row = r.s.stipple.stipple[y & 31];
      CHECK((img.rgba(x, y)[3] != 0) == bool((row >> (31 - (x & 31))) & 1));
    }
  }
  r.s.rasterizer.poly_stipple_enable = false;
  r.s.rasterizer.scissor = true;
  r.s.scissor = ScissorState{3, 5, 20, 9};
  img = r.draw(full);
  for (uint32_t y = 0; y < kH; ++y)
    for (uint32_t x = 0; x < kW; ++x)
      CHECK((img.rgba(x, y)[3] != 0) == (x >= 3 && x < 20 && y >= 5 && y < 9));
  r.s.rasterizer.scissor = false;
  r.s.rasterizer.rasterizer_discard = true;
  CHECK(count(r.draw(full)) == 0);
}

TEST_CASE("triangles past the viewport are cut at its edge, as clipping would",
          "[draw][rasterizer][clip]") {
  Run r;
  // The left half of the target: NDC x in [-1, 1] is window x in [0, 16).
  r.s.viewport.scale[0] = 8;
  r.s.viewport.translate[0] = 8;
  // A rectangle from NDC x = -1 to 3 (window 0 to 32): inside the guard band, so it is not
  // clipped geometrically.
  const std::vector<std::array<float, 4>> wide = {{-1, -1, 0, 1}, {3, -1, 0, 1}, {-1, 1, 0, 1},
                                                  {3, -1, 0, 1},  {3, 1, 0, 1},  {-1, 1, 0, 1}};
  auto columns = [&](uint32_t from, uint32_t to) {
    const Image img = r.draw(wide);
    for (uint32_t y = 0; y < kH; ++y)
      for (uint32_t x = 0; x < kW; ++x)
        CHECK((img.rgba(x, y)[3] != 0) == (x >= from && x < to));
  };
  columns(0, 16);
  // With a scissor box, both.
  r.s.rasterizer.scissor = true;
  r.s.scissor = ScissorState{10, 0, 30, 32};
  columns(10, 16);
  r.s.rasterizer.scissor = false;
  // A viewport of [0.25, 16.75): the pixels whose centres are inside, 0 to 16.
  r.s.viewport.scale[0] = 8.25f;
  r.s.viewport.translate[0] = 8.5f;
  columns(0, 17);
}
