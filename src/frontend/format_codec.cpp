// Host pack/unpack of texels; the rules are listed in format_codec.h.
#include "frontend/format_codec.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace clpipe::frontend {

namespace {

// Bits [shift, shift + bits) of a little-endian block (bits <= 64).
uint64_t get_bits(const uint8_t* block, unsigned shift, unsigned bits) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bits; ++i) {
    unsigned b = shift + i;
    v |= uint64_t((block[b >> 3] >> (b & 7)) & 1) << i;
  }
  return v;
}

void set_bits(uint8_t* block, unsigned shift, unsigned bits, uint64_t v) {
  for (unsigned i = 0; i < bits; ++i) {
    unsigned b = shift + i;
    uint8_t bit = uint8_t(1u << (b & 7));
    if ((v >> i) & 1) {
      block[b >> 3] |= bit;
    } else {
      block[b >> 3] &= uint8_t(~bit);
    }
  }
}

uint64_t max_unsigned(unsigned bits) {
  return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
}
int64_t max_signed(unsigned bits) {
  return int64_t(max_unsigned(bits - 1));
}
int64_t sign_extend(uint64_t v, unsigned bits) {
  if (bits >= 64) return int64_t(v);
  uint64_t m = uint64_t(1) << (bits - 1);
  return int64_t((v ^ m) - m);
}

float bits_to_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint32_t float_to_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Unsigned small float (R11G11B10): 5-bit exponent (bias 15), `mbits` mantissa bits.
float small_float_to_float(uint32_t v, unsigned mbits) {
  uint32_t e = v >> mbits, m = v & ((1u << mbits) - 1);
  if (e == 31) return m ? NAN : INFINITY;
  if (e == 0) return std::ldexp(float(m), -14 - int(mbits));
  return std::ldexp(1.0f + float(m) / float(1u << mbits), int(e) - 15);
}

// Round to nearest even; negative -> 0; NaN -> NaN; too large -> Inf (like half).
uint32_t float_to_small_float(float f, unsigned mbits) {
  if (std::isnan(f)) return (31u << mbits) | 1u;
  if (!(f > 0.0f)) return 0;  // negatives and -0 clamp to 0
  uint32_t u = float_to_bits(f);
  int e = int((u >> 23) & 0xff) - 127;
  if (e > 15) return 31u << mbits;            // overflow (and +Inf)
  uint32_t mant = (u & 0x7fffff) | 0x800000;  // 24 bits with the implicit one
  unsigned shift;
  uint32_t exp_field;
  if (e < -14) {
    // Denormal: value = m * 2^(-14 - mbits).
    int s = 23 - int(mbits) + (-14 - e);
    if (s > 24) return 0;
    shift = unsigned(s);
    exp_field = 0;
  } else {
    shift = 23 - mbits;
    exp_field = uint32_t(e + 15);
    mant &= 0x7fffff;  // drop the implicit one: the exponent field carries it
  }
  uint32_t m = mant >> shift;
  uint32_t rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
  if (rem > half || (rem == half && (m & 1))) ++m;
  // A carry out of the mantissa moves into the exponent, which is what the encoding wants.
  uint32_t r = (exp_field << mbits) + m;
  if (r >= (31u << mbits)) return 31u << mbits;
  return r;
}

// EXT_texture_shared_exponent packing.
uint32_t pack_rgb9e5(const float in[3]) {
  constexpr float kMax = 65408.0f;  // (2^9 - 1) / 2^9 * 2^16
  float c[3];
  for (int i = 0; i < 3; ++i)
    c[i] = std::isnan(in[i]) ? 0.0f : std::clamp(in[i], 0.0f, kMax);
  float maxc = std::max(c[0], std::max(c[1], c[2]));
  int exp_shared = std::max(-16, int(std::floor(std::log2(std::max(maxc, 1e-30f))))) + 1 + 15;
  double denom = std::ldexp(1.0, exp_shared - 15 - 9);
  int maxm = int(std::floor(maxc / denom + 0.5));
  if (maxm == 512) {
    denom *= 2;
    ++exp_shared;
  }
  uint32_t r = 0;
  for (int i = 0; i < 3; ++i) {
    uint32_t m = uint32_t(std::floor(c[i] / denom + 0.5));
    r |= std::min(m, 511u) << (9 * i);
  }
  return r | (uint32_t(exp_shared) << 27);
}

