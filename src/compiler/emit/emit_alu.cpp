// 32-bit arithmetic: float, integer, bit and packing opcodes, compares, conversions,
// derivatives, address loads (tgsi.md §9 semantics; edge cases follow softpipe where
// TGSI leaves them open, see shader_lib.h). Component-wise opcodes compute each written
// channel from the same channel of the swizzled sources; replicating ones compute one
// value from .x and write it everywhere; channel-dependent ones have a formula per
// channel. F2I/F2U (and the 64-bit conversions) saturate and map NaN to 0 (OpenCL's
// convert_*_sat_rtz, the D3D10 rule): TGSI leaves out-of-range values undefined.
#include "compiler/emit/emitter.h"

namespace clpipe::compiler::emit_detail {

namespace {

// Reading it twice costs nothing and it cannot change before the instruction writes:
// a variable, an array element, a literal.
bool is_simple(const std::string& e) {
  if (e.find('(') == std::string::npos) return true;
  const bool literal = e.size() > 6 && e[0] == '(' && e[1] == 'v' && e[4] == ')' && e[5] == '(' &&
                       e.back() == ')' && e.find('(', 6) == std::string::npos;
  return literal;
}

}  // namespace

std::string Emitter::let(const char* type, const std::string& expr) {
  if (is_simple(expr)) return expr;
  const std::string n = fresh("v");
  line(std::string("const ") + type + " " + n + " = " + expr + ";");
  return n;
}

std::string Emitter::quad_op(const char* fn, const std::string& v) {
  uses_quad_ops_ = true;
  return std::string(fn) + "(" + v + ")";
}

std::string Emitter::legacy_mul(const std::string& a, const std::string& b) const {
  if (info_.props.legacy_math_rules) return "clp_lmul(" + a + ", " + b + ")";
  return "(" + a + " * " + b + ")";
}

namespace {

std::string mask_f(const std::string& cmp) {
  return "clp_b2f(CLP_MASK(" + cmp + "))";
}
std::string as_f(const std::string& e) {
  return "CLP_AS_VF(" + e + ")";
}

}  // namespace

// The value of channel c of a component-wise 32-bit opcode, as a vf expression; "" when
// the opcode is not one of them.
std::string Emitter::comp_expr(const Instruction& inst, unsigned c) {
  auto f = [&](unsigned s) { return let("vf", src_f(inst, s, c)); };
  auto i = [&](unsigned s) { return let("vi", src_i(inst, s, c)); };
  auto u = [&](unsigned s) { return let("vu", src_u(inst, s, c)); };
  auto any = [&](unsigned s) { return let("vf", src(inst, s, c, OperandType::ANY)); };
  switch (inst.opcode) {
    case Opcode::MOV:
      return any(0);
    case Opcode::ADD: {
      auto a = f(0), b = f(1);
      return a + " + " + b;
    }
    case Opcode::MUL: {
      auto a = f(0), b = f(1);
      return legacy_mul(a, b);
    }
    case Opcode::MAD: {
      auto a = f(0), b = f(1), d = f(2);
      return legacy_mul(a, b) + " + " + d;
    }
    case Opcode::FMA: {
      auto a = f(0), b = f(1), d = f(2);
      return "fma(" + a + ", " + b + ", " + d + ")";
    }
    case Opcode::LRP: {
      auto a = f(0), b = f(1), d = f(2);
      return legacy_mul(a, b) + " + " + legacy_mul("((vf)(1.0f) - " + a + ")", d);
    }
    case Opcode::DIV: {
      auto a = f(0), b = f(1);
      return a + " / " + b;
    }
    case Opcode::MIN: {
      auto a = f(0), b = f(1);
      return "clp_min(" + a + ", " + b + ")";
    }
    case Opcode::MAX: {
      auto a = f(0), b = f(1);
      return "clp_max(" + a + ", " + b + ")";
    }
    case Opcode::SLT: {
      auto a = f(0), b = f(1);
      return mask_f(a + " < " + b);
    }
    case Opcode::SGE: {
      auto a = f(0), b = f(1);
      return mask_f(a + " >= " + b);
    }
    case Opcode::SEQ: {
      auto a = f(0), b = f(1);
      return mask_f(a + " == " + b);
    }
    case Opcode::SNE: {
      auto a = f(0), b = f(1);
      return mask_f(a + " != " + b);
    }
    case Opcode::SGT: {
      auto a = f(0), b = f(1);
      return mask_f(a + " > " + b);
    }
    case Opcode::SLE: {
      auto a = f(0), b = f(1);
      return mask_f(a + " <= " + b);
    }
    case Opcode::FRC: {
      auto a = f(0);
      return a + " - CLP_FLOOR(" + a + ")";
    }
    case Opcode::FLR:
      return "CLP_FLOOR(" + f(0) + ")";
    case Opcode::CEIL:
      return "ceil(" + f(0) + ")";
    case Opcode::TRUNC:
      return "trunc(" + f(0) + ")";
    case Opcode::ROUND:
      return "CLP_RINT(" + f(0) + ")";  // ties to even
    case Opcode::SSG:
      return "clp_ssg(" + f(0) + ")";
    case Opcode::CMP: {
      auto a = f(0), b = f(1), d = f(2);
      return "select(" + d + ", " + b + ", CLP_MASK(" + a + " < (vf)(0.0f)))";
    }
    case Opcode::LDEXP: {
      auto a = f(0), b = i(1);
      return "ldexp(" + a + ", " + b + ")";
    }
    // DDX / DDY may be coarse, but take each row's / column's difference, as the fine
    // ones and llvmpipe do: GL programs (piglit's fs-dfdx-accuracy) expect dFdx(x * y) to
    // be y on every row. Implicit texture LOD stays per quad (emit_tex.cpp).
    case Opcode::DDX:
    case Opcode::DDX_FINE:
      return quad_op("clp_ddx_fine", f(0));
    case Opcode::DDY:
    case Opcode::DDY_FINE:
      return quad_op("clp_ddy_fine", f(0));
    case Opcode::I2F:
      return "CLP_CONVERT_VF(" + i(0) + ")";
    case Opcode::U2F:
      return "CLP_CONVERT_VF(" + u(0) + ")";
    case Opcode::F2I:
      return as_f("CLP_F2I_SAT(" + f(0) + ")");
    case Opcode::F2U:
      return as_f("CLP_F2U_SAT(" + f(0) + ")");
    case Opcode::NOT:
      return as_f("~" + u(0));
    case Opcode::AND: {
      auto a = u(0), b = u(1);
      return as_f(a + " & " + b);
    }
    case Opcode::OR: {
      auto a = u(0), b = u(1);
      return as_f(a + " | " + b);
    }
    case Opcode::XOR: {
      auto a = u(0), b = u(1);
      return as_f(a + " ^ " + b);
    }
    case Opcode::SHL: {
      auto a = u(0), b = u(1);
      return as_f(a + " << (" + b + " & (vu)(31u))");
    }
    case Opcode::USHR: {
      auto a = u(0), b = u(1);
      return as_f(a + " >> (" + b + " & (vu)(31u))");
    }
    case Opcode::ISHR: {
      auto a = i(0), b = i(1);
      return as_f(a + " >> (" + b + " & (vi)(31))");
    }
    case Opcode::UADD: {
      auto a = u(0), b = u(1);
      return as_f(a + " + " + b);
    }
    case Opcode::UMUL: {
      auto a = u(0), b = u(1);
      return as_f(a + " * " + b);
    }
    case Opcode::UMAD: {
      auto a = u(0), b = u(1), d = u(2);
      return as_f(a + " * " + b + " + " + d);
    }
    case Opcode::IMUL_HI: {
      auto a = i(0), b = i(1);
      return as_f("mul_hi(" + a + ", " + b + ")");
    }
    case Opcode::UMUL_HI: {
      auto a = u(0), b = u(1);
      return as_f("mul_hi(" + a + ", " + b + ")");
    }
    case Opcode::UDIV: {
      auto a = u(0), b = u(1);
      return as_f("clp_udiv(" + a + ", " + b + ")");
    }
    case Opcode::UMOD: {
      auto a = u(0), b = u(1);
      return as_f("clp_umod(" + a + ", " + b + ")");
    }
    case Opcode::IDIV: {
      auto a = i(0), b = i(1);
      return as_f("clp_idiv(" + a + ", " + b + ")");
    }
    case Opcode::MOD: {
      auto a = i(0), b = i(1);
      return as_f("clp_imod(" + a + ", " + b + ")");
    }
    case Opcode::IMAX: {
      auto a = i(0), b = i(1);
      return as_f("max(" + a + ", " + b + ")");
    }
    case Opcode::IMIN: {
      auto a = i(0), b = i(1);
      return as_f("min(" + a + ", " + b + ")");
    }
    case Opcode::UMAX: {
      auto a = u(0), b = u(1);
      return as_f("max(" + a + ", " + b + ")");
    }
    case Opcode::UMIN: {
      auto a = u(0), b = u(1);
      return as_f("min(" + a + ", " + b + ")");
    }
    case Opcode::INEG:
      return as_f("(vu)(0u) - CLP_AS_VU(" + i(0) + ")");
    case Opcode::IABS:
      return as_f("abs(" + i(0) + ")");  // abs(INT_MIN) keeps its bits
    case Opcode::ISSG:
      return as_f("clp_issg(" + i(0) + ")");
    case Opcode::ISGE: {
      auto a = i(0), b = i(1);
      return as_f("CLP_MASK(" + a + " >= " + b + ")");
    }
    case Opcode::ISLT: {
      auto a = i(0), b = i(1);
      return as_f("CLP_MASK(" + a + " < " + b + ")");
    }
    case Opcode::USEQ: {
      auto a = u(0), b = u(1);
      return as_f("CLP_MASK(" + a + " == " + b + ")");
    }
    case Opcode::USNE: {
      auto a = u(0), b = u(1);
      return as_f("CLP_MASK(" + a + " != " + b + ")");
    }
    case Opcode::USGE: {
      auto a = u(0), b = u(1);
      return as_f("CLP_MASK(" + a + " >= " + b + ")");
    }
    case Opcode::USLT: {
      auto a = u(0), b = u(1);
      return as_f("CLP_MASK(" + a + " < " + b + ")");
    }
    // Ordered compares are false with a NaN; FSNE is unordered (true with a NaN): C's.
    case Opcode::FSEQ: {
      auto a = f(0), b = f(1);
      return as_f("CLP_MASK(" + a + " == " + b + ")");
    }
    case Opcode::FSNE: {
      auto a = f(0), b = f(1);
      return as_f("CLP_MASK(" + a + " != " + b + ")");
    }
    case Opcode::FSGE: {
      auto a = f(0), b = f(1);
      return as_f("CLP_MASK(" + a + " >= " + b + ")");
    }
    case Opcode::FSLT: {
      auto a = f(0), b = f(1);
      return as_f("CLP_MASK(" + a + " < " + b + ")");
    }
    case Opcode::UCMP: {
      auto a = u(0), b = any(1), d = any(2);
      return "select(" + d + ", " + b + ", CLP_MASK(" + a + " != (vu)(0u)))";
    }
    case Opcode::IBFE: {
      auto a = i(0), b = i(1), d = i(2);
      return as_f("clp_ibfe(" + a + ", " + b + ", " + d + ")");
    }
    case Opcode::UBFE: {
      auto a = u(0), b = u(1), d = u(2);
      return as_f("clp_ubfe(" + a + ", CLP_AS_VI(" + b + "), CLP_AS_VI(" + d + "))");
    }
    case Opcode::BFI: {
      auto a = u(0), b = u(1), d = u(2), e = u(3);
      return as_f("clp_bfi(" + a + ", " + b + ", CLP_AS_VI(" + d + "), CLP_AS_VI(" + e + "))");
    }
    case Opcode::BREV:
      return as_f("clp_brev(" + u(0) + ")");
    case Opcode::POPC:
      return as_f("popcount(" + u(0) + ")");
    case Opcode::LSB:
      return as_f("clp_lsb(" + u(0) + ")");
    case Opcode::UMSB:
      return as_f("clp_umsb(" + u(0) + ")");
    case Opcode::IMSB:
      return as_f("clp_imsb(" + i(0) + ")");
    case Opcode::READ_INVOC: {
      auto a = any(0), b = u(1);
      return "clp_read_invoc(" + a + ", " + b + ")";
    }
    case Opcode::READ_FIRST:
      return "clp_read_first(" + any(0) + ", m)";
    case Opcode::VOTE_ANY:
      return as_f("clp_vote_any(" + u(0) + ", m)");
    case Opcode::VOTE_ALL:
      return as_f("clp_vote_all(" + u(0) + ", m)");
    case Opcode::VOTE_EQ:
      return as_f("clp_vote_eq(" + any(0) + ", m)");
    case Opcode::READ_HELPER:
      return as_f("~io->exec_mask | io->helper_mask");
    default:
      return "";
  }
}

void Emitter::emit_repl(const Instruction& inst) {
  auto f = [&](unsigned s, unsigned c) { return let("vf", src_f(inst, s, c)); };
  std::string v;
  switch (inst.opcode) {
    case Opcode::RCP:
      v = "(vf)(1.0f) / " + f(0, 0);
      break;
    case Opcode::RSQ:
      v = "rsqrt(" + f(0, 0) + ")";
      break;
    case Opcode::SQRT:
      v = "sqrt(" + f(0, 0) + ")";
      break;
    case Opcode::EX2:
      v = "exp2(" + f(0, 0) + ")";
      break;
    case Opcode::LG2:
      v = "log2(" + f(0, 0) + ")";
      break;
    case Opcode::SIN:
      v = "clp_sin(" + f(0, 0) + ")";
      break;
    case Opcode::COS:
      v = "clp_cos(" + f(0, 0) + ")";
      break;
    case Opcode::POW: {
      auto a = f(0, 0), b = f(1, 0);
      v = "pow(" + a + ", " + b + ")";
      break;
    }
    case Opcode::DP2:
    case Opcode::DP3:
    case Opcode::DP4: {
      const unsigned n = inst.opcode == Opcode::DP2 ? 2 : inst.opcode == Opcode::DP3 ? 3 : 4;
      for (unsigned c = 0; c < n; ++c) {
        auto a = f(0, c), b = f(1, c);
        v += (c ? " + " : "") + legacy_mul(a, b);
      }
      break;
    }
    case Opcode::PK2H: {
      auto a = f(0, 0), b = f(0, 1);
      v = as_f("(clp_f2h(" + a + ") & (vu)(0xffffu)) | (clp_f2h(" + b + ") << 16)");
      break;
    }
    case Opcode::PK2US: {
      auto a = f(0, 0), b = f(0, 1);
      v = as_f("clp_f2unorm(" + a + ", 16u) | (clp_f2unorm(" + b + ", 16u) << 16)");
      break;
    }
    case Opcode::PK4B:
    case Opcode::PK4UB: {
      const char* fn = inst.opcode == Opcode::PK4B ? "clp_f2snorm" : "clp_f2unorm";
      std::string e;
      for (unsigned c = 0; c < 4; ++c) {
        e += (c ? " | " : "") + std::string("(") + fn + "(" + f(0, c) + ", 8u) << " +
             std::to_string(8 * c) + ")";
      }
      v = as_f(e);
      break;
    }
    default:
      fail(inst, "internal: not a replicating opcode");
  }
  const std::string r = let("vf", v);
  const std::string vals[4] = {r, r, r, r};
  write_results(inst, 0, vals);
}

void Emitter::emit_chan(const Instruction& inst) {
  auto f = [&](unsigned s, unsigned c) { return let("vf", src_f(inst, s, c)); };
  auto u = [&](unsigned s, unsigned c) { return let("vu", src_u(inst, s, c)); };
  std::string v[4];
  const std::string one = "(vf)(1.0f)";
  switch (inst.opcode) {
    case Opcode::LIT: {
      auto x = f(0, 0), y = f(0, 1), w = f(0, 3);
      v[0] = v[3] = one;
      v[1] = "fmax(" + x + ", (vf)(0.0f))";
      v[2] = "select((vf)(0.0f), pow(fmax(" + y + ", (vf)(0.0f)), clamp(" + w +
             ", (vf)(-128.0f), (vf)(128.0f))), CLP_MASK(" + x + " > (vf)(0.0f)))";
      break;
    }
    case Opcode::EXP: {
      auto x = f(0, 0);
      v[0] = "exp2(floor(" + x + "))";
      v[1] = x + " - floor(" + x + ")";
      v[2] = "exp2(" + x + ")";
      v[3] = one;
      break;
    }
    case Opcode::LOG: {
      auto x = f(0, 0);
      const std::string l = let("vf", "log2(fabs(" + x + "))");
      v[0] = "floor(" + l + ")";
      v[1] = "fabs(" + x + ") / exp2(floor(" + l + "))";
      v[2] = l;
      v[3] = one;
      break;
    }
    case Opcode::DST: {
      auto y0 = f(0, 1), y1 = f(1, 1), z0 = f(0, 2), w1 = f(1, 3);
      v[0] = one;
      v[1] = legacy_mul(y0, y1);
      v[2] = z0;
      v[3] = w1;
      break;
    }
    case Opcode::UP2H: {
      auto x = u(0, 0);
      v[0] = v[2] = "clp_h2f(" + x + ")";
      v[1] = v[3] = "clp_h2f(" + x + " >> 16)";
      break;
    }
    case Opcode::UP2US: {
      auto x = u(0, 0);
      v[0] = v[2] = "CLP_CONVERT_VF(" + x + " & (vu)(0xffffu)) / (vf)(65535.0f)";
      v[1] = v[3] = "CLP_CONVERT_VF(" + x + " >> 16) / (vf)(65535.0f)";
      break;
    }
    case Opcode::UP4B:
    case Opcode::UP4UB: {
      auto x = u(0, 0);
      for (unsigned c = 0; c < 4; ++c) {
        const std::string sh = std::to_string(8 * c);
        if (inst.opcode == Opcode::UP4UB) {
          v[c] = "CLP_CONVERT_VF((" + x + " >> " + sh + ") & (vu)(0xffu)) / (vf)(255.0f)";
        } else {
          // Sign-extend the byte, then clamp -128 to -1 (snorm rule).
          v[c] = "fmax(CLP_CONVERT_VF(CLP_AS_VI(" + x + " << " + std::to_string(24 - 8 * c) +
                 ") >> 24) / (vf)(127.0f), (vf)(-1.0f))";
        }
      }
      break;
    }
    default:
      fail(inst, "internal: not a channel-dependent opcode");
  }
  write_results(inst, 0, v);
}

void Emitter::emit_address(const Instruction& inst) {
  std::string v[4];
  for (unsigned c = 0; c < 4; ++c) {
    if (!(inst.dst[0].write_mask & (1u << c))) continue;
    switch (inst.opcode) {
      case Opcode::UARL:
        v[c] = as_f(let("vi", src_i(inst, 0, c)));
        break;
      case Opcode::ARL:
        v[c] = as_f("CLP_F2I_FLOOR(" + let("vf", src_f(inst, 0, c)) + ")");
        break;
      default:  // ARR: round half up, softpipe's floor(x + 0.5)
        v[c] = as_f("CLP_F2I_FLOOR(" + let("vf", src_f(inst, 0, c)) + " + (vf)(0.5f))");
        break;
    }
  }
  write_results(inst, 0, v);
}

bool Emitter::emit_alu(const Instruction& inst) {
  const OpcodeInfo& info = inst.info();
  switch (inst.opcode) {
    case Opcode::UARL:
    case Opcode::ARL:
    case Opcode::ARR:
      emit_address(inst);
      return true;
    default:
      break;
  }
  // 64-bit operands belong to emit_alu64.
  for (unsigned s = 0; s < info.num_src; ++s) {
    if (is_64bit(info.src[s])) return false;
  }
  if (info.num_dst && is_64bit(info.dst[0])) return false;
  if (info.mode == ChannelMode::REPL && info.num_dst == 1) {
    switch (inst.opcode) {
      case Opcode::RCP:
      case Opcode::RSQ:
      case Opcode::SQRT:
      case Opcode::EX2:
      case Opcode::LG2:
      case Opcode::SIN:
      case Opcode::COS:
      case Opcode::POW:
      case Opcode::DP2:
      case Opcode::DP3:
      case Opcode::DP4:
      case Opcode::PK2H:
      case Opcode::PK2US:
      case Opcode::PK4B:
      case Opcode::PK4UB:
        emit_repl(inst);
        return true;
      default:
        return false;
    }
  }
  if (info.mode == ChannelMode::CHAN) {
    emit_chan(inst);
    return true;
  }
  if (info.mode != ChannelMode::COMP || info.num_dst != 1) return false;
  std::string v[4];
  for (unsigned c = 0; c < 4; ++c) {
    if (!(inst.dst[0].write_mask & (1u << c))) continue;
    v[c] = comp_expr(inst, c);
    if (v[c].empty()) return false;
  }
  write_results(inst, 0, v);
  return true;
}

}  // namespace clpipe::compiler::emit_detail
