// The tgsi.md §17 test seeds: the smallest corpus shader per construct. Each must parse
// and validate, have the documented instruction count, and show the construct in its IR.
#include <functional>

#include "compiler/tgsi_test_util.h"

using namespace clpipe;
using namespace clpipe::compiler;
using namespace clpipe::compiler::test;

namespace {

using Check = std::function<bool(const Shader&)>;

Check op(Opcode o) {
  return [o](const Shader& s) {
    for (const Instruction& i : s.instructions) {
      if (i.opcode == o) return true;
    }
    return false;
  };
}

Check stage(ShaderType t) {
  return [t](const Shader& s) { return s.stage == t; };
}

// Some operand register of some instruction satisfies `pred`.
Check operand(std::function<bool(const RegisterRef&)> pred) {
  return [pred](const Shader& s) {
    for (const Instruction& i : s.instructions) {
      for (unsigned k = 0; k < i.num_dst; ++k) {
        if (pred(i.dst[k].reg)) return true;
      }
      for (unsigned k = 0; k < i.num_src; ++k) {
        if (pred(i.src[k].reg)) return true;
      }
    }
    return false;
  };
}

Check indirect(RegFile f) {
  return operand([f](const RegisterRef& r) { return r.file == f && r.indirect.is_indirect(); });
}

Check dim_indirect(RegFile f) {
  return operand([f](const RegisterRef& r) {
    return r.file == f && r.has_dimension && r.dim_indirect.is_indirect();
  });
}

Check two_d(RegFile f) {
  return operand([f](const RegisterRef& r) { return r.file == f && r.has_dimension; });
}

Check decl(std::function<bool(const Declaration&)> pred) {
  return [pred](const Shader& s) {
    for (const Declaration& d : s.declarations) {
      if (pred(d)) return true;
    }
    return false;
  };
}

Check imm(ImmType t) {
  return [t](const Shader& s) {
    for (const Immediate& i : s.immediates) {
      if (i.type == t) return true;
    }
    return false;
  };
}

Check inst(std::function<bool(const Instruction&)> pred) {
  return [pred](const Shader& s) {
    for (const Instruction& i : s.instructions) {
      if (pred(i)) return true;
    }
    return false;
  };
}

Check property(Property p) {
  return [p](const Shader& s) { return s.has_property(p); };
}

struct Seed {
  const char* file;
  size_t instructions;
  const char* construct;
  Check check;
};

}  // namespace

