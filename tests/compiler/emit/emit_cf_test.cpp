// Control flow with divergent lanes: nested IF/ELSE (integer and float tests), loops whose
// lanes leave at different iterations through BRK and skip work with CONT, SWITCH with
// fall-through and DEFAULT, subroutines with RET, early RET in main, and the same
// shaders on one lane (compute). Each shader's outputs are compared with a host
// simulation of the same program.
#include <catch2/catch.hpp>

#include <cmath>

#include "compiler/emit/harness.h"

using namespace clpipe::test::emit;

namespace {

// Runs a vertex shader whose IN[0].x holds an integer per invocation; returns OUT[0].
std::vector<std::array<uint32_t, 4>> run_vs(const std::string& tgsi, const std::vector<uint32_t>& x,
                                            const std::vector<uint32_t>& y = {}) {
  HarnessInput in;
  in.tgsi = tgsi;
  in.count = uint32_t(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    in.in.push_back(x[i]);
    in.in.push_back(i < y.size() ? y[i] : 0u);
    in.in.push_back(0);
    in.in.push_back(0);
  }
  HarnessResult r = run_shader(in);
  std::vector<std::array<uint32_t, 4>> out(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    for (int c = 0; c < 4; ++c)
      out[i][c] = r.u(uint32_t(i), 0, uint32_t(c));
  }
  return out;
}

std::vector<uint32_t> iota_values(uint32_t n) {
  std::vector<uint32_t> v(n);
  for (uint32_t i = 0; i < n; ++i)
    v[i] = (i * 7 + 3) % 13;
  return v;
}

}  // namespace

TEST_CASE("emit: nested IF/ELSE with divergent lanes", "[emit][cf]") {
  // OUT.x = x < 6 ? (x odd ? 10 + x : 20 + x) : (x == 9 ? 30 : 40); OUT.y counts the
  // branches taken; .z: a float IF on y (NaN and -0.0 edge cases).
  const std::string tgsi = R"(VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL TEMP[0..3]
IMM[0] UINT32 {6, 1, 10, 20}
IMM[1] UINT32 {9, 30, 40, 0}
IMM[2] FLT32 {0x3f800000, 0x40000000, 0x00000000, 0x00000000}
  0: MOV TEMP[1].y, IMM[1].wwww
  1: USLT TEMP[0].x, IN[0].xxxx, IMM[0].xxxx
  2: UIF TEMP[0].xxxx :12
  3:   AND TEMP[0].y, IN[0].xxxx, IMM[0].yyyy
  4:   UIF TEMP[0].yyyy :8
  5:     UADD TEMP[1].x, IN[0].xxxx, IMM[0].zzzz
  6:     UADD TEMP[1].y, TEMP[1].yyyy, IMM[0].yyyy
  7:   ELSE :10
  8:     UADD TEMP[1].x, IN[0].xxxx, IMM[0].wwww
  9:     UADD TEMP[1].y, TEMP[1].yyyy, IMM[0].yyyy
 10:   ENDIF
 11:   UADD TEMP[1].y, TEMP[1].yyyy, IMM[0].yyyy
 12: ELSE :19
 13:   USEQ TEMP[0].z, IN[0].xxxx, IMM[1].xxxx
 14:   UIF TEMP[0].zzzz :17
 15:     MOV TEMP[1].x, IMM[1].yyyy
 16:   ELSE :18
 17:     MOV TEMP[1].x, IMM[1].zzzz
 18:   ENDIF
 19: ENDIF
 20: MOV TEMP[1].z, IMM[2].zzzz
 21: IF IN[0].yyyy :23
 22:   MOV TEMP[1].z, IMM[2].xxxx
 23: ELSE :25
 24:   MOV TEMP[1].z, IMM[2].yyyy
 25: ENDIF
 26: MOV OUT[0], TEMP[1]
 27: END
)";
  std::vector<uint32_t> x, y;
  const uint32_t fy[] = {fbits(0.0f), fbits(-0.0f), fbits(NAN), fbits(1.0f), fbits(-2.0f)};
  for (uint32_t i = 0; i < 23; ++i) {
    x.push_back(i % 12);
    y.push_back(fy[i % 5]);
  }
  const auto out = run_vs(tgsi, x, y);
  for (size_t i = 0; i < x.size(); ++i) {
    const uint32_t v = x[i];
    uint32_t want_x, want_y = 0;
    if (v < 6) {
      want_x = (v & 1) ? 10 + v : 20 + v;
      want_y = 2;
    } else {
      want_x = v == 9 ? 30 : 40;
    }
    INFO("invocation " << i << " x " << v);
    CHECK(out[i][0] == want_x);
    CHECK(out[i][1] == want_y);
    const float fv = bitsf(y[i]);
    CHECK(bitsf(out[i][2]) == (fv != 0.0f ? 1.0f : 2.0f));  // NaN is true, -0.0 false
  }
}

