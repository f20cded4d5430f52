// The lane-parallel sampling path (kernels/sampling_vec.h) against the per-lane path it
// replaces: the same fragment shader built twice, once as usual and once with
// CLP_TEX_PER_LANE (which turns the lane-parallel path off), must return the same bits
// for every lane. Covered: TEX with quad derivatives, TXB, TXL with a different level per
// lane, TXD with per-lane gradients, texel offsets, 2D arrays, RECT, 3D, cube maps and cube
// arrays (seamless or not), depth compares on 2D, 2D array and cube targets, power-of-two
// and other sizes, every 8-bit UNORM/sRGB and 16-bit float layout and depth format the path
// reads, with and without a compare, stencil-only views, the border wrap modes with a border colour
// partly outside [0, 1] (and formats and wrap modes it declines, which must fall back), view
// swizzles, a first level above 0, and levels cut short by the bound data (robust access: the path
// must decline, not read past it). Four configurations also run with the units' state
// compiled in, as a specialised tile program compiles it (tile_variant.h), which must give
// the same bits as the state read from the descriptors.
// Agreement with the GL rules themselves is sampling_sweep_test.cpp's and
// sampling_ops_test.cpp's (both run through this path).
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compiler/emit/sampling_util.h"
#include "frontend/draw/tile_variant.h"
#include "support/test_device.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::test::sampling;
using emit::HarnessInput;
using emit::HarnessResult;

namespace {

const char* kShader = R"(FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL IN[1], GENERIC[1], PERSPECTIVE
DCL IN[2], GENERIC[2], PERSPECTIVE
DCL OUT[0], COLOR[0]
DCL OUT[1], COLOR[1]
DCL OUT[2], COLOR[2]
DCL OUT[3], COLOR[3]
DCL OUT[4], COLOR[4]
DCL OUT[5], COLOR[5]
DCL OUT[6], COLOR[6]
DCL OUT[7], COLOR[7]
DCL SAMP[0..7]
DCL SVIEW[0], 2D, FLOAT
DCL SVIEW[1], 2D, FLOAT
DCL SVIEW[2], 2D, FLOAT
DCL SVIEW[3], 2D_ARRAY, FLOAT
DCL SVIEW[4], RECT, FLOAT
DCL SVIEW[5], 2D, FLOAT
DCL SVIEW[6], 2D, FLOAT
DCL SVIEW[7], 3D, FLOAT
DCL TEMP[0..1]
IMM[0] INT32 {1, -2, 0, 0}
IMM[1] FLT32 {9.0, 0.0, 0.0, 0.0}
  0: TEX OUT[0], IN[0], SAMP[0], 2D
  1: TXB OUT[1], IN[0], SAMP[1], 2D
  2: TXL OUT[2], IN[0], SAMP[2], 2D
  3: MOV TEMP[0].xyw, IN[0]
  4: MOV TEMP[0].z, IN[1].wwww
  5: TEX OUT[3], TEMP[0], SAMP[3], 2D_ARRAY
  6: MUL TEMP[1], IN[0], IMM[1].xxxx
  7: TEX OUT[4], TEMP[1], SAMP[4], RECT
  8: TEX OUT[5], IN[0], SAMP[5], 2D, IMM[0].xyy
  9: TXD OUT[6], IN[0], IN[1], IN[2], SAMP[6], 2D
 10: TEX OUT[7], IN[0], SAMP[7], 3D, IMM[0].xyx
 11: END
)";

// Formats the path decodes (depth formats sampled without a compare too, stencil views
// where no linear filter applies), then two it declines.
const Format kFormats[] = {Format::R8G8B8A8_UNORM,     Format::B8G8R8A8_UNORM,
                           Format::R8_UNORM,           Format::R8G8_UNORM,
                           Format::B8G8R8X8_SRGB,      Format::L8A8_UNORM,
                           Format::A8_UNORM,           Format::R8G8B8A8_SRGB,
                           Format::I8_UNORM,           Format::L8A8_SRGB,
                           Format::R16_FLOAT,          Format::R16G16_FLOAT,
                           Format::R16G16B16A16_FLOAT, Format::Z24_UNORM_S8_UINT,
                           Format::Z16_UNORM,          Format::Z32_FLOAT,
                           Format::Z24X8_UNORM,        Format::S8_UINT_Z24_UNORM,
                           Format::X8Z24_UNORM,        Format::X24S8_UINT,
                           Format::S8X24_UINT,         Format::S8_UINT,
                           Format::X32_S8X24_UINT,     Format::R8G8B8A8_SNORM,
                           Format::R32G32B32A32_FLOAT};

