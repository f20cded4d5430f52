// Semantic linkage (linkage.h).
#include "compiler/linkage.h"

#include <algorithm>

#include "base/error.h"

namespace clpipe::compiler {

namespace {

bool defaults_to_one_w(Semantic s) {
  return s == Semantic::COLOR || s == Semantic::BCOLOR || s == Semantic::TEXCOORD ||
         s == Semantic::PCOORD;
}

// Integer-valued varyings are never interpolated.
bool always_flat(Semantic s) {
  return s == Semantic::PRIMID || s == Semantic::LAYER || s == Semantic::VIEWPORT_INDEX ||
         s == Semantic::SAMPLEMASK;
}

InterpKind interp_kind(const IoInfo& in) {
  if (in.has_semantic && always_flat(in.semantic)) return InterpKind::kFlat;
  if (!in.has_interp) {
    // No qualifier: colours follow the flat-shading state, the rest is smooth.
    return in.has_semantic && (in.semantic == Semantic::COLOR || in.semantic == Semantic::BCOLOR)
               ? InterpKind::kColor
               : InterpKind::kPerspective;
  }
  switch (in.interp) {
    case InterpMode::CONSTANT:
      return InterpKind::kFlat;
    case InterpMode::LINEAR:
      return InterpKind::kLinear;
    case InterpMode::COLOR:
      return InterpKind::kColor;
    case InterpMode::PERSPECTIVE:
    default:
      return InterpKind::kPerspective;
  }
}

}  // namespace

FsLinkage link_fs_inputs(const ShaderInfo& last, const ShaderInfo& fs, const LinkOptions& options) {
  if (last.stage != ShaderType::VERTEX && last.stage != ShaderType::TESS_EVAL &&
      last.stage != ShaderType::GEOMETRY) {
    invalid(
        "link_fs_inputs: the last vertex stage must be VERT, TESS_EVAL or GEOM, "
        "not ",
        stage_name(last.stage));
  }
  if (fs.stage != ShaderType::FRAGMENT) {
    invalid("link_fs_inputs: the consumer must be a FRAG shader, not ", stage_name(fs.stage));
  }
  FsLinkage link;
  for (const IoInfo& in : fs.inputs) {
    FsInputLink l;
    l.fs_reg = in.reg;
    l.semantic = in.semantic;
    l.semantic_index = in.semantic_index;
    l.location = in.location;
    l.read_mask = in.read_mask;
    l.interp = interp_kind(in);
    if (!in.has_semantic) {
      // Validation requires semantics on FS inputs; without one nothing can match.
      l.source = FsInputSource::kDefault;
      link.inputs.push_back(l);
      continue;
    }
    if (defaults_to_one_w(in.semantic)) l.default_value = {0, 0, 0, 1};
    auto take_output = [&](const IoInfo* out) {
      if (!out) return;
      l.source = FsInputSource::kVarying;
      l.output_reg = int32_t(out->reg);
      l.from_output = out->usage_mask;
    };
    switch (in.semantic) {
      case Semantic::POSITION:
        l.source = FsInputSource::kFragCoord;
        break;
      case Semantic::FACE:
        l.source = FsInputSource::kFace;
        link.uses_face = true;
        break;
      case Semantic::PCOORD:
        l.source = FsInputSource::kPointCoord;
        break;
      case Semantic::PRIMID:
        // Only a geometry shader can write gl_PrimitiveID for the FS.
        l.source = FsInputSource::kPrimitiveId;
        if (last.stage == ShaderType::GEOMETRY) {
          take_output(last.find_output(Semantic::PRIMID, in.semantic_index));
        }
        break;
      case Semantic::COLOR: {
        take_output(last.find_output(Semantic::COLOR, in.semantic_index));
        if (const IoInfo* back = last.find_output(Semantic::BCOLOR, in.semantic_index)) {
          l.bcolor_reg = int32_t(back->reg);
          l.bcolor_from_output = back->usage_mask;
          link.uses_two_sided_color = true;
          link.uses_face = true;
        }
        break;
      }
      default:
        take_output(last.find_output(in.semantic, in.semantic_index));
        break;
    }
    const bool sprite_semantic = options.sprite_coord_is_texcoord
                                     ? in.semantic == Semantic::TEXCOORD
                                     : in.semantic == Semantic::GENERIC;
    if (sprite_semantic && in.semantic_index < 8) {
      l.sprite_coord_index = int32_t(in.semantic_index);
    }
    if (l.output_reg >= 0) link.outputs_read.push_back(uint32_t(l.output_reg));
    if (l.bcolor_reg >= 0) link.outputs_read.push_back(uint32_t(l.bcolor_reg));
    link.inputs.push_back(l);
  }
  std::sort(link.outputs_read.begin(), link.outputs_read.end());
  link.outputs_read.erase(std::unique(link.outputs_read.begin(), link.outputs_read.end()),
                          link.outputs_read.end());
  return link;
}

std::vector<int32_t> match_stage_inputs(const ShaderInfo& producer, const ShaderInfo& consumer) {
  std::vector<int32_t> match;
  match.reserve(consumer.inputs.size());
  for (const IoInfo& in : consumer.inputs) {
    const IoInfo* out =
        in.has_semantic ? producer.find_output(in.semantic, in.semantic_index) : nullptr;
    match.push_back(out ? int32_t(out->reg) : -1);
  }
  return match;
}

}  // namespace clpipe::compiler