TEST_CASE("emit: loops with BRK and CONT leaving at different iterations", "[emit][cf]") {
  // for (i = 0;; ++i) { if (i >= x) break; if (i odd) continue; sum += i; } plus an inner
  // loop that counts to 3 with its own BRK; OUT = (sum, iterations, inner total).
  const std::string tgsi = R"(VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL TEMP[0..5]
IMM[0] UINT32 {0, 1, 3, 0}
  0: MOV TEMP[0], IMM[0].xxxx
  1: BGNLOOP :0
  2:   USGE TEMP[1].x, TEMP[0].xxxx, IN[0].xxxx
  3:   UIF TEMP[1].xxxx :5
  4:     BRK
  5:   ENDIF
  6:   UADD TEMP[0].y, TEMP[0].yyyy, IMM[0].yyyy
  7:   MOV TEMP[2].x, IMM[0].xxxx
  8:   BGNLOOP :0
  9:     USGE TEMP[1].y, TEMP[2].xxxx, IMM[0].zzzz
 10:     UIF TEMP[1].yyyy :12
 11:       BRK
 12:     ENDIF
 13:     UADD TEMP[2].x, TEMP[2].xxxx, IMM[0].yyyy
 14:     UADD TEMP[0].z, TEMP[0].zzzz, IMM[0].yyyy
 15:   ENDLOOP :0
 16:   AND TEMP[1].z, TEMP[0].xxxx, IMM[0].yyyy
 17:   UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
 18:   UIF TEMP[1].zzzz :20
 19:     CONT
 20:   ENDIF
 21:   UADD TEMP[0].w, TEMP[0].wwww, TEMP[0].xxxx
 22: ENDLOOP :0
 23: MOV OUT[0].x, TEMP[0].wwww
 24: MOV OUT[0].y, TEMP[0].yyyy
 25: MOV OUT[0].z, TEMP[0].zzzz
 26: END
)";
  const std::vector<uint32_t> x = iota_values(19);
  const auto out = run_vs(tgsi, x);
  for (size_t i = 0; i < x.size(); ++i) {
    uint32_t sum = 0, iters = 0, inner = 0;
    for (uint32_t k = 0;; ++k) {
      if (k >= x[i]) break;
      ++iters;
      inner += 3;
      if (k & 1) continue;
      sum += k + 1;
    }
    INFO("x " << x[i]);
    CHECK(out[i][0] == sum);
    CHECK(out[i][1] == iters);
    CHECK(out[i][2] == inner);
  }
}

