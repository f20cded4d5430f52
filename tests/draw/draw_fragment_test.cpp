// Fragment-stage features of the tile pass, with hand-written fragment stages:
// FACE, POSITION (origins, centres), KILL, depth and stencil export, MRT with mixed and
// integer formats, COLOR0 broadcast, dual-source blending, two-sided colour, flat
// shading of COLOR inputs, colour clamping, PRIMID, denormal results flushed to zero.
#include <catch2/catch.hpp>

#include <cstring>

#include "draw/draw_fixture.h"
#include "frontend/format_codec.h"
#include "support/scoped_env.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::frontend::draw;

namespace {

constexpr uint32_t kW = 24, kH = 16;

// Two triangles covering the window, wound in opposite directions, with one vec4
// attribute per vertex (register 1) and depth z (NDC).
std::vector<float> quad(const float a0[4], const float a1[4], float z = 0.0f) {
  const float v[6][2] = {{-1, 1}, {-1, -1}, {1, 1}, {-1, -1}, {1, 1}, {1, -1}};
  std::vector<float> d;
  for (int i = 0; i < 6; ++i) {
    const float* a = i < 3 ? a0 : a1;
    d.insert(d.end(), {v[i][0], v[i][1], z, 1, a[0], a[1], a[2], a[3]});
  }
  return d;
}

struct Run {
  DrawFixture fx;
  DrawSetup s;
  Run() {
    s = fx.basic_setup(kW, kH);
    s.vs = fx.passthrough_vs(2);
    s.fs_links = {ClpFsLink{1, -1, CLP_LINK_ALL_CHANNELS, {0, 0, 0, 1}}};
    s.cbufs[0] = fx.target(Format::R32G32B32A32_FLOAT, kW, kH);
  }
  void draw(const std::vector<float>& d, PrimType mode = PrimType::TRIANGLES) {
    fx.set_vertices(s, d, 8, {Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT});
    DrawInfo info;
    info.mode = mode;
    fx.pipeline().draw(s, info, DrawStartCountBias{0, uint32_t(d.size() / 8), 0}, 0);
  }
  Image image(int i = 0) { return fx.read(s.cbufs[i], kW, kH); }
};

}  // namespace

TEST_CASE("FACE is +1 on front faces and -1 on back faces", "[draw][fragment]") {
  Run r;
  DrawFixture::FsSpec spec;
  r.s.fs = r.fx.custom_fs(
      spec, "for (int c = 0; c < 4; ++c) io->out[0][c] = clp_fs_input(stage, 0, c, 7, 0, 0, 0);");
  const float a[4] = {0, 0, 0, 0};
  r.draw(quad(a, a));
  Image img = r.image();
  int front = 0, back = 0;
  for (uint32_t y = 0; y < kH; ++y) {
    for (uint32_t x = 0; x < kW; ++x) {
      auto c = img.rgba(x, y);
      CHECK((c[0] == 1.0f || c[0] == -1.0f));
      CHECK(c[3] == 1.0f);
      (c[0] > 0 ? front : back)++;
    }
  }
  CHECK(front > 100);
  CHECK(back > 100);
  // Changing the winding convention swaps them.
  r.s.rasterizer.front_ccw = !r.s.rasterizer.front_ccw;
  r.draw(quad(a, a));
  Image img2 = r.image();
  for (uint32_t y = 0; y < kH; ++y)
    for (uint32_t x = 0; x < kW; ++x)
      CHECK(img2.rgba(x, y)[0] == -img.rgba(x, y)[0]);
}

