// Parameter state (set_* calls): ranges, slots, resources, user memory, and that a
// failed call keeps the previous bindings. Also the draw-side calls other issues build.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "frontend/context_impl.h"
#include "frontend_util.h"

using namespace clpipe;
using namespace clpipe::test;

TEST_CASE("value setters store their state and mark it dirty", "[frontend][state]") {
  auto ctx = new_context();
  clear_dirty(*ctx);
  BlendColor bc;
  bc.color[2] = 0.5f;
  ctx->set_blend_color(bc);
  StencilRef sr;
  sr.ref_value[1] = 7;
  ctx->set_stencil_ref(sr);
  ctx->set_sample_mask(0x3);
  ctx->set_min_samples(2);
  ClipState clip;
  clip.ucp[7][3] = 2.0f;
  ctx->set_clip_state(clip);
  PolyStipple st;
  st.stipple[31] = 0xdeadbeef;
  ctx->set_polygon_stipple(st);
  const float outer[4] = {2, 3, 4, 5}, inner[2] = {6, 7};
  ctx->set_tess_state(outer, inner);
  ctx->set_patch_vertices(4);
  const auto& s = state_of(*ctx);
  CHECK(s.blend_color.color[2] == 0.5f);
  CHECK(s.stencil_ref.ref_value[1] == 7);
  CHECK(s.sample_mask == 0x3);
  CHECK(s.min_samples == 2);
  CHECK(s.clip.ucp[7][3] == 2.0f);
  CHECK(s.stipple.stipple[31] == 0xdeadbeef);
  CHECK(s.tess_outer[3] == 5);
  CHECK(s.tess_inner[1] == 7);
  CHECK(s.patch_vertices == 4);
  using namespace frontend;
  CHECK(s.dirty == (kDirtyBlendColor | kDirtyStencilRef | kDirtySampleMask | kDirtyMinSamples |
                    kDirtyClip | kDirtyStipple | kDirtyTess));
}

TEST_CASE("scissors and viewports: slots and values", "[frontend][state]") {
  auto ctx = new_context();
  ScissorState sc;
  sc.maxx = 10;
  sc.maxy = 20;
  REQUIRE(ctx->set_scissor_states(15, {sc}).is_ok());
  CHECK(state_of(*ctx).scissors[15].maxy == 20);
  CHECK(ctx->set_scissor_states(15, {sc, sc}).code() == ErrorCode::kInvalidArgument);
  ScissorState inverted = sc;
  inverted.minx = 11;
  CHECK(ctx->set_scissor_states(0, {sc, inverted}).code() == ErrorCode::kInvalidArgument);
  CHECK(state_of(*ctx).scissors[0].maxx == 0);  // the failed call stored nothing
  ViewportState vp;
  vp.scale[0] = 100;
  REQUIRE(ctx->set_viewport_states(0, {vp}).is_ok());
  CHECK(state_of(*ctx).viewports[0].scale[0] == 100);
  ViewportState nan = vp;
  nan.translate[2] = std::numeric_limits<float>::quiet_NaN();
  CHECK(ctx->set_viewport_states(0, {nan}).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->set_viewport_states(16, {vp}).code() == ErrorCode::kInvalidArgument);
  CHECK(state_of(*ctx).viewports[0].scale[0] == 100);
}

