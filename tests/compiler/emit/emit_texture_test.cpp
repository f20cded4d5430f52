// Texture opcodes through the sampling library on small textures, against a host
// reference: nearest / linear filtering with every wrap mode, mip selection from quad
// derivatives (TEX in the fragment stage), explicit LOD, bias and gradients, shadow
// compare with PCF, texel fetch (out of range -> 0, offsets), size queries, integer
// formats, view swizzles, arrays, 3D, buffers, cube faces, gather and LOD queries.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>

#include "clpipe/format.h"
#include "compiler/emit/harness.h"

using namespace clpipe::test::emit;
using clpipe::Format;

namespace {

// A texture of RGBA32F texels (x + 100 * level, y, layer, level) unless `texel` says
// otherwise; levels packed one after the other, layers inside a level.
struct TexDesc {
  uint32_t target = CLP_TEXTARGET_2D;
  uint32_t w = 4, h = 4, d = 1, layers = 1, levels = 1;
  Format format = Format::R32G32B32A32_FLOAT;
};

using TexelFn =
    std::function<std::array<float, 4>(uint32_t x, uint32_t y, uint32_t z, uint32_t level)>;

std::array<float, 4> default_texel(uint32_t x, uint32_t y, uint32_t z, uint32_t level) {
  return {float(x) + 100.0f * float(level), float(y), float(z), float(level)};
}

TextureBinding make_texture(const TexDesc& t, const TexelFn& texel = default_texel) {
  TextureBinding b;
  ClpTexView& v = b.view;
  v.format = uint32_t(t.format);
  v.target = t.target;
  v.width = t.w;
  v.height = t.h;
  v.depth = t.d;
  v.layers = t.layers;
  v.first_level = 0;
  v.last_level = t.levels - 1;
  v.first_layer = 0;
  v.last_layer = t.layers - 1;
  for (int c = 0; c < 4; ++c)
    v.swizzle[c] = uint32_t(c);
  const uint32_t bpp = clpipe::format_desc(t.format).block_bytes;
  uint32_t off = 0;
  for (uint32_t l = 0; l < t.levels; ++l) {
    const uint32_t w = std::max(t.w >> l, 1u), h = std::max(t.h >> l, 1u);
    const uint32_t slices = t.target == CLP_TEXTARGET_3D ? std::max(t.d >> l, 1u) : t.layers;
    v.level_offset[l] = off;
    v.row_pitch[l] = w * bpp;
    v.layer_pitch[l] = w * h * bpp;
    b.data.resize(off + size_t(v.layer_pitch[l]) * slices);
    for (uint32_t z = 0; z < slices; ++z) {
      for (uint32_t y = 0; y < h; ++y) {
        for (uint32_t x = 0; x < w; ++x) {
          const auto c = texel(x, y, z, l);
          uint8_t* p = &b.data[off + z * v.layer_pitch[l] + y * v.row_pitch[l] + x * bpp];
          if (t.format == Format::R32G32B32A32_FLOAT) {
            std::memcpy(p, c.data(), 16);
          } else if (t.format == Format::R32G32B32A32_UINT ||
                     t.format == Format::R32G32B32A32_SINT) {
            for (int k = 0; k < 4; ++k) {
              const uint32_t u = uint32_t(int32_t(c[k]));
              std::memcpy(p + 4 * k, &u, 4);
            }
          } else if (t.format == Format::R32_FLOAT || t.format == Format::Z32_FLOAT) {
            std::memcpy(p, &c[0], 4);
          } else if (t.format == Format::R8G8B8A8_UNORM) {
            for (int k = 0; k < 4; ++k)
              p[k] = uint8_t(c[k]);
          }
        }
      }
    }
    off += v.layer_pitch[l] * slices;
  }
  b.sampler.min_lod = -1000.0f;
  b.sampler.max_lod = 1000.0f;
  return b;
}

// Host reference of one axis (sampling_filter.h's rules).
int wrap_nearest(uint32_t wrap, float x, int size) {
  if (wrap >= CLP_WRAP_MIRROR_CLAMP) x = std::fabs(x);
  const int i = int(std::floor(x));
  switch (wrap) {
    case CLP_WRAP_REPEAT:
      return ((i % size) + size) % size;
    case CLP_WRAP_MIRROR_REPEAT: {
      const int m = ((i % (2 * size)) + 2 * size) % (2 * size);
      return m >= size ? 2 * size - 1 - m : m;
    }
    case CLP_WRAP_CLAMP_TO_BORDER:
    case CLP_WRAP_MIRROR_CLAMP_TO_BORDER:
      return (i < 0 || i >= size) ? -1 : i;
    default:
      return std::min(std::max(i, 0), size - 1);
  }
}

void wrap_linear(uint32_t wrap, float x, int size, int* i0, int* i1, float* a) {
  if (wrap >= CLP_WRAP_MIRROR_CLAMP) x = std::fabs(x);
  const float fs = float(size);
  if (wrap == CLP_WRAP_CLAMP_TO_EDGE || wrap == CLP_WRAP_MIRROR_CLAMP_TO_EDGE)
    x = std::fmin(std::fmax(x, 0.5f), fs - 0.5f);
  if (wrap == CLP_WRAP_CLAMP || wrap == CLP_WRAP_MIRROR_CLAMP)
    x = std::fmin(std::fmax(x, 0.0f), fs);
  if (wrap == CLP_WRAP_CLAMP_TO_BORDER || wrap == CLP_WRAP_MIRROR_CLAMP_TO_BORDER)
    x = std::fmin(std::fmax(x, -0.5f), fs + 0.5f);
  x -= 0.5f;
  const float f = std::floor(x);
  *a = x - f;
  const int j = int(f);
  auto rep = [&](int i) { return ((i % size) + size) % size; };
  auto mir = [&](int i) {
    const int m = ((i % (2 * size)) + 2 * size) % (2 * size);
    return m >= size ? 2 * size - 1 - m : m;
  };
  switch (wrap) {
    case CLP_WRAP_REPEAT:
      *i0 = rep(j);
      *i1 = rep(j + 1);
      break;
    case CLP_WRAP_MIRROR_REPEAT:
      *i0 = mir(j);
      *i1 = mir(j + 1);
      break;
    case CLP_WRAP_CLAMP_TO_EDGE:
    case CLP_WRAP_MIRROR_CLAMP_TO_EDGE:
      *i0 = std::min(std::max(j, 0), size - 1);
      *i1 = std::min(std::max(j + 1, 0), size - 1);
      break;
    default:
      *i0 = (j < 0 || j >= size) ? -1 : j;
      *i1 = (j + 1 < 0 || j + 1 >= size) ? -1 : j + 1;
  }
}

// 2D, one level, RGBA32F default texels, border (9, 8, 7, 6).
std::array<float, 4> ref_sample_2d(uint32_t wrap, bool linear, float s, float t, int w, int h) {
  const std::array<float, 4> border = {9, 8, 7, 6};
  auto texel = [&](int i, int j) -> std::array<float, 4> {
    if (i < 0 || j < 0) return border;
    return default_texel(uint32_t(i), uint32_t(j), 0, 0);
  };
  const float x = s * float(w), y = t * float(h);
  if (!linear) return texel(wrap_nearest(wrap, x, w), wrap_nearest(wrap, y, h));
  int i0, i1, j0, j1;
  float a, b;
  wrap_linear(wrap, x, w, &i0, &i1, &a);
  wrap_linear(wrap, y, h, &j0, &j1, &b);
  std::array<float, 4> r{};
  for (int k = 0; k < 4; ++k) {
    r[k] = (1 - a) * (1 - b) * texel(i0, j0)[k] + a * (1 - b) * texel(i1, j0)[k] +
           (1 - a) * b * texel(i0, j1)[k] + a * b * texel(i1, j1)[k];
  }
  return r;
}

// Runs `in` compiled, and interpreted (compiler::emit_interpreted) when `interpreted`,
// requiring the same bits from both: the interpreter's texture instructions make the
// compiled code's calls. NaNs compare as NaNs (emit_interp_test.cpp says why).
HarnessResult run_both(HarnessInput in, bool interpreted = true) {
  const HarnessResult compiled = run_shader(in);
  in.interpret = true;
  if (!interpreted) {
    CHECK_THROWS_AS(run_shader(in), clpipe::compiler::CompileError);
    return compiled;
  }
  const HarnessResult interp = run_shader(in);
  REQUIRE(interp.compiled.code.interp_code.size() > 0);
  REQUIRE(interp.out.size() == compiled.out.size());
  auto nan = [](uint32_t w) { return (w & 0x7f800000u) == 0x7f800000u && (w & 0x7fffffu); };
  for (size_t i = 0; i < compiled.out.size(); ++i) {
    INFO("interpreted: invocation " << i / (compiled.num_outputs * 4) << " word " << i);
    if (nan(interp.out[i]) && nan(compiled.out[i])) continue;
    REQUIRE(interp.out[i] == compiled.out[i]);
  }
  return compiled;
}

void set_border(TextureBinding& t) {
  const float border[4] = {9, 8, 7, 6};
  for (int k = 0; k < 4; ++k)
    t.sampler.border_color[k] = fbits(border[k]);
}

}  // namespace

