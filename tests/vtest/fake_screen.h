// A fake clpipe Screen for the vtest tests: configurable caps and format support, and
// resources that keep their bytes in host memory with a layout (row pitch) deliberately
// different from the guest layout, so transfer tests catch stride mistakes.
//
// The vtest decoder only sees the public API. Everything the fakes are asked to do is
// recorded in a shared FakeLog (calls, in order, as text) and every argument that breaks
// an API rule (a box outside a level, a null resource, an enum out of range) is recorded
// as a violation: the decoder must never pass one. Live objects are counted so tests can
// check that a closed connection leaks nothing. Header-only: tests/ compiles only
// *_test.cpp files.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/error.h"
#include "clpipe/context.h"
#include "clpipe/screen.h"
#include "runtime/memory_account.h"

namespace clpipe::vtest_fake {

struct FakeLog {
  std::mutex mutex;
  std::vector<std::string> calls;
  std::vector<std::string> violations;
  std::atomic<int> live_resources{0}, live_contexts{0}, live_objects{0};
  std::atomic<uint32_t> next_id{1};
  std::vector<std::pair<int, std::string>> shader_texts;  // (stage, TGSI) of every shader
  std::vector<uint8_t> last_constants;                    // last user constant buffer
  // Decoded templates, in call order, for tests that check field decoding.
  std::vector<BlendState> blends;
  std::vector<RasterizerState> rasterizers;
  std::vector<DepthStencilAlphaState> dsas;
  std::vector<SamplerState> samplers;
  std::vector<std::vector<VertexElement>> vertex_elements;
  std::vector<SamplerViewTemplate> views;
  std::vector<SurfaceTemplate> surfaces;
  std::vector<std::pair<DrawInfo, DrawStartCountBias>> draws;
  std::vector<FramebufferState> framebuffers;
  std::vector<StreamOutputInfo> stream_outputs;
  std::vector<BlitInfo> blits;

  // Drops the records that hold resource or surface references (before leak checks).
  void release_records() {
    std::lock_guard<std::mutex> l(mutex);
    draws.clear();
    framebuffers.clear();
    blits.clear();
  }
  bool leak_free() const { return live_resources == 0 && live_contexts == 0 && live_objects == 0; }

  void record(const BlendState& s) { blends.push_back(s); }
  void record(const RasterizerState& s) { rasterizers.push_back(s); }
  void record(const DepthStencilAlphaState& s) { dsas.push_back(s); }
  void record(const SamplerState& s) { samplers.push_back(s); }
  void record(const std::vector<VertexElement>& s) { vertex_elements.push_back(s); }

  template <typename... P>
  void call(const P&... parts) {
    std::ostringstream os;
    (os << ... << parts);
    std::lock_guard<std::mutex> l(mutex);
    calls.push_back(os.str());
  }
  template <typename... P>
  void violation(const P&... parts) {
    std::ostringstream os;
    (os << ... << parts);
    std::lock_guard<std::mutex> l(mutex);
    violations.push_back(os.str());
  }
  // Calls whose text starts with prefix.
  std::vector<std::string> find(const std::string& prefix) {
    std::lock_guard<std::mutex> l(mutex);
    std::vector<std::string> out;
    for (const auto& c : calls)
      if (c.rfind(prefix, 0) == 0) out.push_back(c);
    return out;
  }
  size_t count(const std::string& prefix) { return find(prefix).size(); }
};
using FakeLogRef = std::shared_ptr<FakeLog>;

// Counts itself in FakeLog::live_objects for the leak checks.
struct Counted {
  explicit Counted(FakeLogRef l) : log(std::move(l)), id(log->next_id++) { ++log->live_objects; }
  virtual ~Counted() { --log->live_objects; }
  FakeLogRef log;
  uint32_t id;
};

inline uint32_t fake_minify(uint32_t v, unsigned level) {
  return std::max<uint32_t>(1, v >> level);
}

class FakeResource : public Resource {
 public:
  FakeResource(const ResourceTemplate& t, FakeLogRef log)
      : Resource(t), log_(std::move(log)), id_(log_->next_id++) {
    ++log_->live_resources;
    bpp_ = t.target == TextureTarget::BUFFER ? 1 : format_desc(t.format).block_bytes;
    const uint32_t samples = std::max<uint32_t>(1, t.nr_samples);
    uint64_t off = 0;
    for (unsigned l = 0; l <= t.last_level && l < kMaxTextureLevels; ++l) {
      const uint32_t w = fake_minify(t.width0, l), h = fake_minify(t.height0, l);
      // Padded rows: never equal to the guest's tightly packed stride.
      row_[l] = t.target == TextureTarget::BUFFER ? t.width0 : w * bpp_ + 16;
      layer_[l] = uint64_t(row_[l]) * h * samples;
      offset_[l] = off;
      off += layer_[l] * slices(l);
    }
    data_.assign(size_t(off), 0);
  }
  ~FakeResource() override { --log_->live_resources; }

