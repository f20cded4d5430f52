// The TGSI IR: one shader as the parser read it, typed, with source positions.
//
// Produced by parse_tgsi() (tgsi/parser.h); checked by validate() (validate.h); read by
// the printer (tgsi/printer.h), the analysis (shader_info.h), control_flow() and the
// OpenCL C emitter. The IR mirrors Mesa's tgsi_full_* token structures, field for field,
// so every construct of TGSI text has exactly one representation:
//
//  * Shader: stage, properties (in order), declarations, immediates, instructions.
//  * Registers are untyped 4 x 32-bit; the opcode gives each operand its type
//    (opcode_info(op).dst[] / src[] in tgsi/tables.h). 64-bit values use channel pairs.
//  * Instruction i is instruction number i of the text (the "n:" prefixes of the dump are
//    ignored when parsing and regenerated when printing); branch labels (`:n`) refer to
//    these numbers. Control flow stays a flat, structured list: control_flow() (in
//    control_flow.h) pairs IF/ELSE/ENDIF, loops, switches and subroutines.
//  * Declarations are kept in text order with two normalisations done by the parser (Mesa
//    allows repeats and overlaps): (1) declarations that carry nothing but a range (no
//    semantic, no ArrayID, equal attributes) and overlap or touch are merged, in the place
//    of the first one, e.g. virgl's trailing "DCL TEMP[2..5]" + "DCL TEMP[6]" become one
//    TEMP[2..6]; (2) declarations of the same registers that differ only in their usage
//    mask become one with the union of the masks (component-packed varyings:
//    "DCL IN[0].xyz, GENERIC[0]" + "DCL IN[0].w, GENERIC[0]"). Other overlaps stay and are
//    validation errors. DeclMap (decl_map.h) answers "which declaration covers
//    FILE[dim][index]".
//  * Equality (operator==) compares content only, never source positions, so
//    parse(print(parse(x))) == parse(x) can be tested.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "clpipe/format.h"
#include "compiler/diagnostics.h"
#include "compiler/tgsi/tables.h"

namespace clpipe::compiler {

// Write masks / usage masks: bit c = channel c (x = 1, y = 2, z = 4, w = 8).
constexpr uint8_t kMaskXYZW = 0xf;

// Size limits of the parser (the TGSI token format stores register indices as signed 16
// bits); anything larger is rejected with a diagnostic, so later stages can size arrays
// from the IR without overflow.
constexpr uint32_t kMaxRegisterIndex = 32767;
constexpr int32_t kMinIndexOffset = -32768;  // indirect offsets: ADDR[0].x-32768 ..
constexpr uint32_t kMaxSemanticIndex = 65535;
constexpr uint32_t kMaxArrayId = 65535;
constexpr uint32_t kMaxImmediates = 32768;
constexpr uint32_t kMaxInstructions = 1u << 20;
constexpr uint32_t kMaxDeclarations = 1u << 20;
constexpr size_t kMaxTextBytes = 16u << 20;

// An image format named in text: `name` is the util_format spelling upper-cased
// ("PIPE_FORMAT_R32_UINT"); `format` is the clpipe format of that name, Format::NONE when
// clpipe has none (the name is kept so the error can name it). Empty name = no format
// given (memory instructions without one).
struct ImageFormat {
  std::string name;
  Format format = Format::NONE;
  bool is_present() const { return !name.empty(); }
  bool operator==(const ImageFormat& o) const { return name == o.name; }
  bool operator!=(const ImageFormat& o) const { return !(*this == o); }
};

struct PropertyDecl {
  Property name = Property::GS_INPUT_PRIM;
  uint32_t value = 0;  // enum values (primitive, origin, stage) as their numbers
  SourceLoc loc;
  bool operator==(const PropertyDecl& o) const { return name == o.name && value == o.value; }
};

// One DCL statement (tgsi_full_declaration). Fields that do not apply to `file` keep
// their defaults.
struct Declaration {
  RegFile file = RegFile::TEMP;
  uint32_t first = 0;  // register range, inclusive; first <= last
  uint32_t last = 0;
  // 2D declarations of CONST (buffer), HWATOMIC (buffer) and other non-vertex files:
  // `DCL CONST[dim][first..last]`. Dimension 0 and no dimension mean the same buffer.
  bool has_dimension = false;
  uint32_t dimension = 0;
  // The vertex bracket of per-vertex IN (GS, TCS, TES) and OUT (TCS), "DCL IN[][r]", is not
  // stored: Mesa drops it too (the vertex count comes from the primitive or patch size),
  // so "DCL IN[][0]" and "DCL IN[0]" are the same declaration. is_per_vertex() says
  // which registers are per-vertex.
  uint8_t usage_mask = kMaskXYZW;
  uint32_t array_id = 0;  // ARRAY(n); 0 = not an array
  bool local = false;     // LOCAL
  // Semantic (IN / OUT / SV ...). For a range, register first + k has index
  // semantic_index + k (tgsi_scan convention).
  bool has_semantic = false;
  Semantic semantic = Semantic::POSITION;
  uint32_t semantic_index = 0;
  std::array<uint8_t, 4> stream = {0, 0, 0, 0};  // GS OUT: vertex stream per channel
  bool has_interp = false;                       // FS IN: an interpolation mode was given
  InterpMode interp = InterpMode::CONSTANT;
  InterpLoc location = InterpLoc::CENTER;
  bool invariant = false;
  // SVIEW: target and return type per channel. IMAGE: target (below `format`).
  TexTarget target = TexTarget::UNKNOWN;
  std::array<ReturnType, 4> return_type = {ReturnType::UNKNOWN, ReturnType::UNKNOWN,
                                           ReturnType::UNKNOWN, ReturnType::UNKNOWN};
  ImageFormat format;     // IMAGE: declared format ("PIPE_FORMAT_NONE" = from the view)
  bool writable = false;  // IMAGE: WR
  bool raw = false;       // IMAGE: RAW
  bool atomic = false;    // BUFFER: ATOMIC
  MemoryType memory_type = MemoryType::GLOBAL;  // MEMORY
  SourceLoc loc;                                // the DCL keyword

