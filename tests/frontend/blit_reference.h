// Host reference of Context::blit for blit_test.cpp and mipmap_test.cpp: levels as
// tightly packed images, random texel contents, and a scalar model of the blit rules
// (blit.h, blit.cl) written with the host codec (format_codec.h) as the oracle.
// Header-only: the test build compiles *_test.cpp files only.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/format_codec.h"
#include "frontend_util.h"

namespace clpipe::test::blit_ref {

// One level of a texture read through a format: texel (x, y, z) at byte
// ((z * h + y) * w + x) * block_bytes (the order of read_box / write_box).
struct Image {
  Format format = Format::NONE;
  int w = 0, h = 0, layers = 0;
  std::vector<uint8_t> bytes;

  unsigned bs() const { return format_desc(format).block_bytes; }
  uint8_t* at(int x, int y, int z) { return bytes.data() + ((size_t(z) * h + y) * w + x) * bs(); }
  const uint8_t* at(int x, int y, int z) const {
    return bytes.data() + ((size_t(z) * h + y) * w + x) * bs();
  }
};

inline Image read_level(Context& ctx, const ResourceRef& r, unsigned level, Format f) {
  const Box all = level_box(r, level);
  Image img;
  img.format = f;
  img.w = all.width;
  img.h = all.height;
  img.layers = all.depth;
  img.bytes = read_box(ctx, r, level, all);
  return img;
}

inline void write_level(Context& ctx, const ResourceRef& r, unsigned level, const Image& img) {
  write_box(ctx, r, level, level_box(r, level), img.bytes);
}

// A small deterministic generator (xorshift).
struct Rng {
  uint32_t x;
  explicit Rng(uint32_t seed) : x(seed * 2654435761u + 0x9e3779b9u) {}
  uint32_t next() {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
  }
  float uniform(float lo, float hi) { return lo + (hi - lo) * float(next() >> 8) / 16777216.0f; }
};

// Random contents for a level of format f: integer formats get integers over a range
// wider than 8 bits (so narrowing clamps), depth/stencil formats depth in [0, 1] and any
// stencil, others colours in [-0.25, 1.25] (so UNORM / SNORM packing clamps too).
inline Image random_image(Format f, int w, int h, int layers, uint32_t seed) {
  Image img;
  img.format = f;
  img.w = w;
  img.h = h;
  img.layers = layers;
  img.bytes.assign(size_t(w) * h * layers * img.bs(), 0);
  Rng rng(seed);
  for (int z = 0; z < layers; ++z) {
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        uint8_t* t = img.at(x, y, z);
        if (format_is_depth_or_stencil(f)) {
          if (format_has_depth(f)) frontend::pack_depth(f, rng.uniform(0.0f, 1.0f), t);
          if (format_has_stencil(f)) frontend::pack_stencil(f, rng.next() & 0xff, t);
        } else if (format_is_pure_uint(f)) {
          uint32_t v[4];
          for (auto& c : v)
            c = (rng.next() & 1) ? rng.next() & 0xff : rng.next() & 0x3ffff;
          frontend::pack_rgba_uint(f, v, t);
        } else if (format_is_pure_sint(f)) {
          int32_t v[4];
          for (auto& c : v)
            c = (rng.next() & 1) ? int32_t(rng.next() & 0xff) - 128
                                 : int32_t(rng.next() & 0x3ffff) - 0x20000;
          frontend::pack_rgba_sint(f, v, t);
        } else {
          float v[4];
          for (auto& c : v)
            c = rng.uniform(-0.25f, 1.25f);
          frontend::pack_rgba_float(f, v, t);
        }
      }
    }
  }
  return img;
}

// A new resource with random contents in every level (random_image).
inline ResourceRef filled(Context& ctx, const ResourceTemplate& t, uint32_t seed) {
  ResourceRef r = create(t);
  for (unsigned l = 0; l <= t.last_level; ++l) {
    const Box b = level_box(r, l);
    write_level(ctx, r, l, random_image(t.format, b.width, b.height, b.depth, seed * 31 + l));
  }
  return r;
}

