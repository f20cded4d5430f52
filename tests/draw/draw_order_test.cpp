// API order: overlapping translucent primitives must equal a sequential host blend,
// pixel for pixel, however the binning splits them into chunks and the tiles into bands.
#include <catch2/catch.hpp>

#include <random>

#include "draw/draw_fixture.h"
#include "draw/reference_raster.h"
#include "frontend/format_codec.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::frontend::draw;

namespace {

// N random translucent triangles over a W x H target, against the host's blend.
void check_api_order(uint32_t W, uint32_t H, int N) {
  INFO(W << "x" << H << ", " << N << " triangles");
  DrawFixture fx;
  DrawSetup s = fx.basic_setup(W, H);
  s.vs = fx.passthrough_vs(2);
  s.fs = fx.varying_fs(0);  // flat colour
  s.fs_links = {ClpFsLink{1, -1, CLP_LINK_ALL_CHANNELS, {0, 0, 0, 1}}};
  RtBlendState& b = s.blend.rt[0];
  b.blend_enable = true;
  b.rgb_src_factor = BlendFactor::SRC_ALPHA;
  b.rgb_dst_factor = BlendFactor::INV_SRC_ALPHA;
  b.alpha_src_factor = BlendFactor::ONE;
  b.alpha_dst_factor = BlendFactor::INV_SRC_ALPHA;
  const Format fmt = Format::R8G8B8A8_UNORM;
  s.cbufs[0] = fx.target(fmt, W, H, 0x40);

  std::mt19937 rng(31337);
  std::uniform_real_distribution<float> pos(-1.1f, 1.1f), col(0.0f, 1.0f), alpha(0.2f, 0.8f);
  std::vector<float> data;
  std::vector<std::array<RefVertex, 3>> tris;
  for (int i = 0; i < N; ++i) {
    const float c[4] = {col(rng), col(rng), col(rng), alpha(rng)};
    std::array<RefVertex, 3> t;
    for (auto& v : t) {
      v.pos = {pos(rng), pos(rng), 0, 1};
      v.attr = {c[0], c[1], c[2], c[3]};
      data.insert(data.end(), v.pos.begin(), v.pos.end());
      data.insert(data.end(), c, c + 4);
    }
    tris.push_back(t);
  }
  fx.set_vertices(s, data, 8, {Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT});
  DrawInfo info;
  fx.pipeline().draw(s, info, DrawStartCountBias{0, uint32_t(N * 3), 0}, 0);
  Image img = fx.read(s.cbufs[0], W, H);

  // The host: blend every triangle's fragments in order, at the format's precision.
  std::vector<std::array<float, 4>> ref(size_t(W) * H);
  {
    uint8_t init[4] = {0x40, 0x40, 0x40, 0x40};
    float v[4];
    frontend::unpack_rgba_float(fmt, init, v);
    for (auto& p : ref)
      p = {v[0], v[1], v[2], v[3]};
  }
  const RefState rs = ref_state(W, H);
  for (const auto& t : tris) {
    for (const RefFragment& f : ref_triangle(rs, t[0], t[1], t[2])) {
      std::array<float, 4>& d = ref[size_t(f.y) * W + f.x];
      const float* sc = t[2].attr.data();  // flat: the last vertex provokes
      const float sa = sc[3];
      float out[4];
      for (int k = 0; k < 3; ++k)
        out[k] = sc[k] * sa + d[k] * (1.0f - sa);
      out[3] = sa * 1.0f + d[3] * (1.0f - sa);
      uint8_t packed[4];
      frontend::pack_rgba_float(fmt, out, packed);
      frontend::unpack_rgba_float(fmt, packed, d.data());
    }
  }
  int bad = 0;
  for (uint32_t y = 0; y < H; ++y) {
    for (uint32_t x = 0; x < W; ++x) {
      uint8_t want[4];
      frontend::pack_rgba_float(fmt, ref[size_t(y) * W + x].data(), want);
      const uint8_t* got = img.pixel(x, y);
      if (std::memcmp(want, got, 4) != 0) {
        if (bad < 5) {
          UNSCOPED_INFO("pixel " << x << "," << y << ": " << int(got[0]) << " " << int(got[1])
                                 << " " << int(got[2]) << " " << int(got[3]) << " vs "
                                 << int(want[0]) << " " << int(want[1]) << " " << int(want[2])
                                 << " " << int(want[3]));
        }
        ++bad;
      }
    }
  }
  CHECK(fx.pipeline().last_stats().records >= uint32_t(N) * 9 / 10);
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("hundreds of translucent triangles blend in API order", "[draw][order]") {
  // Several binning chunks (a chunk is 64 records), a band per tile.
  check_api_order(80, 56, 600);
  // 19 x 13 tiles for ~28 bands of 9 tiles: bands end inside tile rows.
  check_api_order(304, 208, 600);
  // One chunk and 19 x 15 tiles: more tiles than work-items, bands of 2 tiles that
  // straddle rows (19 is odd).
  check_api_order(304, 240, 40);
}
