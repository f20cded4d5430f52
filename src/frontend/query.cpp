#include "frontend/query.h"

#include <algorithm>

#include "compiler/emit/program_text.h"
#include "kernels/raster_shared.h"
#include "kernels/stream_shared.h"
#include "runtime/error.h"

namespace clpipe::frontend {

namespace {

bool uses_fragment_counts(QueryType t) {
  return t == QueryType::OCCLUSION_COUNTER || t == QueryType::OCCLUSION_PREDICATE ||
         t == QueryType::OCCLUSION_PREDICATE_CONSERVATIVE || t == QueryType::PIPELINE_STATISTICS ||
         t == QueryType::PIPELINE_STATISTICS_SINGLE;
}

bool uses_primitive_counts(QueryType t) {
  return t == QueryType::PRIMITIVES_GENERATED || t == QueryType::PIPELINE_STATISTICS ||
         t == QueryType::PIPELINE_STATISTICS_SINGLE;
}

bool uses_stream_output_counts(QueryType t) {
  return t == QueryType::PRIMITIVES_EMITTED || t == QueryType::SO_STATISTICS ||
         t == QueryType::SO_OVERFLOW_PREDICATE || t == QueryType::SO_OVERFLOW_ANY_PREDICATE;
}

bool uses_device_counts(QueryType t) {
  return uses_fragment_counts(t) || uses_primitive_counts(t) || uses_stream_output_counts(t);
}

// Queries per vertex stream: only stream 0 receives primitives (MAX_VERTEX_STREAMS = 1),
// so the counters of other streams stay zero.
bool counts_stream(const QueryImpl& q) {
  const bool per_stream =
      q.type == QueryType::PRIMITIVES_GENERATED || q.type == QueryType::PRIMITIVES_EMITTED ||
      q.type == QueryType::SO_STATISTICS || q.type == QueryType::SO_OVERFLOW_PREDICATE;
  return !per_stream || q.index == 0;
}

// The device counter pair of pipeline statistics counter `index`, or -1 (host-counted).
int statistics_pair(unsigned index) {
  switch (index) {
    case kIaPrimitives:
      return CLP_COUNTER_IA_PRIMITIVES / 2;
    case kGsInvocations:
      return CLP_COUNTER_GS_INVOCATIONS / 2;
    case kGsPrimitives:
      return CLP_COUNTER_GS_PRIMITIVES / 2;
    case kCInvocations:
      return CLP_COUNTER_PRIMS_GENERATED / 2;
    case kPsInvocations:
      return CLP_COUNTER_PS_INVOCATIONS / 2;
    default:
      return -1;
  }
}

bool is_complete(const cl::Event& e) {
  if (!e()) return true;
  cl_int status = CL_COMPLETE;
  CLP_CHECK(e.getInfo(CL_EVENT_COMMAND_EXECUTION_STATUS, &status));
  if (status < 0)
    runtime::fail(ErrorCode::kDeviceError, "a command of the query failed (", status, ")");
  return status == CL_COMPLETE;
}

uint64_t end_time(const cl::Event& e) {
  cl_ulong t = 0;
  CLP_CHECK(e.getProfilingInfo(CL_PROFILING_COMMAND_END, &t));
  return t;
}

}  // namespace

QueryImpl& query_of(const QueryHandle& q, uint64_t screen_id, const char* what) {
  auto* impl = dynamic_cast<QueryImpl*>(q.get());
  if (!impl) runtime::invalid(what, ": null query");
  if (impl->screen_id != screen_id) runtime::invalid(what, ": the query belongs to another screen");
  return *impl;
}

QueryTracker::QueryTracker(runtime::Queue& queue, runtime::ProgramCache& programs)
    : queue_(queue), program_(programs.get(compiler::assemble_kernel_files({"query.cl"}))) {}

cl::Buffer QueryTracker::new_query_words() {
  cl::Buffer b = queue_.create_buffer(CLP_QUERY_WORDS * 4);
  queue_.fill_zero(b, 0, CLP_QUERY_WORDS * 4);
  return b;
}

std::vector<std::shared_ptr<QueryImpl>> QueryTracker::live() {
  std::vector<std::shared_ptr<QueryImpl>> out;
  active_.erase(std::remove_if(active_.begin(), active_.end(),
                               [&](const std::weak_ptr<QueryImpl>& w) {
                                 auto q = w.lock();
                                 if (!q || !q->active) return true;
                                 out.push_back(std::move(q));
                                 return false;
                               }),
                active_.end());
  return out;
}

void QueryTracker::begin(const std::shared_ptr<QueryImpl>& q) {
  if (q->type == QueryType::TIMESTAMP || q->type == QueryType::GPU_FINISHED) {
    runtime::invalid("begin_query: a ", unsigned(q->type) == 3 ? "TIMESTAMP" : "GPU_FINISHED",
                     " query has no begin (end_query alone takes it)");
  }
  if (q->active) runtime::invalid("begin_query: the query is already active");
  // The in-order queue orders the zeroing before every later command.
  queue_.fill_zero(q->words, 0, CLP_QUERY_WORDS * 4);
  q->host.fill(0);
  q->begin_marker = queue_.marker();
  q->end_marker = cl::Event();
  q->active = true;
  q->ended = false;
  // A query begun again may still be listed from its last begin (live() drops ended ones
  // only when it runs): listed twice, it would add every count twice.
  const bool listed = std::any_of(active_.begin(), active_.end(),
                                  [&](const std::weak_ptr<QueryImpl>& w) { return w.lock() == q; });
  if (!listed) active_.push_back(q);
}

void QueryTracker::end(QueryImpl& q) {
  const bool needs_begin = q.type != QueryType::TIMESTAMP && q.type != QueryType::GPU_FINISHED;
  if (needs_begin && !q.active) runtime::invalid("end_query: the query was not begun");
  q.end_marker = queue_.marker();
  q.active = false;
  q.ended = true;
}

template <typename Pred>
bool QueryTracker::any_active(Pred pred) const {
  for (const auto& w : active_) {
    auto q = w.lock();
    if (q && q->active && pred(q->type)) return true;
  }
  return false;
}

bool QueryTracker::needs_device_counts() const {
  return any_active(uses_device_counts);
}

bool QueryTracker::any_active() const {
  return any_active([](QueryType) { return true; });
}

bool QueryTracker::needs_fragment_counts() const {
  return any_active(uses_fragment_counts);
}

bool QueryTracker::needs_primitive_counts() const {
  return any_active(uses_primitive_counts);
}

bool QueryTracker::counts_per_scene() const {
  return !any_active([](QueryType t) {
    switch (t) {
      case QueryType::OCCLUSION_COUNTER:
      case QueryType::OCCLUSION_PREDICATE:
      case QueryType::OCCLUSION_PREDICATE_CONSERVATIVE:
      case QueryType::TIMESTAMP:
      case QueryType::TIMESTAMP_DISJOINT:
      case QueryType::TIME_ELAPSED:
      case QueryType::GPU_FINISHED:
        return false;
      default:
        return true;
    }
  });
}

cl::Buffer QueryTracker::draw_counters() {
  return new_query_words();
}

void QueryTracker::after_draw(const cl::Buffer& counters, const QueryDrawCounts& c) {
  for (const auto& q : live()) {
    if (counters() && uses_device_counts(q->type)) {
      cl::Kernel& k = queue_.kernel(program_, "query_accumulate");
      runtime::set_args(k, q->words, counters, uint32_t(CLP_QUERY_WORDS / 2));
      queue_.launch(k, {1}, {1}, "query");
    }
    q->host[kIaVertices] += c.vertices;
    q->host[kVsInvocations] += c.vertices;
    q->host[kCPrimitives] += c.rasterized;
    q->host[kCsInvocations] += c.cs_invocations;
  }
}

bool QueryTracker::ready(const QueryImpl& q) const {
  return is_complete(q.end_marker);
}

uint64_t QueryTracker::device_pair(QueryImpl& q, unsigned pair) {
  uint32_t w[2] = {0, 0};
  queue_.read(q.words, pair * 8, sizeof(w), w);
  return uint64_t(w[0]) | (uint64_t(w[1]) << 32);
}

Status QueryTracker::result(QueryImpl& q, bool wait, QueryResult* out) {
  if (!q.ended) {
    return Status(ErrorCode::kInvalidArgument,
                  "get_query_result: the query has no result (end_query was not called)");
  }
  if (!wait && !is_complete(q.end_marker)) {
    queue_.flush();  // make sure the work runs, so that a later poll can succeed
    return Status(ErrorCode::kNotReady, "get_query_result: the result is not ready");
  }
  CLP_CHECK(q.end_marker.wait());
  *out = QueryResult{};
  switch (q.type) {
    case QueryType::OCCLUSION_COUNTER:
      out->u64 = device_pair(q, CLP_COUNTER_SAMPLES_PASSED / 2);
      break;
    case QueryType::OCCLUSION_PREDICATE:
    case QueryType::OCCLUSION_PREDICATE_CONSERVATIVE:
      out->b = device_pair(q, CLP_COUNTER_SAMPLES_PASSED / 2) != 0;
      break;
    case QueryType::TIMESTAMP:
      out->u64 = end_time(q.end_marker);
      break;
    case QueryType::TIME_ELAPSED: {
      const uint64_t b = end_time(q.begin_marker), e = end_time(q.end_marker);
      out->u64 = e > b ? e - b : 0;
      break;
    }
    case QueryType::TIMESTAMP_DISJOINT:
      out->timestamp_disjoint.frequency = 1000000000ull;  // nanoseconds
      out->timestamp_disjoint.disjoint = false;
      break;
    case QueryType::GPU_FINISHED:
      out->b = true;
      break;
    case QueryType::PRIMITIVES_GENERATED:
      out->u64 = counts_stream(q) ? device_pair(q, CLP_COUNTER_PRIMS_GENERATED / 2) : 0;
      break;
    case QueryType::PRIMITIVES_EMITTED:
      out->u64 = counts_stream(q) ? device_pair(q, CLP_COUNTER_SO_WRITTEN / 2) : 0;
      break;
    case QueryType::SO_STATISTICS:
      out->so_statistics.num_primitives_written =
          counts_stream(q) ? device_pair(q, CLP_COUNTER_SO_WRITTEN / 2) : 0;
      out->so_statistics.primitives_storage_needed =
          counts_stream(q) ? device_pair(q, CLP_COUNTER_SO_NEEDED / 2) : 0;
      break;
    case QueryType::SO_OVERFLOW_PREDICATE:
    case QueryType::SO_OVERFLOW_ANY_PREDICATE:
      // Overflow: some primitive did not fit (needed exceeds written).
      out->b = counts_stream(q) && device_pair(q, CLP_COUNTER_SO_NEEDED / 2) !=
                                       device_pair(q, CLP_COUNTER_SO_WRITTEN / 2);
      break;
    case QueryType::PIPELINE_STATISTICS: {
      uint64_t v[kHostCounts];
      for (unsigned i = 0; i < kHostCounts; ++i) {
        const int pair = statistics_pair(i);
        v[i] = pair >= 0 ? device_pair(q, unsigned(pair)) : q.host[i];
      }
      auto& p = out->pipeline_statistics;
      p.ia_vertices = v[kIaVertices];
      p.ia_primitives = v[kIaPrimitives];
      p.vs_invocations = v[kVsInvocations];
      p.gs_invocations = v[kGsInvocations];
      p.gs_primitives = v[kGsPrimitives];
      p.c_invocations = v[kCInvocations];
      p.c_primitives = v[kCPrimitives];
      p.ps_invocations = v[kPsInvocations];
      p.hs_invocations = v[kHsInvocations];
      p.ds_invocations = v[kDsInvocations];
      p.cs_invocations = v[kCsInvocations];
      break;
    }
    case QueryType::PIPELINE_STATISTICS_SINGLE: {
      const unsigned i = std::min<unsigned>(q.index, kHostCounts - 1);
      const int pair = statistics_pair(i);
      out->u64 = pair >= 0 ? device_pair(q, unsigned(pair)) : q.host[i];
      break;
    }
    default:
      return Status(ErrorCode::kUnsupported, "get_query_result: query type not supported");
  }
  return Status();
}

bool QueryTracker::predicate(QueryImpl& q) {
  QueryResult r;
  Status st = result(q, true, &r);
  if (!st) runtime::fail(st.code(), st.message());
  switch (q.type) {
    case QueryType::OCCLUSION_PREDICATE:
    case QueryType::OCCLUSION_PREDICATE_CONSERVATIVE:
    case QueryType::GPU_FINISHED:
    case QueryType::SO_OVERFLOW_PREDICATE:
    case QueryType::SO_OVERFLOW_ANY_PREDICATE:
      return r.b;
    case QueryType::SO_STATISTICS:
      return r.so_statistics.num_primitives_written != 0;
    default:
      return r.u64 != 0;
  }
}

void QueryTracker::result_to_buffer(QueryImpl& q, QueryValueType type, int index,
                                    const cl::Buffer& dst, uint64_t offset, bool wait,
                                    cl::Event* done) {
  if (!q.ended) runtime::invalid("get_query_result_resource: end_query was not called");
  // The kernel runs after every earlier command (in-order queue), so the device counters
  // are final then; values known only from event times are read on the host first.
  int pair = -1, sub_pair = -1;
  uint64_t host_value = 0;
  bool as_bool = false;
  const bool stream = counts_stream(q);
  switch (q.type) {
    case QueryType::OCCLUSION_COUNTER:
      pair = CLP_COUNTER_SAMPLES_PASSED / 2;
      break;
    case QueryType::OCCLUSION_PREDICATE:
    case QueryType::OCCLUSION_PREDICATE_CONSERVATIVE:
      pair = CLP_COUNTER_SAMPLES_PASSED / 2;
      as_bool = true;
      break;
    case QueryType::PRIMITIVES_GENERATED:
      pair = stream ? CLP_COUNTER_PRIMS_GENERATED / 2 : -1;
      break;
    case QueryType::PRIMITIVES_EMITTED:
      pair = stream ? CLP_COUNTER_SO_WRITTEN / 2 : -1;
      break;
    case QueryType::SO_STATISTICS:
      // index 0: num_primitives_written, 1: primitives_storage_needed (the union's order).
      if (index > 1) runtime::invalid("get_query_result_resource: SO_STATISTICS index ", index);
      if (stream) pair = index == 1 ? CLP_COUNTER_SO_NEEDED / 2 : CLP_COUNTER_SO_WRITTEN / 2;
      break;
    case QueryType::SO_OVERFLOW_PREDICATE:
    case QueryType::SO_OVERFLOW_ANY_PREDICATE:
      if (stream) {
        pair = CLP_COUNTER_SO_NEEDED / 2;
        sub_pair = CLP_COUNTER_SO_WRITTEN / 2;
      }
      as_bool = true;
      break;
    case QueryType::GPU_FINISHED:
      host_value = 1;
      as_bool = true;
      break;
    case QueryType::PIPELINE_STATISTICS:
    case QueryType::PIPELINE_STATISTICS_SINGLE: {
      const unsigned counter =
          q.type == QueryType::PIPELINE_STATISTICS_SINGLE ? q.index : unsigned(std::max(index, 0));
      if (counter >= kHostCounts)
        runtime::invalid("get_query_result_resource: statistics index ", counter);
      pair = statistics_pair(counter);
      if (pair < 0) host_value = q.host[counter];
      break;
    }
    case QueryType::TIMESTAMP:
    case QueryType::TIME_ELAPSED: {
      if (index >= 0 || wait) {
        QueryResult r;
        Status st = result(q, true, &r);
        if (!st) runtime::fail(st.code(), st.message());
        host_value = r.u64;
      }
      break;
    }
    default:
      runtime::unsupported("get_query_result_resource: query type ", unsigned(q.type));
  }
  cl::Kernel& k = queue_.kernel(program_, "query_store_result");
  runtime::KernelArgs args(k);
  args << q.words << int32_t(pair) << int32_t(sub_pair) << cl_ulong(host_value) << uint32_t(as_bool)
       << uint32_t(index < 0) << uint32_t(type) << dst << cl_ulong(offset);
  *done = queue_.launch(k, {1}, {1}, "query");
}

}  // namespace clpipe::frontend