// Bytes of a block that a write of RGBA components `rgba` changes (clp_component_mask):
// the channels each component encodes into; all of R9G9B9E5 for any of R, G, B.
inline std::vector<uint8_t> component_mask(Format f, uint32_t rgba) {
  const FormatDesc& d = format_desc(f);
  std::vector<uint8_t> m(d.block_bytes, 0);
  auto set = [&](const FormatChannel& c) {
    for (unsigned b = c.shift; b < unsigned(c.shift) + c.bits; ++b)
      m[b / 8] |= uint8_t(1u << (b % 8));
  };
  if (d.special == FormatSpecial::R9G9B9E5) {
    if (rgba & 7u) std::fill(m.begin(), m.end(), 0xff);
    return m;
  }
  for (unsigned c = 0; c < 4; ++c) {
    if (d.channel[c].type == ChannelType::VOID) continue;
    for (unsigned i = 0; i < 4; ++i) {
      if (unsigned(d.swizzle[i]) == c) {
        if ((rgba >> i) & 1) set(d.channel[c]);
        break;  // the first component naming a channel is its source
      }
    }
  }
  return m;
}

// Bytes of the depth and/or stencil channel of a block.
inline std::vector<uint8_t> aspect_mask(Format f, bool depth, bool stencil) {
  const FormatDesc& d = format_desc(f);
  std::vector<uint8_t> m(d.block_bytes, 0);
  auto set = [&](FormatSwizzle s) {
    if (s == FormatSwizzle::NONE) return;
    const FormatChannel& c = d.channel[int(s)];
    for (unsigned b = c.shift; b < unsigned(c.shift) + c.bits; ++b)
      m[b / 8] |= uint8_t(1u << (b % 8));
  };
  if (depth) set(d.swizzle[0]);
  if (stencil) set(d.swizzle[1]);
  return m;
}

// --- The sampling rules of blit.cl, in the same single-precision expressions. --------

inline float coord(int d, int dst_origin, int src_origin, float scale) {
  return float(src_origin) + (float(d - dst_origin) + 0.5f) * scale;
}
inline int nearest(float c, int n) {
  const double f = std::floor(double(c));
  return int(std::clamp(f, 0.0, double(n - 1)));
}
// Linear taps around c - 0.5 and the weight of the second.
inline float taps(float c, int n, int* i0, int* i1) {
  const float t = c - 0.5f;
  const float f = std::floor(t);
  *i0 = int(std::clamp(double(f), 0.0, double(n - 1)));
  *i1 = int(std::clamp(double(f) + 1.0, 0.0, double(n - 1)));
  return t - f;
}

struct Vec4 {
  float v[4];
};
inline float lerp1(float a, float b, float w) {
  if (w == 0.0f) return a;
  const float x = a * (1.0f - w);
  const float y = b * w;
  return x + y;
}
inline Vec4 lerp(const Vec4& a, const Vec4& b, float w) {
  Vec4 r;
  for (int i = 0; i < 4; ++i)
    r.v[i] = lerp1(a.v[i], b.v[i], w);
  return r;
}

inline Vec4 fetch(const Image& s, int x, int y, int z) {
  Vec4 r;
  frontend::unpack_rgba_float(s.format, s.at(x, y, z), r.v);
  return r;
}

inline Vec4 sample_2d(const Image& s, bool linear, float cx, float cy, int z) {
  if (!linear) return fetch(s, nearest(cx, s.w), nearest(cy, s.h), z);
  int x0, x1, y0, y1;
  const float wx = taps(cx, s.w, &x0, &x1);
  const float wy = taps(cy, s.h, &y0, &y1);
  const Vec4 top = lerp(fetch(s, x0, y0, z), fetch(s, x1, y0, z), wx);
  if (wy == 0.0f) return top;
  return lerp(top, lerp(fetch(s, x0, y1, z), fetch(s, x1, y1, z), wx), wy);
}

inline float depth_at(const Image& s, int x, int y, int z) {
  return frontend::unpack_depth(s.format, s.at(x, y, z));
}