  uint32_t level_row_pitch(unsigned l) const override { return row_[l]; }
  uint64_t level_layer_pitch(unsigned l) const override { return layer_[l]; }
  uint64_t level_offset(unsigned l) const override { return offset_[l]; }
  uint64_t size_bytes() const override { return data_.size(); }

  uint32_t slices(unsigned l) const {
    if (info().target == TextureTarget::TEXTURE_3D) return fake_minify(info().depth0, l);
    return info().array_size;
  }
  uint32_t bpp() const { return bpp_; }
  uint32_t id() const { return id_; }
  uint8_t* at(unsigned l, uint32_t x, uint32_t y, uint32_t z) {
    return data_.data() + offset_[l] + z * layer_[l] + uint64_t(y) * row_[l] + uint64_t(x) * bpp_;
  }
  std::vector<uint8_t>& bytes() { return data_; }
  // Whether a box lies inside a level (buffers: bytes in x).
  bool box_ok(unsigned l, const Box& b) const {
    if (l > info().last_level) return false;
    const int64_t w =
        info().target == TextureTarget::BUFFER ? info().width0 : fake_minify(info().width0, l);
    const int64_t h = fake_minify(info().height0, l);
    return b.x >= 0 && b.y >= 0 && b.z >= 0 && b.width >= 0 && b.height >= 0 && b.depth >= 0 &&
           b.x + int64_t(b.width) <= w && b.y + int64_t(b.height) <= h &&
           b.z + int64_t(b.depth) <= slices(l);
  }

