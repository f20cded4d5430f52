// Device format codec, write side: encode from float / uint / sint colours, stores of
// exactly one block at any alignment, and masked stores, compared with the host codec
// (the oracle) for every format of formats.def that has a raw form.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <set>
#include <sstream>

#include "kernels/format_device_harness.h"

using namespace clpipe;
using namespace clpipe::frontend;
using namespace clpipe::test::formats;

namespace {

constexpr uint32_t kStride = 24;  // bytes per stored block slot: 16 + 7 misalignments + 1
constexpr uint8_t kGuard = 0x5A;

std::string hex_bytes(const uint8_t* b, unsigned n) {
  std::ostringstream os;
  os << std::hex;
  for (unsigned i = 0; i < n; ++i)
    os << (b[i] < 16 ? "0" : "") << unsigned(b[i]);
  return os.str();
}

// Value of an unsigned 11/10-bit float (5-bit exponent, `mb` mantissa bits) below Inf.
float small_float(uint32_t s, unsigned mb) {
  const uint32_t e = s >> mb, m = s & ((1u << mb) - 1);
  return e == 0 ? std::ldexp(float(m), -14 - int(mb))
                : std::ldexp(1.0f + float(m) / float(1u << mb), int(e) - 15);
}

void add_specials(std::vector<float>& v) {
  for (float x : {0.0f,
                  -0.0f,
                  1.0f,
                  -1.0f,
                  0.5f,
                  -0.5f,
                  2.0f,
                  -2.0f,
                  0.25f,
                  1e-3f,
                  -1e-3f,
                  1e-30f,
                  FLT_MIN,
                  -FLT_MIN,
                  1e-40f,
                  -1e-40f,
                  1.4e-45f,
                  1e30f,
                  -1e30f,
                  FLT_MAX,
                  -FLT_MAX,
                  INFINITY,
                  -INFINITY,
                  NAN,
                  -NAN,
                  bitsf(0x7f800001),
                  bitsf(0xffc00123),
                  0.99999994f,
                  1.0000001f,
                  65504.0f,
                  65520.0f,
                  65536.0f,
                  255.0f,
                  256.0f,
                  1e10f,
                  4294967296.0f,
                  2147483648.0f,
                  -2147483648.0f,
                  -2147483904.0f,
                  32767.5f,
                  -32768.5f,
                  127.5f,
                  -128.5f}) {
    add_neighbours(v, x, 1);
  }
}

// Floats that exercise the rounding decisions of the channels of format d. A channel kind
// (type and width) gets every boundary in the first format that has it and in `full`
// formats (the fast paths, whose code is separate); elsewhere a sample of them, since the
// table-driven path runs the same conversion for every format.
std::vector<float> float_inputs(const FormatDesc& d, const std::vector<float>& srgb_thresholds,
                                std::set<std::pair<ChannelType, unsigned>>& swept, bool full,
                                std::mt19937& rng) {
  std::vector<float> v;
  add_specials(v);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::set<std::pair<ChannelType, unsigned>> seen;
  for (unsigned c = 0; c < 4; ++c) {
    const FormatChannel& ch = d.channel[c];
    if (ch.type == ChannelType::VOID || !seen.insert({ch.type, ch.bits}).second) continue;
    const unsigned b = ch.bits;
    const bool sweep = swept.insert({ch.type, b}).second || full;
    const int every = sweep ? 1 : 61;  // step through boundaries when only sampling
    if (channel_is_srgb(d, c)) {
      for (unsigned k = 1; k < 256; ++k)
        add_neighbours(v, srgb_thresholds[k], 2);
      for (int i = 0; i < 2048; ++i)
        v.push_back(float(unit(rng)));
      continue;
    }
    switch (ch.type) {
      case ChannelType::UNORM:
      case ChannelType::SNORM: {
        const double m =
            ch.type == ChannelType::UNORM ? std::ldexp(1.0, b) - 1 : std::ldexp(1.0, b - 1) - 1;
        const double lo = ch.type == ChannelType::UNORM ? 0 : -m;
        if (b <= 16) {
          for (double k = lo; k < m; k += b <= 8 ? 1 : every)
            add_neighbours(v, float((k + 0.5) / m), 1);
        } else {
          std::uniform_real_distribution<double> kd(lo, m);
          for (int i = 0; i < 8192 / every; ++i)
            add_neighbours(v, float((std::floor(kd(rng)) + 0.5) / m), 2);
          for (int i = 0; i < 16384 / every; ++i)
            v.push_back(bitsf(rng() % 0x3f800001u));  // [0, 1]
          for (double k = m - 64; k < m; ++k)
            add_neighbours(v, float((k + 0.5) / m), 2);
        }
        break;
      }
      case ChannelType::UINT:
      case ChannelType::SINT:
      case ChannelType::USCALED:
      case ChannelType::SSCALED:
        for (int k = -260; k <= 260; ++k)
          add_neighbours(v, float(k) + 0.5f, 1);
        for (double e : {std::ldexp(1.0, b), std::ldexp(1.0, b - 1), -std::ldexp(1.0, b - 1)}) {
          for (int k = -3; k <= 3; ++k)
            add_neighbours(v, float(e + k) + 0.5f, 1);
        }
        break;
      case ChannelType::FIXED:
        for (int i = 0; i < 4096; ++i) {
          add_neighbours(v, float((double(int32_t(rng())) + 0.5) / 65536.0), 1);
        }
        for (double k : {32767.0, -32768.0, 0.0, -1.0}) {
          for (int j = -8; j <= 8; ++j)
            add_neighbours(v, float(k + j / 65536.0 + 0.5 / 65536), 1);
        }
        break;
      case ChannelType::FLOAT:
        if (d.special == FormatSpecial::R11G11B10F) {
          // Midpoints between consecutive finite 11- and 10-bit floats.
          for (unsigned mb : {6u, 5u}) {
            for (uint32_t s = 0; s + 1 < (31u << mb); ++s) {
              const float a = small_float(s, mb), next = small_float(s + 1, mb);
              add_neighbours(v, a + (next - a) / 2, 1);
            }
          }
        } else if (d.special == FormatSpecial::R9G9B9E5) {
          for (int e = -30; e <= 17; ++e) {
            add_neighbours(v, std::ldexp(1.0f, e), 8);  // log2f may round these up
            add_neighbours(v, std::ldexp(511.5f / 512.0f, e), 3);
            add_neighbours(v, std::ldexp(255.75f / 256.0f, e), 2);
          }
          std::uniform_real_distribution<double> lg(-30.0, 17.0);
          for (int i = 0; i < 16384; ++i)
            v.push_back(float(std::exp2(lg(rng))));
          for (int i = 0; i < 1024; ++i)
            v.push_back(float(std::floor(unit(rng) * 512) + 0.5) / 64);
          add_neighbours(v, 65408.0f, 3);
        } else if (b == 16) {
          for (uint32_t h = 0; h < 0x7c00; h += every) {
            const float a = half_to_float(uint16_t(h)), n = half_to_float(uint16_t(h + 1));
            add_neighbours(v, a + (n - a) / 2, 1);
            if (h % 4 == 0) add_neighbours(v, -(a + (n - a) / 2), 1);
          }
        } else {
          for (int i = 0; i < 4096; ++i)
            v.push_back(bitsf(rng()));
        }
        break;
      default:
        break;
    }
  }
  return v;
}

std::vector<uint32_t> uint_inputs(std::mt19937& rng) {
  std::vector<uint32_t> v = {0,          1,          2,          3,         0x7fffffff,
                             0x80000000, 0x80000001, 0xffffffff, 0xfffffffe};
  for (unsigned b = 1; b <= 32; ++b) {
    const uint64_t m = (1ull << b) - 1;
    for (int64_t d = -1; d <= 1; ++d) {
      v.push_back(uint32_t(m + d));
      v.push_back(uint32_t((m >> 1) + d));
      v.push_back(uint32_t(-int64_t(m >> 1) + d));
    }
  }
  for (int i = 0; i < 1024; ++i)
    v.push_back(uint32_t(rng()) >> (rng() % 32));
  return v;
}

struct EncodeBatch {
  std::vector<uint32_t> fmt;
  std::vector<F4> fin;
  std::vector<U4> uin;
  std::vector<I4> sin;
  size_t size() const { return fmt.size(); }
};

struct Tally {
  size_t errors = 0, checked = 0;
  int srgb_off_by_one = 0;
  std::ostringstream first;
  template <typename... T>
  void fail(const T&... parts) {
    if (errors++ < 12) {
      (first << ... << parts);
      first << "\n";
    }
  }
};

void run_and_check(const EncodeBatch& in, Tally& t) {
  Rig& r = rig();
  const size_t n = in.size();
  if (n == 0) return;
  std::vector<uint8_t> guard(3 * n * kStride, kGuard);
  cl::Buffer fmt = r.in(in.fmt), fin = r.in(in.fin), uin = r.in(in.uin), sin = r.in(in.sin);
  cl::Buffer out = r.out<uint8_t>(guard.size()), raw = r.out<U4>(3 * n);
  r.queue.write(out, 0, guard.size(), guard.data(), true);
  cl::Kernel& k = r.kernel("t_encode");
  runtime::set_args(k, fmt, fin, uin, sin, out, raw, kStride, uint32_t(n));
  r.queue.launch(k, {n}, {}, "t_encode");
  const auto bytes = r.read<uint8_t>(out, guard.size());
  const auto raw_v = r.read<U4>(raw, 3 * n);
  for (size_t i = 0; i < n; ++i) {
    const Format f = Format(in.fmt[i]);
    const unsigned nb = format_desc(f).block_bytes, mis = unsigned(i % 7);
    uint8_t host[3][16] = {};
    pack_rgba_float(f, in.fin[i].v, host[0]);
    pack_rgba_uint(f, in.uin[i].v, host[1]);
    pack_rgba_sint(f, in.sin[i].v, host[2]);
    for (int kind = 0; kind < 3; ++kind) {
      ++t.checked;
      const uint8_t* slot = &bytes[(3 * i + kind) * kStride];
      const uint8_t* dev = slot + mis;
      const uint8_t* raw_bytes = reinterpret_cast<const uint8_t*>(raw_v[3 * i + kind].v);
      bool guard_ok = true;
      for (unsigned j = 0; j < kStride; ++j) {
        if ((j < mis || j >= mis + nb) && slot[j] != kGuard) guard_ok = false;
      }
      bool raw_ok = std::memcmp(raw_bytes, dev, nb) == 0;
      for (unsigned j = nb; j < 16; ++j)
        raw_ok = raw_ok && raw_bytes[j] == 0;
      if (!guard_ok || !raw_ok) {
        t.fail(name(f), " kind ", kind, ": store touched bytes outside its block or raw != stored");
        continue;
      }
      if (!blocks_match(f, dev, host[kind], kind == 0, &t.srgb_off_by_one)) {
        std::ostringstream what;
        if (kind == 0) {
          what << "float (" << in.fin[i].v[0] << ", " << in.fin[i].v[1] << ", " << in.fin[i].v[2]
               << ", " << in.fin[i].v[3] << ") bits " << std::hex << fbits(in.fin[i].v[0]) << " "
               << fbits(in.fin[i].v[1]) << " " << fbits(in.fin[i].v[2]) << " "
               << fbits(in.fin[i].v[3]);
        } else {
          what << (kind == 1 ? "uint (" : "sint (") << std::hex << in.uin[i].v[0] << ", "
               << in.uin[i].v[1] << ", " << in.uin[i].v[2] << ", " << in.uin[i].v[3] << ")";
        }
        t.fail(name(f), " ", what.str(), ": device ", hex_bytes(dev, nb), " host ",
               hex_bytes(host[kind], nb));
      }
    }
  }
}

}  // namespace

