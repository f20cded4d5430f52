// The view objects of a context: sampler views, surfaces and stream-output targets.
//
// Producer: views.cpp (create_sampler_view, create_surface, create_stream_output_target)
// after validating the template against the resource. Consumers: set_sampler_views,
// set_framebuffer_state, set_stream_output_targets, the clears, and later the draw
// passes. Each remembers its screen so that handles of another screen are refused.
#pragma once

#include <cstdint>

#include "clpipe/context.h"
#include "runtime/cl.h"

namespace clpipe::frontend {

class SamplerViewImpl final : public SamplerView {
 public:
  SamplerViewImpl(ResourceRef res, const SamplerViewTemplate& t, uint64_t screen_id)
      : SamplerView(std::move(res), t), screen_id_(screen_id) {}
  uint64_t screen_id() const { return screen_id_; }

 private:
  uint64_t screen_id_;
};

class SurfaceImpl final : public Surface {
 public:
  SurfaceImpl(ResourceRef res, const SurfaceTemplate& t, uint32_t w, uint32_t h, uint64_t screen_id)
      : Surface(std::move(res), t, w, h), screen_id_(screen_id) {}
  uint64_t screen_id() const { return screen_id_; }

 private:
  uint64_t screen_id_;
};

class StreamOutputTargetImpl final : public StreamOutputTarget {
 public:
  StreamOutputTargetImpl(ResourceRef buf, uint32_t offset, uint32_t size, uint64_t screen_id)
      : StreamOutputTarget(std::move(buf), offset, size), screen_id_(screen_id) {}
  uint64_t screen_id() const { return screen_id_; }
  // The bytes written into the target (from buffer_offset on): one uint on the device, so
  // that appends and draw_auto need no host round trip. Created (zero) by the first
  // set_stream_output_targets that binds the target, set there to explicit offsets,
  // advanced by stream output (stream.cl), read by draw_auto.
  const cl::Buffer& filled() const { return filled_; }
  void set_filled(cl::Buffer b) const { filled_ = std::move(b); }

 private:
  uint64_t screen_id_;
  mutable cl::Buffer filled_;
};

// The implementation behind a handle of this screen, or kInvalidArgument naming `what`.
const SurfaceImpl& surface_of(const SurfaceHandle& s, uint64_t screen_id, const char* what);
const SamplerViewImpl& sampler_view_of(const SamplerViewHandle& v, uint64_t screen_id,
                                       const char* what);
const StreamOutputTargetImpl& so_target_of(const StreamOutputTargetHandle& t, uint64_t screen_id,
                                           const char* what);

}  // namespace clpipe::frontend