void unpack_rgb9e5(uint32_t v, float out[3]) {
  int e = int(v >> 27) - 15 - 9;
  for (int i = 0; i < 3; ++i)
    out[i] = std::ldexp(float((v >> (9 * i)) & 511), e);
}

// One channel to float, without sRGB.
float channel_to_float(const FormatChannel& c, uint64_t v) {
  switch (c.type) {
    case ChannelType::UNORM:
      return float(double(v) / double(max_unsigned(c.bits)));
    case ChannelType::SNORM:
      return std::max(float(double(sign_extend(v, c.bits)) / double(max_signed(c.bits))), -1.0f);
    case ChannelType::UINT:
    case ChannelType::USCALED:
      return float(v);
    case ChannelType::SINT:
    case ChannelType::SSCALED:
      return float(sign_extend(v, c.bits));
    case ChannelType::FIXED:
      return float(double(sign_extend(v, c.bits)) / 65536.0);
    case ChannelType::FLOAT:
      if (c.bits == 16) return half_to_float(uint16_t(v));
      if (c.bits == 32) return bits_to_float(uint32_t(v));
      if (c.bits == 64) {
        double d;
        std::memcpy(&d, &v, 8);
        return float(d);
      }
      return 0.0f;
    case ChannelType::VOID:
      return 0.0f;
  }
  return 0.0f;
}

uint64_t float_to_channel(const FormatChannel& c, float x) {
  switch (c.type) {
    case ChannelType::UNORM: {
      if (std::isnan(x)) return 0;
      double m = double(max_unsigned(c.bits));
      return uint64_t(std::floor(double(std::clamp(x, 0.0f, 1.0f)) * m + 0.5));
    }
    case ChannelType::SNORM: {
      if (std::isnan(x)) return 0;
      double m = double(max_signed(c.bits));
      double r = std::round(double(std::clamp(x, -1.0f, 1.0f)) * m);
      return uint64_t(int64_t(r)) & max_unsigned(c.bits);
    }
    case ChannelType::UINT:
    case ChannelType::USCALED: {
      if (std::isnan(x) || x <= 0) return 0;
      double m = double(max_unsigned(c.bits));
      return uint64_t(std::min(std::round(double(x)), m));
    }
    case ChannelType::SINT:
    case ChannelType::SSCALED: {
      if (std::isnan(x)) return 0;
      double hi = double(max_signed(c.bits)), lo = -hi - 1;
      return uint64_t(int64_t(std::clamp(std::round(double(x)), lo, hi))) & max_unsigned(c.bits);
    }
    case ChannelType::FIXED: {
      if (std::isnan(x)) return 0;
      double r = std::clamp(std::round(double(x) * 65536.0), -2147483648.0, 2147483647.0);
      return uint64_t(int64_t(r)) & max_unsigned(c.bits);
    }
    case ChannelType::FLOAT:
      if (c.bits == 16) return float_to_half(x);
      if (c.bits == 32) return float_to_bits(x);
      if (c.bits == 64) {
        double d = x;
        uint64_t u;
        std::memcpy(&u, &d, 8);
        return u;
      }
      return 0;
    case ChannelType::VOID:
      return 0;
  }
  return 0;
}

// Raw channel values -> RGBA through the format swizzle, constants as given.
template <typename T>
void swizzle_out(const FormatDesc& d, const T ch[4], T zero, T one, T out[4]) {
  for (int i = 0; i < 4; ++i) {
    switch (d.swizzle[i]) {
      case FormatSwizzle::X:
        out[i] = ch[0];
        break;
      case FormatSwizzle::Y:
        out[i] = ch[1];
        break;
      case FormatSwizzle::Z:
        out[i] = ch[2];
        break;
      case FormatSwizzle::W:
        out[i] = ch[3];
        break;
      case FormatSwizzle::ZERO:
        out[i] = zero;
        break;
      case FormatSwizzle::ONE:
        out[i] = one;
        break;
      case FormatSwizzle::NONE:
        out[i] = zero;
        break;
    }
  }
}

// RGBA -> the value each channel stores: the first RGBA component whose swizzle names
// that channel (L formats store R; I formats store R; LA stores R and A).
template <typename T>
bool channel_source(const FormatDesc& d, int channel, const T in[4], T* out) {
  for (int i = 0; i < 4; ++i) {
    if (int(d.swizzle[i]) == channel) {
      *out = in[i];
      return true;
    }
  }
  return false;
}

