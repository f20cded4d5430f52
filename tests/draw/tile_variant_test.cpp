// Specialised tile programs (src/frontend/draw/tile_variant.h): what their key holds,
// when they are built, the cap, the fallback to the generic program, and that both draw
// the same pixels.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <random>
#include <set>
#include <string>

#include "draw/draw_fixture.h"
#include "frontend/draw/tile_variant.h"
#include "support/capture_stderr.h"
#include "support/pocl_kcache.h"
#include "support/scoped_env.h"
#include "support/test_device.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::frontend::draw;

namespace {

// The tile pass's work-group on this device, as the programs are launched with.
const size_t kItems =
    tile_pass_items(test_device().limits(), test_device().limits().fragment_lanes);

ClpRasterParams sample_params() {
  ClpRasterParams rp{};
  rp.nr_cbufs = 1;
  rp.rt[0].flags = CLP_RT_ENABLED | CLP_RT_BLEND | CLP_RT_UNORM;
  rp.rt[0].format = uint32_t(Format::R8G8B8A8_UNORM);
  rp.rt[0].colormask = 15;
  rp.rt[0].rgb_src = uint32_t(BlendFactor::SRC_ALPHA);
  rp.rt[0].rgb_dst = uint32_t(BlendFactor::INV_SRC_ALPHA);
  rp.flags = CLP_RAST_DEPTH_TEST | CLP_RAST_DEPTH_WRITE | CLP_RAST_ZS_PRESENT;
  rp.zs_format = uint32_t(Format::Z24_UNORM_S8_UINT);
  rp.depth_func = uint32_t(CompareFunc::LESS);
  rp.fb_width = rp.fb_height = 2048;
  return rp;
}

// Counts kDueDeviceNs of the generic program's launches: from then on, in auto, keys are
// due by their scenes.
void generic_ran_long(TileVariants& v) {
  v.add_device_time(v.generic(), TileVariants::kDueDeviceNs);
}

// One unit bound to an RGBA8 view or to an R8 view, with one sampler: two texture states
// of a shader that samples once.
struct TwoTextures {
  ClpTexView rgba8_view{}, r8_view{};
  ClpSamplerState smp{};
  TwoTextures() {
    rgba8_view.format = uint32_t(Format::R8G8B8A8_UNORM);
    r8_view.format = uint32_t(Format::R8_UNORM);
  }
  FsTextures rgba8() const { return {&rgba8_view, 1, &smp, 1}; }
  FsTextures r8() const { return {&r8_view, 1, &smp, 1}; }
};

}  // namespace

TEST_CASE("tile variant keys hold the compiled-in state and nothing else", "[draw][variants]") {
  const ClpRasterParams a = sample_params();
  const TileVariantKey ka = tile_variant_key(a);

  // State the tile pass reads at run time: the same key.
  ClpRasterParams b = a;
  b.blend_color[0] = 0.5f;
  b.stencil_ref[0] = 7;
  b.stencil_writemask[1] = 3;
  b.alpha_ref = 0.25f;
  b.rt[0].offset = 4096;
  b.rt[0].pitch = 64;
  b.zs_offset = 8;
  b.zs_pitch = 128;
  b.fb_width = 99;
  b.tiles_x = 7;
  b.stipple[3] = 1;
  b.rt[3].format = uint32_t(Format::R32G32B32A32_FLOAT);  // past nr_cbufs
  b.flags |= CLP_RAST_COUNT | CLP_RAST_PREDICATE | CLP_RAST_PREDICATE_WHEN_TRUE;
  CHECK(tile_variant_key(b) == ka);
  CHECK(TileVariantKeyHash()(tile_variant_key(b)) == TileVariantKeyHash()(ka));

  // State compiled in: another key.
  auto differs = [&](void (*change)(ClpRasterParams&)) {
    ClpRasterParams c = a;
    change(c);
    return !(tile_variant_key(c) == ka);
  };
  CHECK(differs([](ClpRasterParams& c) { c.rt[0].format = uint32_t(Format::B8G8R8A8_UNORM); }));
  CHECK(differs([](ClpRasterParams& c) { c.rt[0].flags &= ~CLP_RT_BLEND; }));
  CHECK(differs([](ClpRasterParams& c) { c.rt[0].colormask = 7; }));
  CHECK(differs([](ClpRasterParams& c) { c.rt[0].rgb_func = uint32_t(BlendFunc::MAX); }));
  CHECK(differs([](ClpRasterParams& c) { c.rt[0].rgb_dst = uint32_t(BlendFactor::ONE); }));
  CHECK(differs([](ClpRasterParams& c) { c.rt[0].alpha_src = uint32_t(BlendFactor::ZERO); }));
  CHECK(differs([](ClpRasterParams& c) { c.nr_cbufs = 2; }));
  CHECK(differs([](ClpRasterParams& c) { c.zs_format = uint32_t(Format::Z32_FLOAT); }));
  CHECK(differs([](ClpRasterParams& c) { c.depth_func = uint32_t(CompareFunc::GEQUAL); }));
  CHECK(differs([](ClpRasterParams& c) { c.alpha_func = uint32_t(CompareFunc::LESS); }));
  CHECK(differs([](ClpRasterParams& c) { c.logicop_func = uint32_t(LogicOp::XOR); }));
  CHECK(differs([](ClpRasterParams& c) { c.flags &= ~CLP_RAST_DEPTH_WRITE; }));
  CHECK(differs([](ClpRasterParams& c) { c.flags |= CLP_RAST_FLATSHADE; }));

  // The program text carries the key's values.
  const std::string d = tile_variant_defines(ka);
  CHECK(d.find("#define CLP_TILE_KEY 1\n") != std::string::npos);
  CHECK(d.find("#define CLP_TILE_DEPTH_FUNC " + std::to_string(a.depth_func) + "u\n") !=
        std::string::npos);
  CHECK(d.find("r == 0u ? " + std::to_string(a.rt[0].format) + "u") != std::string::npos);

  // Its helper functions are external definitions, not C99 `inline` ones: those emit no
  // symbol, and a compiler that does not inline a call to one (NVIDIA's at
  // -cl-opt-disable) cannot link the program.
  CHECK(d.find("uint clp_tile_rt_format(uint r)") != std::string::npos);
  CHECK(d.find("inline") == std::string::npos);
}

