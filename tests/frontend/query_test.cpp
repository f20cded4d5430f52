// Query objects: lifecycle and its errors, timer queries, results without waiting,
// results written into buffers, render conditions evaluated for host-side work.
#include <catch2/catch.hpp>

#include <cstring>

#include "frontend/context_impl.h"
#include "frontend/frontend_util.h"

using namespace clpipe;
using namespace clpipe::test;

TEST_CASE("queries: begin/end rules and results before end", "[frontend][query]") {
  auto ctx = new_context();
  auto q = ctx->create_query(QueryType::OCCLUSION_COUNTER, 0);
  REQUIRE(q.is_ok());
  QueryResult r;
  // No result before any end_query; end without begin is an error.
  CHECK(ctx->get_query_result(q.value(), true, &r).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->end_query(q.value()).code() == ErrorCode::kInvalidArgument);
  REQUIRE(ctx->begin_query(q.value()).is_ok());
  CHECK(ctx->begin_query(q.value()).code() == ErrorCode::kInvalidArgument);  // already active
  REQUIRE(ctx->end_query(q.value()).is_ok());
  REQUIRE(ctx->get_query_result(q.value(), true, &r).is_ok());
  CHECK(r.u64 == 0);  // nothing drawn
  // TIMESTAMP and GPU_FINISHED have no begin.
  auto ts = ctx->create_query(QueryType::TIMESTAMP, 0);
  REQUIRE(ts.is_ok());
  CHECK(ctx->begin_query(ts.value()).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->end_query(ts.value()).is_ok());
  CHECK(ctx->create_query(QueryType::PIPELINE_STATISTICS_SINGLE, 11).status().code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->get_query_result(q.value(), true, nullptr).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->begin_query(nullptr).code() == ErrorCode::kInvalidArgument);
}

TEST_CASE("queries: timestamps increase and TIME_ELAPSED is plausible", "[frontend][query]") {
  auto ctx = new_context();
  auto t0 = ctx->create_query(QueryType::TIMESTAMP, 0).value();
  auto t1 = ctx->create_query(QueryType::TIMESTAMP, 0).value();
  auto el = ctx->create_query(QueryType::TIME_ELAPSED, 0).value();
  const uint64_t screen_before = ctx->screen().get_timestamp();
  REQUIRE(ctx->end_query(t0).is_ok());
  REQUIRE(ctx->begin_query(el).is_ok());
  // Some device work between the timestamps: a clear of a 512x512 texture.
  ResourceTemplate t;
  t.width0 = t.height0 = 512;
  auto res = ctx->screen().resource_create(t).value();
  const uint8_t v[4] = {1, 2, 3, 4};
  Box box = make_box_2d(0, 0, 512, 512);
  REQUIRE(ctx->clear_texture(res, 0, box, v).is_ok());
  REQUIRE(ctx->end_query(el).is_ok());
  REQUIRE(ctx->end_query(t1).is_ok());
  QueryResult a, b, e;
  REQUIRE(ctx->get_query_result(t0, true, &a).is_ok());
  REQUIRE(ctx->get_query_result(t1, true, &b).is_ok());
  REQUIRE(ctx->get_query_result(el, true, &e).is_ok());
  CHECK(a.u64 >= screen_before);
  CHECK(b.u64 > a.u64);
  CHECK(e.u64 > 0);
  CHECK(e.u64 <= b.u64 - a.u64);
  CHECK(ctx->screen().get_timestamp() >= b.u64);
  auto dj = ctx->create_query(QueryType::TIMESTAMP_DISJOINT, 0).value();
  REQUIRE(ctx->begin_query(dj).is_ok());
  REQUIRE(ctx->end_query(dj).is_ok());
  REQUIRE(ctx->get_query_result(dj, true, &a).is_ok());
  CHECK(a.timestamp_disjoint.frequency == 1000000000ull);
  CHECK_FALSE(a.timestamp_disjoint.disjoint);
}

