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
  const uint64_t budget = limits_.max_client_bytes - bytes_;
  if (shm_bytes > budget || host_estimate > budget - shm_bytes)
    protocol_error("resource ", desc.handle, " needs ", shm_bytes + host_estimate,
                   " bytes; the client's limit of ", limits_.max_client_bytes, " bytes has ",
                   budget, " left");

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
  const uint64_t host_bytes = std::max<uint64_t>(res->host->size_bytes(), host_estimate);
  res->charged_bytes = shm_bytes + std::min(host_bytes, budget - shm_bytes);
  bytes_ += res->charged_bytes;
  VtestResource& ref = *res;
  map_.emplace(desc.handle, std::move(res));
  return ref;
}

void ResourceTable::unref(uint32_t handle) {
  auto it = map_.find(handle);
  if (it == map_.end()) protocol_error("RESOURCE_UNREF of unknown resource ", handle);
  bytes_ -= it->second->charged_bytes;
  map_.erase(it);
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
