// Device format codec, depth and stencil: the one-pixel and 2x2-quad helpers of every
// depth/stencil format against the host's pack_depth / pack_stencil / unpack_depth /
// unpack_stencil, and every 24-bit depth value through both decode paths.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

#include "kernels/format_device_harness.h"

using namespace clpipe;
using namespace clpipe::frontend;
using namespace clpipe::test::formats;

TEST_CASE("device depth/stencil helpers of every format match the host", "[kernels][format]") {
  std::mt19937 rng(424242);
  std::vector<uint32_t> fmt, stencil;
  std::vector<U4> raw;
  std::vector<float> z;
  size_t zs_formats = 0;
  for (Format f : all_formats()) {
    const FormatDesc& d = format_desc(f);
    // Colour formats must come back unchanged: a few of them stand for all.
    const bool colour_probe =
        f == Format::R8G8B8A8_UNORM || f == Format::R32_FLOAT || f == Format::R16G16B16A16_FLOAT;
    if (!format_is_depth_or_stencil(f) && !colour_probe) continue;
    zs_formats += format_is_depth_or_stencil(f);
    std::vector<float> zv = format_has_depth(f)
                                ? depth_inputs(d.channel[unsigned(d.swizzle[0])], rng)
                                : std::vector<float>{0.5f, 1.0f, 0.0f, NAN};
    if (format_has_stencil(f)) {
      for (uint32_t s = 0; s < 512; ++s)
        zv.push_back(float(s) / 511.0f);
    }
    while (zv.size() % 4)
      zv.push_back(0.25f);  // quads share a format
    for (size_t i = 0; i < zv.size(); ++i) {
      U4 r = {};
      for (unsigned b = 0; b < d.block_bytes; ++b) {
        reinterpret_cast<uint8_t*>(r.v)[b] = uint8_t(rng());
      }
      fmt.push_back(uint32_t(f));
      raw.push_back(r);
      z.push_back(zv[i]);
      const uint32_t k = uint32_t(i % 600);
      stencil.push_back(k < 512 ? k : rng());
    }
  }
  Rig& r = rig();
  const size_t n = fmt.size();
  cl::Buffer fb = r.in(fmt), rb = r.in(raw), zb = r.in(z), sb = r.in(stencil);
  cl::Buffer enc_d = r.out<U4>(n), enc_s = r.out<U4>(n), quad = r.out<U4>(n);
  cl::Kernel& k = r.kernel("t_zs");
  runtime::set_args(k, fb, rb, zb, sb, enc_d, enc_s, quad, uint32_t(n));
  r.queue.launch(k, {n}, {}, "t_zs");
  const auto ed = r.read<U4>(enc_d, n);
  const auto es = r.read<U4>(enc_s, n);
  const auto q = r.read<U4>(quad, n);

  size_t errors = 0;
  std::ostringstream first;
  auto fail = [&](Format f, size_t i, const char* what, uint64_t dev, uint64_t host) {
    if (errors++ < 12) {
      first << name(f) << " " << what << " z=" << z[i] << " (" << std::hex << fbits(z[i])
            << ") s=" << stencil[i] << " raw=" << raw[i].v[0] << "," << raw[i].v[1] << ": device "
            << dev << " host " << host << std::dec << "\n";
    }
  };
  for (size_t i = 0; i < n; ++i) {
    const Format f = Format(fmt[i]);
    const FormatDesc& d = format_desc(f);
    U4 host_d = raw[i], host_s = raw[i];
    pack_depth(f, double(z[i]), host_d.v);
    pack_stencil(f, stencil[i], host_s.v);
    const bool float_depth =
        format_has_depth(f) && d.channel[unsigned(d.swizzle[0])].type == ChannelType::FLOAT;
    const bool nan_pair = float_depth && std::isnan(z[i]) && std::isnan(bitsf(ed[i].v[0]));
    if (std::memcmp(ed[i].v, host_d.v, 16) != 0 && !nan_pair) {
      fail(f, i, "encode_depth word0", ed[i].v[0], host_d.v[0]);
    }
    if (std::memcmp(es[i].v, host_s.v, 16) != 0) {
      fail(f, i, "encode_stencil words", uint64_t(es[i].v[1]) << 32 | es[i].v[0],
           uint64_t(host_s.v[1]) << 32 | host_s.v[0]);
    }
    // Quads: items 4q..4q+3 (same format); the results sit in q[4q + 0..3].
    const size_t base = i - i % 4, lane = i % 4;
    const unsigned sw = format_has_stencil(f) ? d.channel[unsigned(d.swizzle[1])].shift / 32 : 0;
    if (q[base].v[lane] != host_d.v[0] && !nan_pair) {
      fail(f, i, "encode_depth4", q[base].v[lane], host_d.v[0]);
    }
    if (q[base + 1].v[lane] != host_s.v[sw]) {
      fail(f, i, "encode_stencil4", q[base + 1].v[lane], host_s.v[sw]);
    }
    const float hd = unpack_depth(f, raw[i].v);
    if (!same_float(bitsf(q[base + 2].v[lane]), hd)) {
      fail(f, i, "decode_depth4", q[base + 2].v[lane], fbits(hd));
    }
    if (q[base + 3].v[lane] != unpack_stencil(f, raw[i].v)) {
      fail(f, i, "decode_stencil4", q[base + 3].v[lane], unpack_stencil(f, raw[i].v));
    }
  }
  INFO(first.str());
  CHECK(zs_formats == 12);
  CHECK(n > 400000);
  CHECK(errors == 0);
}

