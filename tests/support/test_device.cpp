#include "support/test_device.h"

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <vector>

#include <unistd.h>

namespace clpipe::test {

runtime::Device& test_device() {
  static std::unique_ptr<runtime::Device> device = [] {
    const char* req = std::getenv("CLPIPE_DEVICE");
    auto candidates = runtime::enumerate_devices();
    return std::make_unique<runtime::Device>(runtime::select_device(candidates, req ? req : ""));
  }();
  return *device;
}

runtime::ProgramCache& test_program_cache() {
  static runtime::ProgramCache cache(test_device(), runtime::ProgramCache::default_disk_dir());
  return cache;
}

namespace {
struct TempDirs {
  std::vector<std::filesystem::path> dirs;
  ~TempDirs() {
    std::error_code ec;
    for (auto& d : dirs)
      std::filesystem::remove_all(d, ec);
  }
};
TempDirs& temp_dirs() {
  static TempDirs t;
  return t;
}
}  // namespace

std::string make_temp_dir(const std::string& tag) {
  static std::mutex m;
  std::lock_guard<std::mutex> lock(m);
  auto base = std::filesystem::temp_directory_path();
  for (int i = 0;; ++i) {
    auto p =
        base / ("clpipe-test-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(i));
    if (std::filesystem::create_directory(p)) {
      temp_dirs().dirs.push_back(p);
      return p.string();
    }
  }
}

}  // namespace clpipe::test
