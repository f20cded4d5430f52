// Shared harness of the device format codec tests (tests/kernels/format_*_test.cpp):
// the one test program (src/kernels/format.h plus small kernels that call it per work
// item), buffer helpers, and comparisons against the host codec (the oracle,
// src/frontend/format_codec.h).
//
// Every test file uses the same program source, so it is built once per process and
// then loaded from the disk cache ($CLPIPE_CACHE_DIR) by the other test processes.
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "base/embedded_sources.h"
#include "clpipe/format.h"
#include "frontend/format_codec.h"
#include "runtime/program_cache.h"
#include "runtime/queue.h"
#include "support/test_device.h"

namespace clpipe::test::formats {

// Work items index their inputs; blocks sit at arbitrary byte offsets so that loads and
// stores are checked without alignment.
inline constexpr const char* kKernels = R"CLC(
#include "format.h"

// Facts of format id f (ids past the table included), 16 words per id.
kernel void t_query(global uint* out, uint count) {
  const uint f = get_global_id(0);
  if (f >= count) return;
  global uint* o = out + 16 * f;
  o[0] = clp_format_block_bytes(f);
  o[1] = clp_format_is_valid(f);
  o[2] = clp_format_is_depth_or_stencil(f);
  o[3] = clp_format_has_depth(f);
  o[4] = clp_format_has_stencil(f);
  o[5] = clp_format_is_srgb(f);
  o[6] = clp_format_is_pure_uint(f);
  o[7] = clp_format_is_pure_sint(f);
  o[8] = clp_format_is_pure_integer(f);
  o[9] = clp_format_base_type(f);
  o[10] = clp_format_is_vertex_only(f);
  o[11] = clp_stencil_word(f);
  uint bits = 0u, types = 0u, channels = 0u;
  for (uint c = 0; c < 4u; ++c) {
    bits |= clp_format_component_bits(f, c) << (8u * c);
    types |= clp_format_component_type(f, c) << (8u * c);
    channels |= clp_format_component_channel(f, c) << (8u * c);
  }
  o[12] = bits;
  o[13] = types;
  o[14] = channels;
  const uint4 d = clp_aspect_mask(f, CLP_ASPECT_DEPTH), s = clp_aspect_mask(f, CLP_ASPECT_STENCIL);
  const uint4 ds = clp_aspect_mask(f, CLP_ASPECT_DEPTH | CLP_ASPECT_STENCIL);
  o[15] = all((d | s) == ds) && !any((d & s) != 0u) ? 1u : 0u;
}

kernel void t_aspect(global uint4* out, uint count) {
  const uint f = get_global_id(0);
  if (f >= count) return;
  out[2 * f] = clp_aspect_mask(f, CLP_ASPECT_DEPTH);
  out[2 * f + 1] = clp_aspect_mask(f, CLP_ASPECT_STENCIL);
}

kernel void t_decode(global const uint* fmt, global const uint* off, global const uchar* in,
                     global uint4* raw, global float4* f, global uint4* u, global int4* s,
                     global float* depth, global uint* stencil, uint n) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const uint4 r = clp_load_block(fmt[i], in + off[i]);
  raw[i] = r;
  f[i] = clp_decode_float(fmt[i], r);
  u[i] = clp_decode_uint(fmt[i], r);
  s[i] = clp_decode_sint(fmt[i], r);
  depth[i] = clp_decode_depth(fmt[i], r);
  stencil[i] = clp_decode_stencil(fmt[i], r);
}

kernel void t_fetch(global const uint* fmt, global const uint* off, global const uchar* in,
                    global float4* f, global uint4* u, global int4* s, global uint4* d01,
                    global uint4* d23, uint n) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const global uchar* p = in + off[i];
  f[i] = clp_fetch_float(fmt[i], p);
  u[i] = clp_fetch_uint(fmt[i], p);
  s[i] = clp_fetch_sint(fmt[i], p);
  d01[i] = clp_fetch_double2(fmt[i], p, 0u);
  d23[i] = clp_fetch_double2(fmt[i], p, 2u);
}

// Encodes item i three ways and stores each block into its slot of `out` at byte
// (3 * i + k) * stride + i % 7; raw results go to raw[3 * i + k].
kernel void t_encode(global const uint* fmt, global const float4* fin, global const uint4* uin,
                     global const int4* sin, global uchar* out, global uint4* raw, uint stride,
                     uint n) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const uint4 r[3] = {clp_encode_float(fmt[i], fin[i]), clp_encode_uint(fmt[i], uin[i]),
                      clp_encode_sint(fmt[i], sin[i])};
  for (uint k = 0; k < 3u; ++k) {
    raw[3 * i + k] = r[k];
    clp_store_block(fmt[i], out + (3 * i + k) * stride + i % 7u, r[k]);
  }
}

