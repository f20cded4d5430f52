// Huge draws in chunks (src/frontend/draw/draw_split.cpp and draw_vbo): the chunks of
// every mode give exactly the draw's primitives with the draw's ids, a draw through the
// public API renders the same pixels with a tiny scratch budget (many chunks, many
// scenes) as with the default one (one chunk), and a draw of 2^20 positions keeps the
// pipeline's scratch within its budget.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <tuple>

#include "draw/draw_fixture.h"
#include "frontend/draw/draw_split.h"
#include "frontend/frontend_util.h"

using namespace clpipe;
using namespace clpipe::test;
using clpipe::frontend::draw::DrawChunk;
using clpipe::frontend::draw::split_draw;

namespace {

// GL's primitives of `n` positions of `mode` as lists of positions, in order; a
// primitive's PRIMID is its index (a quad is one primitive).
std::vector<std::vector<uint32_t>> assemble(PrimType mode, uint32_t n) {
  std::vector<std::vector<uint32_t>> out;
  auto lists = [&](uint32_t size) {
    for (uint32_t i = 0; i + size <= n; i += size) {
      std::vector<uint32_t> p;
      for (uint32_t k = 0; k < size; ++k)
        p.push_back(i + k);
      out.push_back(p);
    }
  };
  switch (mode) {
    case PrimType::POINTS:
      lists(1);
      break;
    case PrimType::LINES:
      lists(2);
      break;
    case PrimType::TRIANGLES:
      lists(3);
      break;
    case PrimType::QUADS:
    case PrimType::LINES_ADJACENCY:
      lists(4);
      break;
    case PrimType::TRIANGLES_ADJACENCY:
      lists(6);
      break;
    case PrimType::LINE_STRIP:
    case PrimType::LINE_LOOP:
      for (uint32_t i = 0; i + 1 < n; ++i)
        out.push_back({i, i + 1});
      if (mode == PrimType::LINE_LOOP && n >= 2) out.push_back({n - 1, 0});
      break;
    case PrimType::LINE_STRIP_ADJACENCY:
      for (uint32_t i = 0; i + 3 < n; ++i)
        out.push_back({i, i + 1, i + 2, i + 3});
      break;
    case PrimType::TRIANGLE_STRIP:
      for (uint32_t i = 0; i + 2 < n; ++i)
        out.push_back(i % 2 ? std::vector<uint32_t>{i + 1, i, i + 2}
                            : std::vector<uint32_t>{i, i + 1, i + 2});
      break;
    case PrimType::TRIANGLE_FAN:
    case PrimType::POLYGON:
      for (uint32_t i = 0; i + 2 < n; ++i)
        out.push_back({0, i + 1, i + 2});
      break;
    case PrimType::QUAD_STRIP:
      for (uint32_t i = 0; 2 * i + 3 < n; ++i)
        out.push_back({2 * i, 2 * i + 1, 2 * i + 3, 2 * i + 2});
      break;
    default:
      FAIL("no reference for this mode");
  }
  return out;
}

// (instance, positions of the draw, PRIMID) of every primitive, in order.
using Prim = std::tuple<uint32_t, std::vector<uint32_t>, uint32_t>;

std::vector<Prim> whole_prims(PrimType mode, uint32_t count, uint32_t instances) {
  std::vector<Prim> out;
  const auto prims = assemble(mode, count);
  for (uint32_t i = 0; i < instances; ++i) {
    for (uint32_t id = 0; id < prims.size(); ++id)
      out.emplace_back(i, prims[id], id);
  }
  return out;
}

// The primitives the chunks make, in terms of the draw (ClpVertexParams' mapping).
std::vector<Prim> chunk_prims(const std::vector<DrawChunk>& chunks) {
  std::vector<Prim> out;
  for (const DrawChunk& c : chunks) {
    const auto prims = assemble(c.mode, c.count);
    for (uint32_t i = 0; i < c.instance_count; ++i) {
      for (uint32_t id = 0; id < prims.size(); ++id) {
        std::vector<uint32_t> p;
        for (uint32_t k : prims[id]) {
          const bool hub = (c.hub == 1 && k == 0) || (c.hub == 2 && k + 1 == c.count);
          p.push_back(hub ? 0 : c.position_base + k - (c.hub == 1 ? 1 : 0));
        }
        out.emplace_back(c.instance_base + i, p, c.prim_id_base + id);
      }
    }
  }
  return out;
}

constexpr PrimType kSplitModes[] = {PrimType::POINTS,
                                    PrimType::LINES,
                                    PrimType::LINE_STRIP,
                                    PrimType::LINE_LOOP,
                                    PrimType::TRIANGLES,
                                    PrimType::TRIANGLE_STRIP,
                                    PrimType::TRIANGLE_FAN,
                                    PrimType::QUADS,
                                    PrimType::QUAD_STRIP,
                                    PrimType::POLYGON,
                                    PrimType::LINES_ADJACENCY,
                                    PrimType::LINE_STRIP_ADJACENCY,
                                    PrimType::TRIANGLES_ADJACENCY};

}  // namespace