TEST_CASE("POSITION follows the shader's origin and pixel-centre conventions", "[draw][fragment]") {
  for (int origin = 0; origin < 2; ++origin) {
    for (int integer = 0; integer < 2; ++integer) {
      Run r;
      r.s.fs_coord_lower_left = origin;
      r.s.fs_coord_pixel_center_integer = integer;
      r.s.fs = r.fx.custom_fs(
          DrawFixture::FsSpec(),
          "for (int c = 0; c < 4; ++c) io->out[0][c] = clp_fs_input(stage, 0, c, 0, 0, 2, 0);");
      const float a[4] = {0, 0, 0, 0};
      r.draw(quad(a, a, 0.5f));  // window depth 0.75
      Image img = r.image();
      const float centre = integer ? 0.0f : 0.5f;
      for (uint32_t y = 0; y < kH; y += 3) {
        for (uint32_t x = 0; x < kW; x += 5) {
          auto c = img.rgba(x, y);
          INFO("origin " << origin << " integer " << integer << " pixel " << x << "," << y);
          CHECK(c[0] == x + centre);
          CHECK(c[1] == (origin ? float(kH) - y - 1 + centre : y + centre));
          CHECK(c[2] == 0.75f);
          CHECK(c[3] == Approx(1.0f));  // 1 / w
        }
      }
    }
  }
}

TEST_CASE("KILL discards lanes: no colour, no depth write", "[draw][fragment]") {
  Run r;
  DrawFixture::FsSpec spec;
  spec.uses_kill = true;
  // Kill the pixels of odd x (lanes 1 and 3 of every quad): x of POSITION (semantic 0).
  r.s.fs = r.fx.custom_fs(spec,
                          "const vi x = CLP_CONVERT_VI(clp_system_value(stage, io, 0, 0));\n"
                          "io->exec_mask &= CLP_MASK((x & (vi)(1)) == (vi)(0));\n"
                          "for (int c = 0; c < 4; ++c) io->out[0][c] = (vf)(1.0f);");
  r.s.zsbuf = r.fx.target(Format::Z32_FLOAT, kW, kH);
  {
    std::vector<float> ones(kW * kH, 1.0f);
    r.s.zsbuf.buffer = r.fx.buffer(ones.data(), ones.size() * 4);
  }
  r.s.dsa.depth_enabled = true;
  r.s.dsa.depth_writemask = true;
  r.s.dsa.depth_func = CompareFunc::LESS;
  const float a[4] = {0, 0, 0, 0};
  r.draw(quad(a, a, 0.0f));
  Image img = r.image();
  Image z = r.fx.read(r.s.zsbuf, kW, kH);
  for (uint32_t y = 0; y < kH; ++y) {
    for (uint32_t x = 0; x < kW; ++x) {
      const bool kept = (x & 1) == 0;
      CHECK(img.rgba(x, y)[0] == (kept ? 1.0f : 0.0f));
      float zv;
      std::memcpy(&zv, z.pixel(x, y), 4);
      CHECK(zv == (kept ? 0.5f : 1.0f));
    }
  }
}

TEST_CASE("outputs a shader leaves unwritten read as 0 in every block", "[draw][fragment]") {
  // GL leaves an unwritten output undefined; clpipe defines it as 0 in every stage (as the
  // vertex and geometry stages do), so a device's registers or stack never reach a pixel.
  // The shader writes alpha only for the first triangle (flat input x = 1): the second
  // triangle's blocks run after the first's in the same work-items.
  Run r;
  DrawFixture::FsSpec spec;
  r.s.fs =
      r.fx.custom_fs(spec,
                     "const vf first = clp_fs_input(stage, 0, 0, 5, 0, 0, 0);\n"
                     "for (int c = 0; c < 3; ++c) io->out[0][c] = (vf)(0.25f);\n"
                     "if (CLP_ANY(CLP_MASK(first > (vf)(0.5f)))) io->out[0][3] = (vf)(0.75f);");
  const float a0[4] = {1, 0, 0, 0}, a1[4] = {0, 0, 0, 0};
  r.draw(quad(a0, a1));
  Image img = r.image();
  int first = 0, second = 0;
  for (uint32_t y = 0; y < kH; ++y) {
    for (uint32_t x = 0; x < kW; ++x) {
      const auto c = img.rgba(x, y);
      CHECK(c[0] == 0.25f);
      // Triangle 0, (0,0) (0,kH) (kW,kH) in window coordinates, holds x/kW < y/kH (no
      // pixel centre lies on that diagonal at 24x16).
      const bool in_first = (x + 0.5f) / kW < (y + 0.5f) / kH;
      CHECK(c[3] == (in_first ? 0.75f : 0.0f));
      ++(in_first ? first : second);
    }
  }
  CHECK(first > 0);
  CHECK(second > 0);
}

