// Per-fragment operations against host math: alpha test, two-sided stencil with every
// function and op, depth test with every function and write mask on every depth format,
// blending with every factor and equation, colour masks and logic ops.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <random>

#include "draw/draw_fixture.h"
#include "draw/reference_raster.h"
#include "frontend/format_codec.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::frontend::draw;

namespace {

constexpr uint32_t kW = 40, kH = 24;

bool compare(CompareFunc f, double a, double b) {
  switch (f) {
    case CompareFunc::NEVER:
      return false;
    case CompareFunc::LESS:
      return a < b;
    case CompareFunc::EQUAL:
      return a == b;
    case CompareFunc::LEQUAL:
      return a <= b;
    case CompareFunc::GREATER:
      return a > b;
    case CompareFunc::NOTEQUAL:
      return a != b;
    case CompareFunc::GEQUAL:
      return a >= b;
    case CompareFunc::ALWAYS:
      return true;
  }
  return false;
}

uint32_t stencil_op(StencilOp op, uint32_t s, uint32_t ref) {
  switch (op) {
    case StencilOp::KEEP:
      return s;
    case StencilOp::ZERO:
      return 0;
    case StencilOp::REPLACE:
      return ref;
    case StencilOp::INCR:
      return s == 255 ? 255 : s + 1;
    case StencilOp::DECR:
      return s == 0 ? 0 : s - 1;
    case StencilOp::INCR_WRAP:
      return (s + 1) & 255;
    case StencilOp::DECR_WRAP:
      return (s - 1) & 255;
    case StencilOp::INVERT:
      return ~s & 255;
  }
  return s;
}

// The depth buffer's value of depth z: its packed bits, read back as a number.
double depth_key(Format f, float z) {
  uint8_t block[8] = {};
  frontend::pack_depth(f, z, block);
  return frontend::unpack_depth(f, block);
}

// A full-window quad: the upper-left triangle faces front, the lower-right one back.
struct QuadRun {
  DrawFixture fx;
  DrawSetup s;
  QuadRun() {
    s = fx.basic_setup(kW, kH);
    s.vs = fx.passthrough_vs(2);
    s.fs = fx.varying_fs(0);
    s.fs_links = {ClpFsLink{1, -1, CLP_LINK_ALL_CHANNELS, {0, 0, 0, 1}}};
    s.rasterizer.front_ccw = true;
  }
  // Triangle 0: colour c0, depth z0 (NDC); triangle 1, wound the other way: c1, z1.
  void draw(const float* c0, float z0, const float* c1, float z1) {
    const float v[6][2] = {{-1, 1}, {-1, -1}, {1, 1}, {1, 1}, {-1, -1}, {1, -1}};
    std::vector<float> d;
    for (int i = 0; i < 6; ++i) {
      const float* c = i < 3 ? c0 : c1;
      const float z = i < 3 ? z0 : z1;
      d.insert(d.end(), {v[i][0], v[i][1], z, 1, c[0], c[1], c[2], c[3]});
    }
    std::swap(d[3 * 8 + 0], d[4 * 8 + 0]);
    std::swap(d[3 * 8 + 1], d[4 * 8 + 1]);
    fx.set_vertices(s, d, 8, {Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT});
    DrawInfo info;
    fx.pipeline().draw(s, info, DrawStartCountBias{0, 6, 0}, 0);
  }
  // Which triangle covers pixel (x, y) (the quad covers every pixel; the fill convention
  // decides pixels on the diagonal, as the reference shows).
  static int tri_at(uint32_t x, uint32_t y) {
    static const std::vector<int> faces = [] {
      std::vector<int> f(size_t(kW) * kH, -1);
      RefState rs = ref_state(kW, kH);
      rs.front_ccw = true;
      auto vert = [](float x, float y) {
        RefVertex v;
        v.pos = {x, y, 0, 1};
        return v;
      };
      for (const RefFragment& fr : ref_triangle(rs, vert(-1, 1), vert(-1, -1), vert(1, 1))) {
        f[size_t(fr.y) * kW + fr.x] = 0;
        front[0] = fr.front;
      }
      for (const RefFragment& fr : ref_triangle(rs, vert(-1, -1), vert(1, 1), vert(1, -1))) {
        f[size_t(fr.y) * kW + fr.x] = 1;
        front[1] = fr.front;
      }
      return f;
    }();
    return faces[size_t(y) * kW + x];
  }
  // Whether triangle t faces front (Gallium: counter-clockwise with y down, front_ccw).
  static inline bool front[2] = {false, false};
};

}  // namespace

