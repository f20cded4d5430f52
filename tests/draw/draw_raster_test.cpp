// Rasterization against the host reference: coverage must be identical, interpolated
// values within 1e-4 (plus 1e-4 relative), for random triangles of every kind.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "draw/draw_fixture.h"
#include "draw/reference_raster.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::frontend::draw;

namespace {

constexpr uint32_t kW = 70, kH = 45;  // not tile multiples: partial tiles are exercised

struct TriangleRun {
  DrawFixture fx;
  DrawSetup setup;
  TriangleRun(int interp, bool half_pixel_center, bool bottom_edge_rule) {
    setup = fx.basic_setup(kW, kH);
    setup.vs = fx.passthrough_vs(2);
    setup.fs = fx.varying_fs(interp);
    setup.fs_links = {ClpFsLink{1, -1, CLP_LINK_ALL_CHANNELS, {0, 0, 0, 1}}};
    setup.rasterizer.half_pixel_center = half_pixel_center;
    setup.rasterizer.bottom_edge_rule = bottom_edge_rule;
  }
  Image draw(const RefVertex v[3]) {
    setup.cbufs[0] = fx.target(Format::R32G32B32A32_FLOAT, kW, kH);
    std::vector<float> data;
    for (int i = 0; i < 3; ++i) {
      data.insert(data.end(), v[i].pos.begin(), v[i].pos.end());
      data.insert(data.end(), v[i].attr.begin(), v[i].attr.end());
    }
    fx.set_vertices(setup, data, 8, {Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT});
    DrawInfo info;
    info.mode = PrimType::TRIANGLES;
    fx.pipeline().draw(setup, info, DrawStartCountBias{0, 3, 0}, 0);
    return fx.read(setup.cbufs[0], kW, kH);
  }
};

// Compares a drawn image (alpha 0 = not covered; attributes carry alpha 1) with the
// reference fragments; returns the number of mismatching pixels (reported via INFO).
int compare(const Image& img, const std::vector<RefFragment>& ref, bool linear) {
  std::vector<const RefFragment*> at(size_t(kW) * kH, nullptr);
  for (const RefFragment& f : ref)
    at[size_t(f.y) * kW + f.x] = &f;
  int bad = 0;
  for (uint32_t y = 0; y < kH; ++y) {
    for (uint32_t x = 0; x < kW; ++x) {
      auto c = img.rgba(x, y);
      const RefFragment* f = at[size_t(y) * kW + x];
      const bool drawn = c[3] != 0.0f;
      if (drawn != (f != nullptr)) {
        UNSCOPED_INFO("coverage differs at " << x << "," << y << " (drawn " << drawn << ")");
        ++bad;
        continue;
      }
      if (!f) continue;
      const std::vector<double>& want = linear ? f->linear : f->persp;
      for (int k = 0; k < 3; ++k) {
        const double tol = 1e-4 + 1e-4 * std::abs(want[k]);
        if (std::abs(c[k] - want[k]) > tol) {
          UNSCOPED_INFO("value " << k << " at " << x << "," << y << ": " << c[k] << " vs "
                                 << want[k]);
          ++bad;
          break;
        }
      }
    }
  }
  return bad;
}

RefVertex random_vertex(std::mt19937& rng, float extent, bool perspective) {
  std::uniform_real_distribution<float> pos(-extent, extent), w(0.5f, 3.0f), attr(-2.0f, 2.0f);
  RefVertex v;
  const float ww = perspective ? w(rng) : 1.0f;
  std::uniform_real_distribution<float> z(-0.9f * ww, 0.9f * ww);
  v.pos = {pos(rng) * ww, pos(rng) * ww, z(rng), ww};
  v.attr = {attr(rng), attr(rng), attr(rng), 1.0f};
  return v;
}

}  // namespace

