// Textures through the public API: resources uploaded with transfers, sampler views
// (first level, layer of an array, swizzle) and sampler states bound to the fragment
// stage, sampled by a TGSI TEX in draw_vbo; clear_texture then sampling; an unbound view
// reads zeros. Pixels are compared with the texels they must show (nearest filtering,
// pixel centres on texel centres), so the resource layout the front-end describes to the
// sampling library (ClpTexView) is checked end to end.
#include <catch2/catch.hpp>

#include <cstring>

#include "frontend/context_impl.h"
#include "frontend/frontend_util.h"
#include "support/scoped_env.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

const char* kVs =
    "VERT\n"
    "DCL IN[0]\n"
    "DCL IN[1]\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "  0: MOV OUT[0], IN[0]\n"
    "  1: MOV OUT[1], IN[1]\n"
    "  2: END\n";
const char* kFs =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
    "DCL OUT[0], COLOR\n"
    "DCL SAMP[0]\n"
    "DCL SVIEW[0], 2D, FLOAT\n"
    "  0: TEX OUT[0], IN[0], SAMP[0], 2D\n"
    "  1: END\n";

constexpr uint32_t kSize = 8;

// Texel (x, y) of level `level`, layer `layer`.
std::array<float, 4> texel(uint32_t x, uint32_t y, uint32_t level, uint32_t layer) {
  return {float(x + 10 * y), float(level), float(layer), 0.5f};
}

struct TexScene {
  std::unique_ptr<Context> ctx = new_context();
  ResourceRef rt, vbuf;

  TexScene() {
    rt = create(make_templ(TextureTarget::TEXTURE_2D, Format::R32G32B32A32_FLOAT, kSize, kSize, 1,
                           1, 0, Bind::RENDER_TARGET));
    SurfaceTemplate st;
    st.format = Format::R32G32B32A32_FLOAT;
    FramebufferState fb;
    fb.width = kSize;
    fb.height = kSize;
    fb.nr_cbufs = 1;
    fb.cbufs[0] = ctx->create_surface(rt, st).value();
    REQUIRE(ctx->set_framebuffer_state(fb).is_ok());
    const ViewportState vp = window_viewport(kSize, kSize);
    REQUIRE(ctx->set_viewport_states(0, {vp}).is_ok());
    ShaderState s;
    s.tgsi = kVs;
    REQUIRE(ctx->bind_vs_state(ctx->create_vs_state(s).value()).is_ok());
    s.tgsi = kFs;
    REQUIRE(ctx->bind_fs_state(ctx->create_fs_state(s).value()).is_ok());
    VertexElement pos, tc;
    pos.src_format = Format::R32G32_FLOAT;
    tc.src_format = Format::R32G32_FLOAT;
    tc.src_offset = 8;
    ctx->bind_vertex_elements_state(ctx->create_vertex_elements_state({pos, tc}).value());
    ctx->bind_rasterizer_state(ctx->create_rasterizer_state(RasterizerState()).value());
    ctx->bind_blend_state(ctx->create_blend_state(BlendState()).value());
    ctx->bind_depth_stencil_alpha_state(
        ctx->create_depth_stencil_alpha_state(DepthStencilAlphaState()).value());
    // A full-screen quad, texture coordinates (0, 0) at NDC (-1, -1) (pixel row 0).
    const float v[] = {-1, -1, 0, 0, 1, -1, 1, 0, -1, 1, 0, 1,
                       1,  -1, 1, 0, 1, 1,  1, 1, -1, 1, 0, 1};
    vbuf = create_buffer(sizeof(v));
    REQUIRE(ctx->buffer_subdata(vbuf, Map::WRITE, 0, sizeof(v), v).is_ok());
    VertexBuffer vb;
    vb.stride = 16;
    vb.buffer = vbuf;
    REQUIRE(ctx->set_vertex_buffers(0, {vb}).is_ok());
    SamplerState smp;  // nearest, no mips, repeat
    REQUIRE(
        ctx->bind_sampler_states(ShaderType::FRAGMENT, 0, {ctx->create_sampler_state(smp).value()})
            .is_ok());
  }