  bool operator==(const Declaration& o) const;
  bool operator!=(const Declaration& o) const { return !(*this == o); }
  // Semantic index of register `reg` (first <= reg <= last).
  uint32_t semantic_index_of(uint32_t reg) const { return semantic_index + (reg - first); }
};

// IMM[n] TYPE {v0, ...}: raw 32-bit words. 32-bit types have one word per value; 64-bit
// types two (low word first). Words beyond num_words are 0. Mesa always emits four words;
// hand-written text may give fewer values.
struct Immediate {
  ImmType type = ImmType::UINT32;
  uint8_t num_words = 4;  // 1..4 (2 or 4 for 64-bit types)
  std::array<uint32_t, 4> words = {0, 0, 0, 0};
  SourceLoc loc;
  bool operator==(const Immediate& o) const {
    return type == o.type && num_words == o.num_words && words == o.words;
  }
};

// The register inside an indirect bracket: FILE[index].component, plus the ArrayID
// "(n)" written after the bracket. file == NONE means the bracket is direct.
struct IndirectRef {
  RegFile file = RegFile::NONE;
  uint32_t index = 0;
  uint8_t component = 0;  // 0..3 = x..w
  uint32_t array_id = 0;
  bool is_indirect() const { return file != RegFile::NONE; }
  bool operator==(const IndirectRef& o) const {
    return file == o.file && index == o.index && component == o.component && array_id == o.array_id;
  }
};

// A register reference: FILE[index] or FILE[ADDR[a].c + index], optionally preceded by
// a dimension bracket FILE[dim][...] (CONST buffer, vertex of IN/OUT, HWATOMIC buffer).
// The effective index of an indirect bracket is value(indirect) + index, absolute in the
// file; the ArrayID only promises that the access stays inside that array.
// A dimension on TEMP ("MOV TEMP[ADDR[1].x][6], ...") is a known virgl artefact for TCS
// outputs routed through a fix-up temp (tgsi.md §14, corpus 1039.tgsi): validate()
// accepts it and the dimension must be ignored. The matching write "MOV OUT[1], TEMP[6]"
// names a TCS per-vertex output without its vertex: that means the invocation's own
// vertex (gl_out[gl_InvocationID]).
struct RegisterRef {
  RegFile file = RegFile::TEMP;
  int32_t index = 0;  // direct: >= 0; indirect: signed offset
  IndirectRef indirect;
  bool has_dimension = false;
  int32_t dimension = 0;  // direct dimension, or the offset of an indirect one
  IndirectRef dim_indirect;
  bool operator==(const RegisterRef& o) const;
};

struct DstOperand {
  RegisterRef reg;
  uint8_t write_mask = kMaskXYZW;
  SourceLoc loc;  // first character of the operand
  bool operator==(const DstOperand& o) const { return reg == o.reg && write_mask == o.write_mask; }
};

struct SrcOperand {
  RegisterRef reg;
  std::array<uint8_t, 4> swizzle = {0, 1, 2, 3};  // source channel per result channel
  bool negate = false;    // "-": applied after abs; integer negation for integer sources
  bool absolute = false;  // "|x|"
  SourceLoc loc;
  bool operator==(const SrcOperand& o) const {
    return reg == o.reg && swizzle == o.swizzle && negate == o.negate && absolute == o.absolute;
  }
};

// Texture offset operand FILE[index].xyz (integer texel offsets, usually an IMM).
struct TexOffset {
  RegFile file = RegFile::IMM;
  uint32_t index = 0;
  std::array<uint8_t, 3> swizzle = {0, 1, 2};
  SourceLoc loc;
  bool operator==(const TexOffset& o) const {
    return file == o.file && index == o.index && swizzle == o.swizzle;
  }
};

constexpr unsigned kMaxDst = 2;
constexpr unsigned kMaxSrc = 5;
constexpr unsigned kMaxTexOffsets = 4;

struct Instruction {
  Opcode opcode = Opcode::NOP;
  bool saturate = false;  // _SAT
  bool precise = false;   // _PRECISE
  // Operand counts always equal opcode_info(opcode).num_dst / num_src (the parser
  // enforces it); unused slots keep their defaults.
  uint8_t num_dst = 0;
  uint8_t num_src = 0;
  std::array<DstOperand, kMaxDst> dst;
  std::array<SrcOperand, kMaxSrc> src;
  // Classic texture opcodes (opcode_info().is_tex): the target after the operands.
  TexTarget texture = TexTarget::UNKNOWN;
  uint8_t num_tex_offsets = 0;
  std::array<TexOffset, kMaxTexOffsets> tex_offsets;
  // Memory opcodes (opcode_is_memory): qualifier bits (MemQualifier::*), image target
  // (BUFFER = none given, as in Mesa) and format (empty = none given).
  uint8_t mem_qualifiers = 0;
  TexTarget mem_target = TexTarget::BUFFER;
  ImageFormat mem_format;
  // Branch label ":n" (IF/UIF -> ELSE or ENDIF, ELSE -> ENDIF, CAL -> BGNSUB; loop labels
  // are dummies in Mesa output).
  bool has_label = false;
  uint32_t label = 0;
  SourceLoc loc;        // the opcode
  SourceLoc label_loc;  // the label number

  bool operator==(const Instruction& o) const;
  bool operator!=(const Instruction& o) const { return !(*this == o); }
  const OpcodeInfo& info() const { return opcode_info(opcode); }
};

struct Shader {
  ShaderType stage = ShaderType::VERTEX;
  std::vector<PropertyDecl> properties;  // in text order (repeats kept)
  std::vector<Declaration> declarations;
  std::vector<Immediate> immediates;  // IMM[i] = immediates[i]
  std::vector<Instruction> instructions;

  bool operator==(const Shader& o) const;
  bool operator!=(const Shader& o) const { return !(*this == o); }
  // The last value given for `p`, else property_default(p).
  uint32_t property(Property p) const;
  bool has_property(Property p) const;
};

// True for the registers that have one value per vertex of the primitive or patch and
// are addressed FILE[vertex][register]: GS inputs (except PRIM_ID), TCS/TES inputs and TCS
// outputs (except the per-patch PATCH, TESSINNER, TESSOUTER, PRIM_ID).
bool is_per_vertex(ShaderType stage, const Declaration& decl);

}  // namespace clpipe::compiler