TEST_CASE("device encode of every format matches the host", "[kernels][format]") {
  std::mt19937 rng(2024);
  const std::vector<float> thresholds = host_srgb_thresholds();
  const std::vector<uint32_t> ints = uint_inputs(rng);
  Tally t;
  EncodeBatch batch;
  std::set<std::pair<ChannelType, unsigned>> swept;
  size_t formats = 0;
  for (Format f : all_formats()) {
    const FormatDesc& d = format_desc(f);
    if (d.block_bytes > 16) continue;  // vertex-only: no raw form
    ++formats;
    const bool fast_path = f == Format::R16G16B16A16_FLOAT || f == Format::Z24_UNORM_S8_UINT;
    const std::vector<float> v = float_inputs(d, thresholds, swept, fast_path, rng);
    const size_t count = std::max(v.size(), ints.size());
    for (size_t i = 0; i < count; ++i) {
      F4 fc;
      U4 uc;
      I4 sc;
      for (size_t c = 0; c < 4; ++c) {
        fc.v[c] = v[(i + c) % v.size()];
        uc.v[c] = ints[(i + 3 * c) % ints.size()];
        sc.v[c] = int32_t(ints[(i * 7 + c) % ints.size()]);
      }
      batch.fmt.push_back(uint32_t(f));
      batch.fin.push_back(fc);
      batch.uin.push_back(uc);
      batch.sin.push_back(sc);
    }
    if (batch.size() > (1u << 19)) {
      run_and_check(batch, t);
      batch = EncodeBatch();
    }
  }
  run_and_check(batch, t);
  INFO(t.first.str());
  INFO("sRGB channels one code off the host: " << t.srgb_off_by_one);
  INFO("blocks checked: " << t.checked);
  CHECK(formats > 190);
  CHECK(t.errors == 0);
}