TEST_CASE("emit: SWITCH with fall-through, DEFAULT and BRK inside a loop", "[emit][cf]") {
  // switch (x) { case 1: a += 1; case 2: a += 10; break; default: a += 100; case 5: a += 1000;
  // break; case 7: if (odd) break; a += 7; } — default sits before a case; BRK in an IF.
  const std::string tgsi = R"(VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL TEMP[0..2]
IMM[0] UINT32 {1, 2, 5, 7}
IMM[1] UINT32 {10, 100, 1000, 0}
  0: MOV TEMP[0].x, IMM[1].wwww
  1: SWITCH IN[0].xxxx
  2:   CASE IMM[0].xxxx
  3:     UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
  4:   CASE IMM[0].yyyy
  5:     UADD TEMP[0].x, TEMP[0].xxxx, IMM[1].xxxx
  6:     BRK
  7:   DEFAULT
  8:     UADD TEMP[0].x, TEMP[0].xxxx, IMM[1].yyyy
  9:   CASE IMM[0].zzzz
 10:     UADD TEMP[0].x, TEMP[0].xxxx, IMM[1].zzzz
 11:     BRK
 12:   CASE IMM[0].wwww
 13:     UIF IN[0].yyyy :15
 14:       BRK
 15:     ENDIF
 16:     UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww
 17: ENDSWITCH
 18: MOV OUT[0].x, TEMP[0].xxxx
 19: END
)";
  std::vector<uint32_t> x, y;
  for (uint32_t i = 0; i < 20; ++i) {
    x.push_back(i % 9);
    y.push_back((i / 9) & 1);
  }
  const auto out = run_vs(tgsi, x, y);
  for (size_t i = 0; i < x.size(); ++i) {
    uint32_t a = 0;
    switch (x[i]) {
      case 1:
        a += 1;
        [[fallthrough]];
      case 2:
        a += 10;
        break;
      default:
        a += 100;
        [[fallthrough]];
      case 5:
        a += 1000;
        break;
      case 7:
        if (y[i]) break;
        a += 7;
    }
    INFO("x " << x[i] << " y " << y[i]);
    CHECK(out[i][0] == a);
  }
}

TEST_CASE("emit: subroutines with divergent RET and early RET in main", "[emit][cf]") {
  // main: t = x; CAL sub; if (x > 8) RET; out.y = 1. sub: t += 1; if (t odd) RET; t += 100;
  // CAL sub2. sub2: t *= 2.
  const std::string tgsi = R"(VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL TEMP[0..1]
IMM[0] UINT32 {1, 100, 2, 8}
  0: MOV TEMP[0].x, IN[0].xxxx
  1: CAL :8
  2: MOV OUT[0].x, TEMP[0].xxxx
  3: USLT TEMP[1].x, IMM[0].wwww, IN[0].xxxx
  4: UIF TEMP[1].xxxx :6
  5:   RET
  6: ENDIF
  7: MOV OUT[0].y, IMM[0].xxxx
  8: END
  9: BGNSUB :0
 10:   UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
 11:   AND TEMP[1].y, TEMP[0].xxxx, IMM[0].xxxx
 12:   UIF TEMP[1].yyyy :14
 13:     RET
 14:   ENDIF
 15:   UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
 16:   CAL :18
 17: ENDSUB
 18: BGNSUB
 19:   UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].zzzz
 20: ENDSUB
)";
  // The CAL labels name the BGNSUB instructions (9 and 18); fix up the text numbering.
  std::string text = tgsi;
  text.replace(text.find("CAL :8"), 6, "CAL :9");
  const std::vector<uint32_t> x = iota_values(17);
  const auto out = run_vs(text, x);
  for (size_t i = 0; i < x.size(); ++i) {
    uint32_t t = x[i] + 1;
    if (!(t & 1)) t = (t + 100) * 2;
    INFO("x " << x[i]);
    CHECK(out[i][0] == t);
    CHECK(out[i][1] == (x[i] > 8 ? 0u : 1u));
  }
}

TEST_CASE("emit: recursive subroutines are a compile error", "[emit][cf]") {
  CHECK_THROWS_AS(clpipe::compiler::compile_tgsi(R"(VERT
DCL OUT[0], GENERIC[0]
  0: CAL :2
  1: END
  2: BGNSUB
  3:   CAL :2
  4: ENDSUB
)"),
                  clpipe::compiler::CompileError);
}

