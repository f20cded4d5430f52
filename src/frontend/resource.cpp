// ResourceImpl: layout accessors, storage renaming and use tracking (see resource.h).
#include "frontend/resource.h"

#include <algorithm>
#include <atomic>

#include "runtime/error.h"

namespace clpipe::frontend {

ResourceImpl::ResourceImpl(uint64_t screen_id, const ResourceTemplate& templ, ResourceLayout layout,
                           cl::Buffer storage)
    : Resource(templ),
      screen_id_(screen_id),
      layout_(std::move(layout)),
      storage_(std::move(storage)) {}

uint32_t ResourceImpl::level_row_pitch(unsigned level) const {
  return level < layout_.num_levels() ? layout_.level(level).row_pitch : 0;
}
uint64_t ResourceImpl::level_layer_pitch(unsigned level) const {
  return level < layout_.num_levels() ? layout_.level(level).layer_pitch : 0;
}
uint64_t ResourceImpl::level_offset(unsigned level) const {
  return level < layout_.num_levels() ? layout_.level(level).offset : 0;
}

cl::Buffer ResourceImpl::storage() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return storage_;
}

namespace {
std::atomic<uint64_t> g_renames{0};
}  // namespace

uint64_t ResourceImpl::rename_epoch() {
  return g_renames.load(std::memory_order_acquire);
}

bool ResourceImpl::try_rename(cl::Buffer fresh) {
  std::lock_guard<std::mutex> lock(mutex_);
  // A mapping of the old storage would write its data where nobody reads it any more.
  if (mapped_ > 0) return false;
  storage_ = std::move(fresh);
  g_renames.fetch_add(1, std::memory_order_acq_rel);
  // Commands queued on the old storage no longer touch the data of this resource.
  uses_.clear();
  return true;
}

bool ResourceImpl::unfinished(const cl::Event& e) {
  if (e() == nullptr) return false;
  cl_int status = CL_COMPLETE;
  if (e.getInfo(CL_EVENT_COMMAND_EXECUTION_STATUS, &status) != CL_SUCCESS) return false;
  // A negative status is a failed command: it will never run, so it holds nothing up.
  return status > CL_COMPLETE;
}

void ResourceImpl::note_use(uint64_t context_id, const cl::Event& event, bool writes) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = std::find_if(uses_.begin(), uses_.end(),
                         [&](const Use& u) { return u.context_id == context_id; });
  if (it == uses_.end()) {
    uses_.push_back(Use{context_id, event, writes ? event : cl::Event()});
    return;
  }
  // Queues are in order: the newest command of a context finishes after its older ones.
  it->last_use = event;
  if (writes) it->last_write = event;
}

std::vector<cl::Event> ResourceImpl::pending(uint64_t context_id, bool writes_only) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<cl::Event> out;
  for (const Use& u : uses_) {
    if (u.context_id != context_id) continue;
    const cl::Event& e = writes_only ? u.last_write : u.last_use;
    if (unfinished(e)) out.push_back(e);
  }
  return out;
}

bool ResourceImpl::referenced_by(uint64_t context_id) const {
  return !pending(context_id, false).empty();
}

cl::Buffer ResourceImpl::begin_mapping() {
  std::lock_guard<std::mutex> lock(mutex_);
  ++mapped_;
  return storage_;
}
void ResourceImpl::end_mapping() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (mapped_ > 0) --mapped_;
}

ResourceImpl& resource_of(const ResourceRef& res, uint64_t screen_id, const char* what) {
  if (!res) runtime::invalid(what, ": null resource");
  auto* impl = dynamic_cast<ResourceImpl*>(res.get());
  if (impl == nullptr || impl->screen_id() != screen_id) {
    runtime::invalid(what, ": the resource was not created by this screen");
  }
  return *impl;
}

}  // namespace clpipe::frontend