// The model of one blit: dst (the destination level, read through info.dst.format)
// changes as Context::blit changes it, reading src (the source level as it was, read
// through info.src.format). src_is_3d: the source resource is a 3D texture.
inline void model_blit(Image& dst, const Image& src, const BlitInfo& info, bool src_is_3d) {
  const Box& db = info.dst.box;
  const Box& sb = info.src.box;
  const Format df = info.dst.format;
  const bool zs = format_is_depth_or_stencil(df);
  const bool linear = info.filter == TexFilter::LINEAR;
  const uint32_t rgba = info.mask & Mask::RGBA;
  const bool depth = zs && (info.mask & Mask::Z), stencil = zs && (info.mask & Mask::S);
  if (zs ? !(depth || stencil) : rgba == 0) return;
  int x0 = std::min(db.x, db.x + db.width), x1 = std::max(db.x, db.x + db.width);
  int y0 = std::min(db.y, db.y + db.height), y1 = std::max(db.y, db.y + db.height);
  int z0 = std::min(db.z, db.z + db.depth), z1 = std::max(db.z, db.z + db.depth);
  // What of the box lies outside the destination level is not written.
  x0 = std::max(x0, 0);
  x1 = std::min(x1, dst.w);
  y0 = std::max(y0, 0);
  y1 = std::min(y1, dst.h);
  z0 = std::max(z0, 0);
  z1 = std::min(z1, dst.layers);
  if (info.scissor_enable) {
    x0 = std::max<int>(x0, info.scissor.minx);
    x1 = std::min<int>(x1, info.scissor.maxx);
    y0 = std::max<int>(y0, info.scissor.miny);
    y1 = std::min<int>(y1, info.scissor.maxy);
  }
  const float scx = float(sb.width) / float(db.width);
  const float scy = float(sb.height) / float(db.height);
  const float scz = float(sb.depth) / float(db.depth);
  const unsigned bs = dst.bs();
  std::vector<uint8_t> mask;
  bool full = true;
  if (zs) {
    full = depth == format_has_depth(df) && stencil == format_has_stencil(df);
    mask = aspect_mask(df, depth, stencil);
  } else {
    full = rgba == Mask::RGBA;
    mask = component_mask(df, rgba);
  }
  for (int z = z0; z < z1; ++z) {
    for (int y = y0; y < y1; ++y) {
      for (int x = x0; x < x1; ++x) {
        const float cx = coord(x, db.x, sb.x, scx);
        const float cy = coord(y, db.y, sb.y, scy);
        const float cz = coord(z, db.z, sb.z, scz);
        uint8_t texel[16] = {};
        uint8_t* out = dst.at(x, y, z);
        if (zs) {
          const int sz = nearest(cz, src.layers);
          if (depth) {
            float d;
            if (!linear) {
              d = depth_at(src, nearest(cx, src.w), nearest(cy, src.h), sz);
            } else {
              int a0, a1, b0, b1;
              const float wx = taps(cx, src.w, &a0, &a1);
              const float wy = taps(cy, src.h, &b0, &b1);
              d = lerp1(depth_at(src, a0, b0, sz), depth_at(src, a1, b0, sz), wx);
              if (wy != 0.0f) {
                d = lerp1(d, lerp1(depth_at(src, a0, b1, sz), depth_at(src, a1, b1, sz), wx), wy);
              }
            }
            frontend::pack_depth(df, double(d), texel);
          }
          if (stencil) {
            const uint8_t* s = src.at(nearest(cx, src.w), nearest(cy, src.h), sz);
            frontend::pack_stencil(df, frontend::unpack_stencil(src.format, s), texel);
          }
        } else if (format_is_pure_uint(df)) {
          uint32_t v[4];
          frontend::unpack_rgba_uint(
              src.format, src.at(nearest(cx, src.w), nearest(cy, src.h), nearest(cz, src.layers)),
              v);
          frontend::pack_rgba_uint(df, v, texel);
        } else if (format_is_pure_sint(df)) {
          int32_t v[4];
          frontend::unpack_rgba_sint(
              src.format, src.at(nearest(cx, src.w), nearest(cy, src.h), nearest(cz, src.layers)),
              v);
          frontend::pack_rgba_sint(df, v, texel);
        } else {
          Vec4 c;
          if (linear && src_is_3d) {
            int a0, a1;
            const float wz = taps(cz, src.layers, &a0, &a1);
            c = sample_2d(src, true, cx, cy, a0);
            if (wz != 0.0f) c = lerp(c, sample_2d(src, true, cx, cy, a1), wz);
          } else {
            c = sample_2d(src, linear, cx, cy, nearest(cz, src.layers));
          }
          if (info.alpha_blend) {
            float d[4];
            frontend::unpack_rgba_float(df, out, d);
            const float a = c.v[3];
            for (int i = 0; i < 4; ++i) {
              const float s = c.v[i] * a;
              const float k = d[i] * (1.0f - a);
              c.v[i] = s + k;
            }
          }
          frontend::pack_rgba_float(df, c.v, texel);
        }
        for (unsigned i = 0; i < bs; ++i) {
          out[i] = full ? texel[i] : uint8_t((out[i] & ~mask[i]) | (texel[i] & mask[i]));
        }
      }
    }
  }
}

