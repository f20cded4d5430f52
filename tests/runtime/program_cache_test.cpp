// Program cache: builds, memory and disk hits, corrupt entries, build errors.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "runtime/error.h"
#include "runtime/program_cache.h"
#include "runtime/queue.h"
#include "support/capture_stderr.h"
#include "support/test_device.h"

using namespace clpipe;
using namespace clpipe::runtime;

namespace {

// A unique source per test so that no other test's cache entries interfere.
std::string add_kernel(const std::string& tag) {
  return "// " + tag +
         "\n__kernel void add(__global int* a, int v) { a[get_global_id(0)] += v; }\n";
}

std::vector<int> run_add(const ProgramRef& p, int v) {
  Queue q(test::test_device());
  std::vector<int> data = {1, 2, 3, 4};
  cl::Buffer b = q.create_buffer(sizeof(int) * data.size());
  q.write(b, 0, sizeof(int) * data.size(), data.data(), true);
  cl::Kernel& k = q.kernel(p, "add");
  set_args(k, b, v);
  q.launch(k, {data.size()}, {}, "add");
  q.read(b, 0, sizeof(int) * data.size(), data.data());
  return data;
}

}  // namespace

TEST_CASE("a built program runs, and a second request hits the memory cache", "[runtime][cache]") {
  ProgramCache cache(test::test_device(), "");
  CHECK_FALSE(cache.contains(add_kernel("memory")));
  ProgramRef p = cache.get(add_kernel("memory"));
  CHECK(cache.contains(add_kernel("memory")));
  CHECK(p->origin == Program::Origin::kSource);
  CHECK(run_add(p, 10) == std::vector<int>{11, 12, 13, 14});
  ProgramRef again = cache.get(add_kernel("memory"));
  CHECK(again.get() == p.get());
  CHECK(cache.stats().memory_hits == 1);
  CHECK(cache.stats().builds == 1);
  // Different options are a different program.
  ProgramRef other = cache.get(add_kernel("memory"), "-DFOO=1");
  CHECK(other.get() != p.get());
  CHECK(cache.stats().builds == 2);
}

TEST_CASE("a program loaded from disk keeps the options that set how it runs", "[runtime][cache]") {
  // -cl-denorms-are-zero (the shader programs' option) changes how PoCL runs the kernels:
  // a binary from the disk cache must be built with it too.
  const std::string src =
      "// denorms\n__kernel void scale(__global float* a, float f) {\n"
      "  a[get_global_id(0)] *= f;\n}\n";
  auto scale = [](const ProgramRef& p) {
    Queue q(test::test_device());
    const float in = 1e-30f;
    cl::Buffer b = q.create_buffer(sizeof(float));
    q.write(b, 0, sizeof(float), &in, true);
    cl::Kernel& k = q.kernel(p, "scale");
    set_args(k, b, 1e-10f);
    q.launch(k, {1}, {}, "scale");
    float out = 1.0f;
    q.read(b, 0, sizeof(float), &out);
    return out;
  };
  const std::string dir = test::make_temp_dir("denorms");
  {
    ProgramCache cache(test::test_device(), dir);
    CHECK(scale(cache.get(src, "-cl-denorms-are-zero")) == 0.0f);
  }
  ProgramCache cache(test::test_device(), dir);
  ProgramRef p = cache.get(src, "-cl-denorms-are-zero");
  CHECK(p->origin == Program::Origin::kDisk);
  CHECK(scale(p) == 0.0f);
  // Without it, a device that keeps denormals keeps the product (1e-40).
  cl_device_fp_config fp = 0;
  test::test_device().device().getInfo(CL_DEVICE_SINGLE_FP_CONFIG, &fp);
  if (fp & CL_FP_DENORM) CHECK(scale(cache.get(src)) != 0.0f);
}

TEST_CASE("a fresh cache loads a program from disk", "[runtime][cache]") {
  const std::string dir = test::make_temp_dir("disk");
  const std::string src = add_kernel("disk");
  {
    ProgramCache cache(test::test_device(), dir);
    ProgramRef p = cache.get(src);
    CHECK(p->origin == Program::Origin::kSource);
    CHECK(std::filesystem::exists(cache.disk_path(src, "")));
  }
  ProgramCache cache(test::test_device(), dir);
  // contains(): on disk, with nothing in memory; not for other options.
  CHECK(cache.contains(src));
  CHECK_FALSE(cache.contains(src, "-DFOO=1"));
  CHECK_FALSE(ProgramCache(test::test_device(), "").contains(src));
  ProgramRef p = cache.get(src);
  CHECK(p->origin == Program::Origin::kDisk);
  CHECK(cache.stats().disk_hits == 1);
  CHECK(cache.stats().builds == 0);
  CHECK(run_add(p, -1) == std::vector<int>{0, 1, 2, 3});
}

