// Host format table and codec: known encodings of every layout family.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "clpipe/format.h"
#include "frontend/format_codec.h"

using namespace clpipe;
using namespace clpipe::frontend;

TEST_CASE("every format row is consistent", "[frontend][format]") {
  for (int i = 1; i < int(Format::COUNT); ++i) {
    const Format f = Format(i);
    const FormatDesc& d = format_desc(f);
    INFO(d.name);
    CHECK(format_from_name(d.name) == f);
    CHECK(format_from_name(std::string("PIPE_FORMAT_") + d.name) == f);
    CHECK(d.block_bytes >= 1);
    for (const FormatChannel& c : d.channel) {
      CHECK(unsigned(c.shift) + c.bits <= 8u * d.block_bytes);
      if (c.type != ChannelType::VOID) CHECK(c.bits > 0);
    }
    for (int s = 0; s < 4; ++s) {
      if (int(d.swizzle[s]) < 4) CHECK(d.channel[int(d.swizzle[s])].bits > 0);
    }
  }
  CHECK(format_from_name("NOT_A_FORMAT") == Format::NONE);
  CHECK(format_linear(Format::B8G8R8A8_SRGB) == Format::B8G8R8A8_UNORM);
  CHECK(format_srgb(Format::R8G8B8A8_UNORM) == Format::R8G8B8A8_SRGB);
  CHECK(format_srgb(Format::R16_UNORM) == Format::NONE);
  CHECK(format_is_pure_uint(Format::R10G10B10A2_UINT));
  CHECK_FALSE(format_is_pure_uint(Format::R10G10B10A2_UNORM));
  CHECK(format_is_pure_sint(Format::R32G32B32A32_SINT));
  CHECK(format_has_depth(Format::Z24_UNORM_S8_UINT));
  CHECK(format_has_stencil(Format::Z24_UNORM_S8_UINT));
  CHECK_FALSE(format_has_stencil(Format::Z24X8_UNORM));
  CHECK_FALSE(format_has_depth(Format::S8_UINT));
}

TEST_CASE("8-bit unorm formats pack in byte order with their swizzle", "[frontend][format]") {
  const float c[4] = {1.0f, 0.5f, 0.0f, 0.25f};
  uint8_t b[4];
  pack_rgba_float(Format::R8G8B8A8_UNORM, c, b);
  CHECK((b[0] == 255 && b[1] == 128 && b[2] == 0 && b[3] == 64));
  pack_rgba_float(Format::B8G8R8A8_UNORM, c, b);
  CHECK((b[0] == 0 && b[1] == 128 && b[2] == 255 && b[3] == 64));
  pack_rgba_float(Format::A8R8G8B8_UNORM, c, b);
  CHECK((b[0] == 64 && b[1] == 255 && b[2] == 128 && b[3] == 0));
  pack_rgba_float(Format::B8G8R8X8_UNORM, c, b);
  CHECK(b[3] == 0);
  float out[4];
  unpack_rgba_float(Format::B8G8R8X8_UNORM, b, out);
  CHECK(out[0] == 1.0f);
  CHECK(out[1] == Approx(128 / 255.0f));
  CHECK(out[3] == 1.0f);  // X reads as one
  const uint8_t l8a8[2] = {51, 204};
  unpack_rgba_float(Format::L8A8_UNORM, l8a8, out);
  CHECK((out[0] == out[1] && out[1] == out[2] && out[0] == Approx(0.2f) && out[3] == Approx(0.8f)));
  const uint8_t a8 = 255;
  unpack_rgba_float(Format::A8_UNORM, &a8, out);
  CHECK((out[0] == 0 && out[1] == 0 && out[2] == 0 && out[3] == 1));
}

TEST_CASE("packed 16- and 32-bit formats", "[frontend][format]") {
  const float red[4] = {1, 0, 0, 1};
  uint16_t v16;
  pack_rgba_float(Format::B5G6R5_UNORM, red, &v16);
  CHECK(v16 == 0xf800);  // R in the high 5 bits
  pack_rgba_float(Format::B5G5R5A1_UNORM, red, &v16);
  CHECK(v16 == 0xfc00);
  pack_rgba_float(Format::B4G4R4A4_UNORM, red, &v16);
  CHECK(v16 == 0xff00);
  uint32_t v32;
  const float c[4] = {1, 0, 1, 1.0f / 3.0f};
  pack_rgba_float(Format::R10G10B10A2_UNORM, c, &v32);
  CHECK(v32 == (0x3ffu | (0x3ffu << 20) | (1u << 30)));
  const uint32_t u[4] = {1023, 5, 2000, 3};
  pack_rgba_uint(Format::R10G10B10A2_UINT, u, &v32);
  uint32_t back[4];
  unpack_rgba_uint(Format::R10G10B10A2_UINT, &v32, back);
  CHECK((back[0] == 1023 && back[1] == 5 && back[2] == 1023 && back[3] == 3));  // 2000 clamps
}

TEST_CASE("snorm and integer conversions clamp and round", "[frontend][format]") {
  const float c[4] = {-2.0f, 1.0f, -1.0f / 127.0f * 63.5f, 0.0f};
  int8_t b[4];
  pack_rgba_float(Format::R8G8B8A8_SNORM, c, b);
  CHECK((b[0] == -127 && b[1] == 127 && b[2] == -64 && b[3] == 0));
  const int8_t m128 = -128;
  float out[4];
  unpack_rgba_float(Format::R8_SNORM, &m128, out);
  CHECK(out[0] == -1.0f);
  const int32_t s[4] = {-300, 300, 5, -5};
  int8_t sb[4];
  pack_rgba_sint(Format::R8G8B8A8_SINT, s, sb);
  CHECK((sb[0] == -128 && sb[1] == 127 && sb[2] == 5 && sb[3] == -5));
  int32_t si[4];
  unpack_rgba_sint(Format::R8G8B8A8_SINT, sb, si);
  CHECK((si[0] == -128 && si[3] == -5));
}

