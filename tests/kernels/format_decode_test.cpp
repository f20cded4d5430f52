// Device format codec, read side: the table and its queries, raw loads, decode to
// float / uint / sint, depth / stencil reads, vertex fetch and the sRGB tables, each
// compared with the host codec (the oracle) for every format of formats.def.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

#include "kernels/format_device_harness.h"

using namespace clpipe;
using namespace clpipe::frontend;
using namespace clpipe::test::formats;

namespace {

// Blocks to read, each at a byte offset that cycles through misalignments; the bytes
// between blocks are 0xA5 so that a load past block_bytes shows up in the raw result.
struct BlockSet {
  std::vector<uint32_t> fmt, off;
  std::vector<uint8_t> bytes;
  void add(Format f, const uint8_t* block) {
    bytes.insert(bytes.end(), fmt.size() % 3 + 1, 0xA5);
    off.push_back(uint32_t(bytes.size()));
    bytes.insert(bytes.end(), block, block + format_desc(f).block_bytes);
    fmt.push_back(uint32_t(f));
  }
  size_t size() const { return fmt.size(); }
  const uint8_t* block(size_t i) const { return bytes.data() + off[i]; }
  void seal() { bytes.insert(bytes.end(), 64, 0xA5); }
};

// Mismatch bookkeeping: counts per format and the first few messages.
struct Report {
  size_t errors = 0;
  int srgb_slack = 0;
  std::ostringstream first;
  template <typename... T>
  void fail(const T&... parts) {
    if (errors++ < 12) {
      (first << ... << parts);
      first << "\n";
    }
  }
};

std::string hex_block(const uint8_t* b, unsigned n) {
  std::ostringstream os;
  os << std::hex;
  for (unsigned i = 0; i < n; ++i)
    os << (b[i] < 16 ? "0" : "") << unsigned(b[i]);
  return os.str();
}

// An RGBA component that comes from an sRGB channel (the only place slack is allowed).
bool component_is_srgb(const FormatDesc& d, int comp) {
  const unsigned s = unsigned(d.swizzle[comp]);
  return s < 4 && channel_is_srgb(d, s);
}

void decode_and_check(BlockSet& set, Report& rep) {
  set.seal();
  Rig& r = rig();
  const size_t n = set.size();
  cl::Buffer fmt = r.in(set.fmt), off = r.in(set.off), in = r.in(set.bytes);
  cl::Buffer raw = r.out<U4>(n), f = r.out<F4>(n), u = r.out<U4>(n), s = r.out<I4>(n);
  cl::Buffer depth = r.out<float>(n), stencil = r.out<uint32_t>(n);
  cl::Kernel& k = r.kernel("t_decode");
  runtime::set_args(k, fmt, off, in, raw, f, u, s, depth, stencil, uint32_t(n));
  r.queue.launch(k, {n}, {}, "t_decode");
  const auto raw_v = r.read<U4>(raw, n);
  const auto f_v = r.read<F4>(f, n);
  const auto u_v = r.read<U4>(u, n);
  const auto s_v = r.read<I4>(s, n);
  const auto depth_v = r.read<float>(depth, n);
  const auto stencil_v = r.read<uint32_t>(stencil, n);

  for (size_t i = 0; i < n; ++i) {
    const Format fm = Format(set.fmt[i]);
    const FormatDesc& d = format_desc(fm);
    const uint8_t* blk = set.block(i);
    uint8_t padded[16] = {};
    std::memcpy(padded, blk, std::min<unsigned>(d.block_bytes, 16));
    if (std::memcmp(raw_v[i].v, padded, 16) != 0) {
      rep.fail(name(fm), " load of ", hex_block(blk, d.block_bytes), " gave ",
               hex_block(reinterpret_cast<const uint8_t*>(raw_v[i].v), 16));
      continue;
    }
    float hf[4];
    uint32_t hu[4];
    int32_t hs[4];
    unpack_rgba_float(fm, blk, hf);
    unpack_rgba_uint(fm, blk, hu);
    unpack_rgba_sint(fm, blk, hs);
    for (int c = 0; c < 4; ++c) {
      const float df = f_v[i].v[c];
      bool ok = same_float(df, hf[c]);
      if (!ok && component_is_srgb(d, c) && ulp_distance(df, hf[c]) <= 1) {
        ok = true;
        ++rep.srgb_slack;
      }
      if (!ok) {
        rep.fail(name(fm), " float[", c, "] of ", hex_block(blk, d.block_bytes), ": device ", df,
                 " (", fbits(df), ") host ", hf[c], " (", fbits(hf[c]), ")");
      }
      if (u_v[i].v[c] != hu[c] || s_v[i].v[c] != hs[c]) {
        rep.fail(name(fm), " int[", c, "] of ", hex_block(blk, d.block_bytes), ": device ",
                 u_v[i].v[c], "/", s_v[i].v[c], " host ", hu[c], "/", hs[c]);
      }
    }
    const float hd = unpack_depth(fm, blk);
    if (!same_float(depth_v[i], hd) || stencil_v[i] != unpack_stencil(fm, blk)) {
      rep.fail(name(fm), " depth/stencil of ", hex_block(blk, d.block_bytes), ": device ",
               depth_v[i], "/", stencil_v[i], " host ", hd, "/", unpack_stencil(fm, blk));
    }
  }
}

// Blocks for a format wider than two bytes: every value of each narrow channel (a
// permutation per channel so that values meet in different combinations), the
// interesting values of each channel, and random blocks.
void add_wide_blocks(BlockSet& set, Format f, std::mt19937& rng, bool full_sweep) {
  const FormatDesc& d = format_desc(f);
  const unsigned nb = d.block_bytes;
  std::vector<uint8_t> b(nb);
  auto randomize = [&] {
    for (auto& x : b)
      x = uint8_t(rng());
  };
  auto put = [&](const FormatChannel& c, uint64_t v) {
    for (unsigned i = 0; i < c.bits; ++i) {
      const unsigned k = c.shift + i;
      if ((v >> i) & 1) {
        b[k >> 3] |= uint8_t(1u << (k & 7));
      } else {
        b[k >> 3] &= uint8_t(~(1u << (k & 7)));
      }
    }
  };
  unsigned sweep_bits = 0;
  for (const FormatChannel& c : d.channel) {
    if (c.bits && (c.bits <= 12 || full_sweep)) sweep_bits = std::max<unsigned>(sweep_bits, c.bits);
  }
  sweep_bits = std::min(sweep_bits, 16u);
  for (uint64_t k = 0; sweep_bits && k < (1ull << sweep_bits); ++k) {
    randomize();
    for (unsigned c = 0; c < 4; ++c) {
      const FormatChannel& ch = d.channel[c];
      if (ch.bits && (ch.bits <= 12 || full_sweep))
        put(ch, (k * (2 * c + 1) + 37 * c) & ((1ull << std::min(ch.bits, uint8_t(16))) - 1));
    }
    set.add(f, b.data());
  }
  std::vector<std::vector<uint64_t>> lists;
  size_t longest = 0;
  for (const FormatChannel& c : d.channel) {
    lists.push_back(c.bits ? interesting_fields(c) : std::vector<uint64_t>{0});
    longest = std::max(longest, lists.back().size());
  }
  for (size_t k = 0; k < 4 * longest; ++k) {
    randomize();
    for (unsigned c = 0; c < 4; ++c) {
      if (d.channel[c].bits) put(d.channel[c], lists[c][(k + 5 * c) % lists[c].size()]);
    }
    set.add(f, b.data());
  }
  for (int k = 0; k < 2048; ++k) {
    randomize();
    set.add(f, b.data());
  }
}

}  // namespace

