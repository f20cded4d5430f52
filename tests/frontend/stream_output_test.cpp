// Stream output through the public API: the exact words written for every primitive
// type (against a sequential host decomposition), interleaved and separate layouts with
// dst_offset gaps and component subsets, appends across draws, pauses and rebinds, the
// range of a target (guard words stay), overflow, draw_auto, rasterizer_discard, and bad
// input.
#include <catch2/catch.hpp>

#include "frontend/stream_reference.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

// Vertex i: position on a small circle, record (i, 1000 + i, 2000 + i, 3000 + i).
std::vector<float> id_vertices(uint32_t n) {
  std::vector<float> v;
  for (uint32_t i = 0; i < n; ++i) {
    const float a = 0.7f * float(i);
    v.insert(v.end(), {0.5f * std::cos(a), 0.5f * std::sin(a), 0.0f, 1.0f, float(i), 1000.0f + i,
                       2000.0f + i, 3000.0f + i});
  }
  return v;
}

// The record of vertex v: channel c of IN[1].
float rec(uint32_t v, uint32_t c) {
  return float(v) + 1000.0f * float(c);
}

StreamOutputInfo capture_record(uint16_t stride_dwords = 4) {
  StreamOutputInfo so;
  so.stride[0] = stride_dwords;
  StreamOutput o;
  o.register_index = 1;
  o.num_components = 4;
  so.output.push_back(o);
  return so;
}

RasterizerState discard_state(bool first = false) {
  RasterizerState rs;
  rs.rasterizer_discard = true;
  rs.flatshade_first = first;
  return rs;
}

}  // namespace

TEST_CASE("stream output: every primitive type writes its basic primitives in GL order",
          "[frontend][so]") {
  StreamScene s;
  s.vs(kPassVs, capture_record());
  const uint32_t n = 14;
  s.vertices(id_vertices(n));
  const PrimType modes[] = {PrimType::POINTS,
                            PrimType::LINES,
                            PrimType::LINE_LOOP,
                            PrimType::LINE_STRIP,
                            PrimType::TRIANGLES,
                            PrimType::TRIANGLE_STRIP,
                            PrimType::TRIANGLE_FAN,
                            PrimType::QUADS,
                            PrimType::QUAD_STRIP,
                            PrimType::POLYGON,
                            PrimType::LINES_ADJACENCY,
                            PrimType::LINE_STRIP_ADJACENCY,
                            PrimType::TRIANGLES_ADJACENCY,
                            PrimType::TRIANGLE_STRIP_ADJACENCY};
  for (bool first : {false, true}) {
    s.rasterizer(discard_state(first));
    for (PrimType mode : modes) {
      INFO(prim_name(mode) << (first ? " (first provoking)" : ""));
      const std::vector<RefPrim> prims = ref_prims(mode, iota_u32(n), first, false);
      const uint32_t bytes = 4096;
      ResourceRef buf = s.so_buffer(bytes);
      REQUIRE(s.ctx->set_stream_output_targets({s.target(buf, 0, bytes)}, {0}).is_ok());
      auto q = s.ctx->create_query(QueryType::PRIMITIVES_EMITTED, 0).value();
      REQUIRE(s.ctx->begin_query(q).is_ok());
      REQUIRE(s.draw(mode, n).is_ok());
      REQUIRE(s.ctx->end_query(q).is_ok());
      QueryResult r;
      REQUIRE(s.ctx->get_query_result(q, true, &r).is_ok());
      CHECK(r.u64 == prims.size());
      std::vector<uint32_t> expect;
      for (const RefPrim& p : prims) {
        for (uint32_t v : p) {
          for (uint32_t c = 0; c < 4; ++c)
            expect.push_back(f2u(rec(v, c)));
        }
      }
      std::vector<uint32_t> got = s.words(buf);
      REQUIRE(got.size() == bytes / 4);
      while (expect.size() < got.size())
        expect.push_back(0xdeadbeefu);
      CHECK(got == expect);
    }
  }
}

