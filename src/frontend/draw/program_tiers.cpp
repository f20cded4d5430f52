#include "frontend/draw/program_tiers.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <system_error>
#include <thread>
#include <unordered_set>

namespace clpipe::frontend::draw {

ProgramTierMode program_tier_mode(const runtime::Device& device) {
  const char* v = std::getenv("CLPIPE_QUICK_PROGRAMS");
  if (v && std::strcmp(v, "off") == 0) return ProgramTierMode::kOptimised;
  if (v && std::strcmp(v, "auto") == 0) return ProgramTierMode::kAuto;
  if (v && std::strcmp(v, "warm-up") == 0) return ProgramTierMode::kWarmUp;
  return device.description().is_gpu ? ProgramTierMode::kOptimised : ProgramTierMode::kAuto;
}

bool interpreter_enabled() {
  const char* v = std::getenv("CLPIPE_INTERPRETER");
  return !(v && std::strcmp(v, "off") == 0);
}

namespace {

// Interpreter programs that failed to build: the shaders of their prelude are compiled
// instead of each trying the same build again.
std::mutex failed_mutex;
std::unordered_set<std::string> failed_interpreters;

bool interpreter_failed(const std::string& source) {
  std::lock_guard<std::mutex> lock(failed_mutex);
  return failed_interpreters.count(source) != 0;
}

// Returns whether this is the first failure of `source`.
bool note_interpreter_failure(const std::string& source) {
  std::lock_guard<std::mutex> lock(failed_mutex);
  return failed_interpreters.insert(source).second;
}

std::mutex slots_mutex;
std::condition_variable slots_changed;
int slots_taken = 0;

}  // namespace

int BackgroundBuilds::slots() {
  static const int n = std::max(1, int(std::thread::hardware_concurrency() / 2));
  return n;
}

bool BackgroundBuilds::take_slot(const std::atomic<bool>& abandoned) {
  std::unique_lock<std::mutex> lock(slots_mutex);
  slots_changed.wait(lock, [&] { return abandoned || slots_taken < slots(); });
  if (abandoned) return false;
  ++slots_taken;
  return true;
}

void BackgroundBuilds::give_slot() {
  {
    std::lock_guard<std::mutex> lock(slots_mutex);
    --slots_taken;
  }
  slots_changed.notify_all();
}

void BackgroundBuilds::wake() {
  // Taking the mutex orders the caller's store to `abandoned` before a waiter's check.
  { std::lock_guard<std::mutex> lock(slots_mutex); }
  slots_changed.notify_all();
}

TieredProgram::TieredProgram(runtime::ProgramCache& cache, std::string source, ProgramTierMode mode,
                             std::vector<size_t> launch_sizes, const std::string& interpreted)
    : cache_(cache),
      source_(std::move(source)),
      launch_sizes_(std::move(launch_sizes)),
      upgrades_(mode == ProgramTierMode::kAuto) {
  optimised_ = mode == ProgramTierMode::kOptimised ||
               (upgrades_ && cache_.contains(source_, kShaderBuildOptions));
  if (optimised_) {
    current_ = cache_.get(source_, kShaderBuildOptions);
    return;
  }
  runtime::ProgramHints quick;
  quick.stand_in = true;
  if (!interpreted.empty() && !interpreter_failed(interpreted)) {
    try {
      // Not a stand-in for the program cache: the interpreter program of a prelude serves
      // every shader of that prelude, so nearly every later process loads it (a
      // shader_runner test draws with two), where a binary entry loads without compiling.
      // Its optimised build runs shaders 5-7x faster (a multisampled piglit test: 27 s of
      // tile pass device time, 3.8 s optimised) but costs ~10-15 s of PoCL's time, not ~1
      // s: it is built by clpipe-vtest --warm-cache (kWarmUp), and used where the cache
      // has it.
      const bool fast =
          mode == ProgramTierMode::kWarmUp || cache_.contains(interpreted, kShaderBuildOptions);
      current_ = cache_.get(interpreted, fast ? kShaderBuildOptions : kQuickBuildOptions);
      interpreted_ = true;
      if (fast) due_ns_ = kDueInterpretedDeviceNs;
      return;
    } catch (const std::exception& err) {
      // Logged once: the shaders of its prelude are compiled from now on.
      if (note_interpreter_failure(interpreted)) {
        std::fprintf(stderr,
                     "clpipe: a shader interpreter program failed to build; its shaders are "
                     "compiled instead: %s\n",
                     err.what());
      }
    }
  }
  current_ = cache_.get(source_, kQuickBuildOptions, quick);
}

TieredProgram::~TieredProgram() {
  abandoned_ = true;
  BackgroundBuilds::wake();
}

runtime::ProgramRef TieredProgram::select(uint64_t scene) {
  std::lock_guard<std::mutex> lock(mutex_);
  const bool first_in_scene = last_scene_ != scene;
  last_scene_ = scene;
  if (optimised_ || failed_ || !upgrades_ || !first_in_scene) return current_;
  if (pending_.valid()) {
    if (pending_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return current_;
    if (runtime::ProgramRef p = pending_.get()) {
      current_ = std::move(p);
      optimised_ = true;
      interpreted_ = false;
    } else {
      failed_ = true;
    }
    return current_;
  }
  if (quick_ns_ < due_ns_) return current_;
  auto build = [this]() -> runtime::ProgramRef {
    try {
      runtime::ProgramHints primed;
      primed.launch_sizes = launch_sizes_;
      return cache_.get(source_, kShaderBuildOptions, primed);
    } catch (const std::exception& err) {
      // The quick program is the same code: its draws go on, only slower.
      std::fprintf(stderr,
                   "clpipe: a shader's optimised program failed to build; drawing with its "
                   "quick build: %s\n",
                   err.what());
      return nullptr;
    }
  };
  try {
    pending_ = std::async(std::launch::async,
                          [this, build] { return BackgroundBuilds::run(abandoned_, build); });
  } catch (const std::system_error&) {
    // No thread to spare: build it now.
    if (runtime::ProgramRef p = build()) {
      current_ = std::move(p);
      optimised_ = true;
      interpreted_ = false;
    } else {
      failed_ = true;
    }
  }
  return current_;
}

void TieredProgram::add_device_time(const runtime::ProgramRef& ran, uint64_t ns) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (ran == current_ && !optimised_) quick_ns_ += ns;
}

uint64_t TieredProgram::quick_device_ns() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return quick_ns_;
}

bool TieredProgram::counts_device_time(const runtime::ProgramRef& ran) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return ran == current_ && !optimised_;
}

runtime::ProgramRef TieredProgram::current() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return current_;
}

bool TieredProgram::optimised() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return optimised_;
}

bool TieredProgram::interpreted() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return interpreted_;
}

void TieredProgram::wait_for_build() const {
  std::unique_lock<std::mutex> lock(mutex_);
  if (pending_.valid()) pending_.wait();
}

}  // namespace clpipe::frontend::draw
