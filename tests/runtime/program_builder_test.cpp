// Program builds in a builder child (runtime/program_builder.h): results, build logs,
// the time and memory budgets, reuse of a child, and abandoned builds. clpipe-vtest is
// the builder executable, as in the server.
#include <catch2/catch.hpp>

#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

#include "runtime/error.h"
#include "runtime/program_builder.h"
#include "runtime/program_cache.h"
#include "runtime/queue.h"
#include "support/builder_kernels.h"
#include "support/pocl_kcache.h"
#include "support/scoped_env.h"
#include "support/test_device.h"

#ifdef CLPIPE_VTEST_TOOL

using namespace clpipe;
using namespace clpipe::runtime;

namespace {

ProgramBuilderOptions builder_options(uint32_t timeout_ms = 120000,
                                      uint64_t memory_bytes = uint64_t(2) << 30) {
  ProgramBuilderOptions o;
  o.executable = CLPIPE_VTEST_TOOL;
  o.timeout_ms = timeout_ms;
  o.memory_bytes = memory_bytes;
  return o;
}

using test::run_scale;
using test::scale_kernel;
using test::slow_kernel;

// No child of this process is left, running or unreaped.
bool no_children() {
  return ::waitpid(-1, nullptr, WNOHANG) < 0 && errno == ECHILD;
}

}  // namespace

TEST_CASE("a builder child builds programs that run and serves several builds",
          "[runtime][builder]") {
  ProgramCache cache(test::test_device(), "", 512, builder_options());
  ProgramRef p = cache.get(scale_kernel("child 1"));
  CHECK(run_scale(p, 3) == std::vector<int>{3, 6, 9, 12});
  ProgramRef q = cache.get(scale_kernel("child 2"));
  CHECK(run_scale(q, -1) == std::vector<int>{-1, -2, -3, -4});
  const ProgramCacheStats s = cache.stats();
  CHECK(s.builds == 2);
  CHECK(s.child_builds == 2);
  CHECK(s.children_started == 1);  // the second build reused the idle child
}

TEST_CASE("a builder child that only builds replies first, then writes the disk entry",
          "[runtime][builder]") {
  const Device& dev = test::test_device();
  const std::string dir = test::make_temp_dir("build-only");
  const std::string src = scale_kernel("built only " + std::to_string(::getpid()));
  const std::string opts = "-cl-std=CL1.2 -w";
  ProgramCache cache(dev, dir);  // for the entry's name and to read it back
  const std::string path = cache.disk_path(src, "");
  ProgramBuilder builder(builder_options(), dev.index(), dev.description().device_name);
  builder.build_only(src, opts, path);
  // The entry comes after the reply; the next request waits for it.
  CHECK_FALSE(builder.build(scale_kernel("after the entry"), opts).empty());
  CHECK(std::filesystem::exists(path));
  ProgramRef p = cache.get(src);
  CHECK(p->origin == Program::Origin::kDisk);
  CHECK(run_scale(p, 3) == std::vector<int>{3, 6, 9, 12});
  // A build error comes back as from build().
  CHECK_THROWS_WITH(
      builder.build_only("__kernel void broken(__global int* a) { a[0] = nope; }\n", opts, ""),
      Catch::Contains("nope"));
  CHECK(builder.children_started() == 1);  // one child served all three
}