TEST_CASE("split_draw: the chunks of every mode make the draw's primitives and ids",
          "[draw][split]") {
  for (PrimType mode : kSplitModes) {
    for (uint32_t count : {64u, 65u, 200u, 257u, 1001u}) {
      for (uint32_t instances : {1u, 3u}) {
        for (uint64_t most : {64u, 71u, 100u, 1000u}) {
          INFO("mode " << unsigned(mode) << ", " << count << " x " << instances
                       << " positions, chunks of at most " << most);
          const std::vector<DrawChunk> chunks = split_draw(mode, count, instances, most, true);
          for (const DrawChunk& c : chunks)
            CHECK(uint64_t(c.count) * c.instance_count <= most);
          if (uint64_t(count) * instances > most) CHECK(chunks.size() > 1);
          CHECK(chunk_prims(chunks) == whole_prims(mode, count, instances));
        }
      }
    }
  }
}

TEST_CASE("split_draw: whole instances where one fits or positions cannot be cut",
          "[draw][split]") {
  // 10 positions x 100 instances in chunks of 64: groups of 6 instances.
  std::vector<DrawChunk> chunks = split_draw(PrimType::TRIANGLE_STRIP, 10, 100, 64, true);
  REQUIRE(chunks.size() == 17);
  CHECK(chunks[1].instance_base == 6);
  CHECK(chunks[1].instance_count == 6);
  CHECK(chunks.back().instance_count == 4);
  CHECK(chunk_prims(chunks) == whole_prims(PrimType::TRIANGLE_STRIP, 10, 100));
  // Restart (split_positions false) and strips with adjacency: one chunk per instance.
  for (bool adjacency : {false, true}) {
    const PrimType mode = adjacency ? PrimType::TRIANGLE_STRIP_ADJACENCY : PrimType::TRIANGLE_STRIP;
    chunks = split_draw(mode, 1000, 3, 64, adjacency);
    REQUIRE(chunks.size() == 3);
    for (uint32_t i = 0; i < 3; ++i) {
      CHECK(chunks[i].count == 1000);
      CHECK(chunks[i].instance_base == i);
      CHECK(chunks[i].instance_count == 1);
      CHECK(chunks[i].hub == 0);
    }
  }
  // A draw that fits is one chunk, unchanged.
  chunks = split_draw(PrimType::LINE_LOOP, 64, 1, 64, true);
  REQUIRE(chunks.size() == 1);
  CHECK(chunks[0].mode == PrimType::LINE_LOOP);
  CHECK(chunks[0].count == 64);
}

namespace {

// Colour = (provoking VERTEXID, INSTANCEID, divisor-3 attribute + FACE / 4, PRIMID):
// every id a chunk must carry reaches the pixels. IN[1] (divisor 1) moves each instance.
const char* kIdVs =
    "VERT\n"
    "DCL IN[0]\n"
    "DCL IN[1]\n"
    "DCL IN[2]\n"
    "DCL SV[0], VERTEXID\n"
    "DCL SV[1], INSTANCEID\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "  0: ADD OUT[0], IN[0], IN[1]\n"
    "  1: U2F OUT[1].x, SV[0].xxxx\n"
    "  2: U2F OUT[1].y, SV[1].xxxx\n"
    "  3: MOV OUT[1].z, IN[2].xxxx\n"
    "  4: MOV OUT[1].w, IN[2].yyyy\n"
    "  5: END\n";
const char* kIdFs =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], CONSTANT\n"
    "DCL IN[1].x, PRIM_ID, CONSTANT\n"
    "DCL IN[2], FACE, CONSTANT\n"
    "DCL OUT[0], COLOR\n"
    "IMM[0] FLT32 {0.25, 0.0, 0.0, 0.0}\n"
    "  0: MOV OUT[0].xy, IN[0]\n"
    "  1: MAD OUT[0].z, IN[2].xxxx, IMM[0].xxxx, IN[0].zzzz\n"
    "  2: U2F OUT[0].w, IN[1].xxxx\n"
    "  3: END\n";