TEST_CASE("device format table and queries match the host table", "[kernels][format]") {
  Rig& r = rig();
  const uint32_t count = uint32_t(Format::COUNT) + 3;  // and a few ids past the table
  cl::Buffer out = r.out<uint32_t>(16 * count);
  cl::Kernel& k = r.kernel("t_query");
  runtime::set_args(k, out, count);
  r.queue.launch(k, {count}, {}, "t_query");
  const auto q = r.read<uint32_t>(out, 16 * count);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t* o = &q[16 * i];
    const Format f = Format(i);
    if (i == 0 || i >= uint32_t(Format::COUNT)) {
      INFO("format id " << i);
      CHECK(o[0] == 0u);  // NONE and bad ids load and store nothing
      CHECK(o[1] == 0u);
      continue;
    }
    const FormatDesc& d = format_desc(f);
    INFO(d.name);
    CHECK(o[0] == d.block_bytes);
    CHECK(o[1] == 1u);
    CHECK(o[2] == uint32_t(format_is_depth_or_stencil(f)));
    CHECK(o[3] == uint32_t(format_has_depth(f)));
    CHECK(o[4] == uint32_t(format_has_stencil(f)));
    CHECK(o[5] == uint32_t(format_is_srgb(f)));
    CHECK(o[6] == uint32_t(format_is_pure_uint(f)));
    CHECK(o[7] == uint32_t(format_is_pure_sint(f)));
    CHECK(o[8] == uint32_t(format_is_pure_integer(f)));
    CHECK(o[9] == uint32_t(format_base_type(f)));
    CHECK(o[10] == uint32_t(d.block_bytes > 16));
    uint32_t bits = 0, types = 0, channels = 0;
    for (unsigned c = 0; c < 4; ++c) {
      const unsigned s = unsigned(d.swizzle[c]);
      bits |= (s < 4 ? d.channel[s].bits : 0u) << (8 * c);
      types |= (s < 4 ? unsigned(d.channel[s].type) : 0u) << (8 * c);
      channels |= (s < 4 ? s : 4u) << (8 * c);
    }
    CHECK(o[12] == bits);
    CHECK(o[13] == types);
    CHECK(o[14] == channels);
    CHECK(o[15] == 1u);  // aspect masks are disjoint and combine
    if (format_has_depth(f)) {
      // The quad depth calls read word 0 only: the table must keep depth there.
      const FormatChannel& z = d.channel[unsigned(d.swizzle[0])];
      CHECK(z.shift + z.bits <= 32u);
    }
    if (format_has_stencil(f)) {
      const FormatChannel& s = d.channel[unsigned(d.swizzle[1])];
      CHECK(o[11] == s.shift / 32u);
      CHECK(s.shift % 32u + s.bits <= 32u);
    }
  }
}

