// Multisampled targets (2, 4 and 8 samples): every sample plane against the host
// reference rasterizer evaluated at that sample's position (coverage, and with sample
// shading the values) or at the pixel centre and centroid (the values of one invocation
// per pixel); the sample mask, alpha to coverage, the shader's sample mask, SAMPLEID /
// SAMPLEPOS and per-sample depth.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>

#include "draw/draw_fixture.h"
#include "draw/reference_raster.h"
#include "frontend/format_codec.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::frontend::draw;

namespace {

constexpr uint32_t kW = 37, kH = 29;  // partial tiles
constexpr unsigned kCounts[] = {2, 4, 8};

// A target of `samples` planes of w x h pixels, every byte `fill` (layout.h: plane s
// starts sample_rows rows after plane s - 1).
ColorTarget ms_target(DrawFixture& fx, Format f, unsigned samples, uint8_t fill = 0) {
  ColorTarget t = fx.target(f, kW, kH * samples, fill);
  t.samples = samples;
  t.sample_rows = kH;
  return t;
}

Image plane(DrawFixture& fx, ColorTarget t, unsigned s) {
  t.offset += uint64_t(s) * t.sample_rows * t.pitch;
  return fx.read(t, kW, kH);
}

struct MsRun {
  DrawFixture fx;
  DrawSetup s;
  explicit MsRun(unsigned samples) {
    s = fx.basic_setup(kW, kH);
    s.samples = samples;
    s.rasterizer.multisample = true;
    s.vs = fx.passthrough_vs(2);
    s.fs = fx.varying_fs(2);
    s.fs_links = {ClpFsLink{1, -1, CLP_LINK_ALL_CHANNELS, {0, 0, 0, 1}}};
    s.cbufs[0] = ms_target(fx, Format::R32G32B32A32_FLOAT, samples);
  }
  // A Z32_FLOAT target of every sample at depth 1, tested LESS and written; returned.
  ColorTarget depth_less() {
    ColorTarget zt = ms_target(fx, Format::Z32_FLOAT, s.samples);
    std::vector<uint8_t> ones(size_t(zt.pitch) * kH * s.samples);
    for (size_t p = 0; p < ones.size(); p += 4)
      frontend::pack_depth(Format::Z32_FLOAT, 1.0f, ones.data() + p);
    zt.buffer = fx.buffer(ones.data(), ones.size());
    s.zsbuf = zt;
    s.dsa.depth_enabled = true;
    s.dsa.depth_writemask = true;
    s.dsa.depth_func = CompareFunc::LESS;
    return zt;
  }
  void draw(const std::vector<RefVertex>& v) {
    std::vector<float> data;
    for (const RefVertex& x : v) {
      data.insert(data.end(), x.pos.begin(), x.pos.end());
      data.insert(data.end(), x.attr.begin(), x.attr.end());
    }
    fx.set_vertices(s, data, 8, {Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT});
    DrawInfo info;
    info.mode = PrimType::TRIANGLES;
    fx.pipeline().draw(s, info, DrawStartCountBias{0, uint32_t(v.size()), 0}, 0);
  }
};

// Pixels of img that differ from the reference fragments (alpha 0 = not covered).
int mismatches(const Image& img, const std::vector<RefFragment>& ref) {
  std::vector<const RefFragment*> at(size_t(kW) * kH, nullptr);
  for (const RefFragment& f : ref)
    at[size_t(f.y) * kW + f.x] = &f;
  int bad = 0;
  for (uint32_t y = 0; y < kH; ++y) {
    for (uint32_t x = 0; x < kW; ++x) {
      const auto c = img.rgba(x, y);
      const RefFragment* f = at[size_t(y) * kW + x];
      if ((c[3] != 0.0f) != (f != nullptr)) {
        UNSCOPED_INFO("coverage differs at " << x << "," << y);
        ++bad;
        continue;
      }
      for (int k = 0; f && k < 3; ++k) {
        if (std::abs(c[k] - f->persp[k]) > 1e-4 + 1e-4 * std::abs(f->persp[k])) {
          UNSCOPED_INFO("value " << k << " at " << x << "," << y << ": " << c[k] << " vs "
                                 << f->persp[k]);
          ++bad;
          break;
        }
      }
    }
  }
  return bad;
}

std::vector<RefVertex> random_triangle(std::mt19937& rng) {
  std::uniform_real_distribution<float> pos(-1.2f, 1.2f), w(0.5f, 2.0f), attr(-2.0f, 2.0f);
  std::vector<RefVertex> v(3);
  for (RefVertex& x : v) {
    const float ww = w(rng);
    x.pos = {pos(rng) * ww, pos(rng) * ww, 0.0f, ww};
    x.attr = {attr(rng), attr(rng), attr(rng), 1.0f};
  }
  return v;
}

}  // namespace

