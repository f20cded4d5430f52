// Control-flow pairing tests (src/compiler/control_flow.h).
#include "compiler/control_flow.h"

#include "compiler/tgsi_test_util.h"

using namespace clpipe;
using namespace clpipe::compiler;
using namespace clpipe::compiler::test;

TEST_CASE("control flow: IF/ELSE/ENDIF and loops pair up", "[compiler][cf]") {
  Shader s = valid(
      "FRAG\nDCL TEMP[0]\n"
      "  0: UIF TEMP[0].xxxx :3\n"
      "  1:   BGNLOOP :0\n"
      "  2:     BRK\n"
      "  3:   ENDLOOP :0\n"  // (label stale on purpose: IF label 3 is not its ELSE)
      "  4: ELSE :6\n"
      "  5:   KILL\n"
      "  6: ENDIF\n"
      "  7: END\n");
  ControlFlow cf = control_flow(s);
  CHECK(cf.partner == std::vector<int32_t>{4, 3, 1, 1, 6, -1, 0, -1});
  CHECK(cf.depth == std::vector<uint32_t>{0, 1, 2, 1, 0, 1, 0, 0});
  CHECK(cf.main_end == 7);
  CHECK(cf.subroutines.empty());
  CHECK(cf.stale_labels == std::vector<uint32_t>{0});
}

TEST_CASE("control flow: BRK leaves the innermost loop or switch, CONT the loop",
          "[compiler][cf]") {
  Shader s = valid(
      "VERT\nDCL TEMP[0]\n"
      "  0: BGNLOOP\n"
      "  1:   SWITCH TEMP[0].xxxx\n"
      "  2:   CASE TEMP[0].yyyy\n"
      "  3:     BRK\n"
      "  4:     CONT\n"
      "  5:   DEFAULT\n"
      "  6:   ENDSWITCH\n"
      "  7:   BRK\n"
      "  8: ENDLOOP\n"
      "  9: END\n");
  ControlFlow cf = control_flow(s);
  CHECK(cf.partner[1] == 6);  // SWITCH -> ENDSWITCH
  CHECK(cf.partner[2] == 1);  // CASE -> SWITCH
  CHECK(cf.partner[3] == 1);  // BRK in a switch leaves the switch
  CHECK(cf.partner[4] == 0);  // CONT goes to the loop
  CHECK(cf.partner[5] == 1);
  CHECK(cf.partner[6] == 1);
  CHECK(cf.partner[7] == 0);
  CHECK(cf.depth[2] == 1);  // CASE at its SWITCH's depth
  CHECK(cf.depth[3] == 2);
}

TEST_CASE("control flow: subroutines after END, CAL and RET", "[compiler][cf]") {
  Shader s = valid(
      "VERT\nDCL TEMP[0]\n"
      "  0: CAL :5\n"
      "  1: UIF TEMP[0].xxxx\n"
      "  2:   RET\n"
      "  3: ENDIF\n"
      "  4: END\n"
      "  5: BGNSUB\n"
      "  6:   RET\n"
      "  7: ENDSUB\n"
      "  8: BGNSUB\n"
      "  9: ENDSUB\n");
  ControlFlow cf = control_flow(s);
  CHECK(cf.main_end == 4);
  CHECK(cf.partner[0] == 5);
  CHECK(cf.partner[2] == -1);  // RET in main: end the shader
  CHECK(cf.partner[6] == 5);
  REQUIRE(cf.subroutines.size() == 2);
  CHECK(cf.subroutines[0].begin == 5);
  CHECK(cf.subroutines[0].end == 7);
  CHECK(cf.subroutines[1].begin == 8);
}

TEST_CASE("control flow: errors throw CompileError with positions", "[compiler][cf]") {
  Shader s = parse_ok("FRAG\nDCL TEMP[0]\n  0: BGNLOOP\n  1: UIF TEMP[0].xxxx\n  2: ENDLOOP\n");
  try {
    control_flow(s);
    FAIL("expected a CompileError");
  } catch (const CompileError& e) {
    const auto& d = e.diagnostics();
    CHECK(has_diag(d, 5, 6, "ENDLOOP without a matching BGNLOOP"));
    CHECK(has_diag(d, 3, 6, "BGNLOOP is never closed (missing ENDLOOP)"));
    CHECK(has_diag(d, 4, 6, "UIF is never closed (missing ENDIF)"));
    CHECK(has_diag(d, 5, 6, "does not end with END"));
    CHECK(e.code() == ErrorCode::kCompileError);
  }
  CHECK_THROWS_AS(control_flow(parse_ok("FRAG\nDEFAULT\nEND\n")), CompileError);
  auto twice =
      validate_errors("FRAG\nDCL TEMP[0]\nSWITCH TEMP[0].xxxx\nDEFAULT\nDEFAULT\nENDSWITCH\nEND\n");
  CHECK(has_diag(twice, 5, 1, "second DEFAULT"));
  // A CASE nested in an IF of the switch is not at the switch level.
  auto nested = validate_errors(
      "FRAG\nDCL TEMP[0]\nSWITCH TEMP[0].xxxx\nUIF TEMP[0].xxxx\nCASE TEMP[0].xxxx\nENDIF\n"
      "ENDSWITCH\nEND\n");
  CHECK(has_diag(nested, 5, 1, "CASE outside a SWITCH"));
}
