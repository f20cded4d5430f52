// Shaders at draw (and launch) time: the OpenCL C of a shader CSO wrapped in a pass
// template and built, and the kernel arguments its resource parameters take from the
// bound state.
//
// Producer of the programs: program_for() emits a CSO's code once per template (the
// emitter, compiler/emit) and builds it through the Screen's ProgramCache, caching the
// result in the CSO. Producer of the arguments: bind_stage_resources() from ContextState.
// Consumers: draw_vbo (vertex.cl, tile.cl) and launch_grid (compute.cl).
#pragma once

#include <memory>
#include <vector>

#include "compiler/emit/emit.h"
#include "frontend/context_state.h"
#include "frontend/cso.h"
#include "frontend/draw_setup.h"
#include "runtime/device.h"
#include "runtime/program_cache.h"
#include "runtime/queue.h"

namespace clpipe::frontend {

// The built program of `compiled` wrapped in `template_name` (emitted and built at the
// first call, then cached in `compiled`). Throws kCompileError for code the emitter or the
// device compiler refuses.
std::shared_ptr<const StageProgram> program_for(const CompiledTgsi& compiled,
                                                const char* template_name,
                                                const runtime::Device& device,
                                                runtime::ProgramCache& programs,
                                                const ComputeState* compute = nullptr);

// Kernel arguments of a stage's resource parameters from the bound state of `stage`, in
// parameter order. Resources read (or written: shader buffers, images) are added to used.
std::vector<cl::Buffer> bind_stage_resources(const StageProgram& program, ShaderType stage,
                                             const ContextState& st, uint64_t screen_id,
                                             runtime::Queue& queue, DrawResources* used);

}  // namespace clpipe::frontend
