// Texture opcodes other than the TXD/TXL sweep against the host reference sampler:
// implicit LOD from quad derivatives in the fragment stage (TEX, TXB, TXP, on 2D, cube,
// array and 3D targets), texel fetch (TXF) on every target with out-of-range coordinates
// and levels (zero) and with texel offsets swizzled the way Mesa writes them (the offset
// register repeats channels into the layer of 1D/2D arrays, which must not move the
// layer), and gather (TG4) with component select, offsets, four offsets, shadow compare
// and seamless cube maps. Tolerances as in sampling_sweep_test.cpp.
#include <catch2/catch.hpp>

#include "compiler/emit/sampling_util.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::test::sampling;
using emit::HarnessInput;
using emit::HarnessResult;

namespace {

void set_filters(TextureBinding& t, uint32_t k) {
  ClpSamplerState& s = t.sampler;
  s.wrap[0] = s.wrap[1] = s.wrap[2] = k % 8;
  s.min_img_filter = (k / 2) % 2;
  s.mag_img_filter = (k / 4) % 2;
  s.min_mip_filter = k % 3;
  s.lod_bias = (k % 4 == 1) ? 0.75f : 0.0f;
  s.seamless_cube_map = k % 2;
}

}  // namespace

TEST_CASE("sampling vs reference: implicit LOD from quad derivatives (TEX, TXB, TXP)",
          "[emit][tex][sampling]") {
  // IN[0] = (s, t, r, q); IN[1] = (layer, ref, bias, 0). Each quad's coordinates are a
  // base plus per-lane steps, so its derivatives (lane 1 - lane 0, lane 2 - lane 0) set
  // the LOD.
  HarnessInput in;
  in.tgsi = R"(FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL IN[1], GENERIC[1], PERSPECTIVE
DCL OUT[0], COLOR[0]
DCL OUT[1], COLOR[1]
DCL OUT[2], COLOR[2]
DCL OUT[3], COLOR[3]
DCL OUT[4], COLOR[4]
DCL OUT[5], COLOR[5]
DCL OUT[6], COLOR[6]
DCL SAMP[0..6]
DCL SVIEW[0], 2D, FLOAT
DCL SVIEW[1], 2D, FLOAT
DCL SVIEW[2], CUBE, FLOAT
DCL SVIEW[3], 2D_ARRAY, FLOAT
DCL SVIEW[4], 3D, FLOAT
DCL SVIEW[5], 2D, FLOAT
DCL SVIEW[6], SHADOW2D, FLOAT
DCL TEMP[0..2]
  0: TEX OUT[0], IN[0], SAMP[0], 2D
  1: MOV TEMP[0], IN[0]
  2: MOV TEMP[0].w, IN[1].zzzz
  3: TXB OUT[1], TEMP[0], SAMP[1], 2D
  4: TEX OUT[2], IN[0], SAMP[2], CUBE
  5: MOV TEMP[1].xyw, IN[0]
  6: MOV TEMP[1].z, IN[1].xxxx
  7: TEX OUT[3], TEMP[1], SAMP[3], 2D_ARRAY
  8: TEX OUT[4], IN[0], SAMP[4], 3D
  9: TXP OUT[5], IN[0], SAMP[5], 2D
 10: MOV TEMP[2].xyw, IN[0]
 11: MOV TEMP[2].z, IN[1].yyyy
 12: TEX OUT[6], TEMP[2], SAMP[6], SHADOW2D
 13: END
)";
  const TexShape shapes[7] = {
      {CLP_TEXTARGET_2D, 16, 8, 1, 1, 5},  {CLP_TEXTARGET_2D, 8, 8, 1, 1, 4},
      {CLP_TEXTARGET_CUBE, 8, 8, 1, 6, 4}, {CLP_TEXTARGET_2D_ARRAY, 8, 8, 1, 3, 4},
      {CLP_TEXTARGET_3D, 8, 8, 4, 1, 4},   {CLP_TEXTARGET_2D, 8, 8, 1, 1, 4},
      {CLP_TEXTARGET_2D, 8, 8, 1, 1, 4}};
  const int targets[7] = {CLP_TGSI_TEX_2D,       CLP_TGSI_TEX_2D, CLP_TGSI_TEX_CUBE,
                          CLP_TGSI_TEX_2D_ARRAY, CLP_TGSI_TEX_3D, CLP_TGSI_TEX_2D,
                          CLP_TGSI_TEX_SHADOW2D};
  std::mt19937 rng(77);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  const uint32_t quads = 48;
  in.count = quads * 4;
  std::vector<std::array<float, 8>> lanes;
  for (uint32_t q = 0; q < quads; ++q) {
    const float base[4] = {-0.5f + 2.0f * u(rng), -0.5f + 2.0f * u(rng), -0.5f + 2.0f * u(rng),
                           0.5f + u(rng)};
    const float step = std::ldexp(1.0f, int(q % 9) - 3) / 8.0f;
    const float sx[3] = {step * (u(rng) - 0.3f), step * (u(rng) - 0.6f), step * u(rng)};
    const float sy[3] = {step * (u(rng) - 0.5f), step * u(rng), step * (u(rng) - 0.5f)};
    const float layer = -0.8f + 4.0f * u(rng), ref = u(rng), bias = -1.0f + 3.0f * u(rng);
    for (uint32_t l = 0; l < 4; ++l) {
      std::array<float, 8> v{};
      for (int k = 0; k < 3; ++k)
        v[size_t(k)] = base[k] + float(l & 1) * sx[k] + float(l >> 1) * sy[k];
      v[3] = base[3] + 0.01f * float(l);
      v[4] = layer;
      v[5] = ref;
      v[6] = bias;
      lanes.push_back(v);
      for (float x : v)
        in.in.push_back(fb(x));
    }
  }
  Checker checker;
  for (uint32_t k = 0; k < 24; ++k) {
    for (uint32_t t = 0; t < 7; ++t) {
      const Format f = t == 6 ? Format::Z32_FLOAT : class_format(FormatClass::kUnorm, k);
      in.textures[t] = random_texture(shapes[t], f, rng);
      set_filters(in.textures[t], k + t);
    }
    in.textures[6].sampler.compare_mode = 1;
    in.textures[6].sampler.compare_func = k % 8;
    const HarnessResult r = emit::run_shader(in);
    for (uint32_t q = 0; q < quads; ++q) {
      // Coordinates per unit and lane (TXP divides by q first).
      for (uint32_t t = 0; t < 7; ++t) {
        std::array<ref::Coords, 4> c;
        for (uint32_t l = 0; l < 4; ++l) {
          const auto& v = lanes[q * 4 + l];
          const float div = t == 5 ? v[3] : 1.0f;
          c[l].s = v[0] / div;
          c[l].t = v[1] / div;
          c[l].r = v[2] / div;
          c[l].layer = v[4];
          c[l].ref = v[5];
          c[l].lod = v[6];
        }
        for (uint32_t l = 0; l < 4; ++l) {
          ref::Coords cl = c[l];
          const float* lane0[3] = {&c[0].s, &c[0].t, &c[0].r};
          const float* lane1[3] = {&c[1].s, &c[1].t, &c[1].r};
          const float* lane2[3] = {&c[2].s, &c[2].t, &c[2].r};
          for (int a = 0; a < 3; ++a) {
            cl.ddx[a] = *lane1[a] - *lane0[a];
            cl.ddy[a] = *lane2[a] - *lane0[a];
          }
          const uint32_t i = q * 4 + l;
          const ref::Result want =
              ref::sample(as_ref(in.textures[t]), targets[t],
                          t == 1 ? ref::LodMode::kBias : ref::LodMode::kGradients, cl);
          const uint32_t got[4] = {r.u(i, t, 0), r.u(i, t, 1), r.u(i, t, 2), r.u(i, t, 3)};
          checker.check("config " + std::to_string(k) + " unit " + std::to_string(t) + " quad " +
                            std::to_string(q) + " lane " + std::to_string(l),
                        want, got);
        }
      }
    }
  }
  checker.require();
}