constexpr uint32_t kW = 128, kH = 128;

struct SplitFixture {
  std::unique_ptr<Context> ctx = new_context();
  ResourceRef rt, verts, offsets, attrs;

  SplitFixture() {
    rt = create(make_templ(TextureTarget::TEXTURE_2D, Format::R32G32B32A32_FLOAT, kW, kH));
    FramebufferState fb;
    fb.width = kW;
    fb.height = kH;
    fb.nr_cbufs = 1;
    fb.cbufs[0] = make_surface(*ctx, rt, Format::R32G32B32A32_FLOAT);
    REQUIRE(ctx->set_framebuffer_state(fb).is_ok());
    REQUIRE(ctx->set_viewport_states(0, {window_viewport(kW, kH)}).is_ok());
    ShaderState s;
    s.tgsi = kIdVs;
    REQUIRE(ctx->bind_vs_state(ctx->create_vs_state(s).value()).is_ok());
    s.tgsi = kIdFs;
    REQUIRE(ctx->bind_fs_state(ctx->create_fs_state(s).value()).is_ok());
    VertexElement pos, off, attr;
    pos.src_format = off.src_format = attr.src_format = Format::R32G32B32A32_FLOAT;
    off.vertex_buffer_index = 1;
    off.instance_divisor = 1;
    attr.vertex_buffer_index = 2;
    attr.instance_divisor = 3;
    ctx->bind_vertex_elements_state(ctx->create_vertex_elements_state({pos, off, attr}).value());
    RasterizerState r;
    r.flatshade = true;
    ctx->bind_rasterizer_state(ctx->create_rasterizer_state(r).value());
    ctx->bind_blend_state(ctx->create_blend_state(BlendState()).value());
  }

  void upload(ResourceRef* res, const std::vector<float>& data) {
    *res = create_buffer(uint32_t(data.size() * 4));
    REQUIRE(
        ctx->buffer_subdata(*res, Map::WRITE, 0, uint32_t(data.size() * 4), data.data()).is_ok());
  }

  // Positions (NDC xy), per-instance offsets and divisor-3 attributes.
  void set_data(const std::vector<float>& xy, const std::vector<float>& inst_xy,
                uint32_t instances) {
    std::vector<float> v, o, a;
    for (size_t i = 0; i + 1 < xy.size(); i += 2)
      v.insert(v.end(), {xy[i], xy[i + 1], 0.0f, 1.0f});
    for (size_t i = 0; i + 1 < inst_xy.size(); i += 2)
      o.insert(o.end(), {inst_xy[i], inst_xy[i + 1], 0.0f, 0.0f});
    for (uint32_t i = 0; i < instances; i += 3)
      a.insert(a.end(), {float(100 + i), float(7 * i % 13), 0.0f, 0.0f});
    upload(&verts, v);
    upload(&offsets, o);
    upload(&attrs, a);
    std::vector<VertexBuffer> vbs(3);
    vbs[0].buffer = verts;
    vbs[1].buffer = offsets;
    vbs[2].buffer = attrs;
    for (VertexBuffer& b : vbs)
      b.stride = 16;
    REQUIRE(ctx->set_vertex_buffers(0, vbs).is_ok());
  }

  std::vector<uint8_t> render(PrimType mode, uint32_t count, uint32_t instances,
                              const std::vector<uint32_t>* indices = nullptr) {
    ColorUnion c{};
    REQUIRE(ctx->clear(Clear::COLOR, nullptr, c, 1.0, 0).is_ok());
    DrawInfo info;
    info.mode = mode;
    info.instance_count = instances;
    ResourceRef ib;
    if (indices) {
      ib = create_buffer(uint32_t(indices->size() * 4));
      REQUIRE(ctx->buffer_subdata(ib, Map::WRITE, 0, uint32_t(indices->size() * 4), indices->data())
                  .is_ok());
      info.index_size = 4;
      info.index_resource = ib;
    }
    REQUIRE(
        ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{indices ? 0u : 2u, count, 0}}).is_ok());
    return read_box(*ctx, rt, 0, make_box_2d(0, 0, kW, kH));
  }

  frontend::ContextImpl& impl() { return dynamic_cast<frontend::ContextImpl&>(*ctx); }
};

// Pixels a primitive wrote (the clear leaves all four channels 0; PRIMID 0 with
// VERTEXID 0 only at the first primitive of a draw).
size_t drawn_pixels(const std::vector<uint8_t>& rgba32f) {
  size_t n = 0;
  for (size_t i = 0; i + 16 <= rgba32f.size(); i += 16) {
    float px[4];
    std::memcpy(px, &rgba32f[i], 16);
    n += px[0] != 0.0f || px[1] != 0.0f || px[2] != 0.0f || px[3] != 0.0f;
  }
  return n;
}

