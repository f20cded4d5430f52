// Tests of the TGSI tables (src/compiler/tgsi/tables.h, opcodes.def, tables.def): Mesa
// 22.3's numbering, operand counts and types, and name lookups.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "compiler/tgsi/tables.h"

using namespace clpipe;
using namespace clpipe::compiler;

TEST_CASE("opcode table has Mesa 22.3's 252 slots and numbers", "[compiler][tables]") {
  unsigned named = 0, unused = 0;
  std::set<std::string> names;
  for (unsigned i = 0; i < kOpcodeCount; ++i) {
    const OpcodeInfo& info = opcode_info(Opcode(i));
    if (info.name) {
      ++named;
      CHECK(names.insert(info.name).second);  // no duplicate spelling
    } else {
      ++unused;
    }
  }
  CHECK(named == 244);
  CHECK(unused == 8);
  // Spot checks against tgsi.md §9 / p_shader_tokens.h.
  CHECK(unsigned(Opcode::ARL) == 0);
  CHECK(unsigned(Opcode::MOV) == 1);
  CHECK(unsigned(Opcode::TEX) == 52);
  CHECK(unsigned(Opcode::UIF) == 75);
  CHECK(unsigned(Opcode::END) == 117);
  CHECK(unsigned(Opcode::UARL) == 157);
  CHECK(unsigned(Opcode::ATOMCAS) == 169);
  CHECK(unsigned(Opcode::DDIV) == 248);
  CHECK(unsigned(Opcode::ATOMDEC_WRAP) == 251);
  CHECK(opcode_info(Opcode::UNUSED_67).name == nullptr);
  CHECK_FALSE(opcode_is_valid(Opcode::UNUSED_165));
}

TEST_CASE("opcode operand counts, modes and types", "[compiler][tables]") {
  const OpcodeInfo& mad = opcode_info(Opcode::MAD);
  CHECK(mad.num_dst == 1);
  CHECK(mad.num_src == 3);
  CHECK(mad.mode == ChannelMode::COMP);
  CHECK(mad.src[2] == OperandType::F32);

  const OpcodeInfo& txd = opcode_info(Opcode::TXD);
  CHECK(txd.is_tex);
  CHECK(txd.num_src == 4);
  CHECK(txd.src[3] == OperandType::SAMP);

  CHECK(opcode_info(Opcode::RCP).mode == ChannelMode::REPL);
  CHECK(opcode_info(Opcode::LIT).mode == ChannelMode::CHAN);
  CHECK(opcode_info(Opcode::FSEQ).dst[0] == OperandType::B32);
  CHECK(opcode_info(Opcode::UCMP).src[0] == OperandType::U32);
  CHECK(opcode_info(Opcode::UCMP).src[1] == OperandType::ANY);
  CHECK(opcode_info(Opcode::LDEXP).src[1] == OperandType::I32);
  CHECK(opcode_info(Opcode::DSLT).src[0] == OperandType::F64);
  CHECK(opcode_info(Opcode::U64SHL).src[1] == OperandType::U32);
  CHECK(opcode_info(Opcode::DFRACEXP).num_dst == 2);
  CHECK(opcode_info(Opcode::DFRACEXP).dst[1] == OperandType::I32);
  CHECK(opcode_info(Opcode::STORE).dst[0] == OperandType::RES);
  CHECK(opcode_info(Opcode::UARL).dst[0] == OperandType::ADDR);
  CHECK(opcode_info(Opcode::SAMPLE_D).num_src == 5);
  CHECK(opcode_info(Opcode::CLOCK).num_src == 0);

  CHECK(opcode_info(Opcode::UIF).cf == CfRole::IF);
  CHECK(opcode_info(Opcode::ENDSWITCH).cf == CfRole::ENDSWITCH);
  CHECK(opcode_info(Opcode::BGNSUB).cf == CfRole::SUB);
  CHECK(opcode_info(Opcode::END).cf == CfRole::END);
  CHECK(opcode_info(Opcode::MOV).cf == CfRole::NONE);

  // Only the documented texture opcodes take a target (tgsi.md §8.1).
  std::set<std::string> tex;
  for (unsigned i = 0; i < kOpcodeCount; ++i) {
    const OpcodeInfo& info = opcode_info(Opcode(i));
    if (info.name && info.is_tex) tex.insert(info.name);
  }
  CHECK(tex == std::set<std::string>{"TEX", "TXP", "TXB", "TXL", "TXD", "TXF", "TXQ", "TXQS", "TG4",
                                     "LODQ", "TEX2", "TXB2", "TXL2", "TEX_LZ", "TXF_LZ",
                                     "SAMP2HND"});
  CHECK(opcode_takes_tex_offsets(Opcode::SAMPLE_C));
  CHECK_FALSE(opcode_takes_tex_offsets(Opcode::LOAD));
  CHECK(opcode_is_memory(Opcode::ATOMIMAX));
  CHECK(opcode_is_memory(Opcode::RESQ));
  CHECK_FALSE(opcode_is_memory(Opcode::TEX));
  CHECK(opcode_takes_label(Opcode::BGNSUB));
  CHECK_FALSE(opcode_takes_label(Opcode::BRK));
}

