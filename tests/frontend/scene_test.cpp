// Scenes (src/frontend/scene.cpp, draw/draw_pipeline.h): draws recorded into one scene
// render the same pixels as the same draws run one by one, a scene that outgrows its
// buffers is replayed with the same result, and every call that must see the recorded
// draws (or must not change what they read) runs the scene first.
#include <catch2/catch.hpp>

#include <cstring>

#include "frontend/frontend_util.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

// Position from IN[0]; the colour is CONST[0] (a user constant buffer set per draw).
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

constexpr uint32_t kW = 48, kH = 40;

struct Fixture {
  std::unique_ptr<Context> ctx = new_context();
  ResourceRef rt, zs, vbuf;
  SurfaceHandle surf, zsurf;
  BlendHandle opaque, blend;
  DepthStencilAlphaHandle less, equal;

  Fixture() {
    rt = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, kW, kH));
    zs = create(make_templ(TextureTarget::TEXTURE_2D, Format::Z32_FLOAT, kW, kH));
    surf = make_surface(*ctx, rt, Format::R8G8B8A8_UNORM);
    zsurf = make_surface(*ctx, zs, Format::Z32_FLOAT);
    bind_framebuffer(surf);
    const ViewportState vp = window_viewport(kW, kH);
    REQUIRE(ctx->set_viewport_states(0, {vp}).is_ok());
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
    opaque = ctx->create_blend_state(b).value();
    b.rt[0].blend_enable = true;
    b.rt[0].rgb_src_factor = b.rt[0].alpha_src_factor = BlendFactor::SRC_ALPHA;
    b.rt[0].rgb_dst_factor = b.rt[0].alpha_dst_factor = BlendFactor::INV_SRC_ALPHA;
    blend = ctx->create_blend_state(b).value();
    DepthStencilAlphaState z;
    z.depth_enabled = true;
    z.depth_writemask = true;
    z.depth_func = CompareFunc::LESS;
    less = ctx->create_depth_stencil_alpha_state(z).value();
    z.depth_func = CompareFunc::EQUAL;
    equal = ctx->create_depth_stencil_alpha_state(z).value();
    ctx->bind_blend_state(opaque);
    ctx->bind_depth_stencil_alpha_state(less);
    vbuf = create_buffer(1 << 16);
    VertexBuffer vb;
    vb.stride = 16;
    vb.buffer = vbuf;
    REQUIRE(ctx->set_vertex_buffers(0, {vb}).is_ok());
  }

  void bind_framebuffer(const SurfaceHandle& colour) {
    FramebufferState fb;
    fb.width = kW;
    fb.height = kH;
    fb.nr_cbufs = 1;
    fb.cbufs[0] = colour;
    fb.zsbuf = zsurf;
    REQUIRE(ctx->set_framebuffer_state(fb).is_ok());
  }

  void clear() {
    ColorUnion c{};
    REQUIRE(ctx->clear(Clear::COLOR | Clear::DEPTHSTENCIL, nullptr, c, 1.0, 0).is_ok());
  }

  void set_colour(float r, float g, float b, float a) {
    const float k[4] = {r, g, b, a};
    ConstantBuffer cb;
    cb.user_buffer = k;
    cb.buffer_size = sizeof(k);
    REQUIRE(ctx->set_constant_buffer(ShaderType::FRAGMENT, 0, &cb).is_ok());
  }

  // A triangle at depth z, written at vertex `first` of the vertex buffer.
  void triangle(uint32_t first, float x0, float y0, float x1, float y1, float x2, float y2,
                float z) {
    const float v[12] = {x0, y0, z, 1, x1, y1, z, 1, x2, y2, z, 1};
    REQUIRE(ctx->buffer_subdata(vbuf, Map::WRITE, first * 16, sizeof(v), v).is_ok());
  }

  void draw(uint32_t first, uint32_t count = 3) {
    REQUIRE(ctx->draw_vbo(DrawInfo(), 0, nullptr, {DrawStartCountBias{first, count, 0}}).is_ok());
  }

  std::vector<uint8_t> pixels() { return read_box(*ctx, rt, 0, make_box_2d(0, 0, kW, kH)); }

  uint64_t scenes() { return dynamic_cast<frontend::ContextImpl&>(*ctx).scene_counters().scenes; }
};

