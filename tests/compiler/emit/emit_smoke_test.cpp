// First light of the emitter: one vertex shader through compile_tgsi, the harness
// template and the device, with a constant buffer.
#include <catch2/catch.hpp>

#include "compiler/emit/harness.h"

using namespace clpipe::test::emit;

TEST_CASE("emit smoke: VS MAD", "[emit]") {
  HarnessInput in;
  in.tgsi = R"(VERT
DCL IN[0]
DCL OUT[0], POSITION
DCL CONST[0][0]
DCL TEMP[0]
IMM[0] FLT32 {0x3f800000, 0x40000000, 0x40400000, 0x40800000}
  0: MAD TEMP[0], IN[0], IMM[0], CONST[0].xxxx
  1: MOV OUT[0], TEMP[0]
  2: END
)";
  in.count = 5;
  for (uint32_t i = 0; i < 5; ++i)
    for (int c = 0; c < 4; ++c)
      in.in.push_back(fbits(float(i + c)));
  in.const_buffers[0] = {fbits(0.5f), 0, 0, 0};
  HarnessResult r = run_shader(in);
  for (uint32_t i = 0; i < 5; ++i)
    for (int c = 0; c < 4; ++c)
      CHECK(r.f(i, 0, c) == float(i + c) * float(c + 1) + 0.5f);
}