TEST_CASE("with sample shading each sample is covered and interpolated at its position",
          "[draw][raster][msaa]") {
  std::mt19937 rng(515);
  for (unsigned n : kCounts) {
    // Shading every sample: asked by the state (min_samples) or by a sample-qualified input.
    for (const bool by_state : {true, false}) {
      MsRun r(n);
      if (by_state)
        r.s.min_samples = n;
      else
        r.s.fs = r.fx.varying_fs(2, 2);
      for (int i = 0; i < 4; ++i) {
        const std::vector<RefVertex> v = random_triangle(rng);
        r.s.cbufs[0] = ms_target(r.fx, Format::R32G32B32A32_FLOAT, n);
        r.draw(v);
        int covered_somewhere = 0;
        for (unsigned s = 0; s < n; ++s) {
          const RefState rs = ref_sample_state(kW, kH, n, s);
          const std::vector<RefFragment> ref = ref_triangle(rs, v[0], v[1], v[2]);
          covered_somewhere += int(ref.size());
          INFO(n << " samples, by state " << by_state << ", triangle " << i << ", sample " << s);
          CHECK(mismatches(plane(r.fx, r.s.cbufs[0], s), ref) == 0);
        }
        CHECK(covered_somewhere > 0);
      }
    }
  }
}

namespace {

// The reference fragment of each pixel (null: none).
std::vector<const RefFragment*> by_pixel(const std::vector<RefFragment>& ref) {
  std::vector<const RefFragment*> at(size_t(kW) * kH, nullptr);
  for (const RefFragment& f : ref)
    at[size_t(f.y) * kW + f.x] = &f;
  return at;
}

bool close(double got, double want) {
  return std::abs(got - want) <= 1e-4 + 1e-4 * std::abs(want);
}

}  // namespace

TEST_CASE("without sample shading the shader runs once per pixel for its covered samples",
          "[draw][raster][msaa]") {
  std::mt19937 rng(517);
  for (unsigned n : kCounts) {
    // Inputs at the pixel centre, or at the centroid: the centre where every sample is
    // covered, else the first covered sample.
    for (const int location : {0, 1}) {
      MsRun r(n);
      r.s.fs = r.fx.varying_fs(2, location);
      for (int i = 0; i < 4; ++i) {
        const std::vector<RefVertex> v = random_triangle(rng);
        r.s.cbufs[0] = ms_target(r.fx, Format::R32G32B32A32_FLOAT, n);
        const uint32_t zero[CLP_NUM_COUNTER_WORDS] = {};
        r.s.counters = r.fx.buffer(zero, sizeof(zero));
        r.draw(v);
        uint32_t counters[CLP_NUM_COUNTER_WORDS];
        r.fx.queue().read(r.s.counters, 0, sizeof(counters), counters);
        const std::vector<RefFragment> centre_ref =
            ref_triangle(ref_state(kW, kH), v[0], v[1], v[2]);
        const auto centre = by_pixel(centre_ref);
        std::vector<std::vector<RefFragment>> sample_ref;
        std::vector<std::vector<const RefFragment*>> at;
        std::vector<Image> planes;
        for (unsigned s = 0; s < n; ++s)
          sample_ref.push_back(ref_triangle(ref_sample_state(kW, kH, n, s), v[0], v[1], v[2]));
        for (unsigned s = 0; s < n; ++s) {
          at.push_back(by_pixel(sample_ref[s]));
          planes.push_back(plane(r.fx, r.s.cbufs[0], s));
        }
        uint32_t pixels = 0, samples = 0;
        int bad = 0;
        for (uint32_t y = 0; y < kH; ++y) {
          for (uint32_t x = 0; x < kW; ++x) {
            const size_t p = size_t(y) * kW + x;
            unsigned covered = 0, first = n;
            for (unsigned s = 0; s < n; ++s) {
              const bool in = at[s][p] != nullptr;
              bad += in != (planes[s].rgba(x, y)[3] != 0.0f);  // coverage per sample
              if (in && first == n) first = s;
              covered += in;
            }
            if (!covered) continue;
            ++pixels;
            samples += covered;
            // The value the pixel's one invocation computed, in every covered sample.
            const RefFragment* want = location == 1 && covered < n ? at[first][p] : centre[p];
            for (unsigned s = 0; s < n; ++s) {
              if (!at[s][p]) continue;
              const auto c = planes[s].rgba(x, y);
              const auto c0 = planes[first].rgba(x, y);
              for (int k = 0; k < 3; ++k) {
                // A centre outside the primitive is extrapolated: no reference there.
                const bool ok = want ? close(c[k], want->persp[k]) : c[k] == c0[k];
                if (!ok && bad < 4) {
                  UNSCOPED_INFO("pixel " << x << "," << y << " sample " << s << " value " << k
                                         << ": " << c[k] << " want "
                                         << (want ? want->persp[k] : c0[k]));
                }
                bad += !ok;
              }
            }
          }
        }
        INFO(n << " samples, location " << location << ", triangle " << i);
        CHECK(bad == 0);
        CHECK(counters[CLP_COUNTER_PS_INVOCATIONS] == pixels);
        CHECK(counters[CLP_COUNTER_SAMPLES_PASSED] == samples);
        CHECK(pixels > 0);
      }
    }
  }
}