TEST_CASE("emit: TXL filtering with every wrap mode (vertex stage)", "[emit][tex]") {
  // Texture unit u uses wrap mode u on both axes; even units nearest, odd linear: 16 units.
  std::string tgsi = "VERT\nDCL IN[0]\nDCL OUT[0..15], GENERIC[0]\nDCL SAMP[0..15]\n";
  for (int u = 0; u < 16; ++u)
    tgsi += "DCL SVIEW[" + std::to_string(u) + "], 2D, FLOAT\n";
  for (int u = 0; u < 16; ++u) {
    tgsi += "  " + std::to_string(u) + ": TXL OUT[" + std::to_string(u) + "], IN[0], SAMP[" +
            std::to_string(u) + "], 2D\n";
  }
  tgsi += "  16: END\n";
  HarnessInput in;
  in.tgsi = tgsi;
  for (uint32_t u = 0; u < 16; ++u) {
    TexDesc d;
    d.w = 5;
    d.h = 3;
    TextureBinding t = make_texture(d);
    const uint32_t wrap = u / 2;
    t.sampler.wrap[0] = t.sampler.wrap[1] = t.sampler.wrap[2] = wrap;
    t.sampler.min_img_filter = t.sampler.mag_img_filter = u & 1;
    t.sampler.min_mip_filter = CLP_MIP_NONE;
    set_border(t);
    in.textures[u] = t;
  }
  std::vector<std::array<float, 2>> coords;
  for (float s : {-1.3f, -0.55f, -0.1f, 0.0f, 0.05f, 0.3f, 0.5f, 0.77f, 0.99f, 1.0f, 1.2f, 2.6f}) {
    for (float t : {-0.7f, 0.0f, 0.2f, 0.5f, 0.95f, 1.4f})
      coords.push_back({s, t});
  }
  in.count = uint32_t(coords.size());
  for (const auto& c : coords)
    in.in.insert(in.in.end(), {fbits(c[0]), fbits(c[1]), 0, 0});
  HarnessResult r = run_both(in);
  for (uint32_t i = 0; i < in.count; ++i) {
    for (uint32_t u = 0; u < 16; ++u) {
      const auto want = ref_sample_2d(u / 2, u & 1, coords[i][0], coords[i][1], 5, 3);
      INFO("unit " << u << " (wrap " << u / 2 << (u & 1 ? " linear" : " nearest") << ") at "
                   << coords[i][0] << ", " << coords[i][1]);
      for (uint32_t c = 0; c < 4; ++c)
        CHECK(r.f(i, u, c) == Approx(want[c]).margin(1e-4));
    }
  }
}

