// Operands: how each register file is read and written in the generated code, with
// indirect addressing (per-lane gathers and scatters, bounds-checked) and the typed
// views of a source (float / int / uint with the opcode's modifiers).
//
// Storage: TEMP -> variables t<r>_<c> (or rows of ta<id> / tf arrays when addressed
// indirectly), ADDR -> vi a<r>_<c>, IN / OUT -> io->in / io->out (per-vertex registers
// of GS/TCS/TES through the shader_abi.h hooks), CONST -> the constant buffer parameters,
// IMM -> literals, SV -> sv<r>_<c> locals read once in the prologue.
#include <cmath>
#include <cstdio>
#include <cstring>

#include "compiler/emit/emitter.h"

namespace clpipe::compiler::emit_detail {

std::string Emitter::imm_bits(uint32_t index, unsigned chan) const {
  const uint32_t bits = s_.immediates[index].words[chan & 3];
  return u32_lit(bits);
}

namespace {

// A float literal for the bits when C can spell it exactly (normal, zero), else a bit cast.
std::string float_literal(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  if (std::isfinite(f) && (f == 0.0f || std::isnormal(f))) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "(vf)(%af)", double(f));
    return buf;
  }
  return "CLP_VF_BITS(" + u32_lit(bits) + ")";
}

}  // namespace

std::string Emitter::temp_name(uint32_t reg, unsigned chan) const {
  const std::string c = std::to_string(chan);
  if (temp_file_array_) return "tf[" + std::to_string(reg) + "][" + c + "]";
  for (const TempArray& a : temp_arrays_) {
    if (reg >= a.first && reg <= a.last) {
      return "ta" + std::to_string(a.id) + "[" + std::to_string(reg - a.first) + "][" + c + "]";
    }
  }
  return "t" + std::to_string(reg) + "_" + c;
}

std::string Emitter::index_expr(const Instruction& inst, const IndirectRef& ind, int32_t offset) {
  if (ind.file != RegFile::ADDR) fail(inst, "indirect addressing must go through ADDR");
  std::string a = "a" + std::to_string(ind.index) + "_" + std::to_string(ind.component & 3);
  if (offset == 0) return a;
  // Wrapping arithmetic: a huge offset must not overflow a signed int.
  return "CLP_AS_VI(CLP_AS_VU(" + a + ") + (vu)(" + u32_lit(uint32_t(offset)) + "))";
}

const Declaration* Emitter::io_decl(RegFile file, uint32_t index) const {
  return decls_.find(file, 0, index);
}

bool Emitter::tcs_per_vertex_out(const RegisterRef& reg) const {
  if (s_.stage != ShaderType::TESS_CTRL || reg.file != RegFile::OUT) return false;
  if (reg.has_dimension) return true;
  if (reg.indirect.is_indirect() || reg.index < 0) return false;
  const Declaration* d = io_decl(RegFile::OUT, uint32_t(reg.index));
  return d && is_per_vertex(s_.stage, *d);
}

std::string Emitter::vertex_index(const Instruction& inst, const RegisterRef& reg) {
  if (!reg.has_dimension) {
    // A TCS per-vertex output named without its vertex: the invocation's own.
    return "CLP_AS_VI(clp_system_value(stage, io, " +
           std::to_string(unsigned(Semantic::INVOCATIONID)) + ", 0))";
  }
  if (reg.dim_indirect.is_indirect()) return index_expr(inst, reg.dim_indirect, reg.dimension);
  return "(vi)(" + i32_lit(reg.dimension) + ")";
}