// 24 overlapping triangles with their own colours (user constants), switching between
// opaque and blended, LESS and EQUAL depth (equal depths redraw the same pixels): every
// pixel depends on the API order of the draws.
void overlapping_draws(Fixture& f, bool flush_each) {
  for (uint32_t i = 0; i < 24; ++i) {
    const float s = float(i) / 24.0f;
    f.triangle(i * 3, -1.0f + s, -1.0f, 1.0f, -0.8f + s, -0.6f + s * 0.5f, 1.0f,
               (i % 3) == 0 ? 0.5f : 0.25f + s * 0.5f);
  }
  for (uint32_t i = 0; i < 24; ++i) {
    f.set_colour(float(i % 5) / 4.0f, float(i % 7) / 6.0f, float(i % 3) / 2.0f,
                 0.25f + float(i % 4) / 4.0f);
    f.ctx->bind_blend_state(i % 2 ? f.blend : f.opaque);
    f.ctx->bind_depth_stencil_alpha_state(i % 4 == 3 ? f.equal : f.less);
    f.draw(i * 3);
    if (flush_each) REQUIRE(f.ctx->flush(nullptr, 0).is_ok());
  }
}

// Pixels other than the black of the clear.
size_t coloured_pixels(const std::vector<uint8_t>& rgba) {
  size_t n = 0;
  for (size_t i = 0; i < rgba.size(); i += 4)
    n += rgba[i] || rgba[i + 1] || rgba[i + 2];
  return n;
}

}  // namespace

TEST_CASE("scene: draws recorded together give the pixels of draws run one by one",
          "[frontend][draw][scene]") {
  Fixture one_by_one;
  one_by_one.clear();
  overlapping_draws(one_by_one, true);
  const std::vector<uint8_t> expected = one_by_one.pixels();

  Fixture batched;
  batched.clear();
  const uint64_t scenes_before = batched.scenes();
  overlapping_draws(batched, false);
  const std::vector<uint8_t> got = batched.pixels();
  // The 24 draws ran as one scene (the read-back ran it).
  CHECK(batched.scenes() == scenes_before + 1);
  CHECK(got == expected);
  // Something was drawn, blended and depth-tested.
  CHECK(coloured_pixels(got) > kW * kH / 3);
}

TEST_CASE("scene: a scene that outgrows its buffers is replayed with the same pixels",
          "[frontend][draw][scene]") {
  Fixture reference;
  reference.clear();
  overlapping_draws(reference, false);
  const std::vector<uint8_t> expected = reference.pixels();

  Fixture small;
  auto& impl = dynamic_cast<frontend::ContextImpl&>(*small.ctx);
  small.clear();
  // Room for 4 records and 8 bin entries: the 24 triangles need more of both.
  impl.set_scene_capacity_cap(4, 8);
  const uint64_t replays_before = impl.scene_counters().replays;
  overlapping_draws(small, false);
  CHECK(small.pixels() == expected);
  CHECK(impl.scene_counters().replays > replays_before);
}

TEST_CASE("scene: writes to what recorded draws read do not change what they drew",
          "[frontend][draw][scene]") {
  Fixture f;
  f.clear();
  // Draw the left half red, then overwrite its vertices and constants before anything
  // ran: the draw keeps its own.
  f.triangle(0, -1, -1, 0, -1, -1, 1, 0.5f);
  f.set_colour(1, 0, 0, 1);
  f.draw(0);
  f.triangle(0, 0, -1, 1, -1, 1, 1, 0.5f);  // buffer_subdata of a buffer the scene reads
  f.set_colour(0, 1, 0, 1);
  f.draw(0);
  const std::vector<uint8_t> px = f.pixels();
  auto at = [&](uint32_t x, uint32_t y) { return px.data() + (size_t(y) * kW + x) * 4; };
  // Bottom-left (window y grows upwards from NDC -1 at row 0): red, from the first draw.
  CHECK(at(2, 2)[0] == 255);
  CHECK(at(2, 2)[1] == 0);
  // Bottom-right: green, from the second draw.
  CHECK(at(kW - 3, 2)[0] == 0);
  CHECK(at(kW - 3, 2)[1] == 255);
}