float ndc(float pixels, float size) {
  return pixels / size * 2.0f - 1.0f;
}

// A zig-zag strip over rows of 4x4-pixel cells (vertex i: column i / 2, top or bottom),
// then `extra` vertices more.
std::vector<float> zigzag(uint32_t n) {
  std::vector<float> xy;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t col = (i / 2) % 30, row = (i / 2) / 30;
    xy.push_back(ndc(4.0f + 4.0f * float(col), kW));
    xy.push_back(ndc(2.0f + 6.0f * float(row) + 4.0f * float(i % 2), kH));
  }
  return xy;
}

// A fan or loop: a centre (vertex 0) and n - 1 vertices on a circle.
std::vector<float> circle(uint32_t n) {
  std::vector<float> xy = {0.05f, -0.03f};
  for (uint32_t i = 1; i < n; ++i) {
    const float a = 6.2831853f * float(i - 1) / float(n - 1);
    xy.push_back(0.9f * std::cos(a));
    xy.push_back(0.9f * std::sin(a));
  }
  return xy;
}

}  // namespace

TEST_CASE("draw_vbo: huge draws in chunks render the pixels of the whole draw",
          "[draw][split][frontend]") {
  struct Case {
    const char* name;
    PrimType mode;
    uint32_t count, instances;
    bool indexed;
  };
  const Case cases[] = {
      {"triangle strip", PrimType::TRIANGLE_STRIP, 600, 1, false},
      {"quad strip", PrimType::QUAD_STRIP, 600, 1, false},
      {"line strip", PrimType::LINE_STRIP, 600, 1, false},
      {"triangle fan", PrimType::TRIANGLE_FAN, 500, 1, false},
      {"polygon", PrimType::POLYGON, 500, 1, false},
      {"line loop", PrimType::LINE_LOOP, 500, 1, false},
      {"indexed triangles", PrimType::TRIANGLES, 900, 1, true},
      {"instanced strips", PrimType::TRIANGLE_STRIP, 4, 400, false},
      {"instanced indexed loops", PrimType::LINE_LOOP, 200, 6, true},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    SplitFixture f;
    const bool round = c.mode == PrimType::TRIANGLE_FAN || c.mode == PrimType::POLYGON ||
                       c.mode == PrimType::LINE_LOOP;
    std::vector<float> xy = round ? circle(c.count + 2) : zigzag(c.count + 2);
    std::vector<float> inst;
    for (uint32_t i = 0; i < c.instances; ++i) {
      // Instances on a 20 x 20 grid of 6-pixel steps (one instance: no offset).
      inst.push_back(c.instances > 1 ? 6.0f * float(i % 20) / kW * 2.0f : 0.0f);
      inst.push_back(c.instances > 1 ? 6.0f * float(i / 20) / kH * 2.0f : 0.0f);
    }
    if (c.instances > 1 && !round) {
      // One 4x4-pixel quad per instance near the corner.
      xy = {ndc(1, kW), ndc(1, kH), ndc(5, kW), ndc(1, kH),
            ndc(1, kW), ndc(5, kH), ndc(5, kW), ndc(5, kH)};
      xy.insert(xy.begin(), {0.0f, 0.0f, 0.0f, 0.0f});  // draws start at vertex 2
    }
    if (c.instances > 1 && round) {
      for (float& v : xy)
        v = v * 0.15f - 0.8f;
    }
    f.set_data(xy, inst, c.instances);
    std::vector<uint32_t> indices;
    for (uint32_t i = 0; i < c.count; ++i)
      indices.push_back(c.mode == PrimType::TRIANGLES ? (i * 7) % c.count + 2 : i + 2);
    const std::vector<uint32_t>* ib = c.indexed ? &indices : nullptr;

    const std::vector<uint8_t> whole = f.render(c.mode, c.count, c.instances, ib);
    const uint64_t scenes = f.impl().scene_counters().scenes;
    // 16 KiB of scratch: chunks of a few dozen positions.
    f.impl().set_scene_scratch_budget(16 << 10);
    const std::vector<uint8_t> split = f.render(c.mode, c.count, c.instances, ib);
    const uint64_t split_scenes = f.impl().scene_counters().scenes - scenes;
    CHECK(split_scenes >= 4);
    CHECK(drawn_pixels(whole) > 200);
    CHECK(split == whole);
  }
}

