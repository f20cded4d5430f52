// Parser tests, header / properties / declarations / immediates: one test per form of
// tgsi.md §3, §4, §6 and §7 (src/compiler/tgsi/parser.h).
#include <cstring>

#include "compiler/tgsi_test_util.h"

using namespace clpipe;
using namespace clpipe::compiler;
using namespace clpipe::compiler::test;

namespace {

// The one declaration of "<stage>\n<line>\n".
Declaration decl(const std::string& stage, const std::string& line) {
  Shader s = parse_ok(stage + "\n" + line + "\n");
  REQUIRE(s.declarations.size() == 1);
  return s.declarations[0];
}

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

}  // namespace

TEST_CASE("parser: header names every stage, case-insensitively", "[compiler][parser]") {
  CHECK(parse_ok("VERT").stage == ShaderType::VERTEX);
  CHECK(parse_ok("frag").stage == ShaderType::FRAGMENT);
  CHECK(parse_ok("  GEOM\n").stage == ShaderType::GEOMETRY);
  CHECK(parse_ok("TESS_CTRL").stage == ShaderType::TESS_CTRL);
  CHECK(parse_ok("TESS_EVAL").stage == ShaderType::TESS_EVAL);
  CHECK(parse_ok("COMP").stage == ShaderType::COMPUTE);
  Diagnostic d = parse_error("VERTEX\nEND\n");
  CHECK(d.loc.line == 1);
  CHECK(d.loc.column == 1);
  CHECK(d.message.find("shader stage") != std::string::npos);
}

TEST_CASE("parser: properties with each value syntax", "[compiler][parser]") {
  Shader s = parse_ok(
      "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES_ADJACENCY\n"
      "PROPERTY GS_OUTPUT_PRIMITIVE line_strip\nPROPERTY GS_MAX_OUTPUT_VERTICES 4294967295\n"
      "PROPERTY NEXT_SHADER FRAG\n");
  REQUIRE(s.properties.size() == 4);
  CHECK(s.properties[0].name == Property::GS_INPUT_PRIM);
  CHECK(s.properties[0].value == uint32_t(PrimType::TRIANGLES_ADJACENCY));
  CHECK(s.properties[1].value == uint32_t(PrimType::LINE_STRIP));
  CHECK(s.properties[2].value == 4294967295u);
  CHECK(s.properties[3].value == uint32_t(ShaderType::FRAGMENT));
  CHECK(s.properties[1].loc.line == 3);
  CHECK(s.properties[1].loc.column == 10);

  Shader f = parse_ok(
      "FRAG\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\nPROPERTY FS_COORD_PIXEL_CENTER INTEGER\n");
  CHECK(f.property(Property::FS_COORD_ORIGIN) == 1);
  CHECK(f.property(Property::FS_COORD_PIXEL_CENTER) == 1);
  CHECK(f.property(Property::FS_EARLY_DEPTH_STENCIL) == 0);  // default

  CHECK(parse_error("FRAG\nPROPERTY FS_COORD_ORIGIN MIDDLE\n").message.find("UPPER_LEFT") !=
        std::string::npos);
  Diagnostic unknown = parse_error("FRAG\nPROPERTY FOO 1\n");
  CHECK(unknown.loc.line == 2);
  CHECK(unknown.loc.column == 10);
  CHECK(unknown.message.find("unknown property `FOO'") != std::string::npos);
  CHECK(parse_error("FRAG\nPROPERTY NUM_CLIPDIST_ENABLED 4294967296\n").message.find("too large") !=
        std::string::npos);
}

TEST_CASE("parser: a property after declarations and immediates", "[compiler][parser]") {
  Shader s = parse_ok(
      "VERT\nDCL IN[0]\nIMM[0] UINT32 {1, 0, 0, 0}\nPROPERTY SEPARABLE_PROGRAM 1\n"
      "DCL TEMP[0]\n  0: END\n");
  CHECK(s.property(Property::SEPARABLE_PROGRAM) == 1);
  CHECK(s.declarations.size() == 2);
}

