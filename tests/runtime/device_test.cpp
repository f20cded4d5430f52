// Device selection rules (on made-up candidate lists) and the real device's limits.
#include <catch2/catch.hpp>

#include "runtime/device.h"
#include "runtime/error.h"
#include "support/test_device.h"

using namespace clpipe;
using namespace clpipe::runtime;

namespace {

DeviceCandidate fake(const char* platform, const char* device, bool gpu) {
  DeviceCandidate c;
  c.description.platform_name = platform;
  c.description.device_name = device;
  c.description.is_gpu = gpu;
  return c;
}

}  // namespace

TEST_CASE("device selection prefers the first GPU, else the first device", "[runtime][device]") {
  std::vector<DeviceCandidate> cpu_only = {
      fake("Portable Computing Language", "pthread-cpu", false),
      fake("Other", "second-cpu", false)};
  CHECK(select_device(cpu_only, "").description.device_name == "pthread-cpu");

  std::vector<DeviceCandidate> mixed = {fake("Portable Computing Language", "pthread-cpu", false),
                                        fake("NVIDIA CUDA", "GeForce RTX", true),
                                        fake("Intel", "Arc", true)};
  CHECK(select_device(mixed, "").description.device_name == "GeForce RTX");
}

TEST_CASE("CLPIPE_DEVICE matches a case-insensitive substring of platform or device",
          "[runtime][device]") {
  std::vector<DeviceCandidate> list = {fake("Portable Computing Language", "pthread-cpu", false),
                                       fake("NVIDIA CUDA", "GeForce RTX", true)};
  CHECK(select_device(list, "PTHREAD").description.device_name == "pthread-cpu");
  CHECK(select_device(list, "portable").description.device_name == "pthread-cpu");
  CHECK(select_device(list, "rtx").description.device_name == "GeForce RTX");
  CHECK(select_device(list, "cuda").description.device_name == "GeForce RTX");
}

TEST_CASE("an unmatched device name is an error listing every device", "[runtime][device]") {
  std::vector<DeviceCandidate> list = {fake("Portable Computing Language", "pthread-cpu", false),
                                       fake("NVIDIA CUDA", "GeForce RTX", true)};
  try {
    select_device(list, "radeon");
    FAIL("expected an error");
  } catch (const clpipe::Error& e) {
    CHECK(e.code() == ErrorCode::kInvalidArgument);
    const std::string msg = e.what();
    CHECK(msg.find("radeon") != std::string::npos);
    CHECK(msg.find("pthread-cpu") != std::string::npos);
    CHECK(msg.find("GeForce RTX") != std::string::npos);
  }
  CHECK_THROWS_AS(select_device({}, ""), clpipe::Error);
}

TEST_CASE("the selected device reports usable limits", "[runtime][device]") {
  const Device& d = test::test_device();
  CHECK(!d.description().device_name.empty());
  CHECK(d.limits().max_mem_alloc_size >= 1u << 20);
  CHECK(d.limits().max_work_group_size >= 64);
  CHECK(d.limits().local_mem_size >= 16 * 1024);
  CHECK(d.cache_identity().find(d.description().device_name) != std::string::npos);
}

TEST_CASE("fragment lanes: the CPU's vector width, a quad on GPUs, CLPIPE_LANES forces",
          "[runtime][device]") {
  CHECK(choose_fragment_lanes(false, 16, nullptr) == 16);  // AVX-512
  CHECK(choose_fragment_lanes(false, 8, nullptr) == 8);    // AVX2
  CHECK(choose_fragment_lanes(false, 4, nullptr) == 8);    // narrower CPUs: two quads
  CHECK(choose_fragment_lanes(true, 16, nullptr) == 4);
  CHECK(choose_fragment_lanes(true, 1, "") == 4);
  CHECK(choose_fragment_lanes(true, 1, "16") == 16);
  CHECK(choose_fragment_lanes(false, 16, "4") == 4);
  CHECK(choose_fragment_lanes(false, 16, "8") == 8);
  CHECK(choose_fragment_lanes(true, 4, "1") == 1);  // a pixel per work-item
  for (const char* bad : {"0", "2", "32", "16x", "abc", "-4"}) {
    try {
      choose_fragment_lanes(false, 16, bad);
      FAIL("accepted CLPIPE_LANES=" << bad);
    } catch (const clpipe::Error& e) {
      CHECK(e.code() == ErrorCode::kInvalidArgument);
      CHECK(std::string(e.what()).find("CLPIPE_LANES") != std::string::npos);
    }
  }
  const uint32_t lanes = clpipe::test::test_device().limits().fragment_lanes;
  CHECK((lanes == 1 || lanes == 4 || lanes == 8 || lanes == 16));
}

TEST_CASE("tile-pass work-items: a whole tile on CPUs, a block on GPUs, CLPIPE_TILE_ITEMS forces",
          "[runtime][device]") {
  CHECK(choose_whole_tile_items(false, nullptr, 16));
  CHECK(!choose_whole_tile_items(true, nullptr, 4));
  CHECK(choose_whole_tile_items(false, "", 8));
  CHECK(choose_whole_tile_items(true, "tile", 4));
  CHECK(!choose_whole_tile_items(false, "block", 16));
  // One lane: a pixel per work-item, never a whole tile.
  CHECK(!choose_whole_tile_items(false, nullptr, 1));
  CHECK(!choose_whole_tile_items(false, "block", 1));
  for (const char* bad : {"1", "Tile", "blocks", "tile ", "quad"}) {
    try {
      choose_whole_tile_items(false, bad, 16);
      FAIL("accepted CLPIPE_TILE_ITEMS=" << bad);
    } catch (const clpipe::Error& e) {
      CHECK(e.code() == ErrorCode::kInvalidArgument);
      CHECK(std::string(e.what()).find("CLPIPE_TILE_ITEMS") != std::string::npos);
    }
  }
  CHECK_THROWS_WITH(choose_whole_tile_items(false, "tile", 1),
                    Catch::Contains("CLPIPE_TILE_ITEMS=tile"));
}
