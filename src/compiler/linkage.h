// Semantic linkage between shader stages (gallium.md §14): which output of one stage
// feeds each input of the next, matched by (semantic name, semantic index), never by
// register number.
//
// link_fs_inputs() is the plan the primitive-setup and fragment passes follow: for each
// fragment shader input register, where its value comes from (an interpolated output of
// the last vertex stage, a value the rasterizer generates, or a default constant), how it
// is interpolated, and the per-rasterizer-state choices it depends on (two-sided colour,
// flat shading of COLOR inputs, sprite coordinate replacement). It is a pure function of
// two ShaderInfos (shader_info.h) and the caps-dependent LinkOptions, so the front-end
// computes it once per (last vertex stage, FS) pair and caches it.
//
// Decisions (gallium.md §14.2 leaves unmatched inputs undefined; clpipe makes them
// deterministic):
//  * an input no output provides reads (0, 0, 0, 1) for COLOR, BCOLOR, TEXCOORD and
//    PCOORD (the GL defaults of colours and texture coordinates) and (0, 0, 0, 0) for
//    everything else (GENERIC, FOG, CLIPDIST, LAYER, VIEWPORT_INDEX, ...);
//  * channels an output does not declare (its usage mask) read the same default;
//  * GENERIC (and every other) index is matched as is: indices up to 65535 work, sparse
//    or not.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "compiler/shader_info.h"

namespace clpipe::compiler {

// Where a fragment input's value comes from.
enum class FsInputSource : uint8_t {
  kVarying,      // interpolated from OUT[output_reg] of the last vertex stage
  kDefault,      // no output provides it: default_value
  kFragCoord,    // POSITION: window x, y (FS_COORD_* properties), z, 1/w
  kFace,         // FACE: > 0 front-facing, < 0 back-facing (float input form)
  kPrimitiveId,  // PRIM_ID when the last stage is not a GS writing it: the draw's counter
  kPointCoord,   // PCOORD: point sprite coordinate (s, t, 0, 1)
};

// How the rasterizer interpolates a kVarying input.
enum class InterpKind : uint8_t {
  kFlat,         // provoking vertex
  kLinear,       // screen-space linear (noperspective)
  kPerspective,  // perspective-correct
  kColor,        // kFlat when rasterizer.flatshade is set, else kPerspective
};

struct FsInputLink {
  uint32_t fs_reg = 0;
  Semantic semantic = Semantic::GENERIC;
  uint32_t semantic_index = 0;
  FsInputSource source = FsInputSource::kDefault;
  InterpKind interp = InterpKind::kPerspective;
  InterpLoc location = InterpLoc::CENTER;
  uint8_t read_mask = 0;  // channels the FS may read (ShaderInfo)
  // kVarying: channel c comes from OUT[output_reg].c when bit c of from_output is set,
  // else from default_value[c].
  int32_t output_reg = -1;
  uint8_t from_output = 0;
  // COLOR[i] inputs: the BCOLOR[i] output used instead for back-facing primitives when
  // rasterizer.light_twoside is set (-1: none; back faces then use output_reg too).
  int32_t bcolor_reg = -1;
  uint8_t bcolor_from_output = 0;
  std::array<float, 4> default_value = {0, 0, 0, 0};
  // TEXCOORD[i] (or GENERIC[i] without the TEXCOORD cap), i < 8: replaced by the sprite
  // coordinate when drawing points with bit i of rasterizer.sprite_coord_enable; -1 if
  // the input is not replaceable.
  int32_t sprite_coord_index = -1;
};

struct LinkOptions {
  // PIPE_CAP_TGSI_TEXCOORD: sprite_coord_enable bits name TEXCOORD[i] inputs; without
  // the cap they name GENERIC[i].
  bool sprite_coord_is_texcoord = true;
};

struct FsLinkage {
  std::vector<FsInputLink> inputs;     // one per FS input register, by register
  std::vector<uint32_t> outputs_read;  // last-stage OUT registers the FS consumes, sorted
  bool uses_two_sided_color = false;   // some COLOR input has a BCOLOR source
  bool uses_face = false;              // a FACE input (or two-sided colour) needs facing
};

// `last` is the last vertex-processing stage (VERTEX, TESS_EVAL or GEOMETRY); `fs` the
// fragment shader. Throws clpipe::Error (kInvalidArgument) for other stages.
FsLinkage link_fs_inputs(const ShaderInfo& last, const ShaderInfo& fs,
                         const LinkOptions& options = {});

// Generic stage-to-stage matching (VS -> TCS/GS/TES, TCS -> TES, ...): for each input
// of `consumer` (in consumer.inputs order) the OUT register of `producer` with the same
// semantic name and index, or -1.
std::vector<int32_t> match_stage_inputs(const ShaderInfo& producer, const ShaderInfo& consumer);

}  // namespace clpipe::compiler
