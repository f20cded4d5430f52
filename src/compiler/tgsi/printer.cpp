// IR -> TGSI text (printer.h), following tgsi_dump.c of Mesa 22.3 statement by statement.
#include "compiler/tgsi/printer.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace clpipe::compiler {

namespace {

constexpr char kComponents[] = "xyzw";

void append_uint(std::string* out, uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%" PRIu64, v);
  *out += buf;
}

void append_int(std::string* out, int64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%" PRId64, v);
  *out += buf;
}

void append_mask(std::string* out, uint8_t mask) {
  if ((mask & kMaskXYZW) == kMaskXYZW) return;
  *out += '.';
  for (int c = 0; c < 4; ++c) {
    if (mask & (1u << c)) *out += kComponents[c];
  }
}

void append_indirect(std::string* out, const IndirectRef& ind, int32_t offset) {
  *out += file_name(ind.file);
  *out += '[';
  append_uint(out, ind.index);
  *out += "].";
  *out += kComponents[ind.component & 3];
  if (offset != 0) {
    if (offset > 0) *out += '+';
    append_int(out, offset);
  }
}

void append_bracket(std::string* out, int32_t index, const IndirectRef& ind) {
  *out += '[';
  if (ind.is_indirect()) {
    append_indirect(out, ind, index);
  } else {
    append_int(out, index);
  }
  *out += ']';
  if (ind.is_indirect() && ind.array_id != 0) {
    *out += '(';
    append_uint(out, ind.array_id);
    *out += ')';
  }
}

void append_register(std::string* out, const RegisterRef& reg) {
  *out += file_name(reg.file);
  if (reg.has_dimension) append_bracket(out, reg.dimension, reg.dim_indirect);
  append_bracket(out, reg.index, reg.indirect);
}

// tgsi_dump prints "[]" before the range of every GS input and of non-patch TCS/TES
// inputs and TCS outputs (the PRIM_ID of a GS included).
bool printed_with_vertex_bracket(ShaderType stage, const Declaration& d) {
  if (stage == ShaderType::GEOMETRY) return d.file == RegFile::IN;
  return is_per_vertex(stage, d);
}

void append_double(std::string* out, uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  if (std::isnan(d)) {
    *out += "nan";
  } else if (std::isinf(d)) {
    *out += d < 0 ? "-inf" : "inf";
  } else {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", d);
    *out += buf;
  }
}

void append_property(std::string* out, const PropertyDecl& p) {
  *out += "PROPERTY ";
  *out += property_name(p.name);
  *out += ' ';
  const char* name = "";
  switch (property_value_kind(p.name)) {
    case PropertyValueKind::PRIM:
      name = p.value < kPrimTypes ? tgsi_prim_name(PrimType(p.value)) : "";
      break;
    case PropertyValueKind::ORIGIN:
      name = p.value == 0 ? "UPPER_LEFT" : p.value == 1 ? "LOWER_LEFT" : "";
      break;
    case PropertyValueKind::CENTER:
      name = p.value == 0 ? "HALF_INTEGER" : p.value == 1 ? "INTEGER" : "";
      break;
    case PropertyValueKind::STAGE:
      name = p.value < kShaderTypes ? stage_name(ShaderType(p.value)) : "";
      break;
    case PropertyValueKind::UINT:
      break;
  }
  if (name[0] != '\0') {
    *out += name;
  } else {
    append_uint(out, p.value);
  }
}

// Mesa's pre_dedent / post_indent of the dump.
bool dedents(Opcode op) {
  return op == Opcode::ELSE || op == Opcode::ENDIF || op == Opcode::ENDLOOP || op == Opcode::ENDSUB;
}
bool indents(Opcode op) {
  return op == Opcode::IF || op == Opcode::UIF || op == Opcode::ELSE || op == Opcode::BGNLOOP ||
         op == Opcode::BGNSUB;
}

}  // namespace

std::string print_declaration(ShaderType stage, const Declaration& d) {
  std::string out = "DCL ";
  out += file_name(d.file);
  if (printed_with_vertex_bracket(stage, d)) out += "[]";
  if (d.has_dimension) {
    out += '[';
    append_uint(&out, d.dimension);
    out += ']';
  }
  out += '[';
  append_uint(&out, d.first);
  if (d.last != d.first) {
    out += "..";
    append_uint(&out, d.last);
  }
  out += ']';
  append_mask(&out, d.usage_mask);
  if (d.array_id != 0) {
    out += ", ARRAY(";
    append_uint(&out, d.array_id);
    out += ')';
  }
  if (d.local) out += ", LOCAL";
  if (d.has_semantic) {
    out += ", ";
    out += semantic_name(d.semantic);
    if (d.semantic_index != 0 || d.semantic == Semantic::GENERIC ||
        d.semantic == Semantic::TEXCOORD) {
      out += '[';
      append_uint(&out, d.semantic_index);
      out += ']';
    }
  }
  if (d.stream[0] | d.stream[1] | d.stream[2] | d.stream[3]) {
    out += ", STREAM(";
    for (int c = 0; c < 4; ++c) {
      if (c) out += ", ";
      append_uint(&out, d.stream[c]);
    }
    out += ')';
  }
  if (d.file == RegFile::IMAGE) {
    out += ", ";
    out += texture_name(d.target);
    if (d.format.is_present()) {
      out += ", ";
      out += d.format.name;
    }
    if (d.writable) out += ", WR";
    if (d.raw) out += ", RAW";
  }
  if (d.file == RegFile::BUFFER && d.atomic) out += ", ATOMIC";
  if (d.file == RegFile::MEMORY) {
    out += ", ";
    out += memory_type_name(d.memory_type);
  }
  if (d.file == RegFile::SVIEW) {
    out += ", ";
    out += texture_name(d.target);
    out += ", ";
    const auto& rt = d.return_type;
    if (rt[0] == rt[1] && rt[0] == rt[2] && rt[0] == rt[3]) {
      out += return_type_name(rt[0]);
    } else {
      for (int c = 0; c < 4; ++c) {
        if (c) out += ", ";
        out += return_type_name(rt[c]);
      }
    }
  }
  if (d.has_interp) {
    out += ", ";
    out += interp_name(d.interp);
  }
  if (d.location != InterpLoc::CENTER) {
    out += ", ";
    out += interp_loc_name(d.location);
  }
  if (d.invariant) out += ", INVARIANT";
  return out;
}

