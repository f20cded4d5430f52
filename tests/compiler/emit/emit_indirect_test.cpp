// Indirect addressing with a different index in every lane: TEMP arrays (read and write,
// out of range reads 0 and writes nothing), the whole TEMP file when no ArrayID names
// the array, CONST (out of the bound size reads 0), dimension-indirect CONST[ADDR][n]
// (UBO arrays), raw LOAD from a constant buffer, inputs and outputs.
#include <catch2/catch.hpp>

#include "compiler/emit/harness.h"

using namespace clpipe::test::emit;

TEST_CASE("emit: indirect TEMP, CONST, IN and OUT with per-lane indices", "[emit][indirect]") {
  HarnessInput in;
  in.tgsi = R"(VERT
DCL IN[0]
DCL IN[1..4]
DCL OUT[0], POSITION
DCL OUT[1..4], GENERIC[0]
DCL OUT[5], GENERIC[4]
DCL CONST[0][0..3]
DCL CONST[1][0..1]
DCL CONST[2][0..1]
DCL TEMP[0..1]
DCL TEMP[2..5], ARRAY(1), LOCAL
DCL ADDR[0..1]
IMM[0] UINT32 {1, 2, 100, 7}
  0: MOV TEMP[2], IMM[0].xxxx
  1: MOV TEMP[3], IMM[0].yyyy
  2: MOV TEMP[4], IMM[0].zzzz
  3: MOV TEMP[5], IMM[0].wwww
  4: UARL ADDR[0].x, IN[0].xxxx
  5: MOV TEMP[ADDR[0].x+2](1).y, IN[0].yyyy
  6: UARL ADDR[0].x, IN[0].zzzz
  7: MOV TEMP[0].x, TEMP[ADDR[0].x+2](1).yyyy
  8: MOV TEMP[0].y, CONST[0][ADDR[0].x].zzzz
  9: MOV TEMP[0].z, IN[ADDR[0].x+1].wwww
 10: UARL ADDR[1].x, IN[0].wwww
 11: MOV TEMP[0].w, CONST[ADDR[1].x+1][1].xxxx
 12: MOV OUT[0], TEMP[0]
 13: UARL ADDR[0].x, IN[0].xxxx
 14: MOV OUT[ADDR[0].x+1], IN[0].yyyy
 15: MOV OUT[5], TEMP[2..5]
 16: END
)";
  // The last MOV reads the array row by row: spell it as four instructions.
  std::string text = in.tgsi;
  text.replace(
      text.find(" 15: MOV OUT[5], TEMP[2..5]"), std::string(" 15: MOV OUT[5], TEMP[2..5]").size(),
      " 15: MOV OUT[5].x, TEMP[2].yyyy\n 16: MOV OUT[5].y, TEMP[3].yyyy\n 17: MOV OUT[5].z, "
      "TEMP[4].yyyy\n 18: MOV OUT[5].w, TEMP[5].yyyy");
  text.replace(text.find(" 16: END"), 8, " 19: END");
  in.tgsi = text;
  // Per lane: IN[0] = (write index, written value, read index, UBO index).
  struct Lane {
    int32_t wi;
    uint32_t val;
    int32_t ri;
    int32_t ubo;
  };
  const std::vector<Lane> lanes = {{0, 11, 0, 0}, {1, 22, 1, 1},  {3, 33, 3, 2},    {-1, 44, 2, 1},
                                   {4, 55, 4, 3}, {2, 66, -2, 0}, {100, 77, 1, -1}, {1, 88, 3, 1}};
  in.count = uint32_t(lanes.size());
  for (uint32_t i = 0; i < in.count; ++i) {
    const Lane& l = lanes[i];
    in.in.insert(in.in.end(), {uint32_t(l.wi), l.val, uint32_t(l.ri), uint32_t(l.ubo)});
    for (uint32_t r = 1; r <= 4; ++r)
      in.in.insert(in.in.end(), {0, 0, 0, 1000 * r + i});
  }
  // CONST[0]: 3 vec4 bound (slot 3 is declared but beyond the bound size: reads 0).
  in.const_buffers[0] = {0, 0, 500, 0, 0, 0, 501, 0, 0, 0, 502, 0};
  in.const_buffers[1] = {0, 0, 0, 0, 601, 0, 0, 0};
  in.const_buffers[2] = {0, 0, 0, 0, 602, 0, 0, 0};
  HarnessResult r = run_shader(in);
  const uint32_t init[4] = {1, 2, 100, 7};
  for (uint32_t i = 0; i < in.count; ++i) {
    const Lane& l = lanes[i];
    INFO("invocation " << i);
    uint32_t arr[4];
    for (int k = 0; k < 4; ++k)
      arr[k] = init[k];
    if (l.wi >= 0 && l.wi < 4) arr[l.wi] = l.val;
    uint32_t out[6][4] = {};
    out[0][0] = (l.ri >= 0 && l.ri < 4) ? arr[l.ri] : 0u;
    out[0][1] = (l.ri >= 0 && l.ri < 3) ? 500u + uint32_t(l.ri) : 0u;  // 3 vec4 bound
    const int32_t in_reg = l.ri + 1;  // IN[0..4]: IN[0].w holds the UBO index
    out[0][2] = in_reg == 0                    ? uint32_t(l.ubo)
                : (in_reg >= 1 && in_reg <= 4) ? 1000u * uint32_t(in_reg) + i
                                               : 0u;
    out[0][3] = l.ubo == 0 ? 601u : l.ubo == 1 ? 602u : 0u;
    const int32_t out_reg = l.wi + 1;  // OUT[0..5] exist: -1 writes POSITION, 100 nothing
    if (out_reg >= 0 && out_reg < 6) {
      for (int k = 0; k < 4; ++k)
        out[out_reg][k] = l.val;
    }
    for (int k = 0; k < 4; ++k)
      out[5][k] = arr[k];
    for (uint32_t reg = 0; reg < 6; ++reg) {
      for (uint32_t c = 0; c < 4; ++c) {
        INFO("OUT[" << reg << "]."
                    << "xyzw"[c]);
        CHECK(r.u(i, reg, c) == out[reg][c]);
      }
    }
  }
}

