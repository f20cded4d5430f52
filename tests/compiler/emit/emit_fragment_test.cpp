// Fragment-stage features in the harness: inputs through clp_fs_input (a 2x2 quad per
// work-item, lane = x + 2y), coarse and fine derivatives on known quads, KILL / KILL_IF
// (also inside loops, where a killed lane must stay killed), DEMOTE and READ_HELPER,
// re-interpolation at an offset, system values and the FS prelude defines.
#include <catch2/catch.hpp>

#include <cmath>

#include "compiler/emit/harness.h"

using namespace clpipe::test::emit;

namespace {

// Quad q, lane l = x + 2y: the value a*x + b*y + c*x*y + q.
float quad_value(uint32_t q, uint32_t l, float a, float b, float c) {
  const float x = float(l & 1), y = float(l >> 1);
  return a * x + b * y + c * x * y + float(q);
}

}  // namespace

TEST_CASE("emit: derivatives on known quads, each row's and column's", "[emit][fs]") {
  HarnessInput in;
  in.tgsi = R"(FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL OUT[1], COLOR[1]
  0: DDX OUT[0].x, IN[0].xxxx
  1: DDY OUT[0].y, IN[0].xxxx
  2: DDX_FINE OUT[0].z, IN[0].xxxx
  3: DDY_FINE OUT[0].w, IN[0].xxxx
  4: DDX OUT[1], -IN[0].yyyy
  5: END
)";
  const uint32_t quads = 3;
  in.count = quads * 4;
  for (uint32_t q = 0; q < quads; ++q) {
    for (uint32_t l = 0; l < 4; ++l) {
      in.in.push_back(fbits(quad_value(q, l, 2.0f, 5.0f, 3.0f * float(q + 1))));
      in.in.push_back(fbits(quad_value(q, l, -1.5f, 0.0f, 0.0f)));
      in.in.push_back(0);
      in.in.push_back(0);
    }
  }
  HarnessResult r = run_shader(in);
  for (uint32_t q = 0; q < quads; ++q) {
    const float c = 3.0f * float(q + 1);
    for (uint32_t l = 0; l < 4; ++l) {
      const uint32_t i = q * 4 + l, y = l >> 1, x = l & 1;
      INFO("quad " << q << " lane " << l);
      // DDX / DDY as DDX_FINE / DDY_FINE: this row, this column (as llvmpipe; a coarse
      // DDX would give the top row's 2.0 on the bottom row too).
      CHECK(r.f(i, 0, 0) == 2.0f + c * y);
      CHECK(r.f(i, 0, 1) == 5.0f + c * x);
      CHECK(r.f(i, 0, 2) == 2.0f + c * y);
      CHECK(r.f(i, 0, 3) == 5.0f + c * x);
      for (int ch = 0; ch < 4; ++ch)
        CHECK(r.f(i, 1, ch) == 1.5f);
    }
  }
  // Prelude facts the tile pass reads.
  const std::string& p = r.compiled.code.prelude;
  CHECK(p.find("#define CLP_FS_COLOR_REG_0 0\n") != std::string::npos);
  CHECK(p.find("#define CLP_FS_COLOR_REG_1 1\n") != std::string::npos);
  CHECK(p.find("#define CLP_FS_COLOR_REG_2 -1\n") != std::string::npos);
  CHECK(p.find("#define CLP_FS_USES_KILL 0\n") != std::string::npos);
}

TEST_CASE("emit: KILL and KILL_IF, inside loops too", "[emit][fs]") {
  // Lanes loop x times; KILL_IF -(i == 3) kills a lane on its fourth iteration; a killed
  // lane must not keep iterating (its counter stays). Afterwards KILL under x == 1.
  HarnessInput in;
  in.tgsi = R"(FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
DCL TEMP[0..2]
IMM[0] UINT32 {0, 1, 3, 1065353216}
  0: MOV TEMP[0], IMM[0].xxxx
  1: BGNLOOP :0
  2:   F2U TEMP[1].x, IN[0].xxxx
  3:   USGE TEMP[1].y, TEMP[0].xxxx, TEMP[1].xxxx
  4:   UIF TEMP[1].yyyy :6
  5:     BRK
  6:   ENDIF
  7:   USEQ TEMP[1].z, TEMP[0].xxxx, IMM[0].zzzz
  8:   AND TEMP[1].w, TEMP[1].zzzz, IMM[0].wwww
  9:   KILL_IF -TEMP[1].wwww
 10:   UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
 11: ENDLOOP :0
 12: F2U TEMP[2].x, IN[0].xxxx
 13: USEQ TEMP[2].y, TEMP[2].xxxx, IMM[0].yyyy
 14: UIF TEMP[2].yyyy :16
 15:   KILL
 16: ENDIF
 17: U2F OUT[0].x, TEMP[0].xxxx
 18: END
)";
  const std::vector<float> x = {0, 1, 2, 3, 4, 5, 6, 1, 7, 2, 3, 9};
  in.count = uint32_t(x.size());
  for (float v : x) {
    in.in.insert(in.in.end(), {fbits(v), 0, 0, 0});
  }
  HarnessResult r = run_shader(in);
  CHECK(r.compiled.code.prelude.find("#define CLP_FS_USES_KILL 1\n") != std::string::npos);
  for (uint32_t i = 0; i < in.count; ++i) {
    const bool killed = x[i] >= 4 || x[i] == 1;
    INFO("x " << x[i]);
    CHECK((r.exec[i] != 0) == !killed);
    if (!killed) CHECK(r.f(i, 0, 0) == x[i]);
  }
}

