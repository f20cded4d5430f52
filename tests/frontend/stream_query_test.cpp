// Primitive and stream-output queries counted on the device: PRIMITIVES_GENERATED and
// PRIMITIVES_EMITTED against host math, nested and concurrent queries, per-stream
// indices, results written into buffers, and render conditions on overflow predicates.
#include <catch2/catch.hpp>

#include "frontend/stream_reference.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

std::vector<float> vertices(uint32_t n) {
  std::vector<float> v;
  for (uint32_t i = 0; i < n; ++i) {
    const float a = 0.9f * float(i);
    v.insert(v.end(), {0.6f * std::cos(a), 0.6f * std::sin(a), 0, 1, float(i), 0, 0, 1});
  }
  return v;
}

StreamOutputInfo capture_x() {
  StreamOutputInfo so;
  so.stride[0] = 1;
  StreamOutput o;
  o.register_index = 1;
  o.num_components = 1;
  so.output.push_back(o);
  return so;
}

uint64_t result_u64(Context& ctx, const QueryHandle& q) {
  QueryResult r;
  REQUIRE(ctx.get_query_result(q, true, &r).is_ok());
  return r.u64;
}

}  // namespace

TEST_CASE("queries: PRIMITIVES_GENERATED counts assembled primitives on the device",
          "[frontend][query][so]") {
  StreamScene s;
  RasterizerState rs;
  rs.rasterizer_discard = true;
  s.rasterizer(rs);
  s.vs(kPassVs);
  s.vertices(vertices(20));
  struct Case {
    PrimType mode;
    uint32_t count, instances;
    uint64_t expect;
  };
  // Quads count as one primitive each (the assembled unit), strips one per triangle.
  const Case cases[] = {{PrimType::TRIANGLES, 20, 1, 6},  {PrimType::TRIANGLE_STRIP, 20, 2, 36},
                        {PrimType::LINE_LOOP, 7, 1, 7},   {PrimType::POINTS, 13, 3, 39},
                        {PrimType::QUADS, 17, 1, 4},      {PrimType::LINES_ADJACENCY, 19, 1, 4},
                        {PrimType::TRIANGLE_FAN, 2, 1, 0}};
  for (const Case& c : cases) {
    INFO(prim_name(c.mode) << " x" << c.count);
    auto q = s.ctx->create_query(QueryType::PRIMITIVES_GENERATED, 0).value();
    REQUIRE(s.ctx->begin_query(q).is_ok());
    REQUIRE(s.draw(c.mode, c.count, c.instances).is_ok());
    REQUIRE(s.ctx->end_query(q).is_ok());
    CHECK(result_u64(*s.ctx, q) == c.expect);
  }
}