  // Draws with `view` bound (or none) and returns the pixels.
  std::vector<std::array<float, 4>> draw(const SamplerViewHandle& view) {
    REQUIRE(ctx->set_sampler_views(ShaderType::FRAGMENT, 0, {view}).is_ok());
    REQUIRE(ctx->draw_vbo(DrawInfo(), 0, nullptr, {DrawStartCountBias{0, 6, 0}}).is_ok());
    const auto bytes = read_box(*ctx, rt, 0, make_box_2d(0, 0, kSize, kSize));
    std::vector<std::array<float, 4>> px(kSize * kSize);
    std::memcpy(px.data(), bytes.data(), bytes.size());
    return px;
  }
};

// A texture of `layers` layers and 2 levels filled with texel().
ResourceRef make_texture(Context& ctx, TextureTarget target, uint16_t layers) {
  ResourceRef tex = create(make_templ(target, Format::R32G32B32A32_FLOAT, kSize, kSize, 1, layers,
                                      1, Bind::SAMPLER_VIEW));
  for (uint32_t level = 0; level < 2; ++level) {
    const uint32_t n = kSize >> level;
    std::vector<uint8_t> data(size_t(n) * n * 16 * layers);
    for (uint32_t z = 0; z < layers; ++z) {
      for (uint32_t y = 0; y < n; ++y) {
        for (uint32_t x = 0; x < n; ++x) {
          const auto t = texel(x, y, level, z);
          std::memcpy(&data[((size_t(z) * n + y) * n + x) * 16], t.data(), 16);
        }
      }
    }
    write_box(ctx, tex, level, Box{0, 0, 0, int(n), int(n), int(layers)}, data);
  }
  return tex;
}

}  // namespace

TEST_CASE("textures: sampler views and samplers reach TEX in draw_vbo", "[frontend][draw][tex]") {
  TexScene s;
  ResourceRef tex = make_texture(*s.ctx, TextureTarget::TEXTURE_2D, 1);
  SamplerViewTemplate vt;
  vt.format = Format::R32G32B32A32_FLOAT;
  vt.last_level = 1;
  auto px = s.draw(s.ctx->create_sampler_view(tex, vt).value());
  for (uint32_t y = 0; y < kSize; ++y) {
    for (uint32_t x = 0; x < kSize; ++x) {
      INFO("pixel " << x << "," << y);
      CHECK(px[y * kSize + x] == texel(x, y, 0, 0));
    }
  }

  // A view of level 1 only, swizzled (B, G, R, 1): 4x4 texels over 8x8 pixels.
  vt.first_level = vt.last_level = 1;
  vt.swizzle_r = Swizzle::Z;
  vt.swizzle_b = Swizzle::X;
  vt.swizzle_a = Swizzle::ONE;
  px = s.draw(s.ctx->create_sampler_view(tex, vt).value());
  for (uint32_t y = 0; y < kSize; ++y) {
    for (uint32_t x = 0; x < kSize; ++x) {
      INFO("pixel " << x << "," << y);
      const auto t = texel(x / 2, y / 2, 1, 0);
      CHECK(px[y * kSize + x] == std::array<float, 4>{t[2], t[1], t[0], 1.0f});
    }
  }

  // clear_texture of part of level 0, then sampled.
  const float value[4] = {7, 6, 5, 4};
  REQUIRE(s.ctx->clear_texture(tex, 0, make_box_2d(2, 1, 3, 4), value).is_ok());
  vt = SamplerViewTemplate();
  vt.format = Format::R32G32B32A32_FLOAT;
  px = s.draw(s.ctx->create_sampler_view(tex, vt).value());
  for (uint32_t y = 0; y < kSize; ++y) {
    for (uint32_t x = 0; x < kSize; ++x) {
      INFO("pixel " << x << "," << y);
      const bool cleared = x >= 2 && x < 5 && y >= 1 && y < 5;
      CHECK(px[y * kSize + x] == (cleared ? std::array<float, 4>{7, 6, 5, 4} : texel(x, y, 0, 0)));
    }
  }

  // No view bound: the sampler reads zeros.
  px = s.draw(SamplerViewHandle());
  CHECK(px[0] == std::array<float, 4>{0, 0, 0, 0});
  CHECK(px[kSize * kSize - 1] == std::array<float, 4>{0, 0, 0, 0});
}