TEST_CASE("random triangles cover exactly the reference's pixels", "[draw][raster]") {
  std::mt19937 rng(1234);
  for (int mode = 0; mode < 3; ++mode) {
    const bool half = mode != 1, bottom = mode == 2;
    TriangleRun run(2, half, bottom);
    RefState rs = ref_state(kW, kH);
    rs.half_pixel_center = half;
    rs.bottom_edge_rule = bottom;
    for (int i = 0; i < 60; ++i) {
      RefVertex v[3];
      const int kind = i % 6;
      for (auto& x : v) {
        switch (kind) {
          case 0:
            x = random_vertex(rng, 1.2f, false);
            break;  // ordinary, affine
          case 1:
            x = random_vertex(rng, 1.2f, true);
            break;  // perspective
          case 2:
            x = random_vertex(rng, 300.0f, true);
            break;  // huge (beyond the window)
          case 3:
            x = random_vertex(rng, 0.05f, false);
            break;  // tiny
          default:
            x = random_vertex(rng, 1.5f, true);
            break;
        }
      }
      if (kind == 4) {  // sliver: the third vertex near the first edge
        for (int k = 0; k < 2; ++k)
          v[2].pos[k] = 0.5f * (v[0].pos[k] + v[1].pos[k]) + 0.003f * v[2].pos[k];
        v[2].pos[3] = 0.5f * (v[0].pos[3] + v[1].pos[3]);
        v[2].pos[2] = 0.5f * (v[0].pos[2] + v[1].pos[2]);  // stays inside near/far
      }
      if (kind == 5) {  // off-screen
        for (auto& x : v)
          x.pos[0] += 5.0f * x.pos[3];
      }
      INFO("mode " << mode << " triangle " << i << " kind " << kind);
      CHECK(compare(run.draw(v), ref_triangle(rs, v[0], v[1], v[2]), false) == 0);
    }
  }
}

TEST_CASE("edges too long for 32-bit lane steps cover exactly the reference's pixels",
          "[draw][raster]") {
  // Wedges whose long edges (tens of thousands of pixels) cross the window: a block such
  // an edge crosses spans more than 2^31 of the edge function, so its lanes are tested in
  // 64 bits; the blocks either side are decided whole.
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f), angle(0.0f, 6.2831853f),
      width(0.05f, 3.0f);
  TriangleRun run(2, true, false);
  const RefState rs = ref_state(kW, kH);
  for (int i = 0; i < 24; ++i) {
    const float cx = unit(rng), cy = unit(rng), a = angle(rng);
    const float dx = std::cos(a), dy = std::sin(a), len = 400.0f, wd = width(rng);
    RefVertex v[3];
    const float px[3] = {cx - len * dx, cx + len * dx, cx + len * dx - wd * dy};
    const float py[3] = {cy - len * dy, cy + len * dy, cy + len * dy + wd * dx};
    for (int k = 0; k < 3; ++k) {
      v[k].pos = {px[k], py[k], 0.25f * unit(rng), 1.0f};
      v[k].attr = {unit(rng), unit(rng), unit(rng), 1.0f};
    }
    INFO("wedge " << i);
    const std::vector<RefFragment> ref = ref_triangle(rs, v[0], v[1], v[2]);
    CHECK(!ref.empty());
    CHECK(compare(run.draw(v), ref, false) == 0);
  }
}

TEST_CASE("noperspective inputs interpolate linearly in window space", "[draw][raster]") {
  std::mt19937 rng(99);
  TriangleRun run(1, true, false);
  RefState rs = ref_state(kW, kH);
  for (int i = 0; i < 10; ++i) {
    RefVertex v[3];
    for (auto& x : v)
      x = random_vertex(rng, 1.3f, true);
    INFO("triangle " << i);
    CHECK(compare(run.draw(v), ref_triangle(rs, v[0], v[1], v[2]), true) == 0);
  }
}

TEST_CASE("samples on shared edges and vertices are drawn exactly once", "[draw][raster]") {
  // A fan of triangles around a centre on a pixel centre, with edges through pixel
  // centres, drawn with additive blending: every covered pixel must count 1.
  DrawFixture fx;
  DrawSetup s = fx.basic_setup(kW, kH);
  s.vs = fx.passthrough_vs(2);
  s.fs = fx.varying_fs(0);  // flat
  s.fs_links = {ClpFsLink{1, -1, CLP_LINK_ALL_CHANNELS, {0, 0, 0, 1}}};
  s.cbufs[0] = fx.target(Format::R32_FLOAT, kW, kH);
  s.blend.rt[0].blend_enable = true;
  s.blend.rt[0].rgb_dst_factor = BlendFactor::ONE;
  s.blend.rt[0].alpha_dst_factor = BlendFactor::ONE;
  // Window (x, y) -> NDC with pixel-centre vertices.
  auto ndc = [](float x, float y) {
    return std::array<float, 4>{x / kW * 2 - 1, y / kH * 2 - 1, 0, 1};
  };
  const float cx = 30.5f, cy = 20.5f;
  const float ring[][2] = {{5.5f, 2.5f},   {30.5f, 1.5f},  {60.5f, 3.5f}, {66.5f, 20.5f},
                           {58.5f, 40.5f}, {30.5f, 43.5f}, {4.5f, 38.5f}, {2.5f, 20.5f}};
  std::vector<float> data;
  for (int i = 0; i < 8; ++i) {
    const float* p = ring[i];
    const float* q = ring[(i + 1) % 8];
    for (auto pt : {ndc(cx, cy), ndc(p[0], p[1]), ndc(q[0], q[1])}) {
      data.insert(data.end(), pt.begin(), pt.end());
      data.insert(data.end(), {1, 0, 0, 1});
    }
  }
  fx.set_vertices(s, data, 8, {Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT});
  for (int rule = 0; rule < 2; ++rule) {
    s.rasterizer.bottom_edge_rule = rule == 1;
    s.cbufs[0] = fx.target(Format::R32_FLOAT, kW, kH);
    DrawInfo info;
    fx.pipeline().draw(s, info, DrawStartCountBias{0, 24, 0}, 0);
    Image img = fx.read(s.cbufs[0], kW, kH);
    int overlaps = 0, covered = 0;
    for (uint32_t y = 0; y < kH; ++y) {
      for (uint32_t x = 0; x < kW; ++x) {
        float v = img.rgba(x, y)[0];
        if (v > 1.0f) ++overlaps;
        if (v > 0.0f) ++covered;
      }
    }
    CHECK(overlaps == 0);
    CHECK(covered > 1500);
  }
}

