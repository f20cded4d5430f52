// Variants of a fragment shader's tile program (tile.cl) with hot draw state compiled in
// (performance.md §5.4): the colour buffers' formats and blending, the depth/stencil
// format and tests, the alpha test, the rasterizer flags and the sampling state of the
// shader's textures (view format and swizzle, wraps, filters, depth compare) become
// constants, so that the device compiler folds the per-fragment and per-sample switches
// over them away. State outside the key (stencil values, blend colour, scissor, targets'
// and textures' addresses and sizes, level-of-detail clamps, ...) stays a run-time
// parameter, so changing it never builds a program.
//
// Producer: DrawPipeline::record picks a draw's program (select) when it derives the
// draw's ClpRasterParams; draws whose programs differ run in different tile-pass
// launches. Every shader keeps its generic program (the key read per record), which
// draws use until a variant is worth building, once kMaxVariants variants exist, and
// when a variant fails to build. The generic program is built quick first
// (program_tiers.h), and optimised once the draws that no variant is coming for (past
// the cap, failed, kGeneric) have run TieredProgram::kDueDeviceNs: draws that a variant
// serves soon do not pay for an optimised generic build besides.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <unordered_map>

#include "frontend/draw/program_tiers.h"
#include "frontend/draw/stage_program.h"
#include "kernels/raster_shared.h"
#include "kernels/sampling_abi.h"
#include "runtime/program_cache.h"

namespace clpipe::frontend::draw {

// Texture units whose sampling state a variant compiles in: the fragment stage's minimum
// in GL 3.3 (MAX_TEXTURE_IMAGE_UNITS), which is what GL programs mostly stay within.
constexpr uint32_t kKeyedTexUnits = 16;
// Sampling calls up to which a shader's variants compile its textures' state in. Each
// such call is a copy of the lane-parallel sampler (sampling.h, CLP_TEX_SAMPLE), which
// adds to the variant's build time; past the cap, the textures stay out of the key, so
// they neither split variants nor copy the sampler.
constexpr uint32_t kMaxKeyedSampleCalls = 4;

// How a fragment shader samples: its sampler view and sampler units (the counts of its
// parameters) and its sampling calls (compiler::EmittedShader::sample_calls).
struct FsSampling {
  uint32_t views = 0, samplers = 0, calls = 0;
};

// What a variant compiles in. Plain bytes without implicit padding (static_assert in
// tile_variant.cpp), so that equality and the hash may look at the object representation.
struct TileVariantKey {
  struct Rt {
    uint32_t flags = 0;  // ClpRtState::flags
    uint16_t format = 0;
    uint8_t colormask = 0;
    uint8_t rgb_func = 0, rgb_src = 0, rgb_dst = 0;
    uint8_t alpha_func = 0, alpha_src = 0, alpha_dst = 0;
    uint8_t pad[3] = {};
  };
  uint32_t rast_flags = 0;  // ClpRasterParams::flags & kTileKeyRastFlags
  uint16_t zs_format = 0;
  uint8_t nr_cbufs = 0;
  uint8_t depth_func = 0, alpha_func = 0, logicop_func = 0;
  uint8_t samples = 1;  // of the framebuffer (ClpRasterParams::samples)
  uint8_t pad = 0;
  Rt rt[CLP_MAX_RTS];
  // The view and sampler words (sampling_abi.h) of the fragment shader's first
  // kKeyedTexUnits units; CLP_TEX_UNKEYED where the shader has no such unit or its state
  // does not fit a word. Sampling through units without words reads the descriptors.
  uint32_t view_word[kKeyedTexUnits];
  uint32_t sampler_word[kKeyedTexUnits];

