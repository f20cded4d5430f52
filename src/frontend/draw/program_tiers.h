// A shader stage's program in two builds (compile latency, issue 15): a quick one with the
// device compiler's optimisations off, which draws from the shader's first draw, and the
// optimised one, built in the background (BackgroundBuilds) once the shader has drawn
// enough to repay its build, and taken at the start of a scene. Measured on PoCL 3.1
// (AVX-512, bench_first_pixel in process): a new vertex and fragment shader reach their
// first pixel in ~1.3-1.6 s instead of ~4.7-5.6 s (median); quick code shades pixels
// ~5-7x slower (bench_draw's fills), which the short programs that bring most new shaders
// (tests, a game's first frames) do not notice.
//
// Both builds are of the same OpenCL C with the same floating-point options (nothing
// relaxed: no -cl-fast-relaxed-math, -cl-mad-enable or -cl-unsafe-math-optimizations),
// and draw the same pixels (program_tiers_test compares them bit for bit). When the
// program cache already holds the optimised program (an earlier run built it), that one
// draws from the start.
#pragma once

#include <atomic>
#include <cstdint>
#include <future>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "runtime/program_cache.h"

namespace clpipe::frontend::draw {

// Background builds of optimised programs (these tiers and tile variants): at most half the
// processor's cores (at least one) build at once in a process, so that the threads that
// draw keep the other half however many shaders fall due together. A build still waiting
// for a slot when its owner goes is dropped instead of run.
class BackgroundBuilds {
 public:
  // Runs `build` once a slot is free, or returns null without running it once `abandoned`
  // is set (the owner sets it, then calls wake()).
  template <typename Build>
  static runtime::ProgramRef run(const std::atomic<bool>& abandoned, Build&& build) {
    if (!take_slot(abandoned)) return nullptr;
    struct Release {
      ~Release() { give_slot(); }
    } release;
    return build();
  }
  // Wakes the builds waiting for a slot to look at their `abandoned` again.
  static void wake();
  // Builds that may run at once.
  static int slots();

 private:
  static bool take_slot(const std::atomic<bool>& abandoned);
  static void give_slot();
};

// Build options of every shader program (these tiers, tile variants): denormal floats
// are flushed to zero, as llvmpipe and GPUs do (GLSL allows either; piglit's
// fs-underflow-*-compare-zero tests expect a product below the normal range to compare
// equal to 0). PoCL sets the CPU's flush-to-zero and denormals-are-zero modes around the
// kernels of programs built with it (ProgramCache passes the options to binaries too).
inline constexpr const char* kShaderBuildOptions = "-cl-denorms-are-zero";
// ... and those of the quick program: CL 1.2's switch for "no optimisations" besides.
inline constexpr const char* kQuickBuildOptions = "-cl-opt-disable -cl-denorms-are-zero";

// How a stage's programs are built ($CLPIPE_QUICK_PROGRAMS).
enum class ProgramTierMode {
  kAuto,       // quick first, optimised once due (default on a CPU device: PoCL's
               // optimisation and code generation are most of a cold build)
  kOptimised,  // optimised before the first draw ("off"; default on a GPU, whose
               // compilers build in far less time than the CPU ones)
  kWarmUp,     // clpipe-vtest --warm-cache ("warm-up"): interpreter programs optimised
               // (each serves every shader of its prelude), a shader's own programs quick,
               // never optimised and without tile variants (no other program draws with
               // them)
};
// $CLPIPE_QUICK_PROGRAMS: "auto", "off" or "warm-up", else the device's default above.
ProgramTierMode program_tier_mode(const runtime::Device& device);
// Whether kAuto draws shaders the interpreter runs interpreted first ($CLPIPE_INTERPRETER:
// "off" compiles their quick programs instead, as for the others).
bool interpreter_enabled();

class TieredProgram {
 public:
  // Builds the first program of `source`: the optimised one in kOptimised or when the
  // cache holds it, else the quick one. Throws like ProgramCache::get. `launch_sizes`:
  // the local sizes the pass launches its kernels with (launch_1d's group), whose code
  // the optimised build generates before the switch (ProgramCache::get).
  // `interpreted`: the source of the shader's interpreted form (compiler::
  // emit_interpreted), which then takes the quick program's place: one build of it (the
  // optimised one where the cache has it or in kWarmUp, else the quick one) serves every
  // shader of its prelude, so a new shader usually finds it in the cache.
  // Should it not build, the quick program draws instead, and the shaders of the same
  // interpreted source are compiled from then on (logged once per source).
  TieredProgram(runtime::ProgramCache& cache, std::string source, ProgramTierMode mode,
                std::vector<size_t> launch_sizes, const std::string& interpreted = {});
  // Drops the optimised build if it still waits for a slot; waits for it if it runs.
  ~TieredProgram();
  TieredProgram(const TieredProgram&) = delete;
  TieredProgram& operator=(const TieredProgram&) = delete;

