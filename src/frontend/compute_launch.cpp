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
// Indirect grids are read with one blocking read. The NDRange size must be known on the
// host when the launch is enqueued (OpenCL 1.2 has no device-side enqueue), and the read
// waits only for this context's queued work, which is what the in-order semantics need
// anyway: the buffer may have been written by the previous dispatch.
#include <algorithm>
#include <array>

#include "frontend/api_guard.h"
#include "frontend/compute_grid.h"
#include "frontend/context_impl.h"
#include "frontend/cso.h"
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

}  // namespace

Status ContextImpl::launch_grid(const GridInfo& info) {
  return guard("launch_grid", [&] {
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
    if (plan.regions.empty()) return;  // a grid of zero groups runs nothing

    auto prog = program_for(*cs->compiled, "compute.cl", device, screen_->programs(), &cs->state);
    cl::Kernel& k = queue_.kernel(prog->program, "compute_main");
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
    const std::vector<cl::Buffer> resources = bind_stage_resources(
        *prog, ShaderType::COMPUTE, state_, screen_->id(), queue_, &used, options);

    const cl_uint4 grid = {{plan.grid[0], plan.grid[1], plan.grid[2], 1}};
    const cl_uint4 block = {{plan.block[0], plan.block[1], plan.block[2], 1}};
    runtime::KernelArgs args(k);
    args << grid << cl_uint4{{0, 0, 0, 0}} << block << cl_uint(plan.work_dim);
    for (size_t i = 0; i < prog->params.size(); ++i) {
      if (prog->params[i].kind == compiler::ParamKind::kSharedMemory) {
        args << cl::Local(options.shared_size);
      } else {
        args << resources[i];
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
  });
}

}  // namespace clpipe::frontend