TEST_CASE("queries: nested and concurrent primitive queries", "[frontend][query][so]") {
  StreamScene s;
  RasterizerState rs;
  rs.rasterizer_discard = true;
  s.rasterizer(rs);
  s.vs(kPassVs, capture_x());
  s.vertices(vertices(12));
  ResourceRef buf = s.so_buffer(4096);
  REQUIRE(s.ctx->set_stream_output_targets({s.target(buf, 0, 4096)}, {0}).is_ok());
  auto outer_gen = s.ctx->create_query(QueryType::PRIMITIVES_GENERATED, 0).value();
  auto outer_emit = s.ctx->create_query(QueryType::PRIMITIVES_EMITTED, 0).value();
  auto inner = s.ctx->create_query(QueryType::PRIMITIVES_EMITTED, 0).value();
  auto stream1 = s.ctx->create_query(QueryType::PRIMITIVES_EMITTED, 1).value();
  auto stats = s.ctx->create_query(QueryType::SO_STATISTICS, 0).value();
  REQUIRE(s.ctx->begin_query(outer_gen).is_ok());
  REQUIRE(s.ctx->begin_query(outer_emit).is_ok());
  REQUIRE(s.ctx->begin_query(stream1).is_ok());
  REQUIRE(s.draw(PrimType::TRIANGLES, 12).is_ok());  // 4
  REQUIRE(s.ctx->begin_query(inner).is_ok());
  REQUIRE(s.ctx->begin_query(stats).is_ok());
  REQUIRE(s.draw(PrimType::LINE_STRIP, 12).is_ok());  // 11
  REQUIRE(s.ctx->end_query(inner).is_ok());
  // Stream output paused: generated still counts, emitted does not.
  REQUIRE(s.ctx->set_stream_output_targets({}, {}).is_ok());
  REQUIRE(s.draw(PrimType::POINTS, 12).is_ok());  // 12
  REQUIRE(s.ctx->end_query(stats).is_ok());
  // Queries paused by set_active_query_state(false) do not count.
  s.ctx->set_active_query_state(false);
  REQUIRE(s.draw(PrimType::POINTS, 12).is_ok());
  s.ctx->set_active_query_state(true);
  REQUIRE(s.ctx->end_query(outer_emit).is_ok());
  REQUIRE(s.ctx->end_query(outer_gen).is_ok());
  REQUIRE(s.ctx->end_query(stream1).is_ok());
  CHECK(result_u64(*s.ctx, outer_gen) == 4 + 11 + 12);
  CHECK(result_u64(*s.ctx, outer_emit) == 4 + 11);
  CHECK(result_u64(*s.ctx, inner) == 11);
  CHECK(result_u64(*s.ctx, stream1) == 0);  // only vertex stream 0 exists
  QueryResult r;
  REQUIRE(s.ctx->get_query_result(stats, true, &r).is_ok());
  CHECK(r.so_statistics.num_primitives_written == 11);
  CHECK(r.so_statistics.primitives_storage_needed == 11);
  // The captured words: 4 triangles, then 11 lines.
  std::vector<uint32_t> w = s.words(buf);
  for (uint32_t i = 0; i < 12; ++i)
    CHECK(w[i] == f2u(float(i)));
  for (uint32_t l = 0; l < 11; ++l) {
    CHECK(w[12 + 2 * l] == f2u(float(l)));
    CHECK(w[13 + 2 * l] == f2u(float(l + 1)));
  }
  CHECK(w[34] == 0xdeadbeefu);
  // A stream index beyond the vertex streams is refused.
  CHECK(s.ctx->create_query(QueryType::PRIMITIVES_EMITTED, kMaxVertexStreams).status().code() ==
        ErrorCode::kInvalidArgument);
}