TEST_CASE("framebuffer state: attachments, sizes and formats", "[frontend][state]") {
  auto ctx = new_context();
  auto color = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, 16, 8));
  auto small = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, 8, 8));
  auto depth = create(make_templ(TextureTarget::TEXTURE_2D, Format::Z32_FLOAT, 16, 8));
  auto cs = make_surface(*ctx, color, Format::R8G8B8A8_UNORM);
  auto ss = make_surface(*ctx, small, Format::R8G8B8A8_UNORM);
  auto zs = make_surface(*ctx, depth, Format::Z32_FLOAT);
  FramebufferState fb;
  fb.width = 16;
  fb.height = 8;
  fb.nr_cbufs = 2;
  fb.cbufs[1] = cs;
  fb.zsbuf = zs;
  REQUIRE(ctx->set_framebuffer_state(fb).is_ok());
  CHECK(state_of(*ctx).framebuffer.cbufs[1] == cs);
  auto fails = [&](auto edit) {
    FramebufferState bad = fb;
    edit(bad);
    const Status s = ctx->set_framebuffer_state(bad);
    CHECK_FALSE(s.message().empty());
    return s.code();
  };
  CHECK(fails([](auto& f) { f.nr_cbufs = 9; }) == ErrorCode::kInvalidArgument);
  CHECK(fails([&](auto& f) { f.cbufs[2] = cs; }) == ErrorCode::kInvalidArgument);
  CHECK(fails([&](auto& f) { f.cbufs[0] = zs; }) == ErrorCode::kInvalidArgument);
  CHECK(fails([&](auto& f) { f.zsbuf = cs; }) == ErrorCode::kInvalidArgument);
  CHECK(fails([&](auto& f) { f.cbufs[0] = ss; }) == ErrorCode::kInvalidArgument);
  CHECK(fails([](auto& f) { f.height = 9; }) == ErrorCode::kInvalidArgument);
  // samples must agree with the (single-sampled) attachments.
  CHECK(fails([](auto& f) { f.samples = 4; }) == ErrorCode::kInvalidArgument);
  // Without attachments the size is still bounded by the caps (vtest-repro bug1: 65535).
  const int max_size = ctx->screen().get_param(Cap::MAX_TEXTURE_2D_SIZE);
  CHECK(fails([&](auto& f) {
          f = FramebufferState();
          f.width = uint16_t(max_size + 1);
          f.height = 8;
        }) == ErrorCode::kInvalidArgument);
  struct Foreign : Surface {
    Foreign(ResourceRef r) : Surface(std::move(r), SurfaceTemplate{}, 64, 64) {}
  };
  CHECK(fails([&](auto& f) { f.cbufs[0] = std::make_shared<Foreign>(color); }) ==
        ErrorCode::kInvalidArgument);
  // Every failure kept the framebuffer that was set.
  const auto& kept = state_of(*ctx).framebuffer;
  CHECK(kept.nr_cbufs == 2);
  CHECK(kept.height == 8);
  CHECK_FALSE(kept.cbufs[0]);
  CHECK(kept.zsbuf == zs);
}

TEST_CASE("vertex buffers: slots, strides, ranges, no user memory", "[frontend][state]") {
  auto ctx = new_context();
  auto buf = create_buffer(256);
  auto tex = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8_UNORM, 4, 4));
  VertexBuffer vb;
  vb.buffer = buf;
  vb.stride = 16;
  vb.buffer_offset = 256;
  REQUIRE(ctx->set_vertex_buffers(30, {vb, vb}).is_ok());
  CHECK(state_of(*ctx).vertex_buffers[31].buffer == buf);
  REQUIRE(ctx->set_vertex_buffers(29, {vb}, 2).is_ok());
  CHECK(state_of(*ctx).vertex_buffers[29].buffer == buf);
  CHECK_FALSE(state_of(*ctx).vertex_buffers[31].buffer);
  CHECK(ctx->set_vertex_buffers(31, {vb}, 1).code() == ErrorCode::kInvalidArgument);
  VertexBuffer bad = vb;
  bad.buffer_offset = 257;
  CHECK(ctx->set_vertex_buffers(0, {vb, bad}).code() == ErrorCode::kInvalidArgument);
  CHECK_FALSE(state_of(*ctx).vertex_buffers[0].buffer);
  bad = vb;
  bad.stride = 4096;
  CHECK(ctx->set_vertex_buffers(0, {bad}).code() == ErrorCode::kInvalidArgument);
  bad = vb;
  bad.buffer = tex;
  bad.buffer_offset = 0;
  CHECK(ctx->set_vertex_buffers(0, {bad}).code() == ErrorCode::kInvalidArgument);
  const float data[4] = {};
  VertexBuffer user;
  user.user_buffer = data;
  CHECK(ctx->set_vertex_buffers(0, {user}).code() == ErrorCode::kUnsupported);
}

