#include "frontend/draw/tile_variant.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <system_error>

#include "clpipe/format.h"
#include "runtime/error.h"

namespace clpipe::frontend::draw {

static_assert(std::has_unique_object_representations_v<TileVariantKey>,
              "TileVariantKey must have no padding: equality and hash read its bytes");

TileVariantKey::TileVariantKey() {
  std::fill(std::begin(view_word), std::end(view_word), CLP_TEX_UNKEYED);
  std::fill(std::begin(sampler_word), std::end(sampler_word), CLP_TEX_UNKEYED);
}

bool TileVariantKey::operator==(const TileVariantKey& o) const {
  return std::memcmp(this, &o, sizeof(*this)) == 0;
}

size_t TileVariantKeyHash::operator()(const TileVariantKey& k) const {
  // FNV-1a over the bytes: keys are small and hashed once per state change.
  const auto* p = reinterpret_cast<const unsigned char*>(&k);
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < sizeof(k); ++i)
    h = (h ^ p[i]) * 1099511628211ull;
  return size_t(h);
}

namespace {

// The words of sampling_abi.h, or CLP_TEX_UNKEYED where a field does not fit its bits
// (such a unit is read from its descriptors, as by the generic program).
uint32_t view_word(const ClpTexView& v) {
  if (v.format > 0xffffu) return CLP_TEX_UNKEYED;
  uint32_t w = v.format;
  for (uint32_t i = 0; i < 4; ++i) {
    if (v.swizzle[i] > 7u) return CLP_TEX_UNKEYED;
    w |= v.swizzle[i] << (CLP_TEXKEY_SWIZZLE_SHIFT + 3 * i);
  }
  return w;
}

uint32_t sampler_word(const ClpSamplerState& s) {
  const bool fits = s.wrap[0] <= 7u && s.wrap[1] <= 7u && s.wrap[2] <= 7u &&
                    s.min_img_filter <= 1u && s.mag_img_filter <= 1u && s.min_mip_filter <= 3u &&
                    s.compare_mode <= 1u && s.compare_func <= 7u && s.unnormalized_coords <= 1u &&
                    s.seamless_cube_map <= 1u;
  if (!fits) return CLP_TEX_UNKEYED;
  return s.wrap[0] | s.wrap[1] << 3 | s.wrap[2] << 6 |
         s.min_img_filter << CLP_TEXKEY_MIN_IMG_SHIFT |
         s.mag_img_filter << CLP_TEXKEY_MAG_IMG_SHIFT |
         s.min_mip_filter << CLP_TEXKEY_MIN_MIP_SHIFT |
         s.compare_mode << CLP_TEXKEY_COMPARE_MODE_SHIFT |
         s.compare_func << CLP_TEXKEY_COMPARE_FUNC_SHIFT |
         s.unnormalized_coords << CLP_TEXKEY_UNNORMALIZED_SHIFT |
         s.seamless_cube_map << CLP_TEXKEY_SEAMLESS_SHIFT;
}

}  // namespace

TileVariantKey tile_variant_key(const ClpRasterParams& rp, const FsTextures& tex) {
  TileVariantKey k;
  for (uint32_t u = 0; u < tex.num_views && u < kKeyedTexUnits; ++u)
    k.view_word[u] = view_word(tex.views[u]);
  for (uint32_t u = 0; u < tex.num_samplers && u < kKeyedTexUnits; ++u)
    k.sampler_word[u] = sampler_word(tex.samplers[u]);
  k.rast_flags = rp.flags & kTileKeyRastFlags;
  k.zs_format = uint16_t(rp.zs_format);
  k.nr_cbufs = uint8_t(std::min<uint32_t>(rp.nr_cbufs, CLP_MAX_RTS));
  k.depth_func = uint8_t(rp.depth_func);
  k.alpha_func = uint8_t(rp.alpha_func);
  k.logicop_func = uint8_t(rp.logicop_func);
  k.samples = uint8_t(rp.samples);
  // Buffers past nr_cbufs are never read: they stay zero so that they do not split keys.
  for (uint32_t i = 0; i < k.nr_cbufs; ++i) {
    const ClpRtState& s = rp.rt[i];
    TileVariantKey::Rt& r = k.rt[i];
    r.flags = s.flags;
    r.format = uint16_t(s.format);
    r.colormask = uint8_t(s.colormask);
    r.rgb_func = uint8_t(s.rgb_func);
    r.rgb_src = uint8_t(s.rgb_src);
    r.rgb_dst = uint8_t(s.rgb_dst);
    r.alpha_func = uint8_t(s.alpha_func);
    r.alpha_src = uint8_t(s.alpha_src);
    r.alpha_dst = uint8_t(s.alpha_dst);
  }
  return k;
}