TEST_CASE("half floats round to nearest even and keep specials", "[frontend][format]") {
  CHECK(float_to_half(1.0f) == 0x3c00);
  CHECK(float_to_half(-2.0f) == 0xc000);
  CHECK(float_to_half(65504.0f) == 0x7bff);
  CHECK(float_to_half(65520.0f) == 0x7c00);  // rounds up to Inf
  CHECK(float_to_half(INFINITY) == 0x7c00);
  CHECK((float_to_half(NAN) & 0x7c00) == 0x7c00);
  CHECK((float_to_half(NAN) & 0x3ff) != 0);
  CHECK(float_to_half(5.9604645e-08f) == 0x0001);      // smallest denormal
  CHECK(float_to_half(1.0f + 1.0f / 2048) == 0x3c00);  // tie -> even
  CHECK(float_to_half(1.0f + 3.0f / 2048) == 0x3c02);  // tie -> even (up)
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff)) continue;  // NaN payloads
    REQUIRE(float_to_half(half_to_float(uint16_t(h))) == h);
  }
}

TEST_CASE("R11G11B10 and RGB9E5 follow their specs", "[frontend][format]") {
  const float c[4] = {1.0f, 0.5f, -3.0f, 1.0f};
  uint32_t v;
  pack_rgba_float(Format::R11G11B10_FLOAT, c, &v);
  CHECK((v & 0x7ff) == (15u << 6));          // 1.0
  CHECK(((v >> 11) & 0x7ff) == (14u << 6));  // 0.5
  CHECK((v >> 22) == 0u);                    // negative -> 0
  float out[4];
  unpack_rgba_float(Format::R11G11B10_FLOAT, &v, out);
  CHECK((out[0] == 1.0f && out[1] == 0.5f && out[2] == 0.0f && out[3] == 1.0f));
  const float big[4] = {65408.0f * 2, 0.0f, 1.0f, 0};
  pack_rgba_float(Format::R9G9B9E5_FLOAT, big, &v);
  unpack_rgba_float(Format::R9G9B9E5_FLOAT, &v, out);
  CHECK(out[0] == 65408.0f);  // clamped to the largest value
  CHECK(out[2] == 0.0f);      // below the shared exponent's resolution
  const float e[4] = {3.0f, 0.25f, 1.0f, 0};
  pack_rgba_float(Format::R9G9B9E5_FLOAT, e, &v);
  unpack_rgba_float(Format::R9G9B9E5_FLOAT, &v, out);
  CHECK((out[0] == 3.0f && out[1] == 0.25f && out[2] == 1.0f));
  const float one[4] = {1, 1, 1, 1};
  pack_rgba_float(Format::R9G9B9E5_FLOAT, one, &v);
  unpack_rgba_float(Format::R9G9B9E5_FLOAT, &v, out);
  CHECK((out[0] == 1.0f && out[1] == 1.0f && out[2] == 1.0f));
}

TEST_CASE("sRGB encodes colour but not alpha", "[frontend][format]") {
  const float c[4] = {0.5f, 0.0f, 1.0f, 0.5f};
  uint8_t b[4];
  pack_rgba_float(Format::R8G8B8A8_SRGB, c, b);
  CHECK(b[0] == 188);  // linear 0.5 -> sRGB 0.7354
  CHECK(b[1] == 0);
  CHECK(b[2] == 255);
  CHECK(b[3] == 128);
  float out[4];
  unpack_rgba_float(Format::R8G8B8A8_SRGB, b, out);
  CHECK(out[0] == Approx(0.5f).epsilon(0.01));
  CHECK(out[3] == Approx(128 / 255.0f));
  CHECK(srgb_to_linear(linear_to_srgb(0.25f)) == Approx(0.25f));
}

TEST_CASE("depth and stencil aspects pack independently", "[frontend][format]") {
  uint32_t v = 0;
  pack_depth(Format::Z24_UNORM_S8_UINT, 1.0, &v);
  pack_stencil(Format::Z24_UNORM_S8_UINT, 0x5a, &v);
  CHECK(v == 0x5affffffu);
  pack_depth(Format::Z24_UNORM_S8_UINT, 0.5, &v);
  CHECK(v == (0x5au << 24 | 0x800000u));
  CHECK(unpack_stencil(Format::Z24_UNORM_S8_UINT, &v) == 0x5a);
  CHECK(unpack_depth(Format::Z24_UNORM_S8_UINT, &v) == Approx(0.5).epsilon(1e-6));
  uint32_t s8z24 = 0;
  pack_depth(Format::S8_UINT_Z24_UNORM, 1.0, &s8z24);
  pack_stencil(Format::S8_UINT_Z24_UNORM, 3, &s8z24);
  CHECK(s8z24 == 0xffffff03u);
  uint8_t z32s8[8] = {};
  pack_depth(Format::Z32_FLOAT_S8X24_UINT, 0.75, z32s8);
  pack_stencil(Format::Z32_FLOAT_S8X24_UINT, 200, z32s8);
  CHECK(unpack_depth(Format::Z32_FLOAT_S8X24_UINT, z32s8) == 0.75f);
  CHECK(unpack_stencil(Format::Z32_FLOAT_S8X24_UINT, z32s8) == 200);
  CHECK(z32s8[4] == 200);
  uint16_t z16 = 0;
  pack_depth(Format::Z16_UNORM, 2.0, &z16);  // clamped
  CHECK(z16 == 0xffff);
}
