// Clears that start a scene (ContextImpl::clear_in_scene, src/frontend/draw/tile_runs.cpp):
// the scene's first tile pass applies them as it loads its pixels. They store exactly the
// texels of a clear run on its own (clear_render_target / clear_depth_stencil, fill
// passes), cost no launch of their own, and still clear where a scene cannot take them.
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>

#include "frontend/frontend_util.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

const char* kVs =
    "VERT\n"
    "DCL IN[0]\n"
    "DCL OUT[0], POSITION\n"
    "  0: MOV OUT[0], IN[0]\n"
    "  1: END\n";
// CONST[0] to every colour buffer.
const char* kFs =
    "FRAG\n"
    "PROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\n"
    "DCL OUT[0], COLOR\n"
    "DCL CONST[0]\n"
    "  0: MOV OUT[0], CONST[0]\n"
    "  1: END\n";

// Partial tiles and partial blocks at the right and top edges.
constexpr uint32_t kW = 37, kH = 21;
constexpr double kDepth = 0.5;
constexpr unsigned kStencil = 0x5a;

// A clear value with a negative, a fractional and an out-of-range channel for each class.
ColorUnion clear_value(Format f, int variant) {
  ColorUnion c{};
  if (format_is_pure_uint(f)) {
    const uint32_t v[2][4] = {{3, 200, 70000, 1}, {9, 0, 5, 77}};
    std::memcpy(c.ui, v[variant], sizeof(c.ui));
  } else if (format_is_pure_sint(f)) {
    const int32_t v[2][4] = {{-3, 100, -70000, 1}, {9, -1, 5, -77}};
    std::memcpy(c.i, v[variant], sizeof(c.i));
  } else {
    const float v[2][4] = {{0.25f, -0.5f, 0.6f, 1.5f}, {0.75f, 0.125f, 0.0f, 0.5f}};
    std::memcpy(c.f, v[variant], sizeof(c.f));
  }
  return c;
}

// Colour targets of the given formats and a depth/stencil target (NONE: none), a blended
// triangle at window depth 0.25 whose stencil test passes only where the stencil is
// kStencil (and increments it there).
struct Scene {
  std::unique_ptr<Context> ctx = new_context();
  frontend::ContextImpl& impl = dynamic_cast<frontend::ContextImpl&>(*ctx);
  std::vector<Format> formats;
  std::vector<ResourceRef> rts;
  std::vector<SurfaceHandle> cbufs;
  ResourceRef zs, vbuf;
  SurfaceHandle zsurf;

  Scene(const std::vector<Format>& colour, Format zs_format) : formats(colour) {
    for (Format f : colour) {
      rts.push_back(
          create(make_templ(TextureTarget::TEXTURE_2D, f, kW, kH, 1, 1, 0, Bind::RENDER_TARGET)));
      cbufs.push_back(make_surface(*ctx, rts.back(), f));
    }
    if (zs_format != Format::NONE) {
      zs = create(
          make_templ(TextureTarget::TEXTURE_2D, zs_format, kW, kH, 1, 1, 0, Bind::DEPTH_STENCIL));
      zsurf = make_surface(*ctx, zs, zs_format);
    }
    bind_framebuffer();
    REQUIRE(ctx->set_viewport_states(0, {window_viewport(kW, kH)}).is_ok());
    ShaderState s;
    s.tgsi = kVs;
    REQUIRE(ctx->bind_vs_state(ctx->create_vs_state(s).value()).is_ok());
    s.tgsi = kFs;
    REQUIRE(ctx->bind_fs_state(ctx->create_fs_state(s).value()).is_ok());
    VertexElement pos;
    pos.src_format = Format::R32G32B32A32_FLOAT;
    ctx->bind_vertex_elements_state(ctx->create_vertex_elements_state({pos}).value());
    ctx->bind_rasterizer_state(ctx->create_rasterizer_state(RasterizerState()).value());
    BlendState b;
    b.rt[0].blend_enable = true;
    b.rt[0].rgb_src_factor = b.rt[0].alpha_src_factor = BlendFactor::SRC_ALPHA;
    b.rt[0].rgb_dst_factor = b.rt[0].alpha_dst_factor = BlendFactor::INV_SRC_ALPHA;
    ctx->bind_blend_state(ctx->create_blend_state(b).value());
    DepthStencilAlphaState z;
    z.depth_enabled = true;
    z.depth_writemask = true;
    z.depth_func = CompareFunc::LESS;
    z.stencil[0].enabled = true;
    z.stencil[0].func = CompareFunc::EQUAL;
    z.stencil[0].zpass_op = StencilOp::INCR;
    ctx->bind_depth_stencil_alpha_state(ctx->create_depth_stencil_alpha_state(z).value());
    StencilRef ref;
    ref.ref_value[0] = kStencil;
    ctx->set_stencil_ref(ref);
    const float k[4] = {0.875f, 0.25f, 0.5f, 0.5f};
    ConstantBuffer cb;
    cb.user_buffer = k;
    cb.buffer_size = sizeof(k);
    REQUIRE(ctx->set_constant_buffer(ShaderType::FRAGMENT, 0, &cb).is_ok());
    vbuf = create_buffer(4096);
    const float v[12] = {-0.9f, -0.8f, -0.5f, 1, 0.7f, -0.95f, -0.5f, 1, -0.2f, 0.9f, -0.5f, 1};
    REQUIRE(ctx->buffer_subdata(vbuf, Map::WRITE, 0, sizeof(v), v).is_ok());
    VertexBuffer vb;
    vb.stride = 16;
    vb.buffer = vbuf;
    REQUIRE(ctx->set_vertex_buffers(0, {vb}).is_ok());
  }

