// Host reference sampler: the oracle of the sampling tests. Plain C++ written from the GL
// 4.6 specification (8.13 cube map selection, 8.14 LOD and wrap rules, 8.14.2 border
// texels, 8.20 shadow compare, 11.1.3.5 texel fetch, textureGather), reading the same
// descriptors and bytes the device library reads (ClpTexView, ClpSamplerState of
// sampling_abi.h) and decoding texels with the host codec (frontend/format_codec.h).
//
// Where the device library defines behaviour GL leaves open, the reference follows the
// library's documented rule: integer textures are never filtered, cube gradients are the
// face-coordinate differences of (direction) and (direction + gradient), a texel offset
// moves the target's spatial axes only, seamless corners average three texels.
//
// Every decision that is discontinuous in the inputs (the nearest texel, the mip level of
// NEAREST mip filtering, magnification vs minification, the cube face, a shadow compare)
// is checked for being within a small epsilon of its boundary; such a result is marked
// `ambiguous` and tests skip it (float rounding may legitimately go either way).
// Producer: tests; consumers: tests/compiler/emit/sampling_*_test.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "kernels/sampling_abi.h"

namespace clpipe::test::ref {

// CLP_LOD_* of sampling_abi.h.
enum class LodMode { kGradients = 0, kBias = 1, kExplicit = 2 };

// One lane's operands, as the generated code unpacks them (ClpTexCoords, one lane).
struct Coords {
  float s = 0, t = 0, r = 0, layer = 0, ref = 0, lod = 0;
  float ddx[3] = {0, 0, 0}, ddy[3] = {0, 0, 0};
  int offset[3] = {0, 0, 0};
};

// A result: four floats, or four integer bit patterns for pure-integer formats.
struct Result {
  std::array<uint32_t, 4> bits{};
  bool integer = false;
  bool ambiguous = false;
  float f(int c) const;
};

// A texture as the device sees it: descriptor, sampler and the bytes of its data buffer.
struct Texture {
  ClpTexView view{};
  ClpSamplerState sampler{};
  const std::vector<uint8_t>* data = nullptr;
};

// TEX / TXB / TXL / TXD (clp_tex_sample); `target` is CLP_TGSI_TEX_*.
Result sample(const Texture& tex, int target, LodMode mode, const Coords& c);
// TXF (clp_tex_fetch): integer coordinates, level relative to first_level.
Result fetch(const Texture& tex, int target, int x, int y, int z, int level, const int off[3]);
// TG4 (clp_tex_gather): component `comp`; `offsets4` (8 ints) or null.
Result gather(const Texture& tex, int target, const Coords& c, int comp, const int* offsets4);

// Device tolerance for comparing a float result with the reference: absolute plus relative.
bool close(float got, float want, float abs_tol = 1e-4f, float rel_tol = 1e-4f);

}  // namespace clpipe::test::ref
