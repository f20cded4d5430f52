// draw_vbo through the public API with TGSI shaders: the whole path from CSOs and
// resources to pixels (compiler, linkage, draw passes), and its bad input.
#include <catch2/catch.hpp>

#include <cstring>

#include "frontend/frontend_util.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

// VS: position from IN[0], a varying GENERIC[3] from IN[1] (scattered semantic index).
const char* kVs =
    "VERT\n"
    "DCL IN[0]\n"
    "DCL IN[1]\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[3]\n"
    "  0: MOV OUT[0], IN[0]\n"
    "  1: MOV OUT[1], IN[1]\n"
    "  2: END\n";
// FS: colour = the varying GENERIC[3] (declared in IN[0]) plus a constant.
const char* kFs =
    "FRAG\n"
    "PROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\n"
    "DCL IN[0], GENERIC[3], PERSPECTIVE\n"
    "DCL OUT[0], COLOR\n"
    "DCL CONST[0]\n"
    "  0: ADD OUT[0], IN[0], CONST[0]\n"
    "  1: END\n";

struct Scene {
  std::unique_ptr<Context> ctx = new_context();
  ResourceRef rt, vbuf;
  SurfaceHandle surf;
  ShaderHandle vs, fs;
  VertexElementsHandle ve;
  uint32_t w = 32, h = 24;

  Scene() {
    rt = create(make_templ(TextureTarget::TEXTURE_2D, Format::R32G32B32A32_FLOAT, w, uint16_t(h)));
    SurfaceTemplate st;
    st.format = Format::R32G32B32A32_FLOAT;
    surf = ctx->create_surface(rt, st).value();
    FramebufferState fb;
    fb.width = uint16_t(w);
    fb.height = uint16_t(h);
    fb.nr_cbufs = 1;
    fb.cbufs[0] = surf;
    REQUIRE(ctx->set_framebuffer_state(fb).is_ok());
    const ViewportState vp = window_viewport(w, h);
    REQUIRE(ctx->set_viewport_states(0, {vp}).is_ok());
    ShaderState s;
    s.tgsi = kVs;
    vs = ctx->create_vs_state(s).value();
    s.tgsi = kFs;
    fs = ctx->create_fs_state(s).value();
    REQUIRE(ctx->bind_vs_state(vs).is_ok());
    REQUIRE(ctx->bind_fs_state(fs).is_ok());
    VertexElement pos, col;
    pos.src_format = Format::R32G32B32A32_FLOAT;
    col.src_format = Format::R32G32B32A32_FLOAT;
    col.src_offset = 16;
    ve = ctx->create_vertex_elements_state({pos, col}).value();
    ctx->bind_vertex_elements_state(ve);
    RasterizerState rs;
    ctx->bind_rasterizer_state(ctx->create_rasterizer_state(rs).value());
    ctx->bind_blend_state(ctx->create_blend_state(BlendState()).value());
    ctx->bind_depth_stencil_alpha_state(
        ctx->create_depth_stencil_alpha_state(DepthStencilAlphaState()).value());
  }

  void set_vertices(const std::vector<float>& v) {
    vbuf = create_buffer(uint32_t(v.size() * 4));
    REQUIRE(ctx->buffer_subdata(vbuf, Map::WRITE, 0, uint32_t(v.size() * 4), v.data()).is_ok());
    VertexBuffer vb;
    vb.stride = 32;
    vb.buffer = vbuf;
    REQUIRE(ctx->set_vertex_buffers(0, {vb}).is_ok());
  }

  std::array<float, 4> pixel(uint32_t x, uint32_t y) {
    auto bytes = read_box(*ctx, rt, 0, make_box_2d(int(x), int(y), 1, 1));
    std::array<float, 4> c;
    std::memcpy(c.data(), bytes.data(), 16);
    return c;
  }
};

}  // namespace

