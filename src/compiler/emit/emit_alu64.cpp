// 64-bit opcodes: doubles and 64-bit integers held in channel pairs (tgsi.md §8.5, §9):
// pair 0 = channels x (low word) and y (high word) of the swizzled source, pair 1 = z and
// w. Component-wise 64-bit opcodes work per pair; 64 -> 32-bit conversions write channel
// p from pair p; compares write channel 2p; 32 -> 64-bit conversions read channel p into
// pair p. Shift counts of U64SHL / I64SHR / U64SHR come from channel p of src1, the
// exponent of DLDEXP from channel 2p (the tgsi.md table; NTT only ever uses pair 0).
//
// Doubles need EmitOptions::fp64 (cl_khr_fp64), 64-bit integers EmitOptions::int64;
// without them the shader is rejected with a CompileError.
#include <vector>

#include "compiler/emit/emitter.h"

namespace clpipe::compiler::emit_detail {

namespace {

ValType val_type(OperandType t) {
  switch (t) {
    case OperandType::F64:
      return ValType::D;
    case OperandType::I64:
      return ValType::L;
    case OperandType::U64:
      return ValType::UL;
    case OperandType::I32:
      return ValType::I;
    case OperandType::U32:
    case OperandType::B32:
      return ValType::U;
    default:
      return ValType::F;
  }
}

}  // namespace

std::string Emitter::pair64(const Instruction& inst, unsigned s, unsigned pair, ValType type) {
  const SrcOperand& o = inst.src[s];
  const std::string lo = let("vf", read_channel(inst, o.reg, o.swizzle[2 * pair] & 3));
  const std::string hi = let("vf", read_channel(inst, o.reg, o.swizzle[2 * pair + 1] & 3));
  switch (type) {
    case ValType::D:
      return let("vd", "clp_mkd(" + lo + ", " + hi + ")");
    case ValType::L:
      return let("vl", "CLP_AS_VL(clp_mk64(" + lo + ", " + hi + "))");
    default:
      return let("vul", "clp_mk64(" + lo + ", " + hi + ")");
  }
}

void Emitter::write_pair(const Instruction& inst, unsigned d, unsigned pair,
                         const std::string& value, ValType type) {
  const std::string v = let(lane_vec_type(type), value);
  std::string lo, hi;
  if (type == ValType::D) {
    lo = "clp_dlo(" + v + ")";
    hi = "clp_dhi(" + v + ")";
  } else {
    const std::string u = type == ValType::L ? "CLP_AS_VUL(" + v + ")" : v;
    lo = "clp_lo64(" + u + ")";
    hi = "clp_hi64(" + u + ")";
  }
  const std::string l = let("vf", lo), h = let("vf", hi);
  write_channel(inst, d, 2 * pair, l);
  write_channel(inst, d, 2 * pair + 1, h);
}

bool Emitter::emit_alu64(const Instruction& inst) {
  const OpcodeInfo& info = inst.info();
  bool wide = false, dbl = false;
  for (unsigned s = 0; s < info.num_src; ++s) {
    wide |= is_64bit(info.src[s]);
    dbl |= info.src[s] == OperandType::F64;
  }
  for (unsigned d = 0; d < info.num_dst; ++d) {
    wide |= is_64bit(info.dst[d]);
    dbl |= info.dst[d] == OperandType::F64;
  }
  if (!wide || inst.opcode == Opcode::CLOCK || inst.opcode == Opcode::BALLOT ||
      inst.opcode == Opcode::IMG2HND || inst.opcode == Opcode::SAMP2HND) {
    return false;
  }
  if (dbl && !opt_.fp64) {
    fail(inst, "the shader needs double precision, which the device lacks (cl_khr_fp64)");
  }
  if (!opt_.int64) fail(inst, "the shader needs 64-bit integers, which the device lacks");
  if (dbl) uses_fp64_code_ = true;
  uses_int64_code_ = true;

  const Opcode op = inst.opcode;
  const uint8_t mask = inst.dst[0].write_mask;
  const OperandType dt = info.dst[0];
  const ValType st0 = val_type(info.src[0]);

  // DFRACEXP: one double from src0.xy; the significand to dst0 (every pair it writes),
  // the exponent to every written channel of dst1.
  if (op == Opcode::DFRACEXP) {
    const std::string x = pair64(inst, 0, 0, ValType::D);
    const std::string e = fresh("e");
    line("vi " + e + ";");
    const std::string mant = let("vd", "frexp(" + x + ", &" + e + ")");
    for (unsigned p = 0; p < 2; ++p) {
      if (inst.dst[0].write_mask & (3u << (2 * p))) write_pair(inst, 0, p, mant, ValType::D);
    }
    const std::string ev = let("vf", "CLP_AS_VF(" + e + ")");
    for (unsigned c = 0; c < 4; ++c) {
      if (inst.dst[1].write_mask & (1u << c)) write_channel(inst, 1, c, ev);
    }
    return true;
  }

  // Every source is read before anything is written (dst may alias a source).
  struct Pending {
    unsigned pair;
    std::string value;
  };
  std::vector<Pending> pending;
  for (unsigned p = 0; p < 2; ++p) {
    // 64-bit result: pair p; 32-bit result of 64-bit sources: channel p (conversions) or
    // 2p (compares).
    if (is_64bit(dt)) {
      if (!(mask & (3u << (2 * p)))) continue;
    } else if (dt == OperandType::B32) {
      if (!(mask & (1u << (2 * p)))) continue;
    } else if (!(mask & (1u << p))) {
      continue;
    }
    auto a = [&](unsigned s) { return pair64(inst, s, p, val_type(info.src[s])); };
    // 32-bit source of a 32 -> 64 conversion: channel p.
    auto n32 = [&](unsigned s, OperandType t) {
      return let(t == OperandType::F32   ? "vf"
                 : t == OperandType::I32 ? "vi"
                                         : "vu",
                 src(inst, s, p, t));
    };
    std::string v;
    ValType vt = val_type(dt);
    switch (op) {
      // Doubles.
      case Opcode::DABS:
        v = "fabs(" + a(0) + ")";
        break;
      case Opcode::DNEG:
        v = "-" + a(0);
        break;
      case Opcode::DADD: {
        auto x = a(0), y = a(1);
        v = x + " + " + y;
        break;
      }
      case Opcode::DMUL: {
        auto x = a(0), y = a(1);
        v = x + " * " + y;
        break;
      }
      case Opcode::DDIV: {
        auto x = a(0), y = a(1);
        v = x + " / " + y;
        break;
      }
      case Opcode::DMAD: {
        auto x = a(0), y = a(1), z = a(2);
        v = x + " * " + y + " + " + z;
        break;
      }
      case Opcode::DFMA: {
        auto x = a(0), y = a(1), z = a(2);
        v = "fma(" + x + ", " + y + ", " + z + ")";
        break;
      }
      case Opcode::DMAX: {
        auto x = a(0), y = a(1);
        v = "fmax(" + x + ", " + y + ")";
        break;
      }
      case Opcode::DMIN: {
        auto x = a(0), y = a(1);
        v = "fmin(" + x + ", " + y + ")";
        break;
      }
      case Opcode::DRCP:
        v = "(vd)(1.0) / " + a(0);
        break;
      case Opcode::DSQRT:
        v = "sqrt(" + a(0) + ")";
        break;
      case Opcode::DRSQ:
        v = "rsqrt(" + a(0) + ")";
        break;
      case Opcode::DFRAC: {
        auto x = a(0);
        v = x + " - floor(" + x + ")";
        break;
      }
      case Opcode::DTRUNC:
        v = "trunc(" + a(0) + ")";
        break;
      case Opcode::DCEIL:
        v = "ceil(" + a(0) + ")";
        break;
      case Opcode::DFLR:
        v = "floor(" + a(0) + ")";
        break;
      case Opcode::DROUND:
        v = "rint(" + a(0) + ")";
        break;
      case Opcode::DSSG:
        v = "clp_dssg(" + a(0) + ")";
        break;
      case Opcode::DLDEXP: {
        auto x = a(0);
        auto e = let("vi", src_i(inst, 1, 2 * p));
        v = "ldexp(" + x + ", " + e + ")";
        break;
      }
      case Opcode::DSLT: {
        auto x = a(0), y = a(1);
        v = "CLP_LMASK(" + x + " < " + y + ")";
        break;
      }
      case Opcode::DSGE: {
        auto x = a(0), y = a(1);
        v = "CLP_LMASK(" + x + " >= " + y + ")";
        break;
      }
      case Opcode::DSEQ: {
        auto x = a(0), y = a(1);
        v = "CLP_LMASK(" + x + " == " + y + ")";
        break;
      }
      case Opcode::DSNE: {
        auto x = a(0), y = a(1);
        v = "CLP_LMASK(" + x + " != " + y + ")";
        break;
      }
      case Opcode::D2F:
        v = "CLP_D2F(" + a(0) + ")";
        break;
      case Opcode::D2I:
        v = "CLP_D2I_SAT(" + a(0) + ")";
        break;
      case Opcode::D2U:
        v = "CLP_D2U_SAT(" + a(0) + ")";
        break;
      case Opcode::D2I64:
        v = "CLP_D2L_SAT(" + a(0) + ")";
        break;
      case Opcode::D2U64:
        v = "CLP_D2UL_SAT(" + a(0) + ")";
        break;
      case Opcode::F2D:
        v = "CLP_CVT_VD(" + n32(0, OperandType::F32) + ")";
        break;
      case Opcode::I2D:
        v = "CLP_CVT_VD(" + n32(0, OperandType::I32) + ")";
        break;
      case Opcode::U2D:
        v = "CLP_CVT_VD(" + n32(0, OperandType::U32) + ")";
        break;
      case Opcode::U642D:
        v = "CLP_CVT_VD(" + a(0) + ")";
        break;
      case Opcode::I642D:
        v = "CLP_CVT_VD(" + a(0) + ")";
        break;
      // 64-bit integers.
      case Opcode::U642F:
        v = "CLP_CONVERT_VF(" + a(0) + ")";
        break;
      case Opcode::I642F:
        v = "CLP_CONVERT_VF(" + a(0) + ")";
        break;
      case Opcode::F2U64:
        v = "CLP_F2UL_SAT(" + n32(0, OperandType::F32) + ")";
        break;
      case Opcode::F2I64:
        v = "CLP_F2L_SAT(" + n32(0, OperandType::F32) + ")";
        break;
      case Opcode::I2I64:
        v = "CLP_CVT_VL(" + n32(0, OperandType::I32) + ")";
        break;
      case Opcode::U2I64:
        v = "CLP_CVT_VL(" + n32(0, OperandType::U32) + ")";
        break;
      case Opcode::U64ADD: {
        auto x = a(0), y = a(1);
        v = x + " + " + y;
        break;
      }
      case Opcode::U64MUL: {
        auto x = a(0), y = a(1);
        v = x + " * " + y;
        break;
      }
      case Opcode::I64NEG:
        v = "CLP_AS_VL((vul)(0UL) - CLP_AS_VUL(" + a(0) + "))";
        break;
      case Opcode::I64ABS:
        v = "CLP_AS_VL(abs(" + a(0) + "))";
        break;
      case Opcode::I64SSG: {
        auto x = a(0);
        v = "select(select((vl)(0L), (vl)(1L), CLP_M64(" + x +
            " > (vl)(0L))), (vl)(-1L), CLP_M64(" + x + " < (vl)(0L)))";
        break;
      }
      case Opcode::I64MIN:
      case Opcode::U64MIN: {
        auto x = a(0), y = a(1);
        v = "min(" + x + ", " + y + ")";
        break;
      }
      case Opcode::I64MAX:
      case Opcode::U64MAX: {
        auto x = a(0), y = a(1);
        v = "max(" + x + ", " + y + ")";
        break;
      }
      case Opcode::U64SEQ:
      case Opcode::U64SNE:
      case Opcode::I64SLT:
      case Opcode::U64SLT:
      case Opcode::I64SGE:
      case Opcode::U64SGE: {
        const char* cmp = op == Opcode::U64SEQ                             ? " == "
                          : op == Opcode::U64SNE                           ? " != "
                          : (op == Opcode::I64SLT || op == Opcode::U64SLT) ? " < "
                                                                           : " >= ";
        auto x = a(0), y = a(1);
        v = "CLP_LMASK(" + x + cmp + y + ")";
        break;
      }
      case Opcode::U64SHL:
      case Opcode::I64SHR:
      case Opcode::U64SHR: {
        auto x = a(0);
        auto n = let("vu", src_u(inst, 1, p));
        const std::string count = (st0 == ValType::L ? "CLP_AS_VL(" : "CLP_AS_VUL(") +
                                  std::string("CLP_CVT_VUL(") + n + " & (vu)(63u)))";
        v = x + (op == Opcode::U64SHL ? " << " : " >> ") + count;
        break;
      }
      case Opcode::U64DIV: {
        auto x = a(0), y = a(1);
        v = "clp_u64div(" + x + ", " + y + ")";
        break;
      }
      case Opcode::U64MOD: {
        auto x = a(0), y = a(1);
        v = "clp_u64mod(" + x + ", " + y + ")";
        break;
      }
      case Opcode::I64DIV: {
        auto x = a(0), y = a(1);
        v = "clp_i64div(" + x + ", " + y + ")";
        break;
      }
      case Opcode::I64MOD: {
        auto x = a(0), y = a(1);
        v = "clp_i64mod(" + x + ", " + y + ")";
        break;
      }
      default:
        fail(inst, "this 64-bit opcode cannot be translated");
    }
    if (is_64bit(dt)) {
      pending.push_back({p, let(lane_vec_type(vt), v)});
    } else if (dt == OperandType::B32) {
      pending.push_back({p, let("vf", "CLP_AS_VF(" + v + ")")});
    } else {
      pending.push_back({p, let("vf", vf_cast(vt, v))});
    }
  }
  for (const Pending& w : pending) {
    if (is_64bit(dt)) {
      write_pair(inst, 0, w.pair, w.value, val_type(dt));
    } else {
      write_channel(inst, 0, dt == OperandType::B32 ? 2 * w.pair : w.pair, w.value);
    }
  }
  return true;
}

}  // namespace clpipe::compiler::emit_detail