TEST_CASE("parser: the tgsi.md §17 seeds show their construct", "[compiler][parser][seeds]") {
  const Seed seeds[] = {
      {"0746.tgsi", 1, "simplest vertex shader", stage(ShaderType::VERTEX)},
      {"0199.tgsi", 1, "simplest fragment shader", stage(ShaderType::FRAGMENT)},
      {"0757.tgsi", 1, "geometry shader", stage(ShaderType::GEOMETRY)},
      {"1072.tgsi", 3, "tessellation control", stage(ShaderType::TESS_CTRL)},
      {"1120.tgsi", 1, "tessellation evaluation", stage(ShaderType::TESS_EVAL)},
      {"1392.tgsi", 1, "compute", stage(ShaderType::COMPUTE)},
      {"0103.tgsi", 12, "loop with BRK", op(Opcode::BGNLOOP)},
      {"0328.tgsi", 7, "if/else", op(Opcode::ELSE)},
      {"0122.tgsi", 2, "KILL", op(Opcode::KILL)},
      {"0097.tgsi", 5, "KILL_IF", op(Opcode::KILL_IF)},
      {"0545.tgsi", 8, "TEMP array, indirect", indirect(RegFile::TEMP)},
      {"3056.tgsi", 4, "indirect constant", indirect(RegFile::CONST)},
      {"0684.tgsi", 2, "UBO CONST[b][n]", two_d(RegFile::CONST)},
      {"1005.tgsi", 6, "indirect UBO index", dim_indirect(RegFile::CONST)},
      {"1026.tgsi", 13, "indirect input", indirect(RegFile::IN)},
      {"1025.tgsi", 20, "indirect output", indirect(RegFile::OUT)},
      {"1218.tgsi", 9, "TCS per-vertex output write", dim_indirect(RegFile::OUT)},
      {"0985.tgsi", 5, "sampler array", indirect(RegFile::SAMP)},
      {"1375.tgsi", 3, "atomic counters", two_d(RegFile::HWATOMIC)},
      {"3359.tgsi", 4, "images",
       decl([](const Declaration& d) { return d.file == RegFile::IMAGE; })},
      {"1368.tgsi", 2, "SSBO",
       decl([](const Declaration& d) { return d.file == RegFile::BUFFER; })},
      {"2645.tgsi", 14, "doubles", op(Opcode::DMAD)},
      {"1586.tgsi", 6, "double->float", op(Opcode::D2F)},
      {"0110.tgsi", 2, "TEX", op(Opcode::TEX)},
      {"1619.tgsi", 3, "TXB", op(Opcode::TXB)},
      {"0614.tgsi", 4, "TXL", op(Opcode::TXL)},
      {"3319.tgsi", 2, "TXD", op(Opcode::TXD)},
      {"3293.tgsi", 2, "TXP", op(Opcode::TXP)},
      {"3110.tgsi", 3, "TXF", op(Opcode::TXF)},
      {"3160.tgsi", 3, "TXQ", op(Opcode::TXQ)},
      {"1592.tgsi", 3, "TG4", op(Opcode::TG4)},
      {"1553.tgsi", 12, "LODQ", op(Opcode::LODQ)},
      {"3358.tgsi", 4, "TEX2", op(Opcode::TEX2)},
      {"3637.tgsi", 2, "TXB2", op(Opcode::TXB2)},
      {"3638.tgsi", 2, "TXL2", op(Opcode::TXL2)},
      {"3252.tgsi", 5, "texture offset from TEMP", inst([](const Instruction& i) {
         return i.num_tex_offsets > 0 && i.tex_offsets[0].file == RegFile::TEMP;
       })},
      {"0934.tgsi", 12, "interpolateAtSample", op(Opcode::INTERP_SAMPLE)},
      {"0927.tgsi", 15, "interpolateAtOffset", op(Opcode::INTERP_OFFSET)},
      {"1545.tgsi", 9, "fine derivatives", op(Opcode::DDX_FINE)},
      {"3750.tgsi", 15, "ATOMCAS", op(Opcode::ATOMCAS)},
      {"1391.tgsi", 10, "BARRIER", op(Opcode::BARRIER)},
      {"1391.tgsi", 10, "MEMBAR", op(Opcode::MEMBAR)},
      {"1596.tgsi", 31, "CLOCK", op(Opcode::CLOCK)},
      {"0903.tgsi", 15, "bitfield extract", op(Opcode::IBFE)},
      {"2718.tgsi", 12, "bitfield insert", op(Opcode::BFI)},
      {"0663.tgsi", 8, "_PRECISE", inst([](const Instruction& i) { return i.precise; })},
      {"0044.tgsi", 3, "_SAT", inst([](const Instruction& i) { return i.saturate; })},
      {"0071.tgsi", 4, "FLT32 immediate", imm(ImmType::FLT32)},
      {"1375.tgsi", 3, "INT32 immediate", imm(ImmType::INT32)},
      {"0808.tgsi", 4, "INVARIANT output", decl([](const Declaration& d) { return d.invariant; })},
      {"1023.tgsi", 2, "per-sample input",
       decl([](const Declaration& d) { return d.location == InterpLoc::SAMPLE; })},
      {"0025.tgsi", 2, "COLOR interpolation",
       decl([](const Declaration& d) { return d.has_interp && d.interp == InterpMode::COLOR; })},
      {"0750.tgsi", 2, "SSO property", property(Property::SEPARABLE_PROGRAM)},
      {"1502.tgsi", 4, "cull distances", property(Property::NUM_CULLDIST_ENABLED)},
      {"2905.tgsi", 6, "two-sided colour (BCOLOR)", decl([](const Declaration& d) {
         return d.file == RegFile::OUT && d.has_semantic && d.semantic == Semantic::BCOLOR;
       })},
      {"0138.tgsi", 6, "FACE input", decl([](const Declaration& d) {
         return d.file == RegFile::IN && d.has_semantic && d.semantic == Semantic::FACE;
       })},
  };
  for (const Seed& seed : seeds) {
    INFO(seed.file << ": " << seed.construct);
    Shader s = valid(corpus_shader(seed.file));
    CHECK(s.instructions.size() == seed.instructions);
    CHECK(seed.check(s));
  }
}
