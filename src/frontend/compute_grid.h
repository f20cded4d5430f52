// The geometry of a compute dispatch: the device's compute limits (reported by the compute
// caps and enforced by launch_grid, one source for both) and the plan that turns a
// pipe_grid_info into OpenCL NDRange launches.
//
// Producer: plan_grid() from a GridInfo (with its group counts read from the indirect
// buffer when there is one). Consumers: ContextImpl::launch_grid (compute_launch.cpp), which
// enqueues one compute.cl launch per region, and the compute caps (caps.cpp).
//
// Mapping: block = the OpenCL local size, grid = the number of work-groups, so a dispatch
// is one NDRange of grid * block work-items. A partial last block (last_block[d] != 0)
// becomes its own launch whose local size is last_block[d]: the disabled threads of
// pipe_grid_info simply do not exist there, so a BARRIER inside a loop is still reached by
// every thread of the group (masking them off instead would make such barriers diverge).
// Each dimension splits into at most two ranges (full groups, the partial group), so a
// dispatch is at most eight launches; without partial blocks it is exactly one.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "clpipe/state.h"
#include "runtime/device.h"

namespace clpipe::frontend {

// What a dispatch may ask for on this device.
struct ComputeLimits {
  // Threads per block in each dimension (CL_DEVICE_MAX_WORK_ITEM_SIZES, capped by the
  // group limit) and in all (CL_DEVICE_MAX_WORK_GROUP_SIZE).
  std::array<uint64_t, 3> max_block{};
  uint64_t max_threads = 0;
  // Work-groups per dimension: at most INT32_MAX (GL reads the cap as an int) and few
  // enough that grid * max_block fits the device's size_t (address_bits).
  std::array<uint64_t, 3> max_grid{};
  // Largest global size per dimension the device can index: 2^address_bits - 1.
  uint64_t max_global = 0;
  uint64_t local_mem_size = 0;  // bytes of shared memory per block
};

ComputeLimits compute_limits(const runtime::DeviceLimits& dev);

// One NDRange launch of a dispatch.
struct GridRegion {
  std::array<size_t, 3> global{};  // work-items: groups * local
  std::array<size_t, 3> local{};   // threads per group (block, or last_block)
  // Added to get_group_id() to give BLOCK_ID: grid_base plus the first group of the region.
  std::array<uint32_t, 3> block_base{};
};

struct GridPlan {
  std::array<uint32_t, 3> grid{};   // GRID_SIZE reported to the shader
  std::array<uint32_t, 3> block{};  // BLOCK_SIZE reported to the shader (the full block)
  uint32_t work_dim = 3;
  std::vector<GridRegion> regions;  // empty: a grid with zero groups, nothing to launch
};

// Validates `info` with `groups` as its grid (info.grid, or what the indirect buffer says)
// against the limits and the shader's fixed block (CS_FIXED_BLOCK_*, {0, 0, 0} = variable)
// and plans the launches. Throws clpipe::Error(kInvalidArgument) naming the first bad
// field: work_dim outside 1..3, a zero block, a block, thread count or grid over the limits,
// a block that differs from the fixed one, last_block larger than the block, dimensions at
// or past work_dim that are not 1, or block ids (grid_base + grid) past 2^32.
GridPlan plan_grid(const GridInfo& info, const std::array<uint32_t, 3>& groups,
                   const std::array<uint32_t, 3>& fixed_block, const ComputeLimits& limits);

// Throws clpipe::Error(kUnsupported) when a fixed block (CS_FIXED_BLOCK_*) exceeds the
// limits, so create_compute_state refuses a shader that could never be launched.
void check_fixed_block(const std::array<uint32_t, 3>& fixed_block, const ComputeLimits& limits);

}  // namespace clpipe::frontend
