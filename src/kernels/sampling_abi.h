// The contract between generated shader code and the sampling library (sampling.h), and
// the descriptors the host fills for it.
//
// Shared part (compiled as C++ and as OpenCL C; only 32-bit scalars and arrays of them,
// the host static_asserts the sizes):
//   ClpTexView       one bound sampler view or shader image: format, target, sizes, the
//                    byte layout of its mip levels and layers, level/layer range, view
//                    swizzle, buffer range. Producer: the front-end from the
//                    pipe_sampler_view / pipe_image_view and the resource layout.
//   ClpSamplerState  one bound sampler (pipe_sampler_state, normalised to words).
// Generated code receives arrays of them (kSamplerViews, kSamplers, kImageViews kernel
// parameters, indexed by unit) and one data buffer per bound view or image (kTexture,
// kImage), then calls the lane-parallel functions declared at the end with the
// coordinates already unpacked from the TGSI operand layout (tgsi.md §11.2).
//
// Texel addressing (every target): the texel (x, y, layer-or-slice) of level L (absolute
// level of the resource) is at byte
//   level_offset[L] + layer * layer_pitch[L] + y * row_pitch[L] + x * block_bytes(format)
// of the data buffer; 3D textures use the slice as the layer; cube maps and cube arrays
// store faces as layers (face = layer % 6, +X -X +Y -Y +Z -Z). Buffer views (target
// BUFFER) hold element i at buffer_offset + i * block_bytes, buffer_size bytes in all.
// Reads at or past data_size bytes return zero (robust access).
#ifndef CLPIPE_SAMPLING_ABI_H
#define CLPIPE_SAMPLING_ABI_H

#if defined(__OPENCL_C_VERSION__) || defined(__OPENCL_VERSION__)
#define CLP_SA_U32 uint
#define CLP_SA_F32 float
#else
#include <cstdint>
#define CLP_SA_U32 uint32_t
#define CLP_SA_F32 float
#endif

// Levels per view: kMaxTextureLevels of include/clpipe/defines.h.
#define CLP_TEX_MAX_LEVELS 16

// ClpTexView.target: pipe_texture_target values (clpipe::TextureTarget).
#define CLP_TEXTARGET_BUFFER 0u
#define CLP_TEXTARGET_1D 1u
#define CLP_TEXTARGET_2D 2u
#define CLP_TEXTARGET_3D 3u
#define CLP_TEXTARGET_CUBE 4u
#define CLP_TEXTARGET_RECT 5u
#define CLP_TEXTARGET_1D_ARRAY 6u
#define CLP_TEXTARGET_2D_ARRAY 7u
#define CLP_TEXTARGET_CUBE_ARRAY 8u

typedef struct {
  CLP_SA_U32 format;  // clpipe::Format of the view (may differ from the resource's)
  CLP_SA_U32 target;  // CLP_TEXTARGET_*
  // Size of level 0 of the resource in texels (width, height, depth; depth = slices of
  // 3D, else 1) and its layer count (array_size; cube maps 6, cube arrays 6 * cubes).
  CLP_SA_U32 width, height, depth, layers;
  // Level and layer range of the view (absolute). Images: first_level == last_level.
  CLP_SA_U32 first_level, last_level;
  CLP_SA_U32 first_layer, last_layer;
  CLP_SA_U32 swizzle[4];  // pipe_swizzle per result channel: X Y Z W 0 1 (NONE reads 0)
  // 0 or 1: single-sampled; else each layer holds `samples` planes of layer_pitch /
  // samples bytes, sample s of a texel s planes after sample 0 (frontend/layout.h).
  CLP_SA_U32 samples;
  CLP_SA_U32 data_size;                   // bytes of the bound data buffer
  CLP_SA_U32 buffer_offset, buffer_size;  // BUFFER views: byte range of the elements
  // Byte layout per absolute level (entries past the resource's last level are unused).
  CLP_SA_U32 level_offset[CLP_TEX_MAX_LEVELS];
  CLP_SA_U32 row_pitch[CLP_TEX_MAX_LEVELS];    // bytes per row of blocks
  CLP_SA_U32 layer_pitch[CLP_TEX_MAX_LEVELS];  // bytes per layer (or 3D slice)
} ClpTexView;

