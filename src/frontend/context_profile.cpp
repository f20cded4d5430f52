// ContextImpl::collect_pass_times: the per-pass device times the context's queue records
// when $CLPIPE_PROFILE=1 (runtime::Queue::collect_profile), for benchmarks and tools.
#include "frontend/api_guard.h"
#include "frontend/context_impl.h"

namespace clpipe::frontend {

Result<std::vector<PassTime>> ContextImpl::collect_pass_times() {
  return guard_result<std::vector<PassTime>>("collect_pass_times", [&] {
    std::vector<PassTime> out;
    for (const runtime::ProfileEntry& e : queue_.collect_profile())
      out.push_back(PassTime{e.label, e.count, e.total_ns});
    return out;
  });
}

}  // namespace clpipe::frontend
