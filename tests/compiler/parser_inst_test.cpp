// Parser tests, instructions: one test per instruction / operand form of tgsi.md §8,
// plus the syntax-error diagnostics with their exact line:column.
#include "compiler/tgsi/printer.h"
#include "compiler/tgsi_test_util.h"

using namespace clpipe;
using namespace clpipe::compiler;
using namespace clpipe::compiler::test;

namespace {

// The one instruction of a shader whose body is `line`.
Instruction inst(const std::string& line, const std::string& stage = "FRAG") {
  Shader s = parse_ok(stage + "\n" + line + "\n");
  REQUIRE(s.instructions.size() == 1);
  return s.instructions[0];
}

}  // namespace

TEST_CASE("parser: leading instruction numbers are ignored", "[compiler][parser]") {
  Shader s = parse_ok("VERT\n  0: MOV TEMP[0], IN[0]\n7 :END\nEND\n");
  REQUIRE(s.instructions.size() == 3);
  CHECK(s.instructions[0].opcode == Opcode::MOV);
  CHECK(s.instructions[1].opcode == Opcode::END);
  CHECK(s.instructions[0].loc.line == 2);
  CHECK(s.instructions[0].loc.column == 6);
  Diagnostic d = parse_error("VERT\n3 MOV TEMP[0], IN[0]\n");
  CHECK(d.loc.line == 2);
  CHECK(d.loc.column == 3);
  CHECK(d.message.find("expected `:'") != std::string::npos);
}

TEST_CASE("parser: whitespace between tokens, including newlines and CR LF", "[compiler][parser]") {
  Shader s =
      parse_ok("VERT\r\nDCL\n TEMP [ 0 ]\r\nMOV\n TEMP[0]\n.\nx\n,\n-\nIN[0]\n.\nyyyy\r\nEND");
  REQUIRE(s.instructions.size() == 2);
  CHECK(s.instructions[0].dst[0].write_mask == 1);
  CHECK(s.instructions[0].src[0].negate);
  CHECK(s.instructions[0].src[0].swizzle == std::array<uint8_t, 4>{1, 1, 1, 1});
  // A lone CR is not whitespace (as in Mesa).
  Diagnostic d = parse_error("VERT\rEND\n");
  CHECK(d.loc.line == 1);
  CHECK(d.loc.column == 5);
  CHECK(d.message.find("carriage return") != std::string::npos);
}

TEST_CASE("parser: opcode names, _SAT and _PRECISE", "[compiler][parser]") {
  Instruction a = inst("mov_sat TEMP[0], IN[0]");
  CHECK(a.opcode == Opcode::MOV);
  CHECK(a.saturate);
  CHECK_FALSE(a.precise);
  Instruction b = inst("FSLT_PRECISE TEMP[0].x, IN[0].xxxx, IN[0].yyyy");
  CHECK(b.opcode == Opcode::FSLT);
  CHECK(b.precise);
  Instruction c = inst("ADD_SAT_PRECISE TEMP[0], IN[0], IN[0]");
  CHECK(c.saturate);
  CHECK(c.precise);
  CHECK(inst("DDX_FINE TEMP[0], IN[0]").opcode == Opcode::DDX_FINE);
  CHECK(inst("TXF_LZ TEMP[0], IN[0], SAMP[0], 2D").opcode == Opcode::TXF_LZ);
  Diagnostic d = parse_error("FRAG\nMOV_PRECISE_SAT TEMP[0], IN[0]\n");
  CHECK(d.loc.column == 1);
  CHECK(d.message.find("unknown opcode `MOV_PRECISE_SAT'") != std::string::npos);
  Diagnostic e = parse_error("FRAG\n  5: FOO TEMP[0]\n");
  CHECK(e.loc.line == 2);
  CHECK(e.loc.column == 6);
}

TEST_CASE("parser: operand counts are fixed per opcode", "[compiler][parser]") {
  Instruction mad = inst("MAD TEMP[0], IN[0], IN[1], IN[2]");
  CHECK(mad.num_dst == 1);
  CHECK(mad.num_src == 3);
  Instruction end = inst("END");
  CHECK(end.num_dst == 0);
  CHECK(end.num_src == 0);
  Diagnostic few = parse_error("FRAG\nMAD TEMP[0], IN[0], IN[1]\nEND\n");
  CHECK(few.loc.line == 3);
  CHECK(few.loc.column == 1);
  CHECK(few.message.find("MAD takes 4 operands") != std::string::npos);
  Diagnostic many = parse_error("FRAG\nMOV TEMP[0], IN[0], IN[1]\n");
  CHECK(many.loc.line == 2);
  CHECK(many.loc.column == 19);
  CHECK(many.message.find("after the end of the statement") != std::string::npos);
}