TEST_CASE("emit: mip selection from quad derivatives, bias, LOD and gradients", "[emit][tex]") {
  // An 8x8 texture with 4 levels; texel .w = the level. Quad q samples with coordinates
  // spread so that the scale factor is 2^q texels per pixel -> lambda = q.
  HarnessInput in;
  in.tgsi = R"(FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL OUT[1], COLOR[1]
DCL OUT[2], COLOR[2]
DCL OUT[3], COLOR[3]
DCL OUT[4], COLOR[4]
DCL SAMP[0]
DCL SAMP[1]
DCL SVIEW[0], 2D, FLOAT
DCL SVIEW[1], 2D, FLOAT
DCL TEMP[0]
IMM[0] FLT32 {0x3f800000, 0x40000000, 0x3e000000, 0x00000000}
  0: TEX OUT[0], IN[0], SAMP[0], 2D
  1: MOV TEMP[0], IN[0]
  2: MOV TEMP[0].w, IMM[0].xxxx
  3: TXB OUT[1], TEMP[0], SAMP[0], 2D
  4: MOV TEMP[0].w, IMM[0].yyyy
  5: TXL OUT[2], TEMP[0], SAMP[1], 2D
  6: TXD OUT[3], IN[0], IMM[0].zwww, IMM[0].wwww, SAMP[0], 2D
  7: LODQ OUT[4], IN[0], SAMP[1], 2D
  8: END
)";
  TexDesc d;
  d.w = d.h = 8;
  d.levels = 4;
  TextureBinding nearest = make_texture(d);
  nearest.sampler.min_mip_filter = CLP_MIP_NEAREST;
  nearest.sampler.wrap[0] = nearest.sampler.wrap[1] = CLP_WRAP_CLAMP_TO_EDGE;
  TextureBinding linear = nearest;
  linear.sampler.min_mip_filter = CLP_MIP_LINEAR;
  linear.sampler.lod_bias = 0.5f;
  in.textures[0] = nearest;
  in.textures[1] = linear;
  const uint32_t quads = 4;
  in.count = quads * 4;
  for (uint32_t q = 0; q < quads; ++q) {
    const float step = std::ldexp(1.0f, int(q)) / 8.0f;  // 2^q texels of level 0 per pixel
    for (uint32_t l = 0; l < 4; ++l) {
      const float s = 0.2f + step * float(l & 1), t = 0.3f + step * float(l >> 1);
      in.in.insert(in.in.end(), {fbits(s), fbits(t), 0, 0});
    }
  }
  HarnessResult r = run_both(in);
  for (uint32_t q = 0; q < quads; ++q) {
    for (uint32_t l = 0; l < 4; ++l) {
      const uint32_t i = q * 4 + l;
      INFO("quad " << q << " lane " << l);
      // TEX: lambda = q, nearest mip: level min(q, 3) (lambda <= 0.5 -> 0).
      CHECK(r.f(i, 0, 3) == float(std::min(q, 3u)));
      // TXB with bias 1: lambda q + 1.
      CHECK(r.f(i, 1, 3) == float(std::min(q + 1, 3u)));
      // TXL lod 2 + sampler bias 0.5 with linear mips: between levels 2 and 3.
      CHECK(r.f(i, 2, 3) == Approx(2.5f).margin(1e-5));
      // TXD with ddx = (1/8, 0) and ddy = 0: lambda 0 -> level 0.
      CHECK(r.f(i, 3, 3) == 0.0f);
      // LODQ: raw lambda q + 0.5 (sampler bias) in y, clamped linear LOD in x.
      CHECK(r.f(i, 4, 1) == Approx(float(q) + 0.5f).margin(1e-4));
      CHECK(r.f(i, 4, 0) == Approx(std::fmin(float(q) + 0.5f, 3.0f)).margin(1e-4));
    }
  }
}

