// Validation tests (src/compiler/validate.h): each rule with the exact line:column of
// the offending token.
#include "compiler/tgsi_test_util.h"

using namespace clpipe;
using namespace clpipe::compiler;
using namespace clpipe::compiler::test;

TEST_CASE("validate: a valid shader of each stage passes", "[compiler][validate]") {
  valid("VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n  1: END\n");
  valid(
      "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {0x3f800000, 0, 0, 0}\n"
      "  0: MOV OUT[0], IMM[0].xxxx\n  1: END\n");
  valid(
      "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\n"
      "PROPERTY GS_MAX_OUTPUT_VERTICES 1\nDCL IN[][0], POSITION\nDCL OUT[0], POSITION\n"
      "IMM[0] UINT32 {0, 0, 0, 0}\n  0: MOV OUT[0], IN[0][0]\n  1: EMIT IMM[0].xxxx\n"
      "  2: END\n");
  valid(
      "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 3\nDCL IN[][0], POSITION\nDCL SV[0], INVOCATIONID\n"
      "DCL OUT[][0], POSITION\nDCL ADDR[0..1]\n  0: UARL ADDR[1].x, SV[0].xxxx\n"
      "  1: MOV OUT[ADDR[1].x][0], IN[ADDR[1].x][0]\n  2: BARRIER\n  3: END\n");
  valid(
      "TESS_EVAL\nPROPERTY TES_PRIM_MODE 7\nDCL IN[][0], POSITION\nDCL SV[0], TESSCOORD\n"
      "DCL OUT[0], POSITION\n  0: MOV OUT[0], IN[3][0]\n  1: END\n");
  valid(
      "COMP\nDCL SV[0], THREAD_ID\nDCL MEMORY[0], SHARED\nDCL TEMP[0]\n"
      "  0: STORE MEMORY[0].x, SV[0].xxxx, SV[0].xxxx\n  1: BARRIER\n  2: END\n");
}

TEST_CASE("validate: undeclared registers", "[compiler][validate]") {
  auto d = validate_errors(
      "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\n"
      "  0: MOV TEMP[2], IN[1]\n  1: ADD OUT[1], CONST[0], SV[0]\n  2: MOV TEMP[0], IMM[0]\n"
      "  3: TEX TEMP[0], IN[0], SAMP[0], 2D\n  4: END\n");
  CHECK(has_diag(d, 5, 10, "TEMP[2] is not declared"));
  CHECK(has_diag(d, 5, 19, "IN[1] is not declared"));
  CHECK(has_diag(d, 6, 10, "OUT[1] is not declared"));
  CHECK(has_diag(d, 6, 18, "CONST[0] is not declared"));
  CHECK(has_diag(d, 6, 28, "SV[0] is not declared"));
  CHECK(has_diag(d, 7, 19, "IMM[0] does not exist (0 immediates)"));
  CHECK(has_diag(d, 8, 26, "SAMP[0] is not declared"));
}

TEST_CASE("validate: constant buffers are declared per buffer", "[compiler][validate]") {
  auto d = validate_errors(
      "FRAG\nDCL OUT[0], COLOR\nDCL CONST[0..3]\nDCL CONST[2][0..1]\n"
      "  0: MOV OUT[0], CONST[0][3]\n  1: MOV OUT[0], CONST[2][2]\n  2: MOV OUT[0], CONST[1][0]\n"
      "  3: END\n");
  CHECK(d.size() == 2);
  CHECK(has_diag(d, 6, 18, "CONST[2][2] is not declared"));
  CHECK(has_diag(d, 7, 18, "CONST[1][0] is not declared"));
}

TEST_CASE("validate: indirect addressing and ArrayIDs", "[compiler][validate]") {
  auto d = validate_errors(
      "VERT\nDCL TEMP[0..3], ARRAY(1)\nDCL ADDR[0]\n"
      "  0: MOV TEMP[ADDR[0].x](1), TEMP[ADDR[1].x](1)\n"
      "  1: MOV TEMP[0], TEMP[ADDR[0].x](2)\n"
      "  2: MOV TEMP[0], TEMP[TEMP[0].x]\n"
      "  3: MOV TEMP[0], IMM[ADDR[0].x]\n  4: END\n");
  CHECK(has_diag(d, 4, 30, "ADDR[1] is not declared"));
  CHECK(has_diag(d, 5, 19, "TEMP has no ARRAY(2)"));
  CHECK(has_diag(d, 6, 19, "indirect addressing goes through ADDR, not TEMP"));
  CHECK(has_diag(d, 7, 19, "immediates are addressed directly"));
  CHECK(d.size() == 4);
}

