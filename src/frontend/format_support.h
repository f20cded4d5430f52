// Which format works for which target and bind flag, and which view formats may
// reinterpret a resource's data.
//
// Consumers: Screen::is_format_supported / can_create_resource, view and surface
// creation, clpipe-info. The answer follows the format table (formats.def): every format
// the codec packs and unpacks is supported, with these exceptions:
// * vertex-only formats (USCALED, SSCALED, FIXED, 64-bit channels, blocks over 16
//   bytes) serve only as VERTEX_BUFFER formats of a BUFFER;
// * depth/stencil formats serve only as DEPTH_STENCIL and SAMPLER_VIEW of non-3D
//   textures;
// * 2, 4 and 8 samples for colour and depth/stencil targets of 2D and 2D array textures
//   (rendering, clears, copies, blits and texel fetches; no shader images);
// * colour formats are also SHADER_IMAGE formats of every target (the image codec of
//   shader_lib_image.h is the sampler's); no compute-global binds (GLOBAL,
//   COMPUTE_RESOURCE): the API has no set_global_binding.
#pragma once

#include <cstdint>

#include "clpipe/defines.h"
#include "clpipe/format.h"

namespace clpipe::frontend {

bool format_is_vertex_only(Format f);

// Every Bind::* flag that `format` supports on `target` (0 when the pair is unusable).
uint32_t supported_binds(Format format, TextureTarget target);

// 0 and 1 (single-sampled), 2, 4 and 8: the counts clpipe stores and rasterises.
bool sample_count_supported(unsigned samples);

bool format_supported(Format format, TextureTarget target, unsigned sample_count,
                      unsigned storage_sample_count, uint32_t bind);

// A view (sampler view, surface, image) of format `view` may read a resource of format
// `resource`: the same block size, and for depth/stencil formats each aspect the view
// has lies in the same bits of the resource (Z24X8_UNORM or X24S8_UINT of
// Z24_UNORM_S8_UINT). Colour and depth/stencil never alias.
bool view_format_compatible(Format resource, Format view);

// A view of target `view` may look at a resource of target `resource` (texture views).
bool view_target_compatible(TextureTarget resource, TextureTarget view);

}  // namespace clpipe::frontend
