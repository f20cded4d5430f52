// Screen::create / list_devices and ScreenImpl's resources, fences and timestamps.
// Caps live in caps.cpp, format rules in format_support.cpp.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <thread>

#include "frontend/api_guard.h"
#include "frontend/context_impl.h"
#include "frontend/format_support.h"
#include "frontend/resource.h"
#include "frontend/screen_impl.h"
#include "kernels/raster_shared.h"
#include "runtime/error.h"

namespace clpipe {

Result<std::shared_ptr<Screen>> Screen::create(const ScreenOptions& options) {
  return frontend::guard_result<std::shared_ptr<Screen>>("Screen::create", [&] {
    std::string request = options.device;
    if (request.empty()) {
      if (const char* env = std::getenv("CLPIPE_DEVICE")) request = env;
    }
    const runtime::DeviceCandidate candidate =
        runtime::select_device(runtime::enumerate_devices(), request);
    return std::shared_ptr<Screen>(std::make_shared<frontend::ScreenImpl>(candidate, options));
  });
}

Result<std::vector<DeviceDescription>> Screen::list_devices() {
  return frontend::guard_result<std::vector<DeviceDescription>>("Screen::list_devices", [] {
    std::vector<DeviceDescription> out;
    for (const runtime::DeviceCandidate& c : runtime::enumerate_devices()) {
      out.push_back(c.description);
    }
    return out;
  });
}

}  // namespace clpipe