TEST_CASE("draw_vbo: a draw of 2^20 positions keeps the scratch within the scene budget",
          "[draw][split][frontend]") {
  SplitFixture f;
  f.set_data(zigzag(64), {0.0f, 0.0f}, 1);
  // Positions past the 64 vertices read zeros: degenerate triangles, set up and dropped.
  f.impl().set_scene_scratch_budget(8 << 20);
  const std::vector<uint8_t> px = f.render(PrimType::TRIANGLE_STRIP, 1u << 20, 1);
  CHECK(drawn_pixels(px) > 100);
  // One scene of the whole draw would hold ~200 MB (2^20 x (2 registers, a record, two
  // bin entries)); chunks of 8 MiB, grown by half at most once more, stay near 12 MiB.
  CHECK(f.impl().scene_scratch_capacity() <= (24u << 20));
}

TEST_CASE("draw_vbo: scratch past the screen's memory limit is an error and the context goes on",
          "[draw][split][frontend][memory]") {
  SplitFixture f;
  f.set_data(zigzag(64), {0.0f, 0.0f}, 1);
  const std::vector<uint8_t> expected = f.render(PrimType::TRIANGLE_STRIP, 64, 1);
  // 1 MiB left: the scratch of 2^20 positions (16 MiB chunks) cannot be allocated.
  Screen& screen = *shared_screen();
  MemoryLimits l;
  l.screen_bytes = screen.memory_in_use() + (1u << 20);
  screen.set_memory_limits(l);
  f.impl().set_scene_scratch_budget(16 << 20);
  DrawInfo info;
  info.mode = PrimType::TRIANGLE_STRIP;
  Status drawn = f.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{2, 1u << 20, 0}});
  if (drawn.is_ok()) drawn = f.ctx->flush(nullptr, 0);
  screen.set_memory_limits(MemoryLimits());
  REQUIRE_FALSE(drawn.is_ok());
  CHECK(drawn.code() == ErrorCode::kOutOfMemory);
  CHECK_THAT(drawn.message(), Catch::Contains("memory limit"));
  // Within the limit again, the context draws as before.
  CHECK(f.render(PrimType::TRIANGLE_STRIP, 64, 1) == expected);
}

TEST_CASE("draw_vbo: pipeline statistics of a draw in chunks count the draw once",
          "[draw][split][frontend][query]") {
  // A 600-vertex strip (598 triangles) and 4 vertices x 400 instances (800 triangles),
  // in chunks of a 16 KiB budget: vertices the chunks repeat are not counted twice.
  SplitFixture f;
  f.set_data(zigzag(602), {0.0f, 0.0f}, 400);
  f.impl().set_scene_scratch_budget(16 << 10);
  auto stats = f.ctx->create_query(QueryType::PIPELINE_STATISTICS, 0).value();
  REQUIRE(f.ctx->begin_query(stats).is_ok());
  const uint64_t scenes = f.impl().scene_counters().scenes;
  DrawInfo info;
  info.mode = PrimType::TRIANGLE_STRIP;
  REQUIRE(f.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{2, 600, 0}}).is_ok());
  info.instance_count = 400;
  REQUIRE(f.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{2, 4, 0}}).is_ok());
  REQUIRE(f.ctx->end_query(stats).is_ok());
  QueryResult r;
  REQUIRE(f.ctx->get_query_result(stats, true, &r).is_ok());
  CHECK(f.impl().scene_counters().scenes - scenes >= 8);
  CHECK(r.pipeline_statistics.ia_vertices == 600 + 1600);
  CHECK(r.pipeline_statistics.vs_invocations == 600 + 1600);
  CHECK(r.pipeline_statistics.ia_primitives == 598 + 800);
}

TEST_CASE("chunk sizes of huge draws under a huge scratch budget do not wrap", "[draw][split]") {
  // budget x count is 2^34 x 2^30 = 2^64: in 64 bits it wrapped to 0, and the draw went in
  // chunks of one position.
  DrawFixture fx;
  const frontend::draw::DrawSetup s = fx.basic_setup(64, 64);
  fx.pipeline().set_scratch_budget(uint64_t(1) << 34);
  CHECK(fx.pipeline().chunk_positions(s, PrimType::TRIANGLES, 1u << 30) ==
        frontend::draw::kSceneMaxPositions);
  fx.pipeline().set_scratch_budget(uint64_t(64) << 20);
  const uint64_t small = fx.pipeline().chunk_positions(s, PrimType::TRIANGLES, 1u << 30);
  CHECK(small > 1);
  CHECK(small < frontend::draw::kSceneMaxPositions);
}