TEST_CASE("scene: a write to vertices no recorded draw reads keeps the scene recording",
          "[frontend][draw][scene]") {
  // Each triangle's vertices written right before its draw, as glBufferSubData before
  // glDrawArrays of the new vertices (piglit vbo-subdata-many): one scene, the pixels
  // of draws run one by one.
  auto interleaved = [](Fixture& f, bool flush_each) {
    f.clear();
    for (uint32_t i = 0; i < 24; ++i) {
      const float s = float(i) / 24.0f;
      f.triangle(i * 3, -1.0f + s, -1.0f, 1.0f, -0.8f + s, -0.6f + s * 0.5f, 1.0f,
                 (i % 3) == 0 ? 0.5f : 0.25f + s * 0.5f);
      f.set_colour(float(i % 5) / 4.0f, float(i % 7) / 6.0f, float(i % 3) / 2.0f, 1.0f);
      f.draw(i * 3);
      if (flush_each) REQUIRE(f.ctx->flush(nullptr, 0).is_ok());
    }
  };
  Fixture one_by_one, recorded;
  interleaved(one_by_one, true);
  const uint64_t before = recorded.scenes();
  interleaved(recorded, false);
  const std::vector<uint8_t> px = recorded.pixels();
  CHECK(recorded.scenes() == before + 1);
  CHECK(px == one_by_one.pixels());
  CHECK(coloured_pixels(px) > kW * kH / 4);

  Fixture f;
  f.clear();
  f.triangle(0, -1, -1, 0, -1, -1, 1, 0.5f);
  f.set_colour(1, 0, 0, 1);
  f.draw(0);
  // A write to the last vertex (bytes 32..47) the draw reads runs the scene first.
  uint64_t n = f.scenes();
  const float far_right[4] = {1, 1, 0.5f, 1};
  REQUIRE(f.ctx->buffer_subdata(f.vbuf, Map::WRITE, 32, 16, far_right).is_ok());
  CHECK(f.scenes() == n + 1);
  // An indexed draw may read any vertex: any write to its buffer runs the scene.
  ResourceRef ibuf = create_buffer(64);
  const uint16_t idx[3] = {0, 1, 2};
  REQUIRE(f.ctx->buffer_subdata(ibuf, Map::WRITE, 0, sizeof(idx), idx).is_ok());
  DrawInfo indexed;
  indexed.index_size = 2;
  indexed.index_resource = ibuf;
  REQUIRE(f.ctx->draw_vbo(indexed, 0, nullptr, {DrawStartCountBias{0, 3, 0}}).is_ok());
  n = f.scenes();
  REQUIRE(f.ctx->buffer_subdata(f.vbuf, Map::WRITE, 4096, 16, far_right).is_ok());
  CHECK(f.scenes() == n + 1);
  // A buffer a draw also reads as constants: a write anywhere runs the scene, and the
  // draw keeps the colour it was recorded with.
  f.clear();
  const float red[4] = {1, 0, 0, 1}, green[4] = {0, 1, 0, 1};
  REQUIRE(f.ctx->buffer_subdata(f.vbuf, Map::WRITE, 8192, 16, red).is_ok());
  ConstantBuffer cb;
  cb.buffer = f.vbuf;
  cb.buffer_offset = 8192;
  cb.buffer_size = 16;
  REQUIRE(f.ctx->set_constant_buffer(ShaderType::FRAGMENT, 0, &cb).is_ok());
  f.triangle(3, -1, -1, 1, -1, -1, 1, 0.5f);
  f.draw(3);
  n = f.scenes();
  REQUIRE(f.ctx->buffer_subdata(f.vbuf, Map::WRITE, 8192, 16, green).is_ok());
  CHECK(f.scenes() == n + 1);
  const std::vector<uint8_t> left = f.pixels();
  CHECK(left[(2 * kW + 2) * 4 + 0] == 255);
  CHECK(left[(2 * kW + 2) * 4 + 1] == 0);
}