namespace clpipe::frontend {

namespace {

std::atomic<uint64_t> g_screen_ids{0};

// Largest power of two p <= cap whose full mip chain of p^dims RGBA8 texels per face fits
// in one allocation: a texture at the advertised limit can really be created.
uint32_t largest_size(uint32_t cap, unsigned dims, uint64_t faces, uint64_t max_alloc) {
  constexpr uint64_t kBytesPerTexel = 4;  // RGBA8: larger texels fail at creation with a reason
  uint32_t p = cap;
  while (p > 1) {
    uint64_t bytes = 0;
    for (uint64_t edge = p; edge >= 1; edge >>= 1) {
      uint64_t texels = 1;
      for (unsigned d = 0; d < dims; ++d)
        texels *= edge;
      bytes += texels * kBytesPerTexel * faces;
    }
    if (bytes <= max_alloc) break;
    p >>= 1;
  }
  return p;
}

std::string cache_dir_of(const ScreenOptions& options) {
  if (!options.disk_cache) return "";
  return options.cache_dir.empty() ? runtime::ProgramCache::default_disk_dir() : options.cache_dir;
}

std::string system_cache_dir_of(const ScreenOptions& options) {
  if (!options.disk_cache) return "";
  return options.system_cache_dir.empty() ? runtime::ProgramCache::default_system_dir()
                                          : options.system_cache_dir;
}

}  // namespace

ScreenImpl::ScreenImpl(const runtime::DeviceCandidate& candidate, const ScreenOptions& options)
    : device_(candidate),
      programs_(device_, cache_dir_of(options), 512, options.builder, system_cache_dir_of(options)),
      id_(++g_screen_ids) {
  if (options.warm_up) programs_.rewrite_entries_at_end();
  const uint64_t max_alloc = device_.limits().max_mem_alloc_size;
  limits_.max_alloc = max_alloc;
  limits_.max_buffer = std::min<uint64_t>(max_alloc, std::numeric_limits<uint32_t>::max());
  limits_.max_2d = largest_size(16384, 2, 1, max_alloc);
  limits_.max_cube = largest_size(16384, 2, 6, max_alloc);
  limits_.max_3d = largest_size(2048, 3, 1, max_alloc);
  limits_.max_layers = 2048;
  queue_ = std::make_unique<runtime::Queue>(device_);
}

std::string ScreenImpl::get_name() const {
  return "clpipe (" + device_.description().device_name + ")";
}

Status ScreenImpl::get_sample_position(unsigned sample_count, unsigned index, float out[2]) const {
  return guard("get_sample_position", [&] {
    const unsigned n = std::max(1u, sample_count);
    if (!sample_count_supported(n) || index >= n) {
      runtime::invalid("sample ", index, " of ", sample_count, " (counts are 1, 2, 4 and 8)");
    }
    // The table the tile pass rasterizes with (tile_runs.cpp).
    const uint32_t pos = clp_sample_pos16(n, index);
    out[0] = float(pos & 15u) / 16.0f;
    out[1] = float(pos >> 4) / 16.0f;
  });
}

bool ScreenImpl::is_format_supported(Format format, TextureTarget target, unsigned sample_count,
                                     unsigned storage_sample_count, uint32_t bind) const {
  return format_supported(format, target, sample_count, storage_sample_count, bind);
}

void ScreenImpl::check_template(const ResourceTemplate& templ) const {
  validate_template(templ, limits_);
  uint32_t bind = templ.bind;
  // Mesa's state tracker creates pixel buffer objects with RENDER_TARGET as a usage hint;
  // a buffer is only ever copied to and from, so the hint asks for nothing more.
  if (templ.target == TextureTarget::BUFFER) bind &= ~uint32_t(Bind::RENDER_TARGET);
  if (!format_supported(templ.format, templ.target, templ.nr_samples, templ.nr_storage_samples,
                        bind)) {
    const uint32_t missing = bind & ~supported_binds(templ.format, templ.target);
    runtime::unsupported(format_name(templ.format), " on ", target_name(templ.target),
                         " does not support bind flags 0x", std::hex, missing,
                         missing == 0 ? " (not usable with this target)" : "");
  }
}

bool ScreenImpl::can_create_resource(const ResourceTemplate& templ) const {
  return guard("can_create_resource", [&] { check_template(templ); }).is_ok();
}

Result<ResourceRef> ScreenImpl::resource_create(const ResourceTemplate& templ) {
  return guard_result<ResourceRef>("resource_create", [&] {
    check_template(templ);
    ResourceLayout layout(templ);
    std::lock_guard<std::mutex> lock(mutex_);
    cl::Buffer storage = queue_->create_buffer(layout.alloc_bytes());
    // New resources read as zero: OpenCL leaves fresh buffers undefined.
    queue_->fill_zero(storage, 0, layout.alloc_bytes()).wait();
    return ResourceRef(std::make_shared<ResourceImpl>(id_, templ, std::move(layout), storage));
  });
}

Result<std::unique_ptr<Context>> ScreenImpl::context_create() {
  return guard_result<std::unique_ptr<Context>>("context_create", [&] {
    return std::unique_ptr<Context>(std::make_unique<ContextImpl>(shared_from_this()));
  });
}

Status ScreenImpl::fence_finish(const FenceHandle& fence, uint64_t timeout_ns) {
  return guard("fence_finish", [&] {
    auto* f = dynamic_cast<const FenceImpl*>(fence.get());
    if (f == nullptr) runtime::invalid("not a fence of clpipe (null or foreign)");
    const cl::Event& ev = f->event();
    auto status = [&] {
      cl_int s = CL_COMPLETE;
      CLP_CHECK(ev.getInfo(CL_EVENT_COMMAND_EXECUTION_STATUS, &s));
      if (s < 0) runtime::fail(ErrorCode::kDeviceError, "the fenced work failed (status ", s, ")");
      return s;
    };
    if (timeout_ns == std::numeric_limits<uint64_t>::max()) {
      if (status() != CL_COMPLETE) CLP_CHECK(ev.wait());
      status();
      return;
    }
    using Clock = std::chrono::steady_clock;
    const auto deadline =
        Clock::now() + std::chrono::nanoseconds(std::min<uint64_t>(timeout_ns, uint64_t(1) << 62));
    auto nap = std::chrono::microseconds(20);
    while (status() != CL_COMPLETE) {
      const auto now = Clock::now();
      if (now >= deadline) {
        runtime::fail(ErrorCode::kTimeout, "not signalled within ", timeout_ns, " ns");
      }
      std::this_thread::sleep_for(std::min<Clock::duration>(
          nap, std::chrono::duration_cast<Clock::duration>(deadline - now)));
      nap = std::min(nap * 2, std::chrono::microseconds(1000));
    }
  });
}

uint64_t ScreenImpl::get_timestamp() const {
  // The end time of a marker is a reading of the device's profiling clock, the clock of
  // TIMESTAMP queries. Should the driver not time markers, fall back to the host clock.
  try {
    std::lock_guard<std::mutex> lock(mutex_);
    cl::Event ev = queue_->marker();
    CLP_CHECK(ev.wait());
    cl_ulong t = 0;
    if (ev.getProfilingInfo(CL_PROFILING_COMMAND_END, &t) == CL_SUCCESS && t != 0) return t;
  } catch (const std::exception&) {
    // Fall through to the host clock: the signature cannot report errors.
  }
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

}  // namespace clpipe::frontend
