// ResourceImpl: a clpipe resource (buffer or texture) in one device buffer, with its
// layout and a record of the queued work that uses it.
//
// Producer: ScreenImpl::resource_create. Consumers: every Context pass that reads or
// writes resource data. Rule for those passes: take storage() when enqueueing, and
// report the command's event with note_use() (writes = true when it may write), so that
// transfers know when the data is current and DONTBLOCK / is_resource_referenced answer
// truthfully. Thread-safe: two contexts may use one resource.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "clpipe/screen.h"
#include "frontend/layout.h"
#include "runtime/cl.h"

namespace clpipe::frontend {

class ResourceImpl final : public Resource, public std::enable_shared_from_this<ResourceImpl> {
 public:
  ResourceImpl(uint64_t screen_id, const ResourceTemplate& templ, ResourceLayout layout,
               cl::Buffer storage);

  uint32_t level_row_pitch(unsigned level) const override;
  uint64_t level_layer_pitch(unsigned level) const override;
  uint64_t level_offset(unsigned level) const override;
  uint64_t size_bytes() const override { return layout_.size_bytes(); }

  const ResourceLayout& layout() const { return layout_; }
  uint64_t screen_id() const { return screen_id_; }
  bool is_buffer() const { return layout_.is_buffer(); }

  // The buffer holding the data now (renaming may replace it; queued commands keep the
  // one they were given alive through OpenCL's retain).
  cl::Buffer storage() const;
  // Replaces the storage (DISCARD_WHOLE_RESOURCE renaming) unless a direct mapping of the
  // current storage is outstanding; returns whether it did.
  bool try_rename(cl::Buffer fresh);
  // Renames of any resource so far: a setup derived before a rename may hold a storage
  // that is no longer the resource's (ContextImpl's derived draw state checks it).
  static uint64_t rename_epoch();

  // Records that context `context_id` enqueued a command using this resource.
  void note_use(uint64_t context_id, const cl::Event& event, bool writes);
  // Unfinished commands of one context: all uses, or only writes when writes_only.
  std::vector<cl::Event> pending(uint64_t context_id, bool writes_only) const;
  bool referenced_by(uint64_t context_id) const;

  // A direct mapping of the current storage begins (returns that storage) or ends;
  // renaming waits until none is outstanding.
  cl::Buffer begin_mapping();
  void end_mapping();

 private:
  struct Use {
    uint64_t context_id;
    cl::Event last_use;    // latest command of that context reading or writing
    cl::Event last_write;  // latest command of that context writing (may be null)
  };
  static bool unfinished(const cl::Event& e);

  const uint64_t screen_id_;
  const ResourceLayout layout_;
  mutable std::mutex mutex_;
  cl::Buffer storage_;
  std::vector<Use> uses_;  // one entry per context that used the resource
  unsigned mapped_ = 0;
};

// The ResourceImpl behind a handle of this screen; throws kInvalidArgument naming `what`
// for null handles and resources of another screen.
ResourceImpl& resource_of(const ResourceRef& res, uint64_t screen_id, const char* what);

}  // namespace clpipe::frontend
