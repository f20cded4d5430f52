// analyze() (shader_info.h): one pass over the declarations, then one over the
// instructions. Register numbers come from the IR, whose parser bounds them by
// kMaxRegisterIndex, so per-register tables below stay small.
#include "compiler/shader_info.h"

#include <algorithm>

#include "compiler/decl_map.h"

namespace clpipe::compiler {

namespace {

uint8_t swizzle_channels(const SrcOperand& src, unsigned count) {
  uint8_t m = 0;
  for (unsigned c = 0; c < count && c < 4; ++c)
    m |= uint8_t(1u << (src.swizzle[c] & 3));
  return m;
}

// Channels of source `s` that `inst` may read (an over-approximation for opcodes whose
// channel use depends on the texture target or on 64-bit pairing).
uint8_t channels_read(const Instruction& inst, unsigned s) {
  const OpcodeInfo& info = inst.info();
  const SrcOperand& src = inst.src[s];
  switch (inst.opcode) {
    case Opcode::DP2:
      return swizzle_channels(src, 2);
    case Opcode::DP3:
      return swizzle_channels(src, 3);
    case Opcode::DP4:
      return swizzle_channels(src, 4);
    default:
      break;
  }
  const bool wide = is_64bit(info.src[s]) || (info.num_dst && is_64bit(info.dst[0]));
  if (info.mode == ChannelMode::REPL && !wide) return swizzle_channels(src, 1);
  if (info.mode == ChannelMode::COMP && !wide && info.num_dst == 1) {
    uint8_t m = 0;
    for (unsigned c = 0; c < 4; ++c) {
      if (inst.dst[0].write_mask & (1u << c)) m |= uint8_t(1u << (src.swizzle[c] & 3));
    }
    return m;
  }
  return swizzle_channels(src, 4);
}

bool is_implicit_lod(Opcode op) {
  switch (op) {
    case Opcode::TEX:
    case Opcode::TXB:
    case Opcode::TXP:
    case Opcode::TEX2:
    case Opcode::TXB2:
    case Opcode::LODQ:
    case Opcode::SAMPLE:
    case Opcode::SAMPLE_B:
    case Opcode::SAMPLE_C:
    case Opcode::LOD:
      return true;
    default:
      return false;
  }
}

template <typename T>
T* find_index(std::vector<T>& v, uint32_t index) {
  for (T& e : v) {
    if (e.index == index) return &e;
  }
  return nullptr;
}

// Registers covered by declarations of one file, in order, each once.
class RegisterTable {
 public:
  // Returns the slot for `reg`, or -1.
  int32_t slot(uint32_t reg) const { return reg < slots_.size() ? slots_[reg] : -1; }
  bool add(uint32_t reg, int32_t slot) {
    if (reg >= slots_.size()) slots_.resize(size_t(reg) + 1, -1);
    if (slots_[reg] >= 0) return false;
    slots_[reg] = slot;
    return true;
  }

 private:
  std::vector<int32_t> slots_;
};

class Analyzer {
 public:
  explicit Analyzer(const Shader& shader) : s_(shader), decls_(shader) {}
  ShaderInfo run();

 private:
  void properties();
  void declarations();
  void instruction(const Instruction& inst);
  void register_use(const RegisterRef& reg);
  void read_value(const Instruction& inst, unsigned i);
  void resource_use(const Instruction& inst, const RegisterRef& reg);
  void mark_io(std::vector<IoInfo>& list, const RegisterTable& table, const RegisterRef& reg,
               uint8_t mask, bool write);
  ConstBufferInfo& const_buffer(uint32_t index);