TEST_CASE("alpha, depth bounds, stencil and depth tests follow GL on every depth format",
          "[draw][zs]") {
  QuadRun r;
  std::mt19937 rng(2024);
  (void)QuadRun::tri_at(0, 0);
  REQUIRE(QuadRun::front[0] != QuadRun::front[1]);
  const Format formats[] = {Format::Z16_UNORM,
                            Format::Z24_UNORM_S8_UINT,
                            Format::S8_UINT_Z24_UNORM,
                            Format::Z24X8_UNORM,
                            Format::X8Z24_UNORM,
                            Format::Z32_FLOAT,
                            Format::Z32_FLOAT_S8X24_UINT,
                            Format::Z32_UNORM,
                            Format::S8_UINT};
  const float zs_ndc[] = {-1.0f, -0.5f, 0.0f, 0.25f, 0.5f, 1.0f};
  std::uniform_int_distribution<int> u8(0, 255), func(0, 7), op(0, 7), coin(0, 1), zi(0, 5);
  for (int iter = 0; iter < 150; ++iter) {
    const Format zf = formats[iter % 9];
    const uint32_t bpp = format_desc(zf).block_bytes;
    // Random stored depth/stencil, but with depths drawn from the same few values as the
    // fragments, so that EQUAL and friends meet equal values.
    std::vector<uint8_t> init(size_t(kW) * kH * bpp);
    for (size_t p = 0; p < size_t(kW) * kH; ++p) {
      uint8_t* px = init.data() + p * bpp;
      for (uint32_t b = 0; b < bpp; ++b)
        px[b] = uint8_t(u8(rng));
      frontend::pack_depth(zf, zs_ndc[zi(rng)] * 0.5f + 0.5f, px);
    }
    ColorTarget zt;
    zt.format = zf;
    zt.pitch = kW * bpp;
    zt.buffer = r.fx.buffer(init.data(), init.size());
    r.s.zsbuf = zt;
    r.s.cbufs[0] = r.fx.target(Format::R32G32B32A32_FLOAT, kW, kH);

    DepthStencilAlphaState& z = r.s.dsa;
    z = DepthStencilAlphaState();
    z.depth_enabled = coin(rng) || iter < 20;
    z.depth_writemask = coin(rng);
    z.depth_func = CompareFunc(func(rng));
    for (int f = 0; f < 2; ++f) {
      StencilState& st = z.stencil[f];
      st.enabled = f == 0 ? coin(rng) || iter >= 75 : coin(rng);
      st.func = CompareFunc(func(rng));
      st.fail_op = StencilOp(op(rng));
      st.zpass_op = StencilOp(op(rng));
      st.zfail_op = StencilOp(op(rng));
      st.valuemask = uint8_t(u8(rng));
      st.writemask = uint8_t(u8(rng));
      r.s.stencil_ref.ref_value[f] = uint8_t(u8(rng));
    }
    // Bounds drawn from the stored depths, so that pixels meet them exactly.
    z.depth_bounds_test = iter % 3 == 1;
    const float b0 = zs_ndc[zi(rng)] * 0.5f + 0.5f, b1 = zs_ndc[zi(rng)] * 0.5f + 0.5f;
    z.depth_bounds_min = std::min(b0, b1);
    z.depth_bounds_max = std::max(b0, b1);
    z.alpha_enabled = iter % 5 == 0;
    z.alpha_func = CompareFunc(func(rng));
    z.alpha_ref_value = 0.5f;
    const float c0[4] = {1, 0, 0, coin(rng) ? 0.25f : 0.75f}, c1[4] = {0, 1, 0, 0.5f};
    const float z0 = zs_ndc[zi(rng)], z1 = zs_ndc[zi(rng)];
    // The fragment counters of occlusion queries and pipeline statistics, from zero.
    const uint32_t zero[CLP_NUM_COUNTER_WORDS] = {};
    r.s.counters = r.fx.buffer(zero, sizeof(zero));
    r.draw(c0, z0, c1, z1);
    uint32_t counters[CLP_NUM_COUNTER_WORDS];
    r.fx.queue().read(r.s.counters, 0, sizeof(counters), counters);

    Image color = r.fx.read(r.s.cbufs[0], kW, kH);
    Image zsimg = r.fx.read(zt, kW, kH);
    const bool has_z = format_has_depth(zf), has_s = format_has_stencil(zf);
    int bad = 0, passed = 0;
    for (uint32_t y = 0; y < kH; ++y) {
      for (uint32_t x = 0; x < kW; ++x) {
        const int tri = QuadRun::tri_at(x, y);
        const int face = QuadRun::front[tri] ? 0 : 1;
        const float* c = tri ? c1 : c0;
        const float zfrag = (tri ? z1 : z0) * 0.5f + 0.5f;
        const uint8_t* px = init.data() + (size_t(y) * kW + x) * bpp;
        double zbuf = frontend::unpack_depth(zf, px);
        uint32_t sbuf = frontend::unpack_stencil(zf, px);
        bool pass = true;
        if (z.alpha_enabled) pass = compare(z.alpha_func, c[3], z.alpha_ref_value);
        // EXT_depth_bounds_test: the stored depth against the bounds quantised like it,
        // whether or not the depth test is on; a fragment outside is discarded before
        // the stencil test, leaving the pixel as it is.
        if (pass && has_z && z.depth_bounds_test)
          pass = depth_key(zf, float(z.depth_bounds_min)) <= zbuf &&
                 zbuf <= depth_key(zf, float(z.depth_bounds_max));
        const int si = (face == 1 && z.stencil[1].enabled) ? 1 : 0;
        const StencilState& st = z.stencil[si];
        const uint32_t ref = r.s.stencil_ref.ref_value[si];
        const bool stencil = has_s && z.stencil[0].enabled;
        auto write_s = [&](StencilOp o) {
          sbuf = (sbuf & ~uint32_t(st.writemask)) | (stencil_op(o, sbuf, ref) & st.writemask);
        };
        if (pass && stencil && !compare(st.func, ref & st.valuemask, sbuf & st.valuemask)) {
          write_s(st.fail_op);
          pass = false;
        } else if (pass) {
          bool zpass = true;
          if (has_z && z.depth_enabled) {
            const double key = depth_key(zf, zfrag);
            zpass = compare(z.depth_func, key, zbuf);
            if (zpass && z.depth_writemask) zbuf = key;
          }
          if (stencil) write_s(zpass ? st.zpass_op : st.zfail_op);
          pass = zpass;
        }
        passed += pass;
        const auto got = color.rgba(x, y);
        const bool written = got[3] != 0;
        const double gz = frontend::unpack_depth(zf, zsimg.pixel(x, y));
        const uint32_t gs = frontend::unpack_stencil(zf, zsimg.pixel(x, y));
        if (written != pass || (written && got[0] != c[0]) || gz != zbuf || gs != sbuf) {
          if (bad < 3) {
            UNSCOPED_INFO("pixel " << x << "," << y << " face " << face << ": written " << written
                                   << " want " << pass << ", z " << gz << " want " << zbuf << ", s "
                                   << gs << " want " << sbuf);
          }
          ++bad;
        }
      }
    }
    CHECK(counters[CLP_COUNTER_SAMPLES_PASSED] == uint32_t(passed));
    CHECK(counters[CLP_COUNTER_SAMPLES_PASSED + 1] == 0);
    // Without an alpha test the depth/stencil tests run before the shader, so only the
    // fragments that pass them are shaded.
    CHECK(counters[CLP_COUNTER_PS_INVOCATIONS] == (z.alpha_enabled ? kW * kH : uint32_t(passed)));
    INFO("iteration " << iter << " format " << format_name(zf) << " depth func "
                      << int(z.depth_func) << " write " << z.depth_writemask << " alpha "
                      << z.alpha_enabled << " bounds " << z.depth_bounds_test << " ["
                      << z.depth_bounds_min << ", " << z.depth_bounds_max << "]");
    for (int f = 0; f < 2; ++f) {
      const StencilState& st = z.stencil[f];
      INFO("stencil " << f << ": en " << st.enabled << " func " << int(st.func) << " ops "
                      << int(st.fail_op) << int(st.zpass_op) << int(st.zfail_op) << " vm "
                      << int(st.valuemask) << " wm " << int(st.writemask) << " ref "
                      << int(r.s.stencil_ref.ref_value[f]));
    }
    CHECK(bad == 0);
  }
}

