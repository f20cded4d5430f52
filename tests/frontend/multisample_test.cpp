// Multisampled resources through the API: what the screen offers per sample count,
// rendering, clears, copies and blit resolves, and the errors for what it does not do.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "draw/reference_raster.h"
#include "frontend/frontend_util.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

constexpr uint32_t kW = 37, kH = 21;

const char* kVs =
    "VERT\n"
    "DCL IN[0]\n"
    "DCL OUT[0], POSITION\n"
    "  0: MOV OUT[0], IN[0]\n"
    "  1: END\n";
const char* kFs =
    "FRAG\n"
    "DCL OUT[0], COLOR\n"
    "DCL CONST[0]\n"
    "  0: MOV OUT[0], CONST[0]\n"
    "  1: END\n";

// Texel (x, y) of sample CONST[0].x (an integer) of a 2D_MSAA view, and in .y the view's
// sample count (TXQS).
const char* kFetchFs =
    "FRAG\n"
    "DCL IN[0], POSITION, LINEAR\n"
    "DCL OUT[0], COLOR\n"
    "DCL SAMP[0]\n"
    "DCL SVIEW[0], 2D_MSAA, FLOAT\n"
    "DCL CONST[0]\n"
    "DCL TEMP[0..2]\n"
    "  0: F2I TEMP[0].xy, IN[0].xyyy\n"
    "  1: MOV TEMP[0].w, CONST[0].xxxx\n"
    "  2: TXF TEMP[1], TEMP[0], SAMP[0], 2D_MSAA\n"
    "  3: TXQS TEMP[2].x, SAMP[0], 2D_MSAA\n"
    "  4: U2F TEMP[1].y, TEMP[2].xxxx\n"
    "  5: MOV OUT[0], TEMP[1]\n"
    "  6: END\n";

ResourceRef ms_texture(Format f, unsigned samples, uint32_t bind, uint16_t layers = 1) {
  ResourceTemplate t =
      make_templ(layers > 1 ? TextureTarget::TEXTURE_2D_ARRAY : TextureTarget::TEXTURE_2D, f, kW,
                 kH, 1, layers, 0, bind);
  t.nr_samples = t.nr_storage_samples = uint8_t(samples);
  return create(t);
}

Status create_status(const ResourceTemplate& t) {
  return shared_screen()->resource_create(t).status();
}

// A context drawing CONST[0] with one triangle into an RGBA8 colour buffer and a Z24S8
// depth buffer of `samples` samples, cleared first.
struct MsScene {
  std::unique_ptr<Context> ctx = new_context();
  unsigned samples;
  ResourceRef color, zs, vbuf;
  SurfaceHandle csurf, zsurf;
  float tri[12] = {-0.9f, -0.8f, 0.0f, 1, 0.7f, -0.95f, 0.0f, 1, -0.2f, 0.9f, 0.0f, 1};

  explicit MsScene(unsigned n) : samples(n) {
    color = ms_texture(Format::R8G8B8A8_UNORM, n, Bind::RENDER_TARGET);
    zs = ms_texture(Format::Z24_UNORM_S8_UINT, n, Bind::DEPTH_STENCIL);
    csurf = make_surface(*ctx, color, Format::R8G8B8A8_UNORM);
    zsurf = make_surface(*ctx, zs, Format::Z24_UNORM_S8_UINT);
    FramebufferState fb;
    fb.width = kW;
    fb.height = kH;
    fb.nr_cbufs = 1;
    fb.cbufs[0] = csurf;
    fb.zsbuf = zsurf;
    REQUIRE(ctx->set_framebuffer_state(fb).is_ok());
    REQUIRE(ctx->set_viewport_states(0, {window_viewport(kW, kH)}).is_ok());
    ShaderState s;
    s.tgsi = kVs;
    REQUIRE(ctx->bind_vs_state(ctx->create_vs_state(s).value()).is_ok());
    s.tgsi = kFs;
    REQUIRE(ctx->bind_fs_state(ctx->create_fs_state(s).value()).is_ok());
    VertexElement pos;
    pos.src_format = Format::R32G32B32A32_FLOAT;
    ctx->bind_vertex_elements_state(ctx->create_vertex_elements_state({pos}).value());
    RasterizerState r;
    r.multisample = true;
    ctx->bind_rasterizer_state(ctx->create_rasterizer_state(r).value());
    ctx->bind_blend_state(ctx->create_blend_state(BlendState()).value());
    DepthStencilAlphaState z;
    z.depth_enabled = true;
    z.depth_writemask = true;
    z.depth_func = CompareFunc::LESS;
    ctx->bind_depth_stencil_alpha_state(ctx->create_depth_stencil_alpha_state(z).value());
    const float white[4] = {1, 1, 1, 1};
    ConstantBuffer cb;
    cb.user_buffer = white;
    cb.buffer_size = sizeof(white);
    REQUIRE(ctx->set_constant_buffer(ShaderType::FRAGMENT, 0, &cb).is_ok());
    vbuf = create_buffer(4096);
    REQUIRE(ctx->buffer_subdata(vbuf, Map::WRITE, 0, sizeof(tri), tri).is_ok());
    VertexBuffer vb;
    vb.stride = 16;
    vb.buffer = vbuf;
    REQUIRE(ctx->set_vertex_buffers(0, {vb}).is_ok());
  }

