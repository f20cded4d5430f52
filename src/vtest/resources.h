// The resource table of one client connection: vtest handles -> clpipe resources with
// their guest backing store (shared memory), and the limits that bound what one client may
// allocate.
//
// Filled by RESOURCE_CREATE / RESOURCE_CREATE2, emptied by RESOURCE_UNREF and at
// disconnect. The decoders look resources up by handle (every lookup is checked) and keep
// shared references in the objects that use them, so a host resource outlives an early
// RESOURCE_UNREF while surfaces or views still point at it (doc 3.7).
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "clpipe/screen.h"
#include "vtest/layout.h"
#include "vtest/shm.h"

namespace clpipe::frontend::vtest {

// What one client may hold at a time. Every count and size a client sends is checked
// against these before anything is allocated.
struct Limits {
  // Guest stores + the device memory of the client's screen (its resources and draw
  // scratch: Screen::memory_in_use). 16 GiB: Mesa's virgl can keep ~1800 deleted
  // textures before it releases them: piglit streaming-texture-leak (a 4 MiB texture made,
  // drawn with and deleted 5000 times) holds ~14 GiB here, guest stores and device copies
  // together, at its peak (virglrenderer's server: 15.8 GB resident). The server's total
  // limit (ServerOptions::max_total_bytes) bounds all clients together.
  uint64_t max_client_bytes = 16ull << 30;
  // The budget all clients of a server share (MemoryLimits' slots and shared_bytes;
  // screen_bytes is ignored: it comes from max_client_bytes).
  MemoryLimits shared_memory;
  uint32_t max_resources = 65536;   // live resource handles
  uint32_t max_objects = 1u << 18;  // live objects per sub-context
  uint32_t max_sub_contexts = 64;
  uint32_t max_shader_bytes = 64u << 20;            // one shader's TGSI text
  uint64_t max_pending_shader_bytes = 128u << 20;   // partial shaders awaiting chunks
  uint32_t max_submit_dwords = 1u << 20;            // one SUBMIT_CMD (Mesa: <= 66560)
  uint32_t max_inline_transfer_bytes = 256u << 20;  // one TRANSFER_PUT / TRANSFER_GET (v0)
};

struct VtestResource {
  ResourceDesc desc;
  GuestLayout layout;
  ResourceRef host;
  std::unique_ptr<SharedMemory> shm;  // null in protocol 0, for data_size 0 and MSAA
  uint64_t charged_bytes = 0;         // guest store bytes (shm) counted by the table
};
using VtestResourceRef = std::shared_ptr<VtestResource>;

class ResourceTable {
 public:
  explicit ResourceTable(const Limits& limits) : limits_(limits) {}

  // Creates the clpipe resource and, when shm_bytes > 0, its shared memory. Throws
  // ProtocolError for a handle in use, an exhausted limit, or a resource clpipe refuses
  // (the client cannot go on without it: there is no error reply in the protocol).
  VtestResource& create(Screen& screen, const ResourceDesc& desc, uint64_t shm_bytes);
  // Throws ProtocolError for an unknown handle.
  void unref(uint32_t handle);

  // nullptr when the handle is unknown.
  VtestResource* find(uint32_t handle) const;
  // Throws ProtocolError naming `what` when the handle is unknown.
  VtestResource& get(uint32_t handle, const char* what) const;
  VtestResourceRef get_ref(uint32_t handle, const char* what) const;
  // Handle 0 = no resource (nullptr); any other handle must exist.
  ResourceRef host_or_null(uint32_t handle, const char* what) const;

  size_t count() const { return map_.size(); }
  // Guest store bytes; the device memory is the screen's (Screen::memory_in_use).
  uint64_t bytes_in_use() const { return bytes_; }

  // The screen's memory limits for what the guest stores leave of max_client_bytes
  // (called when the screen is made and whenever the guest stores change).
  void apply_memory_limits(Screen& screen) const;

 private:
  Limits limits_;
  std::unordered_map<uint32_t, VtestResourceRef> map_;
  uint64_t bytes_ = 0;
  Screen* screen_ = nullptr;  // of the first create()
};

}  // namespace clpipe::frontend::vtest
