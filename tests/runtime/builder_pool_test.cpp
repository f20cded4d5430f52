// BuilderPool (clpipe/screen.h): builder children that several processes' builders share
// (ProgramBuilderOptions::pool_address), replaced when they end, and the fallbacks to a
// builder's own children. clpipe-vtest is the builder executable, as in the server.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "clpipe/screen.h"
#include "runtime/error.h"
#include "runtime/program_builder.h"
#include "runtime/program_cache.h"
#include "support/builder_kernels.h"
#include "support/test_device.h"

#ifdef CLPIPE_VTEST_TOOL

using namespace clpipe;
using namespace clpipe::runtime;

namespace {

ProgramBuilderOptions pool_options(uint32_t timeout_ms = 120000) {
  ProgramBuilderOptions o;
  o.executable = CLPIPE_VTEST_TOOL;
  o.timeout_ms = timeout_ms;
  return o;
}

std::unique_ptr<BuilderPool> start_pool(unsigned children, const ProgramBuilderOptions& o) {
  auto pool = BuilderPool::start(o, test::test_device().description().device_name, children);
  REQUIRE(pool);
  return std::move(pool.value());
}

// Options of a builder that uses `pool` first.
ProgramBuilderOptions using_pool(const BuilderPool& pool, uint32_t timeout_ms = 120000) {
  ProgramBuilderOptions o = pool_options(timeout_ms);
  o.pool_address = pool.address();
  return o;
}

// A scale kernel new to every build here: no cache of a pool child knows it.
std::string scale_kernel(const std::string& tag) {
  return test::scale_kernel(
      tag + " " + std::to_string(::getpid()) + " " +
      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
}

using test::run_scale;
using test::slow_kernel;

// Reaps the pool's ended children until it has started `count` in all, for at most 10 s.
bool wait_for_starts(BuilderPool& pool, uint64_t count) {
  const auto t0 = std::chrono::steady_clock::now();
  while (pool.children_started() < count) {
    if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(10)) return false;
    pool.reap();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

// In a forked process without OpenCL (ProgramBuilder only talks to its children): builds
// `source` with `options` and ends with the builds the pool served, or 100 on an error.
pid_t build_in_process(const ProgramBuilderOptions& options, const std::string& source) {
  const size_t index = test::test_device().index();
  const std::string name = test::test_device().description().device_name;
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  int status = 100;
  try {
    ProgramBuilder builder(options, index, name);
    (void)builder.build(source, "-cl-std=CL1.2");
    status = builder.children_started() == 0 ? int(builder.pool_builds()) : 101;
  } catch (...) {
  }
  ::_exit(status);
}

int exit_status(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("the builders of several processes share a pool's children", "[runtime][builder]") {
  auto pool = start_pool(1, pool_options());
  // Two processes, one after the other, each building once: the pool's one child serves
  // both, and neither starts a child of its own.
  CHECK(exit_status(build_in_process(using_pool(*pool), scale_kernel("first"))) == 1);
  CHECK(exit_status(build_in_process(using_pool(*pool), scale_kernel("second"))) == 1);
  // And this process's cache: programs built by the pool run.
  ProgramCache cache(test::test_device(), "", 512, using_pool(*pool));
  CHECK(run_scale(cache.get(scale_kernel("here")), 3) == std::vector<int>{3, 6, 9, 12});
  CHECK(cache.stats().pool_builds == 1);
  CHECK(cache.stats().children_started == 0);
  // A build error comes back as from a builder's own child.
  CHECK_THROWS_WITH(cache.get("__kernel void broken(__global int* a) { a[0] = nope; }\n"),
                    Catch::Contains("nope"));
  pool->reap();
  CHECK(pool->children_started() == 1);
}

TEST_CASE("a pool child whose requester hangs up mid-build ends and is replaced",
          "[runtime][builder]") {
  auto pool = start_pool(1, pool_options());
  const pid_t requester = build_in_process(using_pool(*pool), slow_kernel());
  std::this_thread::sleep_for(std::chrono::seconds(2));  // the pool child is building
  ::kill(requester, SIGKILL);
  (void)exit_status(requester);
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(wait_for_starts(*pool, 2));
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(3));
  // The new child builds.
  ProgramCache cache(test::test_device(), "", 512, using_pool(*pool));
  CHECK(run_scale(cache.get(scale_kernel("after")), 2) == std::vector<int>{2, 4, 6, 8});
  CHECK(cache.stats().pool_builds == 1);
}

TEST_CASE("a build past its budget in a pool child is stopped", "[runtime][builder]") {
  auto pool = start_pool(1, pool_options());
  {
    // The pool child starts while this waits for it: 1.5 s of processor time covers its
    // start and a cold first build, not the slow source.
    ProgramBuilder builder(using_pool(*pool, 1500), test::test_device().index(),
                           test::test_device().description().device_name);
    try {
      (void)builder.build(slow_kernel(), "-cl-std=CL1.2");
      FAIL("the slow build finished within its budget");
    } catch (const clpipe::Error& e) {
      CHECK(e.code() == ErrorCode::kCompileError);
      CHECK_THAT(e.what(), Catch::Contains("longer than its budget of 1500 ms"));
    }
    CHECK(builder.children_started() == 0);
  }
  CHECK(wait_for_starts(*pool, 2));  // the stopped child was replaced
  ProgramCache cache(test::test_device(), "", 512, using_pool(*pool));
  CHECK(run_scale(cache.get(scale_kernel("after a stop")), 5) == std::vector<int>{5, 10, 15, 20});
  CHECK(cache.stats().pool_builds == 1);
}

TEST_CASE("a builder falls back to children of its own", "[runtime][builder]") {
  SECTION("when the pool serves another device") {
    // The pool's children serve the test device; the builder's is another.
    auto pool = start_pool(1, pool_options());
    ProgramBuilder builder(using_pool(*pool), test::test_device().index(), "no such device");
    CHECK_THROWS_WITH(builder.build(scale_kernel("other device"), "-cl-std=CL1.2"),
                      Catch::Contains("is not \"no such device\" in the builder"));
    CHECK(builder.children_started() == 1);
    CHECK(builder.pool_builds() == 0);
  }
  SECTION("when the pool's children cannot start, and it has closed its address") {
    ProgramBuilderOptions broken = pool_options();
    broken.executable = "/bin/false";
    auto pool = start_pool(1, broken);
    REQUIRE(wait_for_starts(*pool, 3));  // three quick failures: it gives up
    for (int i = 0; i < 50; ++i) {       // the third one's end
      pool->reap();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK(pool->children_started() == 3);
    // Refused: a connection would otherwise wait for a child to take it, up to the
    // build's wall budget (12 s here), and the build would fail.
    ProgramCache cache(test::test_device(), "", 512, using_pool(*pool, 3000));
    CHECK(run_scale(cache.get(scale_kernel("refused")), 2) == std::vector<int>{2, 4, 6, 8});
    CHECK(cache.stats().children_started == 1);
    CHECK(cache.stats().pool_builds == 0);
  }
  SECTION("but not while the pool's children are busy") {
    auto pool = start_pool(1, pool_options());
    const pid_t slow = build_in_process(using_pool(*pool), slow_kernel());
    std::this_thread::sleep_for(std::chrono::seconds(1));  // the pool child is building
    ProgramBuilder builder(using_pool(*pool, 500), test::test_device().index(),
                           test::test_device().description().device_name);
    CHECK_THROWS_WITH(builder.build(scale_kernel("queued"), "-cl-std=CL1.2"),
                      Catch::Contains("no child of its pool took the build within 2000 ms"));
    CHECK(builder.children_started() == 0);
    ::kill(slow, SIGKILL);
    (void)exit_status(slow);
  }
}

TEST_CASE("a builder pool refuses what it cannot start", "[runtime][builder]") {
  CHECK_FALSE(BuilderPool::start(ProgramBuilderOptions{}, "", 1));
  CHECK_FALSE(BuilderPool::start(pool_options(), "", 0));
}

#endif  // CLPIPE_VTEST_TOOL