TEST_CASE("tile variant keys hold the textures' sampling state", "[draw][variants][tex]") {
  const ClpRasterParams rp = sample_params();
  ClpTexView views[2] = {};
  ClpSamplerState samplers[2] = {};
  for (ClpTexView& v : views) {
    v.format = uint32_t(Format::R8G8B8A8_UNORM);
    v.target = CLP_TEXTARGET_2D;
    v.width = v.height = 64;
    v.depth = v.layers = 1;
    v.last_level = 6;
    for (uint32_t c = 0; c < 4; ++c)
      v.swizzle[c] = c;
  }
  for (ClpSamplerState& s : samplers) {
    s.min_img_filter = s.mag_img_filter = CLP_FILTER_LINEAR;
    s.min_mip_filter = CLP_MIP_LINEAR;
    s.max_lod = 1000.0f;
  }
  const FsTextures tex{views, 2, samplers, 2};
  const TileVariantKey k = tile_variant_key(rp, tex);
  CHECK_FALSE(k == tile_variant_key(rp));

  // What sampling reads at run time: the same key.
  auto same = [&](auto change) {
    ClpTexView v[2] = {views[0], views[1]};
    ClpSamplerState s[2] = {samplers[0], samplers[1]};
    change(v[1], s[1]);
    return tile_variant_key(rp, FsTextures{v, 2, s, 2}) == k;
  };
  CHECK(same([](ClpTexView& v, ClpSamplerState&) { v.width = 17; }));
  CHECK(same([](ClpTexView& v, ClpSamplerState&) { v.first_level = 2; }));
  CHECK(same([](ClpTexView& v, ClpSamplerState&) { v.level_offset[1] = 4096; }));
  CHECK(same([](ClpTexView& v, ClpSamplerState&) { v.data_size = 99; }));
  CHECK(same([](ClpTexView&, ClpSamplerState& s) { s.lod_bias = 0.5f; }));
  CHECK(same([](ClpTexView&, ClpSamplerState& s) { s.min_lod = 1.0f; }));
  CHECK(same([](ClpTexView&, ClpSamplerState& s) { s.border_color[0] = 7; }));
  // What it compiles in: another key.
  CHECK_FALSE(same([](ClpTexView& v, ClpSamplerState&) { v.format = uint32_t(Format::R8_UNORM); }));
  CHECK_FALSE(same([](ClpTexView& v, ClpSamplerState&) { v.swizzle[3] = 5; }));
  CHECK_FALSE(same([](ClpTexView&, ClpSamplerState& s) { s.wrap[1] = CLP_WRAP_MIRROR_REPEAT; }));
  CHECK_FALSE(same([](ClpTexView&, ClpSamplerState& s) { s.min_img_filter = 0; }));
  CHECK_FALSE(same([](ClpTexView&, ClpSamplerState& s) { s.mag_img_filter = 0; }));
  CHECK_FALSE(same([](ClpTexView&, ClpSamplerState& s) { s.min_mip_filter = CLP_MIP_NONE; }));
  CHECK_FALSE(same([](ClpTexView&, ClpSamplerState& s) { s.compare_mode = 1; }));
  CHECK_FALSE(same([](ClpTexView&, ClpSamplerState& s) { s.compare_func = 3; }));
  CHECK_FALSE(same([](ClpTexView&, ClpSamplerState& s) { s.unnormalized_coords = 1; }));
  CHECK_FALSE(same([](ClpTexView&, ClpSamplerState& s) { s.seamless_cube_map = 1; }));

  // A field that does not fit its word leaves the unit to its descriptors, like no unit.
  ClpSamplerState odd[2] = {samplers[0], samplers[1]};
  odd[1].wrap[0] = 9;
  const TileVariantKey ko = tile_variant_key(rp, FsTextures{views, 2, odd, 2});
  CHECK(ko.sampler_word[1] == CLP_TEX_UNKEYED);
  CHECK(ko.sampler_word[0] == k.sampler_word[0]);
  CHECK(tile_variant_key(rp, FsTextures{views, 2, odd, 1}) == ko);

  // The program text carries the words.
  const std::string d = tile_variant_defines(k);
  CHECK(d.find("#define CLP_TILE_VIEW_WORD(u) ((u) == 0u ? " + std::to_string(k.view_word[0]) +
               "u : (u) == 1u ? ") != std::string::npos);
  CHECK(d.find("#define CLP_TILE_SAMPLER_WORD(u) ((u) == 0u ? " +
               std::to_string(k.sampler_word[0]) + "u") != std::string::npos);
  CHECK(tile_variant_defines(tile_variant_key(rp))
            .find("#define CLP_TILE_VIEW_WORD(u) (CLP_TEX_UNKEYED)") != std::string::npos);
}

