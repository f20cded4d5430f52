// Points and lines: GL's rules for size, width, centres and the diamond-exit
// convention (start pixel drawn, end pixel not), sprite coordinates.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "draw/draw_fixture.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::frontend::draw;

namespace {

constexpr uint32_t kW = 64, kH = 48;

struct PrimRun {
  DrawFixture fx;
  DrawSetup s;
  explicit PrimRun(int interp = 0) {
    s = fx.basic_setup(kW, kH);
    s.vs = fx.passthrough_vs(2);
    s.fs = fx.varying_fs(interp);
    s.fs_links = {ClpFsLink{1, -1, CLP_LINK_ALL_CHANNELS, {0, 0, 0, 1}}};
  }
  // Draws vertices given in window coordinates; returns the image.
  Image draw(PrimType mode, const std::vector<std::array<float, 2>>& win,
             const std::vector<std::array<float, 4>>& attr = {}) {
    s.cbufs[0] = fx.target(Format::R32G32B32A32_FLOAT, kW, kH);
    std::vector<float> d;
    for (size_t i = 0; i < win.size(); ++i) {
      const float x = win[i][0] / kW * 2 - 1, y = win[i][1] / kH * 2 - 1;
      std::array<float, 4> a = attr.empty() ? std::array<float, 4>{1, 1, 1, 1} : attr[i];
      d.insert(d.end(), {x, y, 0, 1, a[0], a[1], a[2], a[3]});
    }
    fx.set_vertices(s, d, 8, {Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT});
    DrawInfo info;
    info.mode = mode;
    fx.pipeline().draw(s, info, DrawStartCountBias{0, uint32_t(win.size()), 0}, 0);
    return fx.read(s.cbufs[0], kW, kH);
  }
};

bool drawn(const Image& img, int x, int y) {
  return x >= 0 && y >= 0 && x < int(kW) && y < int(kH) && img.rgba(x, y)[3] != 0.0f;
}

}  // namespace

TEST_CASE("width-1 lines draw one pixel per major step, start in, end out", "[draw][lines]") {
  PrimRun r;
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> px(2, 60), py(2, 44);
  for (int i = 0; i < 40; ++i) {
    // Endpoints on pixel centres, as GL's diamond-exit rule is usually exercised.
    const int x0 = px(rng), y0 = py(rng), x1 = px(rng), y1 = py(rng);
    if (x0 == x1 && y0 == y1) continue;
    const bool xmajor = std::abs(x1 - x0) >= std::abs(y1 - y0);
    Image img = r.draw(PrimType::LINES, {{x0 + 0.5f, y0 + 0.5f}, {x1 + 0.5f, y1 + 0.5f}});
    INFO("line " << x0 << "," << y0 << " -> " << x1 << "," << y1);
    const int major0 = xmajor ? x0 : y0, major1 = xmajor ? x1 : y1;
    const int step = major1 > major0 ? 1 : -1;
    int total = 0;
    for (int m = 0; m < int(xmajor ? kW : kH); ++m) {
      int count = 0;
      for (int n = 0; n < int(xmajor ? kH : kW); ++n)
        count += drawn(img, xmajor ? m : n, xmajor ? n : m);
      total += count;
      const bool on_line = step > 0 ? (m >= major0 && m < major1) : (m <= major0 && m > major1);
      CHECK(count == (on_line ? 1 : 0));
      if (on_line && count == 1) {
        // The pixel lies within half a pixel of the line at the major-axis centre.
        const float t = float(m - major0) / float(major1 - major0);
        const float minor = (xmajor ? y0 : x0) + t * float((xmajor ? y1 : x1) - (xmajor ? y0 : x0));
        for (int n = 0; n < int(xmajor ? kH : kW); ++n) {
          if (drawn(img, xmajor ? m : n, xmajor ? n : m)) CHECK(std::abs(float(n) - minor) <= 0.5f);
        }
      }
    }
    CHECK(total == std::abs(major1 - major0));
  }
}

