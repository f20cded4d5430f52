// Printer tests (src/compiler/tgsi/printer.h): the exact tgsi_dump layout, and
// parse(print(x)) == x for hand-written shaders that use every construct.
#include "compiler/tgsi/printer.h"

#include "compiler/tgsi_test_util.h"

using namespace clpipe;
using namespace clpipe::compiler;
using namespace clpipe::compiler::test;

TEST_CASE("printer: tgsi_dump layout of a fragment shader", "[compiler][printer]") {
  const std::string text =
      "FRAG\n"
      "PROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\n"
      "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
      "DCL OUT[0], COLOR\n"
      "DCL SAMP[0..1]\n"
      "DCL SVIEW[0..1], 2D, FLOAT\n"
      "DCL TEMP[0..4]\n"
      "IMM[0] UINT32 {1056964608, 0, 0, 0}\n"
      "  0: FSLT TEMP[0].x, IN[0].xxxx, IMM[0].xxxx\n"
      "  1: UIF TEMP[0].xxxx :3\n"
      "  2:   TEX OUT[0], IN[0].xyyy, SAMP[0], 2D\n"
      "  3: ELSE :5\n"
      "  4:   TEX OUT[0], IN[0].xyyy, SAMP[1], 2D\n"
      "  5: ENDIF\n"
      "  6: END\n";
  CHECK(print_tgsi(parse_ok(text)) == text);
}

TEST_CASE("printer: per-vertex brackets follow tgsi_dump", "[compiler][printer]") {
  const std::string gs =
      "GEOM\n"
      "PROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n"
      "PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
      "DCL IN[][0], POSITION\n"
      "DCL IN[][1], PRIM_ID\n"
      "DCL OUT[0], POSITION\n"
      "DCL OUT[1], GENERIC[0], STREAM(1, 1, 1, 1)\n"
      "DCL TEMP[0]\n";
  CHECK(print_tgsi(parse_ok(gs)) == gs);
  const std::string tcs =
      "TESS_CTRL\n"
      "DCL IN[][0], POSITION\n"
      "DCL OUT[][0], POSITION\n"
      "DCL OUT[1], PATCH[3]\n"
      "DCL OUT[2].xy, TESSINNER\n";
  CHECK(print_tgsi(parse_ok(tcs)) == tcs);
  // A GS input written 1D is printed like Mesa prints it.
  CHECK(print_tgsi(parse_ok("GEOM\nDCL IN[0], GENERIC[1]\n")) == "GEOM\nDCL IN[][0], GENERIC[1]\n");
}

TEST_CASE("printer: declarations of every kind", "[compiler][printer]") {
  auto line = [](const std::string& stage, const std::string& dcl) {
    Shader s = parse_ok(stage + "\n" + dcl + "\n");
    REQUIRE(s.declarations.size() == 1);
    return print_declaration(s.stage, s.declarations[0]);
  };
  CHECK(line("VERT", "DCL TEMP[13..16], ARRAY(1), LOCAL") == "DCL TEMP[13..16], ARRAY(1), LOCAL");
  CHECK(line("FRAG", "dcl in[3].XZ, generic[4], perspective, centroid") ==
        "DCL IN[3].xz, GENERIC[4], PERSPECTIVE, CENTROID");
  CHECK(line("FRAG", "DCL IN[0], TEXCOORD[0], LINEAR, SAMPLE") ==
        "DCL IN[0], TEXCOORD[0], LINEAR, SAMPLE");
  CHECK(line("FRAG", "DCL OUT[1], COLOR[1]") == "DCL OUT[1], COLOR[1]");
  CHECK(line("FRAG", "DCL OUT[1], COLOR[0]") == "DCL OUT[1], COLOR");
  CHECK(line("VERT", "DCL OUT[0], POSITION, INVARIANT") == "DCL OUT[0], POSITION, INVARIANT");
  CHECK(line("FRAG", "DCL CONST[1][0..3]") == "DCL CONST[1][0..3]");
  CHECK(line("COMP", "DCL HWATOMIC[1][1..3], ARRAY(1)") == "DCL HWATOMIC[1][1..3], ARRAY(1)");
  CHECK(line("FRAG", "DCL SVIEW[0], CUBEARRAY, SINT") == "DCL SVIEW[0], CUBEARRAY, SINT");
  CHECK(line("FRAG", "DCL SVIEW[0], 2D, FLOAT, FLOAT, UINT, FLOAT") ==
        "DCL SVIEW[0], 2D, FLOAT, FLOAT, UINT, FLOAT");
  CHECK(line("FRAG", "DCL IMAGE[0], 2D, WR") == "DCL IMAGE[0], 2D, PIPE_FORMAT_NONE, WR");
  CHECK(line("COMP", "DCL IMAGE[0], BUFFER, PIPE_FORMAT_R32_UINT, RAW, WR") ==
        "DCL IMAGE[0], BUFFER, PIPE_FORMAT_R32_UINT, WR, RAW");
  CHECK(line("COMP", "DCL BUFFER[0], ATOMIC") == "DCL BUFFER[0], ATOMIC");
  CHECK(line("COMP", "DCL MEMORY[0]") == "DCL MEMORY[0], GLOBAL");
  CHECK(line("COMP", "DCL MEMORY[0], SHARED") == "DCL MEMORY[0], SHARED");
  CHECK(line("COMP", "DCL SV[0], BLOCK_ID") == "DCL SV[0], BLOCK_ID");
}

