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
#include <utility>
#include <vector>

#include "compiler/emit/emit.h"
#include "frontend/context_state.h"
#include "frontend/cso.h"
#include "frontend/draw_setup.h"
#include "frontend/resource_tables.h"
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

// A writable shader buffer bound through a copy, because its offset does not meet the
// device's sub-buffer alignment (CL_DEVICE_MEM_BASE_ADDR_ALIGN): after the pass, bytes
// [0, size) of `copy` go back to [offset, offset + size) of `storage`, the resource's
// storage at bind time.
struct BufferWriteBack {
  ResourceImpl* resource = nullptr;
  cl::Buffer storage;
  cl::Buffer copy;
  uint64_t offset = 0, size = 0;
};

// What only some passes bind.
struct StageBindOptions {
  // Compute: bytes of local memory the caller binds to the kSharedMemory parameter with
  // cl::Local (its entry in the returned vector stays empty); they go to
  // ClpResourceInfo::shared_size. Other stages have no shared memory.
  uint32_t shared_size = 0;
  // When set, writable shader buffers at unaligned offsets are bound through copies that
  // are listed here for the caller to write back after its pass; when null such bindings
  // are refused (kUnsupported).
  std::vector<BufferWriteBack>* write_backs = nullptr;
  // Compute: the MEMORY GLOBAL space of the dispatch (compute_global.h) and the MEMORY
  // INPUT bytes, bound to the kGlobalMemory / kInputMemory parameters with their sizes in
  // bytes (ClpResourceInfo::global_size / input_size). Null buffers bind an empty
  // placeholder with size 0: every access reads 0 and writes nothing.
  cl::Buffer global_memory;
  uint32_t global_size = 0;
  cl::Buffer input_memory;
  uint32_t input_size = 0;
};

// Resource arguments of a stage from the bound state of `stage`, in parameter order: the
// bound resources' storage, and entries appended to `tables` for everything else (user
// constants, views, samplers, the ClpResourceInfo entry). Constant buffers bound from a
// resource pass its whole storage with the offset in const_offset, so that draws binding
// the same buffer share the argument. Resources read (or written: shader buffers in the
// writable mask, images) are added to used.
// A stage's resource arguments, in parameter order, and its entry of tables->infos.
struct StageResources {
  std::vector<StageArg> args;
  uint32_t info_index = 0;
};

StageResources bind_stage_resources(const StageProgram& program, ShaderType stage,
                                    const ContextState& st, uint64_t screen_id,
                                    runtime::Queue& queue, DrawResources* used,
                                    ResourceTables* tables, const StageBindOptions& options = {});

}  // namespace clpipe::frontend