  const Shader& s_;
  DeclMap decls_;
  ShaderInfo info_;
  RegisterTable in_table_, out_table_, sv_table_;
};

ShaderInfo Analyzer::run() {
  info_.stage = s_.stage;
  info_.num_instructions = uint32_t(s_.instructions.size());
  info_.num_immediates = uint32_t(s_.immediates.size());
  for (const Immediate& imm : s_.immediates) {
    if (imm.type == ImmType::FLT64) info_.uses_fp64 = true;
    if (imm.type == ImmType::INT64 || imm.type == ImmType::UINT64) info_.uses_int64 = true;
  }
  properties();
  declarations();
  for (const Instruction& inst : s_.instructions)
    instruction(inst);
  for (const IoInfo& in : info_.inputs) {
    if (in.location == InterpLoc::SAMPLE) info_.per_sample_shading = true;
  }
  if (info_.system_values_read & ((uint64_t(1) << unsigned(Semantic::SAMPLEID)) |
                                  (uint64_t(1) << unsigned(Semantic::SAMPLEPOS)))) {
    info_.per_sample_shading = true;
  }
  return std::move(info_);
}

void Analyzer::properties() {
  ShaderProperties& p = info_.props;
  auto prim = [&](Property name, PrimType fallback) {
    uint32_t v = s_.property(name);
    return s_.has_property(name) && v < kPrimTypes ? PrimType(v) : fallback;
  };
  p.fs_coord_origin_lower_left = s_.property(Property::FS_COORD_ORIGIN) == 1;
  p.fs_pixel_center_integer = s_.property(Property::FS_COORD_PIXEL_CENTER) == 1;
  p.fs_color0_writes_all_cbufs = s_.property(Property::FS_COLOR0_WRITES_ALL_CBUFS) != 0;
  p.fs_early_depth_stencil = s_.property(Property::FS_EARLY_DEPTH_STENCIL) != 0;
  p.fs_post_depth_coverage = s_.property(Property::FS_POST_DEPTH_COVERAGE) != 0;
  p.fs_depth_layout = s_.property(Property::FS_DEPTH_LAYOUT);
  p.gs_input_prim = prim(Property::GS_INPUT_PRIM, PrimType::TRIANGLES);
  p.gs_output_prim = prim(Property::GS_OUTPUT_PRIM, PrimType::TRIANGLE_STRIP);
  p.gs_input_vertices = s_.stage == ShaderType::GEOMETRY ? gs_input_vertices(p.gs_input_prim) : 0;
  p.gs_max_output_vertices = s_.property(Property::GS_MAX_OUTPUT_VERTICES);
  p.gs_invocations = std::max<uint32_t>(1, s_.property(Property::GS_INVOCATIONS));
  p.tcs_vertices_out = s_.property(Property::TCS_VERTICES_OUT);
  p.tes_prim_mode = s_.property(Property::TES_PRIM_MODE);
  p.tes_spacing = s_.property(Property::TES_SPACING);
  p.tes_vertex_order_cw = s_.property(Property::TES_VERTEX_ORDER_CW) != 0;
  p.tes_point_mode = s_.property(Property::TES_POINT_MODE) != 0;
  p.cs_block = {s_.property(Property::CS_FIXED_BLOCK_WIDTH),
                s_.property(Property::CS_FIXED_BLOCK_HEIGHT),
                s_.property(Property::CS_FIXED_BLOCK_DEPTH)};
  p.num_cull_distances = s_.property(Property::NUM_CULLDIST_ENABLED);
  p.vs_window_space_position = s_.property(Property::VS_WINDOW_SPACE_POSITION) != 0;
  p.vs_prohibit_ucps = s_.property(Property::VS_PROHIBIT_UCPS) != 0;
  p.legacy_math_rules = s_.property(Property::LEGACY_MATH_RULES) != 0;
  p.layer_viewport_relative = s_.property(Property::LAYER_VIEWPORT_RELATIVE) != 0;
  p.separable_program = s_.property(Property::SEPARABLE_PROGRAM) != 0;
}

ConstBufferInfo& Analyzer::const_buffer(uint32_t index) {
  if (ConstBufferInfo* cb = find_index(info_.const_buffers, index)) return *cb;
  ConstBufferInfo cb;
  cb.index = index;
  info_.const_buffers.push_back(cb);
  return info_.const_buffers.back();
}

void Analyzer::declarations() {
  const ShaderType stage = s_.stage;
  for (const Declaration& d : s_.declarations) {
    // Parsed IR never exceeds the limit; constructed IR might.
    if (d.first > d.last || d.last > kMaxRegisterIndex) continue;
    if (d.array_id != 0) {
      info_.arrays.push_back(ArrayInfo{d.file, d.array_id, d.first, d.last, false});
    }
    for (uint32_t r = d.first; r <= d.last; ++r) {
      switch (d.file) {
        case RegFile::IN:
        case RegFile::OUT: {
          auto& list = d.file == RegFile::IN ? info_.inputs : info_.outputs;
          auto& table = d.file == RegFile::IN ? in_table_ : out_table_;
          if (!table.add(r, 0)) break;
          IoInfo io;
          io.reg = r;
          io.has_semantic = d.has_semantic;
          io.semantic = d.semantic;
          io.semantic_index = d.has_semantic ? d.semantic_index_of(r) : 0;
          io.has_interp = d.has_interp;
          io.interp = d.has_interp ? d.interp : InterpMode::PERSPECTIVE;
          io.location = d.location;
          io.usage_mask = d.usage_mask;
          io.per_vertex = is_per_vertex(stage, d);
          io.invariant = d.invariant;
          io.stream = d.stream;
          io.array_id = d.array_id;
          list.push_back(io);
          break;
        }
        case RegFile::SV:
          if (!sv_table_.add(r, 0)) break;
          info_.system_values.push_back(SystemValueInfo{
              r, d.semantic, d.has_semantic ? d.semantic_index_of(r) : 0, d.usage_mask, 0});
          break;
        case RegFile::SAMP:
          if (!find_index(info_.samplers, r)) info_.samplers.push_back(SamplerInfo{r});
          break;
        case RegFile::SVIEW:
          if (!find_index(info_.sampler_views, r)) {
            info_.sampler_views.push_back(SamplerViewInfo{r, d.target, d.return_type});
          }
          break;
        case RegFile::CONST: {
          ConstBufferInfo& cb = const_buffer(d.has_dimension ? d.dimension : 0);
          cb.declared_size = std::max(cb.declared_size, d.last + 1);
          r = d.last;  // one entry per buffer, not per slot
          break;
        }
        case RegFile::IMAGE:
          if (!find_index(info_.images, r)) {
            info_.images.push_back(ImageInfo{r, d.target, d.format, d.writable, d.raw, {}});
          }
          break;
        case RegFile::BUFFER:
          if (!find_index(info_.buffers, r)) info_.buffers.push_back(BufferInfo{r, d.atomic, {}});
          break;
        case RegFile::MEMORY:
          if (!find_index(info_.memories, r)) {
            info_.memories.push_back(MemoryInfo{r, d.memory_type, {}});
          }
          break;
        case RegFile::HWATOMIC:
          info_.hw_atomics.push_back(
              HwAtomicInfo{d.has_dimension ? d.dimension : 0, d.first, d.last, {}});
          r = d.last;
          break;
        default:
          r = d.last;  // TEMP, ADDR: sizes come from the DeclMap
          break;
      }
    }
  }
  auto by_reg = [](const auto& a, const auto& b) { return a.reg < b.reg; };
  auto by_index = [](const auto& a, const auto& b) { return a.index < b.index; };
  std::sort(info_.inputs.begin(), info_.inputs.end(), by_reg);
  std::sort(info_.outputs.begin(), info_.outputs.end(), by_reg);
  std::sort(info_.system_values.begin(), info_.system_values.end(), by_reg);
  std::sort(info_.samplers.begin(), info_.samplers.end(), by_index);
  std::sort(info_.sampler_views.begin(), info_.sampler_views.end(), by_index);
  std::sort(info_.const_buffers.begin(), info_.const_buffers.end(), by_index);
  std::sort(info_.images.begin(), info_.images.end(), by_index);
  std::sort(info_.buffers.begin(), info_.buffers.end(), by_index);
  std::sort(info_.memories.begin(), info_.memories.end(), by_index);
  // Tables now point at sorted positions.
  in_table_ = RegisterTable();
  out_table_ = RegisterTable();
  sv_table_ = RegisterTable();
  for (size_t i = 0; i < info_.inputs.size(); ++i)
    in_table_.add(info_.inputs[i].reg, int32_t(i));
  for (size_t i = 0; i < info_.outputs.size(); ++i) {
    out_table_.add(info_.outputs[i].reg, int32_t(i));
  }
  for (size_t i = 0; i < info_.system_values.size(); ++i) {
    sv_table_.add(info_.system_values[i].reg, int32_t(i));
  }
  info_.num_inputs = decls_.extent(RegFile::IN);
  info_.num_outputs = decls_.extent(RegFile::OUT);
  info_.num_temps = decls_.extent(RegFile::TEMP);
  info_.num_addrs = decls_.extent(RegFile::ADDR);

  if (stage == ShaderType::FRAGMENT) {
    for (const IoInfo& out : info_.outputs) {
      if (!out.has_semantic) continue;
      switch (out.semantic) {
        case Semantic::COLOR:
          if (out.semantic_index < kMaxColorBufs) {
            info_.fs_outputs.color[out.semantic_index] = int32_t(out.reg);
          }
          break;
        case Semantic::POSITION:
          info_.fs_outputs.depth = int32_t(out.reg);
          break;
        case Semantic::STENCIL:
          info_.fs_outputs.stencil = int32_t(out.reg);
          break;
        case Semantic::SAMPLEMASK:
          info_.fs_outputs.sample_mask = int32_t(out.reg);
          break;
        default:
          break;
      }
    }
  }
  ShaderProperties& p = info_.props;
  if (s_.has_property(Property::NUM_CLIPDIST_ENABLED)) {
    p.num_clip_distances = s_.property(Property::NUM_CLIPDIST_ENABLED);
  } else if (stage != ShaderType::FRAGMENT) {
    for (const IoInfo& out : info_.outputs) {
      if (!out.has_semantic || out.semantic != Semantic::CLIPDIST || out.semantic_index > 1) {
        continue;
      }
      uint32_t highest = 0;
      for (uint32_t c = 0; c < 4; ++c) {
        if (out.usage_mask & (1u << c)) highest = c + 1;
      }
      p.num_clip_distances = std::max(p.num_clip_distances, out.semantic_index * 4 + highest);
    }
    p.num_clip_distances = p.num_clip_distances > p.num_cull_distances
                               ? p.num_clip_distances - p.num_cull_distances
                               : 0;
  }
}

void Analyzer::mark_io(std::vector<IoInfo>& list, const RegisterTable& table,
                       const RegisterRef& reg, uint8_t mask, bool write) {
  if (reg.indirect.is_indirect()) {
    // Any register of the file (or of the named array) may be touched.
    for (IoInfo& io : list) {
      if (reg.indirect.array_id != 0 && io.array_id != reg.indirect.array_id) continue;
      (write ? io.written_mask : io.read_mask) |= mask;
    }
    return;
  }
  if (reg.index < 0) return;
  int32_t slot = table.slot(uint32_t(reg.index));
  if (slot >= 0) (write ? list[size_t(slot)].written_mask : list[size_t(slot)].read_mask) |= mask;
}

void Analyzer::register_use(const RegisterRef& reg) {
  const uint32_t bit = 1u << (unsigned(reg.file) & 31);
  if (reg.indirect.is_indirect()) {
    info_.indirect_files |= bit;
    for (ArrayInfo& a : info_.arrays) {
      if (a.file == reg.file && a.id == reg.indirect.array_id) a.indirect = true;
    }
  }
  if (reg.has_dimension && reg.dim_indirect.is_indirect()) info_.dim_indirect_files |= bit;
}

void Analyzer::read_value(const Instruction& inst, unsigned i) {
  const SrcOperand& src = inst.src[i];
  const RegisterRef& reg = src.reg;
  const uint8_t mask = channels_read(inst, i);
  switch (reg.file) {
    case RegFile::IN:
      mark_io(info_.inputs, in_table_, reg, mask, false);
      break;
    case RegFile::OUT:
      mark_io(info_.outputs, out_table_, reg, mask, false);
      break;
    case RegFile::SV: {
      if (reg.indirect.is_indirect() || reg.index < 0) break;
      int32_t slot = sv_table_.slot(uint32_t(reg.index));
      if (slot < 0) break;
      SystemValueInfo& sv = info_.system_values[size_t(slot)];
      sv.read_mask |= mask;
      if (unsigned(sv.semantic) < 64)
        info_.system_values_read |= uint64_t(1) << unsigned(sv.semantic);
      break;
    }
    case RegFile::CONST: {
      const bool dim_indirect = reg.has_dimension && reg.dim_indirect.is_indirect();
      if (dim_indirect) {
        for (ConstBufferInfo& cb : info_.const_buffers)
          cb.indirect = true;
        break;
      }
      int32_t dim = reg.has_dimension ? reg.dimension : 0;
      if (dim < 0) break;
      ConstBufferInfo& cb = const_buffer(uint32_t(dim));
      if (reg.indirect.is_indirect()) {
        cb.indirect = true;
      } else if (reg.index >= 0) {
        cb.used_size = std::max(cb.used_size, uint32_t(reg.index) + 1);
      }
      break;
    }
    default:
      break;
  }
}

void Analyzer::resource_use(const Instruction& inst, const RegisterRef& reg) {
  ResourceUse use;
  switch (inst.opcode) {
    case Opcode::LOAD:
      use.read = true;
      break;
    case Opcode::STORE:
      use.written = true;
      break;
    case Opcode::RESQ:
      use.queried = true;
      break;
    default:
      use.atomic = true;
      break;
  }
  auto merge = [](ResourceUse& into, const ResourceUse& u) {
    into.read |= u.read;
    into.written |= u.written;
    into.atomic |= u.atomic;
    into.queried |= u.queried;
  };
  const bool all = reg.indirect.is_indirect();
  const int32_t index = reg.index;
  switch (reg.file) {
    case RegFile::IMAGE:
      for (ImageInfo& im : info_.images) {
        if (all || int32_t(im.index) == index) merge(im.use, use);
      }
      break;
    case RegFile::BUFFER:
      for (BufferInfo& b : info_.buffers) {
        if (all || int32_t(b.index) == index) merge(b.use, use);
      }
      break;
    case RegFile::MEMORY:
      for (MemoryInfo& m : info_.memories) {
        if (all || int32_t(m.index) == index) merge(m.use, use);
      }
      break;
    case RegFile::HWATOMIC: {
      const bool any_buffer = reg.has_dimension && reg.dim_indirect.is_indirect();
      const int32_t buffer = reg.has_dimension ? reg.dimension : 0;
      for (HwAtomicInfo& h : info_.hw_atomics) {
        if (!any_buffer && int32_t(h.buffer) != buffer) continue;
        if (all || (index >= int32_t(h.first) && index <= int32_t(h.last))) merge(h.use, use);
      }
      break;
    }
    case RegFile::CONST:
      if (reg.has_dimension && reg.dim_indirect.is_indirect()) {
        for (ConstBufferInfo& cb : info_.const_buffers)
          cb.loaded = true;
      } else {
        int32_t b = reg.has_dimension ? reg.dimension : index;
        if (b >= 0) const_buffer(uint32_t(b)).loaded = true;
      }
      break;
    default:
      break;
  }
}

void Analyzer::instruction(const Instruction& inst) {
  const OpcodeInfo& info = inst.info();
  if (!info.name) return;
  const Opcode op = inst.opcode;
  const bool fs = s_.stage == ShaderType::FRAGMENT;
  switch (op) {
    case Opcode::DDX:
    case Opcode::DDY:
    case Opcode::DDX_FINE:
    case Opcode::DDY_FINE:
      info_.uses_derivatives = true;
      break;
    case Opcode::KILL:
    case Opcode::KILL_IF:
      info_.uses_kill = true;
      break;
    case Opcode::DEMOTE:
    case Opcode::READ_HELPER:
      info_.uses_demote = true;
      break;
    case Opcode::BARRIER:
      info_.uses_barrier = true;
      break;
    case Opcode::MEMBAR:
      info_.uses_memory_barrier = true;
      break;
    case Opcode::INTERP_CENTROID:
    case Opcode::INTERP_SAMPLE:
    case Opcode::INTERP_OFFSET: {
      info_.uses_interp_at = true;
      const RegisterRef& reg = inst.src[0].reg;
      for (IoInfo& io : info_.inputs) {
        if (reg.file == RegFile::IN &&
            (reg.indirect.is_indirect() || int32_t(io.reg) == reg.index)) {
          io.interp_at = true;
        }
      }
      break;
    }
    case Opcode::FBFETCH:
      info_.uses_fbfetch = true;
      break;
    case Opcode::CLOCK:
      info_.uses_clock = true;
      break;
    case Opcode::VOTE_ANY:
    case Opcode::VOTE_ALL:
    case Opcode::VOTE_EQ:
    case Opcode::BALLOT:
    case Opcode::READ_INVOC:
    case Opcode::READ_FIRST:
      info_.uses_subgroup_ops = true;
      break;
    case Opcode::EMIT:
      info_.emits_vertices = true;
      break;
    case Opcode::BGNLOOP:
      info_.has_loops = true;
      break;
    case Opcode::SWITCH:
      info_.has_switch = true;
      break;
    case Opcode::BGNSUB:
    case Opcode::CAL:
      info_.has_subroutines = true;
      break;
    default:
      break;
  }
  if (is_implicit_lod(op)) {
    info_.uses_implicit_lod = true;
    if (fs) info_.uses_derivatives = true;
  }
  if (inst.num_tex_offsets) info_.uses_tex_offsets = true;
  if (op == Opcode::STORE || (opcode_is_memory(op) && op != Opcode::LOAD && op != Opcode::RESQ)) {
    info_.writes_memory = true;
  }
  for (unsigned i = 0; i < inst.num_dst && i < kMaxDst; ++i) {
    const OperandType t = info.dst[i];
    if (t == OperandType::F64) info_.uses_fp64 = true;
    if (t == OperandType::I64 || t == OperandType::U64) info_.uses_int64 = true;
    const RegisterRef& reg = inst.dst[i].reg;
    register_use(reg);
    if (t == OperandType::RES) {
      resource_use(inst, reg);
    } else if (reg.file == RegFile::OUT) {
      mark_io(info_.outputs, out_table_, reg, inst.dst[i].write_mask, true);
    }
  }
  for (unsigned i = 0; i < inst.num_src && i < kMaxSrc; ++i) {
    const OperandType t = info.src[i];
    if (t == OperandType::F64) info_.uses_fp64 = true;
    if (t == OperandType::I64 || t == OperandType::U64) info_.uses_int64 = true;
    const RegisterRef& reg = inst.src[i].reg;
    register_use(reg);
    switch (t) {
      case OperandType::RES:
        resource_use(inst, reg);
        break;
      case OperandType::SAMP:
        for (SamplerInfo& smp : info_.samplers) {
          if (!reg.indirect.is_indirect() && int32_t(smp.index) != reg.index) continue;
          smp.used = true;
          if (info.is_tex) {
            smp.target_mask |= 1u << unsigned(inst.texture);
            if (texture_is_shadow(inst.texture)) smp.shadow = true;
          }
        }
        break;
      case OperandType::SVIEW:
        break;
      default:
        read_value(inst, i);
        break;
    }
  }
}

}  // namespace

const IoInfo* ShaderInfo::find_input(Semantic s, uint32_t index) const {
  for (const IoInfo& io : inputs) {
    if (io.has_semantic && io.semantic == s && io.semantic_index == index) return &io;
  }
  return nullptr;
}

const IoInfo* ShaderInfo::find_output(Semantic s, uint32_t index) const {
  for (const IoInfo& io : outputs) {
    if (io.has_semantic && io.semantic == s && io.semantic_index == index) return &io;
  }
  return nullptr;
}

ShaderInfo analyze(const Shader& shader) {
  return Analyzer(shader).run();
}

}  // namespace clpipe::compiler