TEST_CASE("emit: indirect TEMP without an ArrayID and raw constant LOAD", "[emit][indirect]") {
  HarnessInput in;
  in.tgsi = R"(VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL CONST[0][0..1]
DCL TEMP[0..3]
DCL ADDR[0]
IMM[0] UINT32 {5, 6, 7, 8}
  0: MOV TEMP[1].x, IMM[0].xxxx
  1: MOV TEMP[2].x, IMM[0].yyyy
  2: MOV TEMP[3].x, IMM[0].zzzz
  3: UARL ADDR[0].x, IN[0].xxxx
  4: MOV TEMP[0].x, TEMP[ADDR[0].x].xxxx
  5: LOAD TEMP[0].yz, CONST[0], IN[0].yyyy
  6: MOV OUT[0], TEMP[0]
  7: END
)";
  in.count = 6;
  const int32_t idx[6] = {1, 2, 3, 0, 4, -3};
  const uint32_t addr[6] = {0, 4, 8, 20, 24, 28};
  for (uint32_t i = 0; i < 6; ++i)
    in.in.insert(in.in.end(), {uint32_t(idx[i]), addr[i], 0, 0});
  in.const_buffers[0] = {10, 11, 12, 13, 14, 15, 16, 17};
  HarnessResult r = run_shader(in);
  for (uint32_t i = 0; i < 6; ++i) {
    INFO("invocation " << i);
    const uint32_t want = idx[i] >= 1 && idx[i] <= 3 ? 4u + uint32_t(idx[i]) : 0u;
    // TEMP[0].x reads itself for index 0: still 0 at that point.
    CHECK(r.u(i, 0, 0) == want);
    // LOAD .yz reads the words at addr + 4 and addr + 8 (channel c at addr + 4c).
    const uint32_t w = addr[i] / 4;
    CHECK(r.u(i, 0, 1) == (w + 1 < 8 ? 11 + w : 0u));
    CHECK(r.u(i, 0, 2) == (w + 2 < 8 ? 12 + w : 0u));
  }
}