TEST_CASE("a mesh of many small triangles covers every pixel exactly once", "[draw][raster]") {
  DrawFixture fx;
  const uint32_t W = 97, H = 61;
  DrawSetup s = fx.basic_setup(W, H);
  s.vs = fx.passthrough_vs(2);
  s.fs = fx.varying_fs(0);
  s.fs_links = {ClpFsLink{1, -1, CLP_LINK_ALL_CHANNELS, {0, 0, 0, 1}}};
  s.cbufs[0] = fx.target(Format::R32_FLOAT, W, H);
  s.blend.rt[0].blend_enable = true;
  s.blend.rt[0].rgb_dst_factor = BlendFactor::ONE;
  s.blend.rt[0].alpha_dst_factor = BlendFactor::ONE;
  // A jittered grid over (and beyond) the window; shared vertices are bit-identical.
  const int N = 23, M = 17;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> jit(-0.35f, 0.35f);
  std::vector<std::array<float, 2>> g((N + 1) * (M + 1));
  for (int j = 0; j <= M; ++j) {
    for (int i = 0; i <= N; ++i) {
      const bool border = i == 0 || j == 0 || i == N || j == M;
      float x = -1.05f + 2.1f * i / N + (border ? 0 : jit(rng) * 2.1f / N);
      float y = -1.05f + 2.1f * j / M + (border ? 0 : jit(rng) * 2.1f / M);
      g[j * (N + 1) + i] = {x, y};
    }
  }
  std::vector<float> data;
  auto put = [&](int i, int j) {
    auto p = g[j * (N + 1) + i];
    data.insert(data.end(), {p[0], p[1], 0, 1, 1, 0, 0, 1});
  };
  for (int j = 0; j < M; ++j) {
    for (int i = 0; i < N; ++i) {
      put(i, j), put(i + 1, j), put(i + 1, j + 1);
      put(i, j), put(i + 1, j + 1), put(i, j + 1);
    }
  }
  fx.set_vertices(s, data, 8, {Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT});
  DrawInfo info;
  fx.pipeline().draw(s, info, DrawStartCountBias{0, uint32_t(data.size() / 8), 0}, 0);
  Image img = fx.read(s.cbufs[0], W, H);
  int wrong = 0;
  for (uint32_t y = 0; y < H; ++y) {
    for (uint32_t x = 0; x < W; ++x) {
      if (img.rgba(x, y)[0] != 1.0f) {
        if (wrong < 10) UNSCOPED_INFO("pixel " << x << "," << y << " = " << img.rgba(x, y)[0]);
        ++wrong;
      }
    }
  }
  CHECK(wrong == 0);
}

