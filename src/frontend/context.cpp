// ContextImpl: construction, flush and barriers, resource references and the bookkeeping of
// host data held for queued uploads.
#include <memory>
#include <string>
#include <utility>

#include "frontend/api_guard.h"
#include "frontend/context_impl.h"
#include "frontend/cso.h"
#include "frontend/features.h"
#include "runtime/error.h"

namespace clpipe::frontend {

ContextImpl::ContextImpl(std::shared_ptr<ScreenImpl> screen)
    : screen_(std::move(screen)),
      id_(screen_->next_context_id()),
      queue_(screen_->cl_device()),
      transfer_queue_(std::make_shared<runtime::Queue>(screen_->cl_device())),
      ops_(queue_, screen_->programs()),
      queries_(queue_, screen_->programs()),
      blitter_(queue_, screen_->programs(), ops_, id_) {}

ContextImpl::~ContextImpl() {
  // Recorded draws still run (a context may go without a last flush), and the context's
  // objects stay until the commands that use them have finished.
  flush_scene_nothrow();
  try {
    queue_.finish();
  } catch (const std::exception&) {
    // A failed finish leaves nothing more to wait for; the destructor must not throw.
  }
}

Status ContextImpl::flush(FenceHandle* fence, uint32_t flags) {
  return guard("flush", [&] {
    flush_scene();
    // Every flag is a hint clpipe can honour by flushing: DEFERRED and ASYNC allow later
    // submission, END_OF_FRAME and HINT_FINISH change nothing for an OpenCL queue, and
    // FENCE_FD is refused because there are no native fences (NATIVE_FENCE_FD = 0).
    if (flags & Flush::FENCE_FD) runtime::unsupported("native fence fds are not supported");
    if (!scene_error_.ok()) {
      // A scene run by a call that could not report it (a barrier): report it now.
      const Status e = std::exchange(scene_error_, Status());
      runtime::fail(e.code(), e.message());
    }
    cl::Event marker;
    if (fence) marker = queue_.marker();
    queue_.flush();
    if (fence) *fence = std::make_shared<FenceImpl>(marker);
    reap_uploads();
  });
}

void ContextImpl::texture_barrier(uint32_t) {
  // Draws after the barrier may read what the recorded draws render.
  flush_scene_nothrow();
  // Nothing else to do: the queue is in order (no CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE), so a
  // command starts after the previous one has finished and its writes are visible, and a
  // draw never samples what it renders in the same pass (FBFETCH is not supported).
}

void ContextImpl::memory_barrier(uint32_t) {
  // Commands after the barrier may read what the recorded draws write.
  flush_scene_nothrow();
  // Nothing else to do, for every PIPE_BARRIER_* bit: draws, dispatches, copies and uploads of
  // this context run one after the other on its in-order queue, and OpenCL makes the writes
  // of a finished command visible to the commands after it (shader buffers, images, global
  // memory, constant buffers, indirect arguments alike). Maps wait for the commands that use
  // the resource (ResourceImpl::note_use), and MAPPED_BUFFER only concerns persistent maps,
  // which clpipe refuses. Ordering inside one dispatch is the shader's MEMBAR / BARRIER.
}

bool ContextImpl::is_resource_referenced(const ResourceRef& res, unsigned) {
  auto* impl = dynamic_cast<ResourceImpl*>(res.get());
  if (impl == nullptr) return false;
  for (const SceneUse& u : scene_resources_) {
    if (u.res.get() == impl) return true;  // a recorded draw uses it
  }
  return impl->referenced_by(id_);
}

namespace {

struct HeldUpload {
  std::shared_ptr<std::vector<uint8_t>> data;
  std::shared_ptr<std::atomic<size_t>> bytes;  // ContextImpl::upload_bytes_
};

// OpenCL calls it once the write has finished or failed, on a thread of its own, possibly
// after the context has gone: it touches only what HeldUpload owns.
void CL_CALLBACK free_upload(cl_event, cl_int, void* user) {
  auto* held = static_cast<HeldUpload*>(user);
  *held->bytes -= held->data->size();
  delete held;
}

}  // namespace

void ContextImpl::keep_until_done(const cl::Event& event,
                                  std::shared_ptr<std::vector<uint8_t>> data) {
  // Bounded: an application that uploads without ever flushing waits for its oldest
  // upload once kMaxPendingUploads writes or kMaxPendingUploadBytes are held.
  constexpr size_t kMaxPendingUploads = 256;
  constexpr size_t kMaxPendingUploadBytes = size_t(64) << 20;
  reap_uploads();
  *upload_bytes_ += data->size();
  auto held = std::make_unique<HeldUpload>(HeldUpload{std::move(data), upload_bytes_});
  if (cl::Event(event).setCallback(CL_COMPLETE, free_upload, held.get()) != CL_SUCCESS) {
    // No callback: keep the copy until the write has run.
    queue_.flush();
    const cl_int status = event.wait();
    free_upload(nullptr, 0, held.release());
    CLP_CHECK(status);
    return;
  }
  held.release();  // the callback's now
  uploads_.push_back(event);
  while (!uploads_.empty() &&
         (uploads_.size() > kMaxPendingUploads || *upload_bytes_ > kMaxPendingUploadBytes)) {
    queue_.flush();
    CLP_CHECK(uploads_.front().wait());
    uploads_.pop_front();
    reap_uploads();
  }
}

void ContextImpl::reap_uploads() {
  // Commands finish in queue order, so the finished writes are a prefix.
  while (!uploads_.empty()) {
    cl_int status = CL_COMPLETE;
    uploads_.front().getInfo(CL_EVENT_COMMAND_EXECUTION_STATUS, &status);
    if (status > CL_COMPLETE) break;
    uploads_.pop_front();
  }
}

}  // namespace clpipe::frontend
