// Device memory held by one screen's buffers (Queue::create_buffer charges it before each
// allocation, OpenCL's destructor callback of the buffer releases it) and its limits
// (MemoryLimits: per screen, and shared by the screens of several processes).
//
// Invariant: in_use() is the sum of the sizes of the live buffers created through this
// account, and the own slot of the shared budget holds the same sum. Both hold because
// every charge is paired with exactly one release, by the callback of the buffer it made
// or at once when the allocation failed.
#pragma once

#include <cstdint>
#include <mutex>

#include "clpipe/screen.h"

namespace clpipe::runtime {

class MemoryAccount {
 public:
  // Replaces the limits; the bytes held move to the new shared slot.
  void set_limits(const MemoryLimits& limits);
  // Counts `bytes` of a new buffer, or throws kOutOfMemory (naming the limit) and counts
  // nothing when a limit would be passed.
  void charge(uint64_t bytes);
  void release(uint64_t bytes);
  uint64_t in_use() const;

 private:
  uint64_t shared_total() const;

  mutable std::mutex mutex_;
  MemoryLimits limits_;
  uint64_t in_use_ = 0;
};

}  // namespace clpipe::runtime