// One unit of a test shader: its texture's shape and whether it compares depth.
struct Unit {
  TexShape shape;
  bool shadow;
};

// Depth formats the path compares against, then one it declines.
const Format kDepthFormats[] = {Format::Z16_UNORM,           Format::Z24_UNORM_S8_UINT,
                                Format::Z24X8_UNORM,         Format::S8_UINT_Z24_UNORM,
                                Format::X8Z24_UNORM,         Format::Z32_FLOAT,
                                Format::Z32_FLOAT_S8X24_UINT};

// Requires the same bits from runs a and b of `in` (configuration k) in every lane and
// channel of every unit.
void compare(const HarnessInput& in, uint32_t k, const HarnessResult& a, const char* a_name,
             const HarnessResult& b, const char* b_name) {
  REQUIRE(a.out.size() == b.out.size());
  const uint32_t n = uint32_t(in.textures.size());
  for (uint32_t i = 0; i < in.count; ++i) {
    for (uint32_t t = 0; t < n; ++t) {
      for (uint32_t c = 0; c < 4; ++c) {
        if (a.u(i, t, c) == b.u(i, t, c)) continue;
        const ClpSamplerState& smp = in.textures.at(t).sampler;
        FAIL("config " << k << " unit " << t << " ("
                       << format_name(Format(in.textures.at(t).view.format)) << ", wrap "
                       << smp.wrap[0] << "/" << smp.wrap[1] << ", seamless "
                       << smp.seamless_cube_map << ") lane " << i << " channel " << c << ": "
                       << a_name << " " << a.f(i, t, c) << ", " << b_name << " " << b.f(i, t, c));
      }
    }
  }
}

// What a specialised tile program puts before the prelude for draws that bind the
// textures of `in` (units 0..n-1).
std::string keyed_defines(const HarnessInput& in) {
  std::vector<ClpTexView> views;
  std::vector<ClpSamplerState> samplers;
  for (const auto& [unit, tex] : in.textures) {
    REQUIRE(unit == views.size());
    views.push_back(tex.view);
    samplers.push_back(tex.sampler);
  }
  const uint32_t n = uint32_t(views.size());
  const frontend::draw::TileVariantKey key = frontend::draw::tile_variant_key(
      ClpRasterParams{}, frontend::draw::FsTextures{views.data(), n, samplers.data(), n});
  for (uint32_t u = 0; u < n; ++u) {
    REQUIRE(key.view_word[u] != CLP_TEX_UNKEYED);
    REQUIRE(key.sampler_word[u] != CLP_TEX_UNKEYED);
  }
  return frontend::draw::tile_variant_defines(key);
}