kernel void t_masked(global const uint* fmt, global const uint* rgba_mask,
                     global const uint4* src, global uchar* buf, global uint4* mask_out,
                     uint stride, uint n) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const uint4 m = clp_component_mask(fmt[i], rgba_mask[i]);
  mask_out[i] = m;
  clp_store_block_masked(fmt[i], buf + i * stride + i % 7u, src[i], m);
}

// One pixel per item; items 4q..4q+3 share a format and also run the quad calls, whose
// results go to quad[4q + 0..3]: encode_depth4, encode_stencil4, decode_depth4 (bits),
// decode_stencil4.
kernel void t_zs(global const uint* fmt, global const uint4* raw, global const float* z,
                 global const uint* s, global uint4* enc_depth, global uint4* enc_stencil,
                 global uint4* quad, uint n) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  enc_depth[i] = clp_encode_depth(fmt[i], raw[i], z[i]);
  enc_stencil[i] = clp_encode_stencil(fmt[i], raw[i], s[i]);
  if (i % 4u != 0u || i + 3u >= n) return;
  const uint f = fmt[i], k = clp_stencil_word(f);
  const uint4 w0 = (uint4)(raw[i].x, raw[i + 1].x, raw[i + 2].x, raw[i + 3].x);
  const uint4 ws = k == 0u ? w0 : (uint4)(raw[i].y, raw[i + 1].y, raw[i + 2].y, raw[i + 3].y);
  quad[i] = clp_encode_depth4(f, w0, vload4(0, z + i));
  quad[i + 1] = clp_encode_stencil4(f, ws, vload4(0, s + i));
  quad[i + 2] = as_uint4(clp_decode_depth4(f, w0));
  quad[i + 3] = clp_decode_stencil4(f, ws);
}

// Depth of every word in w (scalar call per word, quad call per four words).
kernel void t_depth_words(uint fmt, global const uint4* w, global float4* one,
                          global float4* quad, uint n) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const uint4 v = w[i];
  one[i] = (float4)(clp_decode_depth(fmt, (uint4)(v.x, 0u, 0u, 0u)),
                    clp_decode_depth(fmt, (uint4)(v.y, 0u, 0u, 0u)),
                    clp_decode_depth(fmt, (uint4)(v.z, 0u, 0u, 0u)),
                    clp_decode_depth(fmt, (uint4)(v.w, 0u, 0u, 0u)));
  quad[i] = clp_decode_depth4(fmt, v);
}

kernel void t_srgb_tables(global float* lut, global float* threshold) {
  const uint i = get_global_id(0);
  if (i >= 256u) return;
  lut[i] = clp_srgb8_to_linear_table[i];
  threshold[i] = clp_linear_to_srgb8_threshold[i];
}
)CLC";

// The format test program and a queue to run it, made once per process.
struct Rig {
  runtime::Queue queue{test_device()};
  runtime::ProgramRef program = test_program_cache().get(kernels::expand_includes(kKernels));

  cl::Kernel& kernel(const char* name) { return queue.kernel(program, name); }
  template <typename T>
  cl::Buffer in(const std::vector<T>& v) {
    return queue.create_buffer_from(v.data(), v.size() * sizeof(T));
  }
  template <typename T>
  cl::Buffer out(size_t count) {
    return queue.create_buffer(count * sizeof(T));
  }
  template <typename T>
  std::vector<T> read(const cl::Buffer& b, size_t count) {
    std::vector<T> v(count);
    queue.read(b, 0, count * sizeof(T), v.data());
    return v;
  }
};
inline Rig& rig() {
  static Rig d;
  return d;
}

struct U4 {
  uint32_t v[4];
};
struct I4 {
  int32_t v[4];
};
struct F4 {
  float v[4];
};
static_assert(sizeof(U4) == 16 && sizeof(F4) == 16 && sizeof(I4) == 16, "cl_uint4 layout");

inline uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bitsf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
// Bit-identical, or both NaN (payloads may differ).
inline bool same_float(float a, float b) {
  return fbits(a) == fbits(b) || (std::isnan(a) && std::isnan(b));
}
// Units in the last place between two finite floats of the same sign.
inline int64_t ulp_distance(float a, float b) {
  return std::llabs(int64_t(fbits(a)) - int64_t(fbits(b)));
}

inline std::vector<Format> all_formats() {
  std::vector<Format> v;
  for (int i = 1; i < int(Format::COUNT); ++i)
    v.push_back(Format(i));
  return v;
}
inline const char* name(Format f) {
  return format_desc(f).name;
}

