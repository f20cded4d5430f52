// describe_shader_info() (shader_info.h): the analysis as readable text.
#include <sstream>

#include "compiler/shader_info.h"

namespace clpipe::compiler {

namespace {

std::string mask_text(uint8_t mask) {
  std::string s;
  for (int c = 0; c < 4; ++c) {
    if (mask & (1u << c)) s += "xyzw"[c];
  }
  return s.empty() ? "-" : s;
}

std::string use_text(const ResourceUse& u) {
  std::string s;
  if (u.read) s += " read";
  if (u.written) s += " written";
  if (u.atomic) s += " atomic";
  if (u.queried) s += " queried";
  return s.empty() ? " unused" : s;
}

std::string files_text(uint32_t mask) {
  std::string s;
  for (unsigned f = 0; f < kRegFileCount; ++f) {
    if (mask & (1u << f)) s += std::string(" ") + file_name(RegFile(f));
  }
  return s.empty() ? " -" : s;
}

void io_line(std::ostringstream& os, const char* file, const IoInfo& io, bool output) {
  os << "  " << file << (io.per_vertex ? "[]" : "") << "[" << io.reg << "]";
  if (io.has_semantic) {
    os << " " << semantic_name(io.semantic) << "[" << io.semantic_index << "]";
  }
  if (io.has_interp) os << " " << interp_name(io.interp);
  if (io.location != InterpLoc::CENTER) os << " " << interp_loc_name(io.location);
  os << " usage " << mask_text(io.usage_mask) << " read " << mask_text(io.read_mask);
  if (output) os << " written " << mask_text(io.written_mask);
  if (io.interp_at) os << " interp_at";
  if (io.invariant) os << " invariant";
  if (io.stream[0] | io.stream[1] | io.stream[2] | io.stream[3]) {
    os << " stream " << int(io.stream[0]) << int(io.stream[1]) << int(io.stream[2])
       << int(io.stream[3]);
  }
  if (io.array_id) os << " array " << io.array_id;
  os << "\n";
}

}  // namespace

std::string describe_shader_info(const ShaderInfo& info) {
  std::ostringstream os;
  const ShaderProperties& p = info.props;
  os << "stage " << stage_name(info.stage) << ", " << info.num_instructions << " instructions\n";
  switch (info.stage) {
    case ShaderType::FRAGMENT:
      os << "properties: origin " << (p.fs_coord_origin_lower_left ? "LOWER_LEFT" : "UPPER_LEFT")
         << ", pixel center " << (p.fs_pixel_center_integer ? "INTEGER" : "HALF_INTEGER")
         << ", color0 to all cbufs " << p.fs_color0_writes_all_cbufs << ", early depth "
         << p.fs_early_depth_stencil << ", depth layout " << p.fs_depth_layout << "\n";
      break;
    case ShaderType::GEOMETRY:
      os << "properties: input " << tgsi_prim_name(p.gs_input_prim) << " (" << p.gs_input_vertices
         << " vertices), output " << tgsi_prim_name(p.gs_output_prim) << ", max vertices "
         << p.gs_max_output_vertices << ", invocations " << p.gs_invocations << "\n";
      break;
    case ShaderType::TESS_CTRL:
      os << "properties: vertices out " << p.tcs_vertices_out << "\n";
      break;
    case ShaderType::TESS_EVAL:
      os << "properties: prim mode " << p.tes_prim_mode << ", spacing " << p.tes_spacing << ", cw "
         << p.tes_vertex_order_cw << ", point mode " << p.tes_point_mode << "\n";
      break;
    case ShaderType::COMPUTE:
      os << "properties: block " << p.cs_block[0] << "x" << p.cs_block[1] << "x" << p.cs_block[2]
         << "\n";
      break;
    case ShaderType::VERTEX:
      break;
  }
  if (info.stage != ShaderType::FRAGMENT && info.stage != ShaderType::COMPUTE) {
    os << "clip distances " << p.num_clip_distances << ", cull distances " << p.num_cull_distances
       << "\n";
  }
  os << "inputs (" << info.num_inputs << " registers):\n";
  for (const IoInfo& io : info.inputs)
    io_line(os, "IN", io, false);
  os << "outputs (" << info.num_outputs << " registers):\n";
  for (const IoInfo& io : info.outputs)
    io_line(os, "OUT", io, true);
  for (const SystemValueInfo& sv : info.system_values) {
    os << "  SV[" << sv.reg << "] " << semantic_name(sv.semantic) << " read "
       << mask_text(sv.read_mask) << "\n";
  }
  os << "temps " << info.num_temps << ", address registers " << info.num_addrs << ", immediates "
     << info.num_immediates << "\n";
  for (const ArrayInfo& a : info.arrays) {
    os << "  " << file_name(a.file) << " ARRAY(" << a.id << ") [" << a.first << ".." << a.last
       << "]" << (a.indirect ? " indirect" : "") << "\n";
  }
  for (const SamplerInfo& s : info.samplers) {
    os << "  SAMP[" << s.index << "]" << (s.used ? "" : " unused");
    for (unsigned t = 0; t < kTexTargetCount; ++t) {
      if (s.target_mask & (1u << t)) os << " " << texture_name(TexTarget(t));
    }
    os << "\n";
  }
  for (const SamplerViewInfo& v : info.sampler_views) {
    os << "  SVIEW[" << v.index << "] " << texture_name(v.target) << " "
       << return_type_name(v.return_type[0]) << "\n";
  }
  for (const ConstBufferInfo& cb : info.const_buffers) {
    os << "  CONST[" << cb.index << "] declared " << cb.declared_size << " used " << cb.used_size
       << (cb.indirect ? " indirect" : "") << (cb.loaded ? " loaded" : "") << "\n";
  }
  for (const ImageInfo& im : info.images) {
    os << "  IMAGE[" << im.index << "] " << texture_name(im.target) << " "
       << (im.format.is_present() ? im.format.name : "-") << (im.writable ? " WR" : "")
       << use_text(im.use) << "\n";
  }
  for (const BufferInfo& b : info.buffers) {
    os << "  BUFFER[" << b.index << "]" << (b.atomic ? " ATOMIC" : "") << use_text(b.use) << "\n";
  }
  for (const MemoryInfo& m : info.memories) {
    os << "  MEMORY[" << m.index << "] " << memory_type_name(m.type) << use_text(m.use) << "\n";
  }
  for (const HwAtomicInfo& h : info.hw_atomics) {
    os << "  HWATOMIC[" << h.buffer << "][" << h.first << ".." << h.last << "]" << use_text(h.use)
       << "\n";
  }
  if (info.stage == ShaderType::FRAGMENT) {
    os << "fs outputs:";
    for (unsigned i = 0; i < kMaxColorBufs; ++i) {
      if (info.fs_outputs.color[i] >= 0)
        os << " COLOR[" << i << "]=OUT[" << info.fs_outputs.color[i] << "]";
    }
    if (info.fs_outputs.depth >= 0) os << " depth=OUT[" << info.fs_outputs.depth << "]";
    if (info.fs_outputs.stencil >= 0) os << " stencil=OUT[" << info.fs_outputs.stencil << "]";
    if (info.fs_outputs.sample_mask >= 0) {
      os << " samplemask=OUT[" << info.fs_outputs.sample_mask << "]";
    }
    os << "\n";
  }
  os << "indirect:" << files_text(info.indirect_files)
     << "; dimension-indirect:" << files_text(info.dim_indirect_files) << "\n";
  os << "uses:";
  const std::pair<bool, const char*> facts[] = {
      {info.uses_derivatives, "derivatives"},
      {info.uses_implicit_lod, "implicit-lod"},
      {info.uses_kill, "kill"},
      {info.uses_demote, "demote"},
      {info.uses_barrier, "barrier"},
      {info.uses_memory_barrier, "membar"},
      {info.writes_memory, "memory-writes"},
      {info.uses_fp64, "fp64"},
      {info.uses_int64, "int64"},
      {info.uses_interp_at, "interp-at"},
      {info.uses_fbfetch, "fbfetch"},
      {info.uses_clock, "clock"},
      {info.uses_subgroup_ops, "subgroup"},
      {info.uses_tex_offsets, "tex-offsets"},
      {info.emits_vertices, "emit"},
      {info.has_loops, "loops"},
      {info.has_switch, "switch"},
      {info.has_subroutines, "subroutines"},
      {info.per_sample_shading, "per-sample"},
  };
  bool any = false;
  for (const auto& [on, name] : facts) {
    if (on) {
      os << " " << name;
      any = true;
    }
  }
  if (!any) os << " -";
  os << "\n";
  return os.str();
}

}  // namespace clpipe::compiler