// "(x,y,z) got [..] expected [..]" for the first differing texel, or "" when the images
// match: bytes exactly when tol is 0, else every decoded component within tol.
inline std::string compare(const Image& got, const Image& want, float tol = 0.0f) {
  REQUIRE(got.bytes.size() == want.bytes.size());
  const unsigned bs = got.bs();
  for (int z = 0; z < got.layers; ++z) {
    for (int y = 0; y < got.h; ++y) {
      for (int x = 0; x < got.w; ++x) {
        const uint8_t* a = got.at(x, y, z);
        const uint8_t* b = want.at(x, y, z);
        bool same = std::memcmp(a, b, bs) == 0;
        if (!same && tol > 0.0f) {
          float fa[4], fb[4];
          frontend::unpack_rgba_float(got.format, a, fa);
          frontend::unpack_rgba_float(got.format, b, fb);
          same = true;
          for (int i = 0; i < 4; ++i) {
            const bool both_nan = std::isnan(fa[i]) && std::isnan(fb[i]);
            if (!both_nan && !(std::fabs(fa[i] - fb[i]) <= tol)) same = false;
          }
        }
        if (!same) {
          std::ostringstream os;
          os << "(" << x << "," << y << "," << z << ") got";
          for (unsigned i = 0; i < bs; ++i)
            os << " " << unsigned(a[i]);
          os << " expected";
          for (unsigned i = 0; i < bs; ++i)
            os << " " << unsigned(b[i]);
          return os.str();
        }
      }
    }
  }
  return "";
}

// --- Driving the blits under test. ------------------------------------------------

inline BlitInfo make_info(const ResourceRef& dst, unsigned dl, const Box& db, Format df,
                          const ResourceRef& src, unsigned sl, const Box& sb, Format sf,
                          TexFilter filter = TexFilter::NEAREST, uint32_t mask = Mask::RGBA) {
  BlitInfo b;
  b.dst.resource = dst;
  b.dst.level = uint8_t(dl);
  b.dst.box = db;
  b.dst.format = df;
  b.src.resource = src;
  b.src.level = uint8_t(sl);
  b.src.box = sb;
  b.src.format = sf;
  b.filter = filter;
  b.mask = mask;
  return b;
}

// Same resource formats on both sides, level 0.
inline BlitInfo make_info(const ResourceRef& dst, const Box& db, const ResourceRef& src,
                          const Box& sb, TexFilter filter = TexFilter::NEAREST) {
  return make_info(dst, 0, db, dst->info().format, src, 0, sb, src->info().format, filter);
}

inline std::string box_str(const Box& b) {
  std::ostringstream os;
  os << "(" << b.x << "," << b.y << "," << b.z << ") " << b.width << "x" << b.height << "x"
     << b.depth;
  return os.str();
}

// Runs the blit and compares the whole destination level with the reference.
inline void check_blit(Context& ctx, const BlitInfo& info, float tol = 0.0f) {
  INFO(format_name(info.src.format)
       << " " << box_str(info.src.box) << " -> " << format_name(info.dst.format) << " "
       << box_str(info.dst.box) << (info.filter == TexFilter::LINEAR ? " linear" : " nearest")
       << " mask 0x" << std::hex << info.mask);
  const bool src_3d = info.src.resource->info().target == TextureTarget::TEXTURE_3D;
  const Image src = read_level(ctx, info.src.resource, info.src.level, info.src.format);
  Image want = read_level(ctx, info.dst.resource, info.dst.level, info.dst.format);
  model_blit(want, src, info, src_3d);
  REQUIRE(ctx.blit(info).to_string() == "Ok");
  const Image got = read_level(ctx, info.dst.resource, info.dst.level, info.dst.format);
  CHECK(compare(got, want, tol) == "");
}

}  // namespace clpipe::test::blit_ref