TEST_CASE("emit: TXF, offsets, TXQ, integer formats, swizzles, arrays, 3D and buffers",
          "[emit][tex]") {
  HarnessInput in;
  in.tgsi = R"(VERT
DCL IN[0..1]
DCL OUT[0..7], GENERIC[0]
DCL SAMP[0..4]
DCL SVIEW[0], 2D, FLOAT
DCL SVIEW[1], 2D_ARRAY, UINT
DCL SVIEW[2], 3D, FLOAT
DCL SVIEW[3], BUFFER, FLOAT
DCL SVIEW[4], 1D_ARRAY, FLOAT
IMM[0] INT32 {1, -1, 0, 0}
IMM[1] FLT32 {0x3f000000, 0x3f000000, 0x3f400000, 0x00000000}
  0: TXF OUT[0], IN[0], SAMP[0], 2D
  1: TXF OUT[1], IN[0], SAMP[0], 2D, IMM[0].xyz
  2: TXF OUT[2], IN[0], SAMP[1], 2D_ARRAY
  3: TXQ OUT[3], IN[0].wwww, SAMP[0], 2D
  4: TXQ OUT[4], IN[0].zzzz, SAMP[1], 2D_ARRAY
  5: TXL OUT[5], IMM[1], SAMP[2], 3D
  6: TXF OUT[6], IN[0].xxxx, SAMP[3], BUFFER
  7: TXL OUT[7], IN[1], SAMP[4], 1D_ARRAY
  8: END
)";
  // Lanes: IN[0] = (x, y, z/layer, level) integers; IN[1] = (s, layer, _, lod) floats.
  TexDesc d2;
  d2.w = 4;
  d2.h = 2;
  d2.levels = 2;
  in.textures[0] = make_texture(d2);
  // Swizzle of view 0: (Z, Y, X, 1).
  in.textures[0].view.swizzle[0] = 2;
  in.textures[0].view.swizzle[2] = 0;
  in.textures[0].view.swizzle[3] = 5;
  TexDesc da;
  da.target = CLP_TEXTARGET_2D_ARRAY;
  da.w = 3;
  da.h = 3;
  da.layers = 4;
  da.format = Format::R32G32B32A32_UINT;
  in.textures[1] = make_texture(da, [](uint32_t x, uint32_t y, uint32_t z, uint32_t) {
    return std::array<float, 4>{float(x), float(y), float(z), 77.0f};
  });
  in.textures[1].view.first_layer = 1;  // the view sees layers 1..3
  TexDesc d3;
  d3.target = CLP_TEXTARGET_3D;
  d3.w = d3.h = d3.d = 2;
  in.textures[2] = make_texture(d3);
  in.textures[2].sampler.min_img_filter = in.textures[2].sampler.mag_img_filter = CLP_FILTER_LINEAR;
  in.textures[2].sampler.wrap[2] = CLP_WRAP_CLAMP_TO_EDGE;
  TexDesc db;
  db.target = CLP_TEXTARGET_BUFFER;
  db.w = 6;
  db.h = 1;
  in.textures[3] = make_texture(db);
  in.textures[3].view.buffer_offset = 16;  // elements 1..4 of the data
  in.textures[3].view.buffer_size = 4 * 16;
  TexDesc d1;
  d1.target = CLP_TEXTARGET_1D_ARRAY;
  d1.w = 4;
  d1.h = 1;
  d1.layers = 3;
  in.textures[4] = make_texture(d1);
  struct Lane {
    int32_t x, y, z, level;
    float s, layer;
  };
  const std::vector<Lane> lanes = {{0, 0, 0, 0, 0.1f, 0.4f},   {3, 1, 1, 0, 0.6f, 0.6f},
                                   {1, 0, 2, 1, 0.9f, 1.5f},   {4, 0, 0, 0, 0.3f, 2.5f},
                                   {-1, 0, 3, 0, 0.3f, -3.0f}, {1, 1, 0, 2, 0.8f, 9.0f},
                                   {2, 1, 1, 1, 0.5f, 1.0f},   {0, 2, 0, -1, 0.2f, 0.0f}};
  in.count = uint32_t(lanes.size());
  for (const Lane& l : lanes) {
    in.in.insert(in.in.end(), {uint32_t(l.x), uint32_t(l.y), uint32_t(l.z), uint32_t(l.level)});
    in.in.insert(in.in.end(), {fbits(l.s), fbits(l.layer), 0, 0});
  }
  HarnessResult r = run_both(in);
  for (uint32_t i = 0; i < in.count; ++i) {
    const Lane& l = lanes[i];
    INFO("lane " << i);
    // TXF 2D with the (Z, Y, X, 1) swizzle; out of range (coords or level) -> 0.
    auto fetch2d = [&](int x, int y, int level) -> std::array<float, 4> {
      const int w = std::max(4 >> std::max(level, 0), 1), h = std::max(2 >> std::max(level, 0), 1);
      if (level < 0 || level > 1 || x < 0 || y < 0 || x >= w || y >= h) return {0, 0, 0, 0};
      const auto t = default_texel(uint32_t(x), uint32_t(y), 0, uint32_t(level));
      return {t[2], t[1], t[0], 1.0f};
    };
    const auto f0 = fetch2d(l.x, l.y, l.level), f1 = fetch2d(l.x + 1, l.y - 1, l.level);
    for (uint32_t c = 0; c < 4; ++c) {
      CHECK(r.f(i, 0, c) == f0[c]);
      CHECK(r.f(i, 1, c) == f1[c]);
    }
    // TXF 2D array (integers): layer z of the view = resource layer z + 1.
    const bool in_arr =
        l.level == 0 && l.x >= 0 && l.x < 3 && l.y >= 0 && l.y < 3 && l.z >= 0 && l.z < 3;
    CHECK(r.u(i, 2, 0) == (in_arr ? uint32_t(l.x) : 0u));
    CHECK(r.u(i, 2, 2) == (in_arr ? uint32_t(l.z + 1) : 0u));
    CHECK(r.u(i, 2, 3) == (in_arr ? 77u : 0u));
    // TXQ 2D at level .w: (w, h, 0, levels); out of range -> 0 sizes.
    const bool lv_ok = l.level >= 0 && l.level < 2;
    CHECK(r.u(i, 3, 0) == (lv_ok ? uint32_t(std::max(4 >> l.level, 1)) : 0u));
    CHECK(r.u(i, 3, 1) == (lv_ok ? uint32_t(std::max(2 >> l.level, 1)) : 0u));
    CHECK(r.u(i, 3, 3) == 2u);
    // TXQ 2D array at level .z: layers of the view = 3.
    const bool lz = l.z == 0;
    CHECK(r.u(i, 4, 0) == (lz ? 3u : 0u));
    CHECK(r.u(i, 4, 2) == (lz ? 3u : 0u));
    // 3D linear at (0.5, 0.5, 0.75): x, y between texels 0 and 1 -> 0.5; z: 0.75 * 2 =
    // 1.5 -> texel 1 (clamped).
    CHECK(r.f(i, 5, 0) == Approx(0.5f));
    CHECK(r.f(i, 5, 1) == Approx(0.5f));
    CHECK(r.f(i, 5, 2) == Approx(1.0f));
    // Buffer: element x of the view = element x + 1 of the data; 4 elements.
    const bool b_ok = l.x >= 0 && l.x < 4;
    CHECK(r.f(i, 6, 0) == (b_ok ? float(l.x + 1) : 0.0f));
    // 1D array: layer = clamp(round(layer), 0, 2), nearest texel of s.
    const int layer = std::min(std::max(int(std::floor(l.layer + 0.5f)), 0), 2);
    CHECK(r.f(i, 7, 2) == float(layer));
    CHECK(r.f(i, 7, 0) == float(std::min(int(l.s * 4.0f), 3)));
  }
}

