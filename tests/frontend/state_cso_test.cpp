// CSO validation: every bad enum or range of blend, depth/stencil/alpha, rasterizer,
// sampler, vertex elements, shaders (header, stream output) and compute state; binds
// store the object and mark state dirty.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "frontend/context_impl.h"
#include "frontend/cso.h"
#include "frontend_util.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

template <typename R>
ErrorCode code(const R& r) {
  if (!r.is_ok()) CHECK_FALSE(r.status().message().empty());
  return r.status().code();
}

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

}  // namespace

TEST_CASE("blend states: enums, masks and dual-source rules", "[frontend][state]") {
  auto ctx = new_context();
  BlendState ok;
  auto h = ctx->create_blend_state(ok);
  REQUIRE(h.is_ok());
  clear_dirty(*ctx);
  ctx->bind_blend_state(h.value());
  CHECK(state_of(*ctx).blend == h.value());
  CHECK(state_of(*ctx).dirty & frontend::kDirtyBlend);
  ctx->bind_blend_state(nullptr);
  CHECK_FALSE(state_of(*ctx).blend);

  auto bad = [&](auto edit) {
    BlendState s;
    s.independent_blend_enable = true;
    edit(s);
    return code(ctx->create_blend_state(s));
  };
  CHECK(bad([](BlendState& s) { s.rt[0].rgb_func = BlendFunc(5); }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](BlendState& s) { s.rt[3].alpha_func = BlendFunc(9); }) ==
        ErrorCode::kInvalidArgument);
  for (unsigned f : {0x00u, 0x0Bu, 0x10u, 0x16u, 0x1Bu, 0xffu}) {
    INFO("factor " << f);
    CHECK(bad([&](BlendState& s) { s.rt[1].rgb_src_factor = BlendFactor(f); }) ==
          ErrorCode::kInvalidArgument);
    CHECK_FALSE(is_valid(BlendFactor(f)));
  }
  CHECK(bad([](BlendState& s) { s.rt[7].alpha_dst_factor = BlendFactor(0x16); }) ==
        ErrorCode::kInvalidArgument);
  CHECK(bad([](BlendState& s) { s.rt[0].colormask = 0x10; }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](BlendState& s) { s.logicop_func = LogicOp(16); }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](BlendState& s) { s.max_rt = 8; }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](BlendState& s) {
          s.rt[1].blend_enable = true;
          s.rt[1].rgb_dst_factor = BlendFactor::INV_SRC1_ALPHA;
        }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](BlendState& s) {
          s.rt[0].blend_enable = true;
          s.rt[0].rgb_dst_factor = BlendFactor::INV_SRC1_ALPHA;
          s.rt[0].alpha_src_factor = BlendFactor::SRC1_ALPHA;
        }) == ErrorCode::kOk);
  // Without independent blending only rt[0] matters.
  BlendState shared;
  shared.rt[5].rgb_func = BlendFunc(7);
  CHECK(code(ctx->create_blend_state(shared)) == ErrorCode::kOk);
  // The stored state is a copy of the template.
  BlendState t;
  t.rt[0].colormask = Mask::R;
  auto copy = ctx->create_blend_state(t);
  REQUIRE(copy.is_ok());
  t.rt[0].colormask = Mask::G;
  CHECK(copy.value()->state.rt[0].colormask == Mask::R);
}