TEST_CASE("device masked stores write exactly the channels of the chosen components",
          "[kernels][format]") {
  std::mt19937 rng(7);
  std::vector<uint32_t> fmt, masks;
  std::vector<U4> src;
  std::vector<std::array<uint8_t, 16>> old_blocks;
  for (Format f : all_formats()) {
    if (format_desc(f).block_bytes > 16) continue;
    for (uint32_t m = 0; m < 16; ++m) {
      for (int rep = 0; rep < 24; ++rep) {
        U4 s;
        std::array<uint8_t, 16> o;
        for (auto& w : s.v)
          w = rng();
        for (auto& b : o)
          b = uint8_t(rng());
        fmt.push_back(uint32_t(f));
        masks.push_back(m);
        src.push_back(s);
        old_blocks.push_back(o);
      }
    }
  }
  const size_t n = fmt.size();
  std::vector<uint8_t> buf(n * kStride, kGuard);
  for (size_t i = 0; i < n; ++i) {
    std::memcpy(&buf[i * kStride + i % 7], old_blocks[i].data(),
                format_desc(Format(fmt[i])).block_bytes);
  }
  Rig& r = rig();
  cl::Buffer fb = r.in(fmt), mb = r.in(masks), sb = r.in(src), out = r.out<uint8_t>(buf.size());
  cl::Buffer mask_out = r.out<U4>(n);
  r.queue.write(out, 0, buf.size(), buf.data(), true);
  cl::Kernel& k = r.kernel("t_masked");
  runtime::set_args(k, fb, mb, sb, out, mask_out, kStride, uint32_t(n));
  r.queue.launch(k, {n}, {}, "t_masked");
  const auto got = r.read<uint8_t>(out, buf.size());
  const auto got_mask = r.read<U4>(mask_out, n);
  Tally t;
  for (size_t i = 0; i < n; ++i) {
    const Format f = Format(fmt[i]);
    const FormatDesc& d = format_desc(f);
    const unsigned nb = d.block_bytes, mis = unsigned(i % 7);
    // Expected mask, from the host table: channels fed by a chosen component; the shared
    // exponent of RGB9E5 makes any colour component select the whole block.
    uint8_t want_mask[16] = {};
    auto set_field = [&](unsigned shift, unsigned bits) {
      for (unsigned b = shift; b < shift + bits; ++b)
        want_mask[b >> 3] |= uint8_t(1u << (b & 7));
    };
    if (d.special == FormatSpecial::R9G9B9E5) {
      if (masks[i] & 7) set_field(0, 32);
    } else {
      for (unsigned c = 0; c < 4; ++c) {
        const unsigned s = channel_source(d, c);
        if (d.channel[c].type != ChannelType::VOID && s < 4 && ((masks[i] >> s) & 1))
          set_field(d.channel[c].shift, d.channel[c].bits);
      }
    }
    const uint8_t* m = reinterpret_cast<const uint8_t*>(got_mask[i].v);
    const uint8_t* nw = reinterpret_cast<const uint8_t*>(src[i].v);
    const uint8_t* slot = &got[i * kStride];
    bool ok = std::memcmp(m, want_mask, 16) == 0;
    for (unsigned j = 0; j < kStride && ok; ++j) {
      if (j < mis || j >= mis + nb) {
        ok = slot[j] == kGuard;
      } else {
        const unsigned b = j - mis;
        ok = slot[j] == uint8_t((old_blocks[i][b] & ~want_mask[b]) | (nw[b] & want_mask[b]));
      }
    }
    // What the masks mean: a component that owns its channel reads back from the new
    // block when chosen and from the old one otherwise.
    if (ok && d.special == FormatSpecial::NONE) {
      uint32_t res[4], from_new[4], from_old[4];
      unpack_rgba_uint(f, slot + mis, res);
      unpack_rgba_uint(f, nw, from_new);
      unpack_rgba_uint(f, old_blocks[i].data(), from_old);
      for (unsigned c = 0; c < 4 && ok; ++c) {
        const unsigned s = unsigned(d.swizzle[c]);
        if (s >= 4 || channel_source(d, s) != c) continue;
        ok = res[c] == (((masks[i] >> c) & 1) ? from_new[c] : from_old[c]);
      }
    }
    ++t.checked;
    if (!ok) {
      t.fail(name(f), " mask ", masks[i], ": device mask ", hex_bytes(m, 16), " want ",
             hex_bytes(want_mask, 16), " result ", hex_bytes(slot, kStride));
    }
  }
  INFO(t.first.str());
  CHECK(t.checked > 40000);
  CHECK(t.errors == 0);
}