  TileVariantKey();
  bool operator==(const TileVariantKey& o) const;
};

struct TileVariantKeyHash {
  size_t operator()(const TileVariantKey& k) const;
};

// The rasterizer flags a variant compiles in: all but those that the tile pass reads
// once per launch from the run's first draw (counting and the render condition), which
// would multiply variants for nothing.
constexpr uint32_t kTileKeyRastFlags =
    ~(CLP_RAST_COUNT | CLP_RAST_PREDICATE | CLP_RAST_PREDICATE_WHEN_TRUE);

// The sampler views and sampler states that a draw's fragment shader reads (its entries
// in the scene's resource tables); counts of 0 for a shader that does not sample.
struct FsTextures {
  const ClpTexView* views = nullptr;
  uint32_t num_views = 0;
  const ClpSamplerState* samplers = nullptr;
  uint32_t num_samplers = 0;
};

TileVariantKey tile_variant_key(const ClpRasterParams& rp, const FsTextures& tex = {});

// OpenCL C prepended to the program's source to compile `key` in (the CLP_TILE_* names
// tile.cl reads through its CLP_KEYED_* macros).
std::string tile_variant_defines(const TileVariantKey& key);

// When draws get specialised variants ($CLPIPE_TILE_VARIANTS: "generic", "always",
// anything else or unset: "auto").
enum class TileVariantMode {
  kGeneric,  // never: every draw runs the generic program
  kAuto,     // once the key has drawn in two scenes and the shader's generic programs
             // have run kDueDeviceNs, built in the background (BackgroundBuilds) while
             // the generic program draws (no frame waits for a build): short programs
             // (most tests) pay no extra build, repeated frames run specialised once the
             // build is done (keys with textures' state: kTextureKeyScenes); from the
             // first scene when the variant is in the program cache already (a program
             // run before)
  kAlways,   // from the first draw, built before it (tests of the variants)
};
TileVariantMode tile_variant_mode_from_env();

// The tile programs of one fragment shader. Thread-safe (a shader's CSO may be drawn by
// several contexts).
class TileVariants {
 public:
  // Builds (or finds in the cache) the generic program of `code`, a fragment shader that
  // samples as `sampling` says, in `tiers` mode; throws like ProgramCache::get. The tile
  // pass launches its programs with `items` work-items per group (tile_pass_items).
  // `interpreted`: the shader's interpreted form (empty when it has none), the generic
  // programs' first program (TieredProgram).
  TileVariants(runtime::ProgramCache& cache, GeneratedCode code, FsSampling sampling,
               ProgramTierMode tiers, size_t items, GeneratedCode interpreted = {});
  // Drops the builds still waiting for a slot (BackgroundBuilds); waits for those running.
  ~TileVariants();
  TileVariants(const TileVariants&) = delete;
  TileVariants& operator=(const TileVariants&) = delete;

  // The generic program of single-sampled framebuffers drawing now (quick or optimised).
  runtime::ProgramRef generic() const { return generic_.current(); }
  // Whether that generic program is the optimised build.
  bool generic_optimised() const { return generic_.optimised(); }
  bool generic_interpreted() const { return generic_.interpreted(); }
  // The program for a draw with state `rp` and textures `tex` (entries past the shader's keyed
  // units are not looked at) in the scene numbered `scene` (a number that changes from
  // scene to scene): the key's variant when it is built, else the generic program.
  // Starts the variant's build when `mode` says it is due; a failed build is logged once
  // and the key keeps the generic program.
  runtime::ProgramRef select(const ClpRasterParams& rp, const FsTextures& tex, uint64_t scene,
                             TileVariantMode mode);
  // Counts `ns` of device time that a tile launch of `ran` took when `ran` is the generic
  // program of a sample count, quick or optimised: in kAuto that time makes the shader's
  // keys due (kDueDeviceNs), as a variant replaces the generic program for its key's
  // draws. A quick generic program's time counts towards its own optimised build too
  // (TieredProgram::add_device_time).
  void add_device_time(const runtime::ProgramRef& ran, uint64_t ns);
  // Whether a launch of `ran` counts: it is a generic program.
  bool counts_device_time(const runtime::ProgramRef& ran);
  // The generic programs' device time counted so far.
  uint64_t generic_device_ns() const;
  // Specialised variants ready to draw (built, and collected by a select()).
  size_t built() const;
  // Returns when no variant build and no optimised generic build is running (tests: a
  // build's end, without timing).
  void wait_for_builds() const;

