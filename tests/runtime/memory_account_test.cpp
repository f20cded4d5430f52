// Device memory accounting (src/runtime/memory_account.h): charges and releases, the
// screen's limit and the budget shared by several screens; and through a real screen,
// every buffer counted while it lives and allocations past a limit refused cleanly.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "frontend/frontend_util.h"
#include "runtime/memory_account.h"

using namespace clpipe;
using namespace clpipe::test;
using clpipe::runtime::MemoryAccount;

namespace {

ErrorCode charge_error(MemoryAccount& a, uint64_t bytes, std::string* message = nullptr) {
  try {
    a.charge(bytes);
  } catch (const clpipe::Error& e) {
    if (message) *message = e.what();
    return e.code();
  }
  return ErrorCode::kOk;
}

}  // namespace

TEST_CASE("memory account: charges within the screen's and the shared limits",
          "[runtime][memory]") {
  MemoryAccount a;
  a.charge(1000);
  a.release(400);
  CHECK(a.in_use() == 600);

  MemoryLimits l;
  l.screen_bytes = 1000;
  a.set_limits(l);
  CHECK(charge_error(a, 400) == ErrorCode::kOk);
  std::string message;
  CHECK(charge_error(a, 1, &message) == ErrorCode::kOutOfMemory);
  CHECK_THAT(message, Catch::Contains("memory limit of 1000 bytes"));
  CHECK(a.in_use() == 1000);  // the refused charge counts nothing
  a.release(1000);

  // Three screens share 10000 bytes; another one holds 6000 of them.
  std::atomic<uint64_t> slots[3] = {{0}, {6000}, {0}};
  a.charge(500);
  l.screen_bytes = 0;
  l.slots = slots;
  l.slot_count = 3;
  l.own_slot = 2;
  l.shared_bytes = 10000;
  a.set_limits(l);
  CHECK(slots[2] == 500);  // what it held moved into its slot
  a.charge(3000);
  CHECK(slots[2] == 3500);
  CHECK(charge_error(a, 501, &message) == ErrorCode::kOutOfMemory);
  CHECK_THAT(message, Catch::Contains("shared by all clients"));
  slots[1] = 0;  // the other screen's process ended
  CHECK(charge_error(a, 501) == ErrorCode::kOk);
  a.release(4001);
  CHECK(slots[2] == 0);
  CHECK(a.in_use() == 0);
}

TEST_CASE("screen memory: buffers count while they live and a limit refuses new ones",
          "[runtime][memory][frontend]") {
  auto created = Screen::create();
  REQUIRE(created.is_ok());
  std::shared_ptr<Screen> screen = created.value();
  const uint64_t base = screen->memory_in_use();
  {
    auto res =
        screen->resource_create(make_templ(TextureTarget::BUFFER, Format::R8_UNORM, 4u << 20));
    REQUIRE(res.is_ok());
    CHECK(screen->memory_in_use() >= base + (4u << 20));
  }
  // Released by OpenCL's destructor callback once the storage is gone.
  for (int i = 0; i < 100 && screen->memory_in_use() > base; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(screen->memory_in_use() == base);

  // 2 MiB left under the screen's limit: a 4 MiB resource is refused, a 1 MiB one made.
  MemoryLimits l;
  l.screen_bytes = base + (2u << 20);
  screen->set_memory_limits(l);
  auto big = screen->resource_create(make_templ(TextureTarget::BUFFER, Format::R8_UNORM, 4u << 20));
  REQUIRE_FALSE(big.is_ok());
  CHECK(big.status().code() == ErrorCode::kOutOfMemory);
  auto small =
      screen->resource_create(make_templ(TextureTarget::BUFFER, Format::R8_UNORM, 1u << 20));
  CHECK(small.is_ok());

  // The same through a budget shared with a process that holds 1 GiB of 1 GiB + 2 MiB.
  std::atomic<uint64_t> slots[2] = {{1ull << 30}, {0}};
  l = MemoryLimits();
  l.slots = slots;
  l.slot_count = 2;
  l.own_slot = 1;
  l.shared_bytes = (1ull << 30) + screen->memory_in_use() + (2u << 20);
  screen->set_memory_limits(l);
  CHECK(slots[1] == screen->memory_in_use());
  big = screen->resource_create(make_templ(TextureTarget::BUFFER, Format::R8_UNORM, 4u << 20));
  REQUIRE_FALSE(big.is_ok());
  CHECK(big.status().code() == ErrorCode::kOutOfMemory);
  slots[0] = 0;
  big = screen->resource_create(make_templ(TextureTarget::BUFFER, Format::R8_UNORM, 4u << 20));
  CHECK(big.is_ok());
}