TEST_CASE("emit: shadow compare with PCF, gather and cube faces", "[emit][tex]") {
  HarnessInput in;
  in.tgsi = R"(VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0..4], GENERIC[0]
DCL SAMP[0..2]
DCL SVIEW[0], SHADOW2D, FLOAT
DCL SVIEW[1], 2D, FLOAT
DCL SVIEW[2], CUBE, FLOAT
IMM[0] UINT32 {0, 1, 0, 0}
  0: TEX OUT[0], IN[0], SAMP[0], SHADOW2D
  1: TG4 OUT[1], IN[0], IMM[0].xxxx, SAMP[1], 2D
  2: TG4 OUT[2], IN[0], IMM[0].yyyy, SAMP[1], 2D
  3: TEX OUT[3], IN[1], SAMP[2], CUBE
  4: TG4 OUT[4], IN[0], IMM[0].xxxx, SAMP[0], SHADOW2D
  5: END
)";
  // Depth texture 2x2: depths 0.1 0.3 / 0.5 0.7; compare LEQUAL (ref <= texel), linear.
  TexDesc dz;
  dz.w = dz.h = 2;
  dz.format = Format::R32_FLOAT;
  const float depth[4] = {0.1f, 0.3f, 0.5f, 0.7f};
  in.textures[0] = make_texture(dz, [&](uint32_t x, uint32_t y, uint32_t, uint32_t) {
    return std::array<float, 4>{depth[y * 2 + x], 0, 0, 0};
  });
  in.textures[0].sampler.compare_mode = 1;
  in.textures[0].sampler.compare_func = 3;  // LEQUAL
  in.textures[0].sampler.min_img_filter = in.textures[0].sampler.mag_img_filter = CLP_FILTER_LINEAR;
  in.textures[0].sampler.wrap[0] = in.textures[0].sampler.wrap[1] = CLP_WRAP_CLAMP_TO_EDGE;
  TexDesc d2;
  d2.w = d2.h = 4;
  in.textures[1] = make_texture(d2);
  TexDesc dc;
  dc.target = CLP_TEXTARGET_CUBE;
  dc.w = dc.h = 2;
  dc.layers = 6;
  in.textures[2] = make_texture(dc);  // texel .z = face
  struct Lane {
    float s, t, ref;
    float dir[3];
  };
  const std::vector<Lane> lanes = {
      {0.5f, 0.5f, 0.4f, {1, 0.2f, 0.1f}},   {0.25f, 0.25f, 0.2f, {-1, 0.5f, -0.3f}},
      {0.75f, 0.75f, 0.6f, {0.1f, 2, 0.3f}}, {0.5f, 0.25f, 0.0f, {0.2f, -3, 0.1f}},
      {0.3f, 0.6f, 1.0f, {0.1f, 0.2f, 5}},   {0.5f, 0.5f, 0.75f, {0.3f, 0.1f, -0.9f}}};
  in.count = uint32_t(lanes.size());
  for (const Lane& l : lanes) {
    in.in.insert(in.in.end(), {fbits(l.s), fbits(l.t), fbits(l.ref), 0});
    in.in.insert(in.in.end(), {fbits(l.dir[0]), fbits(l.dir[1]), fbits(l.dir[2]), 0});
  }
  HarnessResult r = run_both(in);
  for (uint32_t i = 0; i < in.count; ++i) {
    const Lane& l = lanes[i];
    INFO("lane " << i);
    // PCF: bilinear weights of the four compares (clamped to edge, 2x2).
    int i0, i1, j0, j1;
    float a, b;
    wrap_linear(CLP_WRAP_CLAMP_TO_EDGE, l.s * 2, 2, &i0, &i1, &a);
    wrap_linear(CLP_WRAP_CLAMP_TO_EDGE, l.t * 2, 2, &j0, &j1, &b);
    auto cmp = [&](int x, int y) { return l.ref <= depth[y * 2 + x] ? 1.0f : 0.0f; };
    const float pcf = (1 - a) * (1 - b) * cmp(i0, j0) + a * (1 - b) * cmp(i1, j0) +
                      (1 - a) * b * cmp(i0, j1) + a * b * cmp(i1, j1);
    CHECK(r.f(i, 0, 0) == Approx(pcf).margin(1e-5));
    CHECK(r.f(i, 0, 3) == 1.0f);
    // TG4 component x and y of the 4x4 footprint: (i0,j1) (i1,j1) (i1,j0) (i0,j0).
    wrap_linear(CLP_WRAP_REPEAT, l.s * 4, 4, &i0, &i1, &a);
    wrap_linear(CLP_WRAP_REPEAT, l.t * 4, 4, &j0, &j1, &b);
    const int gi[4] = {i0, i1, i1, i0}, gj[4] = {j1, j1, j0, j0};
    for (uint32_t k = 0; k < 4; ++k) {
      CHECK(r.f(i, 1, k) == float(gi[k]));
      CHECK(r.f(i, 2, k) == float(gj[k]));
    }
    // Shadow gather: each of the four compares of the 2x2 depth texture.
    wrap_linear(CLP_WRAP_CLAMP_TO_EDGE, l.s * 2, 2, &i0, &i1, &a);
    wrap_linear(CLP_WRAP_CLAMP_TO_EDGE, l.t * 2, 2, &j0, &j1, &b);
    const int si[4] = {i0, i1, i1, i0}, sj[4] = {j1, j1, j0, j0};
    for (uint32_t k = 0; k < 4; ++k)
      CHECK(r.f(i, 4, k) == cmp(si[k], sj[k]));
    // Cube: the face of the major axis (+X -X +Y -Y +Z -Z) is the texel's layer.
    const float ax = std::fabs(l.dir[0]), ay = std::fabs(l.dir[1]), az = std::fabs(l.dir[2]);
    int face;
    if (ax >= ay && ax >= az)
      face = l.dir[0] >= 0 ? 0 : 1;
    else if (ay >= az)
      face = l.dir[1] >= 0 ? 2 : 3;
    else
      face = l.dir[2] >= 0 ? 4 : 5;
    CHECK(r.f(i, 3, 2) == float(face));
  }
}