TEST_CASE("depth/stencil/alpha states: functions, ops, NaN and bounds", "[frontend][state]") {
  auto ctx = new_context();
  auto bad = [&](auto edit) {
    DepthStencilAlphaState s;
    edit(s);
    return code(ctx->create_depth_stencil_alpha_state(s));
  };
  CHECK(bad([](DepthStencilAlphaState&) {}) == ErrorCode::kOk);
  CHECK(bad([](auto& s) { s.depth_func = CompareFunc(8); }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.alpha_func = CompareFunc(200); }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.stencil[1].func = CompareFunc(8); }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.stencil[0].fail_op = StencilOp(8); }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.stencil[1].zpass_op = StencilOp(9); }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.stencil[1].zfail_op = StencilOp(255); }) ==
        ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.alpha_ref_value = kNaN; }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) {
          s.depth_bounds_test = true;
          s.depth_bounds_min = 0.6;
          s.depth_bounds_max = 0.5;
        }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) {
          s.depth_bounds_test = true;
          s.depth_bounds_max = 2.0;
        }) == ErrorCode::kInvalidArgument);
  auto h = ctx->create_depth_stencil_alpha_state(DepthStencilAlphaState{});
  REQUIRE(h.is_ok());
  clear_dirty(*ctx);
  ctx->bind_depth_stencil_alpha_state(h.value());
  CHECK(state_of(*ctx).depth_stencil_alpha == h.value());
  CHECK(state_of(*ctx).dirty == frontend::kDirtyDepthStencilAlpha);
}

TEST_CASE("rasterizer states: faces, modes, sprites and sizes", "[frontend][state]") {
  auto ctx = new_context();
  auto bad = [&](auto edit) {
    RasterizerState s;
    edit(s);
    return code(ctx->create_rasterizer_state(s));
  };
  CHECK(bad([](RasterizerState&) {}) == ErrorCode::kOk);
  CHECK(bad([](auto& s) { s.cull_face = 4; }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.fill_front = PolygonMode(4); }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.fill_back = PolygonMode::FILL_RECTANGLE; }) == ErrorCode::kUnsupported);
  CHECK(bad([](auto& s) { s.sprite_coord_mode = SpriteCoordMode(2); }) ==
        ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) {
          s.point_quad_rasterization = true;
          s.sprite_coord_enable = 0x200;
        }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.sprite_coord_enable = 1; }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) {
          s.point_quad_rasterization = true;
          s.sprite_coord_enable = 0x1ff;
        }) == ErrorCode::kOk);
  // Mesa's state tracker sends zero widths for state that draws no lines.
  CHECK(bad([](auto& s) {
          s.line_width = 0;
          s.point_size = 0;
        }) == ErrorCode::kOk);
  CHECK(bad([](auto& s) { s.line_width = -1; }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.line_width = kNaN; }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.point_size = -1; }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.point_size = kInf; }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.offset_units = kNaN; }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.offset_clamp = -kInf; }) == ErrorCode::kInvalidArgument);
  auto h = ctx->create_rasterizer_state(RasterizerState{});
  REQUIRE(h.is_ok());
  ctx->bind_rasterizer_state(h.value());
  CHECK(state_of(*ctx).rasterizer == h.value());
}

TEST_CASE("sampler states: wraps, filters, compare, reduction, LOD", "[frontend][state]") {
  auto ctx = new_context();
  auto bad = [&](auto edit) {
    SamplerState s;
    edit(s);
    return code(ctx->create_sampler_state(s));
  };
  CHECK(bad([](SamplerState&) {}) == ErrorCode::kOk);
  CHECK(bad([](auto& s) { s.wrap_s = TexWrap(8); }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.wrap_r = TexWrap(100); }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.min_img_filter = TexFilter(2); }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.mag_img_filter = TexFilter(2); }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.min_mip_filter = TexMipFilter(3); }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.compare_mode = TexCompare(2); }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.compare_func = CompareFunc(8); }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.reduction_mode = TexReductionMode(3); }) ==
        ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.reduction_mode = TexReductionMode::MIN; }) == ErrorCode::kUnsupported);
  CHECK(bad([](auto& s) { s.max_anisotropy = 17; }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) {
          s.unnormalized_coords = true;
          s.wrap_s = s.wrap_t = s.wrap_r = TexWrap::CLAMP_TO_EDGE;
        }) == ErrorCode::kOk);
  CHECK(bad([](auto& s) {
          s.unnormalized_coords = true;
          s.wrap_t = s.wrap_r = TexWrap::CLAMP;
          s.wrap_s = TexWrap::REPEAT;
        }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) {
          s.unnormalized_coords = true;
          s.wrap_s = s.wrap_t = s.wrap_r = TexWrap::CLAMP;
          s.min_mip_filter = TexMipFilter::LINEAR;
        }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.lod_bias = kNaN; }) == ErrorCode::kInvalidArgument);
  CHECK(bad([](auto& s) { s.max_lod = kNaN; }) == ErrorCode::kInvalidArgument);

  auto a = ctx->create_sampler_state(SamplerState{});
  REQUIRE(a.is_ok());
  REQUIRE(ctx->bind_sampler_states(ShaderType::FRAGMENT, 30, {a.value(), a.value()}).is_ok());
  CHECK(state_of(*ctx).samplers[4][31] == a.value());
  CHECK(ctx->bind_sampler_states(ShaderType::FRAGMENT, 31, {a.value(), a.value()}).code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->bind_sampler_states(ShaderType(6), 0, {a.value()}).code() ==
        ErrorCode::kInvalidArgument);
  REQUIRE(ctx->bind_sampler_states(ShaderType::FRAGMENT, 31, {nullptr}).is_ok());
  CHECK_FALSE(state_of(*ctx).samplers[4][31]);
  CHECK(state_of(*ctx).samplers[4][30] == a.value());
}

