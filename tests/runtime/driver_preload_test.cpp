#include <dlfcn.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <string>
#include <vector>

#include "runtime/driver_preload.h"
#include "support/test_device.h"

using clpipe::runtime::driver_libraries;
using clpipe::runtime::DriverSources;
using clpipe::runtime::preload_drivers;

namespace {

void write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

}  // namespace

TEST_CASE("driver_libraries reads the ICD loader's vendor files", "[runtime][preload]") {
  const std::string dir = clpipe::test::make_temp_dir("icd");
  write(dir + "/b.icd", "  /opt/b/libb.so \n# not read: only the first line names the library\n");
  write(dir + "/a.icd", "liba.so.1\n");
  write(dir + "/c.icd", "liba.so.1\n");  // the same library twice: loaded once
  write(dir + "/notes.txt", "libnot-an-icd.so\n");
  write(dir + "/empty.icd", "");
  DriverSources s;
  s.vendors_dir = dir;
  CHECK(driver_libraries(s) == std::vector<std::string>{"liba.so.1", "/opt/b/libb.so"});

  SECTION("a list of file names replaces the folder") {
    s.filenames = "libx.so: liby.so::libx.so";
    CHECK(driver_libraries(s) == std::vector<std::string>{"libx.so", "liby.so"});
  }
  SECTION("in place of the folder, one .icd file or a library") {
    s.vendors_dir = dir + "/b.icd";
    CHECK(driver_libraries(s) == std::vector<std::string>{"/opt/b/libb.so"});
    s.vendors_dir = "/opt/c/libc-icd.so";
    CHECK(driver_libraries(s) == std::vector<std::string>{"/opt/c/libc-icd.so"});
  }
  SECTION("an .icd file or folder that does not exist names none") {
    s.vendors_dir = dir + "/missing.icd";
    CHECK(driver_libraries(s).empty());
    s.vendors_dir = dir + "/missing";
    CHECK(driver_libraries(s).empty());
  }
}

TEST_CASE("preload_drivers leaves the drivers loaded and reports those that do not load",
          "[runtime][preload]") {
  const std::string stub = CLPIPE_TEST_DRIVER_STUB;
  // Nothing else loads the stub: before, it is not in the process.
  REQUIRE(::dlopen(stub.c_str(), RTLD_LAZY | RTLD_NOLOAD) == nullptr);
  const std::string dir = clpipe::test::make_temp_dir("icd");
  write(dir + "/stub.icd", stub + "\n");
  write(dir + "/zz-missing.icd", "libclpipe-no-such-driver.so\n");
  DriverSources s;
  s.vendors_dir = dir;
  std::string failures;
  CHECK(preload_drivers(s, &failures) == 1);
  CHECK(failures.find("libclpipe-no-such-driver.so: ") == 0);
  CHECK(failures.find(stub) == std::string::npos);
  void* handle = ::dlopen(stub.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  REQUIRE(handle != nullptr);
  using Marker = int (*)();
  const auto marker = reinterpret_cast<Marker>(::dlsym(handle, "clpipe_driver_stub_marker"));
  REQUIRE(marker != nullptr);
  CHECK(marker() == 42);
  ::dlclose(handle);  // the RTLD_NOLOAD reference only: preload_drivers' stays
  CHECK(::dlopen(stub.c_str(), RTLD_LAZY | RTLD_NOLOAD) != nullptr);
}