TEST_CASE("scene: clears, framebuffer changes and maps see the recorded draws in order",
          "[frontend][draw][scene]") {
  Fixture f;
  f.clear();
  f.triangle(0, -1, -1, 3, -1, -1, 3, 0.5f);  // the whole window
  f.set_colour(1, 0, 0, 1);
  f.draw(0);
  // A map right after the draw sees it.
  CHECK(f.pixels()[0] == 255);

  // draw, clear, draw: the clear comes between them.
  f.draw(0);
  ColorUnion blue{};
  blue.f[2] = 1.0f;
  blue.f[3] = 1.0f;
  REQUIRE(f.ctx->clear(Clear::COLOR, nullptr, blue, 1.0, 0).is_ok());
  f.ctx->bind_depth_stencil_alpha_state(f.ctx->create_depth_stencil_alpha_state({}).value());
  f.triangle(3, -1, -1, 0, -1, -1, 0, 0.5f);  // the bottom-left quarter
  f.set_colour(0, 1, 0, 1);
  f.draw(3);
  std::vector<uint8_t> px = f.pixels();
  CHECK(px[0] == 0);
  CHECK(px[1] == 255);
  const size_t top_right = (size_t(kH - 1) * kW + kW - 1) * 4;
  CHECK(px[top_right + 2] == 255);
  CHECK(px[top_right + 1] == 0);

  // Draws into another colour buffer after a framebuffer change leave the first alone.
  ResourceRef other = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, kW, kH));
  f.set_colour(1, 1, 0, 1);
  f.draw(0);  // yellow into rt
  f.bind_framebuffer(make_surface(*f.ctx, other, Format::R8G8B8A8_UNORM));
  f.set_colour(1, 0, 1, 1);
  f.draw(0);  // magenta into `other`
  px = f.pixels();
  CHECK(px[top_right + 0] == 255);
  CHECK(px[top_right + 1] == 255);
  CHECK(px[top_right + 2] == 0);
  const std::vector<uint8_t> o = read_box(*f.ctx, other, 0, make_box_2d(0, 0, kW, kH));
  CHECK(o[top_right + 0] == 255);
  CHECK(o[top_right + 1] == 0);
  CHECK(o[top_right + 2] == 255);
}

TEST_CASE("scene: a fence of a flush waits for the recorded draws", "[frontend][draw][scene]") {
  Fixture f;
  f.clear();
  f.triangle(0, -1, -1, 3, -1, -1, 3, 0.5f);
  f.set_colour(0, 0, 1, 1);
  f.draw(0);
  CHECK(f.ctx->is_resource_referenced(f.rt, 0));
  FenceHandle fence;
  REQUIRE(f.ctx->flush(&fence, 0).is_ok());
  REQUIRE(shared_screen()->fence_finish(fence, UINT64_MAX).is_ok());
  // Raw read of the storage, without a transfer that would run the scene itself.
  const std::vector<uint8_t> raw = read_raw(f.rt);
  CHECK(raw[2] == 255);
}