TEST_CASE("sampling vs reference: TXF on every target, offsets, out of range is zero",
          "[emit][tex][sampling]") {
  // IN[0] = (x, y, z, layer) and IN[1].x = level, integers. Offsets as Mesa swizzles an
  // offset immediate: 1D .xxx, 2D .xyy, 3D .xyz, 1D array .yyy, 2D array .xyy.
  HarnessInput in;
  in.tgsi = R"(VERT
DCL IN[0..1]
DCL OUT[0..13], GENERIC[0]
DCL SAMP[0..6]
DCL SVIEW[0], 1D, FLOAT
DCL SVIEW[1], 2D, FLOAT
DCL SVIEW[2], RECT, FLOAT
DCL SVIEW[3], 3D, FLOAT
DCL SVIEW[4], 1D_ARRAY, FLOAT
DCL SVIEW[5], 2D_ARRAY, FLOAT
DCL SVIEW[6], BUFFER, FLOAT
DCL TEMP[0..6]
IMM[0] INT32 {1, -2, 1, 0}
  0: MOV TEMP[0], IN[0].xyzx
  1: MOV TEMP[0].w, IN[1].xxxx
  2: MOV TEMP[1], TEMP[0]
  3: MOV TEMP[3], TEMP[0]
  4: MOV TEMP[4].xzw, TEMP[0]
  5: MOV TEMP[4].y, IN[0].wwww
  6: MOV TEMP[5].xyw, TEMP[0]
  7: MOV TEMP[5].z, IN[0].wwww
  8: TXF OUT[0], TEMP[0], SAMP[0], 1D
  9: TXF OUT[1], TEMP[0], SAMP[0], 1D, IMM[0].xxx
 10: TXF OUT[2], TEMP[1], SAMP[1], 2D
 11: TXF OUT[3], TEMP[1], SAMP[1], 2D, IMM[0].xyy
 12: TXF OUT[4], TEMP[1], SAMP[2], RECT
 13: TXF OUT[5], TEMP[1], SAMP[2], RECT, IMM[0].yxx
 14: TXF OUT[6], TEMP[3], SAMP[3], 3D
 15: TXF OUT[7], TEMP[3], SAMP[3], 3D, IMM[0].xyz
 16: TXF OUT[8], TEMP[4], SAMP[4], 1D_ARRAY
 17: TXF OUT[9], TEMP[4], SAMP[4], 1D_ARRAY, IMM[0].yyy
 18: TXF OUT[10], TEMP[5], SAMP[5], 2D_ARRAY
 19: TXF OUT[11], TEMP[5], SAMP[5], 2D_ARRAY, IMM[0].xyy
 20: TXF OUT[12], TEMP[0], SAMP[6], BUFFER
 21: TXF_LZ OUT[13], TEMP[1], SAMP[1], 2D
 22: END
)";
  const TexShape shapes[7] = {
      {CLP_TEXTARGET_1D, 8, 1, 1, 1, 4},       {CLP_TEXTARGET_2D, 8, 4, 1, 1, 4},
      {CLP_TEXTARGET_RECT, 7, 5, 1, 1, 1},     {CLP_TEXTARGET_3D, 4, 4, 4, 1, 3},
      {CLP_TEXTARGET_1D_ARRAY, 8, 1, 1, 4, 4}, {CLP_TEXTARGET_2D_ARRAY, 4, 4, 1, 4, 3},
      {CLP_TEXTARGET_BUFFER, 20, 1, 1, 1, 1}};
  const int targets[7] = {CLP_TGSI_TEX_1D,    CLP_TGSI_TEX_2D,       CLP_TGSI_TEX_RECT,
                          CLP_TGSI_TEX_3D,    CLP_TGSI_TEX_1D_ARRAY, CLP_TGSI_TEX_2D_ARRAY,
                          CLP_TGSI_TEX_BUFFER};
  const int offsets[7][3] = {{1, 1, 1},    {1, -2, -2}, {-2, 1, 1}, {1, -2, 1},
                             {-2, -2, -2}, {1, -2, -2}, {0, 0, 0}};
  std::mt19937 rng(5);
  in.count = 128;
  std::vector<std::array<int, 5>> lanes;
  for (uint32_t i = 0; i < in.count; ++i) {
    const std::array<int, 5> l = {int(rng() % 12) - 2, int(rng() % 9) - 2, int(rng() % 7) - 2,
                                  int(rng() % 7) - 2, int(rng() % 6) - 1};
    lanes.push_back(l);
    in.in.insert(in.in.end(), {uint32_t(l[0]), uint32_t(l[1]), uint32_t(l[2]), uint32_t(l[3])});
    in.in.insert(in.in.end(), {uint32_t(l[4]), 0, 0, 0});
  }
  Checker checker;
  for (uint32_t k = 0; k < 6; ++k) {
    const FormatClass cls = kAllClasses[k];
    for (uint32_t t = 0; t < 7; ++t) {
      in.textures[t] = random_texture(shapes[t], class_format(cls, k + t), rng);
      ClpTexView& v = in.textures[t].view;
      if (t == 6) {  // elements 3.. of the data, 12 of them
        const uint32_t bb = format_desc(Format(v.format)).block_bytes;
        v.buffer_offset = 3 * bb;
        v.buffer_size = 12 * bb;
      }
      if (k % 2 == 1 && v.last_level >= 2) v.first_level = 1;
      if (k % 3 == 2 && (t == 4 || t == 5)) v.first_layer = 1;
      if (k % 2 == 0) {
        for (int c = 0; c < 4; ++c)
          v.swizzle[c] = rng() % 6;
      }
    }
    const HarnessResult r = emit::run_shader(in);
    for (uint32_t i = 0; i < in.count; ++i) {
      const auto& l = lanes[i];
      for (uint32_t t = 0; t < 7; ++t) {
        const ref::Texture tex = as_ref(in.textures[t]);
        // 1D and buffer fetches read x only, 1D/2D/RECT no z (the emitter passes 0).
        const bool one_d = t == 0 || t == 6;
        const int x = l[0], y = t == 4 ? l[3] : (one_d ? 0 : l[1]);
        const int z = t == 5 ? l[3] : (t == 3 ? l[2] : 0);
        const int zero[3] = {0, 0, 0};
        for (uint32_t with_off = 0; with_off < (t == 6 ? 1u : 2u); ++with_off) {
          const uint32_t reg = t == 6 ? 12 : 2 * t + with_off;
          const ref::Result want =
              ref::fetch(tex, targets[t], x, y, z, l[4], with_off ? offsets[t] : zero);
          const uint32_t got[4] = {r.u(i, reg, 0), r.u(i, reg, 1), r.u(i, reg, 2), r.u(i, reg, 3)};
          checker.check("class " + std::string(class_name(cls)) + " target " +
                            std::to_string(targets[t]) + (with_off ? " offset" : "") + " lane " +
                            std::to_string(i),
                        want, got);
        }
        if (t == 1) {  // TXF_LZ: level 0
          const ref::Result want = ref::fetch(tex, targets[t], x, y, z, 0, zero);
          const uint32_t got[4] = {r.u(i, 13, 0), r.u(i, 13, 1), r.u(i, 13, 2), r.u(i, 13, 3)};
          checker.check("TXF_LZ lane " + std::to_string(i), want, got);
        }
      }
    }
  }
  checker.require();
}

