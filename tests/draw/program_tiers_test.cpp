// A stage's quick and optimised programs (src/frontend/draw/program_tiers.h): which one
// draws when, the switch at a scene's start, a failed optimised build, and that a shader
// draws the same pixels with both.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "draw/draw_fixture.h"
#include "frontend/compute_util.h"
#include "frontend/cso.h"
#include "frontend/draw/program_tiers.h"
#include "frontend/draw/stage_program.h"
#include "frontend/draw/tile_variant.h"
#include "frontend/format_codec.h"
#include "frontend/frontend_util.h"
#include "support/capture_stderr.h"
#include "support/pocl_kcache.h"
#include "support/scoped_env.h"
#include "support/test_device.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::frontend::draw;

namespace {

// Whether p was built without optimisations (kQuickBuildOptions; PoCL reports the options
// it kept, without -cl-denorms-are-zero, which it handles itself).
bool built_quick(const runtime::ProgramRef& p) {
  const std::string options =
      p->program.getBuildInfo<CL_PROGRAM_BUILD_OPTIONS>(test_device().device());
  return options.find("-cl-opt-disable") != std::string::npos;
}

constexpr uint64_t kHalf = TieredProgram::kDueDeviceNs / 2;

}  // namespace

TEST_CASE("tiered programs: quick first, optimised once due, taken at a scene's start",
          "[draw][tiers]") {
  // A cache of its own, in memory: the builds counted are this test's.
  runtime::ProgramCache cache(test_device(), "");
  const std::string source = "kernel void k(global int* p) { p[0] = 1; }\n";
  TieredProgram t(cache, source, ProgramTierMode::kAuto, {64});
  const runtime::ProgramRef quick = t.current();
  CHECK(built_quick(quick));
  CHECK_FALSE(t.optimised());
  CHECK(cache.stats().builds == 1);

  // Scenes never fall due by themselves, however many.
  for (uint64_t scene = 1; scene <= 64; ++scene)
    CHECK(t.select(scene) == quick);
  t.wait_for_build();
  CHECK(cache.stats().builds == 1);
  // The quick program's launches add up; the build is looked at in a scene's first select.
  t.add_device_time(quick, kHalf);
  CHECK(t.select(65) == quick);
  t.add_device_time(quick, kHalf - 1);
  CHECK(t.select(65) == quick);
  CHECK(t.select(66) == quick);
  t.wait_for_build();
  CHECK(cache.stats().builds == 1);
  t.add_device_time(quick, 1);
  CHECK(t.select(66) == quick);
  t.wait_for_build();
  CHECK(cache.stats().builds == 1);
  // The scene after the time reached kDueDeviceNs starts the build; its draws keep the
  // quick program, and so do the later draws of the scene in which the build ended.
  CHECK(t.select(67) == quick);
  t.wait_for_build();
  CHECK(cache.stats().builds == 2);
  CHECK(t.select(67) == quick);
  CHECK_FALSE(t.optimised());
  const runtime::ProgramRef optimised = t.select(68);
  CHECK(optimised != quick);
  CHECK_FALSE(built_quick(optimised));
  CHECK(t.optimised());
  CHECK(t.current() == optimised);
  CHECK(t.select(69) == optimised);

  // The cache holds the optimised program now: a new shader of the same code starts with it.
  TieredProgram again(cache, source, ProgramTierMode::kAuto, {64});
  CHECK(again.optimised());
  CHECK(again.current() == optimised);
  // kOptimised builds it before the first draw.
  runtime::ProgramCache other(test_device(), "");
  TieredProgram off(other, source, ProgramTierMode::kOptimised, {64});
  CHECK(off.optimised());
  CHECK_FALSE(built_quick(off.current()));
  CHECK(other.stats().builds == 1);
}

TEST_CASE("tiered programs: only the quick program's launches count towards its build",
          "[draw][tiers]") {
  runtime::ProgramCache cache(test_device(), "");
  const std::string source = "kernel void k(global int* p) { p[0] = 2; }\n";
  TieredProgram t(cache, source, ProgramTierMode::kAuto, {64});
  const runtime::ProgramRef quick = t.current();
  CHECK(t.counts_device_time(quick));
  CHECK(t.select(1) == quick);
  // Another program's launches do not count.
  const runtime::ProgramRef other =
      cache.get("kernel void k(global int* p) { p[0] = 3; }\n", kShaderBuildOptions);
  CHECK_FALSE(t.counts_device_time(other));
  t.add_device_time(other, TieredProgram::kDueDeviceNs);
  t.add_device_time(quick, TieredProgram::kDueDeviceNs - 1);
  CHECK(t.quick_device_ns() == TieredProgram::kDueDeviceNs - 1);
  CHECK(t.select(2) == quick);
  t.wait_for_build();
  CHECK(cache.stats().builds == 2);  // the quick program and `other`
  // The next scene after the time reaches kDueDeviceNs starts the build, the one after
  // takes it; the optimised program's launches do not count.
  t.add_device_time(quick, 1);
  CHECK(t.select(3) == quick);
  t.wait_for_build();
  CHECK(cache.stats().builds == 3);
  const runtime::ProgramRef optimised = t.select(4);
  CHECK(t.optimised());
  CHECK_FALSE(built_quick(optimised));
  CHECK_FALSE(t.counts_device_time(optimised));
  t.add_device_time(optimised, 5);
  CHECK(t.quick_device_ns() == TieredProgram::kDueDeviceNs);
}