TEST_CASE("depth and stencil exported by the shader replace the interpolated ones",
          "[draw][fragment]") {
  Run r;
  DrawFixture::FsSpec spec;
  spec.outputs = 2;
  spec.depth_reg = 1;
  spec.stencil_reg = 1;
  r.s.fs = r.fx.custom_fs(spec,
                          "for (int c = 0; c < 4; ++c) io->out[0][c] = (vf)(1.0f);\n"
                          "io->out[1][2] = (vf)(0.25f);\n"
                          "io->out[1][1] = CLP_AS_VF((vi)(77));");
  r.s.zsbuf = r.fx.target(Format::Z24_UNORM_S8_UINT, kW, kH);
  std::vector<uint8_t> init(kW * kH * 4);
  for (uint32_t i = 0; i < kW * kH; ++i) {
    frontend::pack_depth(Format::Z24_UNORM_S8_UINT, 0.5, &init[i * 4]);
    frontend::pack_stencil(Format::Z24_UNORM_S8_UINT, 3, &init[i * 4]);
  }
  r.s.zsbuf.buffer = r.fx.buffer(init.data(), init.size());
  r.s.dsa.depth_enabled = true;
  r.s.dsa.depth_writemask = true;
  r.s.dsa.depth_func = CompareFunc::LESS;  // interpolated 0.9 would fail, exported 0.25 passes
  r.s.dsa.stencil[0].enabled = true;
  r.s.dsa.stencil[0].func = CompareFunc::ALWAYS;
  r.s.dsa.stencil[0].zpass_op = StencilOp::REPLACE;
  const float a[4] = {0, 0, 0, 0};
  r.draw(quad(a, a, 0.8f));
  Image img = r.image();
  Image zs = r.fx.read(r.s.zsbuf, kW, kH);
  for (uint32_t y = 0; y < kH; ++y) {
    for (uint32_t x = 0; x < kW; ++x) {
      CHECK(img.rgba(x, y)[0] == 1.0f);
      CHECK(frontend::unpack_depth(Format::Z24_UNORM_S8_UINT, zs.pixel(x, y)) ==
            Approx(0.25).epsilon(1e-6));
      CHECK(frontend::unpack_stencil(Format::Z24_UNORM_S8_UINT, zs.pixel(x, y)) == 77);
    }
  }
}

TEST_CASE("multiple render targets of mixed formats, and integer targets never blend",
          "[draw][fragment]") {
  Run r;
  DrawFixture::FsSpec spec;
  spec.outputs = 3;
  spec.color_regs = {0, 1, 2, -1, -1, -1, -1, -1};
  r.s.fs = r.fx.custom_fs(spec,
                          "for (int c = 0; c < 4; ++c) {\n"
                          "  io->out[0][c] = (vf)(0.5f);\n"
                          "  io->out[1][c] = (vf)(2.5f);\n"
                          "  io->out[2][c] = CLP_AS_VF((vi)(-7 + c));\n"
                          "}");
  r.s.nr_cbufs = 3;
  r.s.cbufs[0] = r.fx.target(Format::R32G32B32A32_FLOAT, kW, kH);
  r.s.cbufs[1] = r.fx.target(Format::R32_FLOAT, kW, kH);
  r.s.cbufs[2] = r.fx.target(Format::R32G32B32A32_SINT, kW, kH);
  r.s.blend.independent_blend_enable = false;
  r.s.blend.rt[0].blend_enable = true;  // ONE, ONE: adds to what is there
  r.s.blend.rt[0].rgb_dst_factor = BlendFactor::ONE;
  r.s.blend.rt[0].alpha_dst_factor = BlendFactor::ONE;
  const float a[4] = {0, 0, 0, 0};
  r.draw(quad(a, a));
  r.draw(quad(a, a));  // blended targets accumulate, the integer one is overwritten
  Image i0 = r.image(0), i1 = r.image(1), i2 = r.image(2);
  for (uint32_t y = 0; y < kH; y += 2) {
    for (uint32_t x = 0; x < kW; x += 3) {
      CHECK(i0.rgba(x, y)[0] == 1.0f);
      CHECK(i1.rgba(x, y)[0] == 5.0f);
      int32_t v[4];
      std::memcpy(v, i2.pixel(x, y), 16);
      CHECK((v[0] == -7 && v[1] == -6 && v[2] == -5 && v[3] == -4));
    }
  }
}