TEST_CASE("name lookups are case-insensitive whole words", "[compiler][tables]") {
  Opcode op;
  CHECK(lookup_opcode("mov", &op));
  CHECK(op == Opcode::MOV);
  CHECK(lookup_opcode("Ddx_Fine", &op));
  CHECK(op == Opcode::DDX_FINE);
  CHECK_FALSE(lookup_opcode("MOV_SAT", &op));  // suffixes are the parser's business
  CHECK_FALSE(lookup_opcode("MO", &op));
  CHECK_FALSE(lookup_opcode("", &op));

  RegFile f;
  CHECK(lookup_file("temp", &f));
  CHECK(f == RegFile::TEMP);
  CHECK(lookup_file("NULL", &f));
  CHECK(f == RegFile::NONE);

  Semantic s;
  CHECK(lookup_semantic("prim_id", &s));
  CHECK(s == Semantic::PRIMID);
  CHECK(unsigned(Semantic::TEXCOORD) == 19);
  CHECK(unsigned(Semantic::VIEWPORT_MASK) == 46);
  // Semantics without a text spelling in 22.3 cannot be named.
  CHECK(std::string(semantic_name(Semantic::TESS_DEFAULT_OUTER_LEVEL)).empty());

  TexTarget t;
  CHECK(lookup_texture("2d_array", &t));
  CHECK(t == TexTarget::T2D_ARRAY);
  CHECK(lookup_texture("CUBEARRAY", &t));
  CHECK(t == TexTarget::CUBE_ARRAY);
  CHECK_FALSE(lookup_texture("CUBE_ARRAY", &t));
  CHECK(texture_is_shadow(TexTarget::SHADOWCUBE_ARRAY));
  CHECK(texture_is_array(TexTarget::SHADOWCUBE_ARRAY));
  CHECK(texture_is_msaa(TexTarget::T2D_ARRAY_MSAA));
  CHECK_FALSE(texture_is_shadow(TexTarget::RECT));

  ReturnType rt;
  CHECK(lookup_return_type("sint", &rt));
  CHECK(rt == ReturnType::SINT);
  CHECK_FALSE(lookup_return_type("UNKNOWN", &rt));  // no text in 22.3

  Property p;
  CHECK(lookup_property("next_shader", &p));
  CHECK(unsigned(p) == 19);
  CHECK(property_value_kind(Property::GS_INPUT_PRIM) == PropertyValueKind::PRIM);
  CHECK(property_default(Property::GS_INVOCATIONS) == 1);

  unsigned bit;
  CHECK(lookup_mem_qualifier("volatile", &bit));
  CHECK(bit == 2);
  ImmType it;
  CHECK(lookup_imm_type("flt64", &it));
  CHECK(imm_words_per_value(it) == 2);
  PrimType prim;
  CHECK(lookup_prim("triangles_adjacency", &prim));
  CHECK(gs_input_vertices(prim) == 6);
  CHECK(gs_input_vertices(PrimType::QUADS) == 0);
}

TEST_CASE("every table name looks up to itself", "[compiler][tables]") {
  for (unsigned i = 0; i < kOpcodeCount; ++i) {
    const char* n = opcode_info(Opcode(i)).name;
    if (!n) continue;
    Opcode op;
    REQUIRE(lookup_opcode(n, &op));
    CHECK(unsigned(op) == i);
  }
  for (unsigned i = 0; i < kSemanticCount; ++i) {
    std::string n = semantic_name(Semantic(i));
    if (n.empty()) continue;
    Semantic s;
    REQUIRE(lookup_semantic(n, &s));
    CHECK(unsigned(s) == i);
  }
  for (unsigned i = 0; i < kTexTargetCount; ++i) {
    TexTarget t;
    REQUIRE(lookup_texture(texture_name(TexTarget(i)), &t));
    CHECK(unsigned(t) == i);
  }
  for (unsigned i = 0; i < kPropertyCount; ++i) {
    Property p;
    REQUIRE(lookup_property(property_name(Property(i)), &p));
    CHECK(unsigned(p) == i);
  }
  for (unsigned i = 0; i < kRegFileCount; ++i) {
    RegFile f;
    REQUIRE(lookup_file(file_name(RegFile(i)), &f));
    CHECK(unsigned(f) == i);
  }
  for (unsigned i = 0; i < kShaderTypes; ++i) {
    ShaderType st;
    REQUIRE(lookup_stage(stage_name(ShaderType(i)), &st));
    CHECK(unsigned(st) == i);
  }
}