TEST_CASE("without multisample rasterization every sample takes the pixel centre's outcome",
          "[draw][raster][msaa]") {
  std::mt19937 rng(516);
  MsRun r(4);
  r.s.rasterizer.multisample = false;
  r.s.sample_mask = 0x1;  // ignored as well
  for (int i = 0; i < 4; ++i) {
    const std::vector<RefVertex> v = random_triangle(rng);
    r.s.cbufs[0] = ms_target(r.fx, Format::R32G32B32A32_FLOAT, 4);
    r.draw(v);
    const std::vector<RefFragment> ref = ref_triangle(ref_state(kW, kH), v[0], v[1], v[2]);
    for (unsigned s = 0; s < 4; ++s) {
      INFO("triangle " << i << ", sample " << s);
      CHECK(mismatches(plane(r.fx, r.s.cbufs[0], s), ref) == 0);
    }
  }
}

namespace {

// A quad over the whole window with attribute (a, a, a, alpha).
std::vector<RefVertex> full_quad(float a, float alpha) {
  std::vector<RefVertex> v;
  const float c[6][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, -1}, {1, 1}, {-1, 1}};
  for (const auto& p : c) {
    RefVertex x;
    x.pos = {p[0], p[1], 0.0f, 1.0f};
    x.attr = {a, a, a, alpha};
    v.push_back(x);
  }
  return v;
}

// 1 when every pixel of plane s of the target has alpha != 0 (written), 0 when none
// has, -1 when some have.
int written(DrawFixture& fx, const ColorTarget& t, unsigned s) {
  const Image img = plane(fx, t, s);
  int n = 0;
  for (uint32_t y = 0; y < kH; ++y)
    for (uint32_t x = 0; x < kW; ++x)
      n += img.rgba(x, y)[3] != 0.0f;
  return n == int(kW * kH) ? 1 : n == 0 ? 0 : -1;
}

}  // namespace