namespace {

// "static uint clp_tile_rt_<field>(uint r) { return r == 0 ? v0 : ... : 0u; }": r is a
// constant wherever the tile pass unrolls its loop over the buffers.
template <typename Get>
std::string rt_function(const char* field, const TileVariantKey& key, Get get) {
  std::string s = "static uint clp_tile_rt_";
  s += field;
  s += "(uint r) { return ";
  for (uint32_t i = 0; i < key.nr_cbufs; ++i)
    s += "r == " + std::to_string(i) + "u ? " + std::to_string(get(key.rt[i])) + "u : ";
  s += "0u; }\n";
  return s;
}

// "#define CLP_TILE_<name>(u) ((u) == 0u ? w0 : ... : CLP_TEX_UNKEYED)": u is a literal
// at every sampling call of the generated code (CLP_TEX_SAMPLE).
std::string unit_words(const char* name, const uint32_t (&words)[kKeyedTexUnits]) {
  std::string s = "#define CLP_TILE_";
  s += name;
  s += "(u) (";
  for (uint32_t u = 0; u < kKeyedTexUnits; ++u) {
    if (words[u] == CLP_TEX_UNKEYED) continue;
    s += "(u) == " + std::to_string(u) + "u ? " + std::to_string(words[u]) + "u : ";
  }
  s += "CLP_TEX_UNKEYED)\n";
  return s;
}

// Whether the key's colour stage can run across lanes (kernels/tile_color.h): every
// enabled buffer is 8-bit RGBA/BGRA UNORM (an X channel allowed) without a logic op.
bool soa_colour(const TileVariantKey& key) {
  for (uint32_t i = 0; i < key.nr_cbufs && i < CLP_MAX_RTS; ++i) {
    const TileVariantKey::Rt& rt = key.rt[i];
    if (!(rt.flags & CLP_RT_ENABLED)) continue;
    const auto f = Format(rt.format);
    const bool rgba8 = f == Format::R8G8B8A8_UNORM || f == Format::B8G8R8A8_UNORM ||
                       f == Format::R8G8B8X8_UNORM || f == Format::B8G8R8X8_UNORM;
    if (!rgba8 || (rt.flags & (CLP_RT_LOGICOP | CLP_RT_UINT | CLP_RT_SINT))) return false;
  }
  return true;
}

}  // namespace

std::string tile_variant_defines(const TileVariantKey& key) {
  std::string s = "#define CLP_TILE_KEY 1\n";
  auto define = [&s](const char* name, uint32_t v) {
    s += "#define ";
    s += name;
    s += " " + std::to_string(v) + "u\n";
  };
  define("CLP_TILE_RAST_FLAGS", key.rast_flags);
  define("CLP_TILE_NR_CBUFS", key.nr_cbufs);
  define("CLP_TILE_ZS_FORMAT", key.zs_format);
  define("CLP_TILE_DEPTH_FUNC", key.depth_func);
  define("CLP_TILE_ALPHA_FUNC", key.alpha_func);
  define("CLP_TILE_LOGICOP_FUNC", key.logicop_func);
  if (key.samples > 1) define("CLP_TILE_SAMPLES", key.samples);
  if (soa_colour(key)) s += "#define CLP_TILE_SOA 1\n";
  using Rt = TileVariantKey::Rt;
  s += rt_function("flags", key, [](const Rt& r) { return r.flags; });
  s += rt_function("format", key, [](const Rt& r) { return r.format; });
  s += rt_function("colormask", key, [](const Rt& r) { return r.colormask; });
  s += rt_function("rgb_func", key, [](const Rt& r) { return r.rgb_func; });
  s += rt_function("rgb_src", key, [](const Rt& r) { return r.rgb_src; });
  s += rt_function("rgb_dst", key, [](const Rt& r) { return r.rgb_dst; });
  s += rt_function("alpha_func", key, [](const Rt& r) { return r.alpha_func; });
  s += rt_function("alpha_src", key, [](const Rt& r) { return r.alpha_src; });
  s += rt_function("alpha_dst", key, [](const Rt& r) { return r.alpha_dst; });
  s += unit_words("VIEW_WORD", key.view_word);
  s += unit_words("SAMPLER_WORD", key.sampler_word);
  return s;
}

