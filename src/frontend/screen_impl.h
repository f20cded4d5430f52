// ScreenImpl: clpipe's Screen on one OpenCL device.
//
// Owns the device (OpenCL context), the program cache shared by its contexts, the size
// limits derived from the device, and a private queue for work that belongs to no
// context (zero-filling new resources, timestamps). Every method is thread-safe: the
// device, cache and limits are immutable or internally locked, and the private queue is
// used under mutex_. Contexts keep their screen alive (shared_from_this).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "clpipe/screen.h"
#include "frontend/layout.h"
#include "runtime/device.h"
#include "runtime/program_cache.h"
#include "runtime/queue.h"

namespace clpipe::frontend {

// A fence: the marker event after the work flushed before it.
class FenceImpl final : public Fence {
 public:
  explicit FenceImpl(cl::Event event) : event_(std::move(event)) {}
  const cl::Event& event() const { return event_; }

 private:
  cl::Event event_;
};

class ScreenImpl final : public Screen, public std::enable_shared_from_this<ScreenImpl> {
 public:
  ScreenImpl(const runtime::DeviceCandidate& candidate, const ScreenOptions& options);

  std::string get_name() const override;
  std::string get_vendor() const override { return "clpipe"; }
  std::string get_device_vendor() const override { return device_.description().device_vendor; }
  const DeviceDescription& device() const override { return device_.description(); }

  int get_param(Cap cap) const override;                                   // caps.cpp
  float get_paramf(CapF cap) const override;                               // caps.cpp
  int get_shader_param(ShaderType shader, ShaderCap cap) const override;   // caps.cpp
  std::vector<uint64_t> get_compute_param(ComputeCap cap) const override;  // caps.cpp

  bool is_format_supported(Format format, TextureTarget target, unsigned sample_count,
                           unsigned storage_sample_count, uint32_t bind) const override;
  Status get_sample_position(unsigned sample_count, unsigned index, float out[2]) const override;
  bool can_create_resource(const ResourceTemplate& templ) const override;
  Result<ResourceRef> resource_create(const ResourceTemplate& templ) override;
  Result<std::unique_ptr<Context>> context_create() override;
  Status fence_finish(const FenceHandle& fence, uint64_t timeout_ns) override;
  uint64_t get_timestamp() const override;
  uint64_t memory_in_use() const override { return device_.memory()->in_use(); }
  void set_memory_limits(const MemoryLimits& limits) override {
    device_.memory()->set_limits(limits);
  }
  ProgramCounts program_counts() const override {
    const runtime::ProgramCacheStats s = programs_.stats();
    return {s.builds, s.disk_hits};
  }

  // For contexts.
  const runtime::Device& cl_device() const { return device_; }
  runtime::ProgramCache& programs() { return programs_; }
  uint64_t id() const { return id_; }
  const TextureLimits& limits() const { return limits_; }
  uint64_t next_context_id() { return ++context_ids_; }

 private:
  // Throws when the template is invalid or unsupported (the reason as the error).
  void check_template(const ResourceTemplate& templ) const;

  runtime::Device device_;
  runtime::ProgramCache programs_;
  const uint64_t id_;
  TextureLimits limits_;
  std::atomic<uint64_t> context_ids_{0};

  mutable std::mutex mutex_;  // guards queue_
  std::unique_ptr<runtime::Queue> queue_;
};

}  // namespace clpipe::frontend