TEST_CASE("the sample mask and alpha to coverage choose the samples written",
          "[draw][fragment][msaa]") {
  for (unsigned n : kCounts) {
    MsRun r(n);
    r.s.sample_mask = 0xa5;
    r.draw(full_quad(1.0f, 1.0f));
    for (unsigned s = 0; s < n; ++s) {
      INFO(n << " samples, sample " << s);
      CHECK(written(r.fx, r.s.cbufs[0], s) == int((0xa5u >> s) & 1u));
    }
    // Alpha a covers round(a n) samples.
    r.s.sample_mask = ~0u;
    r.s.blend.alpha_to_coverage = true;
    for (const float alpha : {0.0f, 0.3f, 0.5f, 1.0f}) {
      r.s.cbufs[0] = ms_target(r.fx, Format::R32G32B32A32_FLOAT, n);
      r.draw(full_quad(1.0f, alpha));
      int samples = 0;
      for (unsigned s = 0; s < n; ++s) {
        const int w = written(r.fx, r.s.cbufs[0], s);
        INFO(n << " samples, alpha " << alpha << ", sample " << s);
        REQUIRE(w >= 0);
        samples += w;
      }
      CHECK(samples == int(std::lround(alpha * float(n) - 0.001f)));
    }
    // Alpha to one writes alpha 1 wherever a sample is written.
    r.s.blend.alpha_to_coverage = false;
    r.s.blend.alpha_to_one = true;
    r.s.cbufs[0] = ms_target(r.fx, Format::R32G32B32A32_FLOAT, n);
    r.draw(full_quad(0.25f, 0.5f));
    CHECK(plane(r.fx, r.s.cbufs[0], n - 1).rgba(3, 4)[3] == 1.0f);
    CHECK(plane(r.fx, r.s.cbufs[0], 0).rgba(3, 4)[0] == 0.25f);
  }
}

TEST_CASE("SAMPLEID, SAMPLEPOS and the shader's sample mask are per sample",
          "[draw][fragment][msaa]") {
  for (unsigned n : kCounts) {
    MsRun r(n);
    DrawFixture::FsSpec spec;
    spec.outputs = 2;
    spec.samplemask_reg = 1;
    spec.per_sample = true;
    // OUT[0] = (SAMPLEID, SAMPLEPOS.x, SAMPLEPOS.y, 1); OUT[1].x = 0b0110 (samples 1, 2).
    r.s.fs = r.fx.custom_fs(spec,
                            "io->out[0][0] = CLP_CONVERT_VF(CLP_AS_VI(clp_system_value(stage, io, "
                            "23, 0)));\n"
                            "io->out[0][1] = clp_system_value(stage, io, 24, 0);\n"
                            "io->out[0][2] = clp_system_value(stage, io, 24, 1);\n"
                            "io->out[0][3] = (vf)(1.0f);\n"
                            "io->out[1][0] = CLP_AS_VF((vi)(6));");
    r.draw(full_quad(0.0f, 1.0f));
    for (unsigned s = 0; s < n; ++s) {
      INFO(n << " samples, sample " << s);
      const bool kept = s == 1 || s == 2;
      REQUIRE(written(r.fx, r.s.cbufs[0], s) == int(kept));
      if (!kept) continue;
      const auto c = plane(r.fx, r.s.cbufs[0], s).rgba(5, 7);
      const auto d = ref_sample_offset(n, s);
      CHECK(c[0] == float(s));
      CHECK(c[1] == 0.5f + float(d[0]) / 256.0f);
      CHECK(c[2] == 0.5f + float(d[1]) / 256.0f);
    }
  }
}