  // Variant builds per shader: draws with further keys run the generic program. Eight covers
  // the states a frame typically cycles through (opaque, blended, additive, depth-only
  // passes, ...) at ~0.5-1 s of PoCL build each.
  static constexpr size_t kMaxVariants = 8;
  // In kAuto, a key with textures' state is due in its kTextureKeyScenes-th scene (a frame
  // is a scene: a program that draws with the same textures every frame gets its variant
  // after 8 frames); until then its draws take the variant of the key without the
  // textures (due in the second scene, as keys without textures). Programs that go
  // through many textures once or twice each (tests of formats) build no variant per
  // texture format.
  static constexpr uint32_t kTextureKeyScenes = 8;
  // ... and kAuto builds one such key per shader: each build costs ~1-2 s of PoCL on the
  // machine that draws, so tests that draw each of many formats in many scenes must not
  // pay a build per format (measured: texture-packed-formats went from 40 s to 90-100 s
  // cold with one).
  static constexpr size_t kMaxTextureVariants = 1;
  // In kAuto, a key is due only once the shader's generic programs have run this long on
  // the device: a build costs ~1-4 s of CPU, which the variant wins back only where the
  // generic program keeps the device busy (the reasoning of TieredProgram::kDueDeviceNs).
  // Where the single-sample generic program is the interpreter's optimised build, its
  // TieredProgram::due_device_ns() (kDueInterpretedDeviceNs) applies instead: the variant
  // saves less over it, and the warm-up's interpreter programs cover every sample count.
  // A key with a variant in the program cache needs no build and is taken at once.
  static constexpr uint64_t kDueDeviceNs = TieredProgram::kDueDeviceNs;
  // Keys counted towards "auto" per shader: bounds the table for programs that never
  // repeat a state.
  static constexpr size_t kMaxTrackedKeys = 64;

 private:
  struct Entry {
    uint64_t last_scene = ~uint64_t(0);
    uint32_t scenes = 0;  // scenes that drew with the key
    bool failed = false;
    int8_t cached = -1;  // kAuto: whether the program cache held the variant (-1: not asked)
    runtime::ProgramRef program;
    std::future<runtime::ProgramRef> pending;  // kAuto's build (null result: it failed)
  };

  // A key's variant (null: none yet), and whether one is still coming (not due yet, or
  // building) rather than never (failed, past the cap, not tracked).
  struct Pick {
    runtime::ProgramRef program;
    bool coming = false;
  };
  // select() for `key` with mutex_ held: its variant once built; in kAuto, its build
  // starts in the key's `due_scenes`-th scene once the generic programs ran kDueDeviceNs,
  // or in its first when the program cache holds the variant (a load, not a build, which
  // the wait is meant to spare).
  Pick select_key(const TileVariantKey& key, uint64_t scene, TileVariantMode mode,
                  uint32_t due_scenes);
  // `pick`'s variant, else the generic program, which may start its optimised build
  // (TieredProgram::select) only when no variant is coming.
  runtime::ProgramRef or_generic(const Pick& pick, uint32_t samples, uint64_t scene);
  // The variant of `key`, or null (logged) when it does not build.
  // In the background (`primed`), the build also generates the code of the tile pass's
  // launches (ProgramCache::get's launch_sizes) before the variant is taken.
  runtime::ProgramRef build(const TileVariantKey& key, bool primed) const;
  std::string variant_source(const TileVariantKey& key) const;
  // The generic program of framebuffers of `samples` samples (1, 2, 4 or 8; the tile
  // pass keeps every sample of its pixels, tile.cl's CLP_TILE_SAMPLES), built at the
  // first draw into such a framebuffer; throws like ProgramCache::get.
  TieredProgram& generic_for(uint32_t samples);
  // With mutex_ held: the generic program whose current program `ran` is, or null.
  TieredProgram* generic_of(const runtime::ProgramRef& ran);

  runtime::ProgramCache& cache_;
  const size_t items_;
  const GeneratedCode code_;
  const GeneratedCode interpreted_;  // body empty: none
  // The units whose state keys hold: none past kMaxKeyedSampleCalls.
  const uint32_t keyed_views_, keyed_samplers_;
  const ProgramTierMode tiers_;
  TieredProgram generic_;
  // The generic programs of 2, 4 and 8 samples (null until drawn with), under mutex_.
  std::unique_ptr<TieredProgram> generic_ms_[3];
  mutable std::mutex mutex_;
  size_t started_ = 0;                  // builds started (the cap counts failed ones too)
  size_t texture_builds_ = 0;           // kAuto builds of keys with textures' state
  uint64_t generic_ns_ = 0;             // add_device_time's sum
  std::atomic<bool> abandoned_{false};  // set by the destructor
  // Last member: destroyed first, its futures wait for builds still running, which use
  // the members above.
  std::unordered_map<TileVariantKey, Entry, TileVariantKeyHash> entries_;
};

}  // namespace clpipe::frontend::draw