bool is_rgb_component_of_srgb(const FormatDesc& d, int channel) {
  if (d.colorspace != Colorspace::SRGB) return false;
  // Alpha (the component the swizzle routes to A) stays linear.
  return !(int(d.swizzle[3]) == channel && d.swizzle[0] != d.swizzle[3]);
}

}  // namespace

uint16_t float_to_half(float f) {
  uint32_t u = float_to_bits(f);
  uint16_t sign = uint16_t((u >> 16) & 0x8000);
  uint32_t exp = (u >> 23) & 0xff, mant = u & 0x7fffff;
  if (exp == 0xff) return uint16_t(sign | 0x7c00 | (mant ? 0x200 : 0));  // Inf / NaN
  int e = int(exp) - 127;
  if (e > 15) return uint16_t(sign | 0x7c00);
  uint32_t m = mant | 0x800000;
  unsigned shift;
  uint32_t exp_field;
  if (e < -14) {
    int s = 13 + (-14 - e);
    if (s > 24) return sign;
    shift = unsigned(s);
    exp_field = 0;
  } else {
    shift = 13;
    exp_field = uint32_t(e + 15);
    m &= 0x7fffff;
  }
  uint32_t r = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
  if (rem > half || (rem == half && (r & 1))) ++r;
  uint32_t h = (exp_field << 10) + r;
  if (h >= 0x7c00) h = 0x7c00;
  return uint16_t(sign | h);
}

float half_to_float(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 31) return bits_to_float(sign | 0x7f800000 | (m << 13));
  if (e == 0) {
    float v = std::ldexp(float(m), -24);
    return sign ? -v : v;
  }
  return bits_to_float(sign | ((e + 112) << 23) | (m << 13));
}

float srgb_to_linear(float c) {
  if (c <= 0.04045f) return c / 12.92f;
  return std::pow((c + 0.055f) / 1.055f, 2.4f);
}

float linear_to_srgb(float c) {
  if (std::isnan(c)) return 0.0f;
  c = std::clamp(c, 0.0f, 1.0f);
  if (c < 0.0031308f) return 12.92f * c;
  return 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
}

void unpack_rgba_float(Format f, const void* src, float out[4]) {
  const FormatDesc& d = format_desc(f);
  const uint8_t* block = static_cast<const uint8_t*>(src);
  float ch[4] = {0, 0, 0, 0};
  if (d.special == FormatSpecial::R9G9B9E5) {
    uint32_t v;
    std::memcpy(&v, block, 4);
    unpack_rgb9e5(v, ch);
  } else if (d.special == FormatSpecial::R11G11B10F) {
    uint32_t v;
    std::memcpy(&v, block, 4);
    ch[0] = small_float_to_float(v & 0x7ff, 6);
    ch[1] = small_float_to_float((v >> 11) & 0x7ff, 6);
    ch[2] = small_float_to_float(v >> 22, 5);
  } else {
    for (int i = 0; i < 4; ++i) {
      const FormatChannel& c = d.channel[i];
      if (c.type == ChannelType::VOID) continue;
      ch[i] = channel_to_float(c, get_bits(block, c.shift, c.bits));
      if (is_rgb_component_of_srgb(d, i)) ch[i] = srgb_to_linear(ch[i]);
    }
  }
  swizzle_out(d, ch, 0.0f, 1.0f, out);
}

void unpack_rgba_uint(Format f, const void* src, uint32_t out[4]) {
  const FormatDesc& d = format_desc(f);
  const uint8_t* block = static_cast<const uint8_t*>(src);
  uint32_t ch[4] = {0, 0, 0, 0};
  for (int i = 0; i < 4; ++i) {
    const FormatChannel& c = d.channel[i];
    if (c.type != ChannelType::VOID) ch[i] = uint32_t(get_bits(block, c.shift, c.bits));
  }
  swizzle_out(d, ch, 0u, 1u, out);
}

void unpack_rgba_sint(Format f, const void* src, int32_t out[4]) {
  const FormatDesc& d = format_desc(f);
  const uint8_t* block = static_cast<const uint8_t*>(src);
  int32_t ch[4] = {0, 0, 0, 0};
  for (int i = 0; i < 4; ++i) {
    const FormatChannel& c = d.channel[i];
    if (c.type != ChannelType::VOID)
      ch[i] = int32_t(sign_extend(get_bits(block, c.shift, c.bits), c.bits));
  }
  swizzle_out(d, ch, 0, 1, out);
}