TEST_CASE("tile variants key textures only for shaders with few sampling calls",
          "[draw][variants][tex]") {
  DrawFixture fx;
  const ClpRasterParams rp = sample_params();
  const TwoTextures t;
  for (uint32_t calls : {kMaxKeyedSampleCalls, kMaxKeyedSampleCalls + 1}) {
    INFO(calls << " sampling calls");
    TileVariants v(test_program_cache(), fx.varying_fs_code(), FsSampling{1, 1, calls},
                   ProgramTierMode::kOptimised, kItems);
    const runtime::ProgramRef a = v.select(rp, t.rgba8(), 1, TileVariantMode::kAlways);
    const runtime::ProgramRef b = v.select(rp, t.r8(), 1, TileVariantMode::kAlways);
    CHECK(a != v.generic());
    const bool keyed = calls <= kMaxKeyedSampleCalls;
    CHECK((a != b) == keyed);
    CHECK(v.built() == (keyed ? 2u : 1u));
  }
}

TEST_CASE("tile variants: in auto, textures' state is compiled in for one key drawn often",
          "[draw][variants][tex]") {
  DrawFixture fx;
  const ClpRasterParams rp = sample_params();
  const TwoTextures t;
  // A memory-only cache of its own, so that no variant is in it before its build is due
  // (a cached variant is due at once: the test after the next).
  runtime::ProgramCache cache(test_device(), "");
  TileVariants v(cache, fx.varying_fs_code(), FsSampling{1, 1, 1}, ProgramTierMode::kOptimised,
                 kItems);
  const FsTextures a = t.rgba8(), b = t.r8();
  generic_ran_long(v);
  uint64_t scene = 1;
  CHECK(v.select(rp, a, scene++, TileVariantMode::kAuto) == v.generic());
  // The second scene starts the build of the key without textures.
  CHECK(v.select(rp, a, scene++, TileVariantMode::kAuto) == v.generic());
  v.wait_for_builds();
  const runtime::ProgramRef without = v.select(rp, a, scene++, TileVariantMode::kAuto);
  CHECK(without != v.generic());
  // Another format shares it, with nothing built for its own key.
  CHECK(v.select(rp, b, scene++, TileVariantMode::kAuto) == without);
  CHECK(v.select(rp, b, scene++, TileVariantMode::kAuto) == without);
  CHECK(v.built() == 1);
  // The RGBA8 key's kTextureKeyScenes-th scene (it drew in 3) starts its own build.
  for (uint32_t n = 3; n < TileVariants::kTextureKeyScenes; ++n)
    CHECK(v.select(rp, a, scene++, TileVariantMode::kAuto) == without);
  CHECK(v.built() == 1);
  v.wait_for_builds();
  const runtime::ProgramRef with = v.select(rp, a, scene++, TileVariantMode::kAuto);
  CHECK(with != without);
  CHECK(with != v.generic());
  CHECK(v.built() == 2);
  // One such build per shader: the R8 key keeps the variant without textures however often
  // it draws.
  for (uint32_t n = 0; n < 2 * TileVariants::kTextureKeyScenes; ++n)
    CHECK(v.select(rp, b, scene++, TileVariantMode::kAuto) == without);
  v.wait_for_builds();
  CHECK(v.built() == 2);
}

