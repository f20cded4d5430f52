// The lane-parallel sampling path (kernels/sampling_vec.h) against the per-lane path it
// replaces: the same fragment shader built twice, once as usual and once with
// CLP_TEX_PER_LANE (which turns the lane-parallel path off), must return the same bits
// for every lane. Covered: TEX with quad derivatives, TXB, TXL with a different level per
// lane, TXD with per-lane gradients, texel offsets, 2D arrays, RECT, 3D, cube maps and cube
// arrays (seamless or not), depth compares on 2D, 2D array and cube targets, power-of-two
// and other sizes, every 8-bit UNORM/sRGB and 16-bit float layout and depth format the path
// reads (and formats and wrap modes it declines, which must fall back), view swizzles, a
// first level above 0, and levels cut short by the bound data (robust access: the path
// must decline, not read past it).
// Agreement with the GL rules themselves is sampling_sweep_test.cpp's and
// sampling_ops_test.cpp's (both run through this path).
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compiler/emit/sampling_util.h"

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

// Formats the path decodes, then two it declines.
const Format kFormats[] = {
    Format::R8G8B8A8_UNORM,     Format::B8G8R8A8_UNORM, Format::R8_UNORM,
    Format::R8G8_UNORM,         Format::B8G8R8X8_SRGB,  Format::L8A8_UNORM,
    Format::A8_UNORM,           Format::R8G8B8A8_SRGB,  Format::I8_UNORM,
    Format::L8A8_SRGB,          Format::R16_FLOAT,      Format::R16G16_FLOAT,
    Format::R16G16B16A16_FLOAT, Format::R8G8B8A8_SNORM, Format::R32G32B32A32_FLOAT};

// One unit of a test shader: its texture's shape and whether it compares depth.
struct Unit {
  TexShape shape;
  bool shadow;
};

// Depth formats the path compares against, then one it declines.
const Format kDepthFormats[] = {Format::Z16_UNORM, Format::Z24_UNORM_S8_UINT, Format::Z24X8_UNORM,
                                Format::Z32_FLOAT, Format::Z32_FLOAT_S8X24_UINT};

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
      // Wrap modes: the four the path takes, mostly; the others now and then.
      const uint32_t inside[4] = {CLP_WRAP_REPEAT, CLP_WRAP_MIRROR_REPEAT, CLP_WRAP_CLAMP_TO_EDGE,
                                  CLP_WRAP_MIRROR_CLAMP_TO_EDGE};
      s.wrap[0] = (k + t) % 7 == 6 ? CLP_WRAP_CLAMP_TO_BORDER : inside[(k + t) % 4];
      s.wrap[1] = inside[(k / 4 + t) % 4];
      s.wrap[2] = (k + t) % 5 == 4 ? CLP_WRAP_CLAMP : inside[(k / 2 + t) % 4];
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
    REQUIRE(vec.out.size() == ref.out.size());
    for (uint32_t i = 0; i < in.count; ++i) {
      for (uint32_t t = 0; t < n; ++t) {
        for (uint32_t c = 0; c < 4; ++c) {
          if (vec.u(i, t, c) == ref.u(i, t, c)) continue;
          const ClpSamplerState& smp = in.textures[t].sampler;
          FAIL("config " << k << " unit " << t << " ("
                         << format_name(Format(in.textures[t].view.format)) << ", wrap "
                         << smp.wrap[0] << "/" << smp.wrap[1] << ", seamless "
                         << smp.seamless_cube_map << ") lane " << i << " channel " << c
                         << ": lane-parallel " << vec.f(i, t, c) << ", per lane "
                         << ref.f(i, t, c));
        }
      }
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
