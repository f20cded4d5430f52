// Stage input and output beyond plain registers: system values and fragment inputs (read
// once in the prologue through the shader_abi.h hooks), re-interpolation (INTERP_*),
// KILL / DEMOTE, GS vertex emission, CLOCK and BALLOT, and the opcodes no pass template
// supports (rejected with a CompileError).
#include "compiler/emit/emitter.h"

namespace clpipe::compiler::emit_detail {

void Emitter::system_value_prologue() {
  for (const SystemValueInfo& sv : info_.system_values) {
    for (unsigned c = 0; c < 4; ++c) {
      const std::string name = "sv" + std::to_string(sv.reg) + "_" + std::to_string(c);
      if (!(sv.read_mask & (1u << c))) continue;
      std::string v;
      // The subgroup is the work-item's lanes: these come from the execution model, not
      // from the pass template.
      switch (sv.semantic) {
        case Semantic::SUBGROUP_SIZE:
          v = c == 0 ? "CLP_AS_VF((vi)(CLP_LANES))" : "(vf)(0.0f)";
          break;
        case Semantic::SUBGROUP_INVOCATION:
          v = c == 0 ? "CLP_AS_VF(CLP_LANE_IDS)" : "(vf)(0.0f)";
          break;
        case Semantic::SUBGROUP_EQ_MASK:
        case Semantic::SUBGROUP_GE_MASK:
        case Semantic::SUBGROUP_GT_MASK:
        case Semantic::SUBGROUP_LE_MASK:
        case Semantic::SUBGROUP_LT_MASK: {
          // 64-bit masks in .xy; lanes < 32, so the high word is 0.
          if (c != 0) {
            v = "(vf)(0.0f)";
            break;
          }
          const std::string one = "((vu)(1u) << CLP_AS_VU(CLP_LANE_IDS))";
          const std::string all = "(vu)((1u << CLP_LANES) - 1u)";
          switch (sv.semantic) {
            case Semantic::SUBGROUP_EQ_MASK:
              v = one;
              break;
            case Semantic::SUBGROUP_GE_MASK:
              v = all + " & ~(" + one + " - (vu)(1u))";
              break;
            case Semantic::SUBGROUP_GT_MASK:
              v = all + " & ~((" + one + " << 1) - (vu)(1u))";
              break;
            case Semantic::SUBGROUP_LE_MASK:
              v = "(" + one + " << 1) - (vu)(1u)";
              break;
            default:
              v = one + " - (vu)(1u)";
              break;
          }
          v = "CLP_AS_VF(" + v + ")";
          break;
        }
        default:
          v = "clp_system_value(stage, io, " + std::to_string(unsigned(sv.semantic)) + ", " +
              std::to_string(c) + ")";
          break;
      }
      line("const vf " + name + " = " + v + ";");
    }
    // Channels nobody reads still need a name if some swizzle could name them: read_mask
    // covers every channel a swizzle selects, so the others are never referenced.
  }
}

void Emitter::fs_input_prologue() {
  for (const IoInfo& in : info_.inputs) {
    for (unsigned c = 0; c < 4; ++c) {
      if (!(in.read_mask & (1u << c))) continue;
      line("io->in[" + std::to_string(in.reg) + "][" + std::to_string(c) +
           "] = clp_fs_input(stage, " + std::to_string(in.reg) + ", " + std::to_string(c) + ", " +
           std::to_string(unsigned(in.semantic)) + ", " + std::to_string(in.semantic_index) + ", " +
           std::to_string(unsigned(in.interp)) + ", " + std::to_string(unsigned(in.location)) +
           ");");
    }
  }
}

// Bit m set for each TGSI interpolate mode m that an input interpolated from the vertices
// (through clp_varying of tile_fs.h) declares, so that the tile pass computes only the
// vertex weights those modes use. Position, face and sprite coordinates are not
// interpolated from the vertices.
unsigned Emitter::fs_interp_modes() const {
  unsigned modes = 0;
  for (const IoInfo& in : info_.inputs) {
    if (in.semantic == Semantic::POSITION || in.semantic == Semantic::FACE ||
        in.semantic == Semantic::PCOORD) {
      continue;
    }
    modes |= 1u << unsigned(in.interp);
  }
  return modes;
}

void Emitter::interp_at(const Instruction& inst) {
  const RegisterRef& reg = inst.src[0].reg;
  // where: 0 centroid, 1 sample, 2 offset (tile_fs.h).
  const int where = inst.opcode == Opcode::INTERP_CENTROID ? 0
                    : inst.opcode == Opcode::INTERP_SAMPLE ? 1
                                                           : 2;
  const std::string sample = where == 1 ? let("vi", src_i(inst, 1, 0)) : std::string("(vi)(0)");
  const std::string ox = where == 2 ? let("vf", src_f(inst, 1, 0)) : std::string("(vf)(0.0f)");
  const std::string oy = where == 2 ? let("vf", src_f(inst, 1, 1)) : std::string("(vf)(0.0f)");
  std::string v[4];
  for (unsigned c = 0; c < 4; ++c) {
    if (!(inst.dst[0].write_mask & (1u << c))) continue;
    const unsigned chan = inst.src[0].swizzle[c] & 3;
    auto call = [&](uint32_t r) {
      const IoInfo* io = nullptr;
      for (const IoInfo& in : info_.inputs) {
        if (in.reg == r) io = &in;
      }
      if (!io) return std::string("(vf)(0.0f)");
      uses_quad_ops_ = true;  // the harness moves the input along the quad's derivatives
      return "clp_fs_interp_at(stage, " + std::to_string(r) + ", " + std::to_string(chan) + ", " +
             std::to_string(unsigned(io->semantic)) + ", " + std::to_string(io->semantic_index) +
             ", " + std::to_string(unsigned(io->interp)) + ", " + std::to_string(where) + ", " +
             sample + ", " + ox + ", " + oy + ")";
    };
    std::string e;
    if (reg.indirect.is_indirect()) {
      // Every declared input is a candidate of the per-lane register index.
      const std::string idx = let("vi", index_expr(inst, reg.indirect, reg.index));
      e = "(vf)(0.0f)";
      for (const IoInfo& in : info_.inputs) {
        e = "select(" + e + ", " + call(in.reg) + ", CLP_MASK(" + idx + " == (vi)(" +
            std::to_string(in.reg) + ")))";
      }
    } else {
      e = call(uint32_t(reg.index));
    }
    std::string x = let("vf", e);
    if (inst.src[0].absolute) x = "fabs(" + x + ")";
    if (inst.src[0].negate) x = "(-" + x + ")";
    v[c] = x;
  }
  write_results(inst, 0, v);
}

bool Emitter::emit_stage_op(const Instruction& inst) {
  switch (inst.opcode) {
    case Opcode::KILL:
    case Opcode::KILL_IF:
      cf_kill(inst);
      return true;
    case Opcode::DEMOTE:
      cf_demote(inst);
      return true;
    case Opcode::INTERP_CENTROID:
    case Opcode::INTERP_SAMPLE:
    case Opcode::INTERP_OFFSET:
      interp_at(inst);
      return true;
    case Opcode::EMIT:
    case Opcode::ENDPRIM: {
      const std::string stream = let("vu", src_u(inst, 0, 0));
      line(std::string(inst.opcode == Opcode::EMIT ? "clp_gs_emit" : "clp_gs_end_primitive") +
           "(stage, io, m & io->exec_mask, " + stream + ");");
      return true;
    }
    case Opcode::CLOCK: {
      // clock_base (per launch, from the host's monotonic clock) plus the number of CLOCK
      // instructions this invocation executed before: increasing within an invocation and
      // from one launch to the next (shader_lib_shared.h).
      line("const ulong clk = upsample(clp_ri->clock_base_hi, clp_ri->clock_base_lo) + clp_clk;");
      line("clp_clk += 1;");
      const std::string v[4] = {"(vf)(as_float((uint)clk))", "(vf)(as_float((uint)(clk >> 32)))",
                                "(vf)(0.0f)", "(vf)(0.0f)"};
      write_results(inst, 0, v);
      return true;
    }
    case Opcode::BALLOT: {
      const std::string x = let("vu", src_u(inst, 0, 0));
      const std::string v[4] = {"CLP_AS_VF(clp_ballot(" + x + ", m))", "(vf)(0.0f)", "(vf)(0.0f)",
                                "(vf)(0.0f)"};
      write_results(inst, 0, v);
      return true;
    }
    case Opcode::FBFETCH:
      fail(inst, "framebuffer fetch is not supported: shader_abi.h has no hook for it (issue 3)");
    case Opcode::IMG2HND:
    case Opcode::SAMP2HND:
      fail(inst, "bindless handles are not supported");
    default:
      return false;
  }
}

}  // namespace clpipe::compiler::emit_detail