  void clear_and_draw() {
    ColorUnion black{};
    REQUIRE(ctx->clear(Clear::COLOR0 | Clear::DEPTHSTENCIL, nullptr, black, 1.0, 0).is_ok());
    REQUIRE(ctx->draw_vbo(DrawInfo(), 0, nullptr, {DrawStartCountBias{0, 3, 0}}).is_ok());
  }

  // `src` resolved into a new single-sampled texture of format f (a blit), read back.
  std::vector<uint8_t> resolve(const ResourceRef& src, Format f = Format::R8G8B8A8_UNORM,
                               uint32_t mask = Mask::RGBA) {
    const bool zs = format_is_depth_or_stencil(f);
    ResourceRef dst = create(make_templ(TextureTarget::TEXTURE_2D, f, kW, kH, 1, 1, 0,
                                        zs ? Bind::DEPTH_STENCIL : Bind::RENDER_TARGET));
    BlitInfo b;
    b.dst.resource = dst;
    b.src.resource = src;
    b.dst.format = b.src.format = f;
    b.dst.box = b.src.box = make_box_2d(0, 0, kW, kH);
    b.mask = mask;
    REQUIRE(ctx->blit(b).to_string() == "Ok");
    return read_box(*ctx, dst, 0, make_box_2d(0, 0, kW, kH));
  }

  // Sample `sample` of the colour buffer as a shader fetches it (kFetchFs), drawn into a
  // single-sampled RGBA32F target: the texels' red, and the sample count in green.
  std::vector<float> fetch(int32_t sample) {
    ResourceRef out = create(make_templ(TextureTarget::TEXTURE_2D, Format::R32G32B32A32_FLOAT, kW,
                                        kH, 1, 1, 0, Bind::RENDER_TARGET));
    FramebufferState fb;
    fb.width = kW;
    fb.height = kH;
    fb.nr_cbufs = 1;
    fb.cbufs[0] = make_surface(*ctx, out, Format::R32G32B32A32_FLOAT);
    REQUIRE(ctx->set_framebuffer_state(fb).is_ok());
    ctx->bind_depth_stencil_alpha_state(
        ctx->create_depth_stencil_alpha_state(DepthStencilAlphaState()).value());
    ShaderState s;
    s.tgsi = kFetchFs;
    REQUIRE(ctx->bind_fs_state(ctx->create_fs_state(s).value()).is_ok());
    const int32_t k[4] = {sample, 0, 0, 0};
    ConstantBuffer cb;
    cb.user_buffer = k;
    cb.buffer_size = sizeof(k);
    REQUIRE(ctx->set_constant_buffer(ShaderType::FRAGMENT, 0, &cb).is_ok());
    SamplerViewTemplate vt;
    vt.format = Format::R8G8B8A8_UNORM;
    vt.target = TextureTarget::TEXTURE_2D;
    auto view = ctx->create_sampler_view(color, vt);
    REQUIRE(view.status().to_string() == "Ok");
    REQUIRE(ctx->set_sampler_views(ShaderType::FRAGMENT, 0, {view.value()}).is_ok());
    REQUIRE(ctx->bind_sampler_states(ShaderType::FRAGMENT, 0,
                                     {ctx->create_sampler_state(SamplerState()).value()})
                .is_ok());
    // Two triangles over the window.
    const float quad[24] = {-1, -1, 0, 1, 1, -1, 0, 1, 1,  1, 0, 1,
                            -1, -1, 0, 1, 1, 1,  0, 1, -1, 1, 0, 1};
    REQUIRE(ctx->buffer_subdata(vbuf, Map::WRITE, 0, sizeof(quad), quad).is_ok());
    REQUIRE(ctx->draw_vbo(DrawInfo(), 0, nullptr, {DrawStartCountBias{0, 6, 0}}).is_ok());
    const std::vector<uint8_t> bytes = read_box(*ctx, out, 0, make_box_2d(0, 0, kW, kH));
    std::vector<float> px(bytes.size() / 4);
    std::memcpy(px.data(), bytes.data(), bytes.size());
    return px;
  }

