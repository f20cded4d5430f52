// Exclusive prefix sums on the device (kernels in src/kernels/scan.cl), used to compact
// per-position and per-tile counts into offsets. Scratch buffers are kept between calls.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/program_cache.h"
#include "runtime/queue.h"

namespace clpipe::frontend::draw {

class Scanner {
 public:
  explicit Scanner(runtime::Queue& queue, runtime::ProgramRef program)
      : queue_(queue), program_(std::move(program)) {}

  // data[0..n) becomes its exclusive prefix sum; total[0] (a 4-byte buffer) receives the
  // sum of all elements. n == 0 writes 0 to total. Sums saturate at kSaturated (scan.cl
  // says how): a total of kSaturated means 2^32 - 1 or more.
  void exclusive_scan(const cl::Buffer& data, uint32_t n, const cl::Buffer& total);

  static constexpr uint32_t kSaturated = 0xffffffffu;  // CLP_SCAN_SATURATED in scan.cl

 private:
  runtime::Queue& queue_;
  runtime::ProgramRef program_;
  std::vector<cl::Buffer> levels_;        // block sums per recursion level
  std::vector<uint32_t> level_capacity_;  // elements each level buffer holds
};

}  // namespace clpipe::frontend::draw
