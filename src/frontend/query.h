// Queries (Gallium's pipe_query) and the context's bookkeeping of active ones.
//
// What is counted where:
//  * on the device, into a per-draw counter buffer (kernels/stream_shared.h) that
//    QueryTracker then adds into each active query's device words (query.cl): samples
//    passed (occlusion) and fragments shaded (tile pass); primitives generated, input
//    primitives, geometry shader invocations and primitives (setup and geometry passes);
//    primitives written to and needed by stream output (stream-output pass);
//  * vertices, rasterized primitives, vertex shader and compute invocations: known to
//    the host when it issues the draw (from the draw call and the setup pass's totals),
//    added to active queries' host counts;
//  * time: the end times of markers on the context's queue (the device profiling clock,
//    the clock of Screen::get_timestamp).
// A result is ready when the query's end marker has completed: every command issued
// before end_query is then done.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "clpipe/context.h"
#include "frontend/draw/draw_pipeline.h"
#include "runtime/program_cache.h"
#include "runtime/queue.h"

namespace clpipe {

class Query {
 public:
  virtual ~Query() = default;
};

}  // namespace clpipe

namespace clpipe::frontend {

// Indices of QueryImpl::host (the order of pipe_query_data_pipeline_statistics).
enum HostCount : unsigned {
  kIaVertices,
  kIaPrimitives,
  kVsInvocations,
  kGsInvocations,
  kGsPrimitives,
  kCInvocations,
  kCPrimitives,
  kPsInvocations,  // device-counted; unused here
  kHsInvocations,
  kDsInvocations,
  kCsInvocations,
  kHostCounts,
};

class QueryImpl final : public Query {
 public:
  QueryImpl(QueryType type, unsigned index, uint64_t screen_id, cl::Buffer words)
      : type(type), index(index), screen_id(screen_id), words(std::move(words)) {}

  const QueryType type;
  const unsigned index;
  const uint64_t screen_id;
  // Device counters (CLP_COUNTER_*, CLP_QUERY_WORDS words), zeroed at begin_query.
  const cl::Buffer words;
  std::array<uint64_t, kHostCounts> host{};
  cl::Event begin_marker, end_marker;
  bool active = false;  // between begin_query and end_query
  bool ended = false;   // end_query has been called since the last begin
};

// The QueryImpl behind a handle of this screen; throws kInvalidArgument naming `what`.
QueryImpl& query_of(const QueryHandle& q, uint64_t screen_id, const char* what);

// What a draw or launch contributes to the active queries.
struct QueryDrawCounts {
  uint64_t vertices = 0;    // vertices fetched (positions x instances)
  uint64_t rasterized = 0;  // primitives after clipping and culling
  uint64_t cs_invocations = 0;
};

class QueryTracker {
 public:
  QueryTracker(runtime::Queue& queue, runtime::ProgramCache& programs);

  cl::Buffer new_query_words();
  // Active queries are held weakly: a query the client destroys stops counting.
  void begin(const std::shared_ptr<QueryImpl>& q);
  void end(QueryImpl& q);

  // Active queries that read device counters at all / the tile pass's / the primitive
  // counters of the setup and geometry passes (stream output always counts its own).
  bool needs_device_counts() const;
  // Whether any query is active (counting draws).
  bool any_active() const;
  bool needs_fragment_counts() const;
  bool needs_primitive_counts() const;
  // Whether every active query counts only what the tile pass adds to the draws' counter
  // buffer (occlusion) or nothing per draw (times): then the draws of a scene can share
  // one counter buffer, added to the queries once the scene has run.
  bool counts_per_scene() const;
  // A zeroed counter buffer (CLP_QUERY_WORDS words) for the next draw.
  cl::Buffer draw_counters();
  // After a draw that used draw_counters() (if any): adds its counts to active queries.
  void after_draw(const cl::Buffer& counters, const QueryDrawCounts& counts);

  // kNotReady when !wait and the end marker has not completed.
  Status result(QueryImpl& q, bool wait, QueryResult* out);
  // The predicate value of q (non-zero result), for render conditions evaluated on the
  // host; waits for the result.
  bool predicate(QueryImpl& q);
  // Whether q's result is available without waiting.
  bool ready(const QueryImpl& q) const;
  // Writes the result (or its availability, index -1) into res at offset.
  void result_to_buffer(QueryImpl& q, QueryValueType type, int index, const cl::Buffer& dst,
                        uint64_t offset, bool wait, cl::Event* done);

 private:
  uint64_t device_pair(QueryImpl& q, unsigned pair);
  template <typename Pred>
  bool any_active(Pred pred) const;
  // The active queries still alive (drops the others).
  std::vector<std::shared_ptr<QueryImpl>> live();
  runtime::Queue& queue_;
  runtime::ProgramRef program_;
  std::vector<std::weak_ptr<QueryImpl>> active_;
};

}  // namespace clpipe::frontend
