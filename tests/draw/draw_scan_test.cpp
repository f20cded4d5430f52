// The device prefix sum of the draw passes (src/frontend/draw/scan.cpp, scan.cl) against
// a host exclusive scan, at sizes around its block and single-launch limits.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "draw/draw_fixture.h"
#include "frontend/draw/scan.h"

using namespace clpipe;

namespace {

// A scanner on the test device, and one scan of host data: the offsets and the total.
struct ScanRun {
  test::DrawFixture f;
  frontend::draw::Scanner scanner{f.queue(), f.pipeline().core_program()};
  const cl::Buffer total = f.queue().create_buffer(4);

  std::vector<uint32_t> scan(const std::vector<uint32_t>& in, uint32_t* sum) {
    const uint32_t n = uint32_t(in.size());
    const cl::Buffer data = f.buffer(in.data(), n * 4);
    scanner.exclusive_scan(data, n, total);
    std::vector<uint32_t> out(n);
    f.queue().read(data, 0, n * 4, out.data());
    f.queue().read(total, 0, 4, sum);
    return out;
  }
};

}  // namespace

TEST_CASE("draw scan: exclusive prefix sums and totals at every size class", "[draw][scan]") {
  ScanRun s;
  std::mt19937 rng(7);
  // Below, at and above one block (256), the single-launch limit (16384), and two levels
  // of block sums (> 65536).
  for (uint32_t n : {1u, 5u, 255u, 256u, 257u, 4097u, 16383u, 16384u, 16385u, 70001u, 300000u}) {
    INFO("n = " << n);
    std::vector<uint32_t> in(n);
    for (uint32_t& v : in)
      v = rng() % 7;
    uint32_t sum = 0;
    const std::vector<uint32_t> out = s.scan(in, &sum);
    uint32_t run = 0;
    size_t wrong = 0;
    for (uint32_t i = 0; i < n; ++i) {
      wrong += out[i] != run;
      run += in[i];
    }
    CHECK(wrong == 0);
    CHECK(sum == run);
  }
  // n == 0 writes a zero total.
  const uint32_t junk = 12345;
  s.f.queue().write(s.total, 0, 4, &junk, true);
  s.scanner.exclusive_scan(s.total, 0, s.total);
  uint32_t zero = 1;
  s.f.queue().read(s.total, 0, 4, &zero);
  CHECK(zero == 0);
}

TEST_CASE("draw scan: sums of 2^32 - 1 or more saturate instead of wrapping", "[draw][scan]") {
  // A bin histogram of a 16384^2 framebuffer (2^20 tiles) under 4096 full-screen quads
  // sums past 2^32; wrapped, its total fitted a small list and the tile pass read past it.
  ScanRun s;
  constexpr uint32_t kSat = frontend::draw::Scanner::kSaturated;
  // One launch (n <= 16384) and several levels of block sums; the big counts sit in
  // different blocks so that the block sums carry the saturation too.
  for (uint32_t n : {5u, 16384u, 70001u}) {
    INFO("n = " << n);
    std::vector<uint32_t> in(n, 1);
    in[n / 4] = 0x80000000u;
    in[n / 2] = 0x7fffffffu;  // the inclusive sum reaches 2^32 - 1 here
    uint32_t sum = 0;
    const std::vector<uint32_t> out = s.scan(in, &sum);
    CHECK(sum == kSat);
    // Every offset is its true value, or kSat from the first that reaches 2^32 - 1 on.
    uint64_t run = 0;
    size_t wrong = 0;
    for (uint32_t i = 0; i < n; ++i) {
      wrong += out[i] != std::min<uint64_t>(run, kSat);
      run += in[i];
    }
    CHECK(wrong == 0);
    CHECK(run > kSat);
  }
}
