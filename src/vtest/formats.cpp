// Conversion tables between virgl wire numbers and the clpipe API (see formats.h).
//
// The virgl format table lists every number of Mesa 22.3.6's enum virgl_formats by its
// gallium name; the clpipe format is found by name in clpipe's one format table
// (formats.def), so the two tables cannot drift apart silently. Values 262..266 are
// defined twice in the Mesa header; Mesa 22.3.6 only sends their second meaning, which
// is the one listed.
#include "vtest/formats.h"

#include <array>
#include <cstring>

#include "vtest/protocol.h"
#include "vtest/wire.h"

namespace clpipe::frontend::vtest {
namespace {

struct VirglFormatName {
  uint16_t number;
  const char* name;
};

constexpr VirglFormatName kVirglFormats[] = {{0, "NONE"},
                                             {1, "B8G8R8A8_UNORM"},
                                             {2, "B8G8R8X8_UNORM"},
                                             {3, "A8R8G8B8_UNORM"},
                                             {4, "X8R8G8B8_UNORM"},
                                             {5, "B5G5R5A1_UNORM"},
                                             {6, "B4G4R4A4_UNORM"},
                                             {7, "B5G6R5_UNORM"},
                                             {8, "R10G10B10A2_UNORM"},
                                             {9, "L8_UNORM"},
                                             {10, "A8_UNORM"},
                                             {11, "I8_UNORM"},
                                             {12, "L8A8_UNORM"},
                                             {13, "L16_UNORM"},
                                             {14, "UYVY"},
                                             {15, "YUYV"},
                                             {16, "Z16_UNORM"},
                                             {17, "Z32_UNORM"},
                                             {18, "Z32_FLOAT"},
                                             {19, "Z24_UNORM_S8_UINT"},
                                             {20, "S8_UINT_Z24_UNORM"},
                                             {21, "Z24X8_UNORM"},
                                             {22, "X8Z24_UNORM"},
                                             {23, "S8_UINT"},
                                             {24, "R64_FLOAT"},
                                             {25, "R64G64_FLOAT"},
                                             {26, "R64G64B64_FLOAT"},
                                             {27, "R64G64B64A64_FLOAT"},
                                             {28, "R32_FLOAT"},
                                             {29, "R32G32_FLOAT"},
                                             {30, "R32G32B32_FLOAT"},
                                             {31, "R32G32B32A32_FLOAT"},
                                             {32, "R32_UNORM"},
                                             {33, "R32G32_UNORM"},
                                             {34, "R32G32B32_UNORM"},
                                             {35, "R32G32B32A32_UNORM"},
                                             {36, "R32_USCALED"},
                                             {37, "R32G32_USCALED"},
                                             {38, "R32G32B32_USCALED"},
                                             {39, "R32G32B32A32_USCALED"},
                                             {40, "R32_SNORM"},
                                             {41, "R32G32_SNORM"},
                                             {42, "R32G32B32_SNORM"},
                                             {43, "R32G32B32A32_SNORM"},
                                             {44, "R32_SSCALED"},
                                             {45, "R32G32_SSCALED"},
                                             {46, "R32G32B32_SSCALED"},
                                             {47, "R32G32B32A32_SSCALED"},
                                             {48, "R16_UNORM"},
                                             {49, "R16G16_UNORM"},
                                             {50, "R16G16B16_UNORM"},
                                             {51, "R16G16B16A16_UNORM"},
                                             {52, "R16_USCALED"},
                                             {53, "R16G16_USCALED"},
                                             {54, "R16G16B16_USCALED"},
                                             {55, "R16G16B16A16_USCALED"},
                                             {56, "R16_SNORM"},
                                             {57, "R16G16_SNORM"},
                                             {58, "R16G16B16_SNORM"},
                                             {59, "R16G16B16A16_SNORM"},
                                             {60, "R16_SSCALED"},
                                             {61, "R16G16_SSCALED"},
                                             {62, "R16G16B16_SSCALED"},
                                             {63, "R16G16B16A16_SSCALED"},
                                             {64, "R8_UNORM"},
                                             {65, "R8G8_UNORM"},
                                             {66, "R8G8B8_UNORM"},
                                             {67, "R8G8B8A8_UNORM"},
                                             {68, "X8B8G8R8_UNORM"},
                                             {69, "R8_USCALED"},
                                             {70, "R8G8_USCALED"},
                                             {71, "R8G8B8_USCALED"},
                                             {72, "R8G8B8A8_USCALED"},
                                             {74, "R8_SNORM"},
                                             {75, "R8G8_SNORM"},
                                             {76, "R8G8B8_SNORM"},
                                             {77, "R8G8B8A8_SNORM"},
                                             {82, "R8_SSCALED"},
                                             {83, "R8G8_SSCALED"},
                                             {84, "R8G8B8_SSCALED"},
                                             {85, "R8G8B8A8_SSCALED"},
                                             {87, "R32_FIXED"},
                                             {88, "R32G32_FIXED"},
                                             {89, "R32G32B32_FIXED"},
                                             {90, "R32G32B32A32_FIXED"},
                                             {91, "R16_FLOAT"},
                                             {92, "R16G16_FLOAT"},
                                             {93, "R16G16B16_FLOAT"},
                                             {94, "R16G16B16A16_FLOAT"},
                                             {95, "L8_SRGB"},
                                             {96, "L8A8_SRGB"},
                                             {97, "R8G8B8_SRGB"},
                                             {98, "A8B8G8R8_SRGB"},
                                             {99, "X8B8G8R8_SRGB"},
                                             {100, "B8G8R8A8_SRGB"},
                                             {101, "B8G8R8X8_SRGB"},
                                             {102, "A8R8G8B8_SRGB"},
                                             {103, "X8R8G8B8_SRGB"},
                                             {104, "R8G8B8A8_SRGB"},
                                             {105, "DXT1_RGB"},
                                             {106, "DXT1_RGBA"},
                                             {107, "DXT3_RGBA"},
                                             {108, "DXT5_RGBA"},
                                             {109, "DXT1_SRGB"},
                                             {110, "DXT1_SRGBA"},
                                             {111, "DXT3_SRGBA"},
                                             {112, "DXT5_SRGBA"},
                                             {113, "RGTC1_UNORM"},
                                             {114, "RGTC1_SNORM"},
                                             {115, "RGTC2_UNORM"},
                                             {116, "RGTC2_SNORM"},
                                             {117, "R8G8_B8G8_UNORM"},
                                             {118, "G8R8_G8B8_UNORM"},
                                             {119, "R8SG8SB8UX8U_NORM"},
                                             {120, "R5SG5SB6U_NORM"},
                                             {121, "A8B8G8R8_UNORM"},
                                             {122, "B5G5R5X1_UNORM"},
                                             {123, "R10G10B10A2_USCALED"},
                                             {124, "R11G11B10_FLOAT"},
                                             {125, "R9G9B9E5_FLOAT"},
                                             {126, "Z32_FLOAT_S8X24_UINT"},
                                             {127, "R1_UNORM"},
                                             {128, "R10G10B10X2_USCALED"},
                                             {129, "R10G10B10X2_SNORM"},
                                             {130, "L4A4_UNORM"},
                                             {131, "B10G10R10A2_UNORM"},
                                             {132, "R10SG10SB10SA2U_NORM"},
                                             {133, "R8G8Bx_SNORM"},
                                             {134, "R8G8B8X8_UNORM"},
                                             {135, "B4G4R4X4_UNORM"},
                                             {136, "X24S8_UINT"},
                                             {137, "S8X24_UINT"},
                                             {138, "X32_S8X24_UINT"},
                                             {139, "B2G3R3_UNORM"},
                                             {140, "L16A16_UNORM"},
                                             {141, "A16_UNORM"},
                                             {142, "I16_UNORM"},
                                             {143, "LATC1_UNORM"},
                                             {144, "LATC1_SNORM"},
                                             {145, "LATC2_UNORM"},
                                             {146, "LATC2_SNORM"},
                                             {147, "A8_SNORM"},
                                             {148, "L8_SNORM"},
                                             {149, "L8A8_SNORM"},
                                             {150, "I8_SNORM"},
                                             {151, "A16_SNORM"},
                                             {152, "L16_SNORM"},
                                             {153, "L16A16_SNORM"},
                                             {154, "I16_SNORM"},
                                             {155, "A16_FLOAT"},
                                             {156, "L16_FLOAT"},
                                             {157, "L16A16_FLOAT"},
                                             {158, "I16_FLOAT"},
                                             {159, "A32_FLOAT"},
                                             {160, "L32_FLOAT"},
                                             {161, "L32A32_FLOAT"},
                                             {162, "I32_FLOAT"},
                                             {163, "YV12"},
                                             {164, "YV16"},
                                             {165, "IYUV"},
                                             {166, "NV12"},
                                             {167, "NV21"},
                                             {168, "A4R4_UNORM"},
                                             {169, "R4A4_UNORM"},
                                             {170, "R8A8_UNORM"},
                                             {171, "A8R8_UNORM"},
                                             {172, "R10G10B10A2_SSCALED"},
                                             {173, "R10G10B10A2_SNORM"},
                                             {174, "B10G10R10A2_USCALED"},
                                             {175, "B10G10R10A2_SSCALED"},
                                             {176, "B10G10R10A2_SNORM"},
                                             {177, "R8_UINT"},
                                             {178, "R8G8_UINT"},
                                             {179, "R8G8B8_UINT"},
                                             {180, "R8G8B8A8_UINT"},
                                             {181, "R8_SINT"},
                                             {182, "R8G8_SINT"},
                                             {183, "R8G8B8_SINT"},
                                             {184, "R8G8B8A8_SINT"},
                                             {185, "R16_UINT"},
                                             {186, "R16G16_UINT"},
                                             {187, "R16G16B16_UINT"},
                                             {188, "R16G16B16A16_UINT"},
                                             {189, "R16_SINT"},
                                             {190, "R16G16_SINT"},
                                             {191, "R16G16B16_SINT"},
                                             {192, "R16G16B16A16_SINT"},
                                             {193, "R32_UINT"},
                                             {194, "R32G32_UINT"},
                                             {195, "R32G32B32_UINT"},
                                             {196, "R32G32B32A32_UINT"},
                                             {197, "R32_SINT"},
                                             {198, "R32G32_SINT"},
                                             {199, "R32G32B32_SINT"},
                                             {200, "R32G32B32A32_SINT"},
                                             {201, "A8_UINT"},
                                             {202, "I8_UINT"},
                                             {203, "L8_UINT"},
                                             {204, "L8A8_UINT"},
                                             {205, "A8_SINT"},
                                             {206, "I8_SINT"},
                                             {207, "L8_SINT"},
                                             {208, "L8A8_SINT"},
                                             {209, "A16_UINT"},
                                             {210, "I16_UINT"},
                                             {211, "L16_UINT"},
                                             {212, "L16A16_UINT"},
                                             {213, "A16_SINT"},
                                             {214, "I16_SINT"},
                                             {215, "L16_SINT"},
                                             {216, "L16A16_SINT"},
                                             {217, "A32_UINT"},
                                             {218, "I32_UINT"},
                                             {219, "L32_UINT"},
                                             {220, "L32A32_UINT"},
                                             {221, "A32_SINT"},
                                             {222, "I32_SINT"},
                                             {223, "L32_SINT"},
                                             {224, "L32A32_SINT"},
                                             {225, "B10G10R10A2_UINT"},
                                             {226, "ETC1_RGB8"},
                                             {227, "R8G8_R8B8_UNORM"},
                                             {228, "G8R8_B8R8_UNORM"},
                                             {229, "R8G8B8X8_SNORM"},
                                             {230, "R8G8B8X8_SRGB"},
                                             {231, "R8G8B8X8_UINT"},
                                             {232, "R8G8B8X8_SINT"},
                                             {233, "B10G10R10X2_UNORM"},
                                             {234, "R16G16B16X16_UNORM"},
                                             {235, "R16G16B16X16_SNORM"},
                                             {236, "R16G16B16X16_FLOAT"},
                                             {237, "R16G16B16X16_UINT"},
                                             {238, "R16G16B16X16_SINT"},
                                             {239, "R32G32B32X32_FLOAT"},
                                             {240, "R32G32B32X32_UINT"},
                                             {241, "R32G32B32X32_SINT"},
                                             {242, "R8A8_SNORM"},
                                             {243, "R16A16_UNORM"},
                                             {244, "R16A16_SNORM"},
                                             {245, "R16A16_FLOAT"},
                                             {246, "R32A32_FLOAT"},
                                             {247, "R8A8_UINT"},
                                             {248, "R8A8_SINT"},
                                             {249, "R16A16_UINT"},
                                             {250, "R16A16_SINT"},
                                             {251, "R32A32_UINT"},
                                             {252, "R32A32_SINT"},
                                             {253, "R10G10B10A2_UINT"},
                                             {254, "B5G6R5_SRGB"},
                                             {255, "BPTC_RGBA_UNORM"},
                                             {256, "BPTC_SRGBA"},
                                             {257, "BPTC_RGB_FLOAT"},
                                             {258, "BPTC_RGB_UFLOAT"},
                                             {259, "A8L8_UNORM"},
                                             {260, "A8L8_SNORM"},
                                             {261, "A8L8_SRGB"},
                                             {262, "A1B5G5R5_UNORM"},
                                             {263, "A1R5G5B5_UNORM"},
                                             {264, "A2B10G10R10_UNORM"},
                                             {265, "A2R10G10B10_UNORM"},
                                             {266, "A4R4G4B4_UNORM"},
                                             {267, "A8B8G8R8_SNORM"},
                                             {268, "X8B8G8R8_SNORM"},
                                             {269, "ETC2_RGB8"},
                                             {270, "ETC2_SRGB8"},
                                             {271, "ETC2_RGB8A1"},
                                             {272, "ETC2_SRGB8A1"},
                                             {273, "ETC2_RGBA8"},
                                             {274, "ETC2_SRGBA8"},
                                             {275, "ETC2_R11_UNORM"},
                                             {276, "ETC2_R11_SNORM"},
                                             {277, "ETC2_RG11_UNORM"},
                                             {278, "ETC2_RG11_SNORM"},
                                             {279, "ASTC_4x4"},
                                             {280, "ASTC_5x4"},
                                             {281, "ASTC_5x5"},
                                             {282, "ASTC_6x5"},
                                             {283, "ASTC_6x6"},
                                             {284, "ASTC_8x5"},
                                             {285, "ASTC_8x6"},
                                             {286, "ASTC_8x8"},
                                             {287, "ASTC_10x5"},
                                             {288, "ASTC_10x6"},
                                             {289, "ASTC_10x8"},
                                             {290, "ASTC_10x10"},
                                             {291, "ASTC_12x10"},
                                             {292, "ASTC_12x12"},
                                             {293, "ASTC_4x4_SRGB"},
                                             {294, "ASTC_5x4_SRGB"},
                                             {295, "ASTC_5x5_SRGB"},
                                             {296, "ASTC_6x5_SRGB"},
                                             {297, "ASTC_6x6_SRGB"},
                                             {298, "ASTC_8x5_SRGB"},
                                             {299, "ASTC_8x6_SRGB"},
                                             {300, "ASTC_8x8_SRGB"},
                                             {301, "ASTC_10x5_SRGB"},
                                             {302, "ASTC_10x6_SRGB"},
                                             {303, "ASTC_10x8_SRGB"},
                                             {304, "ASTC_10x10_SRGB"},
                                             {305, "ASTC_12x10_SRGB"},
                                             {306, "ASTC_12x12_SRGB"},
                                             {308, "R10G10B10X2_UNORM"},
                                             {311, "A4B4G4R4_UNORM"},
                                             {312, "R8_SRGB"},
                                             {313, "R8G8_SRGB"},
                                             {314, "P010"},
                                             {315, "P012"},
                                             {316, "P016"},
                                             {317, "B8G8R8_UNORM"},
                                             {318, "R3G3B2_UNORM"},
                                             {319, "R4G4B4A4_UNORM"},
                                             {320, "R5G5B5A1_UNORM"},
                                             {321, "R5G6B5_UNORM"}};

struct FormatMaps {
  std::array<const char*, kVirglFormatCount> names{};
  std::array<Format, kVirglFormatCount> to_clpipe{};
  std::array<uint16_t, size_t(Format::COUNT)> to_virgl{};
};

const FormatMaps& maps() {
  static const FormatMaps m = [] {
    FormatMaps r;
    r.to_clpipe.fill(Format::NONE);
    for (const auto& e : kVirglFormats) {
      r.names[e.number] = e.name;
      if (e.number == 0) continue;
      const Format f = format_from_name(e.name);
      r.to_clpipe[e.number] = f;
      // The first virgl number of a clpipe format wins (there is one per format).
      if (f != Format::NONE && r.to_virgl[size_t(f)] == 0) r.to_virgl[size_t(f)] = e.number;
    }
    return r;
  }();
  return m;
}

}  // namespace

Format format_from_virgl(uint32_t virgl_format) {
  if (virgl_format >= kVirglFormatCount) return Format::NONE;
  return maps().to_clpipe[virgl_format];
}

uint32_t format_to_virgl(Format format) {
  if (!format_is_valid(format)) return 0;
  return maps().to_virgl[size_t(format)];
}

const char* virgl_format_name(uint32_t virgl_format) {
  if (virgl_format >= kVirglFormatCount) return nullptr;
  return maps().names[virgl_format];
}

Format format_from_wire(uint32_t virgl_format, const char* what) {
  const Format f = format_from_virgl(virgl_format);
  if (f == Format::NONE) {
    const char* name = virgl_format_name(virgl_format);
    if (name && virgl_format != 0)
      protocol_error(what, " ", name, " (virgl format ", virgl_format, ") is not supported");
    protocol_error(what, ": invalid virgl format ", virgl_format);
  }
  return f;
}

ShaderType shader_type_from_wire(uint32_t virgl_stage) {
  switch (virgl_stage) {
    case VirglStage::VERTEX:
      return ShaderType::VERTEX;
    case VirglStage::FRAGMENT:
      return ShaderType::FRAGMENT;
    case VirglStage::GEOMETRY:
      return ShaderType::GEOMETRY;
    case VirglStage::TESS_CTRL:
      return ShaderType::TESS_CTRL;
    case VirglStage::TESS_EVAL:
      return ShaderType::TESS_EVAL;
    case VirglStage::COMPUTE:
      return ShaderType::COMPUTE;
  }
  protocol_error("invalid shader stage ", virgl_stage);
}

uint32_t shader_type_to_virgl(ShaderType type) {
  switch (type) {
    case ShaderType::VERTEX:
      return VirglStage::VERTEX;
    case ShaderType::FRAGMENT:
      return VirglStage::FRAGMENT;
    case ShaderType::GEOMETRY:
      return VirglStage::GEOMETRY;
    case ShaderType::TESS_CTRL:
      return VirglStage::TESS_CTRL;
    case ShaderType::TESS_EVAL:
      return VirglStage::TESS_EVAL;
    case ShaderType::COMPUTE:
      return VirglStage::COMPUTE;
  }
  return VirglStage::VERTEX;
}

const char* shader_type_name_for_errors(ShaderType type) {
  static constexpr const char* kNames[] = {"VERTEX",   "TESS_CTRL", "TESS_EVAL",
                                           "GEOMETRY", "FRAGMENT",  "COMPUTE"};
  return unsigned(type) < kShaderTypes ? kNames[unsigned(type)] : "?";
}

TextureTarget target_from_wire(uint32_t target) {
  if (target >= kTextureTargets) protocol_error("invalid texture target ", target);
  return TextureTarget(target);
}

uint32_t bind_from_virgl(uint32_t b) {
  struct Pair {
    uint32_t virgl, clpipe;
  };
  static constexpr Pair kPairs[] = {
      {VirglBind::DEPTH_STENCIL, Bind::DEPTH_STENCIL},
      {VirglBind::RENDER_TARGET, Bind::RENDER_TARGET},
      {VirglBind::SAMPLER_VIEW, Bind::SAMPLER_VIEW},
      {VirglBind::VERTEX_BUFFER, Bind::VERTEX_BUFFER},
      {VirglBind::INDEX_BUFFER, Bind::INDEX_BUFFER},
      {VirglBind::CONSTANT_BUFFER, Bind::CONSTANT_BUFFER},
      {VirglBind::DISPLAY_TARGET, Bind::DISPLAY_TARGET},
      {VirglBind::COMMAND_ARGS, Bind::COMMAND_ARGS_BUFFER},
      {VirglBind::STREAM_OUTPUT, Bind::STREAM_OUTPUT},
      {VirglBind::SHADER_BUFFER, Bind::SHADER_BUFFER},
      {VirglBind::QUERY_BUFFER, Bind::QUERY_BUFFER},
      {VirglBind::CURSOR, Bind::CURSOR},
      {VirglBind::CUSTOM, Bind::CUSTOM},
      {VirglBind::SCANOUT, Bind::SCANOUT},
      {VirglBind::SHARED, Bind::SHARED},
      {VirglBind::LINEAR, Bind::LINEAR},
  };
  uint32_t out = 0;
  for (const auto& p : kPairs)
    if (b & p.virgl) out |= p.clpipe;
  return out;
}

ResourceUsage resource_usage_from_virgl_bind(uint32_t virgl_bind) {
  return (virgl_bind & VirglBind::STAGING) ? ResourceUsage::STAGING : ResourceUsage::DEFAULT;
}

QueryType query_type_from_wire(uint32_t t) {
  switch (t) {
    case VirglQuery::OCCLUSION_COUNTER:
      return QueryType::OCCLUSION_COUNTER;
    case VirglQuery::OCCLUSION_PREDICATE:
      return QueryType::OCCLUSION_PREDICATE;
    case VirglQuery::TIMESTAMP:
      return QueryType::TIMESTAMP;
    case VirglQuery::TIMESTAMP_DISJOINT:
      return QueryType::TIMESTAMP_DISJOINT;
    case VirglQuery::TIME_ELAPSED:
      return QueryType::TIME_ELAPSED;
    case VirglQuery::PRIMITIVES_GENERATED:
      return QueryType::PRIMITIVES_GENERATED;
    case VirglQuery::PRIMITIVES_EMITTED:
      return QueryType::PRIMITIVES_EMITTED;
    case VirglQuery::SO_STATISTICS:
      return QueryType::SO_STATISTICS;
    case VirglQuery::SO_OVERFLOW_PREDICATE:
      return QueryType::SO_OVERFLOW_PREDICATE;
    case VirglQuery::GPU_FINISHED:
      return QueryType::GPU_FINISHED;
    case VirglQuery::PIPELINE_STATISTICS:
      return QueryType::PIPELINE_STATISTICS_SINGLE;
    case VirglQuery::OCCLUSION_PREDICATE_CONSERVATIVE:
      return QueryType::OCCLUSION_PREDICATE_CONSERVATIVE;
    case VirglQuery::SO_OVERFLOW_ANY_PREDICATE:
      return QueryType::SO_OVERFLOW_ANY_PREDICATE;
  }
  protocol_error("invalid query type ", t);
}

uint32_t query_result_size(uint32_t virgl_type) {
  return (virgl_type == VirglQuery::TIMESTAMP || virgl_type == VirglQuery::TIME_ELAPSED) ? 8 : 4;
}

}  // namespace clpipe::frontend::vtest