TEST_CASE("textures: a 2D view of one layer of an array and of a cube face",
          "[frontend][draw][tex]") {
  TexScene s;
  for (TextureTarget target : {TextureTarget::TEXTURE_2D_ARRAY, TextureTarget::TEXTURE_CUBE}) {
    const uint16_t layers = target == TextureTarget::TEXTURE_CUBE ? 6 : 4;
    ResourceRef tex = make_texture(*s.ctx, target, layers);
    SamplerViewTemplate vt;
    vt.format = Format::R32G32B32A32_FLOAT;
    vt.target = TextureTarget::TEXTURE_2D;
    vt.first_layer = vt.last_layer = 3;
    const auto px = s.draw(s.ctx->create_sampler_view(tex, vt).value());
    for (uint32_t y = 0; y < kSize; ++y) {
      for (uint32_t x = 0; x < kSize; ++x) {
        INFO(target_name(target) << " pixel " << x << "," << y);
        CHECK(px[y * kSize + x] == texel(x, y, 0, 3));
      }
    }
    // Views past the resource are refused at creation.
    vt.first_layer = vt.last_layer = layers;
    CHECK_FALSE(s.ctx->create_sampler_view(tex, vt).is_ok());
    vt.first_layer = vt.last_layer = 0;
    vt.last_level = 2;
    CHECK_FALSE(s.ctx->create_sampler_view(tex, vt).is_ok());
  }
}

TEST_CASE("textures: the vertex stage samples with explicit LOD (TXL)", "[frontend][draw][tex]") {
  // VS: the colour of every vertex is texel (1, 2) of level 1, fetched with TXL at the
  // texture coordinate of that texel's centre; the FS passes it on (flat across the quad).
  TexScene s;
  ShaderState vs;
  vs.tgsi =
      "VERT\n"
      "DCL IN[0]\n"
      "DCL IN[1]\n"
      "DCL OUT[0], POSITION\n"
      "DCL OUT[1], GENERIC[0]\n"
      "DCL SAMP[0]\n"
      "DCL SVIEW[0], 2D, FLOAT\n"
      "IMM[0] FLT32 {0.375, 0.625, 0.0, 1.0}\n"
      "  0: MOV OUT[0], IN[0]\n"
      "  1: TXL OUT[1], IMM[0].xyzw, SAMP[0], 2D\n"
      "  2: END\n";
  ShaderState fs;
  fs.tgsi =
      "FRAG\n"
      "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
      "DCL OUT[0], COLOR\n"
      "  0: MOV OUT[0], IN[0]\n"
      "  1: END\n";
  REQUIRE(s.ctx->bind_vs_state(s.ctx->create_vs_state(vs).value()).is_ok());
  REQUIRE(s.ctx->bind_fs_state(s.ctx->create_fs_state(fs).value()).is_ok());
  SamplerState smp;
  smp.min_mip_filter = TexMipFilter::NEAREST;
  REQUIRE(
      s.ctx->bind_sampler_states(ShaderType::VERTEX, 0, {s.ctx->create_sampler_state(smp).value()})
          .is_ok());
  ResourceRef tex = make_texture(*s.ctx, TextureTarget::TEXTURE_2D, 1);
  SamplerViewTemplate vt;
  vt.format = Format::R32G32B32A32_FLOAT;
  vt.last_level = 1;
  REQUIRE(
      s.ctx->set_sampler_views(ShaderType::VERTEX, 0, {s.ctx->create_sampler_view(tex, vt).value()})
          .is_ok());
  const auto px = s.draw(SamplerViewHandle());  // nothing bound to the fragment stage
  // Level 1 is 4x4: (0.375, 0.625) * 4 = (1.5, 2.5) -> texel (1, 2).
  CHECK(px[0] == texel(1, 2, 1, 0));
  CHECK(px[kSize * kSize - 1] == texel(1, 2, 1, 0));
}

