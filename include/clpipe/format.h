// Formats: the enum and the host view of the one format table (formats.def).
//
// The same table is compiled into the device code (src/kernels/format.h), where
// pack/unpack run; the host codec (pack_rgba_* / unpack_rgba_* in
// src/frontend/format_codec.h) implements the identical conversions in plain C++ for
// tests and for CPU-side work such as clear values and border colours.
#pragma once

#include <cstdint>
#include <string_view>

namespace clpipe {

enum class Format : uint16_t {
#define CLPIPE_FORMAT(name, ...) name,
#include "clpipe/formats.def"
#undef CLPIPE_FORMAT
  COUNT
};

enum class ChannelType : uint8_t { VOID, UNORM, SNORM, UINT, SINT, USCALED, SSCALED, FLOAT, FIXED };
enum class Colorspace : uint8_t { RGB, SRGB, ZS };
enum class FormatSpecial : uint8_t { NONE, R11G11B10F, R9G9B9E5 };
// Swizzle source of a format: channel 0..3, or a constant.
enum class FormatSwizzle : uint8_t { X = 0, Y = 1, Z = 2, W = 3, ZERO = 4, ONE = 5, NONE = 6 };

struct FormatChannel {
  ChannelType type;
  uint8_t bits;   // 0 for an absent channel
  uint8_t shift;  // bit offset in the little-endian block
};

struct FormatDesc {
  const char* name;  // "R8G8B8A8_UNORM"
  uint8_t block_bytes;
  Colorspace colorspace;
  FormatSpecial special;
  FormatSwizzle swizzle[4];  // RGBA <- channel; ZS: [0] depth, [1] stencil
  FormatChannel channel[4];
};

const FormatDesc& format_desc(Format f);
inline const char* format_name(Format f) {
  return format_desc(f).name;
}
// Format::NONE when the name is unknown. Accepts "R8G8B8A8_UNORM" and "PIPE_FORMAT_..." forms.
Format format_from_name(std::string_view name);

inline bool format_is_valid(Format f) {
  return f > Format::NONE && f < Format::COUNT;
}
bool format_is_depth_or_stencil(Format f);
bool format_has_depth(Format f);
bool format_has_stencil(Format f);
bool format_is_srgb(Format f);
// Every present channel is UINT (resp. SINT): values are integers, never filtered or blended.
bool format_is_pure_uint(Format f);
bool format_is_pure_sint(Format f);
inline bool format_is_pure_integer(Format f) {
  return format_is_pure_uint(f) || format_is_pure_sint(f);
}
// Type of the first present channel (what a colour of this format holds).
ChannelType format_base_type(Format f);
// The linear (non-sRGB) twin of an sRGB format, else f itself.
Format format_linear(Format f);
// The sRGB twin of a linear format, or Format::NONE.
Format format_srgb(Format f);

}  // namespace clpipe