  void bind_framebuffer() {
    FramebufferState fb;
    fb.width = kW;
    fb.height = kH;
    fb.nr_cbufs = uint8_t(cbufs.size());
    for (size_t i = 0; i < cbufs.size(); ++i)
      fb.cbufs[i] = cbufs[i];
    fb.zsbuf = zsurf;
    REQUIRE(ctx->set_framebuffer_state(fb).is_ok());
  }

  // Contents unlike any clear of the tests, written by fill passes.
  void prepare() {
    for (size_t i = 0; i < cbufs.size(); ++i)
      REQUIRE(ctx->clear_render_target(cbufs[i], clear_value(formats[i], 1), 0, 0, kW, kH, false)
                  .is_ok());
    if (zsurf) {
      REQUIRE(ctx->clear_depth_stencil(zsurf, Clear::DEPTHSTENCIL, 0.75, 0x33, 0, 0, kW, kH, false)
                  .is_ok());
    }
  }

  // The clear of `buffers` by clear_render_target and clear_depth_stencil: fill passes.
  void clear_alone(uint32_t buffers, const ScissorState* sc, int variant = 0) {
    const unsigned x = sc ? sc->minx : 0, y = sc ? sc->miny : 0;
    const unsigned w = sc ? sc->maxx - sc->minx : kW, h = sc ? sc->maxy - sc->miny : kH;
    for (size_t i = 0; i < cbufs.size(); ++i) {
      if (!(buffers & (Clear::COLOR0 << i))) continue;
      REQUIRE(
          ctx->clear_render_target(cbufs[i], clear_value(formats[i], variant), x, y, w, h, false)
              .is_ok());
    }
    if (zsurf && (buffers & Clear::DEPTHSTENCIL)) {
      REQUIRE(ctx->clear_depth_stencil(zsurf, buffers & Clear::DEPTHSTENCIL, kDepth, kStencil, x, y,
                                       w, h, false)
                  .is_ok());
    }
  }

  // clear() with the value of the first colour buffer's format class.
  void clear(uint32_t buffers, const ScissorState* sc, int variant = 0) {
    REQUIRE(ctx->clear(buffers, sc,
                       clear_value(formats.empty() ? Format::NONE : formats[0], variant), kDepth,
                       kStencil)
                .is_ok());
  }

  void draw() {
    REQUIRE(ctx->draw_vbo(DrawInfo(), 0, nullptr, {DrawStartCountBias{0, 3, 0}}).is_ok());
  }
  void flush() { REQUIRE(ctx->flush(nullptr, 0).is_ok()); }

  std::vector<std::vector<uint8_t>> contents() {
    std::vector<std::vector<uint8_t>> out;
    for (const ResourceRef& r : rts)
      out.push_back(read_box(*ctx, r, 0, make_box_2d(0, 0, kW, kH)));
    if (zs) out.push_back(read_box(*ctx, zs, 0, make_box_2d(0, 0, kW, kH)));
    return out;
  }