TEST_CASE("constant buffers: ranges, alignment, user memory copied", "[frontend][state]") {
  auto ctx = new_context();
  auto buf = create_buffer(256);
  ConstantBuffer cb;
  cb.buffer = buf;
  cb.buffer_offset = 16;
  cb.buffer_size = 240;
  REQUIRE(ctx->set_constant_buffer(ShaderType::VERTEX, 31, &cb).is_ok());
  CHECK(state_of(*ctx).constant_buffers[0][31].buffer == buf);
  auto fails = [&](ShaderType stage, unsigned index, auto edit) {
    ConstantBuffer b = cb;
    edit(b);
    return ctx->set_constant_buffer(stage, index, &b).code();
  };
  CHECK(fails(ShaderType::VERTEX, 32, [](auto&) {}) == ErrorCode::kInvalidArgument);
  CHECK(fails(ShaderType(6), 0, [](auto&) {}) == ErrorCode::kInvalidArgument);
  CHECK(fails(ShaderType::VERTEX, 0, [](auto& b) { b.buffer_offset = 8; }) ==
        ErrorCode::kInvalidArgument);
  CHECK(fails(ShaderType::VERTEX, 0, [](auto& b) { b.buffer_size = 241; }) ==
        ErrorCode::kInvalidArgument);
  CHECK(fails(ShaderType::VERTEX, 0, [](auto& b) { b.buffer = nullptr; }) ==
        ErrorCode::kInvalidArgument);
  const float values[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  CHECK(fails(ShaderType::VERTEX, 0, [&](auto& b) { b.user_buffer = values; }) ==
        ErrorCode::kInvalidArgument);
  float user[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  ConstantBuffer ub;
  ub.user_buffer = user;
  ub.buffer_size = sizeof(user);
  REQUIRE(ctx->set_constant_buffer(ShaderType::FRAGMENT, 0, &ub).is_ok());
  user[0] = 99;  // the call copied the bytes
  const auto& bound = state_of(*ctx).constant_buffers[4][0];
  REQUIRE(bound.user_data);
  REQUIRE(bound.user_data->size() == sizeof(user));
  float first;
  std::memcpy(&first, bound.user_data->data(), 4);
  CHECK(first == 1.0f);
  REQUIRE(ctx->set_constant_buffer(ShaderType::FRAGMENT, 0, nullptr).is_ok());
  CHECK_FALSE(state_of(*ctx).constant_buffers[4][0].bound());
}

TEST_CASE("shader buffers and images: ranges, formats, access", "[frontend][state]") {
  auto ctx = new_context();
  auto buf = create_buffer(128);
  ShaderBuffer sb;
  sb.buffer = buf;
  sb.buffer_size = 128;
  REQUIRE(ctx->set_shader_buffers(ShaderType::COMPUTE, 30, {sb, sb}, 0x2).is_ok());
  CHECK(state_of(*ctx).shader_buffers_writable[5] == (1u << 31));
  REQUIRE(ctx->set_shader_buffers(ShaderType::COMPUTE, 0, std::vector<ShaderBuffer>(32, sb),
                                  0xffffffffu)
              .is_ok());
  CHECK(state_of(*ctx).shader_buffers_writable[5] == 0xffffffffu);
  CHECK(ctx->set_shader_buffers(ShaderType::COMPUTE, 0, {sb}, 0x2).code() ==
        ErrorCode::kInvalidArgument);
  ShaderBuffer big = sb;
  big.buffer_offset = 4;
  CHECK(ctx->set_shader_buffers(ShaderType::COMPUTE, 0, {big}, 0).code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->set_shader_buffers(ShaderType::COMPUTE, 31, {sb, sb}, 0).code() ==
        ErrorCode::kInvalidArgument);

  auto tex = create(make_templ(TextureTarget::TEXTURE_2D_ARRAY, Format::R32_UINT, 8, 8, 1, 4, 1));
  ImageView iv;
  iv.resource = tex;
  iv.format = Format::R32_FLOAT;
  iv.first_layer = 1;
  iv.last_layer = 3;
  iv.level = 1;
  iv.access = iv.shader_access = ImageAccess::READ_WRITE;
  REQUIRE(ctx->set_shader_images(ShaderType::FRAGMENT, 63, {iv}).is_ok());
  CHECK(state_of(*ctx).images[4][63].resource == tex);
  auto fails = [&](auto edit) {
    ImageView v = iv;
    edit(v);
    return ctx->set_shader_images(ShaderType::FRAGMENT, 0, {v}).code();
  };
  CHECK(fails([](auto& v) { v.format = Format::R16_UINT; }) == ErrorCode::kInvalidArgument);
  CHECK(fails([](auto& v) { v.last_layer = 4; }) == ErrorCode::kInvalidArgument);
  CHECK(fails([](auto& v) { v.first_layer = 3, v.last_layer = 2; }) == ErrorCode::kInvalidArgument);
  CHECK(fails([](auto& v) { v.level = 2; }) == ErrorCode::kInvalidArgument);
  CHECK(fails([](auto& v) { v.access = 4; }) == ErrorCode::kInvalidArgument);
  CHECK(ctx->set_shader_images(ShaderType::FRAGMENT, 63, {iv}, 1).code() ==
        ErrorCode::kInvalidArgument);
  REQUIRE(ctx->set_shader_images(ShaderType::FRAGMENT, 62, {}, 2).is_ok());
  CHECK_FALSE(state_of(*ctx).images[4][63].resource);
}

TEST_CASE("sampler views and stream-output targets bind by slot", "[frontend][state]") {
  auto ctx = new_context();
  auto tex = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, 4, 4));
  SamplerViewTemplate vt;
  vt.format = Format::R8G8B8A8_UNORM;
  auto view = ctx->create_sampler_view(tex, vt);
  REQUIRE(view.is_ok());
  REQUIRE(ctx->set_sampler_views(ShaderType::FRAGMENT, 126, {view.value(), view.value()}).is_ok());
  CHECK(state_of(*ctx).sampler_views[4][127] == view.value());
  CHECK(ctx->set_sampler_views(ShaderType::FRAGMENT, 127, {view.value()}, 1).code() ==
        ErrorCode::kInvalidArgument);
  REQUIRE(ctx->set_sampler_views(ShaderType::FRAGMENT, 126, {nullptr}, 1).is_ok());
  CHECK_FALSE(state_of(*ctx).sampler_views[4][127]);
  struct Foreign : SamplerView {
    Foreign(ResourceRef r) : SamplerView(std::move(r), SamplerViewTemplate{}) {}
  };
  CHECK(ctx->set_sampler_views(ShaderType::VERTEX, 0, {std::make_shared<Foreign>(tex)}).code() ==
        ErrorCode::kInvalidArgument);

  auto buf = create_buffer(256);
  auto so = ctx->create_stream_output_target(buf, 16, 128);
  REQUIRE(so.is_ok());
  REQUIRE(ctx->set_stream_output_targets({so.value()}, {0xffffffffu}).is_ok());
  CHECK(state_of(*ctx).so_targets.size() == 1);
  CHECK(ctx->set_stream_output_targets({so.value()}, {}).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->set_stream_output_targets({so.value()}, {2}).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->set_stream_output_targets({so.value()}, {132}).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->set_stream_output_targets(std::vector<StreamOutputTargetHandle>(5, so.value()),
                                       std::vector<uint32_t>(5, 0))
            .code() == ErrorCode::kInvalidArgument);
  CHECK(state_of(*ctx).so_offsets == std::vector<uint32_t>{0xffffffffu});
  REQUIRE(ctx->set_stream_output_targets({}, {}).is_ok());
  CHECK(state_of(*ctx).so_targets.empty());
}