// Runs `shader` over 24 texture and sampler configurations, with and without the
// lane-parallel path, and requires the same bits from both for every lane and unit.
// Inputs: IN[0] = (s, t, r, lod), IN[1] = (ddx, layer), IN[2] = (ddy, ref).
void check_same_bits(const char* shader, const std::vector<Unit>& units) {
  std::mt19937 rng(4242);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  HarnessInput in;
  in.tgsi = shader;
  const uint32_t quads = 64;
  in.count = quads * 4;
  for (uint32_t q = 0; q < quads; ++q) {
    // Coordinates: a base plus per-lane steps of 1/64 to 4 texture widths, so that quads
    // magnify, minify over several levels, or both within one work-item.
    const float s0 = -1.5f + 4.0f * u(rng), t0 = -1.5f + 4.0f * u(rng);
    const float r0 = -1.5f + 4.0f * u(rng);
    const float step = std::ldexp(1.0f, int(q % 9) - 6);
    for (uint32_t l = 0; l < 4; ++l) {
      const float s = s0 + float(l & 1) * step * (u(rng) - 0.3f);
      const float t = t0 + float(l >> 1) * step * (u(rng) - 0.4f);
      const float r = r0 + float(l & 1) * step * (u(rng) - 0.5f);
      const float lod = -1.0f + 7.0f * u(rng);  // TXB bias, TXL level: per lane
      const float layer = -0.8f + 4.0f * u(rng), ref = -0.1f + 1.2f * u(rng);
      in.in.insert(in.in.end(), {fb(s), fb(t), fb(r), fb(lod)});
      in.in.insert(in.in.end(), {fb(step * u(rng)), fb(step * (u(rng) - 0.5f)),
                                 fb(step * (u(rng) - 0.5f)), fb(layer)});
      in.in.insert(in.in.end(), {fb(step * (u(rng) - 0.5f)), fb(step * u(rng)),
                                 fb(step * (u(rng) - 0.5f)), fb(ref)});
    }
  }
  const uint32_t n = uint32_t(units.size());
  for (uint32_t k = 0; k < 24; ++k) {
    for (uint32_t t = 0; t < n; ++t) {
      TextureBinding& tex = in.textures[t];
      const size_t nf = sizeof(kFormats) / sizeof(kFormats[0]);
      const size_t nd = sizeof(kDepthFormats) / sizeof(kDepthFormats[0]);
      const Format f = units[t].shadow ? kDepthFormats[(k + t) % nd] : kFormats[(k + 5 * t) % nf];
      tex = random_texture(units[t].shape, f, rng);
      if (f == Format::Z32_FLOAT) {
        // Depths of exactly 0 and 1, where a reference outside [0, 1] compares differently
        // clamped (fixed-point depth) and unclamped (float depth).
        for (size_t b = 0; b + 4 <= tex.data.size(); b += 4) {
          const float edge = (b / 4) % 3 == 0 ? 1.0f : 0.0f;
          if ((b / 4) % 3 != 2) std::memcpy(&tex.data[b], &edge, 4);
        }
      }
      ClpSamplerState& s = tex.sampler;
      // Wrap modes: the four that stay inside, mostly; the border ones (which the path
      // takes but for the mirror-clamp ones) now and then.
      const uint32_t inside[4] = {CLP_WRAP_REPEAT, CLP_WRAP_MIRROR_REPEAT, CLP_WRAP_CLAMP_TO_EDGE,
                                  CLP_WRAP_MIRROR_CLAMP_TO_EDGE};
      s.wrap[0] = (k + t) % 7 == 6   ? CLP_WRAP_CLAMP_TO_BORDER
                  : (k + t) % 9 == 4 ? CLP_WRAP_CLAMP
                                     : inside[(k + t) % 4];
      s.wrap[1] = (k + 2 * t) % 6 == 1    ? CLP_WRAP_CLAMP_TO_BORDER
                  : (k + 2 * t) % 11 == 3 ? CLP_WRAP_MIRROR_CLAMP_TO_BORDER
                                          : inside[(k / 4 + t) % 4];
      s.wrap[2] = (k + t) % 5 == 4 ? CLP_WRAP_CLAMP : inside[(k / 2 + t) % 4];
      // A border colour partly outside [0, 1], which unsigned normalized formats clamp.
      const float border[4] = {1.25f, 0.375f, -0.5f, 0.75f};
      for (int c = 0; c < 4; ++c) {
        float b = border[(c + k + t) % 4];
        std::memcpy(&s.border_color[c], &b, 4);
      }
      s.min_img_filter = (k + t) % 2;
      s.mag_img_filter = (k / 2 + t) % 2;
      s.min_mip_filter = (k / 3 + t) % 3;
      s.lod_bias = k % 5 == 1 ? 0.75f : 0.0f;
      if (k % 6 == 2) s.min_lod = 0.5f, s.max_lod = 2.5f;
      s.seamless_cube_map = (k + t) % 3 != 0;
      s.compare_mode = units[t].shadow && k % 8 != 7;  // 7: a shadow target without compare
      s.compare_func = k % 8;
      ClpTexView& v = tex.view;
      if (k % 2 == 1) {
        for (int c = 0; c < 4; ++c)
          v.swizzle[c] = rng() % 6;
      }
      if (v.last_level >= 2 && k % 4 == 3) v.first_level = 1;
      // Robust access: the bound data ends inside the last level.
      if (k % 5 == 4 && v.last_level > 0) v.data_size = v.level_offset[v.last_level] + 3;
    }
    const HarnessResult vec = emit::run_shader(in);
    HarnessInput per_lane = in;
    per_lane.defines = "#define CLP_TEX_PER_LANE 1\n";
    const HarnessResult ref = emit::run_shader(per_lane);
    compare(in, k, vec, "lane-parallel", ref, "per lane");
    if (k < 4) {
      // The same with the units' state compiled in, as a specialised tile program has it.
      // Configurations 0..3 give the units every format of kFormats; each costs a build
      // with eight copies of the path.
      HarnessInput keyed = in;
      keyed.defines = keyed_defines(in);
      compare(in, k, emit::run_shader(keyed), "compiled-in state", vec, "descriptors' state");
    }
  }
}

}  // namespace