  // Launches of the context's queue, in and out of scenes, by `frame` and a flush.
  uint64_t launches_of(const std::function<void()>& frame) {
    const uint64_t before = impl.queue_for_tests().counters().launches;
    frame();
    flush();
    return impl.queue_for_tests().counters().launches - before;
  }
  // Launches of a scene of the draw alone, after one that grew the scene's buffers (so
  // that the counted one does not replay).
  uint64_t draw_launches() {
    prepare();
    draw();
    flush();
    return launches_of([&] { draw(); });
  }
};

// clear() takes one value for every buffer: the tests clear buffers of one class together.
uint32_t all_buffers(const Scene& s) {
  uint32_t b = Clear::DEPTHSTENCIL;
  for (size_t i = 0; i < s.cbufs.size(); ++i)
    b |= Clear::COLOR0 << i;
  return b;
}

}  // namespace

TEST_CASE("scene clear: every renderable colour format stores the texels of a clear alone",
          "[frontend][scene]") {
  auto screen = shared_screen();
  const ScissorState rect{5, 3, 30, 17};
  unsigned tested = 0;
  for (unsigned i = 1; i < unsigned(Format::COUNT); ++i) {
    const Format f = Format(i);
    if (!screen->is_format_supported(f, TextureTarget::TEXTURE_2D, 0, 0, Bind::RENDER_TARGET)) {
      continue;
    }
    ++tested;
    INFO(format_name(f));
    Scene s({f}, Format::Z24_UNORM_S8_UINT);
    // Every format on the one generic program: a specialised program per format would cost
    // a cold build each (the next test covers specialised programs).
    s.impl.set_tile_variant_mode(frontend::draw::TileVariantMode::kGeneric);
    for (const ScissorState* sc : {static_cast<const ScissorState*>(nullptr), &rect}) {
      INFO((sc ? "scissored" : "whole"));
      s.prepare();
      s.clear_alone(all_buffers(s), sc);
      s.draw();
      const auto expected = s.contents();
      s.prepare();
      s.clear(all_buffers(s), sc);
      s.draw();
      CHECK(s.contents() == expected);
    }
    // The clear took no launch of its own: a scene of the draw alone costs as many.
    const uint64_t draw_only = s.draw_launches();
    s.prepare();
    CHECK(s.launches_of([&] {
      s.clear(all_buffers(s), &rect);
      s.draw();
    }) == draw_only);
  }
  CHECK(tested > 100);
}

TEST_CASE("scene clear: several targets, overlapping draws and a replay",
          "[frontend][draw][scene]") {
  const std::vector<std::vector<Format>> sets = {
      // The across-lanes colour path of specialised programs (tile_color.h).
      {Format::R8G8B8A8_UNORM, Format::B8G8R8X8_UNORM},
      {Format::R8G8B8A8_SRGB, Format::R16G16B16A16_FLOAT, Format::R10G10B10A2_UNORM,
       Format::R32G32B32A32_FLOAT, Format::R8_SNORM, Format::B5G6R5_UNORM, Format::R11G11B10_FLOAT,
       Format::R16G16_UNORM}};
  const Format zs_formats[] = {Format::Z24X8_UNORM, Format::Z32_FLOAT_S8X24_UINT};
  const ScissorState rect{2, 1, 35, 20};
  for (size_t k = 0; k < sets.size(); ++k) {
    INFO("set " << k);
    Scene s(sets[k], zs_formats[k]);
    auto frame = [&](bool scene_clear, bool tiny) {
      s.prepare();
      if (scene_clear) {
        s.clear(all_buffers(s), &rect);
      } else {
        s.clear_alone(all_buffers(s), &rect);
      }
      // Room for 1 record and 2 bin entries: the scene replays.
      if (tiny) s.impl.set_scene_capacity_cap(1, 2);
      for (int d = 0; d < 3; ++d)
        s.draw();
      return s.contents();
    };
    const auto expected = frame(false, false);
    CHECK(frame(true, false) == expected);
    const uint64_t replays = s.impl.scene_counters().replays;
    CHECK(frame(true, true) == expected);
    CHECK(s.impl.scene_counters().replays > replays);
  }
}