TEST_CASE("printer: immediates print their exact bits", "[compiler][printer]") {
  auto imm = [](const std::string& text) {
    Shader s = parse_ok("VERT\n" + text + "\n");
    REQUIRE(s.immediates.size() == 1);
    return print_immediate(0, s.immediates[0]);
  };
  CHECK(imm("IMM FLT32 {1.0, -0.0, 0x7fc00001, 0.1}") ==
        "IMM[0] FLT32 {0x3f800000, 0x80000000, 0x7fc00001, 0x3dcccccd}");
  CHECK(imm("IMM UINT32 {3212836864, 0, 1, 4294967295}") ==
        "IMM[0] UINT32 {3212836864, 0, 1, 4294967295}");
  CHECK(imm("IMM INT32 {1, -1, -2147483648, 0}") == "IMM[0] INT32 {1, -1, -2147483648, 0}");
  CHECK(imm("IMM FLT64 {0.1, -2}") == "IMM[0] FLT64 {0.10000000000000001, -2}");
  CHECK(imm("IMM UINT64 {0xffffffffffffffff}") == "IMM[0] UINT64 {18446744073709551615}");
  CHECK(imm("IMM INT64 {-5, 5}") == "IMM[0] INT64 {-5, 5}");
  CHECK(imm("IMM UINT32 {7, 8}") == "IMM[0] UINT32 {7, 8}");
}

TEST_CASE("printer: instruction operands and trailing parts", "[compiler][printer]") {
  auto one = [](const std::string& stage, const std::string& text) {
    Shader s = parse_ok(stage + "\n" + text + "\n");
    REQUIRE(s.instructions.size() == 1);
    return print_instruction(s.instructions[0]);
  };
  CHECK(one("FRAG", "mov_sat temp[0].xw, -|in[0].wzyx|") == "MOV_SAT TEMP[0].xw, -|IN[0].wzyx|");
  CHECK(one("FRAG", "FSNE_PRECISE TEMP[0].x, IN[0].xyzw, IN[1]") ==
        "FSNE_PRECISE TEMP[0].x, IN[0], IN[1]");
  CHECK(one("VERT", "MOV TEMP[ ADDR[0] . x + 0 ](1).y, TEMP[ADDR[0].y-3](2)") ==
        "MOV TEMP[ADDR[0].x](1).y, TEMP[ADDR[0].y-3](2)");
  CHECK(one("FRAG", "MOV TEMP[1], CONST[ADDR[1].x+1][ADDR[0].x]") ==
        "MOV TEMP[1], CONST[ADDR[1].x+1][ADDR[0].x]");
  CHECK(one("FRAG", "TG4 OUT[0], TEMP[0], IMM[0].xxxx, SAMP[0], RECT, TEMP[1].xyx") ==
        "TG4 OUT[0], TEMP[0], IMM[0].xxxx, SAMP[0], RECT, TEMP[1].xyx");
  CHECK(one("FRAG", "TEX TEMP[0], IN[0], SAMP[0], 2D, IMM[0]") ==
        "TEX TEMP[0], IN[0], SAMP[0], 2D, IMM[0].xyz");
  CHECK(one("FRAG",
            "ATOMCAS TEMP[2].x, IMAGE[0], TEMP[3], TEMP[0], TEMP[1], "
            "PIPE_FORMAT_R32_UINT, 1D, VOLATILE, COHERENT") ==
        "ATOMCAS TEMP[2].x, IMAGE[0], TEMP[3], TEMP[0], TEMP[1], COHERENT, VOLATILE, 1D, "
        "PIPE_FORMAT_R32_UINT");
  CHECK(one("COMP", "STORE BUFFER[0].x, IMM[0].xxxx, IMM[0].yyyy, BUFFER") ==
        "STORE BUFFER[0].x, IMM[0].xxxx, IMM[0].yyyy");
  CHECK(one("FRAG", "UIF TEMP[0].xxxx :12") == "UIF TEMP[0].xxxx :12");
  CHECK(one("FRAG", "BGNSUB :0") == "BGNSUB :0");
}