TEST_CASE("validate: dimension brackets only where files have them", "[compiler][validate]") {
  auto d = validate_errors(
      "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL SAMP[0]\nDCL TEMP[0]\n"
      "  0: MOV TEMP[0], IN[0][0]\n  1: MOV TEMP[0], SAMP[0][0]\n  2: END\n");
  CHECK(has_diag(d, 5, 19, "IN takes no dimension bracket"));
  CHECK(has_diag(d, 6, 19, "cannot be read as a value"));
  auto gs = validate_errors(
      "GEOM\nPROPERTY GS_INPUT_PRIMITIVE LINES\nDCL IN[][0], POSITION\nDCL TEMP[0]\n"
      "  0: MOV TEMP[0], IN[2][0]\n  1: END\n");
  CHECK(has_diag(gs, 5, 19, "vertex index 2 of IN[2][0] is out of range (2 vertices)"));
}

TEST_CASE("validate: destination files and address registers", "[compiler][validate]") {
  auto d = validate_errors(
      "VERT\nDCL IN[0]\nDCL CONST[0]\nDCL ADDR[0]\nDCL TEMP[0]\n"
      "  0: MOV IN[0], TEMP[0]\n  1: MOV CONST[0], TEMP[0]\n  2: MOV ADDR[0].x, TEMP[0]\n"
      "  3: UARL TEMP[0].x, TEMP[0].xxxx\n  4: MOV TEMP[0], ADDR[0]\n  5: END\n");
  CHECK(has_diag(d, 6, 10, "destination IN[0] is not writable"));
  CHECK(has_diag(d, 7, 10, "destination CONST[0] is not writable"));
  CHECK(has_diag(d, 8, 10, "ADDR is written by ARL, UARL, ARR"));
  CHECK(has_diag(d, 9, 11, "UARL writes an address register, not TEMP[0]"));
  CHECK(has_diag(d, 10, 19, "ADDR[0] cannot be read as a value"));
}

TEST_CASE("validate: modifiers only where the operand type allows", "[compiler][validate]") {
  auto d = validate_errors(
      "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL SAMP[0]\nDCL TEMP[0..1]\n"
      "  0: UADD TEMP[0], TEMP[0], -TEMP[1]\n"     // integer negation: fine
      "  1: UADD TEMP[0], TEMP[0], |TEMP[1]|\n"    // abs on an integer
      "  2: DADD TEMP[0].xy, -TEMP[0], TEMP[1]\n"  // modifier on a 64-bit operand
      "  3: TEX TEMP[0], IN[0], -SAMP[0], 2D\n"    // modifier on a resource
      "  4: UADD_SAT TEMP[0], TEMP[0], TEMP[1]\n"  // _SAT on an integer result
      "  5: MOV_SAT TEMP[0], |TEMP[1]|\n"          // fine
      "  6: END\n");
  CHECK(d.size() == 4);
  CHECK(has_diag(d, 6, 29, "|x| needs a float operand"));
  CHECK(has_diag(d, 7, 23, "not allowed on 64-bit operands"));
  CHECK(has_diag(d, 8, 26, "not allowed on resource operands"));
  CHECK(has_diag(d, 9, 6, "_SAT only applies to float results"));
}

TEST_CASE("validate: 64-bit write masks", "[compiler][validate]") {
  valid(
      "VERT\nDCL TEMP[0..1]\n  0: DADD TEMP[0].zw, TEMP[0], TEMP[1]\n"
      "  1: DSLT TEMP[1].xz, TEMP[0], TEMP[1]\n  2: D2F TEMP[1].y, TEMP[0]\n"
      "  3: F2D TEMP[0], TEMP[1]\n  4: END\n");
  auto d = validate_errors(
      "VERT\nDCL TEMP[0..1]\n  0: DADD TEMP[0].x, TEMP[0], TEMP[1]\n"
      "  1: DSLT TEMP[1].y, TEMP[0], TEMP[1]\n  2: D2F TEMP[1].z, TEMP[0]\n"
      "  3: I2D TEMP[0].yz, TEMP[1]\n  4: END\n");
  CHECK(has_diag(d, 3, 11, "must be .xy, .zw or .xyzw, not .x"));
  CHECK(has_diag(d, 4, 11, "DSLT writes only .xz"));
  CHECK(has_diag(d, 5, 10, "D2F writes only .xy"));
  CHECK(has_diag(d, 6, 10, "not .yz"));
}