  // Samples of pixel (x, y) inside the triangle, from the reference rasterizer.
  std::vector<int> reference_counts() const {
    std::vector<int> n(size_t(kW) * kH, 0);
    RefVertex v[3];
    for (int k = 0; k < 3; ++k)
      v[k].pos = {tri[4 * k], tri[4 * k + 1], tri[4 * k + 2], tri[4 * k + 3]};
    for (unsigned s = 0; s < samples; ++s) {
      const RefState rs = ref_sample_state(kW, kH, samples, s);
      for (const RefFragment& f : ref_triangle(rs, v[0], v[1], v[2]))
        ++n[size_t(f.y) * kW + f.x];
    }
    return n;
  }
};

}  // namespace

TEST_CASE("the screen offers 2, 4 and 8 samples for 2D colour and depth targets",
          "[frontend][msaa]") {
  const Screen& s = *shared_screen();
  for (unsigned n : {2u, 4u, 8u}) {
    INFO(n << " samples");
    CHECK(s.is_format_supported(Format::R8G8B8A8_UNORM, TextureTarget::TEXTURE_2D, n, n,
                                Bind::RENDER_TARGET | Bind::BLENDABLE));
    CHECK(s.is_format_supported(Format::R32G32B32A32_SINT, TextureTarget::TEXTURE_2D_ARRAY, n, n,
                                Bind::RENDER_TARGET));
    CHECK(s.is_format_supported(Format::Z24_UNORM_S8_UINT, TextureTarget::TEXTURE_2D, n, n,
                                Bind::DEPTH_STENCIL));
    CHECK(s.is_format_supported(Format::R8G8B8A8_UNORM, TextureTarget::TEXTURE_2D, n, n,
                                Bind::SAMPLER_VIEW));
    // No images or other targets of multisampled textures.
    CHECK_FALSE(s.is_format_supported(Format::R8G8B8A8_UNORM, TextureTarget::TEXTURE_2D, n, n,
                                      Bind::SHADER_IMAGE));
    CHECK_FALSE(s.is_format_supported(Format::R8G8B8A8_UNORM, TextureTarget::TEXTURE_3D, n, n,
                                      Bind::RENDER_TARGET));
    CHECK_FALSE(s.is_format_supported(Format::R8G8B8A8_UNORM, TextureTarget::TEXTURE_2D, n, 1,
                                      Bind::RENDER_TARGET));
  }
  for (unsigned n : {3u, 16u, 32u}) {
    CHECK_FALSE(s.is_format_supported(Format::R8G8B8A8_UNORM, TextureTarget::TEXTURE_2D, n, n,
                                      Bind::RENDER_TARGET));
  }
}