TEST_CASE("printer: indentation nests and never goes negative", "[compiler][printer]") {
  const std::string text =
      "VERT\n"
      "  0: BGNLOOP :0\n"
      "  1:   UIF TEMP[0].xxxx :3\n"
      "  2:     BRK\n"
      "  3:   ENDIF\n"
      "  4: ENDLOOP :0\n"
      "  5: END\n"
      "  6: BGNSUB\n"
      "  7:   RET\n"
      "  8: ENDSUB\n";
  CHECK(print_tgsi(parse_ok(text)) == text);
  CHECK(print_tgsi(parse_ok("VERT\nENDIF\nENDIF\nEND\n")) ==
        "VERT\n  0: ENDIF\n  1: ENDIF\n  2: END\n");
}

TEST_CASE("printer: round trip of hand-written shaders with every construct",
          "[compiler][printer]") {
  const char* shaders[] = {
      "FRAG\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\nPROPERTY FS_COORD_PIXEL_CENTER INTEGER\n"
      "DCL IN[0], POSITION, LINEAR\nDCL IN[1].x, FACE, CONSTANT\nDCL IN[2], COLOR, COLOR\n"
      "DCL OUT[0], COLOR\nDCL OUT[1], POSITION\nDCL OUT[2], STENCIL\nDCL OUT[3], SAMPLEMASK\n"
      "DCL SV[0], SAMPLEID\nDCL TEMP[0..3]\nIMM[0] FLT32 {0x3f800000, 0x00000000, 1.5, -2}\n"
      "  0: KILL_IF -IN[1].xxxx\n  1: DDX_FINE TEMP[0], IN[0]\n"
      "  2: INTERP_SAMPLE TEMP[1], IN[2], SV[0].xxxx\n  3: MOV OUT[0], TEMP[1]\n  4: END\n",
      "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 8\nDCL SV[0], THREAD_ID\nDCL BUFFER[0], ATOMIC\n"
      "DCL IMAGE[0], 2D_ARRAY, PIPE_FORMAT_R8G8B8A8_UNORM, WR\nDCL MEMORY[0], SHARED\n"
      "DCL HWATOMIC[0][0..1]\nDCL TEMP[0..3]\nDCL ADDR[0..2]\nIMM[0] UINT32 {0, 4, 1, 0}\n"
      "  0: LOAD TEMP[0], BUFFER[0], IMM[0].xxxx\n"
      "  1: STORE MEMORY[0].xy, IMM[0].yyyy, TEMP[0]\n  2: BARRIER\n"
      "  3: ATOMUADD TEMP[1].x, HWATOMIC[0][ADDR[2].x], IMM[0].yyyy, IMM[0].zzzz\n"
      "  4: STORE IMAGE[0], TEMP[2], TEMP[0], 2D_ARRAY, PIPE_FORMAT_R8G8B8A8_UNORM\n"
      "  5: RESQ TEMP[3], IMAGE[0], 2D_ARRAY\n  6: MEMBAR IMM[0].zzzz\n  7: END\n",
      "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL TEMP[0]\nIMM[0] UINT32 {1, 2, 0, 0}\n"
      "  0: SWITCH IMM[0].xxxx\n  1: CASE IMM[0].xxxx\n  2:   BRK\n  3: DEFAULT\n"
      "  4: CAL :8\n  5: ENDSWITCH\n  6: MOV OUT[0], IN[0]\n  7: END\n  8: BGNSUB :0\n"
      "  9:   RET\n 10: ENDSUB\n",
      "VERT\nDCL OUT[0], POSITION\nIMM[0] FLT64 {1.5, -0.25}\nIMM[1] INT64 {-1, 0}\n"
      "IMM[2] UINT64 {1, 2}\nDCL TEMP[0..1]\n  0: DADD TEMP[0].xy, IMM[0].xyxy, IMM[0].zwzw\n"
      "  1: DSLT TEMP[1].x, TEMP[0], IMM[0]\n  2: U64ADD TEMP[0].zw, IMM[1].xyxy, IMM[2].zwzw\n"
      "  3: DFRACEXP TEMP[0].xy, TEMP[1].x, IMM[0].xyxy\n  4: END\n",
  };
  for (const char* text : shaders) {
    Shader a = valid(text);
    std::string printed = print_tgsi(a);
    Shader b = parse_ok(printed);
    CHECK(a == b);
    CHECK(print_tgsi(b) == printed);
  }
}

TEST_CASE("printer: equality ignores positions but not content", "[compiler][printer]") {
  Shader a = parse_ok("VERT\nDCL TEMP[0]\nMOV TEMP[0], TEMP[0]\nEND\n");
  Shader b = parse_ok("VERT\n\n\n   DCL TEMP[0]\n  0: MOV TEMP[0], TEMP[0].xyzw\n  1: END\n");
  CHECK(a == b);
  Shader c = parse_ok("VERT\nDCL TEMP[0]\nMOV TEMP[0], TEMP[0].xyzx\nEND\n");
  CHECK(a != c);
  Shader d = parse_ok("VERT\nDCL TEMP[0]\nMOV_SAT TEMP[0], TEMP[0]\nEND\n");
  CHECK(a != d);
}
