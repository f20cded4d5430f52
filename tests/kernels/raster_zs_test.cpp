// The tile pass's depth keys (kernels/raster_zs.h): the lane-vector clp_zs_depth_key_v
// must give, lane for lane, the scalar clp_zs_depth_key's exact key — round(z * (2^bits
// - 1)) halves up for UNORM depth, the float's bits for float depth — on inputs next to
// every rounding boundary of 16-bit depth, next to many of 24- and 32-bit depth, and on
// the special values. The scalar key is checked against the exact value too.
#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

#include "kernels/format_device_harness.h"

using namespace clpipe;
using namespace clpipe::frontend;
using namespace clpipe::test;
using namespace clpipe::test::formats;

namespace {

constexpr const char* kDepthKeyKernel = R"CLC(
#define CLP_LANES 16
#define CLP_NUM_INPUTS 1
#define CLP_NUM_OUTPUTS 1
#include "shader_abi.h"
#include "raster_zs.h"

// Work-item i: the inputs 16i..16i+15 as one lane vector and one by one.
kernel void t_depth_key(uint fmt, global const float* z, global uint* lanes,
                        global uint* scalar) {
  const uint i = get_global_id(0);
  vstore16(clp_zs_depth_key_v(fmt, vload16(i, z)), i, lanes);
  for (uint l = 0; l < 16u; ++l)
    scalar[16u * i + l] = clp_zs_depth_key(fmt, z[16u * i + l]);
}
)CLC";

// The exact key of UNORM depth with `bits` bits: floor(clamp(z, 0, 1) * (2^bits - 1) +
// 1/2), in 128-bit integers from z's mantissa and exponent (NaN gives 0).
uint32_t exact_unorm_key(float z, unsigned bits) {
  const uint64_t maxv = (uint64_t(1) << bits) - 1;
  if (!(z > 0.0f)) return 0;
  if (z >= 1.0f) return uint32_t(maxv);
  int e = 0;
  const float mant = std::frexp(z, &e);  // z = mant * 2^e, e <= 0
  const unsigned __int128 m = uint64_t(std::ldexp(mant, 24));
  const int k = 24 - e;  // z = m / 2^k
  if (k >= 120) return 0;
  const unsigned __int128 half = (unsigned __int128)1 << (k - 1);
  return uint32_t((m * maxv + half) >> k);
}

}  // namespace

TEST_CASE("depth keys: the lane-vector form equals the scalar form and the exact key",
          "[kernels][raster]") {
  Rig& r = rig();
  runtime::ProgramRef program = test_program_cache().get(kernels::expand_includes(kDepthKeyKernel));
  cl::Kernel& k = r.queue.kernel(program, "t_depth_key");
  std::mt19937 rng(2411);
  const Format formats[] = {Format::Z16_UNORM,           Format::Z24_UNORM_S8_UINT,
                            Format::Z24X8_UNORM,         Format::S8_UINT_Z24_UNORM,
                            Format::Z32_UNORM,           Format::Z32_FLOAT,
                            Format::Z32_FLOAT_S8X24_UINT};
  for (Format f : formats) {
    const FormatDesc& d = format_desc(f);
    const FormatChannel& zc = d.channel[unsigned(d.swizzle[0])];
    const bool is_float = zc.type == ChannelType::FLOAT;
    std::vector<float> z = depth_inputs(zc, rng);
    for (int i = 0; i < 65536; ++i)
      z.push_back(bitsf(rng() % 0x3f800001u));  // every float of [0, 1] alike
    for (int i = 0; i < 4096; ++i)
      z.push_back(bitsf(rng()));  // anything, NaNs and infinities included
    z.resize((z.size() + 15) / 16 * 16, 0.25f);

    const size_t n = z.size();
    cl::Buffer zb = r.in(z), lanes = r.out<uint32_t>(n), scalar = r.out<uint32_t>(n);
    runtime::set_args(k, uint32_t(f), zb, lanes, scalar);
    r.queue.launch(k, {n / 16}, {}, "t_depth_key");
    const auto lv = r.read<uint32_t>(lanes, n);
    const auto sv = r.read<uint32_t>(scalar, n);
    size_t errors = 0;
    std::ostringstream first;
    for (size_t i = 0; i < n; ++i) {
      uint32_t want = 0;
      if (is_float) {
        want = (std::isnan(z[i]) || z[i] == 0.0f) ? 0u : fbits(z[i]);
      } else {
        want = exact_unorm_key(z[i], zc.bits);
      }
      if (lv[i] != want || sv[i] != want) {
        if (errors++ < 8) {
          first << name(f) << " z=" << z[i] << " (0x" << std::hex << fbits(z[i]) << "): lanes 0x"
                << lv[i] << " scalar 0x" << sv[i] << " exact 0x" << want << std::dec << "\n";
        }
      }
    }
    INFO(first.str());
    CHECK(n > 60000);
    CHECK(errors == 0);
  }
}
