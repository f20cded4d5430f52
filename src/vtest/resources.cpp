// The per-connection resource table (see resources.h).
#include "vtest/resources.h"

#include <algorithm>
#include <string>

#include "vtest/wire.h"

namespace clpipe::frontend::vtest {

VtestResource& ResourceTable::create(Screen& screen, const ResourceDesc& desc, uint64_t shm_bytes) {
  if (map_.count(desc.handle)) protocol_error("resource handle ", desc.handle, " already in use");
  if (map_.size() >= limits_.max_resources)
    protocol_error("too many resources (limit ", limits_.max_resources, ")");
  auto res = std::make_shared<VtestResource>();
  res->desc = desc;
  res->layout = GuestLayout(desc);
  // Host storage is estimated from the packed layout (times the sample count) until the
  // resource exists and can say how large it really is.
  const uint64_t host_estimate =
      res->layout.packed_bytes() * std::max<uint32_t>(1, desc.nr_samples);
  const uint64_t used = bytes_ + screen.memory_in_use();
  const uint64_t budget = used < limits_.max_client_bytes ? limits_.max_client_bytes - used : 0;
  if (shm_bytes > budget || host_estimate > budget - shm_bytes)
    protocol_error("resource ", desc.handle, " needs ", shm_bytes + host_estimate,
                   " bytes; the client's limit of ", limits_.max_client_bytes, " bytes has ",
                   budget, " left");

  // The device memory is charged by the screen itself, against what the guest stores
  // leave (apply_memory_limits), so a resource past it fails in resource_create.
  screen_ = &screen;
  Result<ResourceRef> host = screen.resource_create(resource_template(desc));
  if (!host)
    protocol_error("clpipe cannot create resource ", desc.handle, ": ", host.status().to_string());
  res->host = std::move(host.value());
  if (!res->host) protocol_error("clpipe returned no resource for ", desc.handle);
  if (shm_bytes > 0) {
    auto shm =
        SharedMemory::create(size_t(shm_bytes), "clpipe-vtest-res" + std::to_string(desc.handle));
    if (!shm) protocol_error("resource ", desc.handle, ": ", shm.status().to_string());
    res->shm = std::move(shm.value());
  }
  res->charged_bytes = shm_bytes;
  bytes_ += res->charged_bytes;
  if (shm_bytes) apply_memory_limits(screen);
  VtestResource& ref = *res;
  map_.emplace(desc.handle, std::move(res));
  return ref;
}

void ResourceTable::unref(uint32_t handle) {
  auto it = map_.find(handle);
  if (it == map_.end()) protocol_error("RESOURCE_UNREF of unknown resource ", handle);
  const uint64_t shm_bytes = it->second->charged_bytes;
  bytes_ -= shm_bytes;
  map_.erase(it);
  if (shm_bytes && screen_) apply_memory_limits(*screen_);
}

void ResourceTable::apply_memory_limits(Screen& screen) const {
  MemoryLimits m = limits_.shared_memory;
  // At least one byte: 0 would mean no limit.
  m.screen_bytes = bytes_ < limits_.max_client_bytes ? limits_.max_client_bytes - bytes_ : 1;
  screen.set_memory_limits(m);
}

VtestResource* ResourceTable::find(uint32_t handle) const {
  auto it = map_.find(handle);
  return it == map_.end() ? nullptr : it->second.get();
}

VtestResource& ResourceTable::get(uint32_t handle, const char* what) const {
  VtestResource* r = find(handle);
  if (!r) protocol_error(what, ": unknown resource ", handle);
  return *r;
}

VtestResourceRef ResourceTable::get_ref(uint32_t handle, const char* what) const {
  auto it = map_.find(handle);
  if (it == map_.end()) protocol_error(what, ": unknown resource ", handle);
  return it->second;
}

ResourceRef ResourceTable::host_or_null(uint32_t handle, const char* what) const {
  if (handle == 0) return nullptr;
  return get(handle, what).host;
}

}  // namespace clpipe::frontend::vtest
