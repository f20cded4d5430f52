// OpenCL device selection and the per-device objects shared by a Screen's contexts.
//
// Selection: a requested name (ScreenOptions::device or $CLPIPE_DEVICE) is matched as a
// case-insensitive substring of "platform name" or "device name"; without one the first
// GPU wins, else the first device. No match is an error that lists every device.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "clpipe/screen.h"
#include "runtime/cl.h"
#include "runtime/memory_account.h"

namespace clpipe::runtime {

struct DeviceCandidate {
  size_t index = 0;  // in enumerate_devices()
  cl::Platform platform;
  cl::Device device;
  DeviceDescription description;
};

// Every device of every platform, platforms in ICD order, devices in platform order.
std::vector<DeviceCandidate> enumerate_devices();

// Throws Error(kInvalidArgument) listing the candidates when `request` matches none, and
// Error(kUnsupported) when there is no OpenCL device at all.
DeviceCandidate select_device(const std::vector<DeviceCandidate>& candidates,
                              const std::string& request);

// Limits read once from the selected device.
struct DeviceLimits {
  uint64_t global_mem_size = 0;
  uint64_t max_mem_alloc_size = 0;
  uint64_t local_mem_size = 0;
  uint64_t max_constant_buffer_size = 0;
  size_t max_work_group_size = 0;
  size_t max_work_item_sizes[3] = {0, 0, 0};
  uint32_t max_compute_units = 0;
  uint32_t max_clock_frequency = 0;  // MHz
  uint32_t address_bits = 0;
  uint32_t mem_base_addr_align = 0;  // bits
  size_t max_parameter_size = 0;
  uint64_t profiling_timer_resolution = 0;  // ns
  bool fp64 = false;
  bool int64_atomics = false;
  bool host_unified_memory = false;
  uint32_t native_vector_width_float = 0;  // CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT
  // Lanes of a fragment-shader work-item in the tile pass (shader_abi.h): $CLPIPE_LANES
  // (1, 4, 8 or 16) when set; else 4 on a GPU (a quad per work-item, the device spreads
  // work-items over its SIMD lanes) and on a CPU 16 where its native float vectors are
  // 16 wide (AVX-512), else 8: CPU implementations such as PoCL do not vectorise across
  // work-items, so the lanes are the SIMD width. At 1 a work-item shades a pixel, except
  // for shaders that read the other pixels of their quad (compiler/emit/emit.h).
  uint32_t fragment_lanes = 4;
  // Whether a work-item of the tile pass shades a whole tile (kernels/tile.cl): on a CPU,
  // which runs a work-group's work-items one after the other, so a primitive's set-up is
  // then done once per tile instead of once per block; on a GPU one block per work-item
  // keeps its SIMD lanes busy. $CLPIPE_TILE_ITEMS=tile or =block forces one. Always a
  // block at one fragment lane.
  bool whole_tile_items = false;
};

// The fragment_lanes rule above; throws Error(kInvalidArgument) for a bad $CLPIPE_LANES.
uint32_t choose_fragment_lanes(bool is_gpu, uint32_t native_vector_width_float,
                               const char* env_lanes);
// The whole_tile_items rule above; throws Error(kInvalidArgument) for a bad
// $CLPIPE_TILE_ITEMS.
bool choose_whole_tile_items(bool is_gpu, const char* env_items, uint32_t fragment_lanes);

// The selected device with its OpenCL context: one per Screen.
class Device {
 public:
  explicit Device(const DeviceCandidate& candidate);

  const cl::Context& context() const { return context_; }
  const cl::Device& device() const { return device_; }
  const DeviceDescription& description() const { return description_; }
  const DeviceLimits& limits() const { return limits_; }
  size_t index() const { return index_; }  // in enumerate_devices()
  // Identity of the compiler for the disk cache: device name, driver and device version.
  std::string cache_identity() const;
  // Whether the device generates code when a kernel first runs and when the program's
  // binary is read, not when it builds (PoCL: at a launch, for the launch's local size;
  // for a binary, a generic work-group function besides, which a process that launches
  // from the program itself never runs). Reading the binary of a new program right after
  // its build then doubles the code generation on the way to its first launch.
  bool generates_code_late() const { return generates_code_late_; }
  // Whether a build of a source this device's compiler has built before, in any process
  // of this user, comes from the compiler's own cache (PoCL's kernel cache, unless
  // POCL_KERNEL_CACHE=0): a builder child's build then makes the parent's rebuild of the
  // same source cheap.
  bool caches_builds() const { return caches_builds_; }
  // The memory its buffers hold (shared: the buffers' destructor callbacks keep it alive).
  const std::shared_ptr<MemoryAccount>& memory() const { return memory_; }

 private:
  size_t index_;
  cl::Platform platform_;
  cl::Device device_;
  cl::Context context_;
  DeviceDescription description_;
  DeviceLimits limits_;
  bool generates_code_late_ = false;
  bool caches_builds_ = false;
  std::shared_ptr<MemoryAccount> memory_ = std::make_shared<MemoryAccount>();
};

}  // namespace clpipe::runtime