TEST_CASE("tile variants: one program per key, built when due, at most kMaxVariants",
          "[draw][variants]") {
  DrawFixture fx;
  const StageBinding fs = fx.varying_fs();
  REQUIRE(fs.tile_variants);
  REQUIRE(fs.tile_variants->generic() == fs.program);
  // The same shader's variants in a memory-only cache of their own, as above.
  runtime::ProgramCache cache(test_device(), "");
  TileVariants v(cache, fx.varying_fs_code(), {}, ProgramTierMode::kOptimised, kItems);
  const runtime::ProgramRef generic = v.generic();
  const ClpRasterParams rp = sample_params();
  generic_ran_long(v);

  CHECK(v.select(rp, {}, 1, TileVariantMode::kGeneric) == generic);
  // auto: the generic program in the first scene that draws with a key, however often;
  // the second starts the variant's build, and the generic program draws until it is done.
  CHECK(v.select(rp, {}, 1, TileVariantMode::kAuto) == generic);
  CHECK(v.select(rp, {}, 1, TileVariantMode::kAuto) == generic);
  CHECK(v.built() == 0);
  runtime::ProgramRef p = v.select(rp, {}, 2, TileVariantMode::kAuto);
  CHECK(p == generic);
  // A build done mid-scene: the scene's later draws keep the generic program (one program
  // per key and scene); the next scene takes the variant.
  v.wait_for_builds();
  CHECK(v.select(rp, {}, 2, TileVariantMode::kAuto) == generic);
  CHECK(v.built() == 0);
  p = v.select(rp, {}, 3, TileVariantMode::kAuto);
  CHECK(p != generic);
  CHECK(v.select(rp, {}, 3, TileVariantMode::kAuto) == p);
  CHECK(v.built() == 1);
  CHECK(v.select(rp, {}, 2, TileVariantMode::kGeneric) == generic);

  // Equal state, or a change outside the key: the same program, nothing built.
  ClpRasterParams same = rp;
  same.blend_color[1] = 0.25f;
  same.stencil_ref[0] = 3;
  same.rt[0].offset = 256;
  CHECK(v.select(same, {}, 3, TileVariantMode::kAlways) == p);
  CHECK(v.select(same, {}, 4, TileVariantMode::kAuto) == p);
  // Textures of a shader that samples none are not looked at.
  ClpTexView view{};
  view.format = uint32_t(Format::R8_UNORM);
  ClpSamplerState smp{};
  CHECK(v.select(same, FsTextures{&view, 1, &smp, 1}, 4, TileVariantMode::kAlways) == p);
  CHECK(v.built() == 1);

  // always: a new key is built at its first draw.
  ClpRasterParams other = rp;
  other.depth_func = uint32_t(CompareFunc::GREATER);
  const runtime::ProgramRef q = v.select(other, {}, 5, TileVariantMode::kAlways);
  CHECK(q != p);
  CHECK(q != generic);
  CHECK(v.built() == 2);

  // The cap: keys past it draw with the generic program.
  std::set<const runtime::Program*> programs = {p.get(), q.get()};
  for (uint32_t mask = 0; mask < 15; ++mask) {
    ClpRasterParams c = rp;
    c.rt[0].colormask = mask;
    const runtime::ProgramRef r = v.select(c, {}, 6, TileVariantMode::kAlways);
    if (mask + 2 < TileVariants::kMaxVariants) {
      CHECK(r != generic);
      programs.insert(r.get());
    } else {
      CHECK(r == generic);
    }
  }
  CHECK(v.built() == TileVariants::kMaxVariants);
  CHECK(programs.size() == TileVariants::kMaxVariants);
}

TEST_CASE("tile variants: in auto, keys wait for the generic programs' device time",
          "[draw][variants]") {
  DrawFixture fx;
  runtime::ProgramCache cache(test_device(), "");
  // An optimised generic program (a GPU's, or one the program cache held): its launches
  // count, as a variant replaces it too.
  TileVariants v(cache, fx.varying_fs_code(), {}, ProgramTierMode::kOptimised, kItems);
  const runtime::ProgramRef generic = v.generic();
  REQUIRE(v.generic_optimised());
  CHECK(v.counts_device_time(generic));
  // However many scenes and pixels (2048x2048 each): no build without the device time.
  const ClpRasterParams rp = sample_params();
  uint64_t scene = 1;
  for (; scene <= 64; ++scene) {
    CHECK(v.select(rp, {}, scene, TileVariantMode::kAuto) == generic);
    CHECK(v.select(rp, {}, scene, TileVariantMode::kAuto) == generic);
  }
  v.add_device_time(generic, TileVariants::kDueDeviceNs - 1);
  CHECK(v.select(rp, {}, scene++, TileVariantMode::kAuto) == generic);
  v.wait_for_builds();
  CHECK(v.built() == 0);
  CHECK(cache.stats().builds == 1);  // the generic program
  // Time enough: the next scene starts the build; the one after draws with the variant.
  v.add_device_time(generic, 1);
  CHECK(v.generic_device_ns() == TileVariants::kDueDeviceNs);
  CHECK(v.select(rp, {}, scene++, TileVariantMode::kAuto) == generic);
  v.wait_for_builds();
  CHECK(v.select(rp, {}, scene, TileVariantMode::kAuto) != generic);
  CHECK(v.built() == 1);
}

