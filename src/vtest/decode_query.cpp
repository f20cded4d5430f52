// Queries and conditional rendering: BEGIN/END_QUERY, GET_QUERY_RESULT (the result is
// written into the query buffer's backing store as virgl_host_query_state, doc 3.6),
// GET_QUERY_RESULT_QBO, SET_RENDER_CONDITION, and GET_MEMORY_INFO.
//
// A result that is not ready when GET_QUERY_RESULT(wait = 0) arrives is kept pending and
// written when it becomes available: after later submits (polling) and at the latest
// when the client waits with RESOURCE_BUSY_WAIT.
#include <algorithm>
#include <cstring>

#include "vtest/decoder.h"
#include "vtest/formats.h"
#include "vtest/log.h"
#include "vtest/protocol.h"

namespace clpipe::frontend::vtest {
namespace {

uint64_t result_value(uint32_t virgl_type, const QueryResult& r) {
  switch (virgl_type) {
    case VirglQuery::OCCLUSION_PREDICATE:
    case VirglQuery::OCCLUSION_PREDICATE_CONSERVATIVE:
    case VirglQuery::SO_OVERFLOW_PREDICATE:
    case VirglQuery::SO_OVERFLOW_ANY_PREDICATE:
    case VirglQuery::GPU_FINISHED:
      return r.b ? 1 : 0;
    case VirglQuery::TIMESTAMP_DISJOINT:
      return r.timestamp_disjoint.disjoint ? 1 : 0;
    case VirglQuery::SO_STATISTICS:
      return r.so_statistics.num_primitives_written;
    default:
      return r.u64;
  }
}

}  // namespace

bool Decoder::resolve_query(const QueryObject& q, Context& c, bool wait) {
  QueryResult r;
  std::memset(&r, 0, sizeof r);
  const Status s = c.get_query_result(q.query, wait, &r);
  if (s.code() == ErrorCode::kNotReady) return false;
  // A failed query still completes with 0: the client polls query_state until DONE.
  report(s);
  const uint64_t value = s.is_ok() ? result_value(q.virgl_type, r) : 0;
  uint8_t state[kQueryStateBytes];
  store_u32(state, kQueryStateDone);
  store_u32(state + 4, query_result_size(q.virgl_type));
  store_u32(state + 8, uint32_t(value));
  store_u32(state + 12, uint32_t(value >> 32));
  const VtestResource& buf = *q.buffer;
  if (buf.shm) {
    if (uint64_t(q.offset) + kQueryStateBytes > buf.shm->size())
      protocol_error("query result at byte ", q.offset, " outside the backing store");
    std::memcpy(buf.shm->data() + q.offset, state, sizeof state);
  } else {
    // Protocol 0 has no shared memory: the client reads the buffer with TRANSFER_GET.
    report(c.buffer_subdata(buf.host, Map::WRITE, q.offset, sizeof state, state));
  }
  return true;
}

void Decoder::poll_pending_queries(bool wait) {
  auto done = [&](PendingQuery& pq) {
    std::shared_ptr<Context> c = pq.ctx.lock();
    return !c || resolve_query(pq.query, *c, wait);  // a destroyed context drops its queries
  };
  pending_queries_.erase(std::remove_if(pending_queries_.begin(), pending_queries_.end(), done),
                         pending_queries_.end());
}

void Decoder::cmd_begin_query(const Payload& p, uint32_t) {
  p.expect_len(1);
  const QueryObject q = object_as<QueryObject>(p[1], ObjType::QUERY, "begin query");
  if (q.query) report(ctx().begin_query(q.query));
}

void Decoder::cmd_end_query(const Payload& p, uint32_t) {
  p.expect_len(1);
  const QueryObject q = object_as<QueryObject>(p[1], ObjType::QUERY, "end query");
  if (q.query) report(ctx().end_query(q.query));
}

void Decoder::cmd_get_query_result(const Payload& p, uint32_t) {
  p.expect_len(2);
  const QueryObject q = object_as<QueryObject>(p[1], ObjType::QUERY, "get query result");
  if (!q.query) return;
  SubContext& s = sub();
  if (resolve_query(q, *s.ctx, p[2] != 0)) return;
  for (const PendingQuery& pq : pending_queries_)
    if (pq.query.query == q.query) return;
  pending_queries_.push_back(PendingQuery{q, s.ctx});
}

void Decoder::cmd_get_query_result_qbo(const Payload& p, uint32_t) {
  p.expect_len(6);
  const QueryObject q = object_as<QueryObject>(p[1], ObjType::QUERY, "query buffer object");
  const VtestResource& buf = resources_.get(p[2], "query buffer object");
  if (p[4] > uint32_t(QueryValueType::U64)) protocol_error("query value type ", p[4]);
  const QueryValueType type = QueryValueType(p[4]);
  const uint32_t size = type >= QueryValueType::I64 ? 8 : 4;
  if (buf.desc.target != TextureTarget::BUFFER || uint64_t(p[5]) + size > buf.desc.width)
    protocol_error("query result at byte ", p[5], " outside resource ", p[2]);
  if (!q.query) return;
  report(ctx().get_query_result_resource(q.query, p[3] ? uint32_t(QueryFlag::WAIT) : 0u, type,
                                         int32_t(p[6]), buf.host, p[5]));
}

void Decoder::cmd_set_render_condition(const Payload& p, uint32_t) {
  p.expect_len(3);
  if (p[3] > uint32_t(RenderCondMode::BY_REGION_NO_WAIT))
    protocol_error("render condition mode ", p[3]);
  const QueryObject q = object_as<QueryObject>(p[1], ObjType::QUERY, "render condition");
  report(ctx().render_condition(q.query, p[2] != 0, RenderCondMode(p[3])));
}

void Decoder::cmd_get_memory_info(const Payload& p, uint32_t) {
  p.expect_len(1);
  resources_.get(p[1], "memory info buffer");
  report(Status(ErrorCode::kUnsupported,
                "GET_MEMORY_INFO: the clpipe API reports no memory counters (caps_v2 MEMINFO "
                "is not advertised)"));
}

}  // namespace clpipe::frontend::vtest