TEST_CASE("stream output: primitive restart and instances", "[frontend][so]") {
  StreamScene s;
  s.rasterizer(discard_state());
  s.vs(kPassVs, capture_record());
  s.vertices(id_vertices(12));
  const std::vector<uint32_t> idx = {0, 1, 2, 3, 99, 4, 5, 6, 7, 8, 99, 9, 10};
  ResourceRef ib = create_buffer(uint32_t(idx.size() * 4));
  REQUIRE(s.ctx->buffer_subdata(ib, Map::WRITE, 0, uint32_t(idx.size() * 4), idx.data()).is_ok());
  for (PrimType mode : {PrimType::TRIANGLE_STRIP, PrimType::LINE_LOOP, PrimType::TRIANGLE_FAN}) {
    INFO(prim_name(mode));
    ResourceRef buf = s.so_buffer(4096);
    REQUIRE(s.ctx->set_stream_output_targets({s.target(buf, 0, 4096)}, {0}).is_ok());
    DrawInfo info;
    info.mode = mode;
    info.index_size = 4;
    info.index_resource = ib;
    info.primitive_restart = true;
    info.restart_index = 99;
    info.instance_count = 2;
    REQUIRE(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, uint32_t(idx.size()), 0}})
                .is_ok());
    // Both instances read the same vertices (no per-instance attribute).
    std::vector<RefPrim> prims = ref_prims(mode, idx, false, false, true, 99);
    const std::vector<RefPrim> once = prims;
    prims.insert(prims.end(), once.begin(), once.end());
    std::vector<uint32_t> expect;
    for (const RefPrim& p : prims) {
      for (uint32_t v : p) {
        for (uint32_t c = 0; c < 4; ++c)
          expect.push_back(f2u(rec(v, c)));
      }
    }
    std::vector<uint32_t> got = s.words(buf);
    got.resize(expect.size() + 4);
    for (int i = 0; i < 4; ++i)
      expect.push_back(0xdeadbeefu);
    CHECK(got == expect);
  }
}

TEST_CASE("stream output: interleaved and separate targets, gaps and component subsets",
          "[frontend][so]") {
  StreamScene s;
  s.rasterizer(discard_state());
  StreamOutputInfo so;
  so.stride[0] = 7;  // [rec.y, rec.z, gap, pos.x, pos.y, pos.z, pos.w]
  so.stride[1] = 2;  // [gap, rec.w]
  so.stride[2] = 1;  // [rec.x]
  auto out = [](uint8_t reg, uint8_t start, uint8_t count, uint8_t buffer, uint16_t dst) {
    StreamOutput o;
    o.register_index = reg;
    o.start_component = start;
    o.num_components = count;
    o.output_buffer = buffer;
    o.dst_offset = dst;
    return o;
  };
  so.output = {out(1, 1, 2, 0, 0), out(0, 0, 4, 0, 3), out(1, 3, 1, 1, 1), out(1, 0, 1, 2, 0)};
  s.vs(kPassVs, so);
  const std::vector<float> verts = id_vertices(7);
  s.vertices(verts);
  ResourceRef b0 = s.so_buffer(512), b1 = s.so_buffer(256), b2 = s.so_buffer(128);
  // Target 1 starts 8 bytes into its buffer.
  REQUIRE(s.ctx
              ->set_stream_output_targets(
                  {s.target(b0, 0, 512), s.target(b1, 8, 200), s.target(b2, 0, 128)}, {0, 0, 0})
              .is_ok());
  REQUIRE(s.draw(PrimType::TRIANGLES, 7).is_ok());  // two triangles: vertices 0..5
  std::vector<uint32_t> e0(128, 0xdeadbeefu), e1(64, 0xdeadbeefu), e2(32, 0xdeadbeefu);
  for (uint32_t v = 0; v < 6; ++v) {
    e0[v * 7 + 0] = f2u(rec(v, 1));
    e0[v * 7 + 1] = f2u(rec(v, 2));
    for (uint32_t c = 0; c < 4; ++c)
      e0[v * 7 + 3 + c] = f2u(verts[v * 8 + c]);
    e1[2 + v * 2 + 1] = f2u(rec(v, 3));
    e2[v] = f2u(rec(v, 0));
  }
  CHECK(s.words(b0) == e0);
  CHECK(s.words(b1) == e1);
  CHECK(s.words(b2) == e2);
}

TEST_CASE("stream output: appends across draws, pauses and rebinds", "[frontend][so]") {
  StreamScene s;
  s.rasterizer(discard_state());
  StreamOutputInfo so = capture_record(1);
  so.output[0].num_components = 1;  // rec.x = the vertex id
  s.vs(kPassVs, so);
  s.vertices(id_vertices(10));
  ResourceRef buf = s.so_buffer(256);
  StreamOutputTargetHandle t = s.target(buf, 0, 256);
  auto draw_points = [&](uint32_t first, uint32_t count) {
    DrawInfo info;
    info.mode = PrimType::POINTS;
    REQUIRE(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{first, count, 0}}).is_ok());
  };
  std::vector<uint32_t> expect(64, 0xdeadbeefu);
  REQUIRE(s.ctx->set_stream_output_targets({t}, {0}).is_ok());
  draw_points(0, 3);  // words 0..2
  draw_points(5, 2);  // the same binding appends: words 3..4
  REQUIRE(s.ctx->set_stream_output_targets({}, {}).is_ok());
  draw_points(7, 3);  // paused: nothing
  REQUIRE(s.ctx->set_stream_output_targets({t}, {0xffffffffu}).is_ok());
  draw_points(1, 2);  // resumed: words 5..6
  const uint32_t seq[] = {0, 1, 2, 5, 6, 1, 2};
  for (uint32_t i = 0; i < 7; ++i)
    expect[i] = f2u(float(seq[i]));
  CHECK(s.words(buf) == expect);
  // An explicit offset restarts there (bytes).
  REQUIRE(s.ctx->set_stream_output_targets({t}, {8}).is_ok());
  draw_points(9, 1);
  expect[2] = f2u(9.0f);
  CHECK(s.words(buf) == expect);
  draw_points(8, 1);
  expect[3] = f2u(8.0f);
  CHECK(s.words(buf) == expect);
}