TEST_CASE("tile variants: in auto, the quick generic program's device time makes keys due",
          "[draw][variants]") {
  DrawFixture fx;
  runtime::ProgramCache cache(test_device(), "");
  TileVariants v(cache, fx.varying_fs_code(), {}, ProgramTierMode::kAuto, kItems);
  const ClpRasterParams rp = sample_params();
  const runtime::ProgramRef quick = v.generic();
  CHECK_FALSE(v.generic_optimised());
  CHECK(v.counts_device_time(quick));
  CHECK(v.select(rp, {}, 1, TileVariantMode::kAuto) == quick);
  v.add_device_time(quick, TileVariants::kDueDeviceNs - 1);
  CHECK(v.select(rp, {}, 2, TileVariantMode::kAuto) == quick);
  v.wait_for_builds();
  CHECK(v.built() == 0);
  // Time enough: the key's next scene starts its build, the one after draws with it.
  v.add_device_time(quick, 1);
  CHECK(v.generic_device_ns() == TileVariants::kDueDeviceNs);
  CHECK(v.select(rp, {}, 3, TileVariantMode::kAuto) == quick);
  v.wait_for_builds();
  const runtime::ProgramRef variant = v.select(rp, {}, 4, TileVariantMode::kAuto);
  CHECK(variant != quick);
  CHECK(v.built() == 1);
  // A variant's launches do not count (it is an optimised program).
  CHECK_FALSE(v.counts_device_time(variant));
  v.add_device_time(variant, 7);
  CHECK(v.generic_device_ns() == TileVariants::kDueDeviceNs);
}

TEST_CASE("tile variants: after the warm-up's interpreter program, keys fall due later",
          "[draw][variants]") {
  DrawFixture fx;
  runtime::ProgramCache cache(test_device(), "");
  GeneratedCode interpreted = fx.varying_fs_code();
  interpreted.body = "// the interpreter of this test\n" + interpreted.body;
  // The warm-up (kWarmUp) builds the interpreter program optimised.
  {
    TileVariants warm_up(cache, fx.varying_fs_code(), {}, ProgramTierMode::kWarmUp, kItems,
                         interpreted);
    REQUIRE(warm_up.generic_interpreted());
  }
  TileVariants v(cache, fx.varying_fs_code(), {}, ProgramTierMode::kAuto, kItems, interpreted);
  const runtime::ProgramRef generic = v.generic();
  REQUIRE(v.generic_interpreted());
  const uint64_t builds = cache.stats().builds;
  const ClpRasterParams rp = sample_params();
  // What makes keys due after a quick generic program is not enough here.
  v.add_device_time(generic, TileVariants::kDueDeviceNs);
  uint64_t scene = 1;
  for (; scene <= 4; ++scene) {
    CHECK(v.select(rp, {}, scene, TileVariantMode::kAuto) == generic);
    v.wait_for_builds();
  }
  CHECK(v.built() == 0);
  CHECK(cache.stats().builds == builds);
  v.add_device_time(generic, TieredProgram::kDueInterpretedDeviceNs - TileVariants::kDueDeviceNs);
  CHECK(v.select(rp, {}, scene++, TileVariantMode::kAuto) == generic);
  v.wait_for_builds();
  CHECK(v.select(rp, {}, scene, TileVariantMode::kAuto) != generic);
  CHECK(v.built() == 1);
}

TEST_CASE("a scene's launches of a quick tile program count their device time",
          "[draw][variants]") {
  ScopedEnv tiers("CLPIPE_QUICK_PROGRAMS", "auto");
  DrawFixture fx;
  constexpr uint32_t kW = 16, kH = 8;
  DrawSetup s = fx.basic_setup(kW, kH);
  s.vs = fx.passthrough_vs(1);
  // A shader of this test only: no earlier run built its optimised program.
  s.fs = fx.custom_fs({},
                      "  io->out[0][0] = (vf)(0.25f); io->out[0][1] = (vf)(0.5f);\n"
                      "  io->out[0][2] = (vf)(0.75f); io->out[0][3] = (vf)(0.125f);\n");
  REQUIRE_FALSE(s.fs.tile_variants->generic_optimised());
  s.cbufs[0] = fx.target(Format::R8G8B8A8_UNORM, kW, kH);
  fx.set_vertices(s, {-1, -1, 0, 1, 3, -1, 0, 1, -1, 3, 0, 1}, 4, {Format::R32G32B32A32_FLOAT});
  fx.pipeline().draw(s, DrawInfo{}, DrawStartCountBias{0, 3, 0}, 0);
  const uint64_t first = s.fs.tile_variants->generic_device_ns();
  CHECK(first > 0);
  fx.pipeline().draw(s, DrawInfo{}, DrawStartCountBias{0, 3, 0}, 0);
  CHECK(s.fs.tile_variants->generic_device_ns() > first);
  CHECK(fx.read(s.cbufs[0], kW, kH).pixel(3, 3)[1] == 128);
}