std::string Emitter::read_channel(const Instruction& inst, const RegisterRef& reg, unsigned chan) {
  const std::string c = std::to_string(chan);
  const bool ind = reg.indirect.is_indirect();
  switch (reg.file) {
    case RegFile::TEMP: {
      if (!ind) return temp_name(uint32_t(reg.index), chan);
      const std::string idx = index_expr(inst, reg.indirect, reg.index);
      if (temp_file_array_) {
        return "clp_reg_gather(&tf[0][0], " + std::to_string(num_temps_) + ", " + idx + ", " + c +
               ")";
      }
      for (const TempArray& a : temp_arrays_) {
        if (a.id != reg.indirect.array_id) continue;
        return "clp_reg_gather(&ta" + std::to_string(a.id) + "[0][0], " +
               std::to_string(a.last - a.first + 1) + ", " + idx + " - (vi)(" +
               std::to_string(a.first) + "), " + c + ")";
      }
      fail(inst, "indirect TEMP access through an unknown array");
    }
    case RegFile::IN: {
      const bool per_vertex = reg.has_dimension && (s_.stage == ShaderType::GEOMETRY ||
                                                    s_.stage == ShaderType::TESS_CTRL ||
                                                    s_.stage == ShaderType::TESS_EVAL);
      if (per_vertex) {
        const std::string v = vertex_index(inst, reg);
        if (ind) {
          return "clp_vin_gather(stage, " + v + ", " + index_expr(inst, reg.indirect, reg.index) +
                 ", " + c + ", CLP_NUM_INPUTS)";
        }
        return "clp_vertex_input(stage, " + v + ", " + std::to_string(reg.index) + ", " + c + ")";
      }
      if (ind) {
        return "clp_reg_gather(&io->in[0][0], CLP_NUM_INPUTS, " +
               index_expr(inst, reg.indirect, reg.index) + ", " + c + ")";
      }
      return "io->in[" + std::to_string(reg.index) + "][" + c + "]";
    }
    case RegFile::OUT: {
      if (tcs_per_vertex_out(reg)) {
        const std::string v = vertex_index(inst, reg);
        if (ind) {
          return "clp_vout_gather(stage, " + v + ", " + index_expr(inst, reg.indirect, reg.index) +
                 ", " + c + ", CLP_NUM_OUTPUTS)";
        }
        return "clp_vertex_output_load(stage, " + v + ", " + std::to_string(reg.index) + ", " + c +
               ")";
      }
      if (ind) {
        return "clp_reg_gather(&io->out[0][0], CLP_NUM_OUTPUTS, " +
               index_expr(inst, reg.indirect, reg.index) + ", " + c + ")";
      }
      return "io->out[" + std::to_string(reg.index) + "][" + c + "]";
    }
    case RegFile::CONST: {
      const std::string slot = ind ? index_expr(inst, reg.indirect, reg.index)
                                   : "(vi)(" + std::to_string(reg.index) + ")";
      if (reg.has_dimension && reg.dim_indirect.is_indirect()) {
        // Per-lane buffer: every declared buffer is a candidate; others read 0.
        const std::string buf = index_expr(inst, reg.dim_indirect, reg.dimension);
        std::string e = "(vf)(0.0f)";
        for (const ConstBufferInfo& cb : info_.const_buffers) {
          const std::string b = std::to_string(cb.index);
          e = "select(" + e + ", clp_cb_gather(clp_cb" + b + ", cbsz" + b + ", " + slot + ", " + c +
              "), CLP_MASK(" + buf + " == (vi)(" + b + ")))";
        }
        return e;
      }
      const uint32_t b = reg.has_dimension ? uint32_t(reg.dimension) : 0;
      const std::string bs = std::to_string(b);
      if (!has_param(ParamKind::kConstBuffer, b)) return "(vf)(0.0f)";
      if (ind) return "clp_cb_gather(clp_cb" + bs + ", cbsz" + bs + ", " + slot + ", " + c + ")";
      const auto word = std::make_pair(b, int64_t(reg.index) * 4 + chan);
      if (word.second < 0 || word.second > INT32_MAX) return "(vf)(0.0f)";  // never bound
      const auto it = cb_words_.emplace(word, uint32_t(cb_words_.size())).first;
      return "cbw" + std::to_string(it->second);
    }
    case RegFile::IMM:
      return float_literal(s_.immediates[uint32_t(reg.index)].words[chan & 3]);
    case RegFile::SV:
      if (ind) fail(inst, "indirect access to system values is not supported");
      return "sv" + std::to_string(reg.index) + "_" + c;
    default:
      fail(inst, std::string("register file ") + file_name(reg.file) + " cannot be read here");
  }
}

std::string Emitter::src(const Instruction& inst, unsigned s, unsigned c, OperandType type) {
  const SrcOperand& o = inst.src[s];
  const unsigned chan = o.swizzle[c & 3] & 3;
  const bool integer = type == OperandType::I32 || type == OperandType::U32;
  const uint8_t modifiers =
      type == OperandType::I32 || type == OperandType::U32 || type == OperandType::B32
          ? kIntModifiers
          : kFloatModifiers;
  uint8_t& seen = src_modifiers_[s % kMaxSrc];
  seen = seen == kNoModifiers || seen == modifiers ? modifiers : kMixedModifiers;
  if (o.reg.file == RegFile::IMM && integer && !o.negate) {
    const uint32_t bits = s_.immediates[uint32_t(o.reg.index)].words[chan];
    if (type == OperandType::U32) return "(vu)(" + u32_lit(bits) + ")";
    return "(vi)(" + i32_lit(int32_t(bits)) + ")";
  }
  const std::string raw = read_channel(inst, o.reg, chan);
  switch (type) {
    case OperandType::I32:
      if (o.negate) return "CLP_AS_VI((vu)(0u) - CLP_AS_VU(" + raw + "))";
      return "CLP_AS_VI(" + raw + ")";
    case OperandType::U32:
    case OperandType::B32:
      if (o.negate) return "((vu)(0u) - CLP_AS_VU(" + raw + "))";
      return "CLP_AS_VU(" + raw + ")";
    default: {
      std::string e = raw;
      if (o.absolute) e = "fabs(" + e + ")";
      if (o.negate) e = "(-" + e + ")";
      return e;
    }
  }
}

