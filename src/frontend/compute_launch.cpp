// ContextImpl::launch_grid: a compute dispatch as native NDRange launches of the bound
// compute shader in the compute.cl template.
//
// Steps: the group counts (GridInfo::grid, or three words read from the indirect buffer),
// the launch plan (compute_grid.h: validation against the device's limits, one launch
// per region of full or partial blocks), the program (emitted and built once per compute
// CSO, shader_program.h), the resources of the COMPUTE stage (constant buffers, shader
// buffers, images, sampler views and samplers, shared memory as a cl::Local argument of
// req_local_mem bytes), the launches, the write-back of shader buffers bound through
// copies, and the report of every resource used to ResourceImpl::note_use.
//
// Shared memory is a local-memory kernel argument rather than a fixed-size array in the
// template: its size comes from the CSO (req_local_mem) at launch time, so one program
// serves every size and nothing is compiled per size.
//
// Active PIPELINE_STATISTICS queries count the threads in cs_invocations. The render
// condition does not apply: Gallium's render_condition gates draws, clears and blits, and GL
// does not make dispatches conditional.
//
// MEMORY GLOBAL (set_global_binding) runs in a space buffer built for the dispatch: the
// bound buffers are copied in before the launches and back after them (compute_global.h
// says why and what it costs); only shaders that declare MEMORY GLOBAL pay for it. MEMORY
// INPUT is a device copy of GridInfo::input (req_input_mem bytes, zero-padded to a word).
//
// Indirect grids are read with one blocking read. The NDRange size must be known on the
// host when the launch is enqueued (OpenCL 1.2 has no device-side enqueue), and the read
// waits only for this context's queued work, which is what the in-order semantics need
// anyway: the buffer may have been written by the previous dispatch.
#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "frontend/api_guard.h"
#include "frontend/compute_global.h"
#include "frontend/compute_grid.h"
#include "frontend/context_impl.h"
#include "frontend/cso.h"
#include "frontend/draw/program_tiers.h"
#include "frontend/shader_program.h"
#include "runtime/error.h"

