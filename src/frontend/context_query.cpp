// Queries and conditional rendering of ContextImpl (context.rst: create_query ...
// render_condition). The counting itself is in query.{h,cpp} and the draw passes.
#include "frontend/api_guard.h"
#include "frontend/context_impl.h"
#include "frontend/resource.h"
#include "runtime/error.h"

namespace clpipe::frontend {

namespace {

// Queries whose index names a vertex stream.
bool is_per_stream_query(QueryType t) {
  return t == QueryType::PRIMITIVES_GENERATED || t == QueryType::PRIMITIVES_EMITTED ||
         t == QueryType::SO_STATISTICS || t == QueryType::SO_OVERFLOW_PREDICATE;
}

}  // namespace

Result<QueryHandle> ContextImpl::create_query(QueryType type, unsigned index) {
  return guard_result<QueryHandle>("create_query", [&]() -> QueryHandle {
    if (unsigned(type) >= kQueryTypes) runtime::invalid("invalid query type ", unsigned(type));
    if (type == QueryType::PIPELINE_STATISTICS_SINGLE && index >= kHostCounts) {
      runtime::invalid("pipeline statistics counter ", index, " (there are ", unsigned(kHostCounts),
                       ")");
    }
    if (is_per_stream_query(type) && index >= kMaxVertexStreams) {
      runtime::invalid("vertex stream ", index, " (there are ", kMaxVertexStreams, ")");
    }
    return std::make_shared<QueryImpl>(type, index, screen_->id(), queries_.new_query_words());
  });
}

Status ContextImpl::begin_query(const QueryHandle& query) {
  return guard("begin_query", [&] {
    flush_scene();
    query_of(query, screen_->id(), "begin_query");
    queries_.begin(std::static_pointer_cast<QueryImpl>(query));
  });
}

Status ContextImpl::end_query(const QueryHandle& query) {
  return guard("end_query", [&] {
    flush_scene();
    queries_.end(query_of(query, screen_->id(), "end_query"));
  });
}

Status ContextImpl::get_query_result(const QueryHandle& query, bool wait, QueryResult* result) {
  Status st;
  Status g = guard("get_query_result", [&] {
    flush_scene();
    if (!result) runtime::invalid("null result");
    st = queries_.result(query_of(query, screen_->id(), "get_query_result"), wait, result);
  });
  return g ? st : g;
}

Status ContextImpl::get_query_result_resource(const QueryHandle& query, uint32_t flags,
                                              QueryValueType result_type, int index,
                                              const ResourceRef& res, unsigned offset) {
  return guard("get_query_result_resource", [&] {
    flush_scene();
    QueryImpl& q = query_of(query, screen_->id(), "get_query_result_resource");
    if (unsigned(result_type) > unsigned(QueryValueType::U64)) runtime::invalid("result type");
    ResourceImpl& dst = resource(res, "get_query_result_resource");
    if (!dst.is_buffer()) runtime::invalid("the result resource must be a buffer");
    const unsigned size =
        (index >= 0 && (result_type == QueryValueType::I64 || result_type == QueryValueType::U64))
            ? 8
            : 4;
    if (uint64_t(offset) + size > dst.size_bytes()) {
      runtime::invalid("result at offset ", offset, " does not fit the buffer of ",
                       dst.size_bytes(), " bytes");
    }
    cl::Event done;
    queries_.result_to_buffer(q, result_type, index, dst.storage(), offset,
                              (flags & QueryFlag::WAIT) != 0, &done);
    dst.note_use(id(), done, true);
  });
}

void ContextImpl::set_active_query_state(bool enable) {
  state_.queries_active = enable;
}

Status ContextImpl::render_condition(const QueryHandle& query, bool condition,
                                     RenderCondMode mode) {
  return guard("render_condition", [&] {
    flush_scene();
    if (unsigned(mode) > unsigned(RenderCondMode::BY_REGION_NO_WAIT))
      runtime::invalid("invalid mode");
    if (query) {
      const QueryImpl& q = query_of(query, screen_->id(), "render_condition");
      if (q.type == QueryType::TIMESTAMP || q.type == QueryType::TIME_ELAPSED ||
          q.type == QueryType::TIMESTAMP_DISJOINT || q.type == QueryType::PIPELINE_STATISTICS) {
        runtime::invalid("a ", unsigned(q.type), " query cannot be a render condition");
      }
    }
    state_.render_cond_query = query;
    state_.render_cond_condition = condition;
    state_.render_cond_mode = mode;
  });
}

bool ContextImpl::render_condition_allows() {
  if (!state_.render_cond_query) return true;
  QueryImpl& q = query_of(state_.render_cond_query, screen_->id(), "render condition");
  if (!q.ended) return true;  // no result to wait for: GL renders
  const bool no_wait = state_.render_cond_mode == RenderCondMode::NO_WAIT ||
                       state_.render_cond_mode == RenderCondMode::BY_REGION_NO_WAIT;
  if (no_wait && !queries_.ready(q)) return true;
  // Skipped when the result (non-zero = true) equals the condition.
  return queries_.predicate(q) != state_.render_cond_condition;
}

}  // namespace clpipe::frontend