#ifdef CLPIPE_VTEST_TOOL
TEST_CASE(
    "tiered programs: built by builder children, the optimised one comes with its launches' code",
    "[draw][tiers]") {
  // The children keep PoCL's kernel cache here (they read POCL_CACHE_DIR as they start).
  const std::string kcache = make_temp_dir("tiers-kcache");
  ScopedEnv pocl_cache("POCL_CACHE_DIR", kcache.c_str());
  ProgramBuilderOptions builder;
  builder.executable = CLPIPE_VTEST_TOOL;
  runtime::ProgramCache cache(test_device(), "", 512, builder);
  TieredProgram t(cache, "kernel void tiered(global int* p) { p[get_global_id(0)] = 1; }\n",
                  ProgramTierMode::kAuto, {64});
  t.add_device_time(t.current(), TieredProgram::kDueDeviceNs);
  CHECK(t.select(1) == t.current());
  t.wait_for_build();
  (void)t.select(2);
  CHECK(t.optimised());
  // PoCL: the work-group function for the tiers' launches was generated before the switch,
  // not at the first launch on the drawing thread (ProgramBuilder::build_primed).
  if (test_device().generates_code_late())
    CHECK(work_group_functions(kcache, "tiered").count("64-1-1-goffs0-smallgrid") == 1);
}

TEST_CASE(
    "tiered programs: an interpreter program's disk entry is a binary, a quick program's a marker",
    "[draw][tiers]") {
  const std::string kcache = make_temp_dir("tiers-kcache");
  ScopedEnv pocl_cache("POCL_CACHE_DIR", kcache.c_str());
  ProgramBuilderOptions builder;
  builder.executable = CLPIPE_VTEST_TOOL;
  runtime::ProgramCache cache(test_device(), make_temp_dir("tiers-entries"), 512, builder);
  const std::string source = "kernel void k(global int* p) { p[0] = 1; }\n";
  const std::string interpreter = "// the interpreter\n" + source;
  const std::string compiled = "// a shader the interpreter does not run\n" + source;
  TieredProgram first(cache, source, ProgramTierMode::kAuto, {64}, interpreter);
  REQUIRE(first.interpreted());
  TieredProgram second(cache, compiled, ProgramTierMode::kAuto, {64});
  const auto entry_size = [&](const std::string& s) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(cache.disk_path(s, kQuickBuildOptions), ec);
    return ec ? 0 : uint64_t(size);
  };
  constexpr uint64_t kMarkerSize = 88;  // a header without a payload
  // Where the device caches its builds, a quick program's entry is a marker, and the child
  // writes the interpreter's binary entry after its reply (child_entries counts it);
  // elsewhere both are binaries.
  const bool markers = test_device().generates_code_late() && test_device().caches_builds();
  CHECK(cache.stats().child_entries == (markers ? 1u : 0u));
  CHECK((entry_size(compiled) == kMarkerSize) == markers);
  for (int i = 0; i < 600 && entry_size(interpreter) <= kMarkerSize; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(entry_size(interpreter) > kMarkerSize);
}
#endif

TEST_CASE("tiered programs: a scene's launches of a quick vertex program count their device time",
          "[draw][tiers]") {
  // A vertex shader slow per vertex (piglit's glsl-uniform-interstage-limits: 12 of its
  // 20 s in an interpreted vertex pass over a few hundred vertices a scene) reaches its
  // optimised build by device time, as a fragment shader does (tile_variant_test).
  ScopedEnv tiers("CLPIPE_QUICK_PROGRAMS", "auto");
  DrawFixture fx;
  constexpr uint32_t kW = 16, kH = 8;
  DrawSetup s = fx.basic_setup(kW, kH);
  // A vertex shader of this test only: no earlier run built its optimised program.
  GeneratedCode vs;
  vs.prelude =
      "#define CLP_STAGE_VERTEX 1\n#define CLP_LANES 4\n#define CLP_NUM_INPUTS 1\n"
      "#define CLP_NUM_OUTPUTS 1\n#define CLP_RESOURCE_PARAMS\n#define CLP_RESOURCE_ARGS\n";
  vs.body =
      "// program_tiers_test: the device time of a quick vertex program\n"
      "void clp_shader_main(ClpShaderIo* io, ClpStageCtx* stage) {\n"
      "  for (int c = 0; c < 4; ++c) io->out[0][c] = io->in[0][c];\n"
      "}\n";
  s.vs = fx.passthrough_vs(1);
  s.vs.tiers = std::make_shared<TieredProgram>(
      test_program_cache(), stage_program_source(vs, "vertex.cl"), ProgramTierMode::kAuto,
      std::vector<size_t>{runtime::Queue::kGroup1d});
  REQUIRE_FALSE(s.vs.tiers->optimised());
  s.vs.program = s.vs.tiers->current();
  s.fs = fx.custom_fs({},
                      "  io->out[0][0] = (vf)(0.25f); io->out[0][1] = (vf)(0.5f);\n"
                      "  io->out[0][2] = (vf)(0.75f); io->out[0][3] = (vf)(0.125f);\n");
  s.cbufs[0] = fx.target(Format::R8G8B8A8_UNORM, kW, kH);
  fx.set_vertices(s, {-1, -1, 0, 1, 3, -1, 0, 1, -1, 3, 0, 1}, 4, {Format::R32G32B32A32_FLOAT});
  fx.pipeline().draw(s, DrawInfo{}, DrawStartCountBias{0, 3, 0}, 0);
  const uint64_t first = s.vs.tiers->quick_device_ns();
  CHECK(first > 0);
  fx.pipeline().draw(s, DrawInfo{}, DrawStartCountBias{0, 3, 0}, 0);
  CHECK(s.vs.tiers->quick_device_ns() > first);
  CHECK(fx.read(s.cbufs[0], kW, kH).pixel(3, 3)[1] == 128);
}