TEST_CASE("validate: operand kinds for resources", "[compiler][validate]") {
  auto d = validate_errors(
      "COMP\nDCL BUFFER[0]\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0..1]\n"
      "  0: TEX TEMP[0], TEMP[1], SVIEW[0], 2D\n  1: LOAD TEMP[0], TEMP[1], TEMP[1]\n"
      "  2: STORE TEMP[0], TEMP[1], TEMP[1]\n  3: SAMPLE TEMP[0], TEMP[1], SAMP[0], SAMP[0]\n"
      "  4: END\n");
  CHECK(has_diag(d, 6, 28, "TEX operand SVIEW[0] must be a SAMP"));
  CHECK(has_diag(d, 7, 20, "must be a resource"));
  CHECK(has_diag(d, 8, 12, "STORE writes to BUFFER, IMAGE or MEMORY"));
  CHECK(has_diag(d, 9, 31, "SAMPLE operand SAMP[0] must be a SVIEW"));
}

TEST_CASE("validate: stage-specific opcodes", "[compiler][validate]") {
  auto d = validate_errors(
      "VERT\nDCL TEMP[0]\nIMM[0] UINT32 {0, 0, 0, 0}\n  0: KILL\n  1: DDX TEMP[0], TEMP[0]\n"
      "  2: EMIT IMM[0].xxxx\n  3: BARRIER\n  4: KILL_IF TEMP[0]\n  5: END\n");
  CHECK(has_diag(d, 4, 6, "KILL is only allowed in fragment shaders"));
  CHECK(has_diag(d, 5, 6, "DDX is only allowed in fragment shaders"));
  CHECK(has_diag(d, 6, 6, "EMIT is only allowed in geometry shaders"));
  CHECK(has_diag(d, 7, 6, "BARRIER is only allowed in compute and tessellation control"));
  CHECK(has_diag(d, 8, 6, "KILL_IF is only allowed in fragment shaders"));
  auto fs = validate_errors(
      "FRAG\nDCL SV[0], THREAD_ID\nDCL MEMORY[0], SHARED\nDCL OUT[0], GENERIC[0]\n  0: END\n");
  CHECK(has_diag(fs, 2, 1, "THREAD_ID is a compute shader system value"));
  CHECK(has_diag(fs, 3, 1, "shared memory only exists in compute shaders"));
  CHECK(has_diag(fs, 4, 1, "fragment shader outputs are COLOR, POSITION, STENCIL or SAMPLEMASK"));
}

TEST_CASE("validate: properties belong to their stage and range", "[compiler][validate]") {
  auto d = validate_errors(
      "VERT\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\nPROPERTY NUM_CLIPDIST_ENABLED 9\n"
      "PROPERTY VS_WINDOW_SPACE_POSITION 1\nPROPERTY VS_WINDOW_SPACE_POSITION 0\n  0: END\n");
  CHECK(has_diag(d, 2, 10, "FS_COORD_ORIGIN does not apply to VERT"));
  CHECK(has_diag(d, 3, 10, "value 9 is out of range (at most 8)"));
  CHECK(has_diag(d, 5, 10, "given twice with different values (first at 4:10)"));
  auto gs = validate_errors(
      "GEOM\nPROPERTY GS_INPUT_PRIMITIVE QUADS\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLES\n  0: "
      "END\n");
  CHECK(has_diag(gs, 2, 10, "GS_INPUT_PRIMITIVE must be"));
  CHECK(has_diag(gs, 3, 10, "GS_OUTPUT_PRIMITIVE must be"));
}

TEST_CASE("validate: declaration rules", "[compiler][validate]") {
  auto d = validate_errors(
      "VERT\nDCL TEMP[0], GENERIC[0]\nDCL OUT[0]\nDCL SV[0]\nDCL CONST[0], LOCAL\n"
      "DCL OUT[1], GENERIC[0], PERSPECTIVE\nDCL OUT[2], GENERIC[1], STREAM(1, 0, 0, 0)\n"
      "DCL IN[0], INVARIANT\nDCL TEMP[3..4], ARRAY(1)\nDCL TEMP[5], ARRAY(1)\n"
      "DCL NULL[0]\nDCL IMM[0]\nDCL SAMP[1][0]\nDCL TEMP[4]\n  0: END\n");
  CHECK(has_diag(d, 2, 1, "a semantic (GENERIC) only applies to IN, OUT and SV"));
  CHECK(has_diag(d, 3, 1, "OUT declarations need a semantic"));
  CHECK(has_diag(d, 4, 1, "SV declarations need a semantic"));
  CHECK(has_diag(d, 5, 1, "LOCAL only applies to TEMP"));
  CHECK(has_diag(d, 6, 1, "an interpolation mode only applies to fragment shader inputs"));
  CHECK(has_diag(d, 7, 1, "STREAM only applies to geometry shader outputs"));
  CHECK(has_diag(d, 8, 1, "INVARIANT only applies to outputs"));
  CHECK(has_diag(d, 10, 1, "ARRAY(1) of TEMP is declared twice (also at 9:1)"));
  CHECK(has_diag(d, 11, 1, "register file NULL cannot be declared"));
  CHECK(has_diag(d, 12, 1, "immediates are declared with IMM"));
  CHECK(has_diag(d, 13, 1, "SAMP declarations take no dimension bracket"));
  CHECK(has_diag(d, 14, 1, "TEMP[4] is declared twice (also at 9:1)"));
}