TEST_CASE("sampling: the lane-parallel path returns the per-lane path's bits",
          "[emit][tex][sampling]") {
  check_same_bits(kShader, {{{CLP_TEXTARGET_2D, 16, 8, 1, 1, 5}, false},
                            {{CLP_TEXTARGET_2D, 12, 10, 1, 1, 4}, false},
                            {{CLP_TEXTARGET_2D, 16, 16, 1, 1, 5}, false},
                            {{CLP_TEXTARGET_2D_ARRAY, 8, 8, 1, 3, 4}, false},
                            {{CLP_TEXTARGET_RECT, 7, 5, 1, 1, 1}, false},
                            {{CLP_TEXTARGET_2D, 8, 8, 1, 1, 4}, false},
                            {{CLP_TEXTARGET_2D, 32, 8, 1, 1, 6}, false},
                            {{CLP_TEXTARGET_3D, 8, 4, 8, 1, 4}, false}});
}

TEST_CASE("sampling: the lane-parallel path on cube maps and depth compares",
          "[emit][tex][sampling]") {
  check_same_bits(R"(FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL IN[1], GENERIC[1], PERSPECTIVE
DCL IN[2], GENERIC[2], PERSPECTIVE
DCL OUT[0], COLOR[0]
DCL OUT[1], COLOR[1]
DCL OUT[2], COLOR[2]
DCL OUT[3], COLOR[3]
DCL OUT[4], COLOR[4]
DCL OUT[5], COLOR[5]
DCL OUT[6], COLOR[6]
DCL SAMP[0..6]
DCL SVIEW[0], CUBE, FLOAT
DCL SVIEW[1], CUBE, FLOAT
DCL SVIEW[2], CUBEARRAY, FLOAT
DCL SVIEW[3], SHADOW2D, FLOAT
DCL SVIEW[4], SHADOWCUBE, FLOAT
DCL SVIEW[5], SHADOW2D_ARRAY, FLOAT
DCL SVIEW[6], 3D, FLOAT
DCL TEMP[0..3]
  0: TEX OUT[0], IN[0], SAMP[0], CUBE
  1: TXD OUT[1], IN[0], IN[1], IN[2], SAMP[1], CUBE
  2: MOV TEMP[0].xyz, IN[0]
  3: MOV TEMP[0].w, IN[1].wwww
  4: TEX OUT[2], TEMP[0], SAMP[2], CUBEARRAY
  5: MOV TEMP[1].xy, IN[0]
  6: MOV TEMP[1].z, IN[2].wwww
  7: TEX OUT[3], TEMP[1], SAMP[3], SHADOW2D
  8: MOV TEMP[2].xyz, IN[0]
  9: MOV TEMP[2].w, IN[2].wwww
 10: TEX OUT[4], TEMP[2], SAMP[4], SHADOWCUBE
 11: MOV TEMP[3].xy, IN[0]
 12: MOV TEMP[3].z, IN[1].wwww
 13: MOV TEMP[3].w, IN[2].wwww
 14: TEX OUT[5], TEMP[3], SAMP[5], SHADOW2D_ARRAY
 15: TXD OUT[6], IN[0], IN[1], IN[2], SAMP[6], 3D
 16: END
)",
                  {{{CLP_TEXTARGET_CUBE, 8, 8, 1, 6, 4}, false},
                   {{CLP_TEXTARGET_CUBE, 16, 16, 1, 6, 5}, false},
                   {{CLP_TEXTARGET_CUBE_ARRAY, 8, 8, 1, 12, 4}, false},
                   {{CLP_TEXTARGET_2D, 16, 8, 1, 1, 5}, true},
                   {{CLP_TEXTARGET_CUBE, 8, 8, 1, 6, 4}, true},
                   {{CLP_TEXTARGET_2D_ARRAY, 8, 8, 1, 3, 4}, true},
                   {{CLP_TEXTARGET_3D, 6, 8, 5, 1, 3}, false}});
}