TEST_CASE("tiered programs: an optimised build that fails leaves the quick program drawing",
          "[draw][tiers]") {
  runtime::ProgramCache cache(test_device(), "");
  // Clang defines __OPTIMIZE__ only when it optimises: the optimised build fails.
  const std::string source =
      "#ifdef __OPTIMIZE__\n#error this test's program has no optimised build\n#endif\n"
      "kernel void k(global int* p) { p[0] = 1; }\n";
  TieredProgram t(cache, source, ProgramTierMode::kAuto, {64});
  const runtime::ProgramRef quick = t.current();
  // stderr into a file while the scenes run: the failure is logged once.
  CaptureStderr capture;
  REQUIRE(capture.capturing());
  std::vector<runtime::ProgramRef> drawn;
  t.add_device_time(quick, TieredProgram::kDueDeviceNs);
  for (uint64_t scene = 1; scene <= 4; ++scene) {
    drawn.push_back(t.select(scene));
    t.wait_for_build();
  }
  const std::string text = capture.text();
  for (const runtime::ProgramRef& p : drawn)
    CHECK(p == quick);
  CHECK_FALSE(t.optimised());
  // One failed attempt, not one per scene.
  CHECK(cache.stats().builds == 1);
  const std::string line = "optimised program failed to build";
  INFO("stderr: " << text);
  const size_t first = text.find(line);
  CHECK(first != std::string::npos);
  CHECK(text.find(line, first + 1) == std::string::npos);
  CHECK_THROWS(cache.get(source));
}

TEST_CASE("tiered programs: an interpreter that fails to build leaves the quick program drawing",
          "[draw][tiers]") {
  runtime::ProgramCache cache(test_device(), "");
  const std::string source = "kernel void k(global int* p) { p[0] = 1; }\n";
  // A source of its own (no other test builds it), which does not build.
  const std::string interpreter = "#error this test's interpreter does not build\n" + source;
  CaptureStderr capture;
  REQUIRE(capture.capturing());
  TieredProgram first(cache, source, ProgramTierMode::kAuto, {64}, interpreter);
  CHECK_FALSE(first.interpreted());
  CHECK(built_quick(first.current()));
  const uint64_t builds = cache.stats().builds;
  // Another shader of the same interpreter is compiled without trying it again.
  TieredProgram second(cache, source, ProgramTierMode::kAuto, {64}, interpreter);
  CHECK_FALSE(second.interpreted());
  CHECK(second.current() == first.current());
  CHECK(cache.stats().builds == builds);
  const std::string text = capture.text();
  INFO("stderr: " << text);
  const std::string line = "shader interpreter program failed to build";
  const size_t at = text.find(line);
  CHECK(at != std::string::npos);
  CHECK(text.find(line, at + 1) == std::string::npos);
  // A working interpreter source draws interpreted.
  TieredProgram third(cache, source, ProgramTierMode::kAuto, {64}, "// interpreted\n" + source);
  CHECK(third.interpreted());
  CHECK(built_quick(third.current()));
}

TEST_CASE(
    "tiered programs: the interpreter's optimised build draws where the cache has it, and "
    "kWarmUp builds it and no shader's optimised program",
    "[draw][tiers]") {
  runtime::ProgramCache cache(test_device(), "");
  const std::string source = "kernel void k(global int* p) { p[0] = 7; }\n";
  const std::string interpreter = "// interpreted, the warm-up's test\n" + source;
  // Before a warm-up: the interpreter's quick build.
  TieredProgram cold(cache, source, ProgramTierMode::kAuto, {64}, interpreter);
  CHECK(cold.interpreted());
  CHECK(built_quick(cold.current()));

  // clpipe-vtest --warm-cache: the interpreter optimised, and however much it draws, the
  // shader's own optimised program is never built.
  TieredProgram warm_up(cache, source, ProgramTierMode::kWarmUp, {64}, interpreter);
  CHECK(warm_up.interpreted());
  const runtime::ProgramRef fast = warm_up.current();
  CHECK_FALSE(built_quick(fast));
  const uint64_t builds = cache.stats().builds;
  CHECK(builds == 2);
  warm_up.add_device_time(fast, TieredProgram::kDueDeviceNs);
  for (uint64_t scene = 1; scene <= 3; ++scene) {
    CHECK(warm_up.select(scene) == fast);
    warm_up.wait_for_build();
  }
  CHECK_FALSE(warm_up.optimised());
  CHECK(cache.stats().builds == builds);

  // After it, a shader of the same prelude starts with the optimised interpreter, and
  // still gets its own optimised program once due: later than after the quick
  // interpreter, as it saves less over this one.
  CHECK(cold.due_device_ns() == TieredProgram::kDueDeviceNs);
  TieredProgram after(cache, source, ProgramTierMode::kAuto, {64}, interpreter);
  CHECK(after.interpreted());
  CHECK(after.current() == fast);
  CHECK(after.due_device_ns() == TieredProgram::kDueInterpretedDeviceNs);
  CHECK(cache.stats().builds == builds);
  after.add_device_time(fast, TieredProgram::kDueDeviceNs);
  for (uint64_t scene = 1; scene <= 3; ++scene) {
    CHECK(after.select(scene) == fast);
    after.wait_for_build();
  }
  CHECK_FALSE(after.optimised());
  CHECK(cache.stats().builds == builds);
  after.add_device_time(fast, TieredProgram::kDueInterpretedDeviceNs - TieredProgram::kDueDeviceNs);
  CHECK(after.select(4) == fast);
  after.wait_for_build();
  const runtime::ProgramRef own = after.select(5);
  CHECK(after.optimised());
  CHECK(own != fast);
  CHECK(cache.stats().builds == builds + 1);
}

