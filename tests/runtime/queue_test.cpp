// Queue (src/runtime/queue.h): launch_1d's groups, fill_zero's ranges.
#include <catch2/catch.hpp>

#include <algorithm>
#include <utility>
#include <vector>

#include "runtime/program_cache.h"
#include "runtime/queue.h"
#include "support/test_device.h"

using namespace clpipe;
using namespace clpipe::runtime;

TEST_CASE("launch_1d runs every count in groups of one size", "[runtime][queue]") {
  // One local size per kernel: the one whose code a background build generates before
  // its program is used (ProgramCache::get's launch_sizes); any other would be compiled
  // at its first launch, on the thread that launches.
  ProgramRef p = test::test_program_cache().get(
      "kernel void local_sizes(global uint* out, uint count) {\n"
      "  const size_t i = get_global_id(0);\n"
      "  if (i < count) out[i] = (uint)get_local_size(0);\n"
      "}\n");
  Queue q(test::test_device());
  cl::Kernel& k = q.kernel(p, "local_sizes");
  size_t max = 0;
  REQUIRE(k.getWorkGroupInfo(test::test_device().device(), CL_KERNEL_WORK_GROUP_SIZE, &max) ==
          CL_SUCCESS);
  size_t group = Queue::kGroup1d;
  while (group > max)
    group /= 2;
  for (cl_uint count : {1u, 3u, 64u, 100u}) {
    INFO(count << " work-items");
    cl::Buffer out = q.create_buffer(sizeof(cl_uint) * 128);
    q.fill_zero(out, 0, sizeof(cl_uint) * 128);
    set_args(k, out, count);
    q.launch_1d(k, count, "local_sizes");
    std::vector<cl_uint> got(128);
    q.read(out, 0, sizeof(cl_uint) * got.size(), got.data());
    std::vector<cl_uint> want(128, 0);
    for (cl_uint i = 0; i < count; ++i)
      want[i] = cl_uint(group);
    CHECK(got == want);
  }
}

TEST_CASE("fill_zero zeroes exactly its range at any offset and size", "[runtime][queue]") {
  // Ranges that take each pattern width fill_zero picks (1 to 64 bytes).
  Queue q(test::test_device());
  constexpr size_t kSize = 1000;
  for (const auto& [offset, size] : std::vector<std::pair<size_t, size_t>>{
           {0, 1000}, {3, 101}, {64, 128}, {8, 24}, {2, 6}, {32, 96}, {0, 1}, {999, 1}}) {
    INFO("offset " << offset << " size " << size);
    std::vector<uint8_t> bytes(kSize, 0xab);
    cl::Buffer b = q.create_buffer(kSize);
    q.write(b, 0, kSize, bytes.data(), true);
    q.fill_zero(b, offset, size).wait();
    std::vector<uint8_t> got(kSize);
    q.read(b, 0, kSize, got.data());
    std::fill(bytes.begin() + offset, bytes.begin() + offset + size, 0);
    CHECK(got == bytes);
  }
}

TEST_CASE("required_group_size reads a kernel's reqd_work_group_size", "[runtime][queue]") {
  // The tile pass launches each program with the work-group its code was emitted for.
  ProgramRef p = test::test_program_cache().get(
      "kernel __attribute__((reqd_work_group_size(32, 1, 1))) void fixed(global uint* o) {\n"
      "  o[get_global_id(0)] = 1u;\n"
      "}\n"
      "kernel void free_size(global uint* o) { o[get_global_id(0)] = 2u; }\n");
  Queue q(test::test_device());
  CHECK(q.required_group_size(q.kernel(p, "fixed")) == 32);
  CHECK(q.required_group_size(q.kernel(p, "fixed")) == 32);  // the remembered answer
  CHECK(q.required_group_size(q.kernel(p, "free_size")) == 0);
}