namespace clpipe::frontend {

namespace {

// The group counts of an indirect dispatch: {x, y, z} at `offset` of a buffer resource.
std::array<uint32_t, 3> read_indirect_grid(runtime::Queue& queue, ResourceImpl& buf,
                                           uint32_t offset) {
  if (!buf.is_buffer()) runtime::invalid("the indirect grid resource is not a BUFFER");
  if (uint64_t(offset) + 12 > buf.size_bytes()) {
    runtime::invalid("indirect grid bytes ", offset, "..", uint64_t(offset) + 12,
                     " exceed the buffer (", buf.size_bytes(), " bytes)");
  }
  std::array<uint32_t, 3> groups{};
  queue.read(buf.storage(), offset, sizeof(groups), groups.data());
  return groups;
}

// Bytes of local memory bound as MEMORY SHARED: req_local_mem rounded up to whole words
// (shader_lib.h addresses shared memory in 32-bit words), at least one word because
// OpenCL refuses a zero-sized local argument.
uint32_t shared_bytes(const ComputeState& cs) {
  return std::max<uint32_t>(
      (uint32_t(std::min<uint64_t>(cs.req_local_mem, UINT32_MAX - 3)) + 3) & ~3u, 4);
}

// Whether the program has a parameter of this kind.
bool has_param(const StageProgram& prog, compiler::ParamKind kind) {
  return std::any_of(prog.params.begin(), prog.params.end(),
                     [&](const compiler::ResourceParam& p) { return p.kind == kind; });
}

// The MEMORY INPUT bytes of a dispatch as a device buffer: req_input_mem bytes of
// info.input, zero-padded to a whole word (the emitter loads words, and bytes past
// req_input_mem must read 0). Null (size 0) when there are none.
cl::Buffer input_memory(runtime::Queue& q, const ComputeState& cs, const GridInfo& info,
                        uint32_t* size) {
  *size = 0;
  if (cs.req_input_mem == 0) return cl::Buffer();
  const uint32_t padded = (cs.req_input_mem + 3) & ~3u;  // req_input_mem <= kMaxInputSize
  std::vector<uint8_t> bytes(padded, 0);
  std::memcpy(bytes.data(), info.input, cs.req_input_mem);
  *size = padded;
  return q.create_buffer_from(bytes.data(), bytes.size());
}

// Checks the input of a dispatch against its compute state.
void check_input(const ComputeState& cs, const GridInfo& info) {
  if (cs.req_input_mem > kMaxInputSize) {
    runtime::invalid("req_input_mem ", cs.req_input_mem, " bytes exceeds MAX_INPUT_SIZE (",
                     kMaxInputSize, ")");
  }
  if (cs.req_input_mem && !info.input) {
    runtime::invalid("GridInfo::input is null but the compute state's req_input_mem is ",
                     cs.req_input_mem, " bytes");
  }
}

// A buffer copied into the global space and back must not be written through another
// binding of the dispatch: the copy back would undo those writes.
void check_global_aliasing(const GlobalSpace& space, const DrawResources& used,
                           const std::vector<BufferWriteBack>& write_backs) {
  for (const GlobalBindings::Placement& p : space.placements) {
    const bool written =
        std::find(used.writes.begin(), used.writes.end(), p.resource) != used.writes.end() ||
        std::any_of(write_backs.begin(), write_backs.end(),
                    [&](const BufferWriteBack& wb) { return wb.resource == p.resource; });
    if (written) {
      runtime::unsupported("a buffer bound with set_global_binding (at address ", p.base,
                           ") is also a writable shader buffer or image of the dispatch");
    }
  }
}

}  // namespace

Status ContextImpl::launch_grid(const GridInfo& info) {
  return guard("launch_grid", [&] {
    flush_scene();
    const ComputeHandle cs = state_.compute;  // a copy: the CSO lives through the launch
    if (!cs) runtime::invalid("no compute state bound");
    const runtime::Device& device = screen_->cl_device();
    const ComputeLimits limits = compute_limits(device.limits());

    std::array<uint32_t, 3> groups = {info.grid[0], info.grid[1], info.grid[2]};
    ResourceImpl* indirect = nullptr;
    if (info.indirect) {
      indirect = &resource(info.indirect, "launch_grid indirect buffer");
      groups = read_indirect_grid(queue_, *indirect, info.indirect_offset);
    }
    const GridPlan plan = plan_grid(info, groups, cs->compiled->info.props.cs_block, limits);
    check_input(cs->state, info);
    if (plan.regions.empty()) return;  // a grid of zero groups runs nothing

    auto prog = program_for(*cs->compiled, "compute.cl", device, screen_->programs(), &cs->state);
    cl::Kernel& k = queue_.kernel(prog->tiers->current(), "compute_main");
    size_t kernel_max = 0;
    CLP_CHECK(k.getWorkGroupInfo(device.device(), CL_KERNEL_WORK_GROUP_SIZE, &kernel_max));
    const uint64_t threads = uint64_t(plan.block[0]) * plan.block[1] * plan.block[2];
    if (threads > kernel_max) {
      runtime::unsupported("this shader runs at most ", kernel_max,
                           " threads per block on the device; the block has ", threads);
    }

    DrawResources used;
    std::vector<BufferWriteBack> write_backs;
    StageBindOptions options;
    options.shared_size = shared_bytes(cs->state);
    options.write_backs = &write_backs;
    GlobalSpace global;  // allocated, still empty
    if (has_param(*prog, compiler::ParamKind::kGlobalMemory)) {
      global = plan_global_space(queue_, state_.global_bindings, screen_->id());
      options.global_memory = global.buffer;
      options.global_size = uint32_t(global.size);  // < 2^32: global_space_limit
    }
    if (has_param(*prog, compiler::ParamKind::kInputMemory))
      options.input_memory = input_memory(queue_, cs->state, info, &options.input_size);
    ResourceTables tables;
    const StageResources resources = bind_stage_resources(
        *prog, ShaderType::COMPUTE, state_, screen_->id(), queue_, &used, &tables, options);
    // The space's copies are queued only once nothing can refuse the dispatch any more.
    check_global_aliasing(global, used, write_backs);
    upload_global_space(queue_, global);

    const DeviceTables tables_on_device =
        device_tables(upload_arrays(queue_, table_arrays(tables)), 0, queue_.create_buffer(16));
    const cl_uint4 grid = {{plan.grid[0], plan.grid[1], plan.grid[2], 1}};
    const cl_uint4 block = {{plan.block[0], plan.block[1], plan.block[2], 1}};
    runtime::KernelArgs args(k);
    args << grid << cl_uint4{{0, 0, 0, 0}} << block << cl_uint(plan.work_dim);
    for (size_t i = 0; i < prog->params.size(); ++i) {
      if (prog->params[i].kind == compiler::ParamKind::kSharedMemory) {
        args << cl::Local(options.shared_size);
      } else {
        args << resolve(resources.args[i], tables_on_device);
      }
    }
    constexpr cl_uint kBlockBaseArg = 1;
    for (const GridRegion& r : plan.regions) {
      const cl_uint4 base = {{r.block_base[0], r.block_base[1], r.block_base[2], 0}};
      runtime::check_arg(k.setArg(kBlockBaseArg, base), kBlockBaseArg);
      queue_.launch(k, {r.global[0], r.global[1], r.global[2]},
                    {r.local[0], r.local[1], r.local[2]}, "compute");
    }
    // Shader buffers bound through copies go back after the last launch; the queue is in
    // order, so the copies see every write of the dispatch.
    for (const BufferWriteBack& wb : write_backs)
      queue_.copy(wb.copy, 0, wb.storage, wb.offset, wb.size);
    download_global_space(queue_, global);

    if (state_.queries_active) {
      // PIPELINE_STATISTICS counts the threads that ran (partial blocks included as run).
      QueryDrawCounts counts;
      for (const GridRegion& r : plan.regions)
        counts.cs_invocations += uint64_t(r.global[0]) * r.global[1] * r.global[2];
      queries_.after_draw(cl::Buffer(), counts);
    }

    const cl::Event done = queue_.marker();
    if (indirect) indirect->note_use(id(), done, false);
    for (ResourceImpl* r : used.reads)
      r->note_use(id(), done, false);
    for (ResourceImpl* r : used.writes)
      r->note_use(id(), done, true);
    for (const BufferWriteBack& wb : write_backs)
      wb.resource->note_use(id(), done, true);
    for (const GlobalBindings::Placement& p : global.placements)
      p.resource->note_use(id(), done, true);
  });
}

}  // namespace clpipe::frontend