TEST_CASE("a primed build has generated the code of its launch size when it returns",
          "[runtime][builder]") {
  // The children keep PoCL's kernel cache here: they read POCL_CACHE_DIR when they start
  // (this process read its own at its start).
  const std::string kcache = test::make_temp_dir("primed-kcache");
  test::ScopedEnv pocl_cache("POCL_CACHE_DIR", kcache.c_str());
  const Device& dev = test::test_device();
  ProgramCache cache(dev, test::make_temp_dir("primed"));  // for the entries' names
  ProgramBuilder builder(builder_options(), dev.index(), dev.description().device_name);
  const std::string opts = "-cl-std=CL1.2 -w";
  const std::string tag = "// " + std::to_string(::getpid()) + "\n";
  const std::string primed =
      tag + "kernel void primed(global int* a) { a[get_global_id(0)] = 1; }\n";
  const std::string plain = tag + "kernel void plain(global int* a) { a[get_global_id(0)] = 2; }\n";

  builder.build_primed(primed, opts, cache.disk_path(primed, ""), {64});
  CHECK(std::filesystem::exists(cache.disk_path(primed, "")));  // written before the reply
  builder.build_only(plain, opts, cache.disk_path(plain, ""));
  builder.build_only(tag + "kernel void no_entry(global int* a) { a[0] = 3; }\n", opts, "");
  // A primed child's list of sizes is fixed when it starts: the plain builds took another.
  CHECK(builder.children_started() == 2);
  (void)builder.build(scale_kernel("after " + tag), opts);  // the plain entry is written
  if (dev.generates_code_late()) {
    // PoCL: the code of the primed size, in the folder where this process's launches of
    // the same build look first; the plain build has only the generic function that
    // reading its binary for the entry made, and the build without an entry read none.
    CHECK(test::work_group_functions(kcache, "primed") ==
          std::set<std::string>{"0-0-0", "64-1-1-goffs0-smallgrid"});
    CHECK(test::work_group_functions(kcache, "plain") == std::set<std::string>{"0-0-0"});
    CHECK(test::work_group_functions(kcache, "no_entry").empty());
  }
  // The primed program runs as any other.
  ProgramRef p = cache.get(primed);
  CHECK(p->origin == Program::Origin::kDisk);
  Queue q(dev);
  cl::Buffer b = q.create_buffer(sizeof(int) * 64);
  cl::Kernel& k = q.kernel(p, "primed");
  set_args(k, b);
  q.launch_1d(k, 3, "primed");
  std::vector<int> out(3);
  q.read(b, 0, sizeof(int) * out.size(), out.data());
  CHECK(out == std::vector<int>{1, 1, 1});
}

TEST_CASE("with builder children, a device that caches its builds never hands a binary over",
          "[runtime][builder]") {
  const std::string dir = test::make_temp_dir("builder-disk");
  const std::string src = scale_kernel("handed over " + std::to_string(::getpid()));
  const Device& dev = test::test_device();
  std::string path;
  {
    ProgramCache cache(dev, dir, 512, builder_options());
    ProgramRef p = cache.get(src);
    CHECK(run_scale(p, 5) == std::vector<int>{5, 10, 15, 20});
    path = cache.disk_path(src, "");
    CHECK(cache.stats().child_builds == 1);
    CHECK(cache.stats().child_entries == (dev.generates_code_late() && dev.caches_builds()));
    // The same child writes the entry (build_only); it has when it serves the next build.
    (void)cache.get(scale_kernel("next " + std::to_string(::getpid())));
    CHECK(cache.stats().children_started == 1);
    CHECK(std::filesystem::exists(path));
  }
  ProgramCache fresh(dev, dir);
  ProgramRef p = fresh.get(src);
  CHECK(p->origin == Program::Origin::kDisk);
  CHECK(run_scale(p, 2) == std::vector<int>{2, 4, 6, 8});
}

TEST_CASE("with builder children, a stand-in program's disk entry is a marker",
          "[runtime][builder]") {
  const std::string dir = test::make_temp_dir("builder-marker");
  const std::string src = scale_kernel("stand-in " + std::to_string(::getpid()));
  const Device& dev = test::test_device();
  ProgramHints stand_in;
  stand_in.stand_in = true;
  std::string path;
  {
    ProgramCache cache(dev, dir, 512, builder_options());
    CHECK(run_scale(cache.get(src, "", stand_in), 5) == std::vector<int>{5, 10, 15, 20});
    path = cache.disk_path(src, "");
    // Written by this process as the build returned: no binary was read for it where the
    // device caches its builds (the header alone); elsewhere the binary the child made.
    const bool marker = dev.generates_code_late() && dev.caches_builds();
    CHECK(cache.stats().child_entries == 0);
    REQUIRE(std::filesystem::exists(path));
    CHECK((std::filesystem::file_size(path) == 88) == marker);
  }
  ProgramCache fresh(dev, dir);
  ProgramRef p = fresh.get(src);
  CHECK(p->origin == Program::Origin::kDisk);
  CHECK(fresh.stats().builds == 0);
  CHECK(run_scale(p, 2) == std::vector<int>{2, 4, 6, 8});
}

TEST_CASE("a builder child's build log reaches the caller and the next build works",
          "[runtime][builder]") {
  ProgramCache cache(test::test_device(), "", 512, builder_options());
  try {
    cache.get("__kernel void broken(__global int* a) { a[0] = undeclared_name; }\n");
    FAIL("the broken source built");
  } catch (const clpipe::Error& e) {
    CHECK(e.code() == ErrorCode::kCompileError);
    CHECK_THAT(e.what(), Catch::Contains("clBuildProgram") && Catch::Contains("undeclared_name"));
  }
  CHECK(run_scale(cache.get(scale_kernel("after a log")), 2) == std::vector<int>{2, 4, 6, 8});
}