TEST_CASE("emit: DEMOTE keeps helpers running, READ_HELPER sees them", "[emit][fs]") {
  HarnessInput in;
  in.tgsi = R"(FRAG
DCL IN[0], GENERIC[0], LINEAR
DCL OUT[0], COLOR
DCL TEMP[0..1]
IMM[0] FLT32 {0x3f000000, 0x00000000, 0x3f800000, 0x00000000}
  0: FSLT TEMP[0].x, IN[0].xxxx, IMM[0].xxxx
  1: UIF TEMP[0].xxxx :3
  2:   DEMOTE
  3: ENDIF
  4: READ_HELPER TEMP[1].x
  5: DDX OUT[0].y, IN[0].xxxx
  6: MOV OUT[0].x, TEMP[1].xxxx
  7: END
)";
  const float v[8] = {0.0f, 1.0f, 2.0f, 3.0f, 1.0f, 0.25f, 2.0f, 0.0f};
  in.count = 8;
  for (float f : v)
    in.in.insert(in.in.end(), {fbits(f), 0, 0, 0});
  in.helper = {0, 0, 0, -1, 0, 0, 0, 0};  // lane 3 of quad 0 starts as a helper
  HarnessResult r = run_shader(in);
  for (uint32_t i = 0; i < 8; ++i) {
    const bool demoted = v[i] < 0.5f;
    INFO("invocation " << i);
    CHECK((r.exec[i] != 0) == !demoted);
    CHECK(r.u(i, 0, 0) == ((demoted || i == 3) ? ~0u : 0u));
    // Helpers still feed DDX (this row's difference).
    const uint32_t row = (i / 4) * 4 + (i & 2);
    CHECK(r.f(i, 0, 1) == v[row + 1] - v[row]);
  }
}

TEST_CASE("emit: fragment inputs, INTERP_OFFSET and system values", "[emit][fs]") {
  HarnessInput in;
  in.tgsi = R"(FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL IN[1].xy, GENERIC[1], LINEAR, CENTROID
DCL SV[0], SAMPLEID
DCL SV[1], POSITION
DCL OUT[0], COLOR
DCL OUT[1], COLOR[1]
DCL OUT[2], COLOR[2]
IMM[0] FLT32 {0x3f000000, 0xbf000000, 0x00000000, 0x00000000}
  0: INTERP_OFFSET OUT[0], IN[0], IMM[0].xyxy
  1: INTERP_CENTROID OUT[1].xy, IN[1].yxxx
  2: MOV OUT[1].zw, SV[0].xxxx
  3: MOV OUT[2], SV[1]
  4: END
)";
  in.count = 4;
  in.sv.assign(4 * 64 * 4, 0);
  for (uint32_t l = 0; l < 4; ++l) {
    const float x = float(l & 1), y = float(l >> 1);
    in.in.insert(in.in.end(), {fbits(x * 4.0f + y * 8.0f), fbits(1.0f), fbits(y), fbits(x)});
    in.in.insert(in.in.end(), {fbits(10.0f + l), fbits(20.0f + l), 0, 0});
    in.sv[(l * 64 + 23) * 4] = 7 + l;  // SAMPLEID
    for (int c = 0; c < 4; ++c)
      in.sv[(l * 64 + 0) * 4 + c] = fbits(float(100 * c + l));
  }
  HarnessResult r = run_shader(in);
  for (uint32_t l = 0; l < 4; ++l) {
    const float x = float(l & 1), y = float(l >> 1);
    INFO("lane " << l);
    // The harness moves an input along the quad's fine derivatives.
    CHECK(r.f(l, 0, 0) == x * 4.0f + y * 8.0f + 0.5f * 4.0f - 0.5f * 8.0f);
    CHECK(r.f(l, 0, 1) == 1.0f);
    CHECK(r.f(l, 0, 2) == y - 0.5f);
    CHECK(r.f(l, 0, 3) == x + 0.5f);
    CHECK(r.f(l, 1, 0) == 20.0f + l);
    CHECK(r.f(l, 1, 1) == 10.0f + l);
    CHECK(r.u(l, 1, 2) == 7 + l);
    for (int c = 0; c < 4; ++c)
      CHECK(r.f(l, 2, c) == float(100 * c + l));
  }
}