TEST_CASE("parser: DCL ranges, masks and the plain register files", "[compiler][parser]") {
  Declaration t = decl("VERT", "DCL TEMP[0..12]");
  CHECK(t.file == RegFile::TEMP);
  CHECK(t.first == 0);
  CHECK(t.last == 12);
  CHECK(t.usage_mask == kMaskXYZW);
  CHECK_FALSE(t.has_semantic);

  Declaration in = decl("VERT", "DCL IN[3]");
  CHECK(in.first == 3);
  CHECK(in.last == 3);

  Declaration masked = decl("VERT", "DCL OUT[1].xz, GENERIC[3]");
  CHECK(masked.usage_mask == 0x5);

  CHECK(decl("FRAG", "DCL SAMP[0..3]").file == RegFile::SAMP);
  CHECK(decl("FRAG", "DCL ADDR[0..2]").last == 2);
  CHECK(decl("FRAG", "dcl const [ 0 .. 24 ]").last == 24);

  Diagnostic reversed = parse_error("FRAG\nDCL TEMP[5..2]\n");
  CHECK(reversed.loc.line == 2);
  CHECK(reversed.loc.column == 13);
  CHECK(reversed.message.find("reversed") != std::string::npos);
  Diagnostic mask = parse_error("FRAG\nDCL TEMP[0].yx\n");
  CHECK(mask.message.find("order") != std::string::npos);
}

TEST_CASE("parser: DCL 2D CONST (UBO) and HWATOMIC ranges", "[compiler][parser]") {
  Declaration ubo = decl("FRAG", "DCL CONST[1][0..3]");
  CHECK(ubo.has_dimension);
  CHECK(ubo.dimension == 1);
  CHECK(ubo.first == 0);
  CHECK(ubo.last == 3);

  Declaration atomic = decl("COMP", "DCL HWATOMIC[1][1..3], ARRAY(1)");
  CHECK(atomic.has_dimension);
  CHECK(atomic.dimension == 1);
  CHECK(atomic.array_id == 1);

  CHECK(parse_error("FRAG\nDCL CONST[0..1][0]\n").message.find("single index") !=
        std::string::npos);
}

TEST_CASE("parser: DCL per-vertex inputs with empty brackets and implied sizes",
          "[compiler][parser]") {
  // GS: the size comes from GS_INPUT_PRIMITIVE; the vertex bracket is dropped.
  Shader gs = parse_ok(
      "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nDCL IN[][0], POSITION\n"
      "DCL IN[3][1], GENERIC[0]\nDCL IN[], GENERIC[7]\n");
  REQUIRE(gs.declarations.size() == 3);
  CHECK(gs.declarations[0].first == 0);
  CHECK_FALSE(gs.declarations[0].has_dimension);
  CHECK(gs.declarations[1].first == 1);
  CHECK(gs.declarations[2].first == 0);  // "IN[]" alone: registers 0..2
  CHECK(gs.declarations[2].last == 2);
  CHECK(is_per_vertex(ShaderType::GEOMETRY, gs.declarations[0]));

  // TCS/TES: implied 32; TCS outputs are per-vertex too, patch semantics are not.
  Shader tcs = parse_ok("TESS_CTRL\nDCL OUT[][0], POSITION\nDCL OUT[1], PATCH[0]\nDCL IN[]\n");
  CHECK(is_per_vertex(ShaderType::TESS_CTRL, tcs.declarations[0]));
  CHECK_FALSE(is_per_vertex(ShaderType::TESS_CTRL, tcs.declarations[1]));
  CHECK(tcs.declarations[2].last == 31);

  // Without an implied size a lone [] is an error.
  Diagnostic d = parse_error("FRAG\nDCL IN[], GENERIC[0]\n");
  CHECK(d.loc.line == 2);
  CHECK(d.message.find("implied size") != std::string::npos);
}

