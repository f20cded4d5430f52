// Shader buffers and images in fragment shaders, through draw_vbo: the evidence behind the
// FRAGMENT stage's MAX_SHADER_BUFFERS / MAX_SHADER_IMAGES caps (and so virgl's shared
// fragment/compute fields, src/vtest/caps.cpp). Stores and atomics happen once per
// covered pixel (never for helper lanes of partly covered quads); image loads read the
// bound view.
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <vector>

#include "compute_util.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

const char* kVs = R"(VERT
DCL IN[0]
DCL OUT[0], POSITION
MOV OUT[0], IN[0]
END
)";

constexpr uint32_t kW = 32, kH = 24;

// A kW x kH RGBA32F target, pass-through VS, default state; vertices are (x, y, 0, 1).
struct FsScene {
  std::unique_ptr<Context> ctx = new_context();
  ResourceRef rt, vbuf;

  FsScene() {
    rt = create(make_templ(TextureTarget::TEXTURE_2D, Format::R32G32B32A32_FLOAT, kW, kH, 1, 1, 0,
                           Bind::RENDER_TARGET));
    SurfaceTemplate st;
    st.format = Format::R32G32B32A32_FLOAT;
    FramebufferState fb;
    fb.width = kW;
    fb.height = kH;
    fb.nr_cbufs = 1;
    fb.cbufs[0] = ctx->create_surface(rt, st).value();
    REQUIRE(ctx->set_framebuffer_state(fb).is_ok());
    const ViewportState vp = window_viewport(kW, kH);
    REQUIRE(ctx->set_viewport_states(0, {vp}).is_ok());
    ShaderState s;
    s.tgsi = kVs;
    REQUIRE(ctx->bind_vs_state(ctx->create_vs_state(s).value()).is_ok());
    VertexElement pos;
    pos.src_format = Format::R32G32B32A32_FLOAT;
    ctx->bind_vertex_elements_state(ctx->create_vertex_elements_state({pos}).value());
    ctx->bind_rasterizer_state(ctx->create_rasterizer_state(RasterizerState()).value());
    ctx->bind_blend_state(ctx->create_blend_state(BlendState()).value());
    ctx->bind_depth_stencil_alpha_state(
        ctx->create_depth_stencil_alpha_state(DepthStencilAlphaState()).value());
  }

  void fs(const char* tgsi) {
    ShaderState s;
    s.tgsi = tgsi;
    auto h = ctx->create_fs_state(s);
    REQUIRE(h.status().to_string() == "Ok");
    REQUIRE(ctx->bind_fs_state(h.value()).is_ok());
  }

  void draw(const std::vector<std::array<float, 2>>& tri) {
    std::vector<float> v;
    for (const auto& p : tri)
      v.insert(v.end(), {p[0], p[1], 0, 1});
    vbuf = create_buffer(uint32_t(v.size() * 4));
    REQUIRE(ctx->buffer_subdata(vbuf, Map::WRITE, 0, uint32_t(v.size() * 4), v.data()).is_ok());
    VertexBuffer vb;
    vb.stride = 16;
    vb.buffer = vbuf;
    REQUIRE(ctx->set_vertex_buffers(0, {vb}).is_ok());
    const Status s =
        ctx->draw_vbo(DrawInfo(), 0, nullptr, {DrawStartCountBias{0, uint32_t(tri.size()), 0}});
    REQUIRE(s.to_string() == "Ok");
  }

  std::vector<float> pixels() {
    const std::vector<uint8_t> b = read_box(*ctx, rt, 0, make_box_2d(0, 0, kW, kH));
    std::vector<float> f(b.size() / 4);
    std::memcpy(f.data(), b.data(), b.size());
    return f;
  }
};

}  // namespace