TEST_CASE("sampling vs reference: TG4 component, offsets, shadow and seamless cubes",
          "[emit][tex][sampling]") {
  // IN[0] = (s, t, r, layer); IN[1] = (component, ref, _, _) (component as integer).
  HarnessInput in;
  in.tgsi = R"(VERT
DCL IN[0..1]
DCL OUT[0..7], GENERIC[0]
DCL SAMP[0..7]
DCL SVIEW[0], 2D, FLOAT
DCL SVIEW[1], 2D_ARRAY, FLOAT
DCL SVIEW[2], CUBE, FLOAT
DCL SVIEW[3], CUBEARRAY, FLOAT
DCL SVIEW[4], SHADOW2D, FLOAT
DCL SVIEW[5], SHADOWCUBE, FLOAT
DCL SVIEW[6], 2D, FLOAT
DCL SVIEW[7], SHADOW2D_ARRAY, FLOAT
DCL TEMP[0..3]
IMM[0] INT32 {2, -3, 1, 0}
IMM[1] INT32 {-1, 3, -8, 7}
  0: TG4 OUT[0], IN[0], IN[1].xxxx, SAMP[0], 2D
  1: MOV TEMP[0].xyw, IN[0]
  2: MOV TEMP[0].z, IN[0].wwww
  3: TG4 OUT[1], TEMP[0], IN[1].xxxx, SAMP[1], 2D_ARRAY, IMM[0].xyy
  4: TG4 OUT[2], IN[0], IN[1].xxxx, SAMP[2], CUBE
  5: TG4 OUT[3], IN[0], IN[1].xxxx, SAMP[3], CUBEARRAY
  6: MOV TEMP[1].xyw, IN[0]
  7: MOV TEMP[1].z, IN[1].yyyy
  8: TG4 OUT[4], TEMP[1], IN[1].xxxx, SAMP[4], SHADOW2D, IMM[0].yxx
  9: MOV TEMP[2].xyz, IN[0]
 10: MOV TEMP[2].w, IN[1].yyyy
 11: TG4 OUT[5], TEMP[2], IN[1].xxxx, SAMP[5], SHADOWCUBE
 12: TG4 OUT[6], IN[0], IN[1].xxxx, SAMP[6], 2D, IMM[0].xyy, IMM[1].xyy, IMM[1].zww, IMM[0].zzz
 13: MOV TEMP[3].xyz, TEMP[0]
 14: MOV TEMP[3].w, IN[1].yyyy
 15: TG4 OUT[7], TEMP[3], IN[1].xxxx, SAMP[7], SHADOW2D_ARRAY
 16: END
)";
  const TexShape shapes[8] = {
      {CLP_TEXTARGET_2D, 8, 4, 1, 1, 2},   {CLP_TEXTARGET_2D_ARRAY, 4, 4, 1, 3, 1},
      {CLP_TEXTARGET_CUBE, 4, 4, 1, 6, 2}, {CLP_TEXTARGET_CUBE_ARRAY, 4, 4, 1, 12, 1},
      {CLP_TEXTARGET_2D, 4, 4, 1, 1, 1},   {CLP_TEXTARGET_CUBE, 4, 4, 1, 6, 1},
      {CLP_TEXTARGET_2D, 8, 8, 1, 1, 1},   {CLP_TEXTARGET_2D_ARRAY, 4, 4, 1, 3, 1}};
  const int targets[8] = {CLP_TGSI_TEX_2D,       CLP_TGSI_TEX_2D_ARRAY,
                          CLP_TGSI_TEX_CUBE,     CLP_TGSI_TEX_CUBE_ARRAY,
                          CLP_TGSI_TEX_SHADOW2D, CLP_TGSI_TEX_SHADOWCUBE,
                          CLP_TGSI_TEX_2D,       CLP_TGSI_TEX_SHADOW2D_ARRAY};
  const int four[8] = {2, -3, -1, 3, -8, 7, 1, 1};
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  in.count = 96;
  std::vector<std::array<float, 6>> lanes;
  for (uint32_t i = 0; i < in.count; ++i) {
    std::array<float, 6> l = {-0.5f + 2.0f * u(rng),
                              -0.5f + 2.0f * u(rng),
                              -0.5f + 2.0f * u(rng),
                              -0.7f + 4.0f * u(rng),
                              0,
                              u(rng)};
    if (i % 4 == 1) {  // near a cube edge or corner
      l[0] = (i & 8) ? -1.0f : 1.0f;
      l[1] = (0.95f + 0.1f * u(rng)) * ((i & 16) ? -1.0f : 1.0f);
      l[2] = (i & 32) ? 0.98f + 0.04f * u(rng) : 0.3f * u(rng);
    }
    lanes.push_back(l);
    const uint32_t comp = i % 4;
    in.in.insert(in.in.end(), {fb(l[0]), fb(l[1]), fb(l[2]), fb(l[3])});
    in.in.insert(in.in.end(), {comp, fb(l[5]), 0, 0});
  }
  Checker checker;
  for (uint32_t k = 0; k < 16; ++k) {
    for (uint32_t t = 0; t < 8; ++t) {
      const bool shadow = t == 4 || t == 5 || t == 7;
      const Format f = shadow ? class_format(FormatClass::kDepth, k + t)
                              : class_format(kAllClasses[k % 6], k + t);
      in.textures[t] = random_texture(shapes[t], f, rng);
      TextureBinding& b = in.textures[t];
      b.sampler.wrap[0] = b.sampler.wrap[1] = b.sampler.wrap[2] = (k + t) % 8;
      b.sampler.seamless_cube_map = k % 2;
      b.sampler.compare_mode = shadow ? 1 : 0;
      b.sampler.compare_func = k % 8;
      for (int c = 0; c < 4; ++c)
        b.sampler.border_color[c] = fb(0.25f * float(c));
      if (!shadow && k % 3 == 0) {
        for (int c = 0; c < 4; ++c)
          b.view.swizzle[c] = rng() % 6;
      }
    }
    const HarnessResult r = emit::run_shader(in);
    for (uint32_t i = 0; i < in.count; ++i) {
      const auto& l = lanes[i];
      for (uint32_t t = 0; t < 8; ++t) {
        ref::Coords c;
        c.s = l[0];
        c.t = l[1];
        c.r = l[2];
        c.layer = l[3];
        c.ref = l[5];
        if (t == 1) {
          c.offset[0] = 2;
          c.offset[1] = -3;
        }
        if (t == 4) {
          c.offset[0] = -3;
          c.offset[1] = 2;
        }
        const ref::Result want =
            ref::gather(as_ref(in.textures[t]), targets[t], c, int(i % 4), t == 6 ? four : nullptr);
        const uint32_t got[4] = {r.u(i, t, 0), r.u(i, t, 1), r.u(i, t, 2), r.u(i, t, 3)};
        std::ostringstream where;
        where << "config " << k << " unit " << t << " ("
              << format_name(Format(in.textures[t].view.format)) << ", wrap "
              << in.textures[t].sampler.wrap[0] << ") lane " << i << " (" << c.s << ", " << c.t
              << ", " << c.r << ", layer " << c.layer << ", ref " << c.ref << ")";
        checker.check(where.str(), want, got);
      }
    }
  }
  checker.require();
}