TEST_CASE("textures: the draws of one scene sample views of their own formats",
          "[frontend][draw][tex][variants]") {
  // Specialised tile programs compile in the format and swizzle of each draw's views: two
  // draws of one shader in one scene, one sampling RGBA8 and one R8 (swizzled), must each
  // get the program of their own view.
  ScopedEnv env("CLPIPE_TILE_VARIANTS", "always");
  TexScene s;
  auto byte = [](uint32_t x, uint32_t y, uint32_t c) { return uint8_t(31 * x + 7 * y + 50 * c); };
  ResourceRef rgba = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, kSize,
                                       kSize, 1, 1, 0, Bind::SAMPLER_VIEW));
  ResourceRef r8 = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8_UNORM, kSize, kSize, 1,
                                     1, 0, Bind::SAMPLER_VIEW));
  std::vector<uint8_t> rgba_data, r8_data;
  for (uint32_t y = 0; y < kSize; ++y) {
    for (uint32_t x = 0; x < kSize; ++x) {
      for (uint32_t c = 0; c < 4; ++c)
        rgba_data.push_back(byte(x, y, c));
      r8_data.push_back(byte(x, y, 3));
    }
  }
  write_box(*s.ctx, rgba, 0, make_box_2d(0, 0, kSize, kSize), rgba_data);
  write_box(*s.ctx, r8, 0, make_box_2d(0, 0, kSize, kSize), r8_data);
  SamplerViewTemplate vt;
  vt.format = Format::R8G8B8A8_UNORM;
  const SamplerViewHandle rgba_view = s.ctx->create_sampler_view(rgba, vt).value();
  vt.format = Format::R8_UNORM;
  vt.swizzle_g = Swizzle::X;  // (r, r, 0, 1)
  const SamplerViewHandle r8_view = s.ctx->create_sampler_view(r8, vt).value();

  // The left half of the window, then the right half; texture coordinates follow NDC.
  const float v[] = {-1, -1, 0,    0, 0,  -1, 0.5f, 0, -1, 1,  0,    1, 0, -1, 0.5f, 0,
                     0,  1,  0.5f, 1, -1, 1,  0,    1, 0,  -1, 0.5f, 0, 1, -1, 1,    0,
                     0,  1,  0.5f, 1, 1,  -1, 1,    0, 1,  1,  1,    1, 0, 1,  0.5f, 1};
  ResourceRef vbuf = create_buffer(sizeof(v));
  REQUIRE(s.ctx->buffer_subdata(vbuf, Map::WRITE, 0, sizeof(v), v).is_ok());
  VertexBuffer vb;
  vb.stride = 16;
  vb.buffer = vbuf;
  REQUIRE(s.ctx->set_vertex_buffers(0, {vb}).is_ok());
  auto& impl = dynamic_cast<frontend::ContextImpl&>(*s.ctx);
  const uint64_t scenes = impl.scene_counters().scenes;
  REQUIRE(s.ctx->set_sampler_views(ShaderType::FRAGMENT, 0, {rgba_view}).is_ok());
  REQUIRE(s.ctx->draw_vbo(DrawInfo(), 0, nullptr, {DrawStartCountBias{0, 6, 0}}).is_ok());
  REQUIRE(s.ctx->set_sampler_views(ShaderType::FRAGMENT, 0, {r8_view}).is_ok());
  REQUIRE(s.ctx->draw_vbo(DrawInfo(), 0, nullptr, {DrawStartCountBias{6, 6, 0}}).is_ok());
  const auto bytes = read_box(*s.ctx, s.rt, 0, make_box_2d(0, 0, kSize, kSize));
  CHECK(impl.scene_counters().scenes == scenes + 1);  // both draws in one scene
  std::vector<std::array<float, 4>> px(kSize * kSize);
  std::memcpy(px.data(), bytes.data(), bytes.size());
  for (uint32_t y = 0; y < kSize; ++y) {
    for (uint32_t x = 0; x < kSize; ++x) {
      INFO("pixel " << x << "," << y);
      std::array<float, 4> want;
      if (x < kSize / 2) {
        for (uint32_t c = 0; c < 4; ++c)
          want[c] = float(byte(x, y, c)) / 255.0f;
      } else {
        const float r = float(byte(x, y, 3)) / 255.0f;
        want = {r, r, 0.0f, 1.0f};
      }
      for (uint32_t c = 0; c < 4; ++c)
        CHECK(px[y * kSize + x][c] == Approx(want[c]).margin(1e-6));
    }
  }
}

