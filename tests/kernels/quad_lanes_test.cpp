// The lanes of a fragment invocation (kernels/shader_lib.h, clp_quad_lanes): every lane
// of each quad (lanes 4q .. 4q + 3) that holds a lane of the mask, and no lane of a quad
// that holds none, at every lane width. The tile pass runs a block's shader on these
// lanes, so a quad without a covered pixel runs nothing and a covered pixel's quad keeps
// its helpers for derivatives.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "kernels/format_device_harness.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::test::formats;

namespace {

constexpr const char* kQuadLanesKernel = R"CLC(
#define CLP_NUM_INPUTS 1
#define CLP_NUM_OUTPUTS 1
#include "shader_abi.h"
#include "format.h"
#include "shader_lib.h"

// Work-item i: the masks of lanes i * CLP_LANES ...
kernel void t_quad_lanes(global const int* m, global int* out) {
  const uint i = get_global_id(0);
#if CLP_LANES == 1
  out[i] = clp_quad_lanes(m[i]);
#else
  CLP_VN(vstore)(clp_quad_lanes(CLP_VN(vload)(i, m)), i, out);
#endif
}
)CLC";

}  // namespace

TEST_CASE("fragment lanes: the quads that hold a lane of the mask, whole, at every width",
          "[kernels][lanes]") {
  Rig& r = rig();
  for (int lanes : {1, 4, 8, 16}) {
    CAPTURE(lanes);
    const std::string src = "#define CLP_LANES " + std::to_string(lanes) + "\n" + kQuadLanesKernel;
    runtime::ProgramRef program = test_program_cache().get(kernels::expand_includes(src));
    cl::Kernel& k = r.queue.kernel(program, "t_quad_lanes");
    // Every pattern of up to 16 lanes, then random ones: a set lane is any value with its
    // top bit set (masks are -1, CLP_ANY reads the top bit), a clear one any other.
    const int patterns = 1 << lanes;
    std::mt19937 rng(4 + lanes);
    std::vector<int32_t> m;
    std::vector<uint32_t> bits;
    for (int p = 0; p < patterns + 4096; ++p) {
      const uint32_t b = p < patterns ? uint32_t(p) : uint32_t(rng()) & uint32_t(patterns - 1);
      bits.push_back(b);
      for (int l = 0; l < lanes; ++l) {
        const bool set = (b >> l) & 1u;
        const int32_t v = rng() % 2 ? (set ? -1 : 0) : int32_t(rng() & 0x7fffffffu);
        m.push_back(set ? int32_t(uint32_t(v) | 0x80000000u) : v & 0x7fffffff);
      }
    }
    const size_t n = m.size();
    cl::Buffer mb = r.in(m), out = r.out<int32_t>(n);
    runtime::set_args(k, mb, out);
    r.queue.launch(k, {bits.size()}, {}, "t_quad_lanes");
    const auto got = r.read<int32_t>(out, n);
    size_t errors = 0;
    for (size_t p = 0; p < bits.size(); ++p) {
      for (int l = 0; l < lanes; ++l) {
        // Width 1 runs one pixel, whose quad is itself.
        const int q = lanes == 1 ? 0 : l / 4;
        const uint32_t quad = lanes == 1 ? 1u : 0xfu << (4 * q);
        const int32_t want = (bits[p] & quad) ? -1 : 0;
        if (got[p * lanes + l] != want && errors++ < 8) {
          FAIL_CHECK("mask 0x" << std::hex << bits[p] << std::dec << " lane " << l << ": got "
                               << got[p * lanes + l] << ", want " << want);
        }
      }
    }
    CHECK(errors == 0);
  }
}