 private:
  FakeLogRef log_;
  uint32_t id_;
  uint32_t bpp_ = 1;
  uint32_t row_[kMaxTextureLevels] = {};
  uint64_t layer_[kMaxTextureLevels] = {};
  uint64_t offset_[kMaxTextureLevels] = {};
  std::vector<uint8_t> data_;
};

inline FakeResource* fake(const ResourceRef& r) {
  return static_cast<FakeResource*>(r.get());
}
inline std::string rid(const ResourceRef& r) {
  return r ? "#" + std::to_string(fake(r)->id()) : std::string("null");
}

// Caps and format support of a fake screen.
struct FakeConfig {
  std::map<Cap, int> caps;
  std::map<CapF, float> capf;
  std::map<std::pair<ShaderType, ShaderCap>, int> shader_caps;
  // (format, target, sample count, bind) -> supported.
  std::function<bool(Format, TextureTarget, unsigned, uint32_t)> formats;
  std::string name = "clpipe (fake)";
  bool fail_resource_create = false;
  // A waiting fence_finish takes this long: device work that does not end soon.
  uint32_t fence_finish_ms = 0;
  // Before that, it waits this long for a program build, counted in the thread's
  // BuildWaitClock as a builder child's build is.
  uint32_t build_wait_ms = 0;
};

// A screen whose caps meet every GL 3.3 requirement of doc 5.3, with every clpipe format
// sampleable, every colour format renderable and every depth format usable as
// depth/stencil (single-sampled only).
FakeConfig gl33_config();

class FakeContext;

class FakeScreen : public Screen {
 public:
  explicit FakeScreen(FakeConfig cfg, FakeLogRef log = std::make_shared<FakeLog>())
      : cfg_(std::move(cfg)), log_(std::move(log)) {
    desc_.device_name = "fake";
  }
  std::string get_name() const override { return cfg_.name; }
  std::string get_vendor() const override { return "clpipe"; }
  std::string get_device_vendor() const override { return "fake"; }
  const DeviceDescription& device() const override { return desc_; }
  int get_param(Cap cap) const override {
    auto it = cfg_.caps.find(cap);
    return it == cfg_.caps.end() ? 0 : it->second;
  }
  float get_paramf(CapF cap) const override {
    auto it = cfg_.capf.find(cap);
    return it == cfg_.capf.end() ? 0.0f : it->second;
  }
  int get_shader_param(ShaderType s, ShaderCap cap) const override {
    auto it = cfg_.shader_caps.find({s, cap});
    return it == cfg_.shader_caps.end() ? 0 : it->second;
  }
  std::vector<uint64_t> get_compute_param(ComputeCap) const override { return {}; }
  bool is_format_supported(Format f, TextureTarget t, unsigned samples, unsigned,
                           uint32_t bind) const override {
    return cfg_.formats && cfg_.formats(f, t, samples, bind);
  }
  bool can_create_resource(const ResourceTemplate&) const override { return true; }
  // Sample i at ((1 + i) / 16, (15 - i) / 16): x and y differ, so their order shows.
  Status get_sample_position(unsigned, unsigned i, float out[2]) const override {
    out[0] = float(1 + i) / 16.0f;
    out[1] = float(15 - i) / 16.0f;
    return Status::ok();
  }
  Result<ResourceRef> resource_create(const ResourceTemplate& t) override {
    if (cfg_.fail_resource_create) return Status(ErrorCode::kOutOfMemory, "fake refuses");
    if (!format_is_valid(t.format)) log_->violation("resource_create: invalid format");
    // Storage counted by the real memory account (MemoryLimits), as a screen's buffers are.
    auto made = std::make_unique<FakeResource>(t, log_);
    const uint64_t bytes = made->size_bytes();
    try {
      memory_->charge(bytes);
    } catch (const clpipe::Error& e) {
      return Status(e.code(), e.what());
    }
    std::shared_ptr<FakeResource> r(made.release(), [memory = memory_, bytes](FakeResource* p) {
      memory->release(bytes);
      delete p;
    });
    log_->call("resource_create ", rid(r), " target=", int(t.target),
               " format=", format_name(t.format), " ", t.width0, "x", t.height0, "x", t.depth0,
               " layers=", t.array_size, " levels=", int(t.last_level) + 1, " bind=0x", std::hex,
               t.bind);
    if (t.bind & (Bind::RENDER_TARGET | Bind::DEPTH_STENCIL))  // recognisable contents
      for (size_t i = 0; i < r->bytes().size(); ++i)
        r->bytes()[i] = uint8_t(i * 7 + r->id());
    return ResourceRef(r);
  }
  Result<std::unique_ptr<Context>> context_create() override;
  Status fence_finish(const FenceHandle& f, uint64_t timeout) override {
    if (!f) log_->violation("fence_finish: null fence");
    if (BuildWaitClock* clock = BuildWaitClock::current(); clock && cfg_.build_wait_ms) {
      clock->begin_wait();
      std::this_thread::sleep_for(std::chrono::milliseconds(cfg_.build_wait_ms));
      clock->end_wait();
    }
    if (timeout && cfg_.fence_finish_ms)
      std::this_thread::sleep_for(std::chrono::milliseconds(cfg_.fence_finish_ms));
    return Status::ok();
  }
  uint64_t get_timestamp() const override { return 1000; }
  uint64_t memory_in_use() const override { return memory_->in_use(); }
  void set_memory_limits(const MemoryLimits& limits) override {
    memory_limits = limits;
    memory_->set_limits(limits);
  }
  // It builds no programs.
  ProgramCounts program_counts() const override { return {}; }

  MemoryLimits memory_limits;  // the last set_memory_limits

  const FakeLogRef& log() const { return log_; }