TEST_CASE("stream output: nothing is written past a target, overflow is counted",
          "[frontend][so]") {
  StreamScene s;
  s.rasterizer(discard_state());
  StreamOutputInfo so = capture_record(4);
  StreamOutput second = so.output[0];
  second.output_buffer = 1;
  so.stride[1] = 4;
  so.output.push_back(second);
  s.vs(kPassVs, so);
  s.vertices(id_vertices(15));
  ResourceRef small = s.so_buffer(256), big = s.so_buffer(1024);
  // 100 bytes from byte 16: two triangles of 48 bytes fit, the third does not.
  REQUIRE(
      s.ctx->set_stream_output_targets({s.target(small, 16, 100), s.target(big, 0, 1024)}, {0, 0})
          .is_ok());
  auto stats = s.ctx->create_query(QueryType::SO_STATISTICS, 0).value();
  auto overflow = s.ctx->create_query(QueryType::SO_OVERFLOW_PREDICATE, 0).value();
  auto any = s.ctx->create_query(QueryType::SO_OVERFLOW_ANY_PREDICATE, 0).value();
  auto emitted = s.ctx->create_query(QueryType::PRIMITIVES_EMITTED, 0).value();
  for (auto& q : {stats, overflow, any, emitted})
    REQUIRE(s.ctx->begin_query(q).is_ok());
  REQUIRE(s.draw(PrimType::TRIANGLES, 15).is_ok());  // 5 triangles
  REQUIRE(s.draw(PrimType::TRIANGLES, 6).is_ok());   // 2 more: no room left at all
  for (auto& q : {stats, overflow, any, emitted})
    REQUIRE(s.ctx->end_query(q).is_ok());
  std::vector<uint32_t> e_small(64, 0xdeadbeefu), e_big(256, 0xdeadbeefu);
  for (uint32_t v = 0; v < 6; ++v) {
    for (uint32_t c = 0; c < 4; ++c) {
      e_small[4 + v * 4 + c] = f2u(rec(v, c));
      e_big[v * 4 + c] = f2u(rec(v, c));
    }
  }
  CHECK(s.words(small) == e_small);
  // Only whole primitives that fit in every target are written.
  CHECK(s.words(big) == e_big);
  QueryResult r;
  REQUIRE(s.ctx->get_query_result(stats, true, &r).is_ok());
  CHECK(r.so_statistics.num_primitives_written == 2);
  CHECK(r.so_statistics.primitives_storage_needed == 7);
  REQUIRE(s.ctx->get_query_result(emitted, true, &r).is_ok());
  CHECK(r.u64 == 2);
  REQUIRE(s.ctx->get_query_result(overflow, true, &r).is_ok());
  CHECK(r.b);
  REQUIRE(s.ctx->get_query_result(any, true, &r).is_ok());
  CHECK(r.b);
  // A new binding with room: no overflow.
  REQUIRE(s.ctx->set_stream_output_targets({s.target(big, 0, 1024)}, {0}).is_ok());
  REQUIRE(s.ctx->begin_query(overflow).is_ok());
  REQUIRE(s.draw(PrimType::TRIANGLES, 6).is_ok());
  REQUIRE(s.ctx->end_query(overflow).is_ok());
  REQUIRE(s.ctx->get_query_result(overflow, true, &r).is_ok());
  CHECK_FALSE(r.b);
}