TEST_CASE("queries: no-wait results report not ready, then the value", "[frontend][query]") {
  auto ctx = new_context();
  auto fin = ctx->create_query(QueryType::GPU_FINISHED, 0).value();
  REQUIRE(ctx->end_query(fin).is_ok());
  QueryResult r;
  Status st;
  // Poll until ready: every answer is either not-ready or the final value.
  for (int i = 0; i < 100000; ++i) {
    st = ctx->get_query_result(fin, false, &r);
    if (st.code() != ErrorCode::kNotReady) break;
  }
  REQUIRE(st.is_ok());
  CHECK(r.b);
}

TEST_CASE("queries: results written into a buffer saturate to the type", "[frontend][query]") {
  auto ctx = new_context();
  ResourceTemplate t;
  t.target = TextureTarget::BUFFER;
  t.format = Format::R8_UNORM;
  t.width0 = 64;
  auto buf = ctx->screen().resource_create(t).value();
  auto q = ctx->create_query(QueryType::OCCLUSION_PREDICATE, 0).value();
  REQUIRE(ctx->begin_query(q).is_ok());
  REQUIRE(ctx->end_query(q).is_ok());
  REQUIRE(
      ctx->get_query_result_resource(q, QueryFlag::WAIT, QueryValueType::U32, 0, buf, 4).is_ok());
  REQUIRE(
      ctx->get_query_result_resource(q, QueryFlag::WAIT, QueryValueType::I64, -1, buf, 8).is_ok());
  CHECK(ctx->get_query_result_resource(q, 0, QueryValueType::U64, 0, buf, 60).code() ==
        ErrorCode::kInvalidArgument);  // 8 bytes do not fit at 60
  auto map = ctx->transfer_map(buf, 0, Map::READ, make_box_1d(0, 64));
  REQUIRE(map.is_ok());
  uint32_t w[4];
  std::memcpy(w, map.value()->data(), sizeof(w));
  CHECK(w[1] == 0);  // nothing passed: false
  CHECK(w[2] == 1);  // availability
  REQUIRE(ctx->transfer_unmap(map.value()).is_ok());
}

TEST_CASE("render conditions gate clears as the mode says", "[frontend][query]") {
  auto ctx = new_context();
  ResourceTemplate t;
  t.width0 = t.height0 = 4;
  auto res = ctx->screen().resource_create(t).value();
  SurfaceTemplate st;
  st.format = t.format;
  auto surf = ctx->create_surface(res, st).value();
  auto q = ctx->create_query(QueryType::OCCLUSION_COUNTER, 0).value();
  REQUIRE(ctx->begin_query(q).is_ok());
  REQUIRE(ctx->end_query(q).is_ok());  // zero samples: the predicate is false
  auto pixel0 = [&] {
    auto m = ctx->transfer_map(res, 0, Map::READ, make_box_2d(0, 0, 1, 1)).value();
    uint32_t v;
    std::memcpy(&v, m->data(), 4);
    (void)ctx->transfer_unmap(m);
    return v;
  };
  ColorUnion c;
  c.f[0] = c.f[1] = c.f[2] = c.f[3] = 1.0f;
  // condition false: skipped when the result (false) equals it.
  REQUIRE(ctx->render_condition(q, false, RenderCondMode::WAIT).is_ok());
  REQUIRE(ctx->clear_render_target(surf, c, 0, 0, 4, 4, true).is_ok());
  CHECK(pixel0() == 0);
  // The same clear ignoring the condition runs.
  REQUIRE(ctx->clear_render_target(surf, c, 0, 0, 4, 4, false).is_ok());
  CHECK(pixel0() == 0xffffffffu);
  // Inverted: runs.
  c.f[0] = 0.0f;
  REQUIRE(ctx->render_condition(q, true, RenderCondMode::NO_WAIT).is_ok());
  REQUIRE(ctx->clear_render_target(surf, c, 0, 0, 4, 4, true).is_ok());
  CHECK(pixel0() == 0xffffff00u);
  // Timer queries cannot be conditions; null turns conditions off.
  auto ts = ctx->create_query(QueryType::TIMESTAMP, 0).value();
  CHECK(ctx->render_condition(ts, false, RenderCondMode::WAIT).code() ==
        ErrorCode::kInvalidArgument);
  REQUIRE(ctx->render_condition(nullptr, false, RenderCondMode::WAIT).is_ok());
}