std::string print_immediate(uint32_t index, const Immediate& imm) {
  std::string out = "IMM[";
  append_uint(&out, index);
  out += "] ";
  out += imm_type_name(imm.type);
  out += " {";
  const unsigned per_value = imm_words_per_value(imm.type);
  const unsigned n = imm.num_words <= 4 ? imm.num_words : 4;
  for (unsigned w = 0; w + per_value <= n; w += per_value) {
    if (w) out += ", ";
    uint32_t lo = imm.words[w];
    uint64_t wide = per_value == 2 ? (uint64_t(imm.words[w + 1]) << 32) | lo : lo;
    switch (imm.type) {
      case ImmType::FLT32: {
        char buf[16];
        std::snprintf(buf, sizeof buf, "0x%08" PRIx32, lo);
        out += buf;
        break;
      }
      case ImmType::UINT32:
        append_uint(&out, lo);
        break;
      case ImmType::INT32:
        append_int(&out, int32_t(lo));
        break;
      case ImmType::FLT64:
        append_double(&out, wide);
        break;
      case ImmType::UINT64:
        append_uint(&out, wide);
        break;
      case ImmType::INT64:
        append_int(&out, int64_t(wide));
        break;
    }
  }
  out += '}';
  return out;
}

std::string print_instruction(const Instruction& inst) {
  const OpcodeInfo& info = inst.info();
  std::string out = info.name ? info.name : "NOP";
  if (inst.saturate) out += "_SAT";
  if (inst.precise) out += "_PRECISE";
  bool first = true;
  auto separator = [&] {
    out += first ? " " : ", ";
    first = false;
  };
  for (unsigned i = 0; i < inst.num_dst && i < kMaxDst; ++i) {
    separator();
    append_register(&out, inst.dst[i].reg);
    append_mask(&out, inst.dst[i].write_mask);
  }
  for (unsigned i = 0; i < inst.num_src && i < kMaxSrc; ++i) {
    const SrcOperand& s = inst.src[i];
    separator();
    if (s.negate) out += '-';
    if (s.absolute) out += '|';
    append_register(&out, s.reg);
    if (s.swizzle[0] != 0 || s.swizzle[1] != 1 || s.swizzle[2] != 2 || s.swizzle[3] != 3) {
      out += '.';
      for (int c = 0; c < 4; ++c)
        out += kComponents[s.swizzle[c] & 3];
    }
    if (s.absolute) out += '|';
  }
  if (info.is_tex) {
    separator();
    out += texture_name(inst.texture);
  }
  for (unsigned i = 0; i < inst.num_tex_offsets && i < kMaxTexOffsets; ++i) {
    const TexOffset& o = inst.tex_offsets[i];
    separator();
    out += file_name(o.file);
    out += '[';
    append_uint(&out, o.index);
    out += "].";
    for (int c = 0; c < 3; ++c)
      out += kComponents[o.swizzle[c] & 3];
  }
  for (unsigned bit = 0; bit < kMemQualifierCount; ++bit) {
    if (inst.mem_qualifiers & (1u << bit)) {
      separator();
      out += mem_qualifier_name(bit);
    }
  }
  if (inst.mem_target != TexTarget::BUFFER) {
    separator();
    out += texture_name(inst.mem_target);
  }
  if (inst.mem_format.is_present()) {
    separator();
    out += inst.mem_format.name;
  }
  if (inst.has_label) {
    out += " :";
    append_uint(&out, inst.label);
  }
  return out;
}

std::string print_tgsi(const Shader& shader) {
  std::string out = stage_name(shader.stage);
  out += '\n';
  for (const PropertyDecl& p : shader.properties) {
    append_property(&out, p);
    out += '\n';
  }
  for (const Declaration& d : shader.declarations) {
    out += print_declaration(shader.stage, d);
    out += '\n';
  }
  for (size_t i = 0; i < shader.immediates.size(); ++i) {
    out += print_immediate(uint32_t(i), shader.immediates[i]);
    out += '\n';
  }
  int indent = 0;
  for (size_t i = 0; i < shader.instructions.size(); ++i) {
    const Instruction& inst = shader.instructions[i];
    char num[32];
    std::snprintf(num, sizeof num, "%3zu: ", i);
    out += num;
    if (dedents(inst.opcode) && indent > 0) --indent;
    out.append(size_t(indent) * 2, ' ');
    if (indents(inst.opcode)) ++indent;
    out += print_instruction(inst);
    out += '\n';
  }
  return out;
}

}  // namespace clpipe::compiler