TEST_CASE("triangles crossing the near and far planes are clipped there", "[draw][raster][clip]") {
  std::mt19937 rng(4242);
  TriangleRun run(2, true, false);
  RefState rs = ref_state(kW, kH);
  std::uniform_real_distribution<float> pos(-1.0f, 1.0f), w(0.6f, 2.5f), zr(-1.8f, 1.8f);
  int clipped_pixels = 0;
  for (int i = 0; i < 40; ++i) {
    RefVertex v[3];
    for (auto& x : v) {
      const float ww = w(rng);
      x.pos = {pos(rng) * ww, pos(rng) * ww, zr(rng) * ww, ww};  // |z| up to 1.8 w
      x.attr = {pos(rng), pos(rng), pos(rng), 1.0f};
    }
    Image img = run.draw(v);
    // The ideal clipped triangle: the unclipped fragments whose window depth lies in
    // [0, 1]. Pixels within 1e-4 of a clip plane may go either way.
    std::vector<RefFragment> all = ref_triangle(rs, v[0], v[1], v[2]), keep;
    std::vector<int> ambiguous(size_t(kW) * kH, 0);
    for (const RefFragment& f : all) {
      if (std::abs(f.z) < 1e-4 || std::abs(f.z - 1) < 1e-4) ambiguous[size_t(f.y) * kW + f.x] = 1;
      if (f.z >= 0 && f.z <= 1) keep.push_back(f);
    }
    clipped_pixels += int(all.size() - keep.size());
    std::vector<const RefFragment*> at(size_t(kW) * kH, nullptr);
    for (const RefFragment& f : keep)
      at[size_t(f.y) * kW + f.x] = &f;
    int bad = 0;
    for (uint32_t y = 0; y < kH; ++y) {
      for (uint32_t x = 0; x < kW; ++x) {
        if (ambiguous[size_t(y) * kW + x]) continue;
        auto c = img.rgba(x, y);
        const RefFragment* f = at[size_t(y) * kW + x];
        if ((c[3] != 0) != (f != nullptr)) {
          UNSCOPED_INFO("coverage at " << x << "," << y);
          ++bad;
        } else if (f) {
          for (int k = 0; k < 3; ++k) {
            if (std::abs(c[k] - f->persp[k]) > 1e-4 + 1e-4 * std::abs(f->persp[k])) {
              UNSCOPED_INFO("value " << k << " at " << x << "," << y << ": " << c[k] << " vs "
                                     << f->persp[k]);
              ++bad;
              break;
            }
          }
        }
      }
    }
    INFO("triangle " << i);
    CHECK(bad == 0);
  }
  CHECK(clipped_pixels > 1000);  // the planes really cut
}

TEST_CASE("noperspective inputs stay linear in window space where a clip plane cuts",
          "[draw][raster][clip]") {
  // A user plane makes new corners at clip-space weights; their screen-space weights
  // differ wherever w varies, and noperspective inputs must use those (piglit
  // interpolation-noperspective-*-distance). Every drawn pixel keeps the unclipped
  // triangle's window-linear value.
  std::mt19937 rng(4242);
  TriangleRun run(1, true, false);
  run.setup.clip.ucp[0][0] = -1.0f;  // -x + 0.2 w >= 0
  run.setup.clip.ucp[0][3] = 0.2f;
  run.setup.rasterizer.clip_plane_enable = 0x1;
  const RefState rs = ref_state(kW, kH);
  int cut = 0;
  for (int i = 0; i < 12; ++i) {
    RefVertex v[3];
    for (auto& x : v)
      x = random_vertex(rng, 1.3f, true);
    const std::vector<RefFragment> ref = ref_triangle(rs, v[0], v[1], v[2]);
    std::vector<const RefFragment*> at(size_t(kW) * kH, nullptr);
    for (const RefFragment& f : ref)
      at[size_t(f.y) * kW + f.x] = &f;
    const Image img = run.draw(v);
    int bad = 0, drawn = 0;
    for (uint32_t y = 0; y < kH; ++y) {
      for (uint32_t x = 0; x < kW; ++x) {
        const auto c = img.rgba(x, y);
        if (c[3] == 0.0f) continue;
        ++drawn;
        const RefFragment* f = at[size_t(y) * kW + x];
        if (!f) {
          ++bad;  // drawn outside the triangle
          continue;
        }
        // The new corners are snapped to 1/256 pixel, and their weights carry float
        // rounding: a looser tolerance than the unclipped triangles' (the
        // perspective-correct values lie further off: 9 of these triangles fail with them).
        for (int k = 0; k < 3; ++k) {
          const double d = std::abs(c[k] - f->linear[k]);
          if (d > 1e-2 + 1e-2 * std::abs(f->linear[k])) {
            UNSCOPED_INFO(x << "," << y << " channel " << k << ": " << c[k] << " vs "
                            << f->linear[k] << " (perspective-correct " << f->persp[k] << ")");
            ++bad;
          }
        }
      }
    }
    cut += drawn > 0 && drawn < int(ref.size());
    INFO("triangle " << i);
    CHECK(bad == 0);
  }
  CHECK(cut >= 3);  // the plane cut some triangles with pixels left
}