TEST_CASE("a build past its time budget is stopped and its child killed", "[runtime][builder]") {
  const DeviceDescription& d = test::test_device().description();
  {
    // Starting a child alone takes longer than 200 ms; the slow source, tens of seconds.
    ProgramBuilder builder(builder_options(200), test::test_device().index(), d.device_name);
    const auto t0 = std::chrono::steady_clock::now();
    try {
      builder.build(slow_kernel(), "-cl-std=CL1.2");
      FAIL("the build finished within 200 ms");
    } catch (const clpipe::Error& e) {
      CHECK(e.code() == ErrorCode::kCompileError);
      CHECK_THAT(e.what(), Catch::Contains("longer than its budget of 200 ms"));
    }
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
    CHECK(no_children());
  }
  // A budget that fits builds on.
  ProgramCache cache(test::test_device(), "", 512, builder_options());
  CHECK(run_scale(cache.get(scale_kernel("after a timeout")), 5) ==
        std::vector<int>{5, 10, 15, 20});
}

namespace {

// Whether process `pid` (a /proc entry) runs the builder: "--build-program" is among the
// NUL-separated words of its command line.
bool runs_builder(const char* pid) {
  char path[300];
  std::snprintf(path, sizeof path, "/proc/%s/cmdline", pid);
  FILE* f = std::fopen(path, "r");
  if (!f) return false;
  char text[4097];
  const size_t n = std::fread(text, 1, sizeof text - 1, f);
  std::fclose(f);
  text[n] = '\0';
  for (size_t i = 0; i < n; i += std::strlen(text + i) + 1) {
    if (std::strcmp(text + i, "--build-program") == 0) return true;
  }
  return false;
}

// A running builder child of this process, or -1. Only a child that has started the
// builder (its command line names --build-program) counts: posix_spawn's parent waits
// until its child has exec'ed, so a child stopped before that would hang the parent.
pid_t running_child() {
  DIR* proc = ::opendir("/proc");
  if (!proc) return -1;
  pid_t found = -1;
  while (const dirent* e = ::readdir(proc)) {
    char path[300], text[512];
    std::snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
    FILE* f = std::fopen(path, "r");
    if (!f) continue;
    const size_t n = std::fread(text, 1, sizeof text - 1, f);
    std::fclose(f);
    text[n] = '\0';
    const char* rest = std::strrchr(text, ')');
    char state = 0;
    int ppid = 0;
    if (rest && std::sscanf(rest + 1, " %c %d", &state, &ppid) == 2 && ppid == ::getpid() &&
        state != 'Z' && runs_builder(e->d_name)) {
      found = std::atoi(e->d_name);
      break;
    }
  }
  ::closedir(proc);
  return found;
}

// A build of a new kernel on a thread of its own, its builder child held stopped
// (SIGSTOP) from when it appears, as a loaded machine or a stalled driver may hold it.
struct HeldBuild {
  std::vector<unsigned char> binary;
  std::string error;
  pid_t child = -1;
  std::thread thread;

  HeldBuild(ProgramBuilder& builder, const std::string& tag) {
    thread = std::thread([this, &builder, tag] {
      try {
        binary =
            builder.build(scale_kernel(tag + " " + std::to_string(::getpid())), "-cl-std=CL1.2");
      } catch (const clpipe::Error& e) {
        error = e.what();
      }
    });
    const auto t0 = std::chrono::steady_clock::now();
    while (child < 0 && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5))
      child = running_child();
    if (child > 0) ::kill(child, SIGSTOP);
  }
  ~HeldBuild() { join(); }
  void join() {
    if (thread.joinable()) thread.join();
  }
};

}  // namespace

TEST_CASE("a build slowed by a loaded machine is not stopped", "[runtime][builder]") {
  // Held past its budget, the child uses little processor time, which is what the
  // budget counts. The budget leaves room for a cold child: PoCL's start and first build
  // take up to ~1.5 s of processor time.
  constexpr uint32_t kBudgetMs = 5000;
  ProgramBuilder builder(builder_options(kBudgetMs), test::test_device().index(),
                         test::test_device().description().device_name);
  const auto t0 = std::chrono::steady_clock::now();
  HeldBuild b(builder, "held");
  REQUIRE(b.child > 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(kBudgetMs + 1000));
  ::kill(b.child, SIGCONT);
  b.join();
  CHECK(b.error.empty());
  CHECK(!b.binary.empty());
  CHECK(std::chrono::steady_clock::now() - t0 > std::chrono::milliseconds(kBudgetMs + 1000));
}