TEST_CASE("tiered programs: optimised builds share the process's slots and are dropped unstarted",
          "[draw][tiers]") {
  runtime::ProgramCache cache(test_device(), "");
  const std::string source = "kernel void k(global int* p) { p[0] = 2; }\n";
  // Builds that hold every slot until `release` is set.
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> holding{0};
  const std::atomic<bool> never{false};
  std::vector<std::future<runtime::ProgramRef>> holders;
  for (int i = 0; i < BackgroundBuilds::slots(); ++i) {
    holders.push_back(std::async(std::launch::async, [&] {
      return BackgroundBuilds::run(never, [&]() -> runtime::ProgramRef {
        ++holding;
        released.wait();
        return nullptr;
      });
    }));
  }
  while (holding < BackgroundBuilds::slots())
    std::this_thread::yield();
  {
    TieredProgram t(cache, source, ProgramTierMode::kAuto, {64});
    // Due: its build waits for a slot, and the scenes go on with the quick program.
    t.add_device_time(t.current(), TieredProgram::kDueDeviceNs);
    CHECK(t.select(1) == t.current());
    CHECK(t.select(2) == t.current());
    CHECK_FALSE(t.optimised());
  }  // destroyed while its build waits: dropped, not run (nor waited for)
  CHECK(cache.stats().builds == 1);
  release.set_value();
  for (auto& h : holders)
    h.wait();
  // With the slots free, a build runs.
  TieredProgram t(cache, source, ProgramTierMode::kAuto, {64});
  t.add_device_time(t.current(), TieredProgram::kDueDeviceNs);
  t.select(1);
  t.wait_for_build();
  CHECK(cache.stats().builds == 2);
  CHECK(t.select(2) != nullptr);
  CHECK(t.optimised());
}

