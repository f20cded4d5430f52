#include "runtime/memory_account.h"

#include "base/error.h"

namespace clpipe::runtime {

namespace {

std::atomic<uint64_t>* own_slot(const MemoryLimits& l) {
  return l.slots && l.own_slot < l.slot_count ? &l.slots[l.own_slot] : nullptr;
}

}  // namespace

void MemoryAccount::set_limits(const MemoryLimits& limits) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (std::atomic<uint64_t>* old = own_slot(limits_)) old->fetch_sub(in_use_);
  limits_ = limits;
  if (std::atomic<uint64_t>* now = own_slot(limits_)) now->fetch_add(in_use_);
}

uint64_t MemoryAccount::shared_total() const {
  uint64_t total = 0;
  for (uint32_t i = 0; i < limits_.slot_count; ++i)
    total += limits_.slots[i].load(std::memory_order_relaxed);
  return total;
}

void MemoryAccount::charge(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  const uint64_t screen = limits_.screen_bytes;
  if (screen && (bytes > screen || in_use_ > screen - bytes)) {
    fail(ErrorCode::kOutOfMemory, "a buffer of ", bytes, " bytes would pass the memory limit of ",
         screen, " bytes (", in_use_, " in use)");
  }
  std::atomic<uint64_t>* slot = own_slot(limits_);
  if (slot) {
    // Other processes charge their own slots meanwhile: the sum is a snapshot, so the
    // shared budget may be passed by what they allocate at the same moment (bounded by
    // one allocation each), never by this screen alone.
    const uint64_t total = shared_total();
    const uint64_t shared = limits_.shared_bytes;
    if (shared && (bytes > shared || total > shared - bytes)) {
      fail(ErrorCode::kOutOfMemory, "a buffer of ", bytes,
           " bytes would pass the memory shared by all clients, ", shared, " bytes (", total,
           " in use)");
    }
    slot->fetch_add(bytes);
  }
  in_use_ += bytes;
}

void MemoryAccount::release(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  in_use_ -= bytes;
  if (std::atomic<uint64_t>* slot = own_slot(limits_)) slot->fetch_sub(bytes);
}

uint64_t MemoryAccount::in_use() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return in_use_;
}

}  // namespace clpipe::runtime