TEST_CASE("a thread's waits for builder children are counted in its clock", "[runtime][builder]") {
  ProgramBuilder builder(builder_options(), test::test_device().index(),
                         test::test_device().description().device_name);
  BuildWaitClock clock;
  int64_t waited = 0;
  {
    const BuildWaitClock::Scope scope(clock);
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(!builder.build(scale_kernel("clock"), "-cl-std=CL1.2").empty());
    const int64_t wall_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    // The whole build was waited for (the clock's ms and this one round apart).
    waited = clock.waited_ms();
    CHECK(waited > 0);
    CHECK(waited <= wall_ms + 1);
    CHECK(waited >= wall_ms - 20);
    // Another thread's build is not this thread's wait.
    std::thread([&builder] {
      builder.build(scale_kernel("other thread"), "-cl-std=CL1.2");
    }).join();
    CHECK(clock.waited_ms() == waited);
  }
  // Nor is a build after the scope.
  builder.build(scale_kernel("after"), "-cl-std=CL1.2");
  CHECK(clock.waited_ms() == waited);
}

TEST_CASE("a build that stalls is stopped at four budgets of wall time", "[runtime][builder]") {
  // A child that computes nothing never reaches its processor-time budget; the wall-time
  // limit stops it, and ~Child reaps it.
  {
    ProgramBuilder builder(builder_options(300), test::test_device().index(),
                           test::test_device().description().device_name);
    HeldBuild b(builder, "stalled");
    REQUIRE(b.child > 0);
    b.join();
    CHECK_THAT(b.error, Catch::Contains("took longer than 1200 ms of wall time"));
  }
  CHECK(no_children());
}

TEST_CASE("a build past its memory budget fails with a clear error", "[runtime][builder]") {
  ProgramBuilder builder(builder_options(120000, uint64_t(64) << 20), test::test_device().index(),
                         test::test_device().description().device_name);
  try {
    builder.build(scale_kernel("64 MiB"), "-cl-std=CL1.2");
    FAIL("the build fitted in 64 MiB");
  } catch (const clpipe::Error& e) {
    CHECK(e.code() == ErrorCode::kCompileError);
    CHECK_THAT(e.what(), Catch::Contains("memory budget of 64 MiB"));
  }
  CHECK(no_children());
}

TEST_CASE("a child that replies a failure is not kept", "[runtime][builder]") {
  // The child cannot find this device and says so; it may have no context left to build
  // with, so it must not wait, unreaped, for a next build.
  ProgramBuilder builder(builder_options(), test::test_device().index(), "no such device");
  try {
    builder.build(scale_kernel("no device"), "-cl-std=CL1.2");
    FAIL("the child found the device");
  } catch (const clpipe::Error& e) {
    CHECK(e.code() == ErrorCode::kCompileError);
    CHECK_THAT(e.what(), Catch::Contains("is not \"no such device\" in the builder"));
  }
  CHECK(no_children());
}

TEST_CASE("a build whose requester has gone is abandoned", "[runtime][builder]") {
  const size_t index = test::test_device().index();
  const std::string name = test::test_device().description().device_name;
  // Orphans are reparented to this process, so the builder child can be reaped here.
  REQUIRE(::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
  const pid_t requester = ::fork();
  REQUIRE(requester >= 0);
  if (requester == 0) {
    // No OpenCL here: ProgramBuilder only spawns and talks to its child.
    try {
      ProgramBuilder(builder_options(), index, name).build(slow_kernel(), "-cl-std=CL1.2");
    } catch (...) {
    }
    ::_exit(0);
  }
  std::this_thread::sleep_for(std::chrono::seconds(2));  // the child is building now
  ::kill(requester, SIGKILL);
  const auto t0 = std::chrono::steady_clock::now();
  int reaped = 0;
  while (std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10)) {
    const pid_t pid = ::waitpid(-1, nullptr, WNOHANG);
    if (pid < 0) break;  // no child left
    if (pid > 0) ++reaped;
    if (pid == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(reaped == 2);  // the requester and its builder
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(3));
  ::prctl(PR_SET_CHILD_SUBREAPER, 0);
}

#endif  // CLPIPE_VTEST_TOOL
