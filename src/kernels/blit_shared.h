// ClpBlitParams: the one argument block of a blit launch, shared by the host and the
// device (compiled both as C++ and as OpenCL C).
//
// Producer: src/frontend/blit.cpp (Context::blit and, through it, generate_mipmap)
// fills one per launch after validating the request. Consumer: src/kernels/blit.cl,
// where every work-item writes one destination texel. Only 32/64-bit scalars and arrays
// of them, 64-bit fields first, so host and device agree on the layout (the host
// static_asserts the size and key offsets).
#ifndef CLPIPE_BLIT_SHARED_H
#define CLPIPE_BLIT_SHARED_H

#if defined(__OPENCL_C_VERSION__) || defined(__OPENCL_VERSION__)
#define CLP_BLIT_U64 ulong
#define CLP_BLIT_U32 uint
#define CLP_BLIT_I32 int
#else
#include <cstdint>
#define CLP_BLIT_U64 uint64_t
#define CLP_BLIT_U32 uint32_t
#define CLP_BLIT_I32 int32_t
#endif

// ClpBlitParams.mode: how a texel is converted (one per kind of format pair).
#define CLP_BLIT_MODE_FLOAT 0u  // decode_float -> (filter) -> encode_float
#define CLP_BLIT_MODE_UINT 1u   // decode_uint -> encode_uint (clamps), nearest only
#define CLP_BLIT_MODE_SINT 2u   // decode_sint -> encode_sint (clamps), nearest only
#define CLP_BLIT_MODE_ZS 3u     // depth (nearest or linear) and/or stencil (nearest)

// ClpBlitParams.flags
#define CLP_BLIT_LINEAR_XY 0x01u    // bilinear in x and y, else nearest
#define CLP_BLIT_LINEAR_Z 0x02u     // linear between 3D slices too (3D sources only)
#define CLP_BLIT_MASKED 0x04u       // read-modify-write through `write_mask`, else plain store
#define CLP_BLIT_ALPHA_BLEND 0x08u  // dst = src * src.a + dst * (1 - src.a) (float mode)
#define CLP_BLIT_DEPTH 0x10u        // ZS mode: write depth
#define CLP_BLIT_STENCIL 0x20u      // ZS mode: write stencil

typedef struct {
  // Bytes: where the source level (or its staging copy) and the destination level start
  // in their buffers, and the distance between two layers / 3D slices of each.
  CLP_BLIT_U64 src_base;
  CLP_BLIT_U64 src_layer_pitch;
  CLP_BLIT_U64 dst_base;
  CLP_BLIT_U64 dst_layer_pitch;
  // Bytes from one sample plane to the next (layout.h; any value for 1 sample).
  CLP_BLIT_U64 src_sample_pitch;
  CLP_BLIT_U64 dst_sample_pitch;
  CLP_BLIT_U32 src_row_pitch;  // bytes
  CLP_BLIT_U32 dst_row_pitch;  // bytes
  CLP_BLIT_U32 src_format;     // clpipe::Format of the blit's source side
  CLP_BLIT_U32 dst_format;     // clpipe::Format of the blit's destination side
  // Texels of the source level: width, height, layers (3D slices or array layers), 0.
  // Source coordinates are clamped to [0, size - 1] (clamp to edge).
  CLP_BLIT_I32 src_size[4];
  // The destination box origin (x, y, z) as given by the caller, 0; with `scale` it maps
  // a destination texel d to the source coordinate
  //   src_origin + ((float)(d - dst_origin) + 0.5f) * scale      (per axis)
  // which mirrors by itself when a width / height / depth is negative.
  CLP_BLIT_I32 dst_origin[4];
  // First destination texel of the launch (x, y, z) and the launched extent in texels:
  // the destination box, normalised to positive sizes and cut by the scissor.
  CLP_BLIT_I32 launch_origin[4];
  CLP_BLIT_U32 launch_size[4];
  float src_origin[4];      // source box origin x, y, z (texels), 0
  float scale[4];           // source extent / destination extent per axis (signed), 0
  CLP_BLIT_U32 mode;        // CLP_BLIT_MODE_*
  CLP_BLIT_U32 flags;       // CLP_BLIT_* flags
  CLP_BLIT_U32 write_mask;  // RGBA component mask (CLP_MASK_*) of a masked colour write
  // Samples of each side (1: single-sampled). Equal counts copy sample to sample; a
  // multisampled source of a single-sampled destination is resolved: the average of
  // its samples in FLOAT mode, sample 0 for integer and depth/stencil formats (GL); a
  // single-sampled source writes every sample of the destination.
  CLP_BLIT_U32 src_samples;
  CLP_BLIT_U32 dst_samples;
  CLP_BLIT_U32 pad;  // 0
} ClpBlitParams;

#undef CLP_BLIT_U64
#undef CLP_BLIT_U32
#undef CLP_BLIT_I32

#endif  // CLPIPE_BLIT_SHARED_H
