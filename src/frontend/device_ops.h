// DeviceOps: the fill and copy kernels (src/kernels/fill.cl, copy.cl) on one queue.
//
// Producers: Context clears and copies.
// Regions are boxes of bytes in clpipe's layout (layout.h); the returned event is the
// launched command, which callers report to ResourceImpl::note_use.
// One DeviceOps per queue, used by one thread at a time (kernel objects are not
// thread-safe); the programs come from the Screen's shared ProgramCache.
#pragma once

#include <array>
#include <cstdint>

#include "clpipe/state.h"
#include "frontend/layout.h"
#include "runtime/cl.h"
#include "runtime/program_cache.h"
#include "runtime/queue.h"

namespace clpipe::frontend {

// A box of bytes: `rows` x `layers` rows; row (y, z) starts at base + z * layer_pitch +
// y * row_pitch (16-byte aligned) and the bytes [begin, end) of each row are in the box.
struct ByteRegion {
  uint64_t base = 0;
  uint32_t row_pitch = 0;
  uint64_t layer_pitch = 0;
  uint64_t begin = 0, end = 0;
  uint32_t rows = 1, layers = 1;
};

// The region of `box` (validated) in `level` of a layout, with every sample of its layers.
ByteRegion region_of(const ResourceLayout& layout, unsigned level, const Box& box);

// A fill pattern with a period of kFillPeriod bytes from the row start (see fill.cl).
constexpr unsigned kFillPeriod = 48;
struct FillPattern {
  std::array<uint8_t, kFillPeriod> bytes{};
  std::array<uint8_t, kFillPeriod> mask{};  // bits written; others keep their value
};
// value (size bytes, which must divide kFillPeriod) repeated so that row byte `phase`
// starts a copy of it; mask (size bytes) or null for all bits.
FillPattern make_fill_pattern(const void* value, unsigned size, const void* mask,
                              uint64_t phase = 0);

class DeviceOps {
 public:
  DeviceOps(runtime::Queue& queue, runtime::ProgramCache& programs);

  cl::Event fill(const cl::Buffer& dst, const ByteRegion& region, const FillPattern& pattern);
  // src and dst regions have the same rows, layers and end - begin.
  cl::Event copy(const cl::Buffer& src, const ByteRegion& from, const cl::Buffer& dst,
                 const ByteRegion& to);

 private:
  runtime::Queue& queue_;
  runtime::ProgramCache& programs_;
  runtime::ProgramRef fill_program_;
  runtime::ProgramRef copy_program_;
  size_t fill_max_group_ = 0;  // largest work-group of each kernel, read at first use
  size_t copy_max_group_ = 0;
};

}  // namespace clpipe::frontend