namespace {

// Transcendental, integer and derivative arithmetic in both stages, and a mipmapped,
// linearly filtered texture whose level of detail comes from the derivatives: code whose
// optimised build differs most from the quick one.
const char* kVs =
    "VERT\n"
    "DCL IN[0]\n"
    "DCL IN[1]\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "DCL TEMP[0..1]\n"
    "IMM[0] FLT32 { 1.3, 0.7, 2.1, 0.5 }\n"
    "  0: MOV OUT[0], IN[0]\n"
    "  1: MUL TEMP[0], IN[1].xyxy, IMM[0]\n"
    "  2: SIN TEMP[1].x, TEMP[0].xxxx\n"
    "  3: EX2 TEMP[1].y, TEMP[0].yyyy\n"
    "  4: RSQ TEMP[1].z, TEMP[0].zzzz\n"
    "  5: MAD TEMP[1].w, TEMP[0].wwww, TEMP[0].xxxx, IMM[0].wwww\n"
    "  6: MAD OUT[1], TEMP[1], IMM[0].wwww, IN[1].xyxy\n"
    "  7: END\n";
const char* kFs =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
    "DCL OUT[0], COLOR\n"
    "DCL SAMP[0]\n"
    "DCL SVIEW[0], 2D, FLOAT\n"
    "DCL TEMP[0..3]\n"
    "IMM[0] FLT32 { 7.5, 0.37, 1.7, 255.0 }\n"
    "IMM[1] UINT32 { 2654435761, 13, 255, 0 }\n"
    "  0: TEX TEMP[0], IN[0], SAMP[0], 2D\n"
    "  1: MUL TEMP[1], IN[0].xyxy, IMM[0].xxyz\n"
    "  2: COS TEMP[2].x, TEMP[1].xxxx\n"
    "  3: LG2 TEMP[2].y, TEMP[1].yyyy\n"
    "  4: POW TEMP[2].z, TEMP[1].zzzz, IMM[0].zzzz\n"
    "  5: F2U TEMP[3].x, TEMP[1].xxxx\n"
    "  6: UMUL TEMP[3].x, TEMP[3].xxxx, IMM[1].xxxx\n"
    "  7: USHR TEMP[3].x, TEMP[3].xxxx, IMM[1].yyyy\n"
    "  8: AND TEMP[3].x, TEMP[3].xxxx, IMM[1].zzzz\n"
    "  9: U2F TEMP[3].x, TEMP[3].xxxx\n"
    " 10: DIV TEMP[2].w, TEMP[3].xxxx, IMM[0].wwww\n"
    " 11: DDX TEMP[1], TEMP[2]\n"
    " 12: DDY TEMP[3], TEMP[0]\n"
    " 13: MAD TEMP[0], TEMP[0], TEMP[2], TEMP[1]\n"
    " 14: ADD OUT[0], TEMP[0], TEMP[3]\n"
    " 15: END\n";

// kFs with a SWITCH, which the interpreter does not run: compiled, quick first.
const char* kFsCompiled =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
    "DCL OUT[0], COLOR\n"
    "DCL SAMP[0]\n"
    "DCL SVIEW[0], 2D, FLOAT\n"
    "DCL TEMP[0..3]\n"
    "IMM[0] FLT32 { 7.5, 0.37, 1.7, 255.0 }\n"
    "IMM[1] UINT32 { 2654435761, 13, 255, 0 }\n"
    "IMM[2] INT32 { 1, 0, 0, 0 }\n"
    "  0: TEX TEMP[0], IN[0], SAMP[0], 2D\n"
    "  1: MUL TEMP[1], IN[0].xyxy, IMM[0].xxyz\n"
    "  2: COS TEMP[2].x, TEMP[1].xxxx\n"
    "  3: F2U TEMP[3].x, TEMP[1].xxxx\n"
    "  4: UMUL TEMP[3].x, TEMP[3].xxxx, IMM[1].xxxx\n"
    "  5: AND TEMP[3].x, TEMP[3].xxxx, IMM[2].xxxx\n"
    "  6: SWITCH TEMP[3].xxxx\n"
    "  7: CASE IMM[2].xxxx\n"
    "  8: MUL TEMP[0], TEMP[0], TEMP[2].xxxx\n"
    "  9: BRK\n"
    " 10: ENDSWITCH\n"
    " 11: DDX TEMP[1], TEMP[0]\n"
    " 12: ADD OUT[0], TEMP[0], TEMP[1]\n"
    " 13: END\n";

// Interpreted (compiler::emit_interpreted): arithmetic, a loop with BRK around a
// divergent IF / ELSE, derivatives after it, and a KILL_IF.
const char* kFsInterpreted =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
    "DCL OUT[0], COLOR\n"
    "DCL TEMP[0..3]\n"
    "IMM[0] FLT32 { 7.5, 0.37, 1.7, 0.25 }\n"
    "IMM[1] INT32 { 0, 1, 4, 3 }\n"
    "IMM[2] FLT32 { -0.97, 0.5, 0.0, 1.0 }\n"
    "  0: MUL TEMP[0], IN[0].xyxy, IMM[0].xxyz\n"
    "  1: FRC TEMP[1], TEMP[0]\n"
    "  2: MOV TEMP[2].x, IMM[1].xxxx\n"
    "  3: MOV TEMP[3], IMM[0].wwww\n"
    "  4: BGNLOOP\n"
    "  5:   ISGE TEMP[2].y, TEMP[2].xxxx, IMM[1].zzzz\n"
    "  6:   UIF TEMP[2].yyyy\n"
    "  7:     BRK\n"
    "  8:   ENDIF\n"
    "  9:   UADD TEMP[2].x, TEMP[2].xxxx, IMM[1].yyyy\n"
    " 10:   FSLT TEMP[2].z, TEMP[1].xxxx, IMM[2].yyyy\n"
    " 11:   UIF TEMP[2].zzzz\n"
    " 12:     MAD TEMP[3], TEMP[3], TEMP[1], IMM[0].yyyy\n"
    " 13:   ELSE\n"
    " 14:     COS TEMP[3].xy, TEMP[3].yxxx\n"
    " 15:   ENDIF\n"
    " 16:   FRC TEMP[1], TEMP[1].yzwx\n"
    " 17: ENDLOOP\n"
    " 18: DDX TEMP[0], TEMP[3]\n"
    " 19: DDY TEMP[1].xy, TEMP[1]\n"
    " 20: ADD TEMP[2].w, IN[0].xxxx, IMM[2].xxxx\n"
    " 21: KILL_IF -TEMP[2].wwww\n"
    " 22: ADD TEMP[0], TEMP[0], TEMP[1]\n"
    " 23: ADD OUT[0], TEMP[0], TEMP[3]\n"
    " 24: END\n";

// Draws a full-screen quad with kVs and `fs_tgsi` until the shaders' optimised programs
// draw, and requires the same bits from the first program and the optimised one.
// `interpreted`: whether the fragment shader's first program is the interpreted one (the
// vertex shader's is).
void same_pixels_until_optimised(const char* fs_tgsi, bool interpreted) {
  ScopedEnv tiers("CLPIPE_QUICK_PROGRAMS", "auto");
  // The generic tile program starts its optimised build only when no specialised variant
  // is to come.
  ScopedEnv variants("CLPIPE_TILE_VARIANTS", "generic");
  // A screen with a program cache of its own: the shared one may hold the optimised
  // programs from an earlier run, which would then draw from the start.
  ScreenOptions options;
  options.cache_dir = make_temp_dir("tiers");
  auto made = Screen::create(options);
  REQUIRE(made.status().to_string() == "Ok");
  const std::shared_ptr<Screen> screen = made.value();
  std::unique_ptr<Context> ctx = std::move(screen->context_create().value());
  auto create = [&](const ResourceTemplate& t) {
    auto r = screen->resource_create(t);
    REQUIRE(r.status().to_string() == "Ok");
    return r.value();
  };
  constexpr uint32_t kSize = 1024, kTex = 64;

  ResourceRef rt = create(make_templ(TextureTarget::TEXTURE_2D, Format::R32G32B32A32_FLOAT, kSize,
                                     kSize, 1, 1, 0, Bind::RENDER_TARGET));
  SurfaceTemplate st;
  st.format = Format::R32G32B32A32_FLOAT;
  FramebufferState fb;
  fb.width = fb.height = kSize;
  fb.nr_cbufs = 1;
  fb.cbufs[0] = ctx->create_surface(rt, st).value();
  REQUIRE(ctx->set_framebuffer_state(fb).is_ok());
  REQUIRE(ctx->set_viewport_states(0, {window_viewport(kSize, kSize)}).is_ok());
  ShaderState s;
  s.tgsi = kVs;
  auto vs_made = ctx->create_vs_state(s);
  REQUIRE(vs_made.status().to_string() == "Ok");
  const ShaderHandle vs = vs_made.value();
  s.tgsi = fs_tgsi;
  auto fs_made = ctx->create_fs_state(s);
  REQUIRE(fs_made.status().to_string() == "Ok");
  const ShaderHandle fs = fs_made.value();
  REQUIRE(ctx->bind_vs_state(vs).is_ok());
  REQUIRE(ctx->bind_fs_state(fs).is_ok());
  ctx->bind_rasterizer_state(ctx->create_rasterizer_state(RasterizerState()).value());
  ctx->bind_blend_state(ctx->create_blend_state(BlendState()).value());
  ctx->bind_depth_stencil_alpha_state(
      ctx->create_depth_stencil_alpha_state(DepthStencilAlphaState()).value());
  // A full-screen quad (a strip) whose texture coordinates repeat the texture about 3
  // times, two corners at w = 2 (perspective-correct interpolation).
  const float v[] = {-1, -1, 0, 1, -0.2f, -0.1f, 2, -2, 0, 2, 3.1f, 0,
                     -2, 2,  0, 2, 0,     3.3f,  1, 1,  0, 1, 3.2f, 3.0f};
  ResourceRef vbuf = create(make_templ(TextureTarget::BUFFER, Format::R8_UNORM, sizeof(v), 1, 1, 1,
                                       0, Bind::VERTEX_BUFFER));
  REQUIRE(ctx->buffer_subdata(vbuf, Map::WRITE, 0, sizeof(v), v).is_ok());
  VertexElement pos, tc;
  pos.src_format = Format::R32G32B32A32_FLOAT;
  tc.src_format = Format::R32G32_FLOAT;
  tc.src_offset = 16;
  ctx->bind_vertex_elements_state(ctx->create_vertex_elements_state({pos, tc}).value());
  VertexBuffer vb;
  vb.stride = 24;
  vb.buffer = vbuf;
  REQUIRE(ctx->set_vertex_buffers(0, {vb}).is_ok());
  // A mipmapped RGBA8 texture of hashed texels, sampled trilinearly.
  ResourceRef tex = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, kTex, kTex,
                                      1, 1, 6, Bind::SAMPLER_VIEW));
  for (uint32_t level = 0; level <= 6; ++level) {
    const uint32_t n = kTex >> level;
    std::vector<uint8_t> data(size_t(n) * n * 4);
    for (size_t i = 0; i < data.size(); ++i)
      data[i] = uint8_t((i * 2654435761u + level) >> 7);
    write_box(*ctx, tex, level, Box{0, 0, 0, int(n), int(n), 1}, data);
  }
  SamplerViewTemplate svt;
  svt.format = Format::R8G8B8A8_UNORM;
  svt.last_level = 6;
  REQUIRE(
      ctx->set_sampler_views(ShaderType::FRAGMENT, 0, {ctx->create_sampler_view(tex, svt).value()})
          .is_ok());
  SamplerState smp;
  smp.min_img_filter = smp.mag_img_filter = TexFilter::LINEAR;
  smp.min_mip_filter = TexMipFilter::LINEAR;
  REQUIRE(
      ctx->bind_sampler_states(ShaderType::FRAGMENT, 0, {ctx->create_sampler_state(smp).value()})
          .is_ok());

  DrawInfo strip;
  strip.mode = PrimType::TRIANGLE_STRIP;
  auto draw = [&] {
    REQUIRE(ctx->draw_vbo(strip, 0, nullptr, {DrawStartCountBias{0, 4, 0}}).is_ok());
    return read_box(*ctx, rt, 0, Box{0, 0, 0, int(kSize), int(kSize), 1});
  };
  const auto programs = [](const ShaderHandle& h, const char* name) {
    std::lock_guard<std::mutex> lock(h->compiled->programs_mutex);
    return h->compiled->programs.at(name);
  };
  const std::vector<uint8_t> quick = draw();
  const auto vs_program = programs(vs, "vertex.cl");
  const auto fs_program = programs(fs, "tile.cl");
  CHECK_FALSE(vs_program->tiers->optimised());
  CHECK_FALSE(fs_program->tile_variants->generic_optimised());
  CHECK(vs_program->tiers->interpreted());
  CHECK(fs_program->tile_variants->generic_interpreted() == interpreted);
  // The tile program's launches reach kDueDeviceNs: the next scene starts its build, the
  // one after takes it.
  fs_program->tile_variants->add_device_time(fs_program->tile_variants->generic(),
                                             TieredProgram::kDueDeviceNs);
  CHECK(draw() == quick);
  fs_program->tile_variants->wait_for_builds();
  CHECK(draw() == quick);
  CHECK(fs_program->tile_variants->generic_optimised());
  // The vertex shader's launches (a few scenes of 4 vertices) are far from it: no build
  // started for it.
  vs_program->tiers->wait_for_build();
  CHECK(draw() == quick);
  CHECK(vs_program->tiers->interpreted());
  CHECK_FALSE(vs_program->tiers->optimised());
  // Its time too: the next scene starts its build, the one after takes it.
  vs_program->tiers->add_device_time(vs_program->tiers->current(), TieredProgram::kDueDeviceNs);
  CHECK(draw() == quick);
  vs_program->tiers->wait_for_build();
  const std::vector<uint8_t> optimised = draw();
  CHECK(vs_program->tiers->optimised());
  CHECK(fs_program->tile_variants->generic_optimised());
  CHECK_FALSE(vs_program->tiers->interpreted());
  CHECK_FALSE(fs_program->tile_variants->generic_interpreted());
  // Not a trivial image: colours vary across it.
  std::vector<float> px(optimised.size() / 4);
  std::memcpy(px.data(), optimised.data(), optimised.size());
  CHECK(px[0] != px[(size_t(kSize) * kSize / 2 + kSize / 3) * 4]);
  // Bit for bit.
  CHECK(optimised == quick);
}

}  // namespace