TEST_CASE("parser: destination write masks", "[compiler][parser]") {
  CHECK(inst("MOV TEMP[0].xw, IN[0]").dst[0].write_mask == 0x9);
  CHECK(inst("MOV TEMP[0], IN[0]").dst[0].write_mask == 0xf);
  CHECK(inst("MOV TEMP[0].YZ, IN[0]").dst[0].write_mask == 0x6);
  Diagnostic d = parse_error("FRAG\nMOV TEMP[0].zx, IN[0]\n");
  CHECK(d.loc.column == 14);
  Diagnostic e = parse_error("FRAG\nMOV TEMP[0]., IN[0]\n");
  CHECK(e.message.find("write mask") != std::string::npos);
}

TEST_CASE("parser: source swizzles, negate and absolute value", "[compiler][parser]") {
  Instruction a = inst("ADD TEMP[0], -IN[0].wzyx, |IN[1].xxxx|");
  CHECK(a.src[0].negate);
  CHECK_FALSE(a.src[0].absolute);
  CHECK(a.src[0].swizzle == std::array<uint8_t, 4>{3, 2, 1, 0});
  CHECK(a.src[1].absolute);
  CHECK(a.src[1].swizzle == std::array<uint8_t, 4>{0, 0, 0, 0});
  Instruction b = inst("MOV TEMP[0], -|IN[0]|");
  CHECK(b.src[0].negate);
  CHECK(b.src[0].absolute);
  Diagnostic three = parse_error("FRAG\nMOV TEMP[0], IN[0].xyz\n");
  CHECK(three.loc.column == 23);
  CHECK(three.message.find("exactly four") != std::string::npos);
  Diagnostic bar = parse_error("FRAG\nMOV TEMP[0], |IN[0]\n");
  CHECK(bar.message.find("absolute value") != std::string::npos);
}

TEST_CASE("parser: indirect operands with ArrayID", "[compiler][parser]") {
  Instruction a = inst("MOV TEMP[ADDR[0].x+13](1).y, TEMP[ADDR[0].z-2](2)", "VERT");
  const RegisterRef& d = a.dst[0].reg;
  CHECK(d.file == RegFile::TEMP);
  CHECK(d.indirect.file == RegFile::ADDR);
  CHECK(d.indirect.index == 0);
  CHECK(d.indirect.component == 0);
  CHECK(d.indirect.array_id == 1);
  CHECK(d.index == 13);
  CHECK(a.dst[0].write_mask == 2);
  const RegisterRef& s = a.src[0].reg;
  CHECK(s.indirect.component == 2);
  CHECK(s.index == -2);
  CHECK(s.indirect.array_id == 2);
  // Without a component the address is .x; without an offset, 0.
  Instruction b = inst("MOV TEMP[0], CONST[ADDR[1]]");
  CHECK(b.src[0].reg.indirect.index == 1);
  CHECK(b.src[0].reg.indirect.component == 0);
  CHECK(b.src[0].reg.index == 0);
  // An ArrayID on a direct bracket is dropped (as Mesa does).
  Instruction c = inst("MOV TEMP[0], TEMP[3](1)");
  CHECK_FALSE(c.src[0].reg.indirect.is_indirect());
  CHECK(c.src[0].reg.indirect.array_id == 0);
  CHECK(parse_error("FRAG\nMOV TEMP[0], TEMP[ADDR[0].q]\n").message.find("address component") !=
        std::string::npos);
  CHECK(parse_error("FRAG\nMOV TEMP[0], TEMP[ADDR[0].x+40000]\n").message.find("too large") !=
        std::string::npos);
}