TEST_CASE("multisampled resources are refused where clpipe cannot make them", "[frontend][msaa]") {
  ResourceTemplate t = make_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, 8, 8, 1, 1, 0,
                                  Bind::RENDER_TARGET);
  t.nr_samples = 3;
  CHECK(create_status(t).code() == ErrorCode::kUnsupported);
  CHECK(create_status(t).to_string().find("3 samples") != std::string::npos);
  t.nr_samples = 4;
  t.last_level = 1;
  CHECK(create_status(t).code() == ErrorCode::kInvalidArgument);
  t.last_level = 0;
  t.target = TextureTarget::TEXTURE_3D;
  CHECK_FALSE(create_status(t).is_ok());
  t.target = TextureTarget::TEXTURE_2D;
  CHECK(create_status(t).is_ok());

  auto ctx = new_context();
  ResourceRef ms = ms_texture(Format::R8G8B8A8_UNORM, 4, Bind::RENDER_TARGET);
  CHECK(ctx->transfer_map(ms, 0, Map::READ, make_box_2d(0, 0, 4, 4)).status().code() ==
        ErrorCode::kUnsupported);
  ImageView img;
  img.resource = ms;
  img.format = Format::R8G8B8A8_UNORM;
  CHECK(ctx->set_shader_images(ShaderType::FRAGMENT, 0, {img}).code() == ErrorCode::kUnsupported);
  // Attachments of different sample counts.
  ResourceRef ms2 = ms_texture(Format::Z24_UNORM_S8_UINT, 2, Bind::DEPTH_STENCIL);
  FramebufferState fb;
  fb.width = kW;
  fb.height = kH;
  fb.nr_cbufs = 1;
  fb.cbufs[0] = make_surface(*ctx, ms, Format::R8G8B8A8_UNORM);
  fb.zsbuf = make_surface(*ctx, ms2, Format::Z24_UNORM_S8_UINT);
  const Status st = ctx->set_framebuffer_state(fb);
  CHECK(st.code() == ErrorCode::kInvalidArgument);
  CHECK(st.to_string().find("equal sample counts") != std::string::npos);
  // Copies and blits between different counts.
  ResourceRef ss = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, kW, kH, 1,
                                     1, 0, Bind::RENDER_TARGET));
  CHECK(ctx->resource_copy_region(ss, 0, 0, 0, 0, ms, 0, make_box_2d(0, 0, 4, 4)).code() ==
        ErrorCode::kInvalidArgument);
  ResourceRef ms8 = ms_texture(Format::R8G8B8A8_UNORM, 8, Bind::RENDER_TARGET);
  BlitInfo b;
  b.dst.resource = ms8;
  b.src.resource = ms;
  b.dst.format = b.src.format = Format::R8G8B8A8_UNORM;
  b.dst.box = b.src.box = make_box_2d(0, 0, 4, 4);
  CHECK(ctx->blit(b).code() == ErrorCode::kInvalidArgument);
  // The context still works.
  CHECK(ctx->flush(nullptr, 0).is_ok());
}

TEST_CASE("sample positions are the standard patterns", "[frontend][msaa]") {
  auto ctx = new_context();
  for (unsigned n : {1u, 2u, 4u, 8u}) {
    for (unsigned i = 0; i < n; ++i) {
      float p[2];
      REQUIRE(ctx->get_sample_position(n, i, p).is_ok());
      const auto d = n == 1 ? std::array<int, 2>{0, 0} : ref_sample_offset(n, i);
      CHECK(p[0] == 0.5f + float(d[0]) / 256.0f);
      CHECK(p[1] == 0.5f + float(d[1]) / 256.0f);
    }
  }
  float p[2];
  CHECK(ctx->get_sample_position(4, 4, p).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->get_sample_position(6, 0, p).code() == ErrorCode::kInvalidArgument);
}

TEST_CASE("a resolve averages the samples a draw covered", "[frontend][msaa]") {
  for (unsigned n : {2u, 4u, 8u}) {
    MsScene sc(n);
    sc.clear_and_draw();
    const std::vector<uint8_t> px = sc.resolve(sc.color);
    const std::vector<int> want = sc.reference_counts();
    int edge = 0, bad = 0;
    for (size_t p = 0; p < want.size(); ++p) {
      // Each sample is 0 or 255: the average of k of n is 255 k / n, rounded.
      const double expect = 255.0 * want[p] / n;
      for (int c = 0; c < 4; ++c)
        bad += std::abs(px[4 * p + c] - expect) > 0.51;
      edge += want[p] > 0 && want[p] < int(n);
    }
    INFO(n << " samples");
    CHECK(bad == 0);
    CHECK(edge > 10);  // the edges are antialiased
  }
}