TEST_CASE("tiered programs: a shader draws the same pixels quick and optimised",
          "[draw][tiers][tex]") {
  same_pixels_until_optimised(kFsCompiled, false);
}

TEST_CASE("tiered programs: a textured shader draws the same pixels interpreted and optimised",
          "[draw][tiers][tex]") {
  same_pixels_until_optimised(kFs, true);
}

TEST_CASE("tiered programs: a shader draws the same pixels interpreted and optimised",
          "[draw][tiers]") {
  same_pixels_until_optimised(kFsInterpreted, true);
}

TEST_CASE("tiered programs: compute programs are optimised from the first launch",
          "[draw][tiers][compute]") {
  ScopedEnv tiers("CLPIPE_QUICK_PROGRAMS", "auto");
  std::unique_ptr<Context> ctx = new_context();
  const ComputeHandle cs = bind_compute(*ctx,
                                        "COMP\n"
                                        "DCL SV[0], THREAD_ID\n"
                                        "DCL BUFFER[0]\n"
                                        "DCL TEMP[0]\n"
                                        "IMM[0] UINT32 {4, 7, 0, 0}\n"
                                        "UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
                                        "STORE BUFFER[0].x, TEMP[0].xxxx, IMM[0].yyyy\n"
                                        "END\n");
  const ResourceRef buf = words_resource(*ctx, std::vector<uint32_t>(4, 0));
  bind_buffers(*ctx, {buf});
  launch(*ctx, make_grid({4, 1, 1}, {1, 1, 1}));
  CHECK(read_words(*ctx, buf) == std::vector<uint32_t>(4, 7));
  std::lock_guard<std::mutex> lock(cs->compiled->programs_mutex);
  const auto& program = cs->compiled->programs.at("compute.cl");
  CHECK(program->tiers->optimised());
  CHECK_FALSE(built_quick(program->tiers->current()));
}