TEST_CASE("parser: 2D operands of CONST and IN, dimension-indirect", "[compiler][parser]") {
  Instruction ubo = inst("MOV TEMP[0], CONST[1][3]");
  CHECK(ubo.src[0].reg.has_dimension);
  CHECK(ubo.src[0].reg.dimension == 1);
  CHECK(ubo.src[0].reg.index == 3);
  Instruction dim = inst("MOV TEMP[0], CONST[ADDR[1].x+1][ADDR[0].x+2]");
  CHECK(dim.src[0].reg.dim_indirect.file == RegFile::ADDR);
  CHECK(dim.src[0].reg.dim_indirect.index == 1);
  CHECK(dim.src[0].reg.dimension == 1);
  CHECK(dim.src[0].reg.indirect.index == 0);
  CHECK(dim.src[0].reg.index == 2);
  Instruction gs = inst("MOV TEMP[0], IN[2][1].xyxx", "GEOM");
  CHECK(gs.src[0].reg.dimension == 2);
  CHECK(gs.src[0].reg.index == 1);
  Instruction tcs = inst("MOV OUT[ADDR[1].x][ADDR[0].x+3], TEMP[0]", "TESS_CTRL");
  CHECK(tcs.dst[0].reg.has_dimension);
  CHECK(tcs.dst[0].reg.dim_indirect.is_indirect());
  CHECK(tcs.dst[0].reg.indirect.is_indirect());
  CHECK(tcs.dst[0].reg.index == 3);
  Instruction atomic =
      inst("ATOMUADD TEMP[0].x, HWATOMIC[0][ADDR[2].x], IMM[0].xxxx, IMM[0].xxxx", "COMP");
  CHECK(atomic.src[0].reg.dimension == 0);
  CHECK(atomic.src[0].reg.indirect.index == 2);
}

TEST_CASE("parser: texture targets and texture offsets", "[compiler][parser]") {
  Instruction tex = inst("TEX TEMP[0], IN[0].xyyy, SAMP[0], 2D");
  CHECK(tex.texture == TexTarget::T2D);
  CHECK(tex.num_tex_offsets == 0);
  Instruction tg4 = inst("TG4 OUT[0], TEMP[0], IMM[0].xxxx, SAMP[0], RECT, TEMP[1].xyx");
  CHECK(tg4.texture == TexTarget::RECT);
  REQUIRE(tg4.num_tex_offsets == 1);
  CHECK(tg4.tex_offsets[0].file == RegFile::TEMP);
  CHECK(tg4.tex_offsets[0].index == 1);
  CHECK(tg4.tex_offsets[0].swizzle == std::array<uint8_t, 3>{0, 1, 0});
  Instruction four = inst(
      "TG4 TEMP[0], IN[0], IMM[0].xxxx, SAMP[0], 2D, IMM[1].xyz, IMM[1].zyx, IMM[2], IMM[3].xxx");
  CHECK(four.num_tex_offsets == 4);
  CHECK(four.tex_offsets[2].swizzle == std::array<uint8_t, 3>{0, 1, 2});
  CHECK(parse_error("FRAG\nTG4 TEMP[0], IN[0], IMM[0], SAMP[0], 2D, IMM[1], IMM[1], IMM[1], "
                    "IMM[1], IMM[1]\n")
            .message.find("more than 4") != std::string::npos);
  Diagnostic no_target = parse_error("FRAG\nTEX TEMP[0], IN[0], SAMP[0], 4D\n");
  CHECK(no_target.loc.column == 30);
  CHECK(no_target.message.find("texture target") != std::string::npos);
  CHECK(parse_error("FRAG\nTEX TEMP[0], IN[0], SAMP[0], 2D, TEMP[ADDR[0].x]\n")
            .message.find("direct register") != std::string::npos);
  // The SAMPLE family takes offsets without a target.
  Instruction sample = inst("SAMPLE TEMP[0], IN[0], SVIEW[0], SAMP[0], IMM[0].xyz");
  CHECK(sample.num_tex_offsets == 1);
  CHECK(sample.texture == TexTarget::UNKNOWN);
}

TEST_CASE("parser: memory qualifiers, image targets and formats", "[compiler][parser]") {
  Instruction cas = inst(
      "ATOMCAS TEMP[2].x, IMAGE[0], TEMP[3], TEMP[0], TEMP[1], VOLATILE, 1D, "
      "PIPE_FORMAT_R32_UINT");
  CHECK(cas.mem_qualifiers == MemQualifier::VOLATILE);
  CHECK(cas.mem_target == TexTarget::T1D);
  CHECK(cas.mem_format.name == "PIPE_FORMAT_R32_UINT");
  CHECK(cas.mem_format.format == Format::R32_UINT);
  Instruction load = inst("LOAD TEMP[0].xyz, BUFFER[0], IMM[0].xxxx", "COMP");
  CHECK(load.mem_qualifiers == 0);
  CHECK(load.mem_target == TexTarget::BUFFER);
  CHECK_FALSE(load.mem_format.is_present());
  Instruction store = inst("STORE IMAGE[ADDR[2].x], TEMP[1], CONST[0], 2D, coherent, restrict");
  CHECK(store.mem_qualifiers == (MemQualifier::COHERENT | MemQualifier::RESTRICT));
  CHECK(store.dst[0].reg.indirect.index == 2);
  // PIPE_FORMAT_NONE is "no format".
  CHECK_FALSE(
      inst("LOAD TEMP[0], IMAGE[0], TEMP[1], 2D, PIPE_FORMAT_NONE").mem_format.is_present());
  Diagnostic d = parse_error("FRAG\nLOAD TEMP[0], IMAGE[0], TEMP[1], FAST\n");
  CHECK(d.loc.column == 34);
  CHECK(d.message.find("memory qualifier") != std::string::npos);
}