TEST_CASE("draw-side calls fail loudly until their issues land", "[frontend][state]") {
  auto ctx = new_context();
  const Status draw = ctx->draw_vbo(DrawInfo{}, 0, nullptr, {DrawStartCountBias{0, 3, 0}});
  CHECK(draw.code() == ErrorCode::kInvalidArgument);
  CHECK_THAT(draw.message(), Catch::Contains("no vertex shader"));
  // launch_grid works (compute_*_test.cpp): without a compute state it is the caller's error.
  CHECK(ctx->launch_grid(GridInfo{}).code() == ErrorCode::kInvalidArgument);
  // blit and generate_mipmap work now (blit_test.cpp, mipmap_test.cpp): null resources
  // are a caller's error.
  CHECK(ctx->blit(BlitInfo{}).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->generate_mipmap(nullptr, Format::R8_UNORM, 0, 1, 0, 0).code() ==
        ErrorCode::kInvalidArgument);
  // Stream-output queries exist (stream_query_test.cpp); a stream beyond the four is refused.
  CHECK(ctx->create_query(QueryType::SO_STATISTICS, kMaxVertexStreams).status().code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->create_query(QueryType(14), 0).status().code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->begin_query(nullptr).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->render_condition(nullptr, false, RenderCondMode::WAIT).is_ok());
  CHECK(ctx->render_condition(nullptr, false, RenderCondMode(4)).code() ==
        ErrorCode::kInvalidArgument);
  ctx->set_active_query_state(false);
  CHECK_FALSE(state_of(*ctx).queries_active);
  ctx->texture_barrier(TextureBarrier::SAMPLER);
  ctx->memory_barrier(Barrier::ALL);
  CHECK(&ctx->screen() == shared_screen().get());
}