TEST_CASE("a cache waits for another process's build of the same entry and reads it",
          "[runtime][cache]") {
  const std::string dir = test::make_temp_dir("entry-lock");
  const std::string other = test::make_temp_dir("entry-lock-other");
  const std::string src = add_kernel("entry lock");
  ProgramCache cache(test::test_device(), dir);
  const std::string entry = cache.disk_path(src, "");
  // Another process builds the entry: it holds the entry's lock.
  const int fd = ::open((entry + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  REQUIRE(fd >= 0);
  REQUIRE(::flock(fd, LOCK_EX) == 0);
  auto got = std::async(std::launch::async, [&] { return cache.get(src); });
  CHECK(got.wait_for(std::chrono::milliseconds(500)) == std::future_status::timeout);
  // It writes the entry (the binary of a build by a cache of another folder), then lets
  // go.
  {
    ProgramCache builder(test::test_device(), other);
    std::vector<std::vector<unsigned char>> binaries;
    REQUIRE(builder.get(src)->program.getInfo(CL_PROGRAM_BINARIES, &binaries) == CL_SUCCESS);
    REQUIRE(write_program_entry(entry, binaries.at(0)));
  }
  ::close(fd);
  const ProgramRef p = got.get();
  CHECK(p->origin == Program::Origin::kDisk);
  CHECK(cache.stats().entry_waits == 1);
  CHECK(cache.stats().builds == 0);
  CHECK(run_add(p, 2) == std::vector<int>{3, 4, 5, 6});
  // Nobody holds it now: a build of another source takes its lock without waiting.
  (void)cache.get(add_kernel("entry lock 2"));
  CHECK(cache.stats().entry_waits == 1);
  CHECK(cache.stats().builds == 1);
}

TEST_CASE("corrupt or foreign disk entries are rebuilt, never trusted", "[runtime][cache]") {
  const std::string dir = test::make_temp_dir("corrupt");
  const std::string src = add_kernel("corrupt");
  std::string path;
  {
    ProgramCache cache(test::test_device(), dir);
    (void)cache.get(src);
    path = cache.disk_path(src, "");
  }
  auto read_all = [&] {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  auto write_all = [&](const std::string& s) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << s;
  };
  const std::string good = read_all();
  REQUIRE(good.size() > 100);

  SECTION("a flipped payload byte") {
    std::string bad = good;
    bad[bad.size() / 2] ^= 0x5a;
    write_all(bad);
  }
  SECTION("a truncated file") {
    write_all(good.substr(0, good.size() - 7));
  }
  SECTION("trailing garbage") {
    write_all(good + "xyz");
  }
  SECTION("a bad magic") {
    std::string bad = good;
    bad[0] = 'X';
    write_all(bad);
  }
  SECTION("an entry of another program under this name") {
    const std::string other_src = add_kernel("corrupt-other");
    {
      ProgramCache cache(test::test_device(), dir);
      (void)cache.get(other_src);
      std::filesystem::copy_file(cache.disk_path(other_src, ""), path,
                                 std::filesystem::copy_options::overwrite_existing);
    }
  }
  SECTION("an empty file") {
    write_all("");
  }
  SECTION("a binary entry whose kind says marker") {
    std::string bad = good;
    bad[12] = 1;  // DiskHeader::kind
    write_all(bad);
  }
  SECTION("a marker with trailing bytes") {
    REQUIRE(write_program_marker(path));
    write_all(read_all() + "xyz");
  }
  SECTION("a marker of another program under this name") {
    const std::string other_src = add_kernel("corrupt-other");
    ProgramCache other(test::test_device(), dir);
    const std::string other_path = other.disk_path(other_src, "");
    REQUIRE(write_program_marker(other_path));
    std::filesystem::copy_file(other_path, path, std::filesystem::copy_options::overwrite_existing);
  }

  ProgramCache cache(test::test_device(), dir);
  ProgramRef p = cache.get(src);
  CHECK(p->origin == Program::Origin::kSource);
  CHECK(cache.stats().builds == 1);
  CHECK(run_add(p, 5) == std::vector<int>{6, 7, 8, 9});
  // The rebuilt entry replaced the bad one.
  ProgramCache again(test::test_device(), dir);
  CHECK(again.get(src)->origin == Program::Origin::kDisk);
}

TEST_CASE("a cache folder copied elsewhere keeps its entries", "[runtime][cache]") {
  // A CI cache restored under another home, or a bind mount, moves the folder: the
  // entries' names still say what they hold, so they must still load.
  const std::string dir = test::make_temp_dir("moved-from");
  const std::string src = add_kernel("moved");
  {
    ProgramCache cache(test::test_device(), dir);
    REQUIRE(cache.get(src)->origin == Program::Origin::kSource);
  }
  const std::string moved = test::make_temp_dir("moved-to") + "/cache";
  std::filesystem::copy(dir, moved, std::filesystem::copy_options::recursive);
  ProgramCache cache(test::test_device(), moved);
  ProgramRef p = cache.get(src);
  CHECK(p->origin == Program::Origin::kDisk);
  CHECK(cache.stats().disk_rejects == 0);
  CHECK(cache.stats().builds == 0);
  CHECK(run_add(p, 1) == std::vector<int>{2, 3, 4, 5});
}

TEST_CASE("the system folder lends its binary entries, never its markers, and is only read",
          "[runtime][cache]") {
  // The Debian package's install warms the machine's folder (cmake/deb/postinst.in); a
  // user whose own folder is empty loads from it.
  const std::string system = test::make_temp_dir("system");
  const std::string binary_src = add_kernel("system binary");
  const std::string marker_src = add_kernel("system marker");
  const std::string corrupt_src = add_kernel("system corrupt");
  {
    ProgramCache warm(test::test_device(), system);
    REQUIRE(warm.get(binary_src)->origin == Program::Origin::kSource);
    REQUIRE(warm.get(corrupt_src)->origin == Program::Origin::kSource);
    REQUIRE(write_program_marker(warm.disk_path(marker_src, "")));
  }
  const std::string corrupt_entry =
      ProgramCache(test::test_device(), system).disk_path(corrupt_src, "");
  {
    std::fstream f(corrupt_entry, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(200);
    f.put('\x5a');  // inside the binary: its checksum no longer holds
  }
  auto listing = [](const std::string& dir) {
    std::map<std::string, uintmax_t> files;
    for (const auto& e : std::filesystem::directory_iterator(dir))
      files[e.path().filename().string()] = e.file_size();
    return files;
  };
  const auto system_before = listing(system);

  const std::string user = test::make_temp_dir("system-user") + "/cache";
  ProgramCache cache(test::test_device(), user, 512, {}, system);
  CHECK(cache.contains(binary_src));
  CHECK_FALSE(cache.contains(marker_src));  // a marker there is no program here
  ProgramRef p = cache.get(binary_src);
  CHECK(p->origin == Program::Origin::kDisk);
  CHECK(run_add(p, 2) == std::vector<int>{3, 4, 5, 6});
  CHECK(cache.stats().system_hits == 1);
  CHECK(cache.stats().builds == 0);
  CHECK_FALSE(std::filesystem::exists(cache.disk_path(binary_src, "")));  // not copied

  // The marker names a build in the install's compiler cache: built here, written here.
  CHECK(cache.get(marker_src)->origin == Program::Origin::kSource);
  // The corrupt entry is rejected and rebuilt into the user's folder.
  CHECK(cache.get(corrupt_src)->origin == Program::Origin::kSource);
  CHECK(cache.stats().builds == 2);
  CHECK(cache.stats().disk_rejects == 1);
  CHECK(cache.stats().system_hits == 1);
  CHECK(std::filesystem::file_size(cache.disk_path(corrupt_src, "")) > 88);
  CHECK(listing(system) == system_before);  // read, never written

  // The user's own entry comes first; a folder given as both is the user's (markers count).
  ProgramCache again(test::test_device(), user, 512, {}, system);
  CHECK(again.get(corrupt_src)->origin == Program::Origin::kDisk);
  CHECK(again.stats().system_hits == 0);
  ProgramCache same(test::test_device(), system, 512, {}, system);
  CHECK(same.system_dir().empty());
}

TEST_CASE("a warm-up's cache writes its entries again with the code its launches generated",
          "[runtime][cache]") {
  // PoCL generates a kernel's code for a local size at its first launch of that size and
  // keeps it with the build; the entry written at build time lacks it, and a process with
  // an empty PoCL cache (a user of the system folder) would generate it again.
  auto file = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<char>(std::istreambuf_iterator<char>(in), {});
  };
  auto launch_with_groups_of_2 = [](const ProgramRef& p) {
    Queue q(test::test_device());
    std::vector<int> data = {1, 2, 3, 4};
    cl::Buffer b = q.create_buffer(sizeof(int) * data.size());
    q.write(b, 0, sizeof(int) * data.size(), data.data(), true);
    cl::Kernel& k = q.kernel(p, "add");
    set_args(k, b, 7);
    q.launch(k, {data.size()}, {2}, "add");
    q.read(b, 0, sizeof(int) * data.size(), data.data());
    return data;
  };
  for (const bool warm_up : {false, true}) {
    // Code of each pass's own, never built before: PoCL's cache (keyed by the source
    // without its comments) would have its launches' code.
    const std::string dir = test::make_temp_dir(warm_up ? "rewrite" : "no-rewrite");
    const std::string unique = std::to_string(std::hash<std::string>()(dir) % 1000000007);
    const std::string src =
        "__kernel void add(__global int* a, int v) { a[get_global_id(0)] += v + (" + unique +
        " - " + unique + "); }\n";
    std::string path;
    std::vector<char> written;
    {
      ProgramCache cache(test::test_device(), dir);
      if (warm_up) cache.rewrite_entries_at_end();
      ProgramRef p = cache.get(src);
      path = cache.disk_path(src, "");
      written = file(path);
      REQUIRE(written.size() > 88);
      CHECK(launch_with_groups_of_2(p) == std::vector<int>{8, 9, 10, 11});
    }
    const std::vector<char> at_end = file(path);
    if (warm_up && test::test_device().generates_code_late())
      CHECK(at_end.size() > written.size());  // the groups of 2's code
    else
      CHECK(at_end == written);
    ProgramCache later(test::test_device(), dir);
    ProgramRef p = later.get(src);
    CHECK(p->origin == Program::Origin::kDisk);
    CHECK(later.stats().disk_rejects == 0);
    CHECK(launch_with_groups_of_2(p) == std::vector<int>{8, 9, 10, 11});
  }
}

TEST_CASE("a marker entry is built from source by this process", "[runtime][cache]") {
  // What ProgramCache writes for a builder child's build on a device that caches its own
  // builds (PoCL): no binary, the compiler's cache has the program.
  const std::string dir = test::make_temp_dir("marker");
  const std::string src = add_kernel("marker");
  ProgramCache cache(test::test_device(), dir);
  const std::string path = cache.disk_path(src, "");
  REQUIRE(write_program_marker(path));
  CHECK(std::filesystem::file_size(path) == 88);  // the header alone
  ProgramRef p = cache.get(src);
  CHECK(p->origin == Program::Origin::kDisk);
  CHECK(cache.stats().disk_hits == 1);
  CHECK(cache.stats().builds == 0);
  CHECK(run_add(p, 5) == std::vector<int>{6, 7, 8, 9});
  CHECK(std::filesystem::file_size(path) == 88);  // left as it was
}

TEST_CASE("a source that does not build is a compile error carrying the log", "[runtime][cache]") {
  ProgramCache cache(test::test_device(), "");
  const std::string bad = "__kernel void broken(__global int* a) { a[0] = undeclared_thing; }";
  try {
    (void)cache.get(bad);
    FAIL("expected a build error");
  } catch (const runtime::Error& e) {
    CHECK(e.code() == ErrorCode::kCompileError);
    CHECK(e.cl_status() == CL_BUILD_PROGRAM_FAILURE);
    CHECK(e.build_log().find("undeclared_thing") != std::string::npos);
  }
  // Not cached: asking again builds (and fails) again.
  CHECK_THROWS_AS(cache.get(bad), runtime::Error);
  CHECK(cache.stats().memory_hits == 0);
}

TEST_CASE("the memory cache is bounded", "[runtime][cache]") {
  ProgramCache cache(test::test_device(), "", 2);
  ProgramRef a = cache.get(add_kernel("lru-a"));
  (void)cache.get(add_kernel("lru-b"));
  (void)cache.get(add_kernel("lru-c"));
  CHECK(cache.stats().evictions == 1);
  // "a" was evicted: a new request builds it again (its old object stays valid).
  (void)cache.get(add_kernel("lru-a"));
  CHECK(cache.stats().builds == 4);
  CHECK(run_add(a, 1) == std::vector<int>{2, 3, 4, 5});
}

TEST_CASE("a program that compiles with warnings prints nothing on stderr", "[runtime][cache]") {
  // A source no compiler has seen (so no cache of the device's own skips the compile),
  // with a constant operand of && that clang warns about.
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  const std::string source =
      "// warns " + std::to_string(now) +
      "\n__kernel void warns(__global int* a) { if (a[0] && 4) a[0] = 1; }\n";
  test::CaptureStderr capture;
  REQUIRE(capture.capturing());
  ProgramCache cache(test::test_device(), "");
  bool built = true;
  try {
    (void)cache.get(source);
  } catch (const std::exception&) {
    built = false;
  }
  const std::string printed = capture.text();
  CHECK(built);
  INFO("stderr: " << printed);
  CHECK(printed.find("warning") == std::string::npos);
}