TEST_CASE("parser: branch labels", "[compiler][parser]") {
  Shader s = parse_ok(
      "FRAG\n  0: UIF TEMP[0].xxxx :2\n  1: ELSE :2\n  2: ENDIF\n  3: BGNLOOP :0\n"
      "  4: BRK\n  5: ENDLOOP :0\n  6: END\n");
  CHECK(s.instructions[0].has_label);
  CHECK(s.instructions[0].label == 2);
  CHECK(s.instructions[0].label_loc.line == 2);
  CHECK(s.instructions[0].label_loc.column == 24);
  CHECK(s.instructions[1].label == 2);
  CHECK_FALSE(s.instructions[2].has_label);
  CHECK(s.instructions[3].has_label);
  Diagnostic d = parse_error("FRAG\nBRK :3\n");
  CHECK(d.loc.column == 5);
  CHECK(d.message.find("BRK takes no label") != std::string::npos);
  CHECK(parse_error("FRAG\nCAL :\n").message.find("expected a label") != std::string::npos);
}

TEST_CASE("parser: register errors name the token", "[compiler][parser]") {
  Diagnostic file = parse_error("FRAG\nMOV TEMPS[0], IN[0]\n");
  CHECK(file.loc.column == 5);
  CHECK(file.message.find("`TEMPS'") != std::string::npos);
  Diagnostic empty = parse_error("FRAG\nMOV TEMP[], IN[0]\n");
  CHECK(empty.loc.column == 10);
  Diagnostic big = parse_error("FRAG\nMOV TEMP[32768], IN[0]\n");
  CHECK(big.loc.column == 10);
  CHECK(big.message.find("too large") != std::string::npos);
  Diagnostic neg = parse_error("FRAG\nMOV TEMP[-1], IN[0]\n");
  CHECK(neg.message.find("register index") != std::string::npos);
  Diagnostic unclosed = parse_error("FRAG\nMOV TEMP[0, IN[0]\n");
  CHECK(unclosed.loc.column == 11);
  CHECK(unclosed.message.find("expected `]'") != std::string::npos);
}

TEST_CASE("parser: statements need whitespace between them", "[compiler][parser]") {
  Diagnostic d = parse_error("FRAG\nDCL TEMP[0]DCL TEMP[1]\n");
  CHECK(d.loc.line == 2);
  CHECK(d.loc.column == 12);
  CHECK(parse_ok("FRAG DCL TEMP[0] END").instructions.size() == 1);
}

TEST_CASE("parser: size limits give diagnostics", "[compiler][parser]") {
  std::string many = "VERT\n";
  for (int i = 0; i <= int(kMaxImmediates); ++i)
    many += "IMM UINT32 {0}\n";
  Diagnostic d = parse_error(many);
  CHECK(d.loc.line == kMaxImmediates + 2);
  CHECK(d.message.find("too many immediates") != std::string::npos);
  std::string huge(kMaxTextBytes + 1, ' ');
  huge.replace(0, 4, "VERT");
  CHECK(parse_error(huge).message.find("limit") != std::string::npos);
}

TEST_CASE("parser: big shaders with deep nesting", "[compiler][parser]") {
  // 10000 instructions, IFs nested 500 deep: no recursion anywhere, so depth is no risk.
  std::string text = "FRAG\nDCL TEMP[0..1]\nDCL OUT[0], COLOR\n";
  const int depth = 500;
  for (int i = 0; i < depth; ++i)
    text += "UIF TEMP[0].xxxx\n";
  for (int i = 0; i < 9000 - 2 * depth; ++i)
    text += "ADD TEMP[1], TEMP[1], TEMP[0]\n";
  for (int i = 0; i < depth; ++i)
    text += "ENDIF\n";
  text += "MOV OUT[0], TEMP[1]\nEND\n";
  Shader s = valid(text);
  CHECK(s.instructions.size() == 9002);
  Shader again = parse_ok(print_tgsi(s));
  CHECK(again == s);
}