  // The program for a draw in scene `scene` (a number that changes from scene to scene):
  // the optimised program once it is built, else the quick one. Starts the optimised
  // build once the quick program's device time reached kDueDeviceNs; a build that ends
  // mid-scene is taken at the first select() of the next scene, so that one scene's draws
  // of the shader run one program. A failed build is logged once and the quick program
  // keeps drawing.
  runtime::ProgramRef select(uint64_t scene);
  // Counts `ns` of device time that a launch of `ran` took towards the optimised build,
  // when `ran` is the quick (or interpreted) program drawing now.
  void add_device_time(const runtime::ProgramRef& ran, uint64_t ns);
  // Device time counted by add_device_time.
  uint64_t quick_device_ns() const;
  // Whether a launch of `ran` counts: it is the quick program drawing now.
  bool counts_device_time(const runtime::ProgramRef& ran) const;
  // The program select() returned last (the first program before any select()).
  runtime::ProgramRef current() const;
  bool optimised() const;
  // Whether the interpreted program draws (until the optimised one is taken).
  bool interpreted() const;
  // Returns when no optimised build is running (tests: a build's end, without timing).
  void wait_for_build() const;

  // The device time the quick program runs (add_device_time) before the optimised one is
  // built: 1 s, about what the optimised build costs (~3-4 s of one core of PoCL against
  // 1 s of the device's cores, two here). Drawing with the quick program is renting,
  // building is buying: buying once the rent paid reaches the price never costs more than
  // twice what the best choice in hindsight would have. A shader that keeps the device
  // busy repays it (piglit's fs-execution-ordering loops thousands of times per pixel and
  // ran 119 s interpreted, 6 s optimised); a test that ends soon after spent on the
  // build about what it spent drawing. Pixels and vertices are no measure of that cost:
  // counting the framebuffer's pixels (due at 4M), fbo-depth-array's array layers of up
  // to 2M texels made its shaders due within its first scenes, and dropping that rule took
  // the 33 slow tests of the pool's expectations
  // from 440 to 391 s and the dev list from 139 to 109 s of test time (stop 59).
  static constexpr uint64_t kDueDeviceNs = 1'000'000'000;
  // ... and where an interpreter program's optimised build draws (the set-up's warm-up
  // built it): the shader's own optimised program then saves ~15-30% of the device time,
  // not the ~85% it saves over a quick build, so the rent that pays for the same build is
  // about four times as long. Measured alone, after the warm-up: fbo-depth-array
  // depth-layered-clear 6.3 s interpreted throughout, 5.3 s with its own programs cached,
  // 9.1 s when they fall due at 1 s and build while it draws; a multisample accuracy test
  // 5.2, 3.7 and 6.1 s.
  static constexpr uint64_t kDueInterpretedDeviceNs = 4 * kDueDeviceNs;
  // The device time after which select() starts the optimised build: kDueDeviceNs, or
  // kDueInterpretedDeviceNs while the interpreter's optimised build draws.
  uint64_t due_device_ns() const { return due_ns_; }

 private:
  runtime::ProgramCache& cache_;
  const std::string source_;
  const std::vector<size_t> launch_sizes_;
  const bool upgrades_;             // kAuto: the optimised build starts when due
  uint64_t due_ns_ = kDueDeviceNs;  // set by the constructor only
  mutable std::mutex mutex_;
  runtime::ProgramRef current_;
  bool optimised_ = false;
  bool interpreted_ = false;
  bool failed_ = false;
  uint64_t last_scene_ = ~uint64_t(0);
  uint64_t quick_ns_ = 0;
  std::atomic<bool> abandoned_{false};
  // Last member: destroyed first, waiting for a build that still uses the members above.
  std::future<runtime::ProgramRef> pending_;  // null result: the build failed
};

}  // namespace clpipe::frontend::draw