TEST_CASE("scene clear: clears a scene cannot take still clear, in API order",
          "[frontend][draw][scene]") {
  Scene s({Format::R8G8B8A8_UNORM}, Format::Z24_UNORM_S8_UINT);
  const uint32_t colour = Clear::COLOR0;
  const ScissorState left{0, 0, 20, kH}, right{10, 0, kW, kH};

  SECTION("a clear of depth alone keeps the stencil") {
    s.prepare();
    s.clear_alone(colour | Clear::DEPTH, nullptr);
    s.draw();
    const auto expected = s.contents();
    s.prepare();
    s.clear(colour | Clear::DEPTH, nullptr);
    s.draw();
    CHECK(s.contents() == expected);
  }
  SECTION("a colour clear and a depth/stencil clear of one rectangle join") {
    s.prepare();
    s.clear_alone(all_buffers(s), &left);
    s.draw();
    const auto expected = s.contents();
    const uint64_t draw_only = s.draw_launches();
    s.prepare();
    const uint64_t joined = s.launches_of([&] {
      s.clear(colour, &left);
      s.clear(Clear::DEPTHSTENCIL, &left);
      s.draw();
    });
    CHECK(s.contents() == expected);
    CHECK(joined == draw_only);
  }
  SECTION("clears of different rectangles run in order") {
    s.prepare();
    s.clear_alone(all_buffers(s), &left, 0);
    s.clear_alone(all_buffers(s), &right, 1);
    s.draw();
    const auto expected = s.contents();
    s.prepare();
    s.clear(all_buffers(s), &left, 0);
    s.clear(all_buffers(s), &right, 1);
    s.draw();
    CHECK(s.contents() == expected);
  }
  SECTION("a clear followed by draws that reach no tile pass, or by nothing") {
    s.prepare();
    s.clear_alone(all_buffers(s), &left);
    const auto expected = s.contents();
    s.prepare();
    s.clear(all_buffers(s), &left);
    RasterizerState discard;
    discard.rasterizer_discard = true;
    s.ctx->bind_rasterizer_state(s.ctx->create_rasterizer_state(discard).value());
    s.draw();
    CHECK(s.contents() == expected);
    s.prepare();
    s.clear(all_buffers(s), &left);
    CHECK(s.ctx->is_resource_referenced(s.rts[0], 0));
    CHECK(s.contents() == expected);  // the map runs the scene of the clear alone
  }
  SECTION("under a render condition the clear runs before the scene, not in its tile pass") {
    // A condition that lets draws and clears run: the draw's samples passed.
    QueryHandle q = s.ctx->create_query(QueryType::OCCLUSION_PREDICATE, 0).value();
    s.clear_alone(all_buffers(s), nullptr);  // the stencil the draw's test passes on
    REQUIRE(s.ctx->begin_query(q).is_ok());
    s.draw();
    REQUIRE(s.ctx->end_query(q).is_ok());
    REQUIRE(s.ctx->render_condition(q, false, RenderCondMode::WAIT).is_ok());
    s.prepare();
    s.clear_alone(all_buffers(s), &left);
    s.draw();
    const auto expected = s.contents();
    const uint64_t draw_only = s.draw_launches();
    s.prepare();
    const uint64_t cleared = s.launches_of([&] {
      s.clear(all_buffers(s), &left);
      s.draw();
    });
    CHECK(s.contents() == expected);
    CHECK(cleared > draw_only);  // the clear's fill passes
    REQUIRE(s.ctx->render_condition(nullptr, false, RenderCondMode::WAIT).is_ok());
  }
  SECTION("a framebuffer change runs the clear on the targets it was for") {
    s.prepare();
    s.clear_alone(all_buffers(s), nullptr);
    const auto cleared = s.contents();
    s.prepare();
    REQUIRE(s.contents() != cleared);
    s.clear(all_buffers(s), nullptr);
    ResourceRef other = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, kW, kH,
                                          1, 1, 0, Bind::RENDER_TARGET));
    const std::vector<SurfaceHandle> first = s.cbufs;
    s.cbufs = {make_surface(*s.ctx, other, Format::R8G8B8A8_UNORM)};
    s.zsurf = nullptr;
    s.bind_framebuffer();
    s.draw();
    s.cbufs = first;
    CHECK(s.contents() == cleared);
  }
}
