// libFuzzer target of the vtest server (issue 17 item 7): libFuzzer's bytes are one
// client's stream, served by the real Connection and decoder over the fake screen (no
// OpenCL device) as in tests/vtest/fuzz_test.cpp (vtest/fuzz_stream.h). Built only with
// -DCLPIPE_FUZZ=ON (clang++, ASan and UBSan; tests/vtest/fuzz/CMakeLists.txt).
//
// A finding is any sanitizer report, or one of the two checks the fakes make possible:
// an invalid argument that reached the Gallium-style API (the decoder must refuse it
// first) and an object the connection left alive after it ended.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "vtest/fuzz_stream.h"
#include "vtest/log.h"

using namespace clpipe::frontend::vtest;
using namespace clpipe::vtest_fake;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Rejections are expected and logged once per stream: keep libFuzzer's output readable.
  set_log_sink([](LogLevel, const std::string&) {});
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto log = std::make_shared<FakeLog>();
  serve_fuzz_stream(data, size, log);
  if (!log->violations.empty()) {
    std::fprintf(stderr, "vtest fuzz: an invalid argument reached the API: %s\n",
                 log->violations.front().c_str());
    std::abort();
  }
  log->release_records();
  if (!log->leak_free()) {
    std::fprintf(stderr, "vtest fuzz: the connection left objects alive\n");
    std::abort();
  }
  return 0;
}
