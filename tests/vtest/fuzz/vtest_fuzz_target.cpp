// libFuzzer target of the vtest server (issue 17 item 7): libFuzzer's bytes are one
// client's stream, served by the real Connection and decoder over the fake screen (no
// OpenCL device), with the size limits of tests/vtest/fuzz_test.cpp. Built only with
// -DCLPIPE_FUZZ=ON (clang++, ASan and UBSan; tests/vtest/fuzz/CMakeLists.txt).
//
// A finding is any sanitizer report, or one of the two checks the fakes make possible:
// an invalid argument that reached the Gallium-style API (the decoder must refuse it
// first) and an object the connection left alive after it ended.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "vtest/connection.h"
#include "vtest/fake_context.h"
#include "vtest/log.h"
#include "vtest/transport.h"

using namespace clpipe;
using namespace clpipe::frontend::vtest;
using namespace clpipe::vtest_fake;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Rejections are expected and logged once per stream: keep libFuzzer's output readable.
  set_log_sink([](LogLevel, const std::string&) {});
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto log = std::make_shared<FakeLog>();
  ConnectionOptions opts;
  opts.limits.max_client_bytes = 64u << 20;
  opts.limits.max_inline_transfer_bytes = 1u << 20;
  opts.limits.max_shader_bytes = 1u << 20;
  opts.limits.max_pending_shader_bytes = 2u << 20;
  {
    MemoryTransport t(true);
    Connection c(
        t,
        [log]() -> Result<std::shared_ptr<Screen>> {
          return std::shared_ptr<Screen>(std::make_shared<FakeScreen>(gl33_config(), log));
        },
        opts, "fuzz");
    t.push(data, size);
    while (c.serve_one()) {
    }
    for (int fd : t.take_fds())
      close(fd);
  }
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