TEST_CASE("parser: DCL ARRAY and LOCAL", "[compiler][parser]") {
  Declaration a = decl("VERT", "DCL TEMP[13..16], ARRAY(1), LOCAL");
  CHECK(a.array_id == 1);
  CHECK(a.local);
  CHECK(parse_error("VERT\nDCL TEMP[0], ARRAY(0)\n").message.find("start at 1") !=
        std::string::npos);
  CHECK(parse_error("VERT\nDCL TEMP[0], ARRAY 1\n").message.find("expected `('") !=
        std::string::npos);
}

TEST_CASE("parser: DCL semantics with and without index", "[compiler][parser]") {
  Declaration color = decl("FRAG", "DCL OUT[0], COLOR");
  CHECK(color.has_semantic);
  CHECK(color.semantic == Semantic::COLOR);
  CHECK(color.semantic_index == 0);
  Declaration generic = decl("VERT", "DCL OUT[1], GENERIC[255]");
  CHECK(generic.semantic == Semantic::GENERIC);
  CHECK(generic.semantic_index == 255);
  Declaration prim = decl("FRAG", "DCL IN[0].x, PRIM_ID, CONSTANT");
  CHECK(prim.semantic == Semantic::PRIMID);
  CHECK(prim.usage_mask == 1);
  Declaration sv = decl("COMP", "DCL SV[0], THREAD_ID");
  CHECK(sv.file == RegFile::SV);
  CHECK(sv.semantic == Semantic::THREAD_ID);
  CHECK(parse_error("VERT\nDCL OUT[0], GENERIC[65536]\n").message.find("too large") !=
        std::string::npos);
}

TEST_CASE("parser: DCL interpolation, location, INVARIANT", "[compiler][parser]") {
  Declaration d = decl("FRAG", "DCL IN[3], GENERIC[4], PERSPECTIVE, CENTROID");
  CHECK(d.has_interp);
  CHECK(d.interp == InterpMode::PERSPECTIVE);
  CHECK(d.location == InterpLoc::CENTROID);
  Declaration s = decl("FRAG", "DCL IN[4], GENERIC[5], LINEAR, SAMPLE");
  CHECK(s.location == InterpLoc::SAMPLE);
  // COLOR is first the semantic, then the interpolation mode.
  Declaration c = decl("FRAG", "DCL IN[2], COLOR, COLOR");
  CHECK(c.semantic == Semantic::COLOR);
  CHECK(c.has_interp);
  CHECK(c.interp == InterpMode::COLOR);
  Declaration loc_only = decl("VERT", "DCL OUT[1], GENERIC[0], CENTROID");
  CHECK_FALSE(loc_only.has_interp);
  CHECK(loc_only.location == InterpLoc::CENTROID);
  Declaration inv = decl("VERT", "DCL OUT[0], POSITION, INVARIANT");
  CHECK(inv.invariant);
  // Attributes out of order are rejected at the offending word.
  Diagnostic d2 = parse_error("FRAG\nDCL IN[0], GENERIC[0], CENTROID, PERSPECTIVE\n");
  CHECK(d2.loc.line == 2);
  CHECK(d2.loc.column == 34);
  CHECK(d2.message.find("`PERSPECTIVE'") != std::string::npos);
}

TEST_CASE("parser: DCL STREAM on geometry outputs", "[compiler][parser]") {
  Declaration d = decl("GEOM", "DCL OUT[1], GENERIC[0], STREAM(1, 1, 2, 3)");
  CHECK(d.stream == std::array<uint8_t, 4>{1, 1, 2, 3});
  CHECK(
      parse_error("GEOM\nDCL OUT[1], GENERIC[0], STREAM(1, 1, 4, 3)\n").message.find("too large") !=
      std::string::npos);
}