TEST_CASE("emit: SAMPLE_* family with separate views and samplers", "[emit][tex]") {
  HarnessInput in;
  in.tgsi = R"(VERT
DCL IN[0]
DCL OUT[0..3], GENERIC[0]
DCL SAMP[0]
DCL SAMP[1]
DCL SVIEW[0], 2D, FLOAT
DCL SVIEW[1], 2D, FLOAT
DCL TEMP[0]
IMM[0] FLT32 {0x00000000, 0x00000000, 0x00000000, 0x00000000}
  0: SAMPLE_L OUT[0], IN[0], SVIEW[1], SAMP[0], IMM[0].xxxx
  1: SAMPLE_L OUT[1], IN[0], SVIEW[1], SAMP[1], IMM[0].xxxx
  2: MOV TEMP[0].xy, IN[0].zwww
  3: MOV TEMP[0].zw, IMM[0].xxxx
  4: SAMPLE_I OUT[2], TEMP[0], SVIEW[0]
  5: SVIEWINFO OUT[3], IMM[0].xxxx, SVIEW[1]
  6: END
)";
  TexDesc a;
  a.w = a.h = 2;
  in.textures[0] = make_texture(a);
  TexDesc b;
  b.w = 8;
  b.h = 4;
  in.textures[1] = make_texture(b);
  // Sampler 0 nearest, sampler 1 linear (their views are unused by SAMPLE_*).
  in.textures[1].sampler.min_img_filter = in.textures[1].sampler.mag_img_filter = CLP_FILTER_LINEAR;
  in.count = 4;
  const float s[4] = {0.1f, 0.3f, 0.55f, 0.9f};
  for (uint32_t i = 0; i < 4; ++i)
    in.in.insert(in.in.end(), {fbits(s[i]), fbits(0.5f), i % 2, i / 2});
  HarnessResult r = run_both(in);
  for (uint32_t i = 0; i < 4; ++i) {
    INFO("lane " << i);
    CHECK(r.f(i, 0, 0) == float(int(s[i] * 8)));  // view 1, nearest
    CHECK(r.f(i, 1, 0) == Approx(ref_sample_2d(CLP_WRAP_REPEAT, true, s[i], 0.5f, 8, 4)[0]));
    CHECK(r.f(i, 2, 0) == float(i % 2));  // texel fetch of view 0
    CHECK(r.f(i, 2, 1) == float(i / 2));
    CHECK(r.u(i, 3, 0) == 8u);
    CHECK(r.u(i, 3, 1) == 4u);
    CHECK(r.u(i, 3, 3) == 1u);
  }
}