TEST_CASE("line_last_pixel, wide lines and line attributes", "[draw][lines]") {
  PrimRun r(2);
  r.s.rasterizer.line_last_pixel = true;
  Image img = r.draw(PrimType::LINES, {{10.5f, 20.5f}, {30.5f, 20.5f}});
  for (int x = 0; x < int(kW); ++x)
    CHECK(drawn(img, x, 20) == (x >= 10 && x <= 30));
  r.s.rasterizer.line_last_pixel = false;
  r.s.rasterizer.line_width = 3.0f;
  img = r.draw(PrimType::LINES, {{10.5f, 20.5f}, {30.5f, 20.5f}}, {{0, 0, 0, 1}, {1, 0, 0, 1}});
  for (int x = 0; x < int(kW); ++x) {
    for (int y = 15; y < 26; ++y)
      CHECK(drawn(img, x, y) == (x >= 10 && x < 30 && y >= 19 && y <= 21));
  }
  // The attribute runs from 0 at the start to 1 at the end.
  CHECK(img.rgba(10, 20)[0] == Approx(0.0f).margin(1e-5));
  CHECK(img.rgba(20, 20)[0] == Approx(0.5f).margin(1e-5));
  CHECK(img.rgba(29, 21)[0] == Approx(0.95f).margin(1e-5));
}

TEST_CASE("points cover size x size pixels around their centre", "[draw][points]") {
  PrimRun r;
  for (float size : {1.0f, 2.0f, 3.0f, 4.0f, 7.0f}) {
    r.s.rasterizer.point_size = size;
    const float cx = 20.3f, cy = 15.8f;
    Image img = r.draw(PrimType::POINTS, {{cx, cy}});
    // Aliased points: odd sizes centre on the pixel centre, even sizes on a corner.
    const int s = int(size);
    const int x0 = (s & 1) ? int(std::floor(cx)) - s / 2 : int(std::floor(cx + 0.5f)) - s / 2;
    const int y0 = (s & 1) ? int(std::floor(cy)) - s / 2 : int(std::floor(cy + 0.5f)) - s / 2;
    INFO("size " << size);
    for (int y = 0; y < int(kH); ++y) {
      for (int x = 0; x < int(kW); ++x) {
        CHECK(drawn(img, x, y) == (x >= x0 && x < x0 + s && y >= y0 && y < y0 + s));
      }
    }
  }
}

TEST_CASE("a point of whole pixels is one record with its vertex's exact attributes",
          "[draw][points]") {
  // prim_emit.h's clp_emit_square: one record, not the square's two triangles, with
  // constant barycentrics that sum to exactly 1 (perspective division included: w = 2).
  PrimRun r(2);  // perspective-correct
  const float attrs[3][4] = {{0.1f, 0.7f, 1.0f / 3.0f, 0.9f},
                             {0.123456f, 0.5f, 0.987654f, 1.0f},
                             {1e-3f, 2.5f, 0.3f, 0.6f}};
  const float centres[3][2] = {{10.2f, 9.7f}, {31.5f, 20.5f}, {50.9f, 40.1f}};
  for (bool half : {true, false}) {
    for (float size : {1.0f, 2.0f, 5.0f}) {
      r.s.rasterizer.point_size = size;
      r.s.rasterizer.half_pixel_center = half;
      r.s.cbufs[0] = r.fx.target(Format::R32G32B32A32_FLOAT, kW, kH);
      std::vector<float> d;
      for (int i = 0; i < 3; ++i) {
        const float x = centres[i][0] / kW * 2 - 1, y = centres[i][1] / kH * 2 - 1;
        d.insert(d.end(),
                 {2 * x, 2 * y, 0.5f, 2, attrs[i][0], attrs[i][1], attrs[i][2], attrs[i][3]});
      }
      r.fx.set_vertices(r.s, d, 8, {Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT});
      DrawInfo info;
      info.mode = PrimType::POINTS;
      r.fx.pipeline().draw(r.s, info, DrawStartCountBias{0, 3, 0}, 0);
      INFO("size " << size << " half_pixel_center " << half);
      CHECK(r.fx.pipeline().last_stats().records == 3);
      const Image img = r.fx.read(r.s.cbufs[0], kW, kH);
      const int s = int(size);
      uint32_t covered = 0;
      for (int i = 0; i < 3; ++i) {
        // The pixels whose sample point (centre, or corner without half_pixel_center)
        // lies in the square snapped as GL's aliased points are.
        const float off = half ? 0.5f : 0.0f;
        const float c = (s & 1) ? std::floor(centres[i][0] - off + 0.5f) + off
                                : std::floor(centres[i][0] - off) + off + 0.5f;
        const float cy = (s & 1) ? std::floor(centres[i][1] - off + 0.5f) + off
                                 : std::floor(centres[i][1] - off) + off + 0.5f;
        for (int y = 0; y < int(kH); ++y) {
          for (int x = 0; x < int(kW); ++x) {
            const float sx = x + off, sy = y + off;
            if (std::abs(sx - c) >= size / 2 || std::abs(sy - cy) >= size / 2) continue;
            ++covered;
            const std::array<float, 4> px = img.rgba(x, y);
            for (int ch = 0; ch < 4; ++ch)
              CHECK(px[ch] == attrs[i][ch]);
          }
        }
      }
      uint32_t drawn_pixels = 0;
      for (int y = 0; y < int(kH); ++y)
        for (int x = 0; x < int(kW); ++x)
          drawn_pixels += drawn(img, x, y);
      CHECK(covered == 3u * s * s);
      CHECK(drawn_pixels == covered);
    }
  }
}

