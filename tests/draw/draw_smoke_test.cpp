// First light: one triangle through every pass.
#include <catch2/catch.hpp>

#include "draw/draw_fixture.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::frontend::draw;

TEST_CASE("a triangle covers its pixels with interpolated colour", "[draw][smoke]") {
  DrawFixture fx;
  const uint32_t W = 32, H = 32;
  DrawSetup s = fx.basic_setup(W, H);
  s.vs = fx.passthrough_vs(2);
  s.fs = fx.varying_fs();
  s.fs_links = {ClpFsLink{1, -1, CLP_LINK_ALL_CHANNELS, {0, 0, 0, 1}}};
  s.cbufs[0] = fx.target(Format::R32G32B32A32_FLOAT, W, H);
  // A right triangle over the top-left half (y down in window space: NDC y is up).
  fx.set_vertices(s, {-1, 1,  0, 1, 1, 0, 0, 1,  //
                      1,  1,  0, 1, 0, 1, 0, 1,  //
                      -1, -1, 0, 1, 0, 0, 1, 1},
                  8, {Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT});
  DrawInfo info;
  info.mode = PrimType::TRIANGLES;
  fx.pipeline().draw(s, info, DrawStartCountBias{0, 3, 0}, 0);
  CHECK(fx.pipeline().last_stats().records == 1);
  Image img = fx.read(s.cbufs[0], W, H);
  int covered = 0;
  for (uint32_t y = 0; y < H; ++y) {
    for (uint32_t x = 0; x < W; ++x) {
      auto c = img.rgba(x, y);
      // Window space: vertex 0 at (0, 32), vertex 1 at (32, 32), vertex 2 at (0, 0).
      const float sx = x + 0.5f, sy = y + 0.5f;
      const bool inside = sx + (32 - sy) < 32 || (sx + (32 - sy) == 32 && false);
      if (c[3] != 0) ++covered;
      INFO("pixel " << x << "," << y);
      CHECK((c[3] != 0) == inside);
      if (inside) {
        // Barycentrics in window space (affine: w = 1).
        const float b2 = 1 - sy / 32, b1 = sx / 32, b0 = 1 - b1 - b2;
        CHECK(c[0] == Approx(b0).margin(1e-4));
        CHECK(c[1] == Approx(b1).margin(1e-4));
        CHECK(c[2] == Approx(b2).margin(1e-4));
      }
    }
  }
  CHECK(covered == 32 * 31 / 2 + 16 * 0);
}