TEST_CASE("fragment shaders store to shader buffers and count with atomics once per pixel",
          "[frontend][draw][fragment_resources]") {
  // BUFFER[0][y * kW + x] = y * kW + x + 1; BUFFER[1][0] counts invocations; colour 1.
  const char* kFs = R"(FRAG
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..2]
IMM[0] UINT32 {32, 4, 1, 0}
IMM[1] FLT32 {1.0, 1.0, 1.0, 1.0}
F2U TEMP[0].xy, IN[0].xyyy
UMAD TEMP[1].x, TEMP[0].yyyy, IMM[0].xxxx, TEMP[0].xxxx
UMUL TEMP[1].y, TEMP[1].xxxx, IMM[0].yyyy
UADD TEMP[1].z, TEMP[1].xxxx, IMM[0].zzzz
STORE BUFFER[0].x, TEMP[1].yyyy, TEMP[1].zzzz
ATOMUADD TEMP[2].x, BUFFER[1], IMM[0].wwww, IMM[0].zzzz
MOV OUT[0], IMM[1]
END
)";
  FsScene s;
  s.fs(kFs);
  ResourceRef out = words_resource(*s.ctx, {}, kW * kH * 4);
  ResourceRef counter = words_resource(*s.ctx, {0, 0, 0, 0});
  std::vector<ShaderBuffer> sb(2);
  sb[0].buffer = out;
  sb[0].buffer_size = kW * kH * 4;
  sb[1].buffer = counter;
  sb[1].buffer_size = 16;
  REQUIRE(s.ctx->set_shader_buffers(ShaderType::FRAGMENT, 0, sb, 0x3).is_ok());
  // One triangle with slanted edges: many quads are partly covered, so helper lanes run.
  s.draw({{-0.9f, -0.8f}, {0.7f, -0.95f}, {-0.2f, 0.9f}});

  const std::vector<float> px = s.pixels();
  const std::vector<uint32_t> words = read_words(*s.ctx, out);
  uint32_t covered = 0;
  for (uint32_t y = 0; y < kH; ++y) {
    for (uint32_t x = 0; x < kW; ++x) {
      const uint32_t i = y * kW + x;
      const bool shaded = px[i * 4 + 3] == 1.0f;
      covered += shaded;
      INFO("pixel " << x << "," << y);
      // Written exactly where the pixel was shaded, with its own index.
      CHECK(words[i] == (shaded ? i + 1 : 0u));
    }
  }
  CHECK(covered > 100);
  CHECK(covered < kW * kH);
  CHECK(read_words(*s.ctx, counter)[0] == covered);
}

TEST_CASE("fragment shaders load from images", "[frontend][draw][fragment_resources]") {
  // OUT[0] = IMAGE[0] texel (x, y) as integers converted to float.
  const char* kFs = R"(FRAG
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
DCL IMAGE[0], 2D, PIPE_FORMAT_R32G32B32A32_UINT
DCL TEMP[0..1]
F2U TEMP[0].xy, IN[0].xyyy
LOAD TEMP[1], IMAGE[0], TEMP[0], 2D, PIPE_FORMAT_R32G32B32A32_UINT
U2F OUT[0], TEMP[1]
END
)";
  FsScene s;
  s.fs(kFs);
  ResourceRef img = create(make_templ(TextureTarget::TEXTURE_2D, Format::R32G32B32A32_UINT, kW, kH,
                                      1, 1, 0, Bind::SHADER_IMAGE | Bind::SAMPLER_VIEW));
  std::vector<uint32_t> texels(kW * kH * 4);
  for (uint32_t i = 0; i < texels.size(); ++i)
    texels[i] = (i * 2654435761u) >> 20;  // exact in a float
  std::vector<uint8_t> bytes(texels.size() * 4);
  std::memcpy(bytes.data(), texels.data(), bytes.size());
  write_box(*s.ctx, img, 0, make_box_2d(0, 0, kW, kH), bytes);
  ImageView v;
  v.resource = img;
  v.format = Format::R32G32B32A32_UINT;
  v.access = v.shader_access = ImageAccess::READ;
  REQUIRE(s.ctx->set_shader_images(ShaderType::FRAGMENT, 0, {v}).is_ok());
  s.draw({{-1, -1}, {1, -1}, {-1, 1}, {-1, 1}, {1, -1}, {1, 1}});

  const std::vector<float> px = s.pixels();
  for (uint32_t y = 0; y < kH; ++y) {
    for (uint32_t x = 0; x < kW; ++x) {
      const uint32_t i = (y * kW + x) * 4;
      INFO("pixel " << x << "," << y);
      for (uint32_t c = 0; c < 4; ++c)
        CHECK(px[i + c] == float(texels[i + c]));
    }
  }
}