TEST_CASE("device decode of every 1- and 2-byte block matches the host", "[kernels][format]") {
  BlockSet set;
  for (Format f : all_formats()) {
    const unsigned nb = format_desc(f).block_bytes;
    if (nb > 2) continue;
    for (uint32_t v = 0; v < (1u << (8 * nb)); ++v) {
      const uint8_t b[2] = {uint8_t(v), uint8_t(v >> 8)};
      set.add(f, b);
    }
  }
  Report rep;
  decode_and_check(set, rep);
  INFO(rep.first.str());
  INFO("sRGB results one ulp off the host: " << rep.srgb_slack);
  CHECK(set.size() > 2000000);
  CHECK(rep.errors == 0);
}

TEST_CASE("device decode of sampled blocks of every wider format matches the host",
          "[kernels][format]") {
  std::mt19937 rng(1234);
  BlockSet set;
  size_t formats = 0;
  for (Format f : all_formats()) {
    const unsigned nb = format_desc(f).block_bytes;
    if (nb <= 2 || nb > 16) continue;
    ++formats;
    add_wide_blocks(set, f, rng, f == Format::R16G16B16A16_FLOAT);
  }
  Report rep;
  decode_and_check(set, rep);
  INFO(rep.first.str());
  INFO("sRGB results one ulp off the host: " << rep.srgb_slack);
  CHECK(formats > 100);
  CHECK(rep.errors == 0);
}

TEST_CASE("device decode of 32-bit normalized channels matches the host in every regime",
          "[kernels][format]") {
  // The host divides in double, so the float result is rounded twice; near 2^32 (and
  // 2^31 for SNORM magnitudes) the double can land exactly on a float tie.
  std::vector<uint32_t> values;
  auto window = [&](uint64_t lo, uint64_t count) {
    for (uint64_t v = lo; v < lo + count && v <= 0xffffffffull; ++v)
      values.push_back(uint32_t(v));
  };
  window(0xffffffffull - 32767, 32768);
  window(0x80000000ull - 32768, 65536);
  window((1ull << 24) - 4096, 8192);
  window((1ull << 25) - 4096, 8192);
  window(0x100000000ull - 0x80000000ull - 32768, 32768);  // negative SNORM near -1
  std::mt19937 rng(32);
  for (int i = 0; i < 65536; ++i)
    values.push_back(uint32_t(rng()));
  BlockSet set;
  for (Format f : {Format::R32_UNORM, Format::R32_SNORM, Format::Z32_UNORM}) {
    for (uint32_t v : values)
      set.add(f, reinterpret_cast<const uint8_t*>(&v));
  }
  Report rep;
  decode_and_check(set, rep);
  INFO(rep.first.str());
  CHECK(rep.errors == 0);
}