#ifdef CLPIPE_VTEST_TOOL
TEST_CASE(
    "tile variants: built by builder children in auto, a variant comes with its launches' code",
    "[draw][variants]") {
  DrawFixture fx;
  // The children keep PoCL's kernel cache here (they read POCL_CACHE_DIR as they start).
  const std::string kcache = make_temp_dir("variant-kcache");
  ScopedEnv pocl_cache("POCL_CACHE_DIR", kcache.c_str());
  ProgramBuilderOptions builder;
  builder.executable = CLPIPE_VTEST_TOOL;
  runtime::ProgramCache cache(test_device(), "", 512, builder);
  TileVariants v(cache, fx.varying_fs_code(), {}, ProgramTierMode::kOptimised, kItems);
  const ClpRasterParams rp = sample_params();
  generic_ran_long(v);  // due in its second scene, with no textures
  CHECK(v.select(rp, {}, 1, TileVariantMode::kAuto) == v.generic());
  CHECK(v.select(rp, {}, 2, TileVariantMode::kAuto) == v.generic());
  v.wait_for_builds();
  CHECK(v.select(rp, {}, 3, TileVariantMode::kAuto) != v.generic());
  // PoCL: the tile pass's work-group function was generated before the variant was taken
  // (ProgramBuilder::build_primed); the generic program, built before its first draw in
  // kOptimised, was not primed.
  if (test_device().generates_code_late()) {
    const std::string primed = std::to_string(kItems) + "-1-1-goffs0-smallgrid";
    CHECK(work_group_functions(kcache, "tile_pass").count(primed) == 1);
  }
}
#endif

TEST_CASE("tile variants: in auto, a variant the program cache holds is due in its first scene",
          "[draw][variants]") {
  DrawFixture fx;
  const ClpRasterParams rp = sample_params();
  const TwoTextures t;
  const std::string dir = make_temp_dir("variant-cache");
  ClpRasterParams other = rp;
  other.depth_func = uint32_t(CompareFunc::GREATER);
  {
    // A first run of the program draws both keys long enough to build their variants.
    runtime::ProgramCache cache(test_device(), dir);
    TileVariants v(cache, fx.varying_fs_code(), FsSampling{1, 1, 1}, ProgramTierMode::kOptimised,
                   kItems);
    v.select(rp, t.rgba8(), 1, TileVariantMode::kAlways);
    v.select(rp, {}, 1, TileVariantMode::kAlways);
    REQUIRE(v.built() == 2);
  }
  // A new run (new process: a cache with the same folder and nothing in memory).
  runtime::ProgramCache cache(test_device(), dir);
  TileVariants v(cache, fx.varying_fs_code(), FsSampling{1, 1, 1}, ProgramTierMode::kOptimised,
                 kItems);
  // Both cached keys start loading in their first scene, the textured one included
  // (otherwise due in its kTextureKeyScenes-th scene), without the generic program's
  // device time: the first scene draws generic, the second specialised.
  CHECK(v.select(rp, t.rgba8(), 1, TileVariantMode::kAuto) == v.generic());
  v.wait_for_builds();
  const runtime::ProgramRef with = v.select(rp, t.rgba8(), 2, TileVariantMode::kAuto);
  CHECK(with != v.generic());
  CHECK(v.built() == 2);
  // A key that the first run never drew waits for the device time and its second scene.
  generic_ran_long(v);
  CHECK(v.select(other, {}, 2, TileVariantMode::kAuto) == v.generic());
  v.wait_for_builds();
  CHECK(v.select(other, {}, 3, TileVariantMode::kAuto) == v.generic());
  v.wait_for_builds();
  CHECK(v.select(other, {}, 4, TileVariantMode::kAuto) != v.generic());
  CHECK(v.built() == 3);
  CHECK(cache.stats().builds == 1);  // the new key; the others came from the disk
}

TEST_CASE("tile variants: in auto, a cached textured key starts no build of its stand-in",
          "[draw][variants]") {
  DrawFixture fx;
  const ClpRasterParams rp = sample_params();
  const TwoTextures t;
  const std::string dir = make_temp_dir("variant-cache-textured");
  {
    // A first run builds the textured key only (the key without textures stays unbuilt).
    runtime::ProgramCache cache(test_device(), dir);
    TileVariants v(cache, fx.varying_fs_code(), FsSampling{1, 1, 1}, ProgramTierMode::kOptimised,
                   kItems);
    v.select(rp, t.rgba8(), 1, TileVariantMode::kAlways);
    REQUIRE(v.built() == 1);
  }
  runtime::ProgramCache cache(test_device(), dir);
  TileVariants v(cache, fx.varying_fs_code(), FsSampling{1, 1, 1}, ProgramTierMode::kOptimised,
                 kItems);
  generic_ran_long(v);
  // Scene 1 loads the cached variant and draws generic; from scene 2 on it draws
  // specialised. The key without textures would be due in scene 2, but a build of it
  // would only compete with the frames: none starts.
  CHECK(v.select(rp, t.rgba8(), 1, TileVariantMode::kAuto) == v.generic());
  v.wait_for_builds();
  for (uint64_t scene = 2; scene < 6; ++scene) {
    CHECK(v.select(rp, t.rgba8(), scene, TileVariantMode::kAuto) != v.generic());
    v.wait_for_builds();
  }
  CHECK(v.built() == 1);
  CHECK(cache.stats().builds == 0);
}