TEST_CASE("textures: a border colour given in the view's format", "[frontend][draw][tex][border]") {
  // virgl sends the border colour as four words without saying whether they are integers
  // or floats: they are integers when the sampler is used with an integer texture and
  // floats otherwise: integer words sampled through a UINT view (read as float bits, they
  // gave 0), float words through a FLOAT view.
  TexScene s;
  // Samples outside the texture (coordinates + 2) and writes the texel as floats.
  auto fs = [&](const std::string& type, const std::string& convert) {
    ShaderState sh;
    sh.tgsi =
        "FRAG\n"
        "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
        "DCL OUT[0], COLOR\n"
        "DCL SAMP[0]\n"
        "DCL SVIEW[0], 2D, " +
        type +
        "\n"
        "DCL TEMP[0..1]\n"
        "IMM[0] FLT32 { 2.0, 2.0, 0.0, 0.0 }\n"
        "  0: ADD TEMP[1], IN[0], IMM[0]\n"
        "  1: TEX TEMP[0], TEMP[1], SAMP[0], 2D\n"
        "  2: " +
        convert +
        " OUT[0], TEMP[0]\n"
        "  3: END\n";
    REQUIRE(s.ctx->bind_fs_state(s.ctx->create_fs_state(sh).value()).is_ok());
  };
  auto sampler = [&](const std::array<uint32_t, 4>& words) {
    SamplerState smp;
    smp.wrap_s = smp.wrap_t = TexWrap::CLAMP_TO_BORDER;
    smp.border_color_in_view_format = true;
    for (int c = 0; c < 4; ++c)
      smp.border_color.ui[c] = words[c];
    REQUIRE(s.ctx
                ->bind_sampler_states(ShaderType::FRAGMENT, 0,
                                      {s.ctx->create_sampler_state(smp).value()})
                .is_ok());
  };
  auto check_all = [&](const std::vector<std::array<float, 4>>& px, std::array<float, 4> want) {
    for (uint32_t i = 0; i < kSize * kSize; ++i) {
      INFO("pixel " << i);
      for (uint32_t c = 0; c < 4; ++c)
        CHECK(px[i][c] == want[c]);
    }
  };
  SamplerViewTemplate vt;
  vt.format = Format::R32G32B32A32_UINT;
  ResourceRef utex = create(make_templ(TextureTarget::TEXTURE_2D, Format::R32G32B32A32_UINT, kSize,
                                       kSize, 1, 1, 0, Bind::SAMPLER_VIEW));
  fs("UINT", "U2F");
  sampler({7, 300, 5, 2});
  check_all(s.draw(s.ctx->create_sampler_view(utex, vt).value()), {7, 300, 5, 2});

  const float f[4] = {0.25f, -2.0f, 8.5f, 1.0f};
  std::array<uint32_t, 4> fw;
  std::memcpy(fw.data(), f, sizeof(f));
  fs("FLOAT", "MOV");
  sampler(fw);
  check_all(s.draw(s.ctx
                       ->create_sampler_view(make_texture(*s.ctx, TextureTarget::TEXTURE_2D, 1),
                                             SamplerViewTemplate{Format::R32G32B32A32_FLOAT})
                       .value()),
            {0.25f, -2.0f, 8.5f, 1.0f});
}