// ClpSamplerState fields: pipe_tex_wrap, pipe_tex_filter, pipe_tex_mipfilter,
// pipe_compare_func values (include/clpipe/defines.h).
#define CLP_WRAP_REPEAT 0u
#define CLP_WRAP_CLAMP 1u
#define CLP_WRAP_CLAMP_TO_EDGE 2u
#define CLP_WRAP_CLAMP_TO_BORDER 3u
#define CLP_WRAP_MIRROR_REPEAT 4u
#define CLP_WRAP_MIRROR_CLAMP 5u
#define CLP_WRAP_MIRROR_CLAMP_TO_EDGE 6u
#define CLP_WRAP_MIRROR_CLAMP_TO_BORDER 7u
#define CLP_FILTER_NEAREST 0u
#define CLP_FILTER_LINEAR 1u
#define CLP_MIP_NEAREST 0u
#define CLP_MIP_LINEAR 1u
#define CLP_MIP_NONE 2u
// Border colour kinds: floats; integers; or by the view's format (integers for pure
// integer views, floats otherwise), for senders that do not know the sampler's views.
#define CLP_BORDER_FLOAT 0u
#define CLP_BORDER_INTEGER 1u
#define CLP_BORDER_VIEW_FORMAT 2u

typedef struct {
  CLP_SA_U32 wrap[3];  // s, t, r
  CLP_SA_U32 min_img_filter, mag_img_filter, min_mip_filter;
  CLP_SA_U32 compare_mode;  // 0 none, 1 compare the reference with the texel's R
  CLP_SA_U32 compare_func;  // pipe_compare_func (NEVER 0 .. ALWAYS 7)
  CLP_SA_U32 unnormalized_coords;
  CLP_SA_U32 max_anisotropy;  // 0/1 off (anisotropic filtering: issue 5)
  CLP_SA_U32 seamless_cube_map;
  CLP_SA_U32 border_color_kind;  // CLP_BORDER_*: how border_color's bits are read
  CLP_SA_U32 reduction_mode;     // 0 weighted average, 1 min, 2 max
  CLP_SA_F32 lod_bias, min_lod, max_lod;
  // Border colour bits: floats or integers, as border_color_kind says.
  CLP_SA_U32 border_color[4];
} ClpSamplerState;

#undef CLP_SA_U32
#undef CLP_SA_F32

// The state of one sampling unit (a view and a sampler) that decides how sampling runs,
// in two words: what a specialised tile program compiles in (tile_variant.cpp packs
// them, clp_tex_key_words in sampling.h unpacks them). Everything else (sizes, levels,
// level of detail bias and clamps, border colour) stays in the descriptors.
//   view word:    format (bits 0..15), swizzle r, g, b, a (3 bits each from bit 16)
//   sampler word: wrap s, t, r (3 bits each from bit 0), min_img_filter (bit 9),
//                 mag_img_filter (10), min_mip_filter (11..12), compare_mode (13),
//                 compare_func (14..16), unnormalized_coords (17), seamless_cube_map (18)
// Neither word can be CLP_TEX_UNKEYED, which stands for a unit read from its descriptors.
#define CLP_TEXKEY_SWIZZLE_SHIFT 16
#define CLP_TEXKEY_MIN_IMG_SHIFT 9
#define CLP_TEXKEY_MAG_IMG_SHIFT 10
#define CLP_TEXKEY_MIN_MIP_SHIFT 11
#define CLP_TEXKEY_COMPARE_MODE_SHIFT 13
#define CLP_TEXKEY_COMPARE_FUNC_SHIFT 14
#define CLP_TEXKEY_UNNORMALIZED_SHIFT 17
#define CLP_TEXKEY_SEAMLESS_SHIFT 18
#define CLP_TEX_UNKEYED 0xffffffffu

// TGSI texture targets (tgsi.md §6.2 numbering) of the device functions below, also used
// by host code that models them (the reference sampler of the tests).
#define CLP_TGSI_TEX_BUFFER 0
#define CLP_TGSI_TEX_1D 1
#define CLP_TGSI_TEX_2D 2
#define CLP_TGSI_TEX_3D 3
#define CLP_TGSI_TEX_CUBE 4
#define CLP_TGSI_TEX_RECT 5
#define CLP_TGSI_TEX_SHADOW1D 6
#define CLP_TGSI_TEX_SHADOW2D 7
#define CLP_TGSI_TEX_SHADOWRECT 8
#define CLP_TGSI_TEX_1D_ARRAY 9
#define CLP_TGSI_TEX_2D_ARRAY 10
#define CLP_TGSI_TEX_SHADOW1D_ARRAY 11
#define CLP_TGSI_TEX_SHADOW2D_ARRAY 12
#define CLP_TGSI_TEX_SHADOWCUBE 13
#define CLP_TGSI_TEX_2D_MSAA 14
#define CLP_TGSI_TEX_2D_ARRAY_MSAA 15
#define CLP_TGSI_TEX_CUBE_ARRAY 16
#define CLP_TGSI_TEX_SHADOWCUBE_ARRAY 17