TEST_CASE("vertex elements: counts, slots, formats, offsets", "[frontend][state]") {
  auto ctx = new_context();
  auto make = [&](std::vector<VertexElement> e) {
    return code(ctx->create_vertex_elements_state(e));
  };
  VertexElement e;
  CHECK(make({}) == ErrorCode::kOk);
  CHECK(make({e, e}) == ErrorCode::kOk);
  CHECK(make(std::vector<VertexElement>(33, e)) == ErrorCode::kInvalidArgument);
  VertexElement v = e;
  v.vertex_buffer_index = 32;
  CHECK(make({v}) == ErrorCode::kInvalidArgument);
  v = e;
  v.src_format = Format::NONE;
  CHECK(make({v}) == ErrorCode::kInvalidArgument);
  v.src_format = Format::Z24_UNORM_S8_UINT;
  CHECK(make({v}) == ErrorCode::kUnsupported);
  v.src_format = Format::R16G16_SSCALED;
  CHECK(make({v}) == ErrorCode::kOk);
  v.src_offset = 2048;
  CHECK(make({v}) == ErrorCode::kInvalidArgument);
  v = e;
  v.dual_slot = true;
  CHECK(make({v}) == ErrorCode::kInvalidArgument);
  v.src_format = Format::R64G64B64A64_FLOAT;
  CHECK(make({v}) == ErrorCode::kOk);
  auto h = ctx->create_vertex_elements_state({e});
  REQUIRE(h.is_ok());
  ctx->bind_vertex_elements_state(h.value());
  CHECK(state_of(*ctx).vertex_elements == h.value());
  CHECK(h.value()->elements.size() == 1);
}