TEST_CASE("device vertex fetch of every format matches the host", "[kernels][format]") {
  std::mt19937 rng(99);
  BlockSet set;
  for (Format f : all_formats())
    add_wide_blocks(set, f, rng, false);
  set.seal();
  Rig& r = rig();
  const size_t n = set.size();
  cl::Buffer fmt = r.in(set.fmt), off = r.in(set.off), in = r.in(set.bytes);
  cl::Buffer f = r.out<F4>(n), u = r.out<U4>(n), s = r.out<I4>(n);
  cl::Buffer d01 = r.out<U4>(n), d23 = r.out<U4>(n);
  cl::Kernel& k = r.kernel("t_fetch");
  runtime::set_args(k, fmt, off, in, f, u, s, d01, d23, uint32_t(n));
  r.queue.launch(k, {n}, {}, "t_fetch");
  const auto f_v = r.read<F4>(f, n);
  const auto u_v = r.read<U4>(u, n);
  const auto s_v = r.read<I4>(s, n);
  const auto d01_v = r.read<U4>(d01, n);
  const auto d23_v = r.read<U4>(d23, n);
  Report rep;
  for (size_t i = 0; i < n; ++i) {
    const Format fm = Format(set.fmt[i]);
    const FormatDesc& d = format_desc(fm);
    const uint8_t* blk = set.block(i);
    float hf[4];
    uint32_t hu[4];
    int32_t hs[4];
    unpack_rgba_float(fm, blk, hf);
    unpack_rgba_uint(fm, blk, hu);
    unpack_rgba_sint(fm, blk, hs);
    for (int c = 0; c < 4; ++c) {
      bool ok = same_float(f_v[i].v[c], hf[c]) && u_v[i].v[c] == hu[c] && s_v[i].v[c] == hs[c];
      if (!ok && component_is_srgb(d, c) && ulp_distance(f_v[i].v[c], hf[c]) <= 1 &&
          u_v[i].v[c] == hu[c] && s_v[i].v[c] == hs[c]) {
        ok = true;
        ++rep.srgb_slack;
      }
      if (!ok) {
        rep.fail(name(fm), " fetch[", c, "] of ", hex_block(blk, d.block_bytes), ": device ",
                 f_v[i].v[c], "/", u_v[i].v[c], "/", s_v[i].v[c], " host ", hf[c], "/", hu[c], "/",
                 hs[c]);
      }
      // Double words: 64-bit channels as stored, others the double of the float value.
      const uint32_t* w = c < 2 ? &d01_v[i].v[2 * c] : &d23_v[i].v[2 * (c - 2)];
      const uint64_t got = uint64_t(w[1]) << 32 | w[0];
      const unsigned sw = unsigned(d.swizzle[c]);
      uint64_t want;
      bool nan_ok = false;
      if (sw < 4 && d.channel[sw].type == ChannelType::FLOAT && d.channel[sw].bits == 64) {
        want = field(blk, d.channel[sw].shift, 64);
      } else {
        const double x = hf[c];
        std::memcpy(&want, &x, 8);
        nan_ok = std::isnan(x) && field_is_nan(got, 64);
      }
      if (got != want && !nan_ok) {
        rep.fail(name(fm), " double[", c, "] of ", hex_block(blk, d.block_bytes), ": device ",
                 std::hex, got, " host ", want, std::dec);
      }
    }
  }
  INFO(rep.first.str());
  INFO("sRGB results one ulp off the host: " << rep.srgb_slack);
  CHECK(rep.errors == 0);
}

TEST_CASE("sRGB tables of format_srgb.h are the host codec's", "[kernels][format]") {
  Rig& r = rig();
  cl::Buffer lut = r.out<float>(256), thr = r.out<float>(256);
  cl::Kernel& k = r.kernel("t_srgb_tables");
  runtime::set_args(k, lut, thr);
  r.queue.launch(k, {256}, {}, "t_srgb_tables");
  const auto lut_v = r.read<float>(lut, 256);
  const auto thr_v = r.read<float>(thr, 256);
  const std::vector<float> host_thr = host_srgb_thresholds();
  std::vector<float> host_lut(256);
  for (unsigned v = 0; v < 256; ++v) {
    const uint8_t b = uint8_t(v);
    float out[4];
    unpack_rgba_float(Format::R8_SRGB, &b, out);
    host_lut[v] = out[0];
  }
  // On a mismatch (another libm's powf), print the tables to paste into format_srgb.h.
  auto text = [](const std::vector<float>& t) {
    std::ostringstream os;
    char buf[40];
    for (unsigned i = 0; i < t.size(); ++i) {
      std::snprintf(buf, sizeof buf, "%af", double(t[i]));
      os << (i % 4 == 0 ? "    " : " ") << (t[i] == 0.0f ? "0.0f" : buf) << ","
         << (i % 4 == 3 ? "\n" : "");
    }
    return os.str();
  };
  INFO("host decode table:\n" << text(host_lut));
  INFO("host encode thresholds:\n" << text(host_thr));
  CHECK(std::equal(lut_v.begin(), lut_v.end(), host_lut.begin(), host_lut.end(),
                   [](float a, float b) { return fbits(a) == fbits(b); }));
  CHECK(std::equal(thr_v.begin() + 1, thr_v.end(), host_thr.begin() + 1, host_thr.end(),
                   [](float a, float b) { return fbits(a) == fbits(b); }));
}