TEST_CASE("depth is tested and stored per sample", "[draw][zs][msaa]") {
  // Two triangles over the window whose depths cross along a slanted line: at each sample
  // the nearer one wins, so pixels on the line are split between them sample by sample.
  for (unsigned n : kCounts) {
    MsRun r(n);
    r.depth_less();
    auto tri = [](float z0, float z1, float z2, float id) {
      std::vector<RefVertex> v(3);
      const float p[3][2] = {{-3, -3}, {3, -3}, {0, 4}};
      const float z[3] = {z0, z1, z2};
      for (int k = 0; k < 3; ++k) {
        v[k].pos = {p[k][0], p[k][1], z[k], 1.0f};
        v[k].attr = {id, id, id, 1.0f};
      }
      return v;
    };
    const std::vector<RefVertex> a = tri(-0.9f, 0.8f, 0.1f, 1.0f), b = tri(0.7f, -0.6f, 0.0f, 2.0f);
    std::vector<RefVertex> both = a;
    both.insert(both.end(), b.begin(), b.end());
    r.draw(both);
    int split = 0;
    std::vector<float> first(size_t(kW) * kH, 0.0f);
    for (unsigned s = 0; s < n; ++s) {
      const RefState rs = ref_sample_state(kW, kH, n, s);
      const std::vector<RefFragment> fa = ref_triangle(rs, a[0], a[1], a[2]);
      const std::vector<RefFragment> fb = ref_triangle(rs, b[0], b[1], b[2]);
      REQUIRE(fa.size() == size_t(kW) * kH);
      REQUIRE(fb.size() == size_t(kW) * kH);
      const Image img = plane(r.fx, r.s.cbufs[0], s);
      int bad = 0;
      for (size_t p = 0; p < fa.size(); ++p) {
        // b replaces a only where it is strictly nearer (LESS); where the two depths
        // are within rounding of each other either may win.
        const float want = fb[p].z < fa[p].z ? 2.0f : 1.0f;
        const float got = img.rgba(uint32_t(fa[p].x), uint32_t(fa[p].y))[0];
        bad += got != want && std::abs(fb[p].z - fa[p].z) > 1e-5;
        if (s == 0) first[p] = got;
        split += s > 0 && got != first[p];
      }
      INFO(n << " samples, sample " << s);
      CHECK(bad == 0);
    }
    CHECK(split > 0);  // some pixels hold both triangles
  }
}

TEST_CASE("samples alpha to coverage removes keep their depth", "[draw][zs][msaa]") {
  // The depth test must wait for the shader's alpha: early depth would store the depth of
  // samples that alpha to coverage then removes.
  MsRun r(4);
  const ColorTarget zt = r.depth_less();
  r.s.blend.alpha_to_coverage = true;
  r.draw(full_quad(1.0f, 0.5f));  // window depth 0.5, 2 of 4 samples
  for (unsigned s = 0; s < 4; ++s) {
    const Image z = plane(r.fx, zt, s);
    const bool kept = written(r.fx, r.s.cbufs[0], s) == 1;
    float d;
    std::memcpy(&d, z.pixel(6, 9), 4);
    INFO("sample " << s);
    CHECK(d == (kept ? 0.5f : 1.0f));
  }
}

TEST_CASE("multisampled lines are rectangles across the segment", "[draw][raster][msaa]") {
  // GL: with multisample rasterization a line is a rectangle `width` wide, its ends at the
  // vertices (not the parallelogram of single-sampled lines, which is width / cos(45°)
  // narrower across a diagonal).
  MsRun r(4);
  r.s.rasterizer.line_width = 3.0f;
  const double ax = 4.5, ay = 5.25, bx = 31.0, by = 24.75;  // window coordinates
  auto ndc = [](double x, double y) {
    return std::array<float, 4>{float(x / (kW / 2.0) - 1), float(y / (kH / 2.0) - 1), 0, 1};
  };
  std::vector<RefVertex> line(2);
  line[0].pos = ndc(ax, ay);
  line[1].pos = ndc(bx, by);
  for (RefVertex& v : line)
    v.attr = {0.5f, 0.5f, 0.5f, 1.0f};
  std::vector<float> data;
  for (const RefVertex& x : line) {
    data.insert(data.end(), x.pos.begin(), x.pos.end());
    data.insert(data.end(), x.attr.begin(), x.attr.end());
  }
  r.fx.set_vertices(r.s, data, 8, {Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT});
  DrawInfo info;
  info.mode = PrimType::LINES;
  r.fx.pipeline().draw(r.s, info, DrawStartCountBias{0, 2, 0}, 0);
  // The reference rectangle as two triangles.
  const double len = std::hypot(bx - ax, by - ay), nx = -(by - ay) / len * 1.5,
               ny = (bx - ax) / len * 1.5;
  RefVertex c[4];
  const double cx[4] = {ax + nx, bx + nx, bx - nx, ax - nx},
               cy[4] = {ay + ny, by + ny, by - ny, ay - ny};
  for (int k = 0; k < 4; ++k)
    c[k].pos = ndc(cx[k], cy[k]);
  for (unsigned s = 0; s < 4; ++s) {
    const RefState rs = ref_sample_state(kW, kH, 4, s);
    std::vector<bool> in(size_t(kW) * kH, false);
    for (const auto& tri : {std::array<int, 3>{0, 1, 2}, std::array<int, 3>{0, 2, 3}}) {
      for (const RefFragment& f : ref_triangle(rs, c[tri[0]], c[tri[1]], c[tri[2]]))
        in[size_t(f.y) * kW + f.x] = true;
    }
    const Image img = plane(r.fx, r.s.cbufs[0], s);
    int covered = 0, differ = 0;
    for (uint32_t y = 0; y < kH; ++y) {
      for (uint32_t x = 0; x < kW; ++x) {
        const bool drawn = img.rgba(x, y)[3] != 0.0f;
        covered += drawn;
        differ += drawn != in[size_t(y) * kW + x];
      }
    }
    INFO("sample " << s << ": " << covered << " covered, " << differ << " differ");
    CHECK(covered > 80);
    // Corners rounded to 1/256 pixel move a sample on the edge at most.
    CHECK(differ <= 2);
  }
}