TEST_CASE("validate: control flow nesting", "[compiler][validate]") {
  auto d = validate_errors(
      "FRAG\nDCL TEMP[0]\n  0: ELSE\n  1: UIF TEMP[0].xxxx\n  2: ENDLOOP\n  3: BRK\n"
      "  4: CONT\n  5: CASE TEMP[0].xxxx\n  6: END\n");
  CHECK(has_diag(d, 3, 6, "ELSE without a matching IF/UIF"));
  CHECK(has_diag(d, 5, 6, "ENDLOOP without a matching BGNLOOP"));
  CHECK(has_diag(d, 6, 6, "BRK outside a loop or switch"));
  CHECK(has_diag(d, 7, 6, "CONT outside a loop"));
  CHECK(has_diag(d, 8, 6, "CASE outside a SWITCH"));
  CHECK(has_diag(d, 4, 6, "UIF is never closed (missing ENDIF)"));
  CHECK(has_diag(d, 9, 6, "does not end with END at the top level"));
}

TEST_CASE("validate: END, subroutines and labels", "[compiler][validate]") {
  auto d = validate_errors(
      "VERT\nDCL TEMP[0]\n  0: END\n  1: MOV TEMP[0], TEMP[0]\n  2: BGNSUB\n  3: ENDSUB\n"
      "  4: CAL :3\n  5: UIF TEMP[0].xxxx :99\n  6: ENDIF\n");
  CHECK(has_diag(d, 4, 6, "only subroutines (BGNSUB ... ENDSUB) may follow the END"));
  CHECK(has_diag(d, 7, 6, "only subroutines"));
  CHECK(has_diag(d, 8, 6, "only subroutines"));
  auto labels = validate_errors(
      "VERT\nDCL TEMP[0]\n  0: CAL :2\n  1: UIF TEMP[0].xxxx :99\n  2: ENDIF\n  3: CAL\n  4: "
      "END\n");
  CHECK(has_diag(labels, 3, 11, "CAL label 2 does not point at a BGNSUB"));
  CHECK(has_diag(labels, 4, 24, "UIF label 99 is beyond the last instruction"));
  CHECK(has_diag(labels, 6, 6, "CAL needs a label"));
  auto sub = validate_errors("VERT\n  0: BGNSUB\n  1: ENDSUB\n  2: END\n");
  CHECK(has_diag(sub, 2, 6, "BGNSUB must come after the END"));
}

TEST_CASE("validate: the diagnostic list is capped", "[compiler][validate]") {
  std::string text = "VERT\n";
  for (int i = 0; i < 300; ++i)
    text += "MOV TEMP[0], TEMP[1]\n";
  text += "END\n";
  auto d = validate_errors(text);
  CHECK(d.size() == kMaxDiagnostics);
  CHECK(d.back().message.find("too many errors") != std::string::npos);
}

TEST_CASE("validate: per-vertex registers and vertex indices", "[compiler][validate]") {
  auto gs = validate_errors(
      "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nDCL IN[][0], POSITION\nDCL IN[][1], PRIM_ID\n"
      "DCL TEMP[0]\n  0: MOV TEMP[0], IN[0]\n  1: MOV TEMP[0], IN[1]\n  2: MOV TEMP[0], IN[0][1]\n"
      "  3: END\n");
  CHECK(gs.size() == 2);
  CHECK(has_diag(gs, 6, 19, "IN[0] is per-vertex: name the vertex, IN[vertex][0]"));
  CHECK(has_diag(gs, 8, 19, "IN[0][1] is not per-vertex (PRIM_ID)"));
  auto tes = validate_errors(
      "TESS_EVAL\nDCL IN[0], PATCH[0]\nDCL IN[][1], GENERIC[0]\nDCL TEMP[0]\n"
      "  0: MOV TEMP[0], IN[2][0]\n  1: MOV TEMP[0], IN[31][1]\n  2: MOV TEMP[0], IN[32][1]\n"
      "  3: END\n");
  CHECK(tes.size() == 2);
  CHECK(has_diag(tes, 5, 19, "is not per-vertex (PATCH)"));
  CHECK(has_diag(tes, 7, 19, "vertex index 32 of IN[32][1] is out of range (32 vertices)"));
  // A TCS writes its own vertex's output without naming it (virgl does).
  valid("TESS_CTRL\nDCL OUT[][0], POSITION\nDCL TEMP[0]\n  0: MOV OUT[0], TEMP[0]\n  1: END\n");
}
