// The sampling library against the host reference sampler (reference_sampler.h): every
// target x min filter x mip filter x wrap mode x format class, with LOD from gradients
// (TXD), explicit LOD (TXL, TXL2), sampler bias and min/max LOD clamps, first level and
// first layer of the view, view swizzles, border colours (float, integer for integer
// formats, and by the view's format), shadow compare with every compare function, seamless and
// non-seamless cube maps, array layer rounding and clamping.
//
// One vertex shader samples 16 units of different targets; each test case runs it with
// 48 sampler configurations per format class (no new program per configuration: only the
// bound descriptors change). Tolerance: 1e-4 absolute + 1e-4 relative for float results
// (the device filters in float, the reference in double), integer results exact.
#include <catch2/catch.hpp>

#include <cmath>

#include "compiler/emit/sampling_util.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::test::sampling;
using emit::HarnessInput;
using emit::HarnessResult;

namespace {

struct Unit {
  const char* tgsi;  // TGSI target name
  int target;        // CLP_TGSI_TEX_*
  TexShape shape;
  const char* coords;  // how TEMP[u] is built from IN[0] (s t r layer) and IN[1] (ref lod)
  bool rect, explicit_lod;
};

// The 16 units of the sweep shader. RECT coordinates are IN[0] * 8 (texel units).
const Unit kUnits[16] = {
    {"1D", CLP_TGSI_TEX_1D, {CLP_TEXTARGET_1D, 8, 1, 1, 1, 4}, "MOV $T, IN[0]", false, false},
    {"2D", CLP_TGSI_TEX_2D, {CLP_TEXTARGET_2D, 8, 4, 1, 1, 4}, "MOV $T, IN[0]", false, false},
    {"RECT",
     CLP_TGSI_TEX_RECT,
     {CLP_TEXTARGET_RECT, 7, 5, 1, 1, 1},
     "MUL $T, IN[0], IMM[0].xxxx",
     true,
     false},
    {"3D", CLP_TGSI_TEX_3D, {CLP_TEXTARGET_3D, 4, 4, 4, 1, 3}, "MOV $T, IN[0]", false, false},
    {"CUBE", CLP_TGSI_TEX_CUBE, {CLP_TEXTARGET_CUBE, 4, 4, 1, 6, 3}, "MOV $T, IN[0]", false, false},
    {"1D_ARRAY",
     CLP_TGSI_TEX_1D_ARRAY,
     {CLP_TEXTARGET_1D_ARRAY, 8, 1, 1, 3, 4},
     "MOV $T, IN[0].xwzw",
     false,
     false},
    {"2D_ARRAY",
     CLP_TGSI_TEX_2D_ARRAY,
     {CLP_TEXTARGET_2D_ARRAY, 4, 8, 1, 3, 4},
     "MOV $T, IN[0].xyww",
     false,
     false},
    {"CUBEARRAY",
     CLP_TGSI_TEX_CUBE_ARRAY,
     {CLP_TEXTARGET_CUBE_ARRAY, 4, 4, 1, 12, 3},
     "MOV $T, IN[0]",
     false,
     false},
    {"SHADOW1D",
     CLP_TGSI_TEX_SHADOW1D,
     {CLP_TEXTARGET_1D, 8, 1, 1, 1, 4},
     "MOV $T.xyw, IN[0]\nMOV $T.z, IN[1].xxxx",
     false,
     false},
    {"SHADOW2D",
     CLP_TGSI_TEX_SHADOW2D,
     {CLP_TEXTARGET_2D, 8, 4, 1, 1, 4},
     "MOV $T.xyw, IN[0]\nMOV $T.z, IN[1].xxxx",
     false,
     false},
    {"SHADOWRECT",
     CLP_TGSI_TEX_SHADOWRECT,
     {CLP_TEXTARGET_RECT, 7, 5, 1, 1, 1},
     "MUL $T.xyw, IN[0], IMM[0].xxxx\nMOV $T.z, IN[1].xxxx",
     true,
     false},
    {"SHADOW1D_ARRAY",
     CLP_TGSI_TEX_SHADOW1D_ARRAY,
     {CLP_TEXTARGET_1D_ARRAY, 8, 1, 1, 3, 4},
     "MOV $T.xyw, IN[0].xwzw\nMOV $T.z, IN[1].xxxx",
     false,
     false},
    {"SHADOW2D_ARRAY",
     CLP_TGSI_TEX_SHADOW2D_ARRAY,
     {CLP_TEXTARGET_2D_ARRAY, 4, 8, 1, 3, 4},
     "MOV $T.xyz, IN[0].xyww\nMOV $T.w, IN[1].xxxx",
     false,
     false},
    {"SHADOWCUBE",
     CLP_TGSI_TEX_SHADOWCUBE,
     {CLP_TEXTARGET_CUBE, 4, 4, 1, 6, 3},
     "MOV $T.xyz, IN[0]\nMOV $T.w, IN[1].xxxx",
     false,
     false},
    {"SHADOWCUBEARRAY",
     CLP_TGSI_TEX_SHADOWCUBE_ARRAY,
     {CLP_TEXTARGET_CUBE_ARRAY, 4, 4, 1, 12, 3},
     "MOV $T, IN[0]",
     false,
     true},
    {"2D",
     CLP_TGSI_TEX_2D,
     {CLP_TEXTARGET_2D, 8, 8, 1, 1, 4},
     "MOV $T.xyz, IN[0]\nMOV $T.w, "
     "IN[1].yyyy",
     false,
     true},
};

std::string replace_all(std::string s, const std::string& key, const std::string& val) {
  for (size_t p = s.find(key); p != std::string::npos; p = s.find(key, p + val.size()))
    s.replace(p, key.size(), val);
  return s;
}

// Units 0..13: TXD with IN[2], IN[3] as gradients; 14: TXL2 (lod IN[1].y, ref IN[1].x);
// 15: TXL (lod in .w).
std::string sweep_shader() {
  std::string s = "VERT\nDCL IN[0..3]\nDCL OUT[0..15], GENERIC[0]\nDCL SAMP[0..15]\n";
  for (int u = 0; u < 16; ++u)
    s += "DCL SVIEW[" + std::to_string(u) + "], " + kUnits[u].tgsi + ", FLOAT\n";
  s += "DCL TEMP[0..15]\nIMM[0] FLT32 {0x41000000, 0x00000000, 0x00000000, 0x00000000}\n";
  int n = 0;
  auto inst = [&](const std::string& text) {
    std::istringstream lines(text);
    std::string l;
    while (std::getline(lines, l))
      s += "  " + std::to_string(n++) + ": " + l + "\n";
  };
  for (int u = 0; u < 16; ++u) {
    const std::string t = "TEMP[" + std::to_string(u) + "]";
    const std::string us = std::to_string(u);
    inst(replace_all(kUnits[u].coords, "$T", t));
    if (u < 14) {
      inst("TXD OUT[" + us + "], " + t + ", IN[2], IN[3], SAMP[" + us + "], " + kUnits[u].tgsi);
    } else if (u == 14) {
      inst("TXL2 OUT[" + us + "], " + t + ", IN[1].yxxx, SAMP[" + us + "], " + kUnits[u].tgsi);
    } else {
      inst("TXL OUT[" + us + "], " + t + ", SAMP[" + us + "], " + kUnits[u].tgsi);
    }
  }
  inst("END");
  return s;
}

struct Lane {
  float in0[4], in1[4], ddx[3], ddy[3];
};

// Random lanes: coordinates in and around [0, 1] (directions for cube targets), layers
// around the view's range (rounding and clamping), references around [0, 1], gradients
// whose LOD spans magnification to past the last level; plus directions close to cube
// edges and corners (the seams) and exact texel centres.
std::vector<Lane> make_lanes(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<Lane> lanes;
  for (int i = 0; i < 96; ++i) {
    Lane l{};
    const bool wide = i % 3 == 0;
    for (int k = 0; k < 3; ++k)
      l.in0[k] = wide ? -1.5f + 4.0f * u(rng) : u(rng);
    if (i % 8 == 1) {  // near a cube edge or corner
      const float e = 0.97f + 0.06f * u(rng);
      l.in0[0] = (i & 16) ? -1.0f : 1.0f;
      l.in0[1] = e * ((i & 32) ? -1.0f : 1.0f);
      l.in0[2] = (i & 64) ? 0.2f * u(rng) : e;
    }
    if (i % 8 == 5) {  // texel centre of an 8-texel axis, layer exactly between two
      l.in0[0] = (float(rng() % 8) + 0.5f) / 8.0f;
      l.in0[3] = float(rng() % 3) + 0.5f;
    } else {
      l.in0[3] = -1.4f + 6.0f * u(rng);
    }
    l.in1[0] = -0.1f + 1.2f * u(rng);
    l.in1[1] = -1.5f + 6.0f * u(rng);
    // |gradient| = 2^lambda / 8 with lambda in [-3, 5]; random direction, y smaller.
    const float scale = std::ldexp(1.0f, int(rng() % 9) - 3) / 8.0f * (0.6f + 0.8f * u(rng));
    for (int k = 0; k < 3; ++k) {
      l.ddx[k] = scale * (u(rng) - 0.5f);
      l.ddy[k] = 0.5f * scale * (u(rng) - 0.5f);
    }
    if (i % 11 == 0) l.ddx[0] = l.ddx[1] = l.ddx[2] = l.ddy[0] = l.ddy[1] = l.ddy[2] = 0.0f;
    lanes.push_back(l);
  }
  return lanes;
}

ref::Coords coords_of(const Unit& unit, const Lane& l) {
  ref::Coords c;
  const float k = unit.rect ? 8.0f : 1.0f;
  c.s = l.in0[0] * k;
  c.t = l.in0[1] * k;
  c.r = l.in0[2] * k;
  c.layer = l.in0[3];
  c.ref = l.in1[0];
  c.lod = l.in1[1];
  for (int a = 0; a < 3; ++a) {
    c.ddx[a] = l.ddx[a];
    c.ddy[a] = l.ddy[a];
  }
  if (unit.target == CLP_TGSI_TEX_1D_ARRAY || unit.target == CLP_TGSI_TEX_SHADOW1D_ARRAY)
    c.layer = l.in0[3];
  return c;
}

bool is_shadow_unit(const Unit& u) {
  return std::string(u.tgsi).rfind("SHADOW", 0) == 0;
}

// Sampler and view configuration k (0..47) of the sweep for `unit`.
void configure(TextureBinding& t, const Unit& unit, FormatClass cls, uint32_t k,
               std::mt19937& rng) {
  ClpSamplerState& s = t.sampler;
  const uint32_t wrap = k % 8, min = (k / 8) % 2, mip = (k / 16) % 3;
  const uint32_t rect_wraps[3] = {CLP_WRAP_CLAMP, CLP_WRAP_CLAMP_TO_EDGE, CLP_WRAP_CLAMP_TO_BORDER};
  s.wrap[0] = s.wrap[1] = s.wrap[2] = unit.rect ? rect_wraps[k % 3] : wrap;
  s.min_img_filter = min;
  s.mag_img_filter = (wrap + min) % 2;
  s.min_mip_filter = unit.rect ? CLP_MIP_NONE : mip;
  const float biases[3] = {0.0f, 0.6f, -1.3f};
  s.lod_bias = biases[k % 3];
  s.min_lod = (k / 3) % 2 ? 0.7f : -1000.0f;
  const float maxes[3] = {1000.0f, 1.8f, 2.6f};
  s.max_lod = maxes[(k / 5) % 3];
  s.seamless_cube_map = (k / 2) % 2;
  s.compare_mode = is_shadow_unit(unit) ? 1 : 0;
  s.compare_func = k % 8;
  std::uniform_real_distribution<float> u(-0.5f, 1.5f);
  const bool integer = cls == FormatClass::kUint || cls == FormatClass::kSint;
  // Border colours: floats; integers (integer formats only); or by the view's format,
  // as virgl sends them (integers for integer formats, floats for the others).
  s.border_color_kind = CLP_BORDER_FLOAT;
  if (k & 4)
    s.border_color_kind = (k & 8)   ? CLP_BORDER_VIEW_FORMAT
                          : integer ? CLP_BORDER_INTEGER
                                    : CLP_BORDER_FLOAT;
  const bool view_integer = integer && !is_shadow_unit(unit);  // shadow units: depth views
  const bool int_bits = s.border_color_kind == CLP_BORDER_INTEGER ||
                        (s.border_color_kind == CLP_BORDER_VIEW_FORMAT && view_integer);
  for (int c = 0; c < 4; ++c) {
    s.border_color[c] =
        int_bits ? uint32_t(int32_t(rng() % 200) - 50) : fb(integer ? 300.0f * u(rng) : u(rng));
  }
  ClpTexView& v = t.view;
  // View ranges: a first level of 1 in some runs, fewer levels in others; arrays start
  // at layer 1 (cube arrays at cube 1) in some runs.
  if (v.last_level >= 2 && k % 4 == 3) v.first_level = 1;
  if (v.last_level >= 2 && k % 5 == 4) v.last_level -= 1;
  const bool cube_array = v.target == CLP_TEXTARGET_CUBE_ARRAY;
  if ((v.target == CLP_TEXTARGET_1D_ARRAY || v.target == CLP_TEXTARGET_2D_ARRAY) && k % 3 == 1)
    v.first_layer = 1;
  if (cube_array && k % 3 == 1) v.first_layer = 6;
  if (!is_shadow_unit(unit) && k % 2 == 1) {
    for (int c = 0; c < 4; ++c)
      v.swizzle[c] = rng() % 6;  // X Y Z W 0 1
  }
}

void run_sweep(FormatClass cls) {
  std::mt19937 rng(1234u + uint32_t(cls));
  const std::vector<Lane> lanes = make_lanes(rng);
  HarnessInput in;
  in.tgsi = sweep_shader();
  in.count = uint32_t(lanes.size());
  for (const Lane& l : lanes) {
    for (int k = 0; k < 4; ++k)
      in.in.push_back(fb(l.in0[k]));
    for (int k = 0; k < 4; ++k)
      in.in.push_back(fb(l.in1[k]));
    in.in.insert(in.in.end(), {fb(l.ddx[0]), fb(l.ddx[1]), fb(l.ddx[2]), 0});
    in.in.insert(in.in.end(), {fb(l.ddy[0]), fb(l.ddy[1]), fb(l.ddy[2]), 0});
  }
  Checker checker;
  for (uint32_t k = 0; k < 48; ++k) {
    for (uint32_t u = 0; u < 16; ++u) {
      const Unit& unit = kUnits[u];
      const Format f = is_shadow_unit(unit) ? class_format(FormatClass::kDepth, k + u)
                                            : class_format(cls, k + u);
      in.textures[u] = random_texture(unit.shape, f, rng);
      configure(in.textures[u], unit, cls, k, rng);
    }
    const HarnessResult r = emit::run_shader(in);
    for (uint32_t u = 0; u < 16; ++u) {
      const Unit& unit = kUnits[u];
      const ref::Texture t = as_ref(in.textures[u]);
      for (uint32_t i = 0; i < in.count; ++i) {
        const ref::Coords c = coords_of(unit, lanes[i]);
        const ref::Result want =
            ref::sample(t, unit.target,
                        unit.explicit_lod ? ref::LodMode::kExplicit : ref::LodMode::kGradients, c);
        const uint32_t got[4] = {r.u(i, u, 0), r.u(i, u, 1), r.u(i, u, 2), r.u(i, u, 3)};
        std::ostringstream where;
        where << "config " << k << " unit " << u << " (" << unit.tgsi << ", "
              << format_name(Format(t.view.format)) << ", wrap " << t.sampler.wrap[0] << " min "
              << t.sampler.min_img_filter << " mag " << t.sampler.mag_img_filter << " mip "
              << t.sampler.min_mip_filter << " seamless " << t.sampler.seamless_cube_map
              << ") lane " << i << " (" << c.s << ", " << c.t << ", " << c.r << ", layer "
              << c.layer << ", ref " << c.ref << ")";
        checker.check(where.str(), want, got);
      }
    }
  }
  checker.require();
}

}  // namespace

TEST_CASE("sampling sweep vs reference: unorm formats", "[emit][tex][sampling]") {
  run_sweep(FormatClass::kUnorm);
}
TEST_CASE("sampling sweep vs reference: snorm formats", "[emit][tex][sampling]") {
  run_sweep(FormatClass::kSnorm);
}
TEST_CASE("sampling sweep vs reference: float formats", "[emit][tex][sampling]") {
  run_sweep(FormatClass::kFloat);
}
TEST_CASE("sampling sweep vs reference: sRGB formats", "[emit][tex][sampling]") {
  run_sweep(FormatClass::kSrgb);
}
TEST_CASE("sampling sweep vs reference: unsigned integer formats", "[emit][tex][sampling]") {
  run_sweep(FormatClass::kUint);
}
TEST_CASE("sampling sweep vs reference: signed integer formats", "[emit][tex][sampling]") {
  run_sweep(FormatClass::kSint);
}
TEST_CASE("sampling sweep vs reference: depth formats without compare", "[emit][tex][sampling]") {
  run_sweep(FormatClass::kDepth);
}