TEST_CASE("draw_vbo: TGSI shaders, constants and linkage reach the pixels", "[frontend][draw]") {
  Scene s;
  const float k[4] = {0.25f, 0.0f, 0.0f, 0.0f};
  ConstantBuffer cb;
  cb.user_buffer = k;
  cb.buffer_size = sizeof(k);
  REQUIRE(s.ctx->set_constant_buffer(ShaderType::FRAGMENT, 0, &cb).is_ok());
  // A full-window quad as a strip; the varying is constant (0.5, 0.25, 1, 1).
  std::vector<float> v;
  for (auto p : {std::array<float, 2>{-1, -1}, {1, -1}, {-1, 1}, {1, 1}}) {
    v.insert(v.end(), {p[0], p[1], 0, 1, 0.5f, 0.25f, 1.0f, 1.0f});
  }
  s.set_vertices(v);
  DrawInfo info;
  info.mode = PrimType::TRIANGLE_STRIP;
  REQUIRE(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, 4, 0}}).is_ok());
  for (uint32_t y = 0; y < s.h; y += 5) {
    for (uint32_t x = 0; x < s.w; x += 7) {
      auto c = s.pixel(x, y);
      CHECK(c[0] == 0.75f);
      CHECK(c[1] == 0.25f);
      CHECK(c[2] == 1.0f);
      CHECK(c[3] == 1.0f);
    }
  }
}

TEST_CASE("draw_vbo: two-sided colour reads BCOLOR on back faces even without COLOR",
          "[frontend][draw]") {
  Scene s;
  // gl_BackSecondaryColor written alone: front faces read the default, back faces BCOLOR[1].
  ShaderState st;
  st.tgsi =
      "VERT\n"
      "DCL IN[0]\n"
      "DCL IN[1]\n"
      "DCL OUT[0], POSITION\n"
      "DCL OUT[1], BCOLOR[1]\n"
      "  0: MOV OUT[0], IN[0]\n"
      "  1: MOV OUT[1], IN[1]\n"
      "  2: END\n";
  REQUIRE(s.ctx->bind_vs_state(s.ctx->create_vs_state(st).value()).is_ok());
  st.tgsi =
      "FRAG\n"
      "DCL IN[0], COLOR[1], LINEAR\n"
      "DCL OUT[0], COLOR\n"
      "  0: MOV OUT[0], IN[0]\n"
      "  1: END\n";
  REQUIRE(s.ctx->bind_fs_state(s.ctx->create_fs_state(st).value()).is_ok());
  RasterizerState rs;
  rs.light_twoside = true;
  rs.front_ccw = true;
  s.ctx->bind_rasterizer_state(s.ctx->create_rasterizer_state(rs).value());
  // Window y grows downwards (scale[1] > 0): the left triangle is clockwise there (back),
  // the right one counter-clockwise (front), as Gallium orients faces.
  std::vector<float> v;
  for (auto p : {std::array<float, 2>{-1, -1}, {0, -1}, {-1, 1}, {0.1f, -1}, {0.1f, 1}, {1, -1}}) {
    v.insert(v.end(), {p[0], p[1], 0, 1, 0.25f, 0.5f, 0.75f, 0.5f});
  }
  s.set_vertices(v);
  REQUIRE(s.ctx->draw_vbo(DrawInfo(), 0, nullptr, {DrawStartCountBias{0, 6, 0}}).is_ok());
  CHECK(s.pixel(2, 2) == std::array<float, 4>{0.25f, 0.5f, 0.75f, 0.5f});
  CHECK(s.pixel(s.w - 3, 2) == std::array<float, 4>{0, 0, 0, 1});
}

TEST_CASE("draw_vbo: gl_FragCoord follows each fragment shader's conventions", "[frontend][draw]") {
  Scene s;
  std::vector<float> v;
  for (auto p : {std::array<float, 2>{-1, -1}, {1, -1}, {-1, 1}, {1, 1}})
    v.insert(v.end(), {p[0], p[1], 0, 1, 0, 0, 0, 0});
  s.set_vertices(v);
  DrawInfo info;
  info.mode = PrimType::TRIANGLE_STRIP;
  // The conventions are raster state of the bound shader, not part of its program:
  // shaders that differ only in them draw one after the other, each with its own.
  for (int origin = 0; origin < 2; ++origin) {
    for (int integer = 0; integer < 2; ++integer) {
      ShaderState st;
      st.tgsi = std::string("FRAG\n") + (origin ? "PROPERTY FS_COORD_ORIGIN LOWER_LEFT\n" : "") +
                (integer ? "PROPERTY FS_COORD_PIXEL_CENTER INTEGER\n" : "") +
                "DCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\n"
                "  0: MOV OUT[0], IN[0]\n  1: END\n";
      REQUIRE(s.ctx->bind_fs_state(s.ctx->create_fs_state(st).value()).is_ok());
      REQUIRE(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, 4, 0}}).is_ok());
      const float centre = integer ? 0.0f : 0.5f;
      for (uint32_t y = 0; y < s.h; y += 5) {
        for (uint32_t x = 0; x < s.w; x += 7) {
          INFO("origin " << origin << " integer " << integer << " pixel " << x << "," << y);
          const auto c = s.pixel(x, y);
          CHECK(c[0] == float(x) + centre);
          CHECK(c[1] == (origin ? float(s.h - 1 - y) : float(y)) + centre);
        }
      }
    }
  }
}

