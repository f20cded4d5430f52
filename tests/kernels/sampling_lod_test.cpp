// The level of detail's log2 (kernels/sampling.h): clp_lod_log2 and its lane form
// clp_vlod_log2 give the same bits lane for lane, whatever the other lanes hold (masked
// lanes hold zero), are exact at powers of two (where GL's level choice switches), and
// are within a few units in the last place of log2 elsewhere, specials included.
#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

#include "kernels/format_device_harness.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::test::formats;

namespace {

constexpr const char* kLodLog2Kernel = R"CLC(
#define CLP_LANES 16
#define CLP_NUM_INPUTS 1
#define CLP_NUM_OUTPUTS 1
#include "shader_abi.h"
#include "format.h"
#include "shader_lib.h"
#include "sampling.h"

// Work-item i: the inputs 16i..16i+15 as one lane vector and one by one.
kernel void t_lod_log2(global const float* x, global float* lanes, global float* scalar) {
  const uint i = get_global_id(0);
  vstore16(clp_vlod_log2(vload16(i, x)), i, lanes);
  for (uint l = 0; l < 16u; ++l)
    scalar[16u * i + l] = clp_lod_log2(x[16u * i + l]);
}
)CLC";

}  // namespace

TEST_CASE("level of detail: log2 is exact at powers of two and equal in lanes and scalars",
          "[kernels][sampling]") {
  Rig& r = rig();
  runtime::ProgramRef program = test_program_cache().get(kernels::expand_includes(kLodLog2Kernel));
  cl::Kernel& k = r.queue.kernel(program, "t_lod_log2");
  std::vector<float> x;
  for (int e = -149; e <= 127; ++e)
    x.push_back(std::ldexp(1.0f, e));  // powers of two, denormal ones too
  for (float s : {0.0f, -0.0f, -1.0f, INFINITY, -INFINITY, NAN, FLT_MIN, FLT_MAX, 1e-40f,
                  std::sqrt(2.0f), std::nextafter(std::sqrt(2.0f), 0.0f), 0.70710677f})
    x.push_back(s);
  std::mt19937 rng(77);
  for (int i = 0; i < 65536; ++i)
    x.push_back(bitsf(rng() % 0x7f800000u));  // every positive finite float alike
  for (int i = 0; i < 4096; ++i)
    x.push_back(bitsf(0x3f000000u + rng() % 0x01000000u));  // [0.5, 2): next to level 0
  // Vectors that mix zeros (masked lanes) and specials with ordinary values.
  for (int i = 0; i < 4096; ++i)
    x.push_back(rng() % 4 == 0 ? 0.0f : (rng() % 16 == 0 ? 1e-40f : bitsf(rng() % 0x7f800000u)));
  x.resize((x.size() + 15) / 16 * 16, 3.0f);
  const size_t n = x.size();
  cl::Buffer xb = r.in(x), lanes = r.out<float>(n), scalar = r.out<float>(n);
  runtime::set_args(k, xb, lanes, scalar);
  r.queue.launch(k, {n / 16}, {}, "t_lod_log2");
  const auto lv = r.read<float>(lanes, n);
  const auto sv = r.read<float>(scalar, n);
  size_t errors = 0;
  std::ostringstream first;
  for (size_t i = 0; i < n; ++i) {
    const double want = std::log2(double(x[i]));
    bool ok = fbits(lv[i]) == fbits(sv[i]);
    if (std::isnan(want)) {
      ok = ok && std::isnan(sv[i]);
    } else if (std::isinf(want) || want == std::floor(want)) {
      ok = ok && double(sv[i]) == want;  // infinities, zero's -Inf, powers of two: exact
    } else {
      // Two units in the last place of the result, and the polynomial's 2e-8 near zero.
      const double ulp = std::ldexp(1.0, std::ilogb(std::fabs(want)) - 23);
      ok = ok && std::fabs(double(sv[i]) - want) <= 2 * ulp + 1e-7;
    }
    if (!ok && errors++ < 8) {
      first << "x=" << x[i] << " (0x" << std::hex << fbits(x[i]) << std::dec << "): lanes " << lv[i]
            << " scalar " << sv[i] << " log2 " << want << "\n";
    }
  }
  INFO(first.str());
  CHECK(n > 70000);
  CHECK(errors == 0);
}