TEST_CASE("scene: draws share vertex and setup launches, and draws that cannot keep API order",
          "[frontend][draw][scene]") {
  // Launches of a scene of n draws that share their state but the constants: one vertex
  // launch, one setup sequence, one binning and one tile pass, whatever n is.
  auto launches_of = [](uint32_t n) {
    Fixture f;
    f.clear();
    REQUIRE(f.ctx->flush(nullptr, 0).is_ok());
    auto& impl = dynamic_cast<frontend::ContextImpl&>(*f.ctx);
    for (uint32_t i = 0; i < n; ++i) {
      const float s = float(i) / float(n);
      f.triangle(i * 3, -1.0f + s, -1.0f, 1.0f, -0.8f + s, -0.6f + s * 0.5f, 1.0f, 0.5f);
    }
    // The first scene grows the record and bin buffers (a replay); the second is counted.
    uint64_t launches = 0;
    for (int round = 0; round < 2; ++round) {
      const uint64_t before = impl.scene_counters().launches;
      for (uint32_t i = 0; i < n; ++i) {
        f.set_colour(float(i % 2), 0.5f, 0.25f, 1.0f);
        f.draw(i * 3);
      }
      REQUIRE(f.ctx->flush(nullptr, 0).is_ok());
      launches = impl.scene_counters().launches - before;
    }
    return launches;
  };
  const uint64_t few = launches_of(4);
  CHECK(few > 0);
  CHECK(launches_of(40) == few);

  // A mixed scene: draws that read a second vertex buffer (their own vertex launches),
  // indexed draws with primitive restart (which run their passes alone) and plain draws,
  // interleaved and overlapping with blending: the pixels of the draws run one by one.
  auto mixed = [](Fixture& f, bool flush_each) {
    ResourceRef second = create_buffer(1 << 16);
    for (uint32_t i = 0; i < 12; ++i) {
      const float s = float(i) / 12.0f;
      f.triangle(i * 3, -1.0f + s, -1.0f, 1.0f, -0.8f + s, -0.7f + s * 0.5f, 1.0f, 0.5f);
      f.triangle(64 + i * 3, 1.0f - s, 1.0f, -1.0f, 0.8f - s, 0.7f - s * 0.5f, -1.0f, 0.5f);
    }
    finish(*f.ctx);  // read_raw reads on its own queue: the writes must have landed
    std::vector<uint8_t> copy = read_raw(f.vbuf);
    REQUIRE(f.ctx->buffer_subdata(second, Map::WRITE, 0, 1 << 16, copy.data()).is_ok());
    f.ctx->bind_blend_state(f.blend);
    f.ctx->bind_depth_stencil_alpha_state(f.ctx->create_depth_stencil_alpha_state({}).value());
    for (uint32_t i = 0; i < 12; ++i) {
      f.set_colour(float(i % 3) / 2.0f, float(i % 5) / 4.0f, 0.5f, 0.5f);
      VertexBuffer vb;
      vb.stride = 16;
      vb.buffer = i % 3 == 1 ? second : f.vbuf;
      REQUIRE(f.ctx->set_vertex_buffers(0, {vb}).is_ok());
      if (i % 4 == 2) {
        // Two triangles of this draw's and the next draw's vertices, cut by a restart.
        const uint16_t idx[7] = {
            uint16_t(i * 3),      uint16_t(i * 3 + 1),  uint16_t(i * 3 + 2), 0xffff,
            uint16_t(64 + i * 3), uint16_t(65 + i * 3), uint16_t(66 + i * 3)};
        DrawInfo info;
        info.mode = PrimType::TRIANGLE_STRIP;
        info.index_size = 2;
        info.has_user_indices = true;
        info.index_user = idx;
        info.primitive_restart = true;
        info.restart_index = 0xffff;
        const Status st = f.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, 7, 0}});
        INFO(st.message());
        REQUIRE(st.is_ok());
      } else {
        f.draw(i % 2 ? 64 + i * 3 : i * 3);
      }
      if (flush_each) REQUIRE(f.ctx->flush(nullptr, 0).is_ok());
    }
  };
  Fixture one_by_one;
  one_by_one.clear();
  mixed(one_by_one, true);
  const std::vector<uint8_t> expected = one_by_one.pixels();
  Fixture together;
  together.clear();
  const uint64_t scenes_before = together.scenes();
  mixed(together, false);
  const std::vector<uint8_t> got = together.pixels();
  CHECK(together.scenes() == scenes_before + 1);
  CHECK(got == expected);
  CHECK(coloured_pixels(got) > kW * kH / 3);
}