TEST_CASE("shader states: the header must match the call", "[frontend][state][shader]") {
  auto ctx = new_context();
  // A program valid in every stage: the compiler front-end runs at create time.
  const std::string body = "\n  0: END\n";
  auto with = [&](const std::string& header) {
    ShaderState s;
    s.tgsi = header + body;
    return s;
  };
  auto vs = ctx->create_vs_state(with("VERT"));
  REQUIRE(vs.is_ok());
  CHECK(vs.value()->stage == ShaderType::VERTEX);
  CHECK(vs.value()->state.tgsi == "VERT" + body);
  CHECK(ctx->create_fs_state(with("FRAG")).is_ok());
  CHECK(ctx->create_gs_state(with("GEOM")).is_ok());
  CHECK(ctx->create_tcs_state(with("TESS_CTRL")).is_ok());
  CHECK(ctx->create_tes_state(with(" \n\ttess_eval")).is_ok());  // whitespace, any case
  CHECK(code(ctx->create_fs_state(with("VERT"))) == ErrorCode::kInvalidArgument);
  CHECK(code(ctx->create_vs_state(with("TESS_CTRL"))) == ErrorCode::kInvalidArgument);
  CHECK(code(ctx->create_vs_state(with("VERTEX"))) == ErrorCode::kCompileError);
  CHECK(code(ctx->create_vs_state(ShaderState{})) == ErrorCode::kCompileError);
  auto garbage = ctx->create_vs_state(with("\n\n  DCL"));
  REQUIRE_FALSE(garbage.is_ok());
  CHECK_THAT(garbage.status().message(), Catch::Contains("3:3"));

  // Binding checks the stage.
  auto fs = ctx->create_fs_state(with("FRAG"));
  REQUIRE(fs.is_ok());
  CHECK(ctx->bind_vs_state(fs.value()).code() == ErrorCode::kInvalidArgument);
  CHECK_FALSE(state_of(*ctx).shaders[0]);
  CHECK(ctx->bind_fs_state(fs.value()).is_ok());
  CHECK(ctx->bind_vs_state(vs.value()).is_ok());
  CHECK(state_of(*ctx).shaders[unsigned(ShaderType::FRAGMENT)] == fs.value());
  CHECK(ctx->bind_gs_state(vs.value()).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->bind_gs_state(nullptr).is_ok());
  CHECK(ctx->bind_tcs_state(nullptr).is_ok());
  CHECK(ctx->bind_tes_state(fs.value()).code() == ErrorCode::kInvalidArgument);

  // Compute.
  ComputeState cs;
  cs.tgsi = "COMP\nDCL SV[0], THREAD_ID\n  0: END\n";
  auto c = ctx->create_compute_state(cs);
  REQUIRE(c.is_ok());
  ctx->bind_compute_state(c.value());
  CHECK(state_of(*ctx).compute == c.value());
  cs.req_local_mem = 0xffffffffu;
  CHECK(code(ctx->create_compute_state(cs)) == ErrorCode::kUnsupported);
  ComputeState wrong;
  wrong.tgsi = "FRAG\n";
  CHECK(code(ctx->create_compute_state(wrong)) == ErrorCode::kInvalidArgument);
}

TEST_CASE("shader states: stream output is validated", "[frontend][state][shader]") {
  auto ctx = new_context();
  auto so = [&](const char* header, auto edit) {
    ShaderState s;
    s.tgsi = std::string(header) + "\nDCL OUT[0], POSITION\n  0: END\n";
    s.stream_output.stride[0] = 4;
    StreamOutput o;
    o.num_components = 4;
    s.stream_output.output.push_back(o);
    edit(s.stream_output);
    if (std::string(header) == "FRAG") return code(ctx->create_fs_state(s));
    if (std::string(header) == "GEOM") return code(ctx->create_gs_state(s));
    return code(ctx->create_vs_state(s));
  };
  CHECK(so("VERT", [](StreamOutputInfo&) {}) == ErrorCode::kOk);
  CHECK(so("FRAG", [](StreamOutputInfo&) {}) == ErrorCode::kInvalidArgument);
  CHECK(so("VERT", [](auto& i) { i.output[0].num_components = 0; }) == ErrorCode::kInvalidArgument);
  CHECK(so("VERT", [](auto& i) { i.output[0].start_component = 1; }) ==
        ErrorCode::kInvalidArgument);
  CHECK(so("VERT", [](auto& i) { i.output[0].output_buffer = 4; }) == ErrorCode::kInvalidArgument);
  CHECK(so("VERT", [](auto& i) { i.output[0].stream = 1; }) == ErrorCode::kInvalidArgument);
  CHECK(so("GEOM", [](auto& i) { i.output[0].stream = 1; }) == ErrorCode::kOk);
  CHECK(so("GEOM", [](auto& i) { i.output[0].stream = 4; }) == ErrorCode::kInvalidArgument);
  CHECK(so("VERT", [](auto& i) { i.output[0].dst_offset = 1; }) == ErrorCode::kInvalidArgument);
  CHECK(so("VERT", [](auto& i) { i.output[0].register_index = 80; }) ==
        ErrorCode::kInvalidArgument);
  CHECK(so("VERT", [](auto& i) { i.output.resize(65, i.output[0]); }) ==
        ErrorCode::kInvalidArgument);
}
