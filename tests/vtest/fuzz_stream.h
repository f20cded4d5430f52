// One client's byte stream served by the real Connection and decoder over the fake screen,
// with the size limits both vtest fuzzers use: the deterministic mutator
// (tests/vtest/fuzz_test.cpp) and the libFuzzer target (tests/vtest/fuzz/). No Catch2
// here, so the libFuzzer build can include it.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <memory>

#include "vtest/connection.h"
#include "vtest/fake_context.h"
#include "vtest/transport.h"

namespace clpipe::vtest_fake {

// Serves `data` until the connection ends; the screen's calls go to `log`. Returns
// whether the connection ended with a protocol error.
inline bool serve_fuzz_stream(const uint8_t* data, size_t size, std::shared_ptr<FakeLog> log) {
  using namespace clpipe::frontend::vtest;
  ConnectionOptions opts;
  opts.limits.max_client_bytes = 64u << 20;
  opts.limits.max_inline_transfer_bytes = 1u << 20;
  opts.limits.max_shader_bytes = 1u << 20;
  opts.limits.max_pending_shader_bytes = 2u << 20;
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
  return !c.error().empty();
}

}  // namespace clpipe::vtest_fake
