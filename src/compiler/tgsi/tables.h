// TGSI vocabulary: the enums of TGSI text (opcodes, register files, semantics, texture
// targets, ...) with Mesa 22.3's numbering, their text spellings, and the per-opcode facts
// of opcodes.def.
//
// Produced from the X-macro lists opcodes.def and tables.def; consumed by the parser
// (name -> enum), the printer (enum -> name), the validator, the analysis and the
// OpenCL C emitter (operand types, channel modes, control-flow roles).
#pragma once

#include <cstdint>
#include <string_view>

#include "clpipe/defines.h"

namespace clpipe::compiler {

enum class Opcode : uint8_t {
#define CLPIPE_TGSI_OPCODE(num, name, ...) name = num,
#define CLPIPE_TGSI_OPCODE_UNUSED(num) UNUSED_##num = num,
#include "compiler/tgsi/opcodes.def"
#undef CLPIPE_TGSI_OPCODE
#undef CLPIPE_TGSI_OPCODE_UNUSED
};
constexpr unsigned kOpcodeCount = 252;

#define CLPIPE_TGSI_FILE(e, text) e,
enum class RegFile : uint8_t {
#include "compiler/tgsi/tables.def"
};
constexpr unsigned kRegFileCount = 15;

#define CLPIPE_TGSI_SEMANTIC(e, text) e,
enum class Semantic : uint8_t {
#include "compiler/tgsi/tables.def"
};
constexpr unsigned kSemanticCount = 49;

#define CLPIPE_TGSI_TEXTURE(e, text, shadow, array, msaa) e,
enum class TexTarget : uint8_t {
#include "compiler/tgsi/tables.def"
};
constexpr unsigned kTexTargetCount = 19;

#define CLPIPE_TGSI_RETURN_TYPE(e, text) e,
enum class ReturnType : uint8_t {
#include "compiler/tgsi/tables.def"
};

#define CLPIPE_TGSI_INTERP(e, text) e,
enum class InterpMode : uint8_t {
#include "compiler/tgsi/tables.def"
};

#define CLPIPE_TGSI_INTERP_LOC(e, text) e,
enum class InterpLoc : uint8_t {
#include "compiler/tgsi/tables.def"
};

#define CLPIPE_TGSI_IMM_TYPE(e, text, words) e,
enum class ImmType : uint8_t {
#include "compiler/tgsi/tables.def"
};

#define CLPIPE_TGSI_MEMORY_TYPE(e, text) e,
enum class MemoryType : uint8_t {
#include "compiler/tgsi/tables.def"
};

// Memory instruction qualifier bits (Instruction::mem_qualifiers).
namespace MemQualifier {
enum : uint8_t { COHERENT = 1, RESTRICT = 2, VOLATILE = 4, STREAM_CACHE_POLICY = 8 };
}
constexpr unsigned kMemQualifierCount = 4;

#define CLPIPE_TGSI_PROPERTY(e, text, kind, def) e,
enum class Property : uint8_t {
#include "compiler/tgsi/tables.def"
};
constexpr unsigned kPropertyCount = 29;

// How a property value is written in text.
enum class PropertyValueKind : uint8_t { UINT, PRIM, ORIGIN, CENTER, STAGE };

// Value type of one operand of an opcode (opcodes.def).
enum class OperandType : uint8_t {
  N,
  F32,
  I32,
  U32,
  F64,
  I64,
  U64,
  B32,
  ANY,
  ADDR,
  SAMP,
  SVIEW,
  RES
};
// How an opcode's results map to channels.
enum class ChannelMode : uint8_t { NONE, COMP, REPL, CHAN, OTHER };
// The role of an opcode in structured control flow.
enum class CfRole : uint8_t {
  NONE,
  IF,
  ELSE,
  ENDIF,
  LOOP,
  ENDLOOP,
  BRK,
  CONT,
  SWITCH,
  CASE,
  DEFAULT,
  ENDSWITCH,
  SUB,
  ENDSUB,
  CAL,
  RET,
  END
};

struct OpcodeInfo {
  const char* name;  // nullptr for a removed slot
  uint8_t num_dst;
  uint8_t num_src;
  bool is_tex;  // a texture target name follows the sources
  ChannelMode mode;
  CfRole cf;
  OperandType dst[2];
  OperandType src[5];
};

// Always valid: `op` is an Opcode value, so it indexes the 252-row table.
const OpcodeInfo& opcode_info(Opcode op);
inline bool opcode_is_valid(Opcode op) {
  return unsigned(op) < kOpcodeCount && opcode_info(op).name != nullptr;
}
// True for F64 / I64 / U64 (values spanning a channel pair).
inline bool is_64bit(OperandType t) {
  return t == OperandType::F64 || t == OperandType::I64 || t == OperandType::U64;
}
// Classic texture opcodes and the SAMPLE_* / GATHER4 family take texture offsets.
bool opcode_takes_tex_offsets(Opcode op);
// LOAD, STORE, RESQ and ATOM*: take memory qualifiers, an image target and a format.
bool opcode_is_memory(Opcode op);
// Opcodes whose ":label" is accepted (IF UIF ELSE BGNLOOP ENDLOOP CAL BGNSUB).
bool opcode_takes_label(Opcode op);

// Names, exactly as Mesa 22.3 prints them. "" for a value without a text spelling.
const char* stage_name(ShaderType stage);
const char* file_name(RegFile file);
const char* semantic_name(Semantic semantic);
const char* texture_name(TexTarget target);
const char* return_type_name(ReturnType type);
const char* interp_name(InterpMode mode);
const char* interp_loc_name(InterpLoc loc);
const char* imm_type_name(ImmType type);
const char* memory_type_name(MemoryType type);
const char* mem_qualifier_name(unsigned bit_index);
const char* tgsi_prim_name(PrimType prim);  // "" for a value outside the table
const char* property_name(Property property);
PropertyValueKind property_value_kind(Property property);
// The value a shader has when it does not state the property (tgsi_scan conventions:
// GS_INVOCATIONS 0 and absent both mean 1).
uint32_t property_default(Property property);

// 32-bit words per value of an immediate type (1, or 2 for the 64-bit types).
unsigned imm_words_per_value(ImmType type);
bool texture_is_shadow(TexTarget target);
bool texture_is_array(TexTarget target);
bool texture_is_msaa(TexTarget target);

// Case-insensitive lookups of an upper-case table spelling; false when the word is not a
// name of that table (words must already be whole words: no partial matches).
bool lookup_opcode(std::string_view word, Opcode* out);
bool lookup_stage(std::string_view word, ShaderType* out);
bool lookup_file(std::string_view word, RegFile* out);
bool lookup_semantic(std::string_view word, Semantic* out);
bool lookup_texture(std::string_view word, TexTarget* out);
bool lookup_return_type(std::string_view word, ReturnType* out);
bool lookup_interp(std::string_view word, InterpMode* out);
bool lookup_interp_loc(std::string_view word, InterpLoc* out);
bool lookup_imm_type(std::string_view word, ImmType* out);
bool lookup_memory_type(std::string_view word, MemoryType* out);
bool lookup_mem_qualifier(std::string_view word, unsigned* bit_index);
bool lookup_prim(std::string_view word, PrimType* out);
bool lookup_property(std::string_view word, Property* out);

// Vertices per primitive of a GS input primitive (u_vertices_per_prim): 1, 2, 3, 4, 6;
// 0 for a primitive that cannot be a GS input.
unsigned gs_input_vertices(PrimType prim);

}  // namespace clpipe::compiler