TEST_CASE("device decode of every 24-bit depth value matches the host", "[kernels][format]") {
  // Z24_UNORM_S8_UINT takes the fast paths (scalar and quad) for every value. X8Z24_UNORM
  // takes the table-driven path, whose division is the scalar fast path's function: a
  // sixteenth of the values (a different one in each chunk) stands for the rest.
  std::mt19937 rng(24);
  Rig& r = rig();
  size_t errors = 0;
  std::ostringstream msgs;
  for (Format f : {Format::Z24_UNORM_S8_UINT, Format::X8Z24_UNORM}) {
    const unsigned shift = format_desc(f).channel[unsigned(format_desc(f).swizzle[0])].shift;
    constexpr uint32_t kChunk = 1u << 22;  // values per launch
    const uint32_t step = f == Format::Z24_UNORM_S8_UINT ? 1 : 16;
    const uint32_t total = (1u << 24) / step;
    for (uint32_t first = 0; first < total; first += kChunk) {
      const uint32_t count = std::min(kChunk, total - first);  // a multiple of 4
      std::vector<uint32_t> words(count);
      for (uint32_t j = 0; j < count; ++j) {
        const uint32_t idx = first + j, value = idx * step + idx % step;
        const uint32_t other = rng() & ~(0xffffffu << shift);  // the stencil / X bits
        words[j] = value << shift | other;
      }
      const size_t n = count / 4;
      cl::Buffer wb = r.in(words), one = r.out<F4>(n), quad = r.out<F4>(n);
      cl::Kernel& k = r.kernel("t_depth_words");
      runtime::set_args(k, uint32_t(f), wb, one, quad, uint32_t(n));
      r.queue.launch(k, {n}, {}, "t_depth_words");
      const auto one_v = r.read<float>(one, count);
      const auto quad_v = r.read<float>(quad, count);
      for (uint32_t j = 0; j < count; ++j) {
        const float host = unpack_depth(f, &words[j]);
        if (fbits(one_v[j]) != fbits(host) || fbits(quad_v[j]) != fbits(host)) {
          if (errors++ < 12) {
            msgs << name(f) << " word " << std::hex << words[j] << std::dec << ": device "
                 << one_v[j] << "/" << quad_v[j] << " host " << host << "\n";
          }
        }
      }
    }
  }
  INFO(msgs.str());
  CHECK(errors == 0);
}
