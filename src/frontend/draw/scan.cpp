#include "frontend/draw/scan.h"

namespace clpipe::frontend::draw {

namespace {
// Must match CLP_SCAN_WG, CLP_SCAN_BLOCK and CLP_SCAN_SMALL in scan.cl.
constexpr uint32_t kScanWg = 64;
constexpr uint32_t kScanBlock = 1024;
constexpr uint32_t kScanSmall = kScanWg * 256;
}  // namespace

void Scanner::exclusive_scan(const cl::Buffer& data, uint32_t n, const cl::Buffer& total) {
  if (n == 0) {
    const uint32_t zero = 0;
    queue_.write(total, 0, sizeof(zero), &zero, true);
    return;
  }
  // One launch for small arrays: every launch costs a round of thread wake-ups on CPU
  // devices, and most draws scan a few thousand elements.
  if (n <= kScanSmall) {
    cl::Kernel& k = queue_.kernel(program_, "scan_small");
    runtime::set_args(k, data, n, total);
    queue_.launch(k, {kScanWg}, {kScanWg}, "scan");
    return;
  }
  // Level i scans `buf` (n_i elements) and writes its block sums to levels_[i].
  cl::Buffer buf = data;
  uint32_t count = n;
  std::vector<std::pair<cl::Buffer, uint32_t>> stack;
  for (size_t level = 0;; ++level) {
    const uint32_t blocks = (count + kScanBlock - 1) / kScanBlock;
    if (levels_.size() <= level) {
      levels_.push_back(queue_.create_buffer(blocks * sizeof(uint32_t)));
      level_capacity_.push_back(blocks);
    } else if (level_capacity_[level] < blocks) {
      levels_[level] = queue_.create_buffer(blocks * sizeof(uint32_t));
      level_capacity_[level] = blocks;
    }
    cl::Kernel& k = queue_.kernel(program_, "scan_blocks");
    runtime::set_args(k, buf, count, levels_[level], total);
    queue_.launch(k, {size_t(blocks) * kScanWg}, {kScanWg}, "scan");
    stack.emplace_back(buf, count);
    if (blocks == 1) break;
    buf = levels_[level];
    count = blocks;
  }
  // Add the scanned block sums back, deepest level first.
  for (size_t level = stack.size() - 1; level-- > 0;) {
    cl::Kernel& k = queue_.kernel(program_, "scan_add");
    runtime::set_args(k, stack[level].first, stack[level].second, levels_[level]);
    queue_.launch_1d(k, size_t(stack[level].second), "scan");
  }
}

}  // namespace clpipe::frontend::draw