TEST_CASE("draw_vbo: occlusion queries count the drawn samples", "[frontend][draw][query]") {
  Scene s;
  std::vector<float> v;
  for (auto p : {std::array<float, 2>{-1, -1}, {1, -1}, {-1, 1}}) {
    v.insert(v.end(), {p[0], p[1], 0, 1, 1, 1, 1, 1});
  }
  s.set_vertices(v);
  auto q = s.ctx->create_query(QueryType::OCCLUSION_COUNTER, 0).value();
  auto stats = s.ctx->create_query(QueryType::PIPELINE_STATISTICS, 0).value();
  REQUIRE(s.ctx->begin_query(q).is_ok());
  REQUIRE(s.ctx->begin_query(stats).is_ok());
  DrawInfo info;
  REQUIRE(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, 3, 0}}).is_ok());
  REQUIRE(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, 3, 0}}).is_ok());
  REQUIRE(s.ctx->end_query(q).is_ok());
  REQUIRE(s.ctx->end_query(stats).is_ok());
  QueryResult r;
  REQUIRE(s.ctx->get_query_result(q, true, &r).is_ok());
  // Half the window (the diagonal's pixels belong to one side), twice.
  uint64_t covered = 0;
  for (uint32_t y = 0; y < s.h; ++y)
    for (uint32_t x = 0; x < s.w; ++x)
      covered += s.pixel(x, y)[3] != 0;
  CHECK(covered > 300);
  CHECK(r.u64 == 2 * covered);
  REQUIRE(s.ctx->get_query_result(stats, true, &r).is_ok());
  CHECK(r.pipeline_statistics.ia_vertices == 6);
  CHECK(r.pipeline_statistics.ia_primitives == 2);
  CHECK(r.pipeline_statistics.vs_invocations == 6);
  CHECK(r.pipeline_statistics.ps_invocations == 2 * covered);
}

TEST_CASE("draw_vbo: pipeline statistics count the points that draw, not their record slots",
          "[frontend][draw][query]") {
  // Two of four points lie outside the clip volume. Without a query they would take a
  // record slot each (prim.cl's clp_records_bound); C_PRIMITIVES counts records.
  Scene s;
  std::vector<float> v;
  for (auto p : {std::array<float, 2>{0, 0}, {5, 0}, {0.5f, 0.5f}, {0, -7}}) {
    v.insert(v.end(), {p[0], p[1], 0, 1, 1, 1, 1, 1});
  }
  s.set_vertices(v);
  auto stats = s.ctx->create_query(QueryType::PIPELINE_STATISTICS, 0).value();
  REQUIRE(s.ctx->begin_query(stats).is_ok());
  DrawInfo info;
  info.mode = PrimType::POINTS;
  REQUIRE(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, 4, 0}}).is_ok());
  REQUIRE(s.ctx->end_query(stats).is_ok());
  QueryResult r;
  REQUIRE(s.ctx->get_query_result(stats, true, &r).is_ok());
  CHECK(r.pipeline_statistics.ia_primitives == 4);
  CHECK(r.pipeline_statistics.c_primitives == 2);
}