TEST_CASE("parser: DCL SVIEW target and return types", "[compiler][parser]") {
  Declaration one = decl("FRAG", "DCL SVIEW[1], 2D_ARRAY, SINT");
  CHECK(one.target == TexTarget::T2D_ARRAY);
  CHECK(one.return_type == std::array<ReturnType, 4>{ReturnType::SINT, ReturnType::SINT,
                                                     ReturnType::SINT, ReturnType::SINT});
  Declaration four = decl("FRAG", "DCL SVIEW[0], SHADOWCUBEARRAY, FLOAT, UINT, SINT, UNORM");
  CHECK(four.target == TexTarget::SHADOWCUBE_ARRAY);
  CHECK(four.return_type[3] == ReturnType::UNORM);
  CHECK(parse_error("FRAG\nDCL SVIEW[0], 2D, FLOAT, UINT\n")
            .message.find("one return type or four") != std::string::npos);
  CHECK(parse_error("FRAG\nDCL SVIEW[0], 2D\n").message.find("expected `,'") != std::string::npos);
}

TEST_CASE("parser: DCL IMAGE target, format, WR, RAW", "[compiler][parser]") {
  Declaration d = decl("FRAG", "DCL IMAGE[0], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT, WR");
  CHECK(d.target == TexTarget::T2D);
  CHECK(d.format.name == "PIPE_FORMAT_R32G32B32A32_FLOAT");
  CHECK(d.format.format == Format::R32G32B32A32_FLOAT);
  CHECK(d.writable);
  CHECK_FALSE(d.raw);
  Declaration none = decl("FRAG", "DCL IMAGE[1], 2D, PIPE_FORMAT_NONE, WR");
  CHECK(none.format.format == Format::NONE);
  Declaration raw = decl("COMP", "DCL IMAGE[2], BUFFER, RAW, pipe_format_r32_uint");
  CHECK(raw.raw);
  CHECK(raw.format.name == "PIPE_FORMAT_R32_UINT");
  // A util_format name clpipe does not have is kept as text.
  Declaration unknown = decl("FRAG", "DCL IMAGE[0], 2D, PIPE_FORMAT_ASTC_4x4, WR");
  CHECK(unknown.format.name == "PIPE_FORMAT_ASTC_4X4");
  CHECK(unknown.format.format == Format::NONE);
  // No format is Mesa's PIPE_FORMAT_NONE.
  CHECK(decl("FRAG", "DCL IMAGE[0], 3D").format.name == "PIPE_FORMAT_NONE");
}

TEST_CASE("parser: DCL BUFFER ATOMIC and MEMORY kinds", "[compiler][parser]") {
  CHECK(decl("COMP", "DCL BUFFER[0], ATOMIC").atomic);
  CHECK_FALSE(decl("COMP", "DCL BUFFER[0]").atomic);
  CHECK(decl("COMP", "DCL MEMORY[0], SHARED").memory_type == MemoryType::SHARED);
  CHECK(decl("COMP", "DCL MEMORY[1], PRIVATE").memory_type == MemoryType::PRIVATE);
  CHECK(decl("COMP", "DCL MEMORY[2], INPUT").memory_type == MemoryType::INPUT);
  CHECK(decl("COMP", "DCL MEMORY[3], GLOBAL").memory_type == MemoryType::GLOBAL);
}

TEST_CASE("parser: repeated and touching declarations merge", "[compiler][parser]") {
  Shader s = parse_ok(
      "FRAG\nDCL TEMP[0..3]\nDCL IN[0].xyz, GENERIC[0], PERSPECTIVE\nDCL TEMP[8]\n"
      "DCL IN[0].w, GENERIC[0], PERSPECTIVE\nDCL TEMP[4..7]\nDCL TEMP[2]\n"
      "DCL TEMP[9..10], ARRAY(1), LOCAL\nDCL SAMP[0]\nDCL SAMP[1]\n");
  REQUIRE(s.declarations.size() == 4);
  CHECK(s.declarations[0].file == RegFile::TEMP);
  CHECK(s.declarations[0].first == 0);
  CHECK(s.declarations[0].last == 8);  // 0..3, 8, 4..7, 2 -> 0..8
  CHECK(s.declarations[1].file == RegFile::IN);
  CHECK(s.declarations[1].usage_mask == kMaskXYZW);  // .xyz + .w
  CHECK(s.declarations[2].array_id == 1);            // arrays never merge
  CHECK(s.declarations[3].file == RegFile::SAMP);
  CHECK(s.declarations[3].last == 1);
}