TEST_CASE("sampling: a specialised program samples with the state it compiled in",
          "[emit][tex][sampling]") {
  // The key says swizzle (1, 1, 1, 1), or R8; the descriptor says identity and RGBA8. The
  // compiled-in state decides the results where the lane-parallel path runs (so the key
  // reaches it), the descriptor's where it does not (one lane per call).
  std::mt19937 rng(99);
  HarnessInput in;
  in.tgsi = R"(FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR[0]
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
  0: TEX OUT[0], IN[0], SAMP[0], 2D
  1: END
)";
  in.count = 16;
  for (uint32_t i = 0; i < in.count; ++i)
    in.in.insert(in.in.end(), {fb(0.1f + 0.05f * float(i)), fb(0.3f), 0, 0});
  in.textures[0] =
      random_texture(TexShape{CLP_TEXTARGET_2D, 8, 8, 1, 1, 1}, Format::R8G8B8A8_UNORM, rng);
  const HarnessResult plain = emit::run_shader(in);

  auto keyed_with = [&](auto change) {
    HarnessInput k = in;
    ClpTexView v = in.textures[0].view;
    ClpSamplerState s = in.textures[0].sampler;
    change(v);
    k.defines = frontend::draw::tile_variant_defines(frontend::draw::tile_variant_key(
        ClpRasterParams{}, frontend::draw::FsTextures{&v, 1, &s, 1}));
    return emit::run_shader(k);
  };
  auto all_ones = [](ClpTexView& v) {
    for (uint32_t& c : v.swizzle)
      c = uint32_t(Swizzle::ONE);
  };
  const HarnessResult ones = keyed_with(all_ones);
  const HarnessResult r8 = keyed_with([](ClpTexView& v) { v.format = uint32_t(Format::R8_UNORM); });
  // (An implicit-LOD TEX gets 4 lanes even from a one-lane device: emit.h.)
  const bool lanes = plain.compiled.code.lanes > 1;
  for (uint32_t i = 0; i < in.count; ++i) {
    INFO("lane " << i);
    for (uint32_t c = 0; c < 4; ++c)
      CHECK(ones.f(i, 0, c) == (lanes ? 1.0f : plain.f(i, 0, c)));
    // R8: texel (x, 2) is byte x of row 2.
    const ClpTexView& v = in.textures[0].view;
    const uint32_t x = uint32_t((0.1f + 0.05f * float(i)) * 8.0f);
    const float r = float(in.textures[0].data.at(v.level_offset[0] + 2 * v.row_pitch[0] + x)) / 255;
    CHECK(r8.f(i, 0, 0) == (lanes ? Approx(r).margin(1e-6) : Approx(plain.f(i, 0, 0))));
    CHECK(r8.f(i, 0, 1) == (lanes ? 0.0f : plain.f(i, 0, 1)));
    CHECK(r8.f(i, 0, 3) == (lanes ? 1.0f : plain.f(i, 0, 3)));
  }
}