void pack_rgba_float(Format f, const float in[4], void* dst) {
  const FormatDesc& d = format_desc(f);
  uint8_t* block = static_cast<uint8_t*>(dst);
  std::memset(block, 0, d.block_bytes);
  if (d.special == FormatSpecial::R9G9B9E5) {
    uint32_t v = pack_rgb9e5(in);
    std::memcpy(block, &v, 4);
    return;
  }
  if (d.special == FormatSpecial::R11G11B10F) {
    uint32_t v = float_to_small_float(in[0], 6) | float_to_small_float(in[1], 6) << 11 |
                 float_to_small_float(in[2], 5) << 22;
    std::memcpy(block, &v, 4);
    return;
  }
  for (int i = 0; i < 4; ++i) {
    const FormatChannel& c = d.channel[i];
    float x;
    if (c.type == ChannelType::VOID || !channel_source(d, i, in, &x)) continue;
    if (is_rgb_component_of_srgb(d, i)) x = linear_to_srgb(x);
    set_bits(block, c.shift, c.bits, float_to_channel(c, x));
  }
}

void pack_rgba_uint(Format f, const uint32_t in[4], void* dst) {
  const FormatDesc& d = format_desc(f);
  uint8_t* block = static_cast<uint8_t*>(dst);
  std::memset(block, 0, d.block_bytes);
  for (int i = 0; i < 4; ++i) {
    const FormatChannel& c = d.channel[i];
    uint32_t x;
    if (c.type == ChannelType::VOID || !channel_source(d, i, in, &x)) continue;
    uint64_t m = c.type == ChannelType::SINT ? uint64_t(max_signed(c.bits)) : max_unsigned(c.bits);
    set_bits(block, c.shift, c.bits, std::min<uint64_t>(x, m));
  }
}

void pack_rgba_sint(Format f, const int32_t in[4], void* dst) {
  const FormatDesc& d = format_desc(f);
  uint8_t* block = static_cast<uint8_t*>(dst);
  std::memset(block, 0, d.block_bytes);
  for (int i = 0; i < 4; ++i) {
    const FormatChannel& c = d.channel[i];
    int32_t x;
    if (c.type == ChannelType::VOID || !channel_source(d, i, in, &x)) continue;
    int64_t hi = c.type == ChannelType::UINT ? int64_t(max_unsigned(c.bits)) : max_signed(c.bits);
    int64_t lo = c.type == ChannelType::UINT ? 0 : -max_signed(c.bits) - 1;
    set_bits(block, c.shift, c.bits,
             uint64_t(std::clamp<int64_t>(x, lo, hi)) & max_unsigned(c.bits));
  }
}

float unpack_depth(Format f, const void* src) {
  const FormatDesc& d = format_desc(f);
  if (!format_has_depth(f)) return 0.0f;
  const FormatChannel& c = d.channel[int(d.swizzle[0])];
  return channel_to_float(c, get_bits(static_cast<const uint8_t*>(src), c.shift, c.bits));
}

uint32_t unpack_stencil(Format f, const void* src) {
  const FormatDesc& d = format_desc(f);
  if (!format_has_stencil(f)) return 0;
  const FormatChannel& c = d.channel[int(d.swizzle[1])];
  return uint32_t(get_bits(static_cast<const uint8_t*>(src), c.shift, c.bits));
}

void pack_depth(Format f, double depth, void* dst) {
  const FormatDesc& d = format_desc(f);
  if (!format_has_depth(f)) return;
  const FormatChannel& c = d.channel[int(d.swizzle[0])];
  uint64_t v;
  if (c.type == ChannelType::FLOAT) {
    v = float_to_bits(float(depth));
  } else {
    // UNORM depth: computed in double so that 24- and 32-bit depth round exactly.
    double z = std::isnan(depth) ? 0.0 : std::clamp(depth, 0.0, 1.0);
    v = uint64_t(std::floor(z * double(max_unsigned(c.bits)) + 0.5));
  }
  set_bits(static_cast<uint8_t*>(dst), c.shift, c.bits, v);
}

void pack_stencil(Format f, uint32_t stencil, void* dst) {
  const FormatDesc& d = format_desc(f);
  if (!format_has_stencil(f)) return;
  const FormatChannel& c = d.channel[int(d.swizzle[1])];
  set_bits(static_cast<uint8_t*>(dst), c.shift, c.bits, stencil & max_unsigned(c.bits));
}

}  // namespace clpipe::frontend