namespace {

// Binds a pass-through vertex shader, the default rasterizer and blend states, and a
// strip of 4 vertices covering the viewport at clip-space depth `z`.
void bind_quad(Context& ctx, float z) {
  ShaderState s;
  s.tgsi = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n  1: END\n";
  REQUIRE(ctx.bind_vs_state(ctx.create_vs_state(s).value()).is_ok());
  ctx.bind_rasterizer_state(ctx.create_rasterizer_state(RasterizerState()).value());
  ctx.bind_blend_state(ctx.create_blend_state(BlendState()).value());
  const float v[] = {-1, -1, z, 1, 1, -1, z, 1, -1, 1, z, 1, 1, 1, z, 1};
  ResourceRef vbuf = create_buffer(sizeof(v));
  REQUIRE(ctx.buffer_subdata(vbuf, Map::WRITE, 0, sizeof(v), v).is_ok());
  VertexElement pos;
  pos.src_format = Format::R32G32B32A32_FLOAT;
  ctx.bind_vertex_elements_state(ctx.create_vertex_elements_state({pos}).value());
  VertexBuffer vb;
  vb.stride = 16;
  vb.buffer = vbuf;
  REQUIRE(ctx.set_vertex_buffers(0, {vb}).is_ok());
}

// Draws the strip bind_quad() bound.
void draw_quad(Context& ctx) {
  DrawInfo strip;
  strip.mode = PrimType::TRIANGLE_STRIP;
  REQUIRE(ctx.draw_vbo(strip, 0, nullptr, {DrawStartCountBias{0, 4, 0}}).is_ok());
}

// Whether the fragment shader `fs` draws with its interpreted tile program.
bool draws_interpreted(const ShaderHandle& fs) {
  std::lock_guard<std::mutex> lock(fs->compiled->programs_mutex);
  return fs->compiled->programs.at("tile.cl")->tile_variants->generic_interpreted();
}

}  // namespace

TEST_CASE("tiered programs: an interpreted fragment shader's colours reach the buffers it names",
          "[draw][tiers]") {
  // The interpreted program reads which OUT register feeds which colour buffer from the
  // shader's code (CLP_INTERP_H_COLOR), so that shaders with other outputs share it.
  ScopedEnv tiers("CLPIPE_QUICK_PROGRAMS", "auto");
  ScopedEnv variants("CLPIPE_TILE_VARIANTS", "generic");
  std::unique_ptr<Context> ctx = new_context();
  constexpr uint32_t kSize = 16;
  FramebufferState fb;
  fb.width = fb.height = kSize;
  fb.nr_cbufs = 4;
  std::vector<ResourceRef> rts;
  for (unsigned i = 0; i < 4; ++i) {
    rts.push_back(create(make_templ(TextureTarget::TEXTURE_2D, Format::R32G32B32A32_FLOAT, kSize,
                                    kSize, 1, 1, 0, Bind::RENDER_TARGET)));
    SurfaceTemplate st;
    st.format = Format::R32G32B32A32_FLOAT;
    fb.cbufs[i] = ctx->create_surface(rts.back(), st).value();
  }
  REQUIRE(ctx->set_framebuffer_state(fb).is_ok());
  REQUIRE(ctx->set_viewport_states(0, {window_viewport(kSize, kSize)}).is_ok());
  bind_quad(*ctx, 0.0f);
  // COLOR[1] unwritten; the others in an order of their own.
  ShaderState s;
  s.tgsi =
      "FRAG\nDCL OUT[0], COLOR[2]\nDCL OUT[1], COLOR[0]\nDCL OUT[2], COLOR[3]\n"
      "IMM[0] FLT32 { 0.25, 0.5, 0.75, 1.0 }\n"
      "  0: MOV OUT[0], IMM[0].xxxw\n  1: MOV OUT[1], IMM[0].yyyw\n  2: MOV OUT[2], IMM[0].zzzw\n"
      "  3: END\n";
  const ShaderHandle fs = ctx->create_fs_state(s).value();
  REQUIRE(ctx->bind_fs_state(fs).is_ok());
  ctx->bind_depth_stencil_alpha_state(
      ctx->create_depth_stencil_alpha_state(DepthStencilAlphaState()).value());
  ColorUnion clear{};
  clear.f[0] = clear.f[1] = clear.f[2] = clear.f[3] = 0.125f;
  REQUIRE(ctx->clear(Clear::COLOR0 * 15, nullptr, clear, 1.0, 0).is_ok());
  draw_quad(*ctx);
  CHECK(draws_interpreted(fs));
  const float expected[4] = {0.5f, 0.125f, 0.25f, 0.75f};
  for (unsigned i = 0; i < 4; ++i) {
    INFO("colour buffer " << i);
    const std::vector<uint8_t> bytes =
        read_box(*ctx, rts[i], 0, Box{0, 0, 0, int(kSize), int(kSize), 1});
    std::vector<float> px(bytes.size() / 4);
    std::memcpy(px.data(), bytes.data(), bytes.size());
    for (size_t p = 0; p < px.size(); p += 4) {
      REQUIRE(px[p] == expected[i]);
      REQUIRE(px[p + 3] == (i == 1 ? 0.125f : 1.0f));
    }
  }
}