#if defined(__OPENCL_C_VERSION__) || defined(__OPENCL_VERSION__)
// ---------------------------------------------------------------------------------
// Device functions (sampling.h). `target` is the TGSI texture target of the instruction
// (tgsi.md §6.2 numbering, CLP_TGSI_TEX_*), which fixes how coordinates are read; the view
// descriptor gives the real sizes. Results are four lane vectors: floats for float, unorm
// and snorm formats, raw integer bits for pure-integer formats; after the view swizzle.
// Lanes outside `mask` return zero and read nothing.

// How the level of detail is chosen.
#define CLP_LOD_GRADIENTS 0  // from ddx/ddy (implicit in the fragment stage, or TXD)
#define CLP_LOD_BIAS 1       // from ddx/ddy, plus `lod` (TXB)
#define CLP_LOD_EXPLICIT 2   // `lod` is the level of detail (TXL, TEX outside the FS)

// Coordinates of one texture instruction, per lane. Unused members must be zero.
typedef struct {
  vf s, t, r;         // normalized (or texel, for RECT / unnormalized) coordinates;
                      // cube targets: the direction x, y, z
  vf layer;           // array layer (rounded to nearest, clamped to the view's layers)
  vf ref;             // shadow reference
  vf lod;             // explicit LOD or bias, per lod mode
  vf ddx[3], ddy[3];  // gradients of s, t, r (CLP_LOD_GRADIENTS / CLP_LOD_BIAS)
  vi offset[3];       // integer texel offsets (TGSI texture offsets)
  vi mask;            // lanes to compute
} ClpTexCoords;

// TEX, TXB, TXL, TXD, TXP (after the divide), TEX2, TXB2, TXL2, TEX_LZ, SAMPLE_*.
static void clp_tex_sample(global const ClpTexView* view, global const uchar* data,
                           global const ClpSamplerState* smp, int target, int lod_mode,
                           const ClpTexCoords* c, vf* out);
// TXF, TXF_LZ, SAMPLE_I, SAMPLE_I_MS: integer texel coordinates x, y, z (or layer),
// `level` relative to the view's first level (sample index for MSAA targets), offsets
// added. Out of range (coordinates, layer, level, sample): all four results 0.
static void clp_tex_fetch(global const ClpTexView* view, global const uchar* data, int target, vi x,
                          vi y, vi z, vi level, const vi* offset, vi mask, vf* out);
// TXQ, SVIEWINFO: integer (width, height or layers, depth or layers, levels) of the view
// at `level` relative to its first level (tgsi.md §11.3); zero for a level out of range.
static void clp_tex_size(global const ClpTexView* view, int target, vi level, vf* out);
// TXQS, SAMPLE_INFO: the sample count (1 for single-sampled views), an integer.
static vf clp_tex_samples(global const ClpTexView* view);
// TG4, GATHER4: component `comp` (0..3, after the view swizzle) of the 2x2 footprint at
// the base level, in the order (i0,j1) (i1,j1) (i1,j0) (i0,j0). With `offsets4`
// (textureGatherOffsets) texel k uses offsets4[2k], offsets4[2k+1] instead of c->offset.
// Shadow targets compare each texel with c->ref.
static void clp_tex_gather(global const ClpTexView* view, global const uchar* data,
                           global const ClpSamplerState* smp, int target, const ClpTexCoords* c,
                           vi comp, const vi* offsets4, vf* out);
// LODQ, LOD: x = the level of detail sampling would use (after bias and clamps,
// relative to the first level), y = the computed lambda (log2 of the scale factor, plus
// the sampler bias), z = w = 0.
static void clp_tex_query_lod(global const ClpTexView* view, global const ClpSamplerState* smp,
                              int target, const ClpTexCoords* c, vf* out);
#endif

#endif  // CLPIPE_SAMPLING_ABI_H