TEST_CASE("draw_vbo: conditional rendering skips draws on the device", "[frontend][draw][query]") {
  Scene s;
  std::vector<float> v;
  for (auto p : {std::array<float, 2>{-1, -1}, {3, -1}, {-1, 3}}) {
    v.insert(v.end(), {p[0], p[1], 0, 1, 1, 0, 0, 1});
  }
  s.set_vertices(v);
  auto q = s.ctx->create_query(QueryType::OCCLUSION_PREDICATE, 0).value();
  REQUIRE(s.ctx->begin_query(q).is_ok());
  REQUIRE(s.ctx->end_query(q).is_ok());  // nothing drawn: false
  DrawInfo info;
  for (RenderCondMode mode : {RenderCondMode::WAIT, RenderCondMode::NO_WAIT,
                              RenderCondMode::BY_REGION_WAIT, RenderCondMode::BY_REGION_NO_WAIT}) {
    REQUIRE(s.ctx->render_condition(q, false, mode).is_ok());  // skip when false
    REQUIRE(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, 3, 0}}).is_ok());
    CHECK(s.pixel(3, 3)[3] == 0.0f);
  }
  REQUIRE(s.ctx->render_condition(q, true, RenderCondMode::NO_WAIT).is_ok());  // inverted
  REQUIRE(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, 3, 0}}).is_ok());
  CHECK(s.pixel(3, 3)[0] == 1.0f);
}

TEST_CASE("draw_vbo: bad input is an error, not a crash", "[frontend][draw]") {
  Scene s;
  std::vector<float> v(24, 0.0f);
  s.set_vertices(v);
  DrawInfo info;
  info.mode = PrimType(99);
  CHECK(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, 3, 0}}).code() ==
        ErrorCode::kInvalidArgument);
  info = DrawInfo();
  info.index_size = 3;
  CHECK(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, 3, 0}}).code() ==
        ErrorCode::kInvalidArgument);
  // Indexed without an index buffer.
  info.index_size = 2;
  CHECK(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, 3, 0}}).code() ==
        ErrorCode::kInvalidArgument);
  // Absurd counts and out-of-range indices read zeros: no error, no crash.
  info = DrawInfo();
  CHECK(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{1u << 30, 3, 0}}).is_ok());
  auto ib = create_buffer(12);
  const uint32_t idx[3] = {0, 100000, 7};
  REQUIRE(s.ctx->buffer_subdata(ib, Map::WRITE, 0, 12, idx).is_ok());
  info.index_size = 4;
  info.index_resource = ib;
  CHECK(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, 3, 0}}).is_ok());
  CHECK(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{2, 1000, 0}}).is_ok());
  // A draw without a fragment shader (and without rasterizer discard) is refused.
  REQUIRE(s.ctx->bind_fs_state(nullptr).is_ok());
  info = DrawInfo();
  CHECK(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, 3, 0}}).code() ==
        ErrorCode::kInvalidArgument);
}

TEST_CASE("draw_vbo: a query begun again counts only its own draws", "[frontend][draw][query]") {
  Scene s;
  std::vector<float> v;
  for (auto p : {std::array<float, 2>{-1, -1}, {1, -1}, {-1, 1}}) {
    v.insert(v.end(), {p[0], p[1], 0, 1, 1, 1, 1, 1});
  }
  s.set_vertices(v);
  // GL's glBeginQuery on a query object used before (piglit
  // occlusion_query_meta_fragments): each round counts its one draw.
  auto q = s.ctx->create_query(QueryType::OCCLUSION_COUNTER, 0).value();
  auto stats = s.ctx->create_query(QueryType::PIPELINE_STATISTICS, 0).value();
  DrawInfo info;
  uint64_t first = 0;
  for (int round = 0; round < 3; ++round) {
    INFO("round " << round);
    REQUIRE(s.ctx->begin_query(q).is_ok());
    REQUIRE(s.ctx->begin_query(stats).is_ok());
    REQUIRE(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, 3, 0}}).is_ok());
    REQUIRE(s.ctx->end_query(q).is_ok());
    REQUIRE(s.ctx->end_query(stats).is_ok());
    QueryResult r;
    REQUIRE(s.ctx->get_query_result(q, true, &r).is_ok());
    if (round == 0) first = r.u64;
    CHECK(r.u64 > 300);
    CHECK(r.u64 == first);
    REQUIRE(s.ctx->get_query_result(stats, true, &r).is_ok());
    CHECK(r.pipeline_statistics.ia_vertices == 3);
    CHECK(r.pipeline_statistics.ps_invocations == first);
  }
}