// Bits [shift, shift + bits) of a little-endian block (bits <= 64).
inline uint64_t field(const uint8_t* block, unsigned shift, unsigned bits) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bits; ++i) {
    unsigned b = shift + i;
    v |= uint64_t((block[b >> 3] >> (b & 7)) & 1) << i;
  }
  return v;
}
inline bool field_is_nan(uint64_t v, unsigned bits) {
  switch (bits) {
    case 16:
      return (v & 0x7c00) == 0x7c00 && (v & 0x3ff) != 0;
    case 32:
      return (v & 0x7f800000) == 0x7f800000 && (v & 0x7fffff) != 0;
    case 64:
      return (v & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (v & 0xfffffffffffffull) != 0;
    case 11:
      return (v >> 6) == 31 && (v & 63) != 0;
    case 10:
      return (v >> 5) == 31 && (v & 31) != 0;
    default:
      return false;
  }
}

// The RGBA component that the host's encode stores into channel c, or 4.
inline unsigned channel_source(const FormatDesc& d, unsigned c) {
  for (unsigned i = 0; i < 4; ++i) {
    if (unsigned(d.swizzle[i]) == c) return i;
  }
  return 4;
}
inline bool channel_is_srgb(const FormatDesc& d, unsigned c) {
  return d.colorspace == Colorspace::SRGB && d.channel[c].type != ChannelType::VOID &&
         !(unsigned(d.swizzle[3]) == c && d.swizzle[0] != d.swizzle[3]);
}

// Two encoded blocks agree: every byte is equal, except that a FLOAT channel may hold a
// different NaN and, when srgb_slack, an sRGB channel may differ by one code (the
// tolerance the codec allows for sRGB; the tables make it zero on this machine).
inline bool blocks_match(Format f, const uint8_t* dev, const uint8_t* host, bool srgb_slack,
                         int* srgb_off_by_one = nullptr) {
  const FormatDesc& d = format_desc(f);
  if (std::memcmp(dev, host, d.block_bytes) == 0) return true;
  // Compare field by field; bits outside the channels must be equal too.
  std::vector<uint8_t> a(dev, dev + d.block_bytes), b(host, host + d.block_bytes);
  auto clear = [](std::vector<uint8_t>& blk, unsigned shift, unsigned bits) {
    for (unsigned i = 0; i < bits; ++i) {
      unsigned k = shift + i;
      blk[k >> 3] &= uint8_t(~(1u << (k & 7)));
    }
  };
  for (unsigned c = 0; c < 4; ++c) {
    const FormatChannel& ch = d.channel[c];
    if (ch.bits == 0) continue;
    const uint64_t va = field(dev, ch.shift, ch.bits), vb = field(host, ch.shift, ch.bits);
    bool ok = va == vb;
    const bool is_float = ch.type == ChannelType::FLOAT || d.special == FormatSpecial::R11G11B10F;
    if (!ok && is_float && field_is_nan(va, ch.bits) && field_is_nan(vb, ch.bits)) ok = true;
    if (!ok && srgb_slack && channel_is_srgb(d, c) && (va + 1 == vb || vb + 1 == va)) {
      ok = true;
      if (srgb_off_by_one) ++*srgb_off_by_one;
    }
    if (!ok) return false;
    clear(a, ch.shift, ch.bits);
    clear(b, ch.shift, ch.bits);
  }
  return a == b;
}

// Host encodes of linear x to an 8-bit sRGB code, and the smallest float reaching each
// code (what src/kernels/format_srgb.h tabulates).
inline unsigned host_srgb_encode(float x) {
  float in[4] = {x, 0, 0, 1};
  uint8_t b = 0;
  frontend::pack_rgba_float(Format::R8_SRGB, in, &b);
  return b;
}
inline std::vector<float> host_srgb_thresholds() {
  std::vector<float> t(256, 0.0f);
  for (unsigned k = 1; k < 256; ++k) {
    uint32_t lo = 0, hi = 0x3f800000;
    while (lo < hi) {
      uint32_t mid = lo + (hi - lo) / 2;
      if (host_srgb_encode(bitsf(mid)) >= k) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    t[k] = bitsf(lo);
  }
  return t;
}

// Floats around x: x itself and `n` neighbours on each side.
inline void add_neighbours(std::vector<float>& out, float x, int n) {
  out.push_back(x);
  float lo = x, hi = x;
  for (int i = 0; i < n; ++i) {
    lo = std::nextafter(lo, -INFINITY);
    hi = std::nextafter(hi, INFINITY);
    out.push_back(lo);
    out.push_back(hi);
  }
}

// Depth values that exercise the rounding of `bits`-bit UNORM depth (or float depth).
inline std::vector<float> depth_inputs(const FormatChannel& z, std::mt19937& rng) {
  std::vector<float> v;
  for (float x : {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 1e-30f, 1e-40f, -1e-40f, FLT_MAX, INFINITY,
                  -INFINITY, NAN, -NAN, bitsf(0x7f800001), 0.99999994f, 1.0000001f}) {
    add_neighbours(v, x, 2);
  }
  if (z.type == ChannelType::FLOAT) {
    for (int i = 0; i < 8192; ++i)
      v.push_back(bitsf(rng()));
    return v;
  }
  const double m = std::ldexp(1.0, z.bits) - 1;
  if (z.bits <= 16) {
    for (double k = 0; k < m; ++k)
      add_neighbours(v, float((k + 0.5) / m), 1);
  } else {
    std::uniform_real_distribution<double> kd(0, m);
    for (int i = 0; i < 32768; ++i)
      add_neighbours(v, float((std::floor(kd(rng)) + 0.5) / m), 2);
    for (double k = 0; k < 256; ++k)
      add_neighbours(v, float((k + 0.5) / m), 2);
    for (double k = m - 256; k < m; ++k)
      add_neighbours(v, float((k + 0.5) / m), 2);
  }
  // Every float of [0, 1] is as likely: the top binades are where 32-bit depth rounds
  // twice in the host's double arithmetic.
  for (int i = 0; i < 65536; ++i)
    v.push_back(bitsf(rng() % 0x3f800001u));
  for (int i = 0; i < 65536; ++i)
    v.push_back(bitsf(0x3f000000u + rng() % 0x800000u));
  return v;
}

// Raw field values worth decoding for a channel: the ends of the range, the sign
// boundary, values at the 24-bit rounding ties of 32-bit normalized channels, IEEE
// specials, and doubles that round to float boundaries.
inline std::vector<uint64_t> interesting_fields(const FormatChannel& c) {
  const unsigned b = c.bits;
  const uint64_t max = b >= 64 ? ~0ull : (1ull << b) - 1;
  std::vector<uint64_t> v = {0, 1, 2, max, max - 1, max >> 1, (max >> 1) + 1, (max >> 1) + 2};
  if (b >= 24) {
    for (uint64_t r : {1ull, 2ull, 0x10000ull, 0x7fffffull, 0x800000ull, 0xffffffull}) {
      for (uint64_t low : {0x7full, 0x80ull, 0x81ull, 0x40ull, 0xc0ull}) {
        v.push_back(((r << 8) | low) & max);
        v.push_back(((r << 7) | (low >> 1)) & max);
      }
    }
    for (uint64_t x : {0xffffffull, 0x1000000ull, 0x1000001ull, 0xffffff80ull, 0x7fffff80ull,
                       0x7fffffffull, 0x80000000ull, 0x80000001ull, 0xff000000ull})
      v.push_back(x & max);
  }
  if (c.type == ChannelType::FLOAT && b == 16) {
    for (uint64_t x : {0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe01, 0x0001, 0x03ff, 0x0400, 0x7bff,
                       0x8000, 0x8001, 0x3c00, 0xbc00})
      v.push_back(x);
  }
  if (c.type == ChannelType::FLOAT && b == 32) {
    for (uint64_t x : {0x80000000ull, 0x3f800000ull, 0xbf800000ull, 0x00000001ull, 0x007fffffull,
                       0x00800000ull, 0x80000001ull, 0x7f800000ull, 0xff800000ull, 0x7fc00000ull,
                       0x7f800001ull, 0xffc00001ull, 0x7f7fffffull, 0xff7fffffull})
      v.push_back(x);
  }
  if (c.type == ChannelType::FLOAT && b == 64) {
    auto d = [](double x) {
      uint64_t u;
      std::memcpy(&u, &x, 8);
      return u;
    };
    const double e24 = std::ldexp(1.0, -24), e52 = std::ldexp(1.0, -52);
    for (double x : {0.0,
                     -0.0,
                     1.0,
                     -1.0,
                     1.0 + e24,
                     1.0 + e24 + e52,
                     1.0 + e24 - e52,
                     1.0 + 3 * e24,
                     -(1.0 + 3 * e24),
                     std::ldexp(1.0, 128),
                     -std::ldexp(1.0, 128),
                     double(FLT_MAX),
                     double(FLT_MAX) * (1.0 + e24),
                     double(FLT_MAX) * (1.0 + e24 / 2),
                     std::ldexp(1.0, -150),
                     std::ldexp(1.0, -150) * (1 + e52),
                     std::ldexp(1.5, -149),
                     std::ldexp(1.0, -149),
                     std::ldexp(1.0, -126),
                     std::ldexp(1.0, -127) * 3,
                     std::ldexp(1.0, -1030),
                     1e300,
                     -1e-300,
                     double(INFINITY),
                     -double(INFINITY),
                     3.14159265358979})
      v.push_back(d(x));
    for (uint64_t x : {0x7ff8000000000000ull, 0x7ff0000000000001ull, 0xfff4000000000000ull,
                       0x0000000000000001ull, 0x000fffffffffffffull})
      v.push_back(x);
  }
  return v;
}

}  // namespace clpipe::test::formats