TEST_CASE("scene: occlusion queries and conditional rendering span the draws of one scene",
          "[frontend][draw][scene][query]") {
  Fixture f;
  f.clear();
  f.triangle(0, -1, -1, 3, -1, -1, 3, 0.5f);  // covers every pixel once
  f.set_colour(0, 0, 1, 1);
  REQUIRE(f.ctx->flush(nullptr, 0).is_ok());
  auto quad_at = [&](uint32_t slot, float z) { f.triangle(slot * 3, -1, -1, 3, -1, -1, 3, z); };
  auto result = [&](const QueryHandle& q) {
    QueryResult r{};
    REQUIRE(f.ctx->get_query_result(q, true, &r).is_ok());
    return r.u64;
  };

  // Ten full-window draws under LESS: the even ones come nearer each time and pass, the
  // odd ones repeat the depth before them and fail. All ten are one scene.
  for (uint32_t i = 0; i < 10; ++i)
    quad_at(i, 0.9f - 0.05f * float(i - i % 2));
  QueryHandle passed = f.ctx->create_query(QueryType::OCCLUSION_COUNTER, 0).value();
  REQUIRE(f.ctx->begin_query(passed).is_ok());
  const uint64_t scenes_before = f.scenes();
  for (uint32_t i = 0; i < 10; ++i)
    f.draw(i * 3);
  REQUIRE(f.ctx->end_query(passed).is_ok());
  CHECK(f.scenes() == scenes_before + 1);
  CHECK(result(passed) == 5u * kW * kH);

  // A query whose draw is hidden behind the nearest depth counts nothing.
  QueryHandle hidden = f.ctx->create_query(QueryType::OCCLUSION_PREDICATE, 0).value();
  REQUIRE(f.ctx->begin_query(hidden).is_ok());
  f.draw(9 * 3);
  REQUIRE(f.ctx->end_query(hidden).is_ok());
  QueryResult r{};
  REQUIRE(f.ctx->get_query_result(hidden, true, &r).is_ok());
  CHECK_FALSE(r.b);

  // Draws under a condition in one scene: skipped (hidden drew nothing) or drawn.
  f.ctx->bind_depth_stencil_alpha_state(f.ctx->create_depth_stencil_alpha_state({}).value());
  REQUIRE(f.ctx->render_condition(hidden, false, RenderCondMode::WAIT).is_ok());
  const uint64_t scenes_skipped = f.scenes();
  f.set_colour(1, 0, 0, 1);
  f.draw(0);
  f.draw(3);
  REQUIRE(f.ctx->render_condition(passed, false, RenderCondMode::WAIT).is_ok());
  CHECK(f.scenes() == scenes_skipped + 1);
  std::vector<uint8_t> px = f.pixels();
  CHECK(px[0] == 0);  // not red: still the blue of the counted draws
  CHECK(px[2] == 255);
  f.set_colour(0, 1, 0, 1);
  f.draw(0);
  f.set_colour(0, 1, 1, 1);
  f.draw(3);
  px = f.pixels();
  CHECK(px[0] == 0);
  CHECK(px[1] == 255);
  CHECK(px[2] == 255);
  REQUIRE(f.ctx->render_condition(nullptr, false, RenderCondMode::WAIT).is_ok());
}

