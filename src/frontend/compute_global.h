// The MEMORY GLOBAL address space of compute shaders (set_global_binding) and the MEMORY
// INPUT bytes of a dispatch (GridInfo::input).
//
// Producers: ContextImpl::set_global_binding (compute_global.cpp) places buffers in the
// space and writes their addresses through the caller's handles; launch_grid
// (compute_launch.cpp) builds a GlobalSpace for each dispatch of a shader that declares
// MEMORY GLOBAL and an input buffer for one that declares MEMORY INPUT. Consumer:
// bind_stage_resources (shader_program.cpp), which binds them to the kGlobalMemory and
// kInputMemory parameters with their sizes (ClpResourceInfo::global_size / input_size).
//
// Addresses. The emitter's LOAD / STORE / ATOM* on MEMORY GLOBAL take a 32-bit byte
// address (a uint channel) into the kGlobalMemory parameter, and every access is checked
// against global_size, so the space is 32 bits wide: ADDRESS_BITS answers 32 and each
// handle is a uint32_t. Every distinct resource gets one base for as long as it stays
// bound in some slot (a resource bound in two slots has one address, as on hardware with
// virtual memory); bases are aligned to kGlobalBaseAlign bytes and start at
// kGlobalFirstBase, so that address 0 (a null pointer) never names bound memory.
//
// Storage. OpenCL 1.2 has no pointers that survive between kernel arguments, so a
// dispatch gets one space buffer of `size` bytes: before the launch every bound resource
// is copied to its base, the gaps between them are zeroed, and after the launch every
// resource is copied back. The cost is two device copies of every bound byte per dispatch
// (plus the allocation), paid only by shaders that declare MEMORY GLOBAL. The alternative,
// resources that live inside one pool buffer from creation, would make every other pass
// take sub-buffers with the device's base alignment and tie resource lifetime to a pool;
// copying keeps resources independent. Reads outside every binding but below `size`
// (the gaps) return 0 unless the same dispatch wrote there, and such writes are dropped
// with the space after the launch; reads at or past `size` return 0 and writes there do
// nothing (the emitter's bounds check).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "clpipe/context.h"
#include "runtime/cl.h"
#include "runtime/queue.h"

namespace clpipe::frontend {

class ResourceImpl;

// Global-binding slots of set_global_binding.
constexpr unsigned kMaxGlobalBindings = 32;
// Bytes: the alignment of every base (a power of two, at least a word; 256 is GL's and
// OpenCL's largest alignment of any type, so an aligned offset stays aligned in the space).
constexpr uint64_t kGlobalBaseAlign = 256;
// Bytes: the lowest base; [0, kGlobalFirstBase) belongs to no binding.
constexpr uint64_t kGlobalFirstBase = kGlobalBaseAlign;
// Bytes of MEMORY INPUT a dispatch may pass (MAX_INPUT_SIZE): req_input_mem at most this.
constexpr uint32_t kMaxInputSize = 4096;

// The size limit of the space on a device: 32-bit word-addressed (the last addressable
// word ends at 2^32 - 4) and one device allocation.
uint64_t global_space_limit(uint64_t max_mem_alloc_size);

// The slots of set_global_binding: which resource each holds, and at which base.
class GlobalBindings {
 public:
  struct Slot {
    ResourceRef resource;  // null: unbound
    uint64_t base = 0;     // byte address of the resource's first byte
  };
  // One placed resource of the space.
  struct Placement {
    ResourceImpl* resource;
    uint64_t base, size;  // bytes
  };

  // set_global_binding(first, count, resources, handles) on this context's slots, with
  // `space_limit` from global_space_limit(). Validates everything before changing
  // anything: slots past kMaxGlobalBindings, sizes of the vectors, a resource of another
  // screen or one that is not a BUFFER, a handle's offset past its resource, and a space
  // that would not fit the limit throw clpipe::Error. Then binds, and adds each
  // resource's base to *handles[i] (a null handle is skipped).
  void set(unsigned first, unsigned count, const std::vector<ResourceRef>& resources,
           const std::vector<uint32_t*>& handles, uint64_t screen_id, uint64_t space_limit);

  const Slot& slot(unsigned i) const { return slots_[i]; }
  // Each bound resource once, in increasing base order.
  std::vector<Placement> placements(uint64_t screen_id) const;

 private:
  std::array<Slot, kMaxGlobalBindings> slots_{};
};

// The space of one dispatch (see the file comment): `buffer` holds `size` bytes (a word
// multiple; 0 = nothing bound, buffer null).
struct GlobalSpace {
  cl::Buffer buffer;
  uint64_t size = 0;
  std::vector<GlobalBindings::Placement> placements;
};

// The space of a dispatch: its placements and size, and a buffer allocated for it (nothing
// queued yet). Throws runtime::Error when the device cannot allocate it.
GlobalSpace plan_global_space(runtime::Queue& q, const GlobalBindings& bindings,
                              uint64_t screen_id);
// Queues the zeroing of the space and the copies of every placed resource to its base.
void upload_global_space(runtime::Queue& q, const GlobalSpace& space);
// Copies every placed resource back from the space after the dispatch (queued on `q`,
// which is in order, so the copies see every write of the launches before them).
void download_global_space(runtime::Queue& q, const GlobalSpace& space);

}  // namespace clpipe::frontend