TEST_CASE("the near and far planes clip each sample", "[draw][raster][clip][msaa]") {
  // Triangles crossing the planes (cut per pixel, not geometrically): a sample is covered
  // where the unclipped triangle covers it and its window depth lies in [0, 1], whatever
  // the pixel centre's depth. Samples within 1e-4 of a plane may go either way.
  std::mt19937 rng(4243);
  std::uniform_real_distribution<float> pos(-1.0f, 1.0f), w(0.6f, 2.5f), zr(-1.8f, 1.8f);
  for (unsigned n : kCounts) {
    int clipped = 0, split = 0;  // samples the planes cut; pixels they cut apart
    for (int i = 0; i < 12; ++i) {
      MsRun r(n);
      std::vector<RefVertex> v(3);
      for (RefVertex& x : v) {
        const float ww = w(rng);
        x.pos = {pos(rng) * ww, pos(rng) * ww, zr(rng) * ww, ww};  // |z| up to 1.8 w
        x.attr = {0.5f, 0.5f, 0.5f, 1.0f};
      }
      r.draw(v);
      std::vector<unsigned> kept(size_t(kW) * kH, 0), cut(size_t(kW) * kH, 0);  // bit s: sample s
      for (unsigned s = 0; s < n; ++s) {
        std::vector<int> want(size_t(kW) * kH, 0);  // 1 kept, 2 either way
        for (const RefFragment& f :
             ref_triangle(ref_sample_state(kW, kH, n, s), v[0], v[1], v[2])) {
          const bool near_plane = std::abs(f.z) < 1e-4 || std::abs(f.z - 1) < 1e-4;
          const bool in = f.z >= 0 && f.z <= 1;
          want[size_t(f.y) * kW + f.x] = near_plane ? 2 : in;
          clipped += !in;
          if (!in) cut[size_t(f.y) * kW + f.x] |= 1u << s;
        }
        const Image img = plane(r.fx, r.s.cbufs[0], s);
        int bad = 0;
        for (uint32_t y = 0; y < kH; ++y) {
          for (uint32_t x = 0; x < kW; ++x) {
            const int wnt = want[size_t(y) * kW + x];
            const bool drawn = img.rgba(x, y)[3] != 0.0f;
            if (wnt == 1) kept[size_t(y) * kW + x] |= 1u << s;
            if (wnt != 2 && drawn != (wnt == 1)) {
              UNSCOPED_INFO("sample " << s << " of " << x << "," << y << " drawn " << drawn);
              ++bad;
            }
          }
        }
        INFO(n << " samples, triangle " << i << ", sample " << s);
        CHECK(bad == 0);
      }
      for (size_t p = 0; p < kept.size(); ++p)
        split += kept[p] != 0 && cut[p] != 0;
    }
    INFO(n << " samples");
    CHECK(clipped > 100);  // the planes really cut
    CHECK(split > 10);     // and cut pixels apart
  }
}