TEST_CASE("a tile variant that fails to build leaves its draws on the generic program",
          "[draw][variants]") {
  ScopedEnv env("CLPIPE_TILE_VARIANTS", "always");
  DrawFixture fx;
  constexpr uint32_t kW = 16, kH = 8;
  DrawSetup s = fx.basic_setup(kW, kH);
  s.vs = fx.passthrough_vs(1);
  // Builds only without CLP_TILE_KEY: every variant of this shader fails.
  s.fs = fx.custom_fs({},
                      "#ifdef CLP_TILE_KEY\n#error this test's shader has no variants\n#endif\n"
                      "  io->out[0][0] = (vf)(1.0f); io->out[0][1] = (vf)(0.0f);\n"
                      "  io->out[0][2] = (vf)(1.0f); io->out[0][3] = (vf)(1.0f);\n");
  s.cbufs[0] = fx.target(Format::R8G8B8A8_UNORM, kW, kH);
  fx.set_vertices(s, {-1, -1, 0, 1, 3, -1, 0, 1, -1, 3, 0, 1}, 4, {Format::R32G32B32A32_FLOAT});
  // stderr into a file while three draws of the same state run: one failed build, logged once.
  CaptureStderr capture;
  REQUIRE(capture.capturing());
  for (int draw = 0; draw < 3; ++draw)
    fx.pipeline().draw(s, DrawInfo{}, DrawStartCountBias{0, 3, 0}, 0);
  const std::string text = capture.text();
  CHECK(s.fs.tile_variants->built() == 0);
  INFO("stderr: " << text);
  const std::string line = "specialised tile program failed to build";
  const size_t at = text.find(line);
  CHECK(at != std::string::npos);
  CHECK(text.find(line, at + 1) == std::string::npos);
  const Image img = fx.read(s.cbufs[0], kW, kH);
  uint32_t magenta = 0;
  for (uint32_t y = 0; y < kH; ++y) {
    for (uint32_t x = 0; x < kW; ++x) {
      const uint8_t* p = img.pixel(x, y);
      magenta += p[0] == 255 && p[1] == 0 && p[2] == 255 && p[3] == 255;
    }
  }
  CHECK(magenta == kW * kH);
}