TEST_CASE("queries: stream-output results written into a buffer", "[frontend][query][so]") {
  StreamScene s;
  RasterizerState rs;
  rs.rasterizer_discard = true;
  s.rasterizer(rs);
  s.vs(kPassVs, capture_x());
  s.vertices(vertices(10));
  ResourceRef buf = s.so_buffer(40);  // room for 10 points
  REQUIRE(s.ctx->set_stream_output_targets({s.target(buf, 0, 40)}, {0}).is_ok());
  auto emitted = s.ctx->create_query(QueryType::PRIMITIVES_EMITTED, 0).value();
  auto stats = s.ctx->create_query(QueryType::SO_STATISTICS, 0).value();
  auto overflow = s.ctx->create_query(QueryType::SO_OVERFLOW_PREDICATE, 0).value();
  auto generated = s.ctx->create_query(QueryType::PRIMITIVES_GENERATED, 0).value();
  for (auto& q : {emitted, stats, overflow, generated})
    REQUIRE(s.ctx->begin_query(q).is_ok());
  REQUIRE(s.draw(PrimType::POINTS, 6).is_ok());
  REQUIRE(s.draw(PrimType::POINTS, 7).is_ok());  // 4 fit, 3 overflow
  for (auto& q : {emitted, stats, overflow, generated})
    REQUIRE(s.ctx->end_query(q).is_ok());
  ResourceRef res = create_buffer(64);
  std::vector<uint8_t> zeros(64, 0xff);
  REQUIRE(s.ctx->buffer_subdata(res, Map::WRITE, 0, 64, zeros.data()).is_ok());
  REQUIRE(s.ctx->get_query_result_resource(emitted, QueryFlag::WAIT, QueryValueType::U64, 0, res, 0)
              .is_ok());
  REQUIRE(s.ctx->get_query_result_resource(stats, QueryFlag::WAIT, QueryValueType::U32, 0, res, 8)
              .is_ok());
  REQUIRE(s.ctx->get_query_result_resource(stats, QueryFlag::WAIT, QueryValueType::U32, 1, res, 12)
              .is_ok());
  REQUIRE(
      s.ctx->get_query_result_resource(overflow, QueryFlag::WAIT, QueryValueType::U32, 0, res, 16)
          .is_ok());
  REQUIRE(
      s.ctx->get_query_result_resource(generated, QueryFlag::WAIT, QueryValueType::I64, 0, res, 24)
          .is_ok());
  REQUIRE(s.ctx->get_query_result_resource(overflow, 0, QueryValueType::U32, -1, res, 32).is_ok());
  CHECK(s.ctx->get_query_result_resource(stats, 0, QueryValueType::U32, 2, res, 36).code() ==
        ErrorCode::kInvalidArgument);
  const std::vector<uint32_t> w = s.words(res);
  CHECK(w[0] == 10);
  CHECK(w[1] == 0);
  CHECK(w[2] == 10);
  CHECK(w[3] == 13);
  CHECK(w[4] == 1);
  CHECK(w[6] == 13);
  CHECK(w[7] == 0);
  CHECK(w[8] == 1);  // available
  CHECK(w[9] == 0xffffffffu);
}

TEST_CASE("queries: an overflow predicate as the render condition", "[frontend][query][so]") {
  StreamScene s;
  s.vs(kPassVs, capture_x());
  ShaderState fs;
  fs.tgsi =
      "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {1.0, 0.5, 0.0, 1.0}\n  0: MOV OUT[0], IMM[0]\n"
      "  1: END\n";
  REQUIRE(s.ctx->bind_fs_state(s.ctx->create_fs_state(fs).value()).is_ok());
  // A window-covering triangle.
  s.vertices({-1, -1, 0, 1, 0, 0, 0, 1, 3, -1, 0, 1, 1, 0, 0, 1, -1, 3, 0, 1, 2, 0, 0, 1});
  ResourceRef buf = s.so_buffer(16);  // room for one triangle: no
  REQUIRE(s.ctx->set_stream_output_targets({s.target(buf, 0, 8)}, {0}).is_ok());
  auto overflow = s.ctx->create_query(QueryType::SO_OVERFLOW_ANY_PREDICATE, 0).value();
  REQUIRE(s.ctx->begin_query(overflow).is_ok());
  REQUIRE(s.draw(PrimType::TRIANGLES, 3).is_ok());
  REQUIRE(s.ctx->end_query(overflow).is_ok());
  ColorUnion black{};
  REQUIRE(s.ctx->clear(Clear::COLOR0, nullptr, black, 0, 0).is_ok());
  // Skip when the predicate (overflow happened: true) equals `condition` true.
  REQUIRE(s.ctx->render_condition(overflow, true, RenderCondMode::WAIT).is_ok());
  REQUIRE(s.draw(PrimType::TRIANGLES, 3).is_ok());
  CHECK(s.pixel(5, 5)[0] == 0.0f);
  REQUIRE(s.ctx->render_condition(overflow, false, RenderCondMode::WAIT).is_ok());
  REQUIRE(s.draw(PrimType::TRIANGLES, 3).is_ok());
  CHECK(s.pixel(5, 5)[0] == 1.0f);
  REQUIRE(s.ctx->render_condition(nullptr, false, RenderCondMode::WAIT).is_ok());
  CHECK(s.words(buf)[0] == 0xdeadbeefu);  // the target never had room
}