TileVariantMode tile_variant_mode_from_env() {
  const char* v = std::getenv("CLPIPE_TILE_VARIANTS");
  if (!v) return TileVariantMode::kAuto;
  if (std::strcmp(v, "generic") == 0) return TileVariantMode::kGeneric;
  if (std::strcmp(v, "always") == 0) return TileVariantMode::kAlways;
  return TileVariantMode::kAuto;
}

namespace {

// The program source of `code` for framebuffers of `samples` samples; empty for none.
std::string tile_source(GeneratedCode code, uint32_t samples) {
  if (code.body.empty()) return {};
  if (samples > 1) {
    code.prelude = "#define CLP_TILE_SAMPLES " + std::to_string(samples) + "\n" + code.prelude;
  }
  return stage_program_source(code, "tile.cl");
}

}  // namespace

TileVariants::TileVariants(runtime::ProgramCache& cache, GeneratedCode code, FsSampling sampling,
                           ProgramTierMode tiers, size_t items, GeneratedCode interpreted)
    : cache_(cache),
      items_(items),
      code_(std::move(code)),
      interpreted_(std::move(interpreted)),
      keyed_views_(sampling.calls <= kMaxKeyedSampleCalls ? sampling.views : 0),
      keyed_samplers_(sampling.calls <= kMaxKeyedSampleCalls ? sampling.samplers : 0),
      tiers_(tiers),
      generic_(cache, tile_source(code_, 1), tiers, {items}, tile_source(interpreted_, 1)) {}

TileVariants::~TileVariants() {
  abandoned_ = true;
  BackgroundBuilds::wake();
}

TieredProgram& TileVariants::generic_for(uint32_t samples) {
  if (samples <= 1) return generic_;
  const size_t i = samples == 2 ? 0 : samples == 4 ? 1 : 2;
  if (!generic_ms_[i]) {
    generic_ms_[i] = std::make_unique<TieredProgram>(cache_, tile_source(code_, samples), tiers_,
                                                     std::vector<size_t>{items_},
                                                     tile_source(interpreted_, samples));
  }
  return *generic_ms_[i];
}

runtime::ProgramRef TileVariants::select(const ClpRasterParams& rp, const FsTextures& tex,
                                         uint64_t scene, TileVariantMode mode) {
  std::lock_guard<std::mutex> lock(mutex_);
  // A variant is the shader's own program: kWarmUp builds none (program_tiers.h).
  if (mode == TileVariantMode::kGeneric || tiers_ == ProgramTierMode::kWarmUp)
    return generic_for(rp.samples).select(scene);
  FsTextures own = tex;
  own.num_views = std::min(tex.num_views, keyed_views_);
  own.num_samplers = std::min(tex.num_samplers, keyed_samplers_);
  const TileVariantKey key = tile_variant_key(rp, own);
  const bool textures = std::any_of(std::begin(key.view_word), std::end(key.view_word),
                                    [](uint32_t w) { return w != CLP_TEX_UNKEYED; });
  if (mode == TileVariantMode::kAlways || !textures)
    return or_generic(select_key(key, scene, mode, 2), rp.samples, scene);
  // auto: the key without its textures draws until the whole key is due, and for every
  // key with textures past the shader's first.
  const TileVariantKey plain = tile_variant_key(rp);
  const auto it = entries_.find(key);
  const bool started = it != entries_.end() &&
                       (it->second.program || it->second.pending.valid() || it->second.failed);
  if (started && !it->second.failed) {
    // The whole key is built or being built (due, or found in the program cache). Until it
    // is ready, its draws take the key without textures only if that one is built or in
    // the program cache: never due (the largest count of scenes), so that no compile of
    // it competes with the frames for the CPU for draws the whole key serves a scene later.
    const Pick plain_pick = select_key(plain, scene, mode, std::numeric_limits<uint32_t>::max());
    const Pick whole = select_key(key, scene, mode, kTextureKeyScenes);
    if (whole.program) return whole.program;
    return or_generic({plain_pick.program, plain_pick.coming || whole.coming}, rp.samples, scene);
  }
  const Pick without = select_key(plain, scene, mode, 2);
  if (!started && texture_builds_ >= kMaxTextureVariants)
    return or_generic(without, rp.samples, scene);
  const size_t before = started_;
  const Pick whole = select_key(key, scene, mode, kTextureKeyScenes);
  texture_builds_ += started_ - before;
  if (whole.program) return whole.program;
  return or_generic({without.program, without.coming || whole.coming}, rp.samples, scene);
}