TEST_CASE("scene: draws with a geometry shader between other draws run alone, in order",
          "[frontend][draw][scene][gs]") {
  // Pass-through of each triangle; the draws it is bound for run as scenes of their own.
  const char* gs =
      "GEOM\n"
      "PROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n"
      "PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
      "PROPERTY GS_MAX_OUTPUT_VERTICES 3\n"
      "PROPERTY GS_INVOCATIONS 1\n"
      "DCL IN[][0], POSITION\n"
      "DCL OUT[0], POSITION\n"
      "IMM[0] UINT32 {0, 0, 0, 0}\n"
      "MOV OUT[0], IN[0][0]\nEMIT IMM[0].xxxx\n"
      "MOV OUT[0], IN[1][0]\nEMIT IMM[0].xxxx\n"
      "MOV OUT[0], IN[2][0]\nEMIT IMM[0].xxxx\n"
      "END\n";
  // replay: each GS draw's scene gets room for one record, so it is replayed.
  auto run = [&](Fixture& f, bool flush_each, bool replay = false) {
    ShaderState s;
    s.tgsi = gs;
    const ShaderHandle g = f.ctx->create_gs_state(s).value();
    f.ctx->bind_blend_state(f.blend);
    f.ctx->bind_depth_stencil_alpha_state(f.ctx->create_depth_stencil_alpha_state({}).value());
    for (uint32_t i = 0; i < 9; ++i) {
      const float t = float(i) / 9.0f;
      f.triangle(i * 3, -1.0f + t, -1.0f, 1.0f, -0.9f + t, -0.8f + t * 0.5f, 1.0f, 0.5f);
    }
    for (uint32_t i = 0; i < 9; ++i) {
      REQUIRE(f.ctx->bind_gs_state(i % 3 == 1 ? g : nullptr).is_ok());
      f.set_colour(float(i % 2), float(i % 3) / 2.0f, 0.75f, 0.5f);
      if (replay && i % 3 == 1) {
        REQUIRE(f.ctx->flush(nullptr, 0).is_ok());
        dynamic_cast<frontend::ContextImpl&>(*f.ctx).set_scene_capacity_cap(1, 1);
      }
      if (i % 3 == 1) {
        // A fan of two triangles: the GS's output stream (strips) differs from its input.
        DrawInfo fan;
        fan.mode = PrimType::TRIANGLE_FAN;
        REQUIRE(f.ctx->draw_vbo(fan, 0, nullptr, {DrawStartCountBias{i * 3, 4, 0}}).is_ok());
      } else {
        f.draw(i * 3);
      }
      if (flush_each) REQUIRE(f.ctx->flush(nullptr, 0).is_ok());
    }
    REQUIRE(f.ctx->bind_gs_state(nullptr).is_ok());
  };
  Fixture one_by_one;
  one_by_one.clear();
  run(one_by_one, true);
  Fixture together;
  together.clear();
  run(together, false);
  const std::vector<uint8_t> got = together.pixels();
  CHECK(got == one_by_one.pixels());
  CHECK(coloured_pixels(got) > kW * kH / 3);
  // Replayed GS scenes start again from the draw's own parameters.
  Fixture replayed;
  replayed.clear();
  const uint64_t replays =
      dynamic_cast<frontend::ContextImpl&>(*replayed.ctx).scene_counters().replays;
  run(replayed, false, true);
  CHECK(replayed.pixels() == got);
  CHECK(dynamic_cast<frontend::ContextImpl&>(*replayed.ctx).scene_counters().replays >=
        replays + 3);
}