TEST_CASE("stream output: draw_auto draws the captured vertices", "[frontend][so]") {
  StreamScene s;
  s.fs(kFlatColorFs);
  // Capture positions (OUT[0]) and records (OUT[1]) interleaved, 8 dwords per vertex:
  // the layout of the vertex input, so the captured buffer can be drawn again.
  StreamOutputInfo so;
  so.stride[0] = 8;
  StreamOutput pos, id;
  pos.register_index = 0;
  pos.num_components = 4;
  id.register_index = 1;
  id.num_components = 4;
  id.dst_offset = 4;
  so.output = {pos, id};
  s.vs(kPassVs, so);
  // One triangle covering the left half of the window, one the bottom right corner, and
  // a record whose x is the colour's red channel.
  std::vector<float> v = {-1, -1, 0, 1, 0.25f, 0, 0, 1, -1,   1,  0, 1, 0.25f, 0, 0, 1,
                          0,  -1, 0, 1, 0.25f, 0, 0, 1, 1,    -1, 0, 1, 0.5f,  0, 0, 1,
                          1,  0,  0, 1, 0.5f,  0, 0, 1, 0.5f, -1, 0, 1, 0.5f,  0, 0, 1};
  s.vertices(v);
  ResourceRef captured = s.so_buffer(1024);
  StreamOutputTargetHandle t = s.target(captured, 0, 1024);
  REQUIRE(s.ctx->set_stream_output_targets({t}, {0}).is_ok());
  REQUIRE(s.draw(PrimType::TRIANGLES, 6).is_ok());  // rendered and captured
  const std::array<float, 4> left = s.pixel(2, 16), corner = s.pixel(29, 2);
  CHECK(left[0] == 0.25f);
  CHECK(corner[0] == 0.5f);

  // Clear, then draw the captured buffer with draw_auto (vertex buffer 0, stride 32),
  // capturing again into a second target: the same 6 vertices come out.
  ColorUnion black{};
  REQUIRE(s.ctx->clear(Clear::COLOR0, nullptr, black, 0, 0).is_ok());
  VertexBuffer vb;
  vb.stride = 32;
  vb.buffer = captured;
  REQUIRE(s.ctx->set_vertex_buffers(0, {vb}).is_ok());
  ResourceRef again = s.so_buffer(1024);
  REQUIRE(s.ctx->set_stream_output_targets({s.target(again, 0, 1024)}, {0}).is_ok());
  DrawInfo info;
  info.mode = PrimType::TRIANGLES;
  DrawIndirectInfo auto_draw;
  auto_draw.count_from_stream_output = t;
  REQUIRE(s.ctx->draw_vbo(info, 0, &auto_draw, {DrawStartCountBias{}}).is_ok());
  std::vector<uint32_t> a = s.words(captured), b = s.words(again);
  CHECK(std::equal(a.begin(), a.begin() + 48, b.begin()));
  CHECK(b[48] == 0xdeadbeefu);
  CHECK(s.pixel(2, 16)[0] == 0.25f);
  CHECK(s.pixel(29, 2)[0] == 0.5f);
  // A stride of 0 draws nothing.
  vb.stride = 0;
  REQUIRE(s.ctx->set_vertex_buffers(0, {vb}).is_ok());
  REQUIRE(s.ctx->draw_vbo(info, 0, &auto_draw, {DrawStartCountBias{}}).is_ok());
  CHECK(s.words(again)[48] == 0xdeadbeefu);
}

TEST_CASE("stream output: bad input is refused or defined", "[frontend][so]") {
  StreamScene s;
  s.rasterizer(discard_state());
  ResourceRef buf = s.so_buffer(256);
  StreamOutputTargetHandle a = s.target(buf, 0, 128), b = s.target(buf, 64, 128),
                           c = s.target(buf, 128, 128);
  // Overlapping ranges of one buffer, or one target twice.
  CHECK(s.ctx->set_stream_output_targets({a, b}, {0, 0}).code() == ErrorCode::kInvalidArgument);
  CHECK(s.ctx->set_stream_output_targets({a, a}, {0, 0}).code() == ErrorCode::kInvalidArgument);
  REQUIRE(s.ctx->set_stream_output_targets({a, c}, {0, 0}).is_ok());
  // A target range beyond its buffer.
  CHECK(s.ctx->create_stream_output_target(buf, 200, 100).status().code() ==
        ErrorCode::kInvalidArgument);
  // A captured register the shader does not write reads zero.
  StreamOutputInfo so = capture_record(4);
  so.output[0].register_index = 7;
  s.vs(kPassVs, so);
  s.vertices(id_vertices(3));
  REQUIRE(s.ctx->set_stream_output_targets({c}, {0}).is_ok());
  REQUIRE(s.draw(PrimType::POINTS, 3).is_ok());
  std::vector<uint32_t> w = s.words(buf);
  for (uint32_t i = 32; i < 44; ++i)
    CHECK(w[i] == 0u);
  CHECK(w[44] == 0xdeadbeefu);
  CHECK(w[0] == 0xdeadbeefu);  // target a was not written
}