namespace {

// Colour and depth/stencil bytes of a scene of `draws` overlapping triangles, each with
// its own random blend, colour mask, logic op, depth, stencil and alpha-test state,
// recorded into one scene per fragment shader.
struct SceneResult {
  std::vector<uint8_t> color, zs;
  size_t variants = 0;  // specialised programs built
  size_t distinct_keys = 0;
};

// samples > 1: multisampled targets (plane s of each in rows s kH to (s + 1) kH), drawn
// with multisample rasterization and a random sample mask now and then.
SceneResult random_scene(const char* mode, Format color_format, unsigned samples = 1) {
  ScopedEnv env("CLPIPE_TILE_VARIANTS", mode);
  constexpr uint32_t kW = 48, kH = 40;
  DrawFixture fx;
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> pos(-1.2f, 1.2f), depth(-1.0f, 1.0f), col(-0.1f, 1.1f);
  std::uniform_int_distribution<int> u8(0, 255), func(0, 7), op(0, 7), bfn(0, 4), fac(0, 14),
      coin(0, 3), lop(0, 15), mask(0, 15);

  DrawSetup base = fx.basic_setup(kW, kH);
  base.vs = fx.passthrough_vs(2);
  base.fs_links = {ClpFsLink{1, -1, CLP_LINK_ALL_CHANNELS, {0, 0, 0, 1}}};
  // A 4-byte-per-pixel target of random bytes.
  auto random_target = [&](Format f) {
    std::vector<uint8_t> init(size_t(kW) * kH * samples * 4);
    for (uint8_t& b : init)
      b = uint8_t(u8(rng));
    ColorTarget t;
    t.format = f;
    t.pitch = kW * 4;
    t.buffer = fx.buffer(init.data(), init.size());
    t.samples = samples;
    t.sample_rows = kH;
    return t;
  };
  const ColorTarget ct = random_target(color_format);
  const ColorTarget zt = random_target(Format::Z24_UNORM_S8_UINT);
  base.cbufs[0] = ct;
  base.zsbuf = zt;
  base.samples = samples;
  base.rasterizer.multisample = samples > 1;

  SceneResult out;
  for (int scene = 0; scene < 2; ++scene) {
    // A new shader per scene: six draws stay under each shader's cap of variants.
    base.fs = fx.varying_fs();
    std::set<std::vector<uint8_t>> keys;
    for (uint32_t d = 0; d < 6; ++d) {
      DrawSetup s = base;
      RtBlendState& rt = s.blend.rt[0];
      rt.blend_enable = coin(rng) != 0;
      rt.rgb_func = BlendFunc(bfn(rng));
      rt.alpha_func = BlendFunc(bfn(rng));
      rt.rgb_src_factor = kBlendFactors[fac(rng)];
      rt.rgb_dst_factor = kBlendFactors[fac(rng)];
      rt.alpha_src_factor = kBlendFactors[fac(rng)];
      rt.alpha_dst_factor = kBlendFactors[fac(rng)];
      rt.colormask = uint8_t(coin(rng) == 0 ? mask(rng) : 15);
      s.blend.logicop_enable = coin(rng) == 0;
      s.blend.logicop_func = LogicOp(lop(rng));
      for (float& c : s.blend_color.color)
        c = col(rng);
      DepthStencilAlphaState& z = s.dsa;
      z.depth_enabled = coin(rng) != 0;
      z.depth_writemask = coin(rng) != 0;
      z.depth_func = CompareFunc(func(rng));
      z.stencil[0].enabled = coin(rng) == 0;
      z.stencil[0].func = CompareFunc(func(rng));
      z.stencil[0].fail_op = StencilOp(op(rng));
      z.stencil[0].zpass_op = StencilOp(op(rng));
      z.stencil[0].zfail_op = StencilOp(op(rng));
      s.stencil_ref.ref_value[0] = uint8_t(u8(rng));
      z.alpha_enabled = coin(rng) == 0;
      z.alpha_func = CompareFunc(func(rng));
      z.alpha_ref_value = col(rng);
      if (samples > 1 && coin(rng) == 0) s.sample_mask = uint32_t(u8(rng));
      std::vector<float> v;
      for (int i = 0; i < 3; ++i)
        v.insert(v.end(),
                 {pos(rng), pos(rng), depth(rng), 1, col(rng), col(rng), col(rng), col(rng)});
      fx.set_vertices(s, v, 8, {Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT});
      const TileVariantKey key = tile_variant_key(make_raster_params(s));
      const auto* kb = reinterpret_cast<const uint8_t*>(&key);
      keys.insert(std::vector<uint8_t>(kb, kb + sizeof(key)));
      fx.pipeline().record(std::make_shared<const DrawSetup>(s), DrawInfo{},
                           DrawStartCountBias{0, 3, 0}, d);
    }
    fx.pipeline().execute();
    out.variants += base.fs.tile_variants->built();
    out.distinct_keys += keys.size();
  }
  Image c = fx.read(ct, kW, kH * samples), z = fx.read(zt, kW, kH * samples);
  out.color = std::move(c.bytes);
  out.zs = std::move(z.bytes);
  return out;
}

}  // namespace

TEST_CASE("generic and specialised tile programs draw the same pixels", "[draw][variants]") {
  // RGBA8 / BGRA8 / BGRX8 take the across-lanes colour stage (tile_color.h) where no logic
  // op is on; R10G10B10A2 the per-pixel one, like the generic program.
  const Format format = GENERATE(Format::R8G8B8A8_UNORM, Format::B8G8R8A8_UNORM,
                                 Format::B8G8R8X8_UNORM, Format::R10G10B10A2_UNORM);
  CAPTURE(format_desc(format).name);
  const SceneResult generic = random_scene("generic", format);
  const SceneResult specialised = random_scene("always", format);
  CHECK(generic.variants == 0);
  // Every draw of the specialised run had its own variant.
  CHECK(specialised.distinct_keys > 6);
  CHECK(specialised.variants == specialised.distinct_keys);
  // Bit-exact: the variants compute the same arithmetic, only with constants folded.
  CHECK(generic.color == specialised.color);
  CHECK(generic.zs == specialised.zs);
}

TEST_CASE("generic and specialised tile programs draw the same samples", "[draw][variants][msaa]") {
  // The specialised RGBA8 colour stage blends and encodes samples that hold one colour
  // once (tile_color.h); the generic program handles each sample on its own.
  const auto [format, samples] = GENERATE(std::make_pair(Format::R8G8B8A8_UNORM, 4u),
                                          std::make_pair(Format::B8G8R8X8_UNORM, 8u));
  CAPTURE(format_desc(format).name, samples);
  const SceneResult generic = random_scene("generic", format, samples);
  const SceneResult specialised = random_scene("always", format, samples);
  CHECK(specialised.variants == specialised.distinct_keys);
  CHECK(generic.color == specialised.color);
  CHECK(generic.zs == specialised.zs);
}