 private:
  FakeConfig cfg_;
  FakeLogRef log_;
  DeviceDescription desc_;
  std::shared_ptr<runtime::MemoryAccount> memory_ = std::make_shared<runtime::MemoryAccount>();
};

inline FakeConfig gl33_config() {
  FakeConfig c;
  const std::pair<Cap, int> caps[] = {
      {Cap::GLSL_FEATURE_LEVEL, 330},
      {Cap::GLSL_FEATURE_LEVEL_COMPATIBILITY, 330},
      {Cap::MAX_RENDER_TARGETS, 8},
      {Cap::MAX_DUAL_SOURCE_RENDER_TARGETS, 1},
      {Cap::MAX_TEXTURE_ARRAY_LAYERS, 256},
      {Cap::MAX_STREAM_OUTPUT_BUFFERS, 4},
      {Cap::INDEP_BLEND_ENABLE, 1},
      {Cap::CONDITIONAL_RENDER, 1},
      {Cap::PRIMITIVE_RESTART, 1},
      {Cap::DEPTH_CLIP_DISABLE, 1},
      {Cap::SEAMLESS_CUBE_MAP, 1},
      {Cap::OCCLUSION_QUERY, 1},
      {Cap::TEXTURE_BUFFER_OBJECTS, 1},
      {Cap::MAX_TEXEL_BUFFER_ELEMENTS_UINT, 65536},
      {Cap::DEST_SURFACE_SRGB_CONTROL, 1},
      {Cap::MIXED_COLORBUFFER_FORMATS, 1},
      {Cap::MAX_VIEWPORTS, 1},
      {Cap::MAX_TEXTURE_2D_SIZE, 8192},
      {Cap::MAX_TEXTURE_3D_LEVELS, 12},
      {Cap::MAX_TEXTURE_CUBE_LEVELS, 14},
      {Cap::MAX_GEOMETRY_OUTPUT_VERTICES, 256},
      {Cap::MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS, 1024},
      {Cap::MIN_TEXEL_OFFSET, -8},
      {Cap::MAX_TEXEL_OFFSET, 7},
      {Cap::CONSTANT_BUFFER_OFFSET_ALIGNMENT, 256},
      {Cap::TGSI_TEXCOORD, 1},
      {Cap::SUPPORTED_PRIM_MODES, 0x3c7f},
      {Cap::MAX_CONSTANT_BUFFER_SIZE_UINT, 65536},
  };
  for (const auto& [cap, v] : caps)
    c.caps[cap] = v;
  c.capf = {{CapF::MIN_POINT_SIZE, 1},        {CapF::MAX_POINT_SIZE, 255},
            {CapF::MIN_LINE_WIDTH, 1},        {CapF::MAX_LINE_WIDTH, 10},
            {CapF::MAX_TEXTURE_LOD_BIAS, 15}, {CapF::MAX_TEXTURE_ANISOTROPY, 1}};
  for (ShaderType s : {ShaderType::VERTEX, ShaderType::FRAGMENT, ShaderType::GEOMETRY}) {
    c.shader_caps[{s, ShaderCap::MAX_INSTRUCTIONS}] = 65536;
    c.shader_caps[{s, ShaderCap::MAX_CONST_BUFFERS}] = 16;
    c.shader_caps[{s, ShaderCap::MAX_CONST_BUFFER0_SIZE}] = 65536;
    c.shader_caps[{s, ShaderCap::MAX_SAMPLER_VIEWS}] = 16;
    c.shader_caps[{s, ShaderCap::MAX_INPUTS}] = 16;
    c.shader_caps[{s, ShaderCap::MAX_OUTPUTS}] = 32;
  }
  c.formats = [](Format f, TextureTarget t, unsigned samples, uint32_t bind) {
    if (samples > 1) return false;
    const bool zs = format_is_depth_or_stencil(f);
    if (bind & Bind::RENDER_TARGET) return !zs;
    if (bind & Bind::DEPTH_STENCIL) return zs;
    return true;
  };
  return c;
}

}  // namespace clpipe::vtest_fake