TEST_CASE("COLOR0 broadcast and dual-source blending", "[draw][fragment]") {
  {
    Run r;
    DrawFixture::FsSpec spec;
    r.s.fs = r.fx.custom_fs(spec, "for (int c = 0; c < 4; ++c) io->out[0][c] = (vf)(0.75f);");
    r.s.fs_color0_broadcast = true;
    r.s.nr_cbufs = 2;
    r.s.cbufs[1] = r.fx.target(Format::R32G32B32A32_FLOAT, kW, kH);
    const float a[4] = {0, 0, 0, 0};
    r.draw(quad(a, a));
    CHECK(r.image(0).rgba(5, 5)[0] == 0.75f);
    CHECK(r.image(1).rgba(5, 5)[0] == 0.75f);
  }
  {
    Run r;
    DrawFixture::FsSpec spec;
    spec.outputs = 2;
    spec.color_regs = {0, 1, -1, -1, -1, -1, -1, -1};
    r.s.fs = r.fx.custom_fs(spec,
                            "for (int c = 0; c < 4; ++c) {\n"
                            "  io->out[0][c] = (vf)(0.5f);\n"
                            "  io->out[1][c] = (vf)(0.25f);\n"
                            "}");
    r.s.blend.rt[0].blend_enable = true;
    r.s.blend.rt[0].rgb_src_factor = BlendFactor::SRC1_COLOR;      // 0.5 * 0.25
    r.s.blend.rt[0].rgb_dst_factor = BlendFactor::INV_SRC1_ALPHA;  // + dst * 0.75
    r.s.cbufs[0] = r.fx.target(Format::R32G32B32A32_FLOAT, kW, kH);
    std::vector<float> init(kW * kH * 4, 1.0f);
    r.s.cbufs[0].buffer = r.fx.buffer(init.data(), init.size() * 4);
    const float a[4] = {0, 0, 0, 0};
    r.draw(quad(a, a));
    CHECK(r.image().rgba(3, 3)[0] == 0.125f + 0.75f);
  }
}

