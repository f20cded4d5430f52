#include "frontend/shader_program.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "compiler/tgsi/printer.h"
#include "frontend/draw/program_tiers.h"
#include "frontend/draw/stage_program.h"
#include "frontend/draw/tile_variant.h"
#include "frontend/resource.h"
#include "frontend/views.h"
#include "kernels/sampling_abi.h"
#include "kernels/shader_lib_shared.h"
#include "runtime/error.h"
#include "runtime/queue.h"
#include "runtime/sha256.h"

namespace clpipe::frontend {

static_assert(sizeof(ClpTexView) == 72 + 3 * 4 * CLP_TEX_MAX_LEVELS, "ClpTexView layout");
static_assert(sizeof(ClpSamplerState) == 20 * 4, "ClpSamplerState layout");
static_assert(sizeof(ClpResourceInfo) % 16 == 0, "ClpResourceInfo layout");

namespace {

// CLPIPE_DUMP_SHADERS=DIR writes each shader variant as DIR/<hash>.<template>.tgsi and .cl
// when it is first built: how a developer sees what a GL program's shaders became.
void dump_shader(const CompiledTgsi& compiled, const char* template_name,
                 const compiler::EmittedShader& code) {
  const char* dir = std::getenv("CLPIPE_DUMP_SHADERS");
  if (!dir || !*dir) return;
  const std::string name = std::string(dir) + "/" +
                           runtime::Sha256::hex(runtime::Sha256::of(code.body)).substr(0, 12) +
                           "." + template_name;
  std::ofstream(name + ".tgsi") << compiler::print_tgsi(compiled.ir);
  std::ofstream(name + ".cl") << code.prelude << "\n// ---- body ----\n" << code.body;
}

}  // namespace

std::shared_ptr<const StageProgram> program_for(const CompiledTgsi& compiled,
                                                const char* template_name,
                                                const runtime::Device& device,
                                                runtime::ProgramCache& programs,
                                                const ComputeState* compute) {
  std::lock_guard<std::mutex> lock(compiled.programs_mutex);
  auto it = compiled.programs.find(template_name);
  if (it != compiled.programs.end()) return it->second;
  compiler::EmitOptions opt;
  opt.fp64 = device.limits().fp64;
  opt.int64 = true;
  opt.local_mem_size = device.limits().local_mem_size;
  opt.fragment_lanes = device.limits().fragment_lanes;
  opt.fragment_whole_tile = device.limits().whole_tile_items;
  if (compute) opt.shared_memory_size = compute->req_local_mem;
  const draw::ProgramTierMode mode =
      compute ? draw::ProgramTierMode::kOptimised : draw::program_tier_mode(device);
  // Where quick programs draw first, a shader the interpreter runs draws interpreted
  // instead (compile latency, issue 15): its compiled code then takes the interpreted
  // form's parameters, so that one binding serves both.
  compiler::EmittedShader interpreted;
  const bool tile = std::strcmp(template_name, "tile.cl") == 0;
  if (mode != draw::ProgramTierMode::kOptimised && draw::interpreter_enabled() &&
      (tile || std::strcmp(template_name, "vertex.cl") == 0 ||
       std::strcmp(template_name, "gs.cl") == 0)) {
    try {
      interpreted = compiler::emit_interpreted(compiled.ir, compiled.info, opt);
      opt.interp_params = true;
    } catch (const compiler::CompileError&) {
      // Not an interpreted shader: compiled only.
    }
  }
  compiler::EmittedShader code = compiler::emit_opencl(compiled.ir, compiled.info, opt);
  dump_shader(compiled, template_name, code);
  auto p = std::make_shared<StageProgram>();
  draw::GeneratedCode generated{code.prelude, code.body};
  const draw::GeneratedCode interp{interpreted.prelude, interpreted.body};
  if (tile) {
    draw::FsSampling sampling;
    sampling.calls = code.sample_calls;
    for (const compiler::ResourceParam& param : code.params) {
      // The units' counts are the parameters' index.
      if (param.kind == compiler::ParamKind::kSamplerViews) sampling.views = param.index;
      if (param.kind == compiler::ParamKind::kSamplers) sampling.samplers = param.index;
    }
    p->tile_variants = std::make_shared<draw::TileVariants>(
        programs, std::move(generated), sampling, mode,
        draw::tile_pass_items(device.limits(), code.lanes), interp);
  } else {
    // Compute stays optimised: launch_grid has no scenes at whose start an optimised
    // program could take over, and a launch's block may be as large as the kernel's
    // CL_KERNEL_WORK_GROUP_SIZE allows, which a quick build could set lower (on a GPU).
    // The vertex and geometry passes launch in launch_1d's full groups.
    p->tiers = std::make_shared<draw::TieredProgram>(
        programs, draw::stage_program_source(generated, template_name), mode,
        std::vector<size_t>{runtime::Queue::kGroup1d},
        interp.body.empty() ? std::string() : draw::stage_program_source(interp, template_name));
  }
  p->params = std::move(code.params);
  p->interp_code = std::move(interpreted.interp_code);
  compiled.programs.emplace(template_name, p);
  return p;
}

namespace {

// A buffer holding bytes [offset, offset + size) of `storage`: a sub-buffer when the
// offset meets the device's alignment, else a copy (read-only uses only).
cl::Buffer buffer_range(runtime::Queue& q, const cl::Buffer& storage, uint64_t offset,
                        uint64_t size, bool writable) {
  if (offset == 0) return storage;
  const uint64_t align = std::max<uint32_t>(q.device().limits().mem_base_addr_align / 8, 1);
  const uint64_t bytes = std::max<uint64_t>(size, 4);
  if (offset % align == 0) {
    cl_buffer_region region{size_t(offset), size_t(bytes)};
    cl_int status = CL_SUCCESS;
    cl::Buffer parent = storage;
    cl::Buffer sub = parent.createSubBuffer(writable ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY,
                                            CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
    if (status != CL_SUCCESS) throw runtime::Error(status, "clCreateSubBuffer");
    return sub;
  }
  if (writable) {
    runtime::unsupported("a shader buffer at offset ", offset, " (the device needs multiples of ",
                         align, " bytes)");
  }
  cl::Buffer copy = q.create_buffer(bytes);
  q.copy(storage, offset, copy, 0, size);
  return copy;
}

// Bytes [offset, offset + size) of a resource as a shader buffer (size > 0): the storage
// itself at offset 0, a sub-buffer at offsets the device aligns, else a copy. A copy of a
// slot outside the writable mask takes (and drops) stray writes; a writable copy is listed
// in write_backs for the caller to copy back after its pass, and refused without the list.
cl::Buffer shader_buffer_range(runtime::Queue& q, ResourceImpl& res, uint64_t offset, uint64_t size,
                               bool writable, std::vector<BufferWriteBack>* write_backs) {
  const cl::Buffer storage = res.storage();
  if (offset == 0) return storage;
  const uint64_t align = std::max<uint32_t>(q.device().limits().mem_base_addr_align / 8, 1);
  if (offset % align == 0) {
    // Read-write even for read-only slots: the kernel parameter is not const, and a write
    // into a CL_MEM_READ_ONLY object would be undefined rather than harmless.
    cl_buffer_region region{size_t(offset), size_t(size)};
    cl_int status = CL_SUCCESS;
    cl::Buffer parent = storage;
    cl::Buffer sub =
        parent.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
    if (status != CL_SUCCESS) throw runtime::Error(status, "clCreateSubBuffer");
    return sub;
  }
  if (writable && !write_backs) {
    runtime::unsupported("a writable shader buffer at offset ", offset,
                         " (the device needs multiples of ", align, " bytes)");
  }
  cl::Buffer copy = q.create_buffer(size);
  q.copy(storage, offset, copy, 0, size);
  if (writable) write_backs->push_back({&res, storage, copy, offset, size});
  return copy;
}

// A shader buffer slot bound to a range of a resource.
struct BoundShaderBuffer {
  ResourceImpl* resource;
  uint64_t offset, size;
  uint32_t slot;
};

// A copied writable range is written back whole after the pass, so it must not overlap
// another slot's range of the same resource, nor share its resource with an image: writes
// through that slot or image would be lost.
void check_write_back_aliasing(const std::vector<BufferWriteBack>& write_backs,
                               const std::vector<BoundShaderBuffer>& bound,
                               const std::vector<const ResourceImpl*>& images) {
  for (const BufferWriteBack& wb : write_backs) {
    if (std::find(images.begin(), images.end(), wb.resource) != images.end()) {
      runtime::unsupported("an image views the resource of a writable shader buffer at offset ",
                           wb.offset, ", which the device cannot address without a copy");
    }
    unsigned copies = 0;
    for (const BoundShaderBuffer& b : bound) {
      if (b.resource != wb.resource || b.offset + b.size <= wb.offset ||
          wb.offset + wb.size <= b.offset) {
        continue;
      }
      // The slot of the write-back itself overlaps it exactly once.
      if (b.offset == wb.offset && b.size == wb.size && copies++ == 0) continue;
      runtime::unsupported("shader buffer ", b.slot, " overlaps the writable shader buffer at ",
                           wb.offset,
                           " of its resource, which the device cannot address without "
                           "a copy");
    }
  }
}

ClpTexView tex_view(const ResourceImpl& res, Format format, TextureTarget target,
                    unsigned first_level, unsigned last_level, unsigned first_layer,
                    unsigned last_layer, const Swizzle swz[4], uint32_t buf_offset,
                    uint32_t buf_size) {
  ClpTexView v{};
  const ResourceTemplate& t = res.info();
  v.format = uint32_t(format);
  v.target = uint32_t(target);
  v.width = t.width0;
  v.height = t.height0;
  v.depth = t.depth0;
  v.layers = t.array_size;
  v.first_level = first_level;
  v.last_level = last_level;
  v.first_layer = first_layer;
  v.last_layer = last_layer;
  for (int i = 0; i < 4; ++i)
    v.swizzle[i] = uint32_t(swz[i]);
  v.samples = res.is_buffer() ? 1 : res.layout().level(0).samples;
  v.data_size = uint32_t(std::min<uint64_t>(res.size_bytes(), 0xffffffffu));
  v.buffer_offset = buf_offset;
  v.buffer_size = buf_size;
  for (unsigned l = 0; l <= t.last_level && l < CLP_TEX_MAX_LEVELS; ++l) {
    v.level_offset[l] = uint32_t(res.level_offset(l));
    v.row_pitch[l] = res.level_row_pitch(l);
    v.layer_pitch[l] = uint32_t(res.level_layer_pitch(l));
  }
  return v;
}

ClpSamplerState sampler_state(const SamplerState& s) {
  ClpSamplerState o{};
  o.wrap[0] = uint32_t(s.wrap_s);
  o.wrap[1] = uint32_t(s.wrap_t);
  o.wrap[2] = uint32_t(s.wrap_r);
  o.min_img_filter = uint32_t(s.min_img_filter);
  o.mag_img_filter = uint32_t(s.mag_img_filter);
  o.min_mip_filter = uint32_t(s.min_mip_filter);
  o.compare_mode = uint32_t(s.compare_mode);
  o.compare_func = uint32_t(s.compare_func);
  o.unnormalized_coords = s.unnormalized_coords;
  o.max_anisotropy = s.max_anisotropy;
  o.seamless_cube_map = s.seamless_cube_map;
  o.border_color_kind = s.border_color_in_view_format ? CLP_BORDER_VIEW_FORMAT
                        : s.border_color_is_integer   ? CLP_BORDER_INTEGER
                                                      : CLP_BORDER_FLOAT;
  o.reduction_mode = uint32_t(s.reduction_mode);
  o.lod_bias = s.lod_bias;
  o.min_lod = s.min_lod;
  o.max_lod = s.max_lod;
  for (int i = 0; i < 4; ++i)
    o.border_color[i] = s.border_color.ui[i];
  return o;
}

}  // namespace

StageResources bind_stage_resources(const StageProgram& program, ShaderType stage,
                                    const ContextState& st, uint64_t screen_id,
                                    runtime::Queue& queue, DrawResources* used,
                                    ResourceTables* tables, const StageBindOptions& options) {
  const unsigned si = unsigned(stage);
  ClpResourceInfo info{};
  std::vector<BoundShaderBuffer> shader_buffers;
  std::vector<const ResourceImpl*> images;
  StageResources out;
  out.args.resize(program.params.size());
  const StageArg dummy{ResourceTable::kPlaceholder, {}};  // sizes say 0: nothing is read
  for (size_t i = 0; i < program.params.size(); ++i) {
    const compiler::ResourceParam& p = program.params[i];
    StageArg& arg = out.args[i];
    if (p.placeholder) {
      arg = dummy;  // a unit the shader does not read (ResourceParam::placeholder)
      continue;
    }
    switch (p.kind) {
      case compiler::ParamKind::kResourceInfo:
        arg.table = ResourceTable::kInfos;
        break;
      case compiler::ParamKind::kConstBuffer: {
        if (p.index >= kMaxConstantBuffers) runtime::invalid("constant buffer ", p.index);
        const BoundConstantBuffer& cb = st.constant_buffers[si][p.index];
        if (cb.user_data) {
          // Copied into the words table: draws of a scene share one argument.
          arg.table = ResourceTable::kWords;
          info.const_offset[p.index] = tables->add_words(si, p.index, cb.user_data);
          info.const_size[p.index] = uint32_t(cb.user_data->size());
        } else if (cb.buffer) {
          ResourceImpl& res = resource_of(cb.buffer, screen_id, "constant buffer");
          const uint64_t end =
              std::min<uint64_t>(res.size_bytes(), uint64_t(cb.buffer_offset) + cb.buffer_size);
          const uint64_t size = end > cb.buffer_offset ? end - cb.buffer_offset : 0;
          if (cb.buffer_offset % 4 == 0) {
            // The whole storage with the offset in words: no sub-buffer per binding.
            arg.buffer = res.storage();
            info.const_offset[p.index] = cb.buffer_offset / 4;
          } else {
            arg.buffer = buffer_range(queue, res.storage(), cb.buffer_offset, size, false);
          }
          info.const_size[p.index] = uint32_t(size);
          used->reads.push_back(&res);
        } else {
          arg = dummy;
        }
        break;
      }
      case compiler::ParamKind::kShaderBuffer: {
        if (p.index >= kMaxShaderBuffers) runtime::invalid("shader buffer ", p.index);
        const ShaderBuffer& sb = st.shader_buffers[si][p.index];
        ResourceImpl* res =
            sb.buffer ? &resource_of(sb.buffer, screen_id, "shader buffer") : nullptr;
        const uint64_t end =
            res ? std::min<uint64_t>(res->size_bytes(), uint64_t(sb.buffer_offset) + sb.buffer_size)
                : 0;
        const uint64_t size = end > sb.buffer_offset ? end - sb.buffer_offset : 0;
        if (!res || size == 0) {
          arg = dummy;  // size 0: every access reads 0 and writes nothing
          break;
        }
        const bool writable = (st.shader_buffers_writable[si] >> p.index) & 1u;
        arg.buffer =
            shader_buffer_range(queue, *res, sb.buffer_offset, size, writable, options.write_backs);
        info.buffer_size[p.index] = uint32_t(size);
        (writable ? used->writes : used->reads).push_back(res);
        shader_buffers.push_back({res, sb.buffer_offset, size, p.index});
        break;
      }
      case compiler::ParamKind::kSamplerViews: {
        std::vector<ClpTexView> views(std::max<uint32_t>(p.index, 1));
        for (uint32_t u = 0; u < p.index && u < kMaxSamplerViews; ++u) {
          const SamplerViewHandle& h = st.sampler_views[si][u];
          if (!h) continue;
          const SamplerViewImpl& v = sampler_view_of(h, screen_id, "sampler view");
          const ResourceImpl& res = resource_of(v.resource(), screen_id, "sampler view");
          const SamplerViewTemplate& t = v.info();
          const Swizzle swz[4] = {t.swizzle_r, t.swizzle_g, t.swizzle_b, t.swizzle_a};
          views[u] = tex_view(res, t.format, t.target, t.first_level, t.last_level, t.first_layer,
                              t.last_layer, swz, t.buf_offset, t.buf_size);
        }
        info.view_base = tables->add_views(si, false, views);
        arg.table = ResourceTable::kViews;
        break;
      }
      case compiler::ParamKind::kSamplers: {
        std::vector<ClpSamplerState> samplers(std::max<uint32_t>(p.index, 1));
        for (uint32_t u = 0; u < p.index && u < kMaxSamplers; ++u) {
          if (st.samplers[si][u]) samplers[u] = sampler_state(st.samplers[si][u]->state);
        }
        info.sampler_base = tables->add_samplers(si, samplers);
        arg.table = ResourceTable::kSamplers;
        break;
      }
      case compiler::ParamKind::kTexture: {
        const SamplerViewHandle& h =
            p.index < kMaxSamplerViews ? st.sampler_views[si][p.index] : SamplerViewHandle();
        if (h) {
          ResourceImpl& res = resource_of(h->resource(), screen_id, "sampler view");
          arg.buffer = res.storage();
          used->reads.push_back(&res);
        } else {
          arg = dummy;
        }
        break;
      }
      case compiler::ParamKind::kImageViews: {
        std::vector<ClpTexView> views(std::max<uint32_t>(p.index, 1));
        for (uint32_t u = 0; u < p.index && u < kMaxShaderImages; ++u) {
          const ImageView& iv = st.images[si][u];
          if (!iv.resource) continue;
          const ResourceImpl& res = resource_of(iv.resource, screen_id, "image");
          const Swizzle swz[4] = {Swizzle::X, Swizzle::Y, Swizzle::Z, Swizzle::W};
          const TextureTarget target = res.info().target;
          views[u] = tex_view(res, iv.format, target, iv.level, iv.level, iv.first_layer,
                              iv.last_layer, swz, iv.buf_offset, iv.buf_size);
        }
        info.image_base = tables->add_views(si, true, views);
        arg.table = ResourceTable::kViews;
        break;
      }
      case compiler::ParamKind::kImage: {
        const ImageView* iv = p.index < kMaxShaderImages ? &st.images[si][p.index] : nullptr;
        if (iv && iv->resource) {
          ResourceImpl& res = resource_of(iv->resource, screen_id, "image");
          arg.buffer = res.storage();
          used->writes.push_back(&res);
          images.push_back(&res);
        } else {
          arg = dummy;
        }
        break;
      }
      case compiler::ParamKind::kHwAtomicBuffer:
        // Nothing can be bound there through the API: sizes stay 0, accesses read 0.
        arg = dummy;
        break;
      case compiler::ParamKind::kGlobalMemory:
        // Only launch_grid passes a space; other stages see an empty one.
        arg =
            options.global_memory() ? StageArg{ResourceTable::kNone, options.global_memory} : dummy;
        info.global_size = options.global_memory() ? options.global_size : 0;
        break;
      case compiler::ParamKind::kInputMemory:
        arg = options.input_memory() ? StageArg{ResourceTable::kNone, options.input_memory} : dummy;
        info.input_size = options.input_memory() ? options.input_size : 0;
        break;
      case compiler::ParamKind::kSharedMemory:
        if (stage != ShaderType::COMPUTE)
          runtime::invalid("shared memory is only for compute shaders");
        info.shared_size = options.shared_size;  // the caller binds cl::Local(shared_size)
        break;
      case compiler::ParamKind::kInterpCode: {
        // Read by the interpreted program only; its compiled programs take it unread.
        std::lock_guard<std::mutex> lock(program.interp_mutex);
        if (!program.interp_buffer()) {
          if (program.interp_code.empty()) runtime::invalid("an interpreted shader without code");
          program.interp_buffer = queue.create_buffer_from(
              program.interp_code.data(), program.interp_code.size() * sizeof(uint32_t));
        }
        arg = StageArg{ResourceTable::kNone, program.interp_buffer};
        break;
      }
    }
  }
  if (options.write_backs) check_write_back_aliasing(*options.write_backs, shader_buffers, images);
  out.info_index = tables->add_info(si, info);
  return out;
}

}  // namespace clpipe::frontend