TEST_CASE("tiered programs: an interpreted fragment shader's depth and stencil reach the tests",
          "[draw][tiers]") {
  // The interpreted program reads the shader's depth and stencil outputs, and whether
  // depth and stencil may run before it, from the shader's code (CLP_INTERP_H_FS): shaders
  // with and without these outputs share it.
  ScopedEnv tiers("CLPIPE_QUICK_PROGRAMS", "auto");
  ScopedEnv variants("CLPIPE_TILE_VARIANTS", "generic");
  std::unique_ptr<Context> ctx = new_context();
  constexpr uint32_t kSize = 16;
  ResourceRef rt = create(make_templ(TextureTarget::TEXTURE_2D, Format::R32G32B32A32_FLOAT, kSize,
                                     kSize, 1, 1, 0, Bind::RENDER_TARGET));
  ResourceRef zs = create(make_templ(TextureTarget::TEXTURE_2D, Format::Z24_UNORM_S8_UINT, kSize,
                                     kSize, 1, 1, 0, Bind::DEPTH_STENCIL));
  FramebufferState fb;
  fb.width = fb.height = kSize;
  fb.nr_cbufs = 1;
  SurfaceTemplate st;
  st.format = Format::R32G32B32A32_FLOAT;
  fb.cbufs[0] = ctx->create_surface(rt, st).value();
  st.format = Format::Z24_UNORM_S8_UINT;
  fb.zsbuf = ctx->create_surface(zs, st).value();
  REQUIRE(ctx->set_framebuffer_state(fb).is_ok());
  REQUIRE(ctx->set_viewport_states(0, {window_viewport(kSize, kSize)}).is_ok());
  // A quad at window depth 0.9, which fails LESS against the cleared 0.5.
  bind_quad(*ctx, 0.8f);
  DepthStencilAlphaState dsa;
  dsa.depth_enabled = true;
  dsa.depth_writemask = true;
  dsa.depth_func = CompareFunc::LESS;
  dsa.stencil[0].enabled = true;
  dsa.stencil[0].func = CompareFunc::ALWAYS;
  dsa.stencil[0].zpass_op = StencilOp::REPLACE;
  dsa.stencil[0].valuemask = dsa.stencil[0].writemask = 0xff;
  ctx->bind_depth_stencil_alpha_state(ctx->create_depth_stencil_alpha_state(dsa).value());
  // Draws with `fs_tgsi` over a framebuffer cleared to depth `clear_depth` and stencil 3;
  // the colour, depth and stencil of pixel (3, 5).
  struct Pixel {
    float red;
    float depth;
    uint32_t stencil;
  };
  auto draw = [&](const std::string& fs_tgsi, double clear_depth) {
    ShaderState s;
    s.tgsi = fs_tgsi;
    const ShaderHandle fs = ctx->create_fs_state(s).value();
    REQUIRE(ctx->bind_fs_state(fs).is_ok());
    ColorUnion clear{};
    REQUIRE(
        ctx->clear(Clear::COLOR0 | Clear::DEPTHSTENCIL, nullptr, clear, clear_depth, 3).is_ok());
    draw_quad(*ctx);
    CHECK(draws_interpreted(fs));
    const Box box{3, 5, 0, 1, 1, 1};
    const std::vector<uint8_t> c = read_box(*ctx, rt, 0, box);
    const std::vector<uint8_t> z = read_box(*ctx, zs, 0, box);
    Pixel p{};
    std::memcpy(&p.red, c.data(), 4);
    p.depth = frontend::unpack_depth(Format::Z24_UNORM_S8_UINT, z.data());
    p.stencil = frontend::unpack_stencil(Format::Z24_UNORM_S8_UINT, z.data());
    return p;
  };
  const std::string head =
      "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 1.0, 0.25, 0.0, 0.0 }\n"
      "IMM[1] UINT32 { 77, 0, 0, 0 }\n";
  // Without exports the quad fails the depth test.
  Pixel p = draw(head + "  0: MOV OUT[0], IMM[0].xxxx\n  1: END\n", 0.5);
  CHECK(p.red == 0.0f);
  CHECK(p.depth == Approx(0.5).epsilon(1e-6));
  CHECK(p.stencil == 3u);
  // Its exported depth 0.25 passes; the exported stencil reference replaces the state's.
  p = draw(head +
               "DCL OUT[1], POSITION\nDCL OUT[2], STENCIL\n  0: MOV OUT[0], IMM[0].xxxx\n"
               "  1: MOV OUT[1].z, IMM[0].yyyy\n  2: MOV OUT[2].y, IMM[1].xxxx\n  3: END\n",
           0.5);
  CHECK(p.red == 1.0f);
  CHECK(p.depth == Approx(0.25).epsilon(1e-6));
  CHECK(p.stencil == 77u);
  // A shader that discards every pixel, where the quad passes: depth and stencil wait for
  // it (before it, they would write 0.9 and the state's reference 0).
  p = draw(head + "  0: MOV OUT[0], IMM[0].xxxx\n  1: KILL\n  2: END\n", 1.0);
  CHECK(p.red == 0.0f);
  CHECK(p.depth == Approx(1.0).epsilon(1e-6));
  CHECK(p.stencil == 3u);
  // Without the discard it passes.
  p = draw(head + "  0: MOV OUT[0], IMM[0].xxxx\n  1: END\n", 1.0);
  CHECK(p.red == 1.0f);
  CHECK(p.depth == Approx(0.9).epsilon(1e-6));
  CHECK(p.stencil == 0u);
}