TEST_CASE("emit: textureGatherOffsets and cube arrays (TXL2, TEX2)", "[emit][tex]") {
  HarnessInput in;
  in.tgsi = R"(VERT
DCL IN[0..1]
DCL OUT[0..2], GENERIC[0]
DCL SAMP[0..2]
DCL SVIEW[0], 2D, FLOAT
DCL SVIEW[1], CUBEARRAY, FLOAT
DCL SVIEW[2], SHADOWCUBEARRAY, FLOAT
IMM[0] INT32 {0, 1, -1, 2}
IMM[1] FLT32 {0x00000000, 0x3f000000, 0x00000000, 0x00000000}
  0: TG4 OUT[0], IN[0], IMM[0].xxxx, SAMP[0], 2D, IMM[0].xxx, IMM[0].yxx, IMM[0].zwx, IMM[0].wzx
  1: TXL2 OUT[1], IN[1], IMM[1].xxxx, SAMP[1], CUBEARRAY
  2: TEX2 OUT[2], IN[1], IMM[1].yyyy, SAMP[2], SHADOWCUBEARRAY
  3: END
)";
  TexDesc d;
  d.w = d.h = 8;
  in.textures[0] = make_texture(d);
  TexDesc dc;
  dc.target = CLP_TEXTARGET_CUBE_ARRAY;
  dc.w = dc.h = 2;
  dc.layers = 12;                     // two cubes
  in.textures[1] = make_texture(dc);  // texel .z = layer = face + 6 * cube
  TexDesc ds = dc;
  ds.format = Format::R32_FLOAT;
  in.textures[2] = make_texture(ds, [](uint32_t, uint32_t, uint32_t z, uint32_t) {
    return std::array<float, 4>{z < 6 ? 0.25f : 0.75f, 0, 0, 0};
  });
  in.textures[2].sampler.compare_mode = 1;
  in.textures[2].sampler.compare_func = 1;  // LESS: ref < texel
  struct Lane {
    float s, t;
    float dir[3], layer;
  };
  const std::vector<Lane> lanes = {{0.5f, 0.5f, {1, 0, 0}, 0.2f},
                                   {0.1f, 0.9f, {0, -1, 0.1f}, 1.0f},
                                   {0.7f, 0.3f, {0, 0, 1}, 1.6f},
                                   {0.95f, 0.05f, {-1, 0.2f, 0}, 7.0f}};
  in.count = uint32_t(lanes.size());
  for (const Lane& l : lanes) {
    in.in.insert(in.in.end(), {fbits(l.s), fbits(l.t), 0, 0});
    in.in.insert(in.in.end(), {fbits(l.dir[0]), fbits(l.dir[1]), fbits(l.dir[2]), fbits(l.layer)});
  }
  // The interpreter does not take TG4's four offsets (Emitter::interp_encode).
  HarnessResult r = run_both(in, false);
  const int off[4][2] = {{0, 0}, {1, 0}, {-1, 2}, {2, -1}};
  for (uint32_t i = 0; i < in.count; ++i) {
    const Lane& l = lanes[i];
    INFO("lane " << i);
    // Texel k of the footprint taken with offset k: (i0,j1) (i1,j1) (i1,j0) (i0,j0).
    for (int k = 0; k < 4; ++k) {
      int i0, i1, j0, j1;
      float a, b;
      wrap_linear(CLP_WRAP_REPEAT, l.s * 8 + off[k][0], 8, &i0, &i1, &a);
      wrap_linear(CLP_WRAP_REPEAT, l.t * 8 + off[k][1], 8, &j0, &j1, &b);
      const int gi[4] = {i0, i1, i1, i0};
      CHECK(r.f(i, 0, uint32_t(k)) == float(gi[k]));
    }
    const float ax = std::fabs(l.dir[0]), ay = std::fabs(l.dir[1]), az = std::fabs(l.dir[2]);
    const int face = (ax >= ay && ax >= az) ? (l.dir[0] >= 0 ? 0 : 1)
                     : (ay >= az)           ? (l.dir[1] >= 0 ? 2 : 3)
                                            : (l.dir[2] >= 0 ? 4 : 5);
    const int cube = std::min(std::max(int(std::floor(l.layer + 0.5f)), 0), 1);
    CHECK(r.f(i, 1, 2) == float(face + 6 * cube));
    // Reference 0.5 against 0.25 (cube 0) or 0.75 (cube 1).
    CHECK(r.f(i, 2, 0) == (cube == 1 ? 1.0f : 0.0f));
  }
}