TEST_CASE("emit: shaders past 16384 instructions with subroutines inlined are refused",
          "[emit][cf]") {
  // Eleven levels of subroutines that each call the next twice: 2^10 copies of 20
  // instructions from 56 lines of TGSI. And a plain shader of 16390 instructions.
  std::string nested = "VERT\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0]\n  0: CAL :2\n  1: END\n";
  uint32_t n = 2;
  for (int level = 0; level < 11; ++level) {
    const uint32_t begin = n;
    nested += "  " + std::to_string(n++) + ": BGNSUB\n";
    if (level < 10) {
      // The next level's BGNSUB follows this one's ENDSUB (4 lines on).
      for (int k = 0; k < 2; ++k)
        nested += "  " + std::to_string(n++) + ": CAL :" + std::to_string(begin + 4) + "\n";
    } else {
      for (int k = 0; k < 20; ++k)
        nested += "  " + std::to_string(n++) + ": ADD TEMP[0], TEMP[0], TEMP[0]\n";
    }
    nested += "  " + std::to_string(n++) + ": ENDSUB\n";
  }
  std::string flat = "VERT\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0]\n";
  for (uint32_t i = 0; i < 16390; ++i)
    flat += "  " + std::to_string(i) + ": ADD TEMP[0], TEMP[0], TEMP[0]\n";
  flat += "  16390: END\n";
  for (const std::string* text : {&nested, &flat}) {
    try {
      clpipe::compiler::compile_tgsi(*text);
      FAIL("compiled");
    } catch (const clpipe::compiler::CompileError& e) {
      CHECK_THAT(e.what(), Catch::Contains("more than 16384 instructions"));
    }
  }
  // 16000 instructions are translated.
  flat = "VERT\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0]\n";
  for (uint32_t i = 0; i < 16000; ++i)
    flat += "  " + std::to_string(i) + ": ADD TEMP[0], TEMP[0], TEMP[0]\n";
  flat += "  16000: END\n";
  CHECK_NOTHROW(clpipe::compiler::compile_tgsi(flat));
}

TEST_CASE("emit: control flow on one lane (compute)", "[emit][cf]") {
  // Each invocation sums i over a loop with BRK / CONT and a SWITCH, writes to an SSBO.
  HarnessInput in;
  in.tgsi = R"(COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL TEMP[0..4]
IMM[0] UINT32 {0, 1, 3, 8}
IMM[1] UINT32 {8, 2, 50, 0}
  0: UMAD TEMP[0].x, SV[1].xxxx, IMM[0].wwww, SV[0].xxxx
  1: MOV TEMP[1], IMM[0].xxxx
  2: BGNLOOP :0
  3:   USGE TEMP[2].x, TEMP[1].xxxx, TEMP[0].xxxx
  4:   UIF TEMP[2].xxxx :6
  5:     BRK
  6:   ENDIF
  7:   UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy
  8:   UMOD TEMP[2].y, TEMP[1].xxxx, IMM[0].zzzz
  9:   SWITCH TEMP[2].yyyy
 10:     CASE IMM[0].xxxx
 11:       CONT
 12:     CASE IMM[0].yyyy
 13:       UADD TEMP[1].y, TEMP[1].yyyy, TEMP[1].xxxx
 14:     DEFAULT
 15:       UADD TEMP[1].z, TEMP[1].zzzz, IMM[0].yyyy
 16:   ENDSWITCH
 17: ENDLOOP :0
 18: UMUL TEMP[3].x, TEMP[0].xxxx, IMM[1].xxxx
 19: STORE BUFFER[0].xy, TEMP[3].xxxx, TEMP[1].yzzz
 20: END
)";
  in.grid = {3, 1, 1};
  in.block = {8, 1, 1};
  in.buffers[0].assign(24 * 2, 0xdeadu);
  HarnessResult r = run_shader(in);
  for (uint32_t i = 0; i < 24; ++i) {
    uint32_t y = 0, z = 0;
    for (uint32_t k = 0; k < i;) {
      ++k;
      switch (k % 3) {
        case 0:
          continue;
        case 1:
          y += k;
          [[fallthrough]];
        default:
          z += 1;
      }
    }
    INFO("invocation " << i);
    CHECK(r.buffers[0][2 * i] == y);
    CHECK(r.buffers[0][2 * i + 1] == z);
  }
}
