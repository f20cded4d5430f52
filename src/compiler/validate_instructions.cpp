// validate() (validate.h): instruction and operand checks. The legal register files and
// modifiers of each operand follow from its OperandType in opcodes.def.
#include "compiler/validate_impl.h"

namespace clpipe::compiler::detail {

namespace {

bool is_value_type(OperandType t) {
  switch (t) {
    case OperandType::F32:
    case OperandType::I32:
    case OperandType::U32:
    case OperandType::F64:
    case OperandType::I64:
    case OperandType::U64:
    case OperandType::B32:
    case OperandType::ANY:
      return true;
    default:
      return false;
  }
}

bool is_value_file(RegFile f) {
  return f == RegFile::TEMP || f == RegFile::IN || f == RegFile::OUT || f == RegFile::CONST ||
         f == RegFile::IMM || f == RegFile::SV;
}

bool is_memory_resource(RegFile f) {
  return f == RegFile::BUFFER || f == RegFile::IMAGE || f == RegFile::MEMORY ||
         f == RegFile::CONST || f == RegFile::HWATOMIC;
}

bool fragment_only(Opcode op) {
  switch (op) {
    case Opcode::KILL:
    case Opcode::KILL_IF:
    case Opcode::DEMOTE:
    case Opcode::READ_HELPER:
    case Opcode::DDX:
    case Opcode::DDY:
    case Opcode::DDX_FINE:
    case Opcode::DDY_FINE:
    case Opcode::INTERP_CENTROID:
    case Opcode::INTERP_SAMPLE:
    case Opcode::INTERP_OFFSET:
    case Opcode::FBFETCH:
    case Opcode::LODQ:
    case Opcode::LOD:
      return true;
    default:
      return false;
  }
}

std::string mask_text(uint8_t mask) {
  std::string s = ".";
  for (int c = 0; c < 4; ++c) {
    if (mask & (1u << c)) s += "xyzw"[c];
  }
  return s;
}

}  // namespace

void Validator::check_instruction(const Instruction& inst) {
  const OpcodeInfo& info = inst.info();
  if (!info.name || inst.num_dst != info.num_dst || inst.num_src != info.num_src) {
    error(inst.loc, "malformed instruction (operand counts do not match the opcode)");
    return;
  }
  check_stage_rules(inst);
  if (inst.saturate) {
    OperandType t = info.num_dst ? info.dst[0] : OperandType::N;
    if (t != OperandType::F32 && t != OperandType::ANY) {
      error(inst.loc, std::string("_SAT only applies to float results; ") + info.name +
                          " does not produce one");
    }
  }
  for (unsigned i = 0; i < inst.num_dst; ++i)
    check_dst(inst, i);
  for (unsigned i = 0; i < inst.num_src; ++i)
    check_src(inst, i);
  if (info.is_tex && inst.texture == TexTarget::UNKNOWN) {
    error(inst.loc, std::string(info.name) + " needs a texture target other than UNKNOWN");
  }
  for (unsigned i = 0; i < inst.num_tex_offsets && i < kMaxTexOffsets; ++i) {
    const TexOffset& o = inst.tex_offsets[i];
    if (o.file != RegFile::IMM && o.file != RegFile::TEMP && o.file != RegFile::CONST) {
      error(o.loc, "a texture offset comes from IMM, TEMP or CONST");
      continue;
    }
    RegisterRef reg;
    reg.file = o.file;
    reg.index = int32_t(o.index);
    check_register(reg, o.loc);
  }
}

void Validator::check_stage_rules(const Instruction& inst) {
  const ShaderType stage = shader_.stage;
  const Opcode op = inst.opcode;
  const char* name = inst.info().name;
  if (fragment_only(op) && stage != ShaderType::FRAGMENT) {
    error(inst.loc, std::string(name) + " is only allowed in fragment shaders");
  }
  if ((op == Opcode::EMIT || op == Opcode::ENDPRIM) && stage != ShaderType::GEOMETRY) {
    error(inst.loc, std::string(name) + " is only allowed in geometry shaders");
  }
  if (op == Opcode::BARRIER && stage != ShaderType::COMPUTE && stage != ShaderType::TESS_CTRL) {
    error(inst.loc, "BARRIER is only allowed in compute and tessellation control shaders");
  }
}

void Validator::check_dst(const Instruction& inst, unsigned i) {
  const DstOperand& dst = inst.dst[i];
  const OperandType type = inst.info().dst[i];
  const RegFile f = dst.reg.file;
  const std::string reg = describe_register(dst.reg);
  if (type == OperandType::ADDR) {
    if (f != RegFile::ADDR) {
      error(dst.loc, std::string(inst.info().name) + " writes an address register, not " + reg);
      return;
    }
  } else if (type == OperandType::RES) {
    if (f != RegFile::BUFFER && f != RegFile::IMAGE && f != RegFile::MEMORY) {
      error(dst.loc, "STORE writes to BUFFER, IMAGE or MEMORY, not " + reg);
      return;
    }
  } else if (f != RegFile::TEMP && f != RegFile::OUT) {
    error(dst.loc,
          "destination " + reg + " is not writable (write TEMP or OUT" +
              std::string(f == RegFile::ADDR ? "; ADDR is written by ARL, UARL, ARR" : "") + ")");
    return;
  }
  if (f == RegFile::OUT && shader_.stage == ShaderType::COMPUTE) {
    error(dst.loc, "compute shaders have no outputs");
    return;
  }
  check_register(dst.reg, dst.loc);
  check_write_mask(inst, i);
}

void Validator::check_write_mask(const Instruction& inst, unsigned i) {
  const OpcodeInfo& info = inst.info();
  const uint8_t mask = inst.dst[i].write_mask;
  const OperandType type = info.dst[i];
  const bool src64 = info.num_src > 0 && is_64bit(info.src[0]);
  if (is_64bit(type)) {
    if (mask != 0x3 && mask != 0xc && mask != 0xf) {
      error(inst.dst[i].loc, std::string(info.name) + " writes 64-bit values: the write mask " +
                                 "must be .xy, .zw or .xyzw, not " + mask_text(mask));
    }
  } else if (src64 && info.mode == ChannelMode::COMP && i == 0) {
    // 64-bit compares put results in .x and .z; 64->32-bit conversions in .x and .y.
    uint8_t legal = type == OperandType::B32 ? 0x5 : 0x3;
    if (mask & ~legal) {
      error(inst.dst[i].loc, std::string(info.name) + " writes only " + mask_text(legal) +
                                 " (one result per 64-bit pair), not " + mask_text(mask));
    }
  }
}

void Validator::check_src(const Instruction& inst, unsigned i) {
  const SrcOperand& src = inst.src[i];
  const OpcodeInfo& info = inst.info();
  const OperandType type = info.src[i];
  const RegFile f = src.reg.file;
  const std::string reg = describe_register(src.reg);
  bool ok = true;
  switch (type) {
    case OperandType::SAMP:
      ok = f == RegFile::SAMP;
      if (!ok) error(src.loc, std::string(info.name) + " operand " + reg + " must be a SAMP");
      break;
    case OperandType::SVIEW:
      ok = f == RegFile::SVIEW;
      if (!ok) error(src.loc, std::string(info.name) + " operand " + reg + " must be a SVIEW");
      break;
    case OperandType::RES:
      ok = inst.opcode == Opcode::IMG2HND ? f == RegFile::IMAGE : is_memory_resource(f);
      if (!ok) {
        error(src.loc, std::string(info.name) + " operand " + reg +
                           " must be a resource (BUFFER, IMAGE, MEMORY, CONST or HWATOMIC)");
      }
      break;
    default:
      ok = is_value_file(f);
      if (!ok) error(src.loc, "operand " + reg + " cannot be read as a value");
      break;
  }
  if (!ok) return;
  if ((inst.opcode == Opcode::INTERP_CENTROID || inst.opcode == Opcode::INTERP_SAMPLE ||
       inst.opcode == Opcode::INTERP_OFFSET) &&
      i == 0 && f != RegFile::IN) {
    error(src.loc, std::string(info.name) + " re-interpolates an input: IN[...], not " + reg);
  }
  if (inst.opcode == Opcode::FBFETCH && f != RegFile::OUT) {
    error(src.loc, "FBFETCH reads a colour output: OUT[...], not " + reg);
  }
  if (src.negate || src.absolute) {
    const bool value = is_value_type(type);
    if (!value || is_64bit(type)) {
      error(src.loc, std::string("source modifiers are not allowed on ") +
                         (value ? "64-bit operands" : "resource operands") + " of " + info.name);
    } else if (src.absolute && type != OperandType::F32 && type != OperandType::ANY) {
      error(src.loc, std::string("|x| needs a float operand; operand ") + std::to_string(i) +
                         " of " + info.name + " is an integer");
    }
  }
  check_register(src.reg, src.loc);
}

void Validator::check_indirect(const IndirectRef& ind, RegFile file, SourceLoc loc) {
  if (ind.file != RegFile::ADDR) {
    error(loc, std::string("indirect addressing goes through ADDR, not ") + file_name(ind.file));
    return;
  }
  if (!decls_.find(RegFile::ADDR, 0, ind.index)) {
    error(loc, "ADDR[" + std::to_string(ind.index) + "] is not declared");
  }
  if (ind.array_id != 0 && !decls_.find_array(file, ind.array_id)) {
    error(loc,
          std::string(file_name(file)) + " has no ARRAY(" + std::to_string(ind.array_id) + ")");
  }
}

void Validator::check_register(const RegisterRef& reg, SourceLoc loc) {
  const RegFile f = reg.file;
  const ShaderType stage = shader_.stage;
  const std::string name = describe_register(reg);
  if (f == RegFile::NONE || f == RegFile::CONSTBUF) {
    error(loc, std::string("register file ") + file_name(f) + " cannot be used");
    return;
  }
  if (f == RegFile::IMM) {
    if (reg.indirect.is_indirect() || reg.has_dimension) {
      error(loc, "immediates are addressed directly (IMM[n])");
    } else if (uint32_t(reg.index) >= shader_.immediates.size()) {
      error(loc, name + " does not exist (" + std::to_string(shader_.immediates.size()) +
                     " immediates)");
    }
    return;
  }
  const bool vertex_dim =
      (f == RegFile::IN && (stage == ShaderType::GEOMETRY || stage == ShaderType::TESS_CTRL ||
                            stage == ShaderType::TESS_EVAL)) ||
      (f == RegFile::OUT && stage == ShaderType::TESS_CTRL);
  // A dimension on TEMP is a known virgl artefact (tgsi.md §14, corpus 1039.tgsi): it is
  // accepted and ignored.
  const bool dim_allowed =
      f == RegFile::CONST || f == RegFile::HWATOMIC || vertex_dim || f == RegFile::TEMP;
  if (reg.has_dimension && !dim_allowed) {
    error(loc, std::string(file_name(f)) + " takes no dimension bracket (" + name + ")");
    return;
  }
  if (reg.has_dimension && reg.dim_indirect.is_indirect()) {
    check_indirect(reg.dim_indirect, f, loc);
  }
  if (reg.has_dimension && vertex_dim && !reg.dim_indirect.is_indirect()) {
    uint32_t vertices = 32;  // TCS/TES: the largest patch
    if (stage == ShaderType::GEOMETRY) {
      vertices = shader_.has_property(Property::GS_INPUT_PRIM) &&
                         shader_.property(Property::GS_INPUT_PRIM) < kPrimTypes
                     ? gs_input_vertices(PrimType(shader_.property(Property::GS_INPUT_PRIM)))
                     : 6;
    }
    if (reg.dimension < 0 || uint32_t(reg.dimension) >= vertices) {
      error(loc, "vertex index " + std::to_string(reg.dimension) + " of " + name +
                     " is out of range (" + std::to_string(vertices) + " vertices)");
    }
  }
  if (reg.indirect.is_indirect()) {
    check_indirect(reg.indirect, f, loc);
    if (decls_.extent(f) == 0) {
      error(loc, std::string("indirect access to ") + file_name(f) + ", which has no declarations");
    }
    return;
  }
  if (reg.index < 0) {
    error(loc, name + ": negative register index");
    return;
  }
  const uint32_t index = uint32_t(reg.index);
  const Declaration* d = nullptr;
  if ((f == RegFile::CONST || f == RegFile::HWATOMIC) && reg.has_dimension) {
    d = reg.dim_indirect.is_indirect()
            ? decls_.find_any_dim(f, index)
            : decls_.find(f, uint32_t(std::max(reg.dimension, 0)), index);
  } else {
    d = decls_.find(f, 0, index);
  }
  if (!d) {
    error(loc, name + " is not declared");
    return;
  }
  // Per-vertex inputs need their vertex; per-patch / per-primitive registers have none.
  // A TCS per-vertex output without a vertex is the invocation's own vertex (the only one
  // GLSL lets it write; virgl emits such writes, corpus 1039.tgsi).
  if (vertex_dim) {
    const bool per_vertex = is_per_vertex(stage, *d);
    if (per_vertex && !reg.has_dimension && f == RegFile::IN) {
      error(loc, name + " is per-vertex: name the vertex, " + file_name(f) + "[vertex][" +
                     std::to_string(index) + "]");
    } else if (!per_vertex && reg.has_dimension) {
      error(loc, name + " is not per-vertex (" +
                     (d->has_semantic ? semantic_name(d->semantic) : "no semantic") +
                     "): it takes no vertex index");
    }
  }
}

}  // namespace clpipe::compiler::detail