std::string Emitter::write_mask_expr() const {
  return "m";
}

void Emitter::write_channel(const Instruction& inst, unsigned d, unsigned chan,
                            const std::string& value_in) {
  const DstOperand& dst = inst.dst[d];
  const RegisterRef& reg = dst.reg;
  const OperandType type = inst.info().dst[d];
  std::string value = value_in;
  if (inst.saturate && (type == OperandType::F32 || type == OperandType::ANY)) {
    value = "clp_sat(" + value + ")";
  }
  const std::string c = std::to_string(chan);
  const bool ind = reg.indirect.is_indirect();
  auto assign = [&](const std::string& lhs) {
    if (masked())
      line(lhs + " = select(" + lhs + ", " + value + ", m);");
    else
      line(lhs + " = " + value + ";");
  };
  switch (reg.file) {
    case RegFile::TEMP: {
      if (!ind) return assign(temp_name(uint32_t(reg.index), chan));
      const std::string idx = index_expr(inst, reg.indirect, reg.index);
      if (temp_file_array_) {
        line("clp_reg_scatter(&tf[0][0], " + std::to_string(num_temps_) + ", " + idx + ", " + c +
             ", " + value + ", m);");
        return;
      }
      for (const TempArray& a : temp_arrays_) {
        if (a.id != reg.indirect.array_id) continue;
        line("clp_reg_scatter(&ta" + std::to_string(a.id) + "[0][0], " +
             std::to_string(a.last - a.first + 1) + ", " + idx + " - (vi)(" +
             std::to_string(a.first) + "), " + c + ", " + value + ", m);");
        return;
      }
      fail(inst, "indirect TEMP access through an unknown array");
    }
    case RegFile::OUT: {
      if (tcs_per_vertex_out(reg)) {
        // Other invocations read these: only lanes that take part may write.
        const std::string v = vertex_index(inst, reg);
        if (ind) {
          line("clp_vout_scatter(stage, " + v + ", " + index_expr(inst, reg.indirect, reg.index) +
               ", " + c + ", " + value + ", m & io->exec_mask, CLP_NUM_OUTPUTS);");
        } else {
          line("clp_vertex_output_store(stage, " + v + ", " + std::to_string(reg.index) + ", " + c +
               ", " + value + ", m & io->exec_mask);");
        }
        return;
      }
      if (ind) {
        line("clp_reg_scatter(&io->out[0][0], CLP_NUM_OUTPUTS, " +
             index_expr(inst, reg.indirect, reg.index) + ", " + c + ", " + value + ", m);");
        return;
      }
      return assign("io->out[" + std::to_string(reg.index) + "][" + c + "]");
    }
    case RegFile::ADDR: {
      const std::string lhs = "a" + std::to_string(reg.index) + "_" + c;
      if (masked())
        line(lhs + " = select(" + lhs + ", CLP_AS_VI(" + value + "), m);");
      else
        line(lhs + " = CLP_AS_VI(" + value + ");");
      return;
    }
    default:
      fail(inst, std::string("register file ") + file_name(reg.file) + " cannot be written");
  }
}

void Emitter::write_results(const Instruction& inst, unsigned d, const std::string values[4]) {
  const uint8_t mask = inst.dst[d].write_mask;
  std::string names[4];
  for (unsigned c = 0; c < 4; ++c) {
    if (!(mask & (1u << c))) continue;
    names[c] = "r" + std::to_string(d) + "_" + std::to_string(c);
    line("const vf " + names[c] + " = " + values[c] + ";");
  }
  for (unsigned c = 0; c < 4; ++c) {
    if (mask & (1u << c)) write_channel(inst, d, c, names[c]);
  }
}

}  // namespace clpipe::compiler::emit_detail
