// Shared OpenCL objects for tests: one device per test process, chosen like a Screen
// chooses ($CLPIPE_DEVICE, else first GPU, else first device).
#pragma once

#include <string>

#include "runtime/device.h"
#include "runtime/program_cache.h"

namespace clpipe::test {

runtime::Device& test_device();
// A program cache on the test cache folder ($CLPIPE_CACHE_DIR, set by CTest).
runtime::ProgramCache& test_program_cache();
// A fresh empty folder under the system temp dir, removed at process exit.
std::string make_temp_dir(const std::string& tag);

}  // namespace clpipe::test