TEST_CASE("scene: draws with unchanged state reuse the derived state, any change re-derives",
          "[frontend][draw][scene]") {
  Fixture f;
  auto& impl = dynamic_cast<frontend::ContextImpl&>(*f.ctx);
  f.clear();
  f.triangle(0, -1, -1, 3, -1, -1, 3, 0.5f);   // the whole window
  f.triangle(3, -1, -1, 0, -1, -1, 0, 0.25f);  // the bottom-left quarter, nearer
  f.ctx->bind_depth_stencil_alpha_state(f.ctx->create_depth_stencil_alpha_state({}).value());
  f.set_colour(1, 0, 0, 1);
  f.draw(0);
  const uint64_t first = impl.draw_derivations();
  f.draw(0);
  f.draw(3);
  CHECK(impl.draw_derivations() == first);  // the same state: records only

  // Each state call re-derives, and the draw after it sees the new state.
  f.set_colour(0, 1, 0, 1);
  f.draw(3);
  CHECK(impl.draw_derivations() == first + 1);
  f.ctx->bind_blend_state(f.blend);
  f.set_colour(0, 0, 1, 0.5f);
  f.draw(3);
  CHECK(impl.draw_derivations() == first + 2);  // one per draw after state calls
  std::vector<uint8_t> px = f.pixels();
  // Bottom-left: green blended half with blue; top-right: red.
  CHECK(px[0] == 0);
  CHECK(int(px[1]) == Approx(128).margin(1));
  CHECK(int(px[2]) == Approx(128).margin(1));
  const size_t top_right = (size_t(kH - 1) * kW + kW - 1) * 4;
  CHECK(px[top_right + 0] == 255);
  CHECK(px[top_right + 2] == 0);

  // The read-back ran the scene: the next draw derives again for the new scene's tables.
  f.ctx->bind_blend_state(f.opaque);
  f.set_colour(1, 1, 0, 1);
  f.draw(0);
  const uint64_t after_flush = impl.draw_derivations();
  REQUIRE(f.ctx->flush(nullptr, 0).is_ok());
  f.draw(0);
  CHECK(impl.draw_derivations() == after_flush + 1);
  // New vertex data (the subdata runs the scene that reads the buffer) and a new colour:
  // one derivation, then reuse.
  const uint64_t before_map = impl.draw_derivations();
  f.triangle(0, 0, 0, 3, 0, 0, 3, 0.5f);  // the top-right quarter only
  f.set_colour(1, 0, 1, 1);
  f.draw(0);
  f.draw(0);
  CHECK(impl.draw_derivations() == before_map + 1);
  px = f.pixels();
  CHECK(px[top_right + 0] == 255);
  CHECK(px[top_right + 1] == 0);
  CHECK(px[top_right + 2] == 255);
  CHECK(px[0] == 255);  // bottom-left: the yellow of the full-window draws
  CHECK(px[1] == 255);
}

TEST_CASE("scene: a scene that is the last owner of many released resources runs first",
          "[frontend][draw][scene]") {
  // Each draw reads a constant buffer of its own, which the test releases once the next
  // one is bound (a texture made, drawn with and deleted per draw in a real program).
  Fixture f;
  auto& impl = dynamic_cast<frontend::ContextImpl&>(*f.ctx);
  constexpr uint32_t kBytes = 64 << 10;
  impl.set_scene_released_limit(3 * kBytes);  // the fourth released buffer is one too many
  f.clear();
  f.triangle(0, -1, -1, 3, -1, -1, 3, 0.5f);
  f.ctx->bind_depth_stencil_alpha_state(f.ctx->create_depth_stencil_alpha_state({}).value());
  std::weak_ptr<Resource> first;
  const uint64_t scenes = f.scenes();
  for (uint32_t i = 0; i < 9; ++i) {
    ResourceRef buf = create_buffer(kBytes);
    const float k[4] = {float(i) / 8.0f, 1.0f, 0.0f, 1.0f};
    REQUIRE(f.ctx->buffer_subdata(buf, Map::WRITE, 0, sizeof(k), k).is_ok());
    if (i == 0) first = buf;
    ConstantBuffer cb;
    cb.buffer = buf;
    cb.buffer_size = kBytes;
    REQUIRE(f.ctx->set_constant_buffer(ShaderType::FRAGMENT, 0, &cb).is_ok());
    f.draw(0);
  }
  // Draws 4 and 8 found 4 released buffers in the scene and ran it first; the first buffer
  // is gone with the first of those scenes.
  CHECK(f.scenes() == scenes + 2);
  CHECK(first.expired());
  const std::vector<uint8_t> px = f.pixels();
  CHECK(px[0] == 255);  // the last draw's colour
  CHECK(px[1] == 255);
}
