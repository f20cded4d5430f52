// emit_opencl() (emit.h): planning of registers and kernel parameters, the prelude, the
// prologue of clp_shader_main, and the walk over the instructions that dispatches each
// one to the emit_*.cpp file of its family.
#include <algorithm>
#include <cstdio>

#include "base/error.h"
#include "compiler/emit/emitter.h"
#include "compiler/tgsi/printer.h"
#include "kernels/sampling_abi.h"
#include "kernels/shader_lib_shared.h"

namespace clpipe::compiler {

// The host side of the structures the parameters point at (kernels/*.h are compiled as C++
// and OpenCL C): sizes agree only if every field is a 32-bit scalar, as their headers
// promise.
static_assert(sizeof(ClpResourceInfo) == 4 * (3 * 32 + 3 + 2 + 3 + 32 + 4),
              "ClpResourceInfo layout");
static_assert(sizeof(ClpTexView) == 4 * (18 + 3 * CLP_TEX_MAX_LEVELS), "ClpTexView layout");
static_assert(sizeof(ClpSamplerState) == 4 * 20, "ClpSamplerState layout");

const char* param_kind_name(ParamKind kind) {
  switch (kind) {
    case ParamKind::kResourceInfo:
      return "resource-info";
    case ParamKind::kConstBuffer:
      return "const-buffer";
    case ParamKind::kShaderBuffer:
      return "shader-buffer";
    case ParamKind::kHwAtomicBuffer:
      return "hw-atomic-buffer";
    case ParamKind::kSamplerViews:
      return "sampler-views";
    case ParamKind::kSamplers:
      return "samplers";
    case ParamKind::kTexture:
      return "texture";
    case ParamKind::kImageViews:
      return "image-views";
    case ParamKind::kImage:
      return "image";
    case ParamKind::kGlobalMemory:
      return "global-memory";
    case ParamKind::kInputMemory:
      return "input-memory";
    case ParamKind::kSharedMemory:
      return "shared-memory";
    case ParamKind::kInterpCode:
      return "interp-code";
  }
  return "?";
}

const char* harness_template_name(ShaderType stage) {
  return stage == ShaderType::COMPUTE ? "compute.cl" : "harness.cl";
}

namespace emit_detail {

std::string u32_lit(uint32_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%08xu", v);
  return buf;
}

std::string i32_lit(int32_t v) {
  // INT_MIN has no literal of its own in C.
  if (v == INT32_MIN) return "(-2147483647 - 1)";
  return std::to_string(v);
}

const char* lane_vec_type(ValType t) {
  switch (t) {
    case ValType::F:
      return "vf";
    case ValType::I:
      return "vi";
    case ValType::U:
      return "vu";
    case ValType::D:
      return "vd";
    case ValType::L:
      return "vl";
    case ValType::UL:
      return "vul";
  }
  return "vf";
}

std::string vf_cast(ValType t, const std::string& expr) {
  switch (t) {
    case ValType::F:
      return expr;
    case ValType::I:
    case ValType::U:
      return "CLP_AS_VF(" + expr + ")";
    default:
      return expr;  // 64-bit values are split by write_pair
  }
}

namespace {

const char* stage_macro(ShaderType stage) {
  switch (stage) {
    case ShaderType::VERTEX:
      return "CLP_STAGE_VERTEX";
    case ShaderType::TESS_CTRL:
      return "CLP_STAGE_TESS_CTRL";
    case ShaderType::TESS_EVAL:
      return "CLP_STAGE_TESS_EVAL";
    case ShaderType::GEOMETRY:
      return "CLP_STAGE_GEOMETRY";
    case ShaderType::FRAGMENT:
      return "CLP_STAGE_FRAGMENT";
    case ShaderType::COMPUTE:
      return "CLP_STAGE_COMPUTE";
  }
  return "CLP_STAGE_VERTEX";
}

bool is_texture_opcode(Opcode op) {
  if (opcode_info(op).is_tex) return true;
  switch (op) {
    case Opcode::SAMPLE:
    case Opcode::SAMPLE_I:
    case Opcode::SAMPLE_I_MS:
    case Opcode::SAMPLE_B:
    case Opcode::SAMPLE_C:
    case Opcode::SAMPLE_C_LZ:
    case Opcode::SAMPLE_D:
    case Opcode::SAMPLE_L:
    case Opcode::GATHER4:
    case Opcode::SVIEWINFO:
    case Opcode::LOD:
    case Opcode::SAMPLE_INFO:
    case Opcode::SAMPLE_POS:
      return true;
    default:
      return false;
  }
}

}  // namespace

Emitter::Emitter(const Shader& shader, const ShaderInfo& info, const EmitOptions& options)
    : s_(shader),
      info_(info),
      opt_(options),
      lanes_(shader.stage == ShaderType::COMPUTE    ? 1
             : shader.stage == ShaderType::FRAGMENT ? options.fragment_lanes
                                                    : 4),
      decls_(shader),
      cf_(control_flow(shader)) {}

void Emitter::fail(const Instruction& inst, const std::string& message) const {
  throw CompileError(inst.loc,
                     std::string(inst.info().name ? inst.info().name : "?") + ": " + message);
}

void Emitter::line(const std::string& text) {
  body_.append(size_t(indent_) * 2, ' ');
  body_ += text;
  body_ += '\n';
}

std::string Emitter::fresh(const char* prefix) {
  return std::string(prefix) + std::to_string(fresh_++);
}

void Emitter::plan() {
  num_temps_ = info_.num_temps;
  for (const ArrayInfo& a : info_.arrays) {
    if (a.file == RegFile::TEMP && a.indirect) temp_arrays_.push_back({a.id, a.first, a.last});
  }
  // An indirect TEMP access without a (known) ArrayID may reach any temp: then the whole
  // file is one array.
  for (const Instruction& inst : s_.instructions) {
    auto check = [&](const RegisterRef& r) {
      if (r.file != RegFile::TEMP || !r.indirect.is_indirect()) return;
      bool known = false;
      for (const TempArray& a : temp_arrays_)
        known |= a.id == r.indirect.array_id;
      if (r.indirect.array_id == 0 || !known) temp_file_array_ = true;
    };
    for (unsigned d = 0; d < inst.num_dst; ++d)
      check(inst.dst[d].reg);
    for (unsigned k = 0; k < inst.num_src; ++k)
      check(inst.src[k].reg);
  }
  if (temp_file_array_) temp_arrays_.clear();

  uses_alive_ = s_.stage == ShaderType::FRAGMENT && info_.uses_kill;
  for (uint32_t i = 0; i <= cf_.main_end && i < s_.instructions.size(); ++i) {
    const Opcode op = s_.instructions[i].opcode;
    if ((op == Opcode::RET || op == Opcode::END) && i != cf_.main_end) uses_ret_ = true;
  }
  uses_clock_ = info_.uses_clock;

  if (opt_.local_mem_size && opt_.shared_memory_size > opt_.local_mem_size) {
    for (const Declaration& d : s_.declarations) {
      if (d.file == RegFile::MEMORY && d.memory_type == MemoryType::SHARED) {
        throw CompileError(d.loc, "the shader needs " + std::to_string(opt_.shared_memory_size) +
                                      " bytes of shared memory; the device has " +
                                      std::to_string(opt_.local_mem_size));
      }
    }
  }
}

void Emitter::add_param(ParamKind kind, uint32_t index, const std::string& name,
                        const std::string& decl) {
  params_.push_back(ResourceParam{kind, index, name, decl});
}

bool Emitter::has_param(ParamKind kind, uint32_t index) const {
  for (const ResourceParam& p : params_) {
    if (p.kind == kind && p.index == index && !p.placeholder) return true;
  }
  return false;
}

std::string Emitter::param_name(ParamKind kind, uint32_t index) const {
  for (const ResourceParam& p : params_) {
    if (p.kind == kind && p.index == index) return p.name;
  }
  return "";
}

void Emitter::plan_params() {
  bool any_tex = false, any_image = false, any_buffer = false, any_hwa = false;
  bool any_global = false, any_input = false, any_shared = false;
  for (const Instruction& inst : s_.instructions) {
    if (is_texture_opcode(inst.opcode)) any_tex = true;
    if (inst.opcode == Opcode::IMG2HND || inst.opcode == Opcode::SAMP2HND) continue;
    auto note = [&](const RegisterRef& r) {
      switch (r.file) {
        case RegFile::IMAGE:
          any_image = true;
          break;
        case RegFile::BUFFER:
          any_buffer = true;
          break;
        case RegFile::HWATOMIC:
          any_hwa = true;
          break;
        case RegFile::MEMORY: {
          for (const MemoryInfo& mi : info_.memories) {
            if (!r.indirect.is_indirect() && int32_t(mi.index) != r.index) continue;
            any_global |= mi.type == MemoryType::GLOBAL;
            any_input |= mi.type == MemoryType::INPUT;
            any_shared |= mi.type == MemoryType::SHARED;
          }
          break;
        }
        default:
          break;
      }
    };
    for (unsigned d = 0; d < inst.num_dst; ++d)
      note(inst.dst[d].reg);
    for (unsigned k = 0; k < inst.num_src; ++k)
      note(inst.src[k].reg);
  }
  const bool need_info = !info_.const_buffers.empty() || any_buffer || any_hwa || any_global ||
                         any_input || any_shared || uses_clock_ || any_tex || any_image ||
                         opt_.interp_params;
  if (need_info) {
    add_param(ParamKind::kResourceInfo, 0, "clp_ri", "global const ClpResourceInfo* clp_ri");
  }
  // The units of an interpreted shader's parameters run from 0 to a size class of its
  // highest, whichever it names, so that its program serves shaders of other units: fewer
  // programs, each a cold build of seconds (issue 15). Texture units take one class for
  // the 16 a stage has (caps: MAX_SAMPLER_VIEWS): a placeholder costs a kernel argument,
  // and a shader of 5-16 units then finds the program the warm-up built, instead of
  // building one of its own for its first pixel (~3.5 s for 8 units, stop 60).
  auto add_units = [&](ParamKind kind, const std::vector<uint32_t>& units,
                       const std::string& prefix, const std::string& type, uint32_t least) {
    uint32_t end = units.empty() ? 0 : units.back() + 1;
    if (opt_.interp_params) end = size_class(end, least);
    for (uint32_t u = 0; u < end; ++u) {
      const bool named = std::find(units.begin(), units.end(), u) != units.end();
      if (!named && !opt_.interp_params) continue;
      const std::string n = prefix + std::to_string(u);
      add_param(kind, u, n, type + " " + n);
      params_.back().placeholder = !named;
    }
  };
  std::vector<uint32_t> cbs;
  for (const ConstBufferInfo& cb : info_.const_buffers)
    cbs.push_back(cb.index);
  std::sort(cbs.begin(), cbs.end());
  add_units(ParamKind::kConstBuffer, cbs, "clp_cb", "global const uint*", 4);
  if (any_buffer) {
    for (const BufferInfo& b : info_.buffers) {
      const std::string n = "clp_sb" + std::to_string(b.index);
      add_param(ParamKind::kShaderBuffer, b.index, n, "global uint* " + n);
    }
  }
  if (any_hwa) {
    std::vector<uint32_t> bufs;
    for (const HwAtomicInfo& h : info_.hw_atomics)
      bufs.push_back(h.buffer);
    std::sort(bufs.begin(), bufs.end());
    bufs.erase(std::unique(bufs.begin(), bufs.end()), bufs.end());
    for (uint32_t b : bufs) {
      const std::string n = "clp_ha" + std::to_string(b);
      add_param(ParamKind::kHwAtomicBuffer, b, n, "global uint* " + n);
    }
  }
  if (any_tex) {
    uses_sampling_ = true;
    std::vector<uint32_t> views, samplers;
    for (const SamplerInfo& smp : info_.samplers) {
      views.push_back(smp.index);
      samplers.push_back(smp.index);
    }
    for (const SamplerViewInfo& v : info_.sampler_views)
      views.push_back(v.index);
    std::sort(views.begin(), views.end());
    views.erase(std::unique(views.begin(), views.end()), views.end());
    std::sort(samplers.begin(), samplers.end());
    if (!views.empty() || opt_.interp_params) {
      add_param(ParamKind::kSamplerViews, views.empty() ? 0 : views.back() + 1, "clp_views",
                "global const ClpTexView* clp_views");
    }
    if (!samplers.empty() || opt_.interp_params) {
      add_param(ParamKind::kSamplers, samplers.empty() ? 0 : samplers.back() + 1, "clp_samplers",
                "global const ClpSamplerState* clp_samplers");
    }
    add_units(ParamKind::kTexture, views, "clp_tx", "global const uchar*", 16);
  }
  if (any_image && !info_.images.empty()) {
    uses_images_ = true;
    add_param(ParamKind::kImageViews, info_.images.back().index + 1, "clp_images",
              "global const ClpTexView* clp_images");
    for (const ImageInfo& im : info_.images) {
      const std::string n = "clp_im" + std::to_string(im.index);
      add_param(ParamKind::kImage, im.index, n, "global uchar* " + n);
    }
  }
  if (any_global) add_param(ParamKind::kGlobalMemory, 0, "clp_gm", "global uint* clp_gm");
  if (any_input) add_param(ParamKind::kInputMemory, 0, "clp_inm", "global const uint* clp_inm");
  if (any_shared) {
    add_param(ParamKind::kSharedMemory, 0, "clp_shared", "local uint* clp_shared");
    params_.back().bytes = opt_.shared_memory_size;
  }
  if (opt_.interp_params) {
    add_param(ParamKind::kInterpCode, 0, "clp_icode", "global const uint* clp_icode");
  }
}

uint32_t size_class(uint32_t n, uint32_t least) {
  uint32_t c = least;
  while (c < n)
    c *= 2;
  return c;
}

// An interpreted shader's program serves every shader of its prelude, so the register
// counts that only size arrays take a size class: fragment inputs (only the shader
// indexes io->in), vertex inputs (the vertex pass fetches the bound elements up to it:
// registers the shader does not read), vertex outputs (the pass stores the shader's
// own count: vertex.cl), fragment outputs (the tile pass reads the registers the
// code's header names: CLP_INTERP_H_COLOR), geometry inputs (registers past the shader's
// have no entry in the input map: they read 0, as the compiled code's bound gives) and
// geometry outputs (the pass stores ClpGsParams::num_outputs: gs.cl). The classes are as
// large as they can be while they cost memory, not time: the tile pass loads only the
// fragment inputs the code's header lists (32), the geometry pass zeroes its inputs per
// 4 invocations (16), the vertex pass its outputs per 4 vertices (16; at 64, a large
// mesh's draws would spend time on it).
uint32_t Emitter::prelude_inputs() const {
  const uint32_t n = info_.num_inputs;
  if (!interpreting_) return n;
  switch (s_.stage) {
    case ShaderType::FRAGMENT:
      return size_class(n, 32);
    case ShaderType::GEOMETRY:
      return size_class(n, 16);
    default:
      return size_class(n, 4);
  }
}

uint32_t Emitter::prelude_outputs() const {
  const uint32_t n = info_.num_outputs;
  if (!interpreting_) return n;
  return size_class(n, s_.stage == ShaderType::VERTEX ? 16 : 4);
}

std::string Emitter::prelude() const {
  std::string p;
  auto def = [&](const std::string& name, const std::string& value) {
    p += "#define " + name + " " + value + "\n";
  };
  def(stage_macro(s_.stage), "1");
  def("CLP_LANES", std::to_string(lanes_));
  if (s_.stage == ShaderType::FRAGMENT && opt_.fragment_whole_tile) def("CLP_TILE_WHOLE", "1");
  def("CLP_NUM_INPUTS", std::to_string(prelude_inputs()));
  def("CLP_NUM_OUTPUTS", std::to_string(prelude_outputs()));
  std::string params, args;
  for (const ResourceParam& rp : params_) {
    params += ", " + rp.decl;
    args += ", " + rp.name;
  }
  def("CLP_RESOURCE_PARAMS", params);
  def("CLP_RESOURCE_ARGS", args);
  if (uses_int64_code_ || uses_fp64_code_ || uses_clock_) def("CLP_SHADER_INT64", "1");
  if (uses_fp64_code_) def("CLP_SHADER_FP64", "1");
  const ShaderProperties& pr = info_.props;
  switch (s_.stage) {
    case ShaderType::FRAGMENT: {
      // An interpreted shader's tile pass reads them from its code (CLP_INTERP_H_COLOR and
      // CLP_INTERP_H_FS: interp_encode).
      if (interpreting_) {
        // Its tile pass computes the weights of every interpolation mode (those the shader
        // uses come out the same).
        def("CLP_FS_INTERP_MODES", "15");
        break;
      }
      for (unsigned i = 0; i < kMaxColorBufs; ++i) {
        def("CLP_FS_COLOR_REG_" + std::to_string(i), std::to_string(info_.fs_outputs.color[i]));
      }
      def("CLP_FS_DEPTH_REG", std::to_string(info_.fs_outputs.depth));
      def("CLP_FS_STENCIL_REG", std::to_string(info_.fs_outputs.stencil));
      def("CLP_FS_SAMPLEMASK_REG", std::to_string(info_.fs_outputs.sample_mask));
      def("CLP_FS_EARLY_DEPTH", pr.fs_early_depth_stencil ? "1" : "0");
      def("CLP_FS_USES_KILL", info_.uses_kill || info_.uses_demote ? "1" : "0");
      def("CLP_FS_HAS_SIDE_EFFECTS", info_.writes_memory ? "1" : "0");
      def("CLP_FS_INTERP_MODES", std::to_string(fs_interp_modes()));
      def("CLP_FS_PER_SAMPLE", info_.per_sample_shading ? "1" : "0");
      // The body is emitted: whether it reads other lanes of its quads (derivatives,
      // implicit LOD, interpolation at offsets) is known.
      def("CLP_FS_READS_QUADS", uses_quad_ops_ ? "1" : "0");
      break;
    }
    case ShaderType::GEOMETRY:
      // The interpreter and gs.cl read these from ClpGsParams for an interpreted shader.
      if (interpreting_) break;
      def("CLP_GS_INPUT_VERTICES", std::to_string(pr.gs_input_vertices));
      def("CLP_GS_MAX_OUTPUT_VERTICES", std::to_string(pr.gs_max_output_vertices));
      def("CLP_GS_INVOCATIONS", std::to_string(pr.gs_invocations));
      def("CLP_GS_OUTPUT_PRIM", std::to_string(unsigned(pr.gs_output_prim)));
      break;
    case ShaderType::TESS_CTRL:
      def("CLP_TCS_VERTICES_OUT", std::to_string(pr.tcs_vertices_out));
      break;
    case ShaderType::COMPUTE:
      def("CLP_CS_BLOCK_X", std::to_string(pr.cs_block[0]));
      def("CLP_CS_BLOCK_Y", std::to_string(pr.cs_block[1]));
      def("CLP_CS_BLOCK_Z", std::to_string(pr.cs_block[2]));
      break;
    default:
      break;
  }
  return p;
}

void Emitter::prologue() {
  line("vi m = io->exec_mask;");
  if (uses_alive_) line("vi alive = io->exec_mask;");
  if (uses_ret_) line("vi mret = (vi)(0);");
  if (uses_clock_) line("ulong clp_clk = 0;");
  param_prologue();
  temp_prologue();
}

void Emitter::param_prologue() {
  for (const ResourceParam& p : params_) {
    const std::string i = std::to_string(p.index);
    switch (p.kind) {
      case ParamKind::kResourceInfo:
        // The template picks this invocation's entry (a scene's draws share the table).
        line("clp_ri += clp_resource_index(stage);");
        break;
      case ParamKind::kConstBuffer:
        if (p.index < 32) {
          line("clp_cb" + i + " += clp_ri->const_offset[" + i + "];");
          line("const uint cbsz" + i + " = clp_ri->const_size[" + i + "];");
        } else {
          line("const uint cbsz" + i + " = 0u;");
        }
        break;
      case ParamKind::kSamplerViews:
        line("clp_views += clp_ri->view_base;");
        break;
      case ParamKind::kSamplers:
        line("clp_samplers += clp_ri->sampler_base;");
        break;
      case ParamKind::kImageViews:
        line("clp_images += clp_ri->image_base;");
        break;
      case ParamKind::kShaderBuffer:
        if (p.index < 32)
          line("const uint sbsz" + i + " = clp_ri->buffer_size[" + i + "];");
        else
          line("const uint sbsz" + i + " = 0u;");
        break;
      case ParamKind::kHwAtomicBuffer:
        if (p.index < 32)
          line("const uint hasz" + i + " = clp_ri->hw_atomic_size[" + i + "];");
        else
          line("const uint hasz" + i + " = 0u;");
        break;
      case ParamKind::kGlobalMemory:
        line("const uint gmsz = clp_ri->global_size;");
        break;
      case ParamKind::kInputMemory:
        line("const uint inmsz = clp_ri->input_size;");
        break;
      case ParamKind::kSharedMemory:
        line("const uint shsz = clp_ri->shared_size;");
        break;
      default:
        break;
    }
  }
}

void Emitter::temp_prologue() {
  // Temporaries: direct ones as variables (only those instructions name), indirectly
  // addressed arrays as private arrays. All zero: TGSI does not say they start as zero,
  // but C must not read an uninitialised variable.
  std::vector<bool> named(num_temps_, false);
  for (const Instruction& inst : s_.instructions) {
    auto note = [&](const RegisterRef& r) {
      if (r.file == RegFile::TEMP && !r.indirect.is_indirect() && r.index >= 0 &&
          uint32_t(r.index) < num_temps_) {
        named[size_t(r.index)] = true;
      }
    };
    for (unsigned d = 0; d < inst.num_dst; ++d)
      note(inst.dst[d].reg);
    for (unsigned k = 0; k < inst.num_src; ++k)
      note(inst.src[k].reg);
  }
  auto zero_array = [&](const std::string& name, uint32_t len) {
    line("vf " + name + "[" + std::to_string(len) + "][4];");
    line("for (int i = 0; i < " + std::to_string(len) + "; ++i) " + name + "[i][0] = " + name +
         "[i][1] = " + name + "[i][2] = " + name + "[i][3] = (vf)(0.0f);");
  };
  if (temp_file_array_) {
    if (num_temps_) zero_array("tf", num_temps_);
  } else {
    for (const TempArray& a : temp_arrays_) {
      zero_array("ta" + std::to_string(a.id), a.last - a.first + 1);
    }
    for (uint32_t r = 0; r < num_temps_; ++r) {
      if (!named[r]) continue;
      bool in_array = false;
      for (const TempArray& a : temp_arrays_)
        in_array |= r >= a.first && r <= a.last;
      if (in_array) continue;
      const std::string t = "t" + std::to_string(r) + "_";
      line("vf " + t + "0 = (vf)(0.0f), " + t + "1 = (vf)(0.0f), " + t + "2 = (vf)(0.0f), " + t +
           "3 = (vf)(0.0f);");
    }
  }
  for (uint32_t a = 0; a < info_.num_addrs; ++a) {
    const std::string n = "a" + std::to_string(a) + "_";
    line("vi " + n + "0 = (vi)(0), " + n + "1 = (vi)(0), " + n + "2 = (vi)(0), " + n +
         "3 = (vi)(0);");
  }
  system_value_prologue();
  if (s_.stage == ShaderType::FRAGMENT) fs_input_prologue();
}

void Emitter::emit_range(uint32_t begin, uint32_t end) {
  for (uint32_t i = begin; i < end; ++i)
    emit_instruction(i);
}

// The most instructions a shader may have once its subroutines are inlined. LLVM's build
// time grows at least linearly with them (a 5,500-instruction shader takes ~15 s on
// PoCL), and a client must not keep a process compiling for minutes: past this, the
// shader is refused at once. The TGSI corpus of real programs has at most 647.
constexpr uint64_t kMaxEmittedInstructions = 16384;

void Emitter::emit_instruction(uint32_t i) {
  const Instruction& inst = s_.instructions[i];
  if (++emitted_instructions_ > kMaxEmittedInstructions) {
    fail(inst, "the shader has more than " + std::to_string(kMaxEmittedInstructions) +
                   " instructions with its subroutines inlined; building it would take minutes");
  }
  line("// " + std::to_string(i) + ": " + print_instruction(inst));
  switch (inst.info().cf) {
    case CfRole::IF:
      cf_if(inst, inst.opcode == Opcode::IF);
      return;
    case CfRole::ELSE:
      cf_else(inst);
      return;
    case CfRole::ENDIF:
      cf_endif(inst);
      return;
    case CfRole::LOOP:
      cf_loop(inst);
      return;
    case CfRole::ENDLOOP:
      cf_endloop(inst);
      return;
    case CfRole::BRK:
      cf_brk(inst);
      return;
    case CfRole::CONT:
      cf_cont(inst);
      return;
    case CfRole::SWITCH:
      cf_switch(i);
      return;
    case CfRole::CASE:
    case CfRole::DEFAULT:
      cf_case(inst);
      return;
    case CfRole::ENDSWITCH:
      cf_endswitch(inst);
      return;
    case CfRole::CAL:
      cf_call(i);
      return;
    case CfRole::RET:
      cf_ret(inst);
      return;
    case CfRole::END:
      if (i != cf_.main_end) cf_ret(inst);
      return;
    case CfRole::SUB:
    case CfRole::ENDSUB:
      return;  // subroutines are inlined at their calls
    case CfRole::NONE:
      break;
  }
  if (inst.opcode == Opcode::NOP) return;
  line("{");
  ++indent_;
  if (inst.precise) line("#pragma OPENCL FP_CONTRACT OFF");
  const bool done =
      emit_alu(inst) || emit_alu64(inst) || emit_tex(inst) || emit_mem(inst) || emit_stage_op(inst);
  if (!done) fail(inst, "this opcode cannot be translated");
  --indent_;
  line("}");
}

EmittedShader Emitter::run() {
  plan();
  plan_params();
  // The body comes first: it finds out which optional parts of the library it needs.
  indent_ = 1;
  prologue();
  std::string code = std::move(body_);
  body_.clear();
  emit_range(0, cf_.main_end + 1);
  std::string main_code = std::move(body_);
  body_.clear();
  // The constant words the body reads, each loaded once (cb_words_), after the prologue
  // has set up the buffers (constant buffers are read-only while a shader runs).
  for (const auto& [word, n] : cb_words_) {
    const std::string b = std::to_string(word.first);
    line("const vf cbw" + std::to_string(n) + " = clp_cb_load(clp_cb" + b + ", cbsz" + b + ", " +
         std::to_string(word.second) + ");");
  }
  code += body_;
  code += main_code;

  EmittedShader out;
  out.stage = s_.stage;
  out.lanes = lanes_;
  out.reads_quads = uses_quad_ops_;
  out.params = params_;
  out.num_inputs = prelude_inputs();
  out.num_outputs = prelude_outputs();
  out.uses_fp64 = uses_fp64_code_;
  out.sample_calls = sample_calls_;
  out.prelude = prelude();
  std::string& b = out.body;
  b += "#include \"shader_lib.h\"\n";
  if (uses_sampling_ || uses_images_) b += "#include \"sampling_abi.h\"\n";
  if (uses_sampling_) b += "#include \"sampling.h\"\n";
  if (uses_images_) b += "#include \"shader_lib_image.h\"\n";
  b += "\nvoid clp_shader_main(ClpShaderIo* io, ClpStageCtx* stage CLP_RESOURCE_PARAMS) {\n";
  b += code;
  b += "}\n";
  return out;
}

}  // namespace emit_detail

EmittedShader emit_opencl(const Shader& shader, const ShaderInfo& info,
                          const EmitOptions& options) {
  const uint32_t fl = options.fragment_lanes;
  if (fl != 1 && fl != 4 && fl != 8 && fl != 16) {
    invalid("fragment_lanes must be 1, 4, 8 or 16, not ", fl);
  }
  if (fl == 1 && options.fragment_whole_tile) {
    invalid("fragment_whole_tile needs quads in a work-item: 4 or more fragment_lanes, not 1");
  }
  EmittedShader out = emit_detail::Emitter(shader, info, options).run();
  if (shader.stage == ShaderType::FRAGMENT && fl == 1 && out.reads_quads) {
    // A quad's pixels share a work-item: OpenCL 1.2 work-items exchange values only
    // through local memory at barriers, which the tile pass would take inside its loop
    // over primitives, between per-pixel branches, and PoCL 3.1 runs such loops wrongly
    // (tests/runtime/barrier_loop_test.cpp keeps the reproducer).
    EmitOptions quads = options;
    quads.fragment_lanes = 4;
    out = emit_detail::Emitter(shader, info, quads).run();
  }
  return out;
}

}  // namespace clpipe::compiler