TEST_CASE("multisampled points are circles, and sprites squares, of their exact size",
          "[draw][raster][msaa]") {
  // GL: with multisample rasterization a point covers the samples inside a circle of
  // diameter its size around its centre, or inside the square of that side when it is a
  // sprite (point_quad_rasterization); neither size nor centre is rounded to pixels.
  struct Pt {
    double x, y, size;
  };
  const Pt pts[] = {{9.3, 8.6, 7.4}, {26.0, 19.5, 12.0}, {30.7, 6.2, 2.6}};
  for (unsigned n : kCounts) {
    for (bool sprite : {false, true}) {
      MsRun r(n);
      r.s.rasterizer.point_quad_rasterization = sprite;
      std::vector<float> data;
      for (const Pt& p : pts) {
        r.s.rasterizer.point_size = float(p.size);
        const float v[8] = {
            float(p.x / (kW / 2.0) - 1), float(p.y / (kH / 2.0) - 1), 0, 1, 0.5f, 0.5f, 0.5f, 1.0f};
        data.assign(v, v + 8);
        r.fx.set_vertices(r.s, data, 8, {Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT});
        DrawInfo info;
        info.mode = PrimType::POINTS;
        r.fx.pipeline().draw(r.s, info, DrawStartCountBias{0, 1, 0}, 0);
      }
      for (unsigned s = 0; s < n; ++s) {
        const std::array<int, 2> o = ref_sample_offset(n, s);
        const Image img = plane(r.fx, r.s.cbufs[0], s);
        int covered = 0, expected = 0, differ = 0;
        for (uint32_t y = 0; y < kH; ++y) {
          for (uint32_t x = 0; x < kW; ++x) {
            const double sx = x + 0.5 + o[0] / 256.0, sy = y + 0.5 + o[1] / 256.0;
            bool in = false, edge = false;  // edge: within rounding of the boundary
            for (const Pt& p : pts) {
              const double h = p.size / 2, dx = sx - p.x, dy = sy - p.y;
              const double d = sprite ? std::max(std::abs(dx), std::abs(dy)) - h
                                      : std::sqrt(dx * dx + dy * dy) - h;
              in = in || d < 0;
              edge = edge || std::abs(d) < 1.0 / 256;
            }
            const bool drawn = img.rgba(x, y)[3] != 0.0f;
            covered += drawn;
            expected += in;
            if (drawn != in && !edge) {
              UNSCOPED_INFO("sample " << s << " of pixel " << x << "," << y << " drawn " << drawn);
              ++differ;
            }
          }
        }
        INFO(n << " samples, sprite " << sprite << ", sample " << s << ": " << covered
               << " covered, " << expected << " expected");
        CHECK(covered > 100);
        CHECK(differ == 0);
      }
    }
  }
}

TEST_CASE("stencil counts the primitives covering each sample", "[draw][zs][msaa]") {
  std::mt19937 rng(517);
  for (unsigned n : kCounts) {
    MsRun r(n);
    ColorTarget st = ms_target(r.fx, Format::S8_UINT, n);
    r.s.zsbuf = st;
    StencilState& f = r.s.dsa.stencil[0];
    f.enabled = true;
    f.func = CompareFunc::ALWAYS;
    f.zpass_op = StencilOp::INCR;
    f.writemask = 0xff;
    f.valuemask = 0xff;
    std::vector<RefVertex> tris;
    for (int i = 0; i < 4; ++i) {
      const std::vector<RefVertex> t = random_triangle(rng);
      tris.insert(tris.end(), t.begin(), t.end());
    }
    r.draw(tris);
    int bad = 0, overlaps = 0;
    for (unsigned s = 0; s < n; ++s) {
      const RefState rs = ref_sample_state(kW, kH, n, s);
      std::vector<int> count(size_t(kW) * kH, 0);
      for (size_t t = 0; t < tris.size(); t += 3) {
        for (const RefFragment& fr : ref_triangle(rs, tris[t], tris[t + 1], tris[t + 2]))
          ++count[size_t(fr.y) * kW + fr.x];
      }
      const Image img = plane(r.fx, st, s);
      for (uint32_t y = 0; y < kH; ++y) {
        for (uint32_t x = 0; x < kW; ++x) {
          bad += *img.pixel(x, y) != count[size_t(y) * kW + x];
          overlaps += count[size_t(y) * kW + x] > 1;
        }
      }
    }
    INFO(n << " samples");
    CHECK(bad == 0);
    CHECK(overlaps > 0);
  }
}