TEST_CASE("point sprites get texture coordinates across the square", "[draw][points]") {
  PrimRun r;
  r.s.rasterizer.point_quad_rasterization = true;
  r.s.rasterizer.point_size = 8.0f;
  r.s.fs_links[0].flags = CLP_LINK_SPRITE;  // the input is replaced by the sprite coordinate
  for (int mode = 0; mode < 2; ++mode) {
    r.s.rasterizer.sprite_coord_mode =
        mode ? SpriteCoordMode::LOWER_LEFT : SpriteCoordMode::UPPER_LEFT;
    Image img = r.draw(PrimType::POINTS, {{24.0f, 16.0f}});
    for (int y = 12; y < 20; ++y) {
      for (int x = 20; x < 28; ++x) {
        auto c = img.rgba(x, y);
        const float s = (x + 0.5f - 20.0f) / 8.0f, t = (y + 0.5f - 12.0f) / 8.0f;
        CHECK(c[0] == Approx(s).margin(1e-5));
        CHECK(c[1] == Approx(mode ? 1 - t : t).margin(1e-5));
        CHECK(c[3] == 1.0f);
      }
    }
    CHECK_FALSE(drawn(img, 19, 16));
    CHECK_FALSE(drawn(img, 28, 16));
  }
}

TEST_CASE("points and lines take record slots, and the slots they leave draw nothing",
          "[draw][points][lines]") {
  // prim.cl's clp_records_bound: a point or line draw's count pass counts each
  // primitive's most records, and the write pass fills what the primitive leaves (clipped,
  // zero length) with empty records. Exact records (what a pipeline statistics query
  // reads) leave those out; both draw the same pixels.
  const std::vector<std::array<float, 2>> points = {
      {10.5f, 10.5f}, {-20.0f, 10.0f}, {30.5f, 20.5f}, {10.0f, 200.0f}, {60.5f, 40.5f}};
  const std::vector<std::array<float, 2>> lines = {
      {2.5f, 3.5f},  {40.5f, 30.5f}, {-30.0f, 5.0f}, {-10.0f, 40.0f},  // inside, outside
      {5.5f, 44.5f}, {60.5f, 44.5f}, {20.0f, 20.0f}, {20.0f, 20.0f}};  // inside, no length
  struct Case {
    PrimType mode;
    bool sprites;
    uint32_t slots, exact;
  };
  for (const Case c : {Case{PrimType::POINTS, false, 5, 3}, Case{PrimType::POINTS, true, 10, 6},
                       Case{PrimType::LINES, false, 8, 4}}) {
    INFO("mode " << int(c.mode) << " sprites " << c.sprites);
    std::vector<Image> images;
    for (bool exact : {false, true}) {
      PrimRun r;
      r.s.exact_records = exact;
      r.s.rasterizer.point_size = 3.0f;
      r.s.rasterizer.point_quad_rasterization = c.sprites;
      images.push_back(r.draw(c.mode, c.mode == PrimType::POINTS ? points : lines));
      CHECK(r.fx.pipeline().last_stats().records == (exact ? c.exact : c.slots));
      CHECK(r.fx.pipeline().read_records().size() == c.exact);
    }
    CHECK(images[0].bytes == images[1].bytes);
    uint32_t drawn_pixels = 0;
    for (int y = 0; y < int(kH); ++y)
      for (int x = 0; x < int(kW); ++x)
        drawn_pixels += drawn(images[0], x, y);
    CHECK(drawn_pixels >= (c.mode == PrimType::POINTS ? 27u : 90u));
  }
}
