// Caps: the GL-version evaluator against the blobs that real Mesa turned into GL 2.1..3.3,
// and the blob built from a fake Screen's caps.
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <iterator>

#include "vtest/caps.h"
#include "vtest/formats.h"
#include "vtest/vtest_test_util.h"

using namespace clpipe;
using namespace clpipe::vtest_test;

namespace {

CapsBlob load_blob(const std::string& name) {
  std::ifstream f(capture_dir() + "/caps/" + name + ".caps2.bin", std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  REQUIRE(bytes.size() == kCapsV2Bytes);
  CapsBlob b;
  std::memcpy(b.data(), bytes.data(), b.size());
  return b;
}

void set_u32(CapsBlob& b, uint32_t off, uint32_t v) {
  std::memcpy(b.data() + off, &v, 4);
}
void clear_bit(CapsBlob& b, uint32_t off, uint32_t bit) {
  set_u32(b, off, caps_u32(b.data(), off) & ~bit);
}

struct Expect {
  unsigned compat, core;
};

Expect gl(const CapsBlob& b) {
  const GlVersion v = mesa_gl_version(b);
  return {v.compat, v.core};
}

CapsBlob build(const FakeConfig& cfg, CapsOptions opts = {}) {
  FakeScreen s(cfg);
  return build_caps(s, opts);
}

}  // namespace

TEST_CASE("vtest caps: the evaluator reproduces what Mesa made of the minimal blobs",
          "[vtest][caps]") {
  // Verified with wflinfo through the capture proxy (caps/caps_experiments.md).
  const std::pair<const char*, Expect> kBlobs[] = {
      {"min-gl21", {21, 0}},
      {"min-gl30", {30, 0}},
      {"min-gl31", {31, 0}},
      {"min-gl32", {32, 32}},
      {"min-gl33", {33, 33}},
      {"min-gl33-no-cap-transfer", {33, 33}},
      // GL 4.3 really; this server's evaluator models levels up to 3.3.
      {"server-virglrenderer-0.10.4-llvmpipe", {33, 33}},
  };
  for (const auto& [name, want] : kBlobs) {
    INFO(name);
    const Expect got = gl(load_blob(name));
    CHECK(got.compat == want.compat);
    CHECK(got.core == want.core);
  }
}

TEST_CASE("vtest caps: single-field rewrites give the GL versions of the caps experiments",
          "[vtest][caps]") {
  // Rows of caps/caps_experiments.md, applied to the min-gl33 blob.
  const CapsBlob base = load_blob("min-gl33");
  struct Row {
    const char* what;
    std::function<void(CapsBlob&)> edit;
    Expect want;
  };
  const Row kRows[] = {
      {"glsl 150", [](CapsBlob& b) { set_u32(b, CapsOffset::GLSL_LEVEL, 150); }, {32, 32}},
      {"glsl 140", [](CapsBlob& b) { set_u32(b, CapsOffset::GLSL_LEVEL, 140); }, {31, 0}},
      {"glsl 130", [](CapsBlob& b) { set_u32(b, CapsOffset::GLSL_LEVEL, 130); }, {30, 0}},
      {"glsl 120", [](CapsBlob& b) { set_u32(b, CapsOffset::GLSL_LEVEL, 120); }, {21, 0}},
      {"hfcv 5",
       [](CapsBlob& b) { set_u32(b, CapsOffset::HOST_FEATURE_CHECK_VERSION, 5); },
       {31, 33}},
      {"max_samples 0", [](CapsBlob& b) { set_u32(b, CapsOffset::MAX_SAMPLES, 0); }, {21, 0}},
      {"max_samples 2", [](CapsBlob& b) { set_u32(b, CapsOffset::MAX_SAMPLES, 2); }, {21, 0}},
      {"max_samples 4 without texture_multisample",
       [](CapsBlob& b) { set_u32(b, CapsOffset::MAX_SAMPLES, 4); },
       {21, 0}},
      {"no dual source",
       [](CapsBlob& b) { set_u32(b, CapsOffset::MAX_DUAL_SOURCE_RENDER_TARGETS, 0); },
       {32, 32}},
      {"-occlusion_query",
       [](CapsBlob& b) { clear_bit(b, CapsOffset::BSET, Bset::OCCLUSION_QUERY); },
       {32, 32}},
      {"max_uniform_blocks 12",
       [](CapsBlob& b) { set_u32(b, CapsOffset::MAX_UNIFORM_BLOCKS, 12); },
       {30, 0}},
      {"max_shader_sampler_views 15",
       [](CapsBlob& b) { set_u32(b, CapsOffset::MAX_SHADER_SAMPLER_VIEWS, 15); },
       {30, 0}},
      {"max_tbo_size 0", [](CapsBlob& b) { set_u32(b, CapsOffset::MAX_TBO_SIZE, 0); }, {30, 0}},
      {"-primitive_restart",
       [](CapsBlob& b) { clear_bit(b, CapsOffset::BSET, Bset::PRIMITIVE_RESTART); },
       {30, 0}},
      {"-depth_clip_disable",
       [](CapsBlob& b) { clear_bit(b, CapsOffset::BSET, Bset::DEPTH_CLIP_DISABLE); },
       {31, 0}},
      {"-seamless_cube_map",
       [](CapsBlob& b) { clear_bit(b, CapsOffset::BSET, Bset::SEAMLESS_CUBE_MAP); },
       {31, 0}},
      {"max_streamout_buffers 0",
       [](CapsBlob& b) { set_u32(b, CapsOffset::MAX_STREAMOUT_BUFFERS, 0); },
       {21, 0}},
      {"-conditional_render",
       [](CapsBlob& b) { clear_bit(b, CapsOffset::BSET, Bset::CONDITIONAL_RENDER); },
       {21, 0}},
      {"-indep_blend_enable",
       [](CapsBlob& b) { clear_bit(b, CapsOffset::BSET, Bset::INDEP_BLEND_ENABLE); },
       {21, 0}},
      {"max_texture_array_layers 0",
       [](CapsBlob& b) { set_u32(b, CapsOffset::MAX_TEXTURE_ARRAY_LAYERS, 0); },
       {21, 0}},
      {"max_render_targets 2",
       [](CapsBlob& b) { set_u32(b, CapsOffset::MAX_RENDER_TARGETS, 2); },
       {21, 0}},
      {"-SRGB_WRITE_CONTROL",
       [](CapsBlob& b) { clear_bit(b, CapsOffset::CAPABILITY_BITS, VirglCap::SRGB_WRITE_CONTROL); },
       {21, 0}},
      {"hfcv 0 -SRGB_WRITE_CONTROL",
       [](CapsBlob& b) {
         set_u32(b, CapsOffset::HOST_FEATURE_CHECK_VERSION, 0);
         clear_bit(b, CapsOffset::CAPABILITY_BITS, VirglCap::SRGB_WRITE_CONTROL);
       },
       {31, 33}},
      {"-color_clamping",
       [](CapsBlob& b) { clear_bit(b, CapsOffset::BSET, Bset::COLOR_CLAMPING); },
       {33, 33}},
  };
  for (const Row& r : kRows) {
    INFO(r.what);
    CapsBlob b = base;
    r.edit(b);
    const Expect got = gl(b);
    CHECK(got.compat == r.want.compat);
    CHECK(got.core == r.want.core);
  }
}

TEST_CASE("vtest caps: a GL 3.3-capable screen yields a blob Mesa turns into GL 3.3",
          "[vtest][caps]") {
  const CapsBlob b = build(gl33_config());
  const CapsBlob ref = load_blob("min-gl33");
  const uint8_t* p = b.data();
  const GlVersion v = mesa_gl_version(b);
  CHECK(v.compat == 33);
  CHECK(v.core == 33);
  CHECK(v.missing.empty());
  // The fields that gate GL 3.0 .. 3.3 (doc 5.3), next to the verified minimal blob.
  for (uint32_t off :
       {uint32_t(CapsOffset::GLSL_LEVEL), uint32_t(CapsOffset::MAX_SAMPLES),
        uint32_t(CapsOffset::MAX_SHADER_SAMPLER_VIEWS),
        uint32_t(CapsOffset::HOST_FEATURE_CHECK_VERSION), uint32_t(CapsOffset::PRIM_MASK),
        uint32_t(CapsOffset::MAX_STREAMOUT_BUFFERS),
        uint32_t(CapsOffset::MAX_DUAL_SOURCE_RENDER_TARGETS),
        uint32_t(CapsOffset::MAX_TEXTURE_ARRAY_LAYERS), uint32_t(CapsOffset::MAX_TBO_SIZE),
        uint32_t(CapsOffset::MAX_RENDER_TARGETS), uint32_t(CapsOffset::MAX_VIEWPORTS),
        uint32_t(CapsOffset::MAX_UNIFORM_BLOCK_SIZE)}) {
    INFO("offset " << off);
    CHECK(caps_u32(p, off) == caps_u32(ref.data(), off));
  }
  CHECK(caps_u32(p, CapsOffset::MAX_UNIFORM_BLOCKS) >= 13);
  const uint32_t ref_bset = caps_u32(ref.data(), CapsOffset::BSET);
  CHECK((caps_u32(p, CapsOffset::BSET) & ref_bset) == ref_bset);
  const uint32_t need = VirglCap::SRGB_WRITE_CONTROL | VirglCap::TRANSFER |
                        VirglCap::FBO_MIXED_COLOR_FORMATS | VirglCap::COPY_TRANSFER;
  CHECK((caps_u32(p, CapsOffset::CAPABILITY_BITS) & need) == need);
  CHECK(caps_u32(p, CapsOffset::MAX_VERSION) == 2);
  CHECK(std::string(reinterpret_cast<const char*>(p + CapsOffset::RENDERER)) == "clpipe (fake)");
  // No atomic counters, compute, tessellation or SSBOs: the fake has none.
  CHECK(caps_u32(p, CapsOffset::MAX_ATOMIC_COUNTERS) == 0);
  CHECK(caps_u32(p, CapsOffset::MAX_SHADER_BUFFER_FRAG_COMPUTE) == 0);
  CHECK((caps_u32(p, CapsOffset::CAPABILITY_BITS) & VirglCap::COMPUTE_SHADER) == 0);
  CHECK((caps_u32(p, CapsOffset::BSET) & Bset::HAS_TESSELLATION_SHADERS) == 0);

  const auto v1 = caps_v1(b);
  CHECK(v1.size() == 308);
  CHECK(caps_u32(v1.data(), CapsOffset::MAX_VERSION) == 1);
  CHECK(std::equal(v1.begin() + 4, v1.end(), b.begin() + 4));
}

TEST_CASE("vtest caps: format masks are what the screen supports", "[vtest][caps]") {
  // A screen supporting exactly the formats of min-gl33 reproduces its masks bit for bit.
  const CapsBlob ref = load_blob("min-gl33");
  FakeConfig cfg = gl33_config();
  cfg.formats = [&ref](Format f, TextureTarget t, unsigned samples, uint32_t bind) {
    const uint32_t v = format_to_virgl(f);
    if (samples > 1 || v == 0 || t != TextureTarget::TEXTURE_2D) return false;
    if (bind & Bind::RENDER_TARGET) return caps_has_format(ref.data(), CapsOffset::RENDER, v);
    if (bind & Bind::SAMPLER_VIEW) return caps_has_format(ref.data(), CapsOffset::SAMPLER, v);
    return false;
  };
  const CapsBlob b = build(cfg);
  for (uint32_t mask : {uint32_t(CapsOffset::SAMPLER), uint32_t(CapsOffset::RENDER)})
    for (uint32_t v = 0; v < kVirglFormatMaskBits; ++v) {
      INFO("mask " << mask << " format " << v);
      CHECK(caps_has_format(b.data(), mask, v) == caps_has_format(ref.data(), mask, v));
    }
  CHECK(mesa_gl_version(b).compat == 33);
}

TEST_CASE("vtest caps: missing screen caps lower the advertised GL level honestly",
          "[vtest][caps]") {
  struct Case {
    const char* what;
    std::function<void(FakeConfig&)> edit;
    unsigned gl, glsl;
  };
  const Case kCases[] = {
      {"no dual-source blending",
       [](FakeConfig& c) { c.caps.erase(Cap::MAX_DUAL_SOURCE_RENDER_TARGETS); }, 32, 150},
      {"no occlusion queries", [](FakeConfig& c) { c.caps.erase(Cap::OCCLUSION_QUERY); }, 32, 150},
      {"no depth clamp", [](FakeConfig& c) { c.caps.erase(Cap::DEPTH_CLIP_DISABLE); }, 31, 140},
      {"no primitive restart", [](FakeConfig& c) { c.caps.erase(Cap::PRIMITIVE_RESTART); }, 30,
       130},
      {"12 constant buffers",
       [](FakeConfig& c) {
         for (ShaderType s : {ShaderType::VERTEX, ShaderType::FRAGMENT, ShaderType::GEOMETRY})
           c.shader_caps[{s, ShaderCap::MAX_CONST_BUFFERS}] = 12;
       },
       30, 130},
      {"no conditional rendering", [](FakeConfig& c) { c.caps.erase(Cap::CONDITIONAL_RENDER); }, 21,
       120},
      {"no sRGB rendering",
       [](FakeConfig& c) {
         auto inner = c.formats;
         c.formats = [inner](Format f, TextureTarget t, unsigned n, uint32_t bind) {
           return !(format_is_srgb(f) && (bind & Bind::RENDER_TARGET)) && inner(f, t, n, bind);
         };
       },
       21, 120},
      {"no float render targets",
       [](FakeConfig& c) {
         auto inner = c.formats;
         c.formats = [inner](Format f, TextureTarget t, unsigned n, uint32_t bind) {
           return !(f == Format::R32G32B32A32_FLOAT && (bind & Bind::RENDER_TARGET)) &&
                  inner(f, t, n, bind);
         };
       },
       21, 120},
      {"GLSL 1.40 compiler",
       [](FakeConfig& c) {
         c.caps[Cap::GLSL_FEATURE_LEVEL] = 140;
         c.caps[Cap::GLSL_FEATURE_LEVEL_COMPATIBILITY] = 140;
       },
       31, 140},
  };
  for (const Case& k : kCases) {
    INFO(k.what);
    FakeConfig cfg = gl33_config();
    k.edit(cfg);
    const CapsBlob b = build(cfg);
    CHECK(mesa_gl_version(b).compat == k.gl);
    CHECK(caps_u32(b.data(), CapsOffset::GLSL_LEVEL) == k.glsl);
    // A missing feature is named; a lower GLSL compiler level is not a missing feature.
    CHECK(mesa_gl_version(b).missing.empty() == (std::string(k.what) == "GLSL 1.40 compiler"));
  }
  CapsOptions capped;
  capped.max_gl_version = 31;
  const CapsBlob b = build(gl33_config(), capped);
  CHECK(caps_u32(b.data(), CapsOffset::GLSL_LEVEL) == 140);
  CHECK(mesa_gl_version(b).compat == 31);
  CHECK(mesa_gl_version(b).core == 0);
}

TEST_CASE("vtest caps: real multisampling and features map onto their bits", "[vtest][caps]") {
  FakeConfig cfg = gl33_config();
  cfg.caps[Cap::TEXTURE_MULTISAMPLE] = 1;
  cfg.caps[Cap::SAMPLER_VIEW_TARGET] = 1;
  cfg.caps[Cap::FRAMEBUFFER_NO_ATTACHMENT] = 1;
  cfg.caps[Cap::QUERY_TIME_ELAPSED] = 1;
  cfg.caps[Cap::QUERY_TIMESTAMP] = 1;
  cfg.caps[Cap::MAX_COMBINED_HW_ATOMIC_COUNTERS] = 8;
  cfg.caps[Cap::BLEND_EQUATION_ADVANCED] = 1;
  auto inner = cfg.formats;
  cfg.formats = [inner](Format f, TextureTarget t, unsigned n, uint32_t bind) {
    return (n == 4 || n == 8) ? !format_is_depth_or_stencil(f) && (bind & Bind::RENDER_TARGET)
                              : inner(f, t, n, bind);
  };
  const CapsBlob b = build(cfg);
  const uint8_t* p = b.data();
  CHECK(caps_u32(p, CapsOffset::MAX_SAMPLES) == 8);
  CHECK(caps_u32(p, CapsOffset::BSET) & Bset::TEXTURE_MULTISAMPLE);
  CHECK(caps_u32(p, CapsOffset::BSET) & Bset::TIMER_QUERY);
  CHECK(caps_u32(p, CapsOffset::CAPABILITY_BITS) & VirglCap::TEXTURE_VIEW);
  CHECK(caps_u32(p, CapsOffset::CAPABILITY_BITS) & VirglCap::FB_NO_ATTACH);
  CHECK(caps_has_format(p, CapsOffset::SUPPORTED_MULTISAMPLE_FORMATS, 67));
  // Sample positions as Mesa's virgl_get_sample_position reads them: a byte per sample,
  // x / 16 in the high nibble; 2 samples in word 0, 4 in word 1, 8 in words 2 and 3.
  auto location = [&](unsigned word, unsigned i) {
    return (caps_u32(p, CapsOffset::SAMPLE_LOCATIONS + 4 * word) >> (8 * i)) & 0xffu;
  };
  for (unsigned i = 0; i < 4; ++i) {
    CHECK(location(1, i) == ((1 + i) << 4 | (15 - i)));
    CHECK(location(3, i) == ((5 + i) << 4 | (11 - i)));
  }
  CHECK(location(0, 1) == (2u << 4 | 14u));
  CHECK(location(4, 0) == 0u);                                        // no 16 samples
  CHECK(caps_u32(p, CapsOffset::MAX_COMBINED_ATOMIC_COUNTERS) == 0);  // no API to bind them
  // Advanced blend equations would arrive in a field BlendState cannot carry.
  CHECK((caps_u32(p, CapsOffset::CAPABILITY_BITS_V2) & VirglCapV2::BLEND_EQUATION) == 0);
  CHECK(mesa_gl_version(b).compat == 33);
}
