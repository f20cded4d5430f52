// The host format table (from formats.def) and the format queries of clpipe/format.h.
#include <array>
#include <cstring>
#include <string>

#include "clpipe/format.h"

namespace clpipe {

namespace {

#define CLP_CT_VOID ChannelType::VOID
#define CLP_CT_UNORM ChannelType::UNORM
#define CLP_CT_SNORM ChannelType::SNORM
#define CLP_CT_UINT ChannelType::UINT
#define CLP_CT_SINT ChannelType::SINT
#define CLP_CT_USCALED ChannelType::USCALED
#define CLP_CT_SSCALED ChannelType::SSCALED
#define CLP_CT_FLOAT ChannelType::FLOAT
#define CLP_CT_FIXED ChannelType::FIXED
#define CLP_SW_X FormatSwizzle::X
#define CLP_SW_Y FormatSwizzle::Y
#define CLP_SW_Z FormatSwizzle::Z
#define CLP_SW_W FormatSwizzle::W
#define CLP_SW_0 FormatSwizzle::ZERO
#define CLP_SW_1 FormatSwizzle::ONE
#define CLP_SW_N FormatSwizzle::NONE

constexpr FormatDesc kTable[] = {
#define CLPIPE_FORMAT(name, bytes, cs, special, s0, s1, s2, s3, t0, b0, h0, t1, b1, h1, t2, b2, \
                      h2, t3, b3, h3)                                                           \
  {#name,                                                                                       \
   bytes,                                                                                       \
   Colorspace::cs,                                                                              \
   FormatSpecial::special,                                                                      \
   {CLP_SW_##s0, CLP_SW_##s1, CLP_SW_##s2, CLP_SW_##s3},                                        \
   {{CLP_CT_##t0, b0, h0}, {CLP_CT_##t1, b1, h1}, {CLP_CT_##t2, b2, h2}, {CLP_CT_##t3, b3, h3}}},
#include "clpipe/formats.def"
#undef CLPIPE_FORMAT
};
static_assert(sizeof(kTable) / sizeof(kTable[0]) == size_t(Format::COUNT),
              "one row of formats.def per Format");

bool all_present_channels(Format f, ChannelType t) {
  const FormatDesc& d = format_desc(f);
  if (d.colorspace == Colorspace::ZS || d.special != FormatSpecial::NONE) return false;
  bool any = false;
  for (const FormatChannel& c : d.channel) {
    if (c.type == ChannelType::VOID) continue;
    if (c.type != t) return false;
    any = true;
  }
  return any;
}

}  // namespace

const FormatDesc& format_desc(Format f) {
  size_t i = size_t(f);
  return kTable[i < size_t(Format::COUNT) ? i : 0];
}

Format format_from_name(std::string_view name) {
  constexpr std::string_view kPrefix = "PIPE_FORMAT_";
  if (name.substr(0, kPrefix.size()) == kPrefix) name.remove_prefix(kPrefix.size());
  for (size_t i = 1; i < size_t(Format::COUNT); ++i) {
    if (name == kTable[i].name) return Format(i);
  }
  return Format::NONE;
}

bool format_is_depth_or_stencil(Format f) {
  return format_desc(f).colorspace == Colorspace::ZS;
}

bool format_has_depth(Format f) {
  const FormatDesc& d = format_desc(f);
  return d.colorspace == Colorspace::ZS && d.swizzle[0] != FormatSwizzle::NONE;
}

bool format_has_stencil(Format f) {
  const FormatDesc& d = format_desc(f);
  return d.colorspace == Colorspace::ZS && d.swizzle[1] != FormatSwizzle::NONE;
}

bool format_is_srgb(Format f) {
  return format_desc(f).colorspace == Colorspace::SRGB;
}
bool format_is_pure_uint(Format f) {
  return all_present_channels(f, ChannelType::UINT);
}
bool format_is_pure_sint(Format f) {
  return all_present_channels(f, ChannelType::SINT);
}

ChannelType format_base_type(Format f) {
  for (const FormatChannel& c : format_desc(f).channel) {
    if (c.type != ChannelType::VOID) return c.type;
  }
  return ChannelType::VOID;
}

Format format_linear(Format f) {
  if (!format_is_srgb(f)) return f;
  std::string name = format_desc(f).name;
  name.replace(name.rfind("_SRGB"), 5, "_UNORM");
  Format linear = format_from_name(name);
  return linear == Format::NONE ? f : linear;
}

Format format_srgb(Format f) {
  const FormatDesc& d = format_desc(f);
  std::string name = d.name;
  size_t pos = name.rfind("_UNORM");
  if (d.colorspace != Colorspace::RGB || pos == std::string::npos || pos + 6 != name.size()) {
    return Format::NONE;
  }
  name.replace(pos, 6, "_SRGB");
  return format_from_name(name);
}

}  // namespace clpipe
