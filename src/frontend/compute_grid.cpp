// Compute limits from the device and the launch plan of a dispatch (compute_grid.h).
#include "frontend/compute_grid.h"

#include <algorithm>

#include "runtime/error.h"

namespace clpipe::frontend {

namespace {

constexpr const char* kAxis[3] = {"x", "y", "z"};

}  // namespace

ComputeLimits compute_limits(const runtime::DeviceLimits& dev) {
  ComputeLimits l;
  l.max_threads = dev.max_work_group_size;
  // A device reporting 64 address bits indexes more than a uint64_t of work-items; any
  // global size that fits size_t is then fine.
  const uint32_t bits = std::min<uint32_t>(dev.address_bits ? dev.address_bits : 32, 64);
  l.max_global = bits >= 64 ? UINT64_MAX : (uint64_t(1) << bits) - 1;
  if (l.max_global > SIZE_MAX) l.max_global = SIZE_MAX;
  for (int d = 0; d < 3; ++d) {
    l.max_block[d] = std::min<uint64_t>(dev.max_work_item_sizes[d], dev.max_work_group_size);
    const uint64_t by_global = l.max_block[d] ? l.max_global / l.max_block[d] : 0;
    l.max_grid[d] = std::min<uint64_t>(by_global, INT32_MAX);
  }
  l.local_mem_size = dev.local_mem_size;
  return l;
}

void check_fixed_block(const std::array<uint32_t, 3>& fixed_block, const ComputeLimits& limits) {
  const bool fixed = fixed_block[0] && fixed_block[1] && fixed_block[2];
  if (!fixed) return;
  uint64_t threads = 1;
  for (int d = 0; d < 3; ++d) {
    if (fixed_block[d] > limits.max_block[d]) {
      runtime::unsupported("CS_FIXED_BLOCK_",
                           d == 0   ? "WIDTH "
                           : d == 1 ? "HEIGHT "
                                    : "DEPTH ",
                           fixed_block[d], " exceeds the device's ", limits.max_block[d],
                           " threads in ", kAxis[d]);
    }
    threads *= fixed_block[d];
  }
  if (threads > limits.max_threads) {
    runtime::unsupported("the fixed block of ", threads, " threads exceeds the device's ",
                         limits.max_threads, " threads per block");
  }
}

GridPlan plan_grid(const GridInfo& info, const std::array<uint32_t, 3>& groups,
                   const std::array<uint32_t, 3>& fixed_block, const ComputeLimits& limits) {
  if (info.work_dim < 1 || info.work_dim > 3) {
    runtime::invalid("work_dim ", info.work_dim, " is not 1, 2 or 3");
  }
  GridPlan plan;
  plan.work_dim = info.work_dim;
  uint64_t threads = 1;
  for (int d = 0; d < 3; ++d) {
    const uint32_t b = info.block[d];
    if (b == 0) runtime::invalid("block.", kAxis[d], " is 0");
    if (b > limits.max_block[d]) {
      runtime::invalid("block.", kAxis[d], " = ", b, " exceeds MAX_BLOCK_SIZE (",
                       limits.max_block[d], ")");
    }
    if (d >= int(info.work_dim) && (b != 1 || info.last_block[d] != 0)) {
      runtime::invalid("work_dim is ", info.work_dim, " but block.", kAxis[d], " is ", b,
                       " (dimensions past work_dim must be 1)");
    }
    if (info.last_block[d] > b) {
      runtime::invalid("last_block.", kAxis[d], " = ", info.last_block[d], " exceeds block.",
                       kAxis[d], " = ", b);
    }
    if (groups[d] > limits.max_grid[d]) {
      runtime::invalid("grid.", kAxis[d], " = ", groups[d], " exceeds MAX_GRID_SIZE (",
                       limits.max_grid[d], ")");
    }
    if (uint64_t(info.grid_base[d]) + groups[d] > uint64_t(UINT32_MAX) + 1) {
      runtime::invalid("grid_base.", kAxis[d], " + grid.", kAxis[d], " = ",
                       uint64_t(info.grid_base[d]) + groups[d], " block ids do not fit 32 bits");
    }
    threads *= b;
    plan.grid[d] = groups[d];
    plan.block[d] = b;
  }
  if (threads > limits.max_threads) {
    runtime::invalid("a block of ", info.block[0], "x", info.block[1], "x", info.block[2], " = ",
                     threads, " threads exceeds MAX_THREADS_PER_BLOCK (", limits.max_threads, ")");
  }
  const bool fixed = fixed_block[0] && fixed_block[1] && fixed_block[2];
  if (fixed && (fixed_block[0] != info.block[0] || fixed_block[1] != info.block[1] ||
                fixed_block[2] != info.block[2])) {
    runtime::invalid("block ", info.block[0], "x", info.block[1], "x", info.block[2],
                     " differs from the shader's fixed block ", fixed_block[0], "x", fixed_block[1],
                     "x", fixed_block[2]);
  }
  if (groups[0] == 0 || groups[1] == 0 || groups[2] == 0) return plan;  // nothing to run

  // Per dimension: the full groups [0, n_full) and, if last_block makes the last group
  // partial, that group alone. max_grid * max_block <= max_global, so no product overflows.
  struct Range {
    uint32_t first, count, local;
  };
  std::array<std::vector<Range>, 3> ranges;
  for (int d = 0; d < 3; ++d) {
    const uint32_t last = info.last_block[d];
    const bool partial = last != 0 && last != info.block[d];
    const uint32_t full = partial ? groups[d] - 1 : groups[d];
    if (full) ranges[d].push_back({0, full, info.block[d]});
    if (partial) ranges[d].push_back({groups[d] - 1, 1, last});
  }
  for (const Range& z : ranges[2]) {
    for (const Range& y : ranges[1]) {
      for (const Range& x : ranges[0]) {
        GridRegion r;
        const Range* rs[3] = {&x, &y, &z};
        for (int d = 0; d < 3; ++d) {
          r.local[d] = rs[d]->local;
          r.global[d] = size_t(rs[d]->count) * rs[d]->local;
          // grid_base + grid <= 2^32 (checked above), so the sum fits.
          r.block_base[d] = info.grid_base[d] + rs[d]->first;
        }
        plan.regions.push_back(r);
      }
    }
  }
  return plan;
}

}  // namespace clpipe::frontend
