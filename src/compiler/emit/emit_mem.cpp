// Memory opcodes (tgsi.md §12): LOAD, STORE, RESQ and the ATOM* family on BUFFER,
// MEMORY (shared / global / input), CONST (raw LOAD), HWATOMIC and IMAGE, plus BARRIER
// and MEMBAR. Raw memory is addressed in bytes (channel c at address + 4c); every access
// is bounds-checked against the size the host bound (ClpResourceInfo); stores and
// atomics happen only for lanes that execute, are alive and are not helpers. An indirect
// resource index (BUFFER[ADDR], IMAGE[ADDR], HWATOMIC[ADDR][..]) runs the access once per
// declared candidate with the lanes that name it; other lanes read 0 and write nothing.
#include "compiler/emit/emitter.h"

namespace clpipe::compiler::emit_detail {

namespace {

int atomic_op_code(Opcode op) {
  switch (op) {
    case Opcode::ATOMUADD:
      return 0;
    case Opcode::ATOMXCHG:
      return 1;
    case Opcode::ATOMCAS:
      return 2;
    case Opcode::ATOMAND:
      return 3;
    case Opcode::ATOMOR:
      return 4;
    case Opcode::ATOMXOR:
      return 5;
    case Opcode::ATOMUMIN:
      return 6;
    case Opcode::ATOMUMAX:
      return 7;
    case Opcode::ATOMIMIN:
      return 8;
    case Opcode::ATOMIMAX:
      return 9;
    case Opcode::ATOMFADD:
      return 10;
    case Opcode::ATOMINC_WRAP:
      return 11;
    case Opcode::ATOMDEC_WRAP:
      return 12;
    default:
      return -1;
  }
}

// The raw-memory view of a resource: C pointer, size variable, address-space suffix.
struct RawMem {
  std::string ptr, size, sfx;
};

}  // namespace

std::string Emitter::side_effect_mask() const {
  return "(m & io->exec_mask & ~io->helper_mask)";
}

std::vector<uint32_t> Emitter::resource_units(const Instruction& inst, const RegisterRef& reg,
                                              RegFile file, std::string* lane) {
  std::vector<uint32_t> out;
  if (!reg.indirect.is_indirect()) {
    out.push_back(uint32_t(reg.index));
    *lane = "";
    return out;
  }
  *lane = let("vi", index_expr(inst, reg.indirect, reg.index));
  if (file == RegFile::BUFFER) {
    for (const BufferInfo& b : info_.buffers)
      out.push_back(b.index);
  } else if (file == RegFile::IMAGE) {
    for (const ImageInfo& im : info_.images)
      out.push_back(im.index);
  }
  return out;
}

std::string Emitter::image_format_expr(const Instruction& inst, uint32_t unit) const {
  Format f = Format::NONE;
  if (inst.mem_format.is_present()) f = inst.mem_format.format;
  if (f == Format::NONE) {
    for (const ImageInfo& im : info_.images) {
      if (im.index == unit) f = im.format.format;
    }
  }
  if (f == Format::NONE) return "clp_images[" + std::to_string(unit) + "].format";
  return std::string("CLP_FMT_") + format_name(f);
}

std::string Emitter::image_call_prefix(uint32_t unit) const {
  const std::string u = std::to_string(unit);
  return "&clp_images[" + u + "], clp_im" + u;
}

namespace {

TexTarget image_target(const Instruction& inst, const ShaderInfo& info, uint32_t unit) {
  if (inst.mem_target != TexTarget::BUFFER) return inst.mem_target;
  for (const ImageInfo& im : info.images) {
    if (im.index == unit) return im.target;
  }
  return TexTarget::BUFFER;
}

}  // namespace

bool Emitter::emit_mem(const Instruction& inst) {
  switch (inst.opcode) {
    case Opcode::BARRIER:
      line("barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);");
      return true;
    case Opcode::MEMBAR: {
      // Bits: 1 shader buffer, 2 atomic buffer, 4 image, 8 shared, 16 thread group.
      const SrcOperand& o = inst.src[0];
      std::string flags = "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE";
      if (o.reg.file == RegFile::IMM) {
        const uint32_t bits = s_.immediates[uint32_t(o.reg.index)].words[o.swizzle[0] & 3];
        const bool global = bits & 7u, local = bits & 8u;
        if (global && !local) flags = "CLK_GLOBAL_MEM_FENCE";
        if (local && !global) flags = "CLK_LOCAL_MEM_FENCE";
      }
      line("mem_fence(" + flags + ");");
      return true;
    }
    case Opcode::LOAD:
      mem_load(inst);
      return true;
    case Opcode::STORE:
      mem_store(inst);
      return true;
    case Opcode::RESQ:
      mem_resq(inst);
      return true;
    default:
      break;
  }
  if (atomic_op_code(inst.opcode) >= 0) {
    mem_atomic(inst);
    return true;
  }
  return false;
}

namespace {

// Raw memory for BUFFER[unit], MEMORY[unit], CONST[unit] and HWATOMIC buffer `unit`.
bool raw_memory(const ShaderInfo& info, RegFile file, uint32_t unit, RawMem* out,
                std::string* why) {
  const std::string u = std::to_string(unit);
  switch (file) {
    case RegFile::BUFFER:
      *out = {"clp_sb" + u, "sbsz" + u, "g"};
      return true;
    case RegFile::CONST:
      *out = {"clp_cb" + u, "cbsz" + u, "g"};
      return true;
    case RegFile::HWATOMIC:
      *out = {"clp_ha" + u, "hasz" + u, "g"};
      return true;
    case RegFile::MEMORY:
      for (const MemoryInfo& mi : info.memories) {
        if (mi.index != unit) continue;
        switch (mi.type) {
          case MemoryType::SHARED:
            *out = {"clp_shared", "shsz", "l"};
            return true;
          case MemoryType::GLOBAL:
            *out = {"clp_gm", "gmsz", "g"};
            return true;
          case MemoryType::INPUT:
            *out = {"clp_inm", "inmsz", "g"};
            return true;
          case MemoryType::PRIVATE:
            *why = "MEMORY PRIVATE is not supported (no frontend emits it)";
            return false;
        }
      }
      *why = "MEMORY[" + u + "] is not declared";
      return false;
    default:
      *why = std::string(file_name(file)) + " is not raw memory";
      return false;
  }
}

}  // namespace

void Emitter::mem_load(const Instruction& inst) {
  const RegisterRef& res = inst.src[0].reg;
  std::string v[4];
  if (res.file == RegFile::IMAGE) {
    std::string lane;
    const std::vector<uint32_t> units = resource_units(inst, res, RegFile::IMAGE, &lane);
    const std::string x = let("vi", src_i(inst, 1, 0)), y = let("vi", src_i(inst, 1, 1));
    const std::string z = let("vi", src_i(inst, 1, 2)), w = let("vi", src_i(inst, 1, 3));
    const std::string acc = fresh("img");
    line("vf " + acc + "[4] = {(vf)(0.0f), (vf)(0.0f), (vf)(0.0f), (vf)(0.0f)};");
    for (uint32_t u : units) {
      if (!has_param(ParamKind::kImage, u)) continue;
      const std::string mask =
          lane.empty() ? "m" : "m & CLP_MASK(" + lane + " == (vi)(" + std::to_string(u) + "))";
      const std::string t = fresh("img");
      line("vf " + t + "[4];");
      line("clp_image_load(" + image_call_prefix(u) + ", " +
           std::to_string(unsigned(image_target(inst, info_, u))) + ", " +
           image_format_expr(inst, u) + ", " + x + ", " + y + ", " + z + ", " + w + ", " + mask +
           ", " + t + ");");
      for (unsigned c = 0; c < 4; ++c) {
        line(acc + "[" + std::to_string(c) + "] = select(" + acc + "[" + std::to_string(c) + "], " +
             t + "[" + std::to_string(c) + "], " + mask + ");");
      }
    }
    for (unsigned c = 0; c < 4; ++c)
      v[c] = acc + "[" + std::to_string(c) + "]";
    write_results(inst, 0, v);
    return;
  }
  if (res.file == RegFile::HWATOMIC) {
    // The register is the counter: word `index` of counter buffer `dimension`.
    const uint32_t buf = res.has_dimension ? uint32_t(res.dimension) : 0;
    const std::string word = res.indirect.is_indirect()
                                 ? let("vi", index_expr(inst, res.indirect, res.index))
                                 : "(vi)(" + std::to_string(res.index) + ")";
    const std::string addr = let("vu", "CLP_AS_VU(" + word + ") << 2");
    std::vector<uint32_t> bufs{buf};
    std::string blane;
    if (res.has_dimension && res.dim_indirect.is_indirect()) {
      blane = let("vi", index_expr(inst, res.dim_indirect, res.dimension));
      bufs.clear();
      for (const HwAtomicInfo& h : info_.hw_atomics)
        bufs.push_back(h.buffer);
    }
    for (unsigned c = 0; c < 4; ++c) {
      if (!(inst.dst[0].write_mask & (1u << c))) continue;
      std::string e = "(vf)(0.0f)";
      for (uint32_t b : bufs) {
        if (!has_param(ParamKind::kHwAtomicBuffer, b)) continue;
        const std::string bs = std::to_string(b);
        const std::string ld = "clp_mem_load_g(clp_ha" + bs + ", hasz" + bs + ", " + addr + ", " +
                               std::to_string(c) + ")";
        e = blane.empty()
                ? ld
                : "select(" + e + ", " + ld + ", CLP_MASK(" + blane + " == (vi)(" + bs + ")))";
      }
      v[c] = e;
    }
    write_results(inst, 0, v);
    return;
  }
  const std::string addr = let("vu", src_u(inst, 1, 0));
  // CONST[b] (LOAD from a constant buffer) names the buffer in its index or dimension.
  uint32_t unit = uint32_t(res.index);
  if (res.file == RegFile::CONST && res.has_dimension) unit = uint32_t(res.dimension);
  std::string lane;
  std::vector<uint32_t> units;
  if (res.file == RegFile::BUFFER) {
    units = resource_units(inst, res, RegFile::BUFFER, &lane);
  } else if (res.file == RegFile::CONST &&
             (res.has_dimension ? res.dim_indirect.is_indirect() : res.indirect.is_indirect())) {
    lane = let("vi", res.has_dimension ? index_expr(inst, res.dim_indirect, res.dimension)
                                       : index_expr(inst, res.indirect, res.index));
    for (const ConstBufferInfo& cb : info_.const_buffers)
      units.push_back(cb.index);
  } else {
    units.push_back(unit);
  }
  for (unsigned c = 0; c < 4; ++c) {
    if (!(inst.dst[0].write_mask & (1u << c))) continue;
    std::string e = "(vf)(0.0f)";
    for (uint32_t u : units) {
      RawMem mem;
      std::string why;
      if (!raw_memory(info_, res.file, u, &mem, &why)) fail(inst, why);
      if (res.file == RegFile::BUFFER && !has_param(ParamKind::kShaderBuffer, u)) continue;
      if (res.file == RegFile::CONST && !has_param(ParamKind::kConstBuffer, u)) continue;
      const std::string ld = "clp_mem_load_" + mem.sfx + "(" + mem.ptr + ", " + mem.size + ", " +
                             addr + ", " + std::to_string(c) + ")";
      e = lane.empty() ? ld
                       : "select(" + e + ", " + ld + ", CLP_MASK(" + lane + " == (vi)(" +
                             std::to_string(u) + ")))";
    }
    v[c] = e;
  }
  write_results(inst, 0, v);
}

void Emitter::mem_store(const Instruction& inst) {
  const RegisterRef& res = inst.dst[0].reg;
  const uint8_t mask = inst.dst[0].write_mask;
  const std::string se = let("vi", side_effect_mask());
  std::string lane;
  if (res.file == RegFile::IMAGE) {
    const std::vector<uint32_t> units = resource_units(inst, res, RegFile::IMAGE, &lane);
    const std::string x = let("vi", src_i(inst, 0, 0)), y = let("vi", src_i(inst, 0, 1));
    const std::string z = let("vi", src_i(inst, 0, 2)), w = let("vi", src_i(inst, 0, 3));
    const std::string val = fresh("val");
    line("const vf " + val + "[4] = {" + src(inst, 1, 0, OperandType::ANY) + ", " +
         src(inst, 1, 1, OperandType::ANY) + ", " + src(inst, 1, 2, OperandType::ANY) + ", " +
         src(inst, 1, 3, OperandType::ANY) + "};");
    for (uint32_t u : units) {
      if (!has_param(ParamKind::kImage, u)) continue;
      const std::string mk =
          lane.empty() ? se : se + " & CLP_MASK(" + lane + " == (vi)(" + std::to_string(u) + "))";
      line("clp_image_store(" + image_call_prefix(u) + ", " +
           std::to_string(unsigned(image_target(inst, info_, u))) + ", " +
           image_format_expr(inst, u) + ", " + x + ", " + y + ", " + z + ", " + w + ", " + val +
           ", " + mk + ");");
    }
    return;
  }
  const std::string addr = let("vu", src_u(inst, 0, 0));
  std::string vals[4];
  for (unsigned c = 0; c < 4; ++c) {
    if (mask & (1u << c)) vals[c] = let("vf", src(inst, 1, c, OperandType::ANY));
  }
  std::vector<uint32_t> units = res.file == RegFile::BUFFER
                                    ? resource_units(inst, res, RegFile::BUFFER, &lane)
                                    : std::vector<uint32_t>{uint32_t(res.index)};
  for (uint32_t u : units) {
    RawMem mem;
    std::string why;
    if (!raw_memory(info_, res.file, u, &mem, &why)) fail(inst, why);
    if (res.file == RegFile::BUFFER && !has_param(ParamKind::kShaderBuffer, u)) continue;
    if (mem.ptr == "clp_inm") fail(inst, "MEMORY INPUT is read-only");
    const std::string mk =
        lane.empty() ? se : se + " & CLP_MASK(" + lane + " == (vi)(" + std::to_string(u) + "))";
    for (unsigned c = 0; c < 4; ++c) {
      if (!(mask & (1u << c))) continue;
      line("clp_mem_store_" + mem.sfx + "(" + mem.ptr + ", " + mem.size + ", " + addr + ", " +
           std::to_string(c) + ", " + vals[c] + ", " + mk + ");");
    }
  }
}

void Emitter::mem_atomic(const Instruction& inst) {
  const RegisterRef& res = inst.src[0].reg;
  const int op = atomic_op_code(inst.opcode);
  const std::string se = let("vi", side_effect_mask());
  const std::string a = let("vu", src_u(inst, 2, 0));
  const std::string b =
      inst.opcode == Opcode::ATOMCAS ? let("vu", src_u(inst, 3, 0)) : std::string("(vu)(0u)");
  const std::string old = fresh("old");
  line("vf " + old + " = (vf)(0.0f);");
  std::string lane;
  if (res.file == RegFile::IMAGE) {
    const std::vector<uint32_t> units = resource_units(inst, res, RegFile::IMAGE, &lane);
    const std::string x = let("vi", src_i(inst, 1, 0)), y = let("vi", src_i(inst, 1, 1));
    const std::string z = let("vi", src_i(inst, 1, 2)), w = let("vi", src_i(inst, 1, 3));
    for (uint32_t u : units) {
      if (!has_param(ParamKind::kImage, u)) continue;
      const std::string mk =
          lane.empty() ? se : se + " & CLP_MASK(" + lane + " == (vi)(" + std::to_string(u) + "))";
      line(old + " = select(" + old + ", clp_image_atomic(" + image_call_prefix(u) + ", " +
           std::to_string(unsigned(image_target(inst, info_, u))) + ", " +
           image_format_expr(inst, u) + ", " + x + ", " + y + ", " + z + ", " + w + ", " +
           std::to_string(op) + ", " + a + ", " + b + ", " + mk + "), " + mk + ");");
    }
  } else {
    std::string addr;
    std::vector<uint32_t> units;
    if (res.file == RegFile::HWATOMIC) {
      // The register is the counter (the address operand repeats its byte offset).
      const std::string word = res.indirect.is_indirect()
                                   ? let("vi", index_expr(inst, res.indirect, res.index))
                                   : "(vi)(" + std::to_string(res.index) + ")";
      addr = let("vu", "CLP_AS_VU(" + word + ") << 2");
      if (res.has_dimension && res.dim_indirect.is_indirect()) {
        lane = let("vi", index_expr(inst, res.dim_indirect, res.dimension));
        for (const HwAtomicInfo& h : info_.hw_atomics) {
          if (std::find(units.begin(), units.end(), h.buffer) == units.end())
            units.push_back(h.buffer);
        }
      } else {
        units.push_back(res.has_dimension ? uint32_t(res.dimension) : 0);
      }
    } else {
      addr = let("vu", src_u(inst, 1, 0));
      units = res.file == RegFile::BUFFER ? resource_units(inst, res, RegFile::BUFFER, &lane)
                                          : std::vector<uint32_t>{uint32_t(res.index)};
    }
    for (uint32_t u : units) {
      RawMem mem;
      std::string why;
      if (!raw_memory(info_, res.file, u, &mem, &why)) fail(inst, why);
      if (res.file == RegFile::BUFFER && !has_param(ParamKind::kShaderBuffer, u)) continue;
      if (res.file == RegFile::HWATOMIC && !has_param(ParamKind::kHwAtomicBuffer, u)) continue;
      if (mem.ptr == "clp_inm" || mem.sfx.empty()) fail(inst, "this memory cannot be written");
      const std::string mk =
          lane.empty() ? se : se + " & CLP_MASK(" + lane + " == (vi)(" + std::to_string(u) + "))";
      line(old + " = select(" + old + ", clp_mem_atomic_" + mem.sfx + "(" + mem.ptr + ", " +
           mem.size + ", " + addr + ", " + std::to_string(op) + ", " + a + ", " + b + ", " + mk +
           "), " + mk + ");");
    }
  }
  const std::string v[4] = {old, old, old, old};
  write_results(inst, 0, v);
}

void Emitter::mem_resq(const Instruction& inst) {
  const RegisterRef& res = inst.src[0].reg;
  std::string v[4] = {"(vf)(0.0f)", "(vf)(0.0f)", "(vf)(0.0f)", "(vf)(0.0f)"};
  std::string lane;
  if (res.file == RegFile::IMAGE) {
    const std::vector<uint32_t> units = resource_units(inst, res, RegFile::IMAGE, &lane);
    const std::string acc = fresh("sz");
    line("vf " + acc + "[4] = {(vf)(0.0f), (vf)(0.0f), (vf)(0.0f), (vf)(0.0f)};");
    for (uint32_t u : units) {
      if (!has_param(ParamKind::kImage, u)) continue;
      const std::string t = fresh("sz");
      line("vf " + t + "[4];");
      line("clp_image_size(&clp_images[" + std::to_string(u) + "], " +
           std::to_string(unsigned(image_target(inst, info_, u))) + ", " + t + ");");
      const std::string mk =
          lane.empty() ? "(vi)(-1)" : "CLP_MASK(" + lane + " == (vi)(" + std::to_string(u) + "))";
      for (unsigned c = 0; c < 4; ++c) {
        line(acc + "[" + std::to_string(c) + "] = select(" + acc + "[" + std::to_string(c) + "], " +
             t + "[" + std::to_string(c) + "], " + mk + ");");
      }
    }
    for (unsigned c = 0; c < 4; ++c)
      v[c] = acc + "[" + std::to_string(c) + "]";
  } else if (res.file == RegFile::BUFFER) {
    const std::vector<uint32_t> units = resource_units(inst, res, RegFile::BUFFER, &lane);
    std::string e = "(vf)(0.0f)";
    for (uint32_t u : units) {
      if (!has_param(ParamKind::kShaderBuffer, u)) continue;
      const std::string sz = "CLP_AS_VF((vu)(sbsz" + std::to_string(u) + "))";
      e = lane.empty() ? sz
                       : "select(" + e + ", " + sz + ", CLP_MASK(" + lane + " == (vi)(" +
                             std::to_string(u) + ")))";
    }
    v[0] = e;
  } else if (res.file == RegFile::MEMORY) {
    RawMem mem;
    std::string why;
    if (!raw_memory(info_, res.file, uint32_t(res.index), &mem, &why)) fail(inst, why);
    v[0] = "CLP_AS_VF((vu)(" + mem.size + "))";
  } else {
    fail(inst, std::string("RESQ of ") + file_name(res.file) + " is not supported");
  }
  write_results(inst, 0, v);
}

}  // namespace clpipe::compiler::emit_detail