namespace {

float blend_factor(BlendFactor f, int ch, const float* s, const float* d, const float* c) {
  const bool alpha = ch == 3;
  switch (f) {
    case BlendFactor::ONE:
      return 1;
    case BlendFactor::SRC_COLOR:
      return s[ch];
    case BlendFactor::SRC_ALPHA:
      return s[3];
    case BlendFactor::DST_ALPHA:
      return d[3];
    case BlendFactor::DST_COLOR:
      return d[ch];
    case BlendFactor::SRC_ALPHA_SATURATE:
      return alpha ? 1.0f : std::min(s[3], 1.0f - d[3]);
    case BlendFactor::CONST_COLOR:
      return c[ch];
    case BlendFactor::CONST_ALPHA:
      return c[3];
    case BlendFactor::ZERO:
      return 0;
    case BlendFactor::INV_SRC_COLOR:
      return 1.0f - s[ch];
    case BlendFactor::INV_SRC_ALPHA:
      return 1.0f - s[3];
    case BlendFactor::INV_DST_ALPHA:
      return 1.0f - d[3];
    case BlendFactor::INV_DST_COLOR:
      return 1.0f - d[ch];
    case BlendFactor::INV_CONST_COLOR:
      return 1.0f - c[ch];
    case BlendFactor::INV_CONST_ALPHA:
      return 1.0f - c[3];
    default:
      return 0;
  }
}

float blend_eq(BlendFunc f, float s, float sf, float d, float df) {
  switch (f) {
    case BlendFunc::ADD:
      return s * sf + d * df;
    case BlendFunc::SUBTRACT:
      return s * sf - d * df;
    case BlendFunc::REVERSE_SUBTRACT:
      return d * df - s * sf;
    case BlendFunc::MIN:
      return std::fmin(s, d);
    case BlendFunc::MAX:
      return std::fmax(s, d);
  }
  return s;
}

}  // namespace

