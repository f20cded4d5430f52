// Names of the API's enums (clpipe/defines.h) for tools and messages, from the same
// X-macro lists that define the enums, so a new enumerator always has its name.
#include <cstddef>

#include "clpipe/defines.h"

namespace clpipe {

namespace {

constexpr const char* kCapNames[] = {
#define CLPIPE_CAP(name) #name,
#include "clpipe/caps.def"
#undef CLPIPE_CAP
};
constexpr const char* kCapFNames[] = {
#define CLPIPE_CAPF(name) #name,
#include "clpipe/capsf.def"
#undef CLPIPE_CAPF
};
constexpr const char* kShaderCapNames[] = {
#define CLPIPE_SHADER_CAP(name) #name,
#include "clpipe/shader_caps.def"
#undef CLPIPE_SHADER_CAP
};
constexpr const char* kComputeCapNames[] = {
#define CLPIPE_COMPUTE_CAP(name) #name,
#include "clpipe/compute_caps.def"
#undef CLPIPE_COMPUTE_CAP
};
static_assert(sizeof(kCapNames) / sizeof(kCapNames[0]) == size_t(Cap::LAST));
static_assert(sizeof(kCapFNames) / sizeof(kCapFNames[0]) == size_t(CapF::LAST));
static_assert(sizeof(kShaderCapNames) / sizeof(kShaderCapNames[0]) == size_t(ShaderCap::LAST));
static_assert(sizeof(kComputeCapNames) / sizeof(kComputeCapNames[0]) == size_t(ComputeCap::LAST));

constexpr const char* kShaderTypeNames[] = {"VERTEX",   "TESS_CTRL", "TESS_EVAL",
                                            "GEOMETRY", "FRAGMENT",  "COMPUTE"};
constexpr const char* kTargetNames[] = {
    "BUFFER",       "TEXTURE_1D",       "TEXTURE_2D",       "TEXTURE_3D",        "TEXTURE_CUBE",
    "TEXTURE_RECT", "TEXTURE_1D_ARRAY", "TEXTURE_2D_ARRAY", "TEXTURE_CUBE_ARRAY"};
constexpr const char* kPrimNames[] = {"POINTS",
                                      "LINES",
                                      "LINE_LOOP",
                                      "LINE_STRIP",
                                      "TRIANGLES",
                                      "TRIANGLE_STRIP",
                                      "TRIANGLE_FAN",
                                      "QUADS",
                                      "QUAD_STRIP",
                                      "POLYGON",
                                      "LINES_ADJACENCY",
                                      "LINE_STRIP_ADJACENCY",
                                      "TRIANGLES_ADJACENCY",
                                      "TRIANGLE_STRIP_ADJACENCY",
                                      "PATCHES"};
static_assert(sizeof(kShaderTypeNames) / sizeof(kShaderTypeNames[0]) == kShaderTypes);
static_assert(sizeof(kTargetNames) / sizeof(kTargetNames[0]) == kTextureTargets);
static_assert(sizeof(kPrimNames) / sizeof(kPrimNames[0]) == kPrimTypes);

template <size_t N>
const char* lookup(const char* const (&names)[N], size_t i) {
  return i < N ? names[i] : "INVALID";
}

}  // namespace

const char* cap_name(Cap cap) {
  return lookup(kCapNames, size_t(cap));
}
const char* cap_name(CapF cap) {
  return lookup(kCapFNames, size_t(cap));
}
const char* cap_name(ShaderCap cap) {
  return lookup(kShaderCapNames, size_t(cap));
}
const char* cap_name(ComputeCap cap) {
  return lookup(kComputeCapNames, size_t(cap));
}
const char* shader_type_name(ShaderType type) {
  return lookup(kShaderTypeNames, size_t(type));
}
const char* target_name(TextureTarget target) {
  return lookup(kTargetNames, size_t(target));
}
const char* prim_name(PrimType prim) {
  return lookup(kPrimNames, size_t(prim));
}

bool is_valid(BlendFactor f) {
  const unsigned v = unsigned(f);
  return (v >= 0x01 && v <= 0x0A) || (v >= 0x11 && v <= 0x1A && v != 0x16);
}

}  // namespace clpipe
