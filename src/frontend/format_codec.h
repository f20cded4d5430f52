// Host pack/unpack of one texel (block) of any format in formats.def.
//
// The device implementation is src/kernels/format.h; both follow the same rules so that
// tests can use this one as the oracle, and the frontend uses it for CPU-side values
// (clear colours, border colours, clear_texture data):
// * UNORM n bits: float = v / (2^n - 1); float -> v = round_half_up(clamp(x, 0, 1) * max),
//   both computed in double (so 32-bit channels round twice; the device reproduces it).
// * SNORM n bits: float = max(v / (2^(n-1) - 1), -1); float -> round-half-away(clamp(x,-1,1)*max).
// * UINT/SINT: integers; packing clamps to the channel's range. USCALED/SSCALED: the
//   integer converted to float (vertex fetch); packing from float rounds and clamps.
// * FLOAT 16/32/64 bits: IEEE; 11/10-bit (R11G11B10) and R9G9B9E5 per their specs.
//   Float -> half rounds to nearest even; NaN stays NaN, overflow goes to Inf.
// * FIXED: 16.16 signed fixed point.
// * sRGB: R, G, B decoded to linear on unpack and encoded on pack; alpha is linear.
// * VOID channels read as nothing and are written as zero bits.
// * unpack_* return RGBA after the format's swizzle (missing channels 0, alpha 1).
#pragma once

#include <cstdint>

#include "clpipe/format.h"

namespace clpipe::frontend {

// Float view: normalized, scaled, float and fixed channels; integer channels converted
// to float as is.
void unpack_rgba_float(Format f, const void* src, float out[4]);
// Integer views of integer formats (values of non-integer channels are unspecified).
void unpack_rgba_uint(Format f, const void* src, uint32_t out[4]);
void unpack_rgba_sint(Format f, const void* src, int32_t out[4]);

// Writes one whole block (block_bytes) from an RGBA value; channels of the format that
// are VOID get zero bits.
void pack_rgba_float(Format f, const float in[4], void* dst);
void pack_rgba_uint(Format f, const uint32_t in[4], void* dst);
void pack_rgba_sint(Format f, const int32_t in[4], void* dst);

// Depth/stencil formats. pack_* changes only the bits of that aspect.
float unpack_depth(Format f, const void* src);
uint32_t unpack_stencil(Format f, const void* src);
void pack_depth(Format f, double depth, void* dst);
void pack_stencil(Format f, uint32_t stencil, void* dst);

// Scalar conversions shared with the tests of the device codec.
uint16_t float_to_half(float f);
float half_to_float(uint16_t h);
float srgb_to_linear(float c);
float linear_to_srgb(float c);

}  // namespace clpipe::frontend