runtime::ProgramRef TileVariants::or_generic(const Pick& pick, uint32_t samples, uint64_t scene) {
  if (pick.program) return pick.program;
  TieredProgram& generic = generic_for(samples);
  return pick.coming ? generic.current() : generic.select(scene);
}

TileVariants::Pick TileVariants::select_key(const TileVariantKey& key, uint64_t scene,
                                            TileVariantMode mode, uint32_t due_scenes) {
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    if (entries_.size() >= kMaxTrackedKeys) return {};
    it = entries_.emplace(key, Entry{}).first;
  }
  Entry& e = it->second;
  const bool first_in_scene = e.last_scene != scene;
  if (first_in_scene) {
    e.last_scene = scene;
    ++e.scenes;
  }
  if (e.program) return {e.program};
  if (e.pending.valid()) {
    // A build that ends mid-scene is taken at the key's first draw of the next scene: the
    // units of one key in one scene run one program, so the scene's tile launches (one per
    // run of units with equal programs) do not depend on when the build ended.
    if (!first_in_scene || e.pending.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
      return {nullptr, true};
    e.program = e.pending.get();
    e.failed = !e.program;
    return {e.program};
  }
  if (e.failed || started_ >= kMaxVariants) return {};
  if (mode == TileVariantMode::kAuto &&
      (e.scenes < due_scenes || generic_ns_ < generic_.due_device_ns())) {
    if (e.cached < 0) e.cached = cache_.contains(variant_source(key), kShaderBuildOptions);
    if (!e.cached) return {nullptr, true};
  }
  ++started_;
  if (mode == TileVariantMode::kAuto) {
    try {
      e.pending = std::async(std::launch::async, [this, key] {
        return BackgroundBuilds::run(abandoned_, [this, &key] { return build(key, true); });
      });
      return {nullptr, true};
    } catch (const std::system_error&) {
      // No thread to spare: build it now, like kAlways.
    }
  }
  e.program = build(key, false);
  e.failed = !e.program;
  return {e.program};
}

std::string TileVariants::variant_source(const TileVariantKey& key) const {
  GeneratedCode code = code_;
  code.prelude = tile_variant_defines(key) + code.prelude;
  return stage_program_source(code, "tile.cl");
}

runtime::ProgramRef TileVariants::build(const TileVariantKey& key, bool primed) const {
  try {
    runtime::ProgramHints hints;
    if (primed) hints.launch_sizes = {items_};
    return cache_.get(variant_source(key), kShaderBuildOptions, hints);
  } catch (const std::exception& err) {
    // The generic program draws the same pixels: its draws go on without the variant.
    std::fprintf(stderr,
                 "clpipe: a specialised tile program failed to build; drawing with "
                 "the generic one: %s\n",
                 err.what());
    return nullptr;
  }
}

TieredProgram* TileVariants::generic_of(const runtime::ProgramRef& ran) {
  TieredProgram* const generics[] = {&generic_, generic_ms_[0].get(), generic_ms_[1].get(),
                                     generic_ms_[2].get()};
  for (TieredProgram* g : generics)
    if (g && g->current() == ran) return g;
  return nullptr;
}

void TileVariants::add_device_time(const runtime::ProgramRef& ran, uint64_t ns) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (TieredProgram* g = generic_of(ran)) {
    g->add_device_time(ran, ns);
    generic_ns_ += ns;
  }
}

bool TileVariants::counts_device_time(const runtime::ProgramRef& ran) {
  std::lock_guard<std::mutex> lock(mutex_);
  return generic_of(ran) != nullptr;
}

uint64_t TileVariants::generic_device_ns() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return generic_ns_;
}

void TileVariants::wait_for_builds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [key, e] : entries_)
    if (e.pending.valid()) e.pending.wait();
  generic_.wait_for_build();
  for (const auto& g : generic_ms_)
    if (g) g->wait_for_build();
}

size_t TileVariants::built() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t n = 0;
  for (const auto& [key, e] : entries_)
    n += e.program != nullptr;
  return n;
}

}  // namespace clpipe::frontend::draw