TEST_CASE("blending, colour masks and logic ops match host math", "[draw][blend]") {
  QuadRun r;
  r.s.rasterizer.cull_face = Face::NONE;
  std::mt19937 rng(77);
  std::uniform_int_distribution<int> fac(0, 14), fn(0, 4), mask(0, 15), lop(0, 15), u8(0, 255);
  std::uniform_real_distribution<float> col(-0.2f, 1.3f);
  const Format formats[] = {Format::R8G8B8A8_UNORM, Format::R32G32B32A32_FLOAT};
  for (int iter = 0; iter < 120; ++iter) {
    const Format cf = formats[iter % 2];
    const uint32_t bpp = format_desc(cf).block_bytes;
    std::vector<uint8_t> init(size_t(kW) * kH * bpp);
    for (size_t p = 0; p < size_t(kW) * kH; ++p) {
      float v[4] = {float(u8(rng)) / 255, float(u8(rng)) / 255, float(u8(rng)) / 255,
                    float(u8(rng)) / 255};
      frontend::pack_rgba_float(cf, v, init.data() + p * bpp);
    }
    ColorTarget ct;
    ct.format = cf;
    ct.pitch = kW * bpp;
    ct.buffer = r.fx.buffer(init.data(), init.size());
    r.s.cbufs[0] = ct;
    BlendState& b = r.s.blend;
    b = BlendState();
    RtBlendState& rt = b.rt[0];
    rt.blend_enable = iter % 8 != 0;
    rt.rgb_func = BlendFunc(fn(rng));
    rt.alpha_func = BlendFunc(fn(rng));
    rt.rgb_src_factor = kBlendFactors[fac(rng)];
    rt.rgb_dst_factor = kBlendFactors[fac(rng)];
    rt.alpha_src_factor = kBlendFactors[fac(rng)];
    rt.alpha_dst_factor = kBlendFactors[fac(rng)];
    rt.colormask = uint8_t(iter % 3 == 0 ? mask(rng) : 15);
    b.logicop_enable = cf == Format::R8G8B8A8_UNORM && iter % 6 == 1;
    b.logicop_func = LogicOp(lop(rng));
    for (float& c : r.s.blend_color.color)
      c = col(rng);
    const float c0[4] = {col(rng), col(rng), col(rng), col(rng)};
    const float c1[4] = {col(rng), col(rng), col(rng), col(rng)};
    r.draw(c0, 0, c1, 0);
    Image img = r.fx.read(ct, kW, kH);
    const bool unorm = cf == Format::R8G8B8A8_UNORM;
    int bad = 0;
    for (uint32_t y = 0; y < kH; ++y) {
      for (uint32_t x = 0; x < kW; ++x) {
        float src[4], dst[4], cc[4], out[4];
        std::memcpy(src, QuadRun::tri_at(x, y) ? c1 : c0, sizeof(src));
        frontend::unpack_rgba_float(cf, init.data() + (size_t(y) * kW + x) * bpp, dst);
        std::memcpy(cc, r.s.blend_color.color, sizeof(cc));
        if (b.logicop_enable) {
          uint8_t sp[4], dp[4], rp[4];
          frontend::pack_rgba_float(cf, src, sp);
          frontend::pack_rgba_float(cf, dst, dp);
          for (int k = 0; k < 4; ++k) {
            const uint8_t s = sp[k], d = dp[k];
            uint8_t v = 0;
            switch (b.logicop_func) {
              case LogicOp::CLEAR:
                v = 0;
                break;
              case LogicOp::NOR:
                v = ~(s | d);
                break;
              case LogicOp::AND_INVERTED:
                v = ~s & d;
                break;
              case LogicOp::COPY_INVERTED:
                v = ~s;
                break;
              case LogicOp::AND_REVERSE:
                v = s & ~d;
                break;
              case LogicOp::INVERT:
                v = ~d;
                break;
              case LogicOp::XOR:
                v = s ^ d;
                break;
              case LogicOp::NAND:
                v = ~(s & d);
                break;
              case LogicOp::AND:
                v = s & d;
                break;
              case LogicOp::EQUIV:
                v = ~(s ^ d);
                break;
              case LogicOp::NOOP:
                v = d;
                break;
              case LogicOp::OR_INVERTED:
                v = ~s | d;
                break;
              case LogicOp::COPY:
                v = s;
                break;
              case LogicOp::OR_REVERSE:
                v = s | ~d;
                break;
              case LogicOp::OR:
                v = s | d;
                break;
              case LogicOp::SET:
                v = 0xff;
                break;
            }
            rp[k] = v;
          }
          frontend::unpack_rgba_float(cf, rp, out);
        } else if (rt.blend_enable) {
          if (unorm) {
            for (int k = 0; k < 4; ++k) {
              src[k] = std::clamp(src[k], 0.0f, 1.0f);
              cc[k] = std::clamp(cc[k], 0.0f, 1.0f);
            }
          }
          for (int k = 0; k < 4; ++k) {
            const bool a = k == 3;
            out[k] = blend_eq(
                a ? rt.alpha_func : rt.rgb_func, src[k],
                blend_factor(a ? rt.alpha_src_factor : rt.rgb_src_factor, k, src, dst, cc), dst[k],
                blend_factor(a ? rt.alpha_dst_factor : rt.rgb_dst_factor, k, src, dst, cc));
          }
        } else {
          std::memcpy(out, src, sizeof(out));
        }
        for (int k = 0; k < 4; ++k) {
          if (!(rt.colormask & (1 << k))) out[k] = dst[k];
        }
        std::vector<uint8_t> want(bpp);
        frontend::pack_rgba_float(cf, out, want.data());
        if (std::memcmp(want.data(), img.pixel(x, y), bpp) != 0) {
          if (bad < 3) {
            float got[4];
            frontend::unpack_rgba_float(cf, img.pixel(x, y), got);
            UNSCOPED_INFO("pixel " << x << "," << y << " got " << got[0] << " " << got[1] << " "
                                   << got[2] << " " << got[3] << " want " << out[0] << " " << out[1]
                                   << " " << out[2] << " " << out[3]);
          }
          ++bad;
        }
      }
    }
    INFO("iteration " << iter << " format " << format_name(cf) << " rgb func " << int(rt.rgb_func)
                      << " factors " << int(rt.rgb_src_factor) << "/" << int(rt.rgb_dst_factor)
                      << " logicop " << b.logicop_enable);
    CHECK(bad == 0);
  }
}