TEST_CASE("parser: immediates of every type", "[compiler][parser]") {
  Shader s = parse_ok(
      "VERT\nIMM[0] FLT32 {0x3f800000, -0.5, 1e3, 2.}\n"
      "IMM[1] UINT32 {3212836864, 0, 4294967295, 1}\n"
      "IMM[2] INT32 {-2147483648, 2147483647, -1, 0}\n"
      "IMM[3] FLT64 {1.0, -2.5}\n"
      "IMM[4] UINT64 {0xffffffffffffffff, 8}\n"
      "IMM INT64 {-9223372036854775808, 017}\n"
      "IMM[6] UINT32 {7}\n");
  REQUIRE(s.immediates.size() == 7);
  CHECK(s.immediates[0].type == ImmType::FLT32);
  CHECK(s.immediates[0].words ==
        std::array<uint32_t, 4>{0x3f800000u, bits(-0.5f), bits(1000.0f), bits(2.0f)});
  CHECK(s.immediates[1].words[0] == 3212836864u);
  CHECK(s.immediates[1].words[2] == 4294967295u);
  CHECK(s.immediates[2].words[0] == 0x80000000u);
  CHECK(s.immediates[2].words[2] == 0xffffffffu);
  // 64-bit values fill two words, low word first: 1.0 = 0x3ff00000_00000000.
  CHECK(s.immediates[3].num_words == 4);
  CHECK(s.immediates[3].words == std::array<uint32_t, 4>{0, 0x3ff00000u, 0, 0xc0040000u});
  CHECK(s.immediates[4].words == std::array<uint32_t, 4>{0xffffffffu, 0xffffffffu, 8, 0});
  CHECK(s.immediates[5].words == std::array<uint32_t, 4>{0, 0x80000000u, 15, 0});
  CHECK(s.immediates[6].num_words == 1);
  CHECK(s.immediates[6].words[0] == 7);
}

TEST_CASE("parser: immediate errors", "[compiler][parser]") {
  Diagnostic order = parse_error("VERT\nIMM[0] UINT32 {1}\nIMM[2] UINT32 {1}\n");
  CHECK(order.loc.line == 3);
  CHECK(order.loc.column == 5);
  CHECK(order.message.find("expected IMM[1]") != std::string::npos);
  Diagnostic big = parse_error("VERT\nIMM[0] UINT32 {4294967296, 0, 0, 0}\n");
  CHECK(big.loc.line == 2);
  CHECK(big.loc.column == 16);
  CHECK(big.message.find("out of range") != std::string::npos);
  CHECK(parse_error("VERT\nIMM[0] INT32 {2147483648}\n").message.find("out of range") !=
        std::string::npos);
  CHECK(parse_error("VERT\nIMM[0] UINT32 {1, 2, 3, 4, 5}\n").message.find("too many values") !=
        std::string::npos);
  CHECK(parse_error("VERT\nIMM[0] FLT64 {1.0, 2.0, 3.0}\n").message.find("hold 2") !=
        std::string::npos);
  CHECK(parse_error("VERT\nIMM[0] FLT32 {0x3f8000000}\n").message.find("out of range") !=
        std::string::npos);
  CHECK(parse_error("VERT\nIMM[0] UINT32 {1.5}\n").message.find("after the immediate value") !=
        std::string::npos);
  CHECK(parse_error("VERT\nIMM[0] UINT16 {1}\n").message.find("immediate type") !=
        std::string::npos);
  CHECK(parse_error("VERT\nIMM[0] UINT32 {}\n").message.find("expected an unsigned") !=
        std::string::npos);
}