TEST_CASE("two-sided colour, flat COLOR inputs and colour clamping", "[draw][fragment]") {
  Run r;
  DrawFixture::FsSpec spec;
  // COLOR[0] input with interpolation mode COLOR (3).
  r.s.fs = r.fx.custom_fs(
      spec, "for (int c = 0; c < 4; ++c) io->out[0][c] = clp_fs_input(stage, 0, c, 1, 0, 3, 0);");
  r.s.vs = r.fx.passthrough_vs(3);
  r.s.fs_links = {ClpFsLink{1,
                            2,
                            CLP_LINK_COLOR | CLP_LINK_ALL_CHANNELS | CLP_LINK_ALL_BCOLOR_CHANNELS,
                            {0, 0, 0, 1}}};  // COLOR in 1, BCOLOR in 2
  auto draw = [&](float cf, float cb) {
    const float v[6][2] = {{-1, 1}, {-1, -1}, {1, 1}, {-1, -1}, {1, 1}, {1, -1}};
    std::vector<float> d;
    for (int i = 0; i < 6; ++i) {
      // The provoking (last) vertex of each triangle gets a distinct colour.
      const float c = (i % 3 == 2) ? cf : 0.1f;
      d.insert(d.end(), {v[i][0], v[i][1], 0, 1, c, c, c, 1, cb, cb, cb, 1});
    }
    r.fx.set_vertices(
        r.s, d, 12,
        {Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT});
    DrawInfo info;
    r.fx.pipeline().draw(r.s, info, DrawStartCountBias{0, 6, 0}, 0);
    return r.image();
  };
  r.s.rasterizer.flatshade = true;
  r.s.rasterizer.light_twoside = true;
  Image img = draw(0.6f, 0.3f);
  int front = 0, back = 0;
  for (uint32_t y = 0; y < kH; ++y) {
    for (uint32_t x = 0; x < kW; ++x) {
      const float v = img.rgba(x, y)[0];
      CHECK((v == 0.6f || v == 0.3f));  // flat: exactly the provoking vertex's value
      (v == 0.6f ? front : back)++;
    }
  }
  CHECK(front > 0);
  CHECK(back > 0);
  // Vertex colour clamping applies to COLOR inputs; fragment clamping to outputs.
  r.s.rasterizer.light_twoside = false;
  r.s.rasterizer.clamp_vertex_color = true;
  img = draw(1.5f, 0.3f);
  CHECK(img.rgba(20, 2)[0] == 1.0f);
  r.s.rasterizer.clamp_vertex_color = false;
  img = draw(1.5f, 0.3f);
  bool saw_unclamped = false;
  for (uint32_t y = 0; y < kH; ++y)
    for (uint32_t x = 0; x < kW; ++x)
      saw_unclamped |= img.rgba(x, y)[0] == 1.5f;
  CHECK(saw_unclamped);
  r.s.rasterizer.clamp_fragment_color = true;
  img = draw(1.5f, 0.3f);
  for (uint32_t y = 0; y < kH; ++y)
    for (uint32_t x = 0; x < kW; ++x)
      CHECK(img.rgba(x, y)[0] <= 1.0f);
}

TEST_CASE("PRIMID counts the primitives of the draw", "[draw][fragment]") {
  Run r;
  DrawFixture::FsSpec spec;
  r.s.fs = r.fx.custom_fs(
      spec,
      "io->out[0][0] = CLP_CONVERT_VF(CLP_AS_VI(clp_fs_input(stage, 0, 0, 9, 0, 0, 0)));\n"
      "io->out[0][1] = io->out[0][2] = (vf)(0.0f); io->out[0][3] = (vf)(1.0f);");
  r.s.fs_reads_prim_id = true;
  r.s.fs_links = {ClpFsLink{-1, -1, 0, {0, 0, 0, 1}}};
  // A strip of 4 triangles across the window, left to right.
  std::vector<float> d;
  for (int i = 0; i < 6; ++i) {
    const float x = -1.0f + 2.0f * float(i / 2) / 2.0f;
    d.insert(d.end(), {x, (i & 1) ? -1.0f : 1.0f, 0, 1, 0, 0, 0, 0});
  }
  r.draw(d, PrimType::TRIANGLE_STRIP);
  Image img = r.image();
  // Triangles 0 and 1 fill the left half, 2 and 3 the right half.
  for (uint32_t y = 0; y < kH; ++y) {
    CHECK(img.rgba(1, y)[0] <= 1.0f);
    CHECK(img.rgba(kW - 2, y)[0] >= 2.0f);
  }
}