TEST_CASE("clears, copies and depth resolves reach every sample", "[frontend][msaa]") {
  MsScene sc(4);
  sc.clear_and_draw();
  // A copy between resources of equal samples copies every sample.
  ResourceRef copy = ms_texture(Format::R8G8B8A8_UNORM, 4, Bind::RENDER_TARGET);
  REQUIRE(sc.ctx->resource_copy_region(copy, 0, 0, 0, 0, sc.color, 0, make_box_2d(0, 0, kW, kH))
              .is_ok());
  CHECK(sc.resolve(copy) == sc.resolve(sc.color));
  // A blit between them too.
  ResourceRef copy2 = ms_texture(Format::R8G8B8A8_UNORM, 4, Bind::RENDER_TARGET);
  BlitInfo b;
  b.dst.resource = copy2;
  b.src.resource = sc.color;
  b.dst.format = b.src.format = Format::R8G8B8A8_UNORM;
  b.dst.box = b.src.box = make_box_2d(0, 0, kW, kH);
  b.mask = Mask::R | Mask::G | Mask::B;  // masked: the blit kernel, not a raw copy
  REQUIRE(sc.ctx->blit(b).is_ok());
  const std::vector<uint8_t> a = sc.resolve(sc.color), c = sc.resolve(copy2);
  for (size_t i = 0; i < a.size(); i += 4)
    CHECK(std::memcmp(&a[i], &c[i], 3) == 0);
  // Depth resolves take sample 0: 0.5 where sample 0 is inside the triangle, else 1.
  const std::vector<uint8_t> z = sc.resolve(sc.zs, Format::Z24_UNORM_S8_UINT, Mask::Z);
  RefVertex v[3];
  for (int k = 0; k < 3; ++k)
    v[k].pos = {sc.tri[4 * k], sc.tri[4 * k + 1], sc.tri[4 * k + 2], 1};
  const RefState rs = ref_sample_state(kW, kH, 4, 0);
  std::vector<bool> in(size_t(kW) * kH, false);
  for (const RefFragment& f : ref_triangle(rs, v[0], v[1], v[2]))
    in[size_t(f.y) * kW + f.x] = true;
  int bad = 0;
  for (size_t p = 0; p < in.size(); ++p) {
    uint32_t word;
    std::memcpy(&word, &z[4 * p], 4);
    const uint32_t depth = word & 0xffffffu;
    bad += in[p] ? std::abs(int(depth) - 0x800000) > 1 : depth != 0xffffffu;
  }
  CHECK(bad == 0);
  // clear_render_target clears every sample.
  ColorUnion grey{};
  grey.f[0] = grey.f[1] = grey.f[2] = grey.f[3] = 0.5f;
  REQUIRE(sc.ctx->clear_render_target(sc.csurf, grey, 0, 0, kW, kH, false).is_ok());
  for (uint8_t byte : sc.resolve(sc.color))
    CHECK(byte == 128);
}

TEST_CASE("shaders fetch each sample of a multisampled texture (TXF, TXQS)",
          "[frontend][tex][msaa]") {
  MsScene sc(4);
  sc.clear_and_draw();
  RefVertex v[3];
  for (int k = 0; k < 3; ++k)
    v[k].pos = {sc.tri[4 * k], sc.tri[4 * k + 1], sc.tri[4 * k + 2], 1};
  for (int32_t s = 0; s < 5; ++s) {
    const std::vector<float> px = sc.fetch(s);
    std::vector<bool> in(size_t(kW) * kH, false);
    if (s < 4) {  // sample 4 does not exist: fetches read 0
      const RefState rs = ref_sample_state(kW, kH, 4, unsigned(s));
      for (const RefFragment& f : ref_triangle(rs, v[0], v[1], v[2]))
        in[size_t(f.y) * kW + f.x] = true;
    }
    int bad = 0;
    for (size_t p = 0; p < in.size(); ++p)
      bad += px[4 * p] != (in[p] ? 1.0f : 0.0f) || px[4 * p + 1] != 4.0f;
    INFO("sample " << s);
    CHECK(bad == 0);
  }
}