TEST_CASE("user clip planes cut like the primitive edges they stand for", "[draw][clip]") {
  // A quad drawn through user planes, then (added on top, planes off) triangles with the
  // same edges: every pixel gets both or neither, also where an edge passes through pixel
  // centres (GL clips geometrically; piglit gl-1.0-user-clip-all-planes). Planes on the
  // position, w = 1: keep x <= c (a vertical edge through the centres of column 12 of 24)
  // and x + y >= d, a diagonal.
  Run r;
  r.s.fs = r.fx.custom_fs(DrawFixture::FsSpec{},
                          "for (int c = 0; c < 4; ++c) io->out[0][c] = clp_fs_input(stage, 0, "
                          "c, 5, 0, 0, 0);");
  const float c = 12.5f / 12.0f - 1.0f, d = -1.5f;
  r.s.clip.ucp[0][0] = -1.0f;  // -x + c >= 0
  r.s.clip.ucp[0][3] = c;
  r.s.clip.ucp[1][0] = 1.0f;  // x + y - d >= 0
  r.s.clip.ucp[1][1] = 1.0f;
  r.s.clip.ucp[1][3] = -d;
  r.s.rasterizer.clip_plane_enable = 0x3;
  const float green[4] = {0, 1, 0, 1}, blue[4] = {0, 0, 1, 1};
  r.draw(quad(green, green));
  // The kept region of the quad: x in [-1, c], y in [-1, 1], above x + y = d.
  r.s.rasterizer.clip_plane_enable = 0;
  RtBlendState& rt = r.s.blend.rt[0];
  rt.blend_enable = true;
  rt.rgb_src_factor = rt.rgb_dst_factor = BlendFactor::ONE;
  rt.alpha_src_factor = rt.alpha_dst_factor = BlendFactor::ONE;
  const float poly[5][2] = {
      {d + 1.0f, -1.0f}, {c, -1.0f}, {c, 1.0f}, {-1.0f, 1.0f}, {-1.0f, d + 1.0f}};
  std::vector<float> fan;
  for (int t = 1; t + 1 < 5; ++t) {
    for (int k : {0, t, t + 1})
      fan.insert(fan.end(), {poly[k][0], poly[k][1], 0, 1, blue[0], blue[1], blue[2], blue[3]});
  }
  r.draw(fan);
  Image img = r.image();
  int both = 0, mixed = 0;
  for (uint32_t y = 0; y < kH; ++y) {
    for (uint32_t x = 0; x < kW; ++x) {
      const auto p = img.rgba(x, y);
      INFO("pixel " << x << "," << y << ": " << p[1] << " " << p[2]);
      CHECK(p[1] == p[2]);
      mixed += p[1] != p[2];
      both += p[1] > 0.5f && p[2] > 0.5f;
    }
  }
  CHECK(both > 40);
  CHECK(mixed == 0);
}

TEST_CASE("shader arithmetic flushes denormal results to zero", "[draw][fragment]") {
  // x * 1e-10 for x = 1e-30 (a flat input, so the product is computed per fragment) lies
  // below FLT_MIN: flushed, it compares equal to 0, as on llvmpipe and GPUs. The input
  // itself (normal) passes through unchanged.
  for (const char* mode : {"generic", "always"}) {
    ScopedEnv env("CLPIPE_TILE_VARIANTS", mode);
    Run r;
    DrawFixture::FsSpec spec;
    r.s.fs = r.fx.custom_fs(spec,
                            "const vf x = clp_fs_input(stage, 0, 0, 5, 0, 0, 0);\n"
                            "const vf p = x * (vf)(1e-10f);\n"
                            "io->out[0][0] = select((vf)(0.0f), (vf)(1.0f), "
                            "CLP_MASK(p == (vf)(0.0f)));\n"
                            "io->out[0][1] = x;\n"
                            "io->out[0][2] = p * (vf)(1e30f);\n"
                            "io->out[0][3] = (vf)(1.0f);");
    const float a[4] = {1e-30f, 0, 0, 0};
    r.draw(quad(a, a));
    const Image img = r.image();
    INFO(mode);
    for (uint32_t y = 0; y < kH; ++y) {
      for (uint32_t x = 0; x < kW; ++x) {
        const auto c = img.rgba(x, y);
        REQUIRE(c[0] == 1.0f);
        REQUIRE(c[1] == 1e-30f);
        REQUIRE(c[2] == 0.0f);
      }
    }
  }
}
