// IR equality and property lookup (ir.h). Equality ignores source positions.
#include "compiler/ir.h"

namespace clpipe::compiler {

bool Declaration::operator==(const Declaration& o) const {
  return file == o.file && first == o.first && last == o.last && has_dimension == o.has_dimension &&
         dimension == o.dimension && usage_mask == o.usage_mask && array_id == o.array_id &&
         local == o.local && has_semantic == o.has_semantic && semantic == o.semantic &&
         semantic_index == o.semantic_index && stream == o.stream && has_interp == o.has_interp &&
         interp == o.interp && location == o.location && invariant == o.invariant &&
         target == o.target && return_type == o.return_type && format == o.format &&
         writable == o.writable && raw == o.raw && atomic == o.atomic &&
         memory_type == o.memory_type;
}

bool RegisterRef::operator==(const RegisterRef& o) const {
  return file == o.file && index == o.index && indirect == o.indirect &&
         has_dimension == o.has_dimension && dimension == o.dimension &&
         dim_indirect == o.dim_indirect;
}

bool Instruction::operator==(const Instruction& o) const {
  if (opcode != o.opcode || saturate != o.saturate || precise != o.precise ||
      num_dst != o.num_dst || num_src != o.num_src || texture != o.texture ||
      num_tex_offsets != o.num_tex_offsets || mem_qualifiers != o.mem_qualifiers ||
      mem_target != o.mem_target || mem_format != o.mem_format || has_label != o.has_label ||
      label != o.label) {
    return false;
  }
  return dst == o.dst && src == o.src && tex_offsets == o.tex_offsets;
}

bool Shader::operator==(const Shader& o) const {
  return stage == o.stage && properties == o.properties && declarations == o.declarations &&
         immediates == o.immediates && instructions == o.instructions;
}

uint32_t Shader::property(Property p) const {
  for (auto it = properties.rbegin(); it != properties.rend(); ++it) {
    if (it->name == p) return it->value;
  }
  return property_default(p);
}

bool Shader::has_property(Property p) const {
  for (const PropertyDecl& d : properties) {
    if (d.name == p) return true;
  }
  return false;
}

bool is_per_vertex(ShaderType stage, const Declaration& decl) {
  bool patch = decl.has_semantic &&
               (decl.semantic == Semantic::PATCH || decl.semantic == Semantic::TESSINNER ||
                decl.semantic == Semantic::TESSOUTER || decl.semantic == Semantic::PRIMID);
  switch (stage) {
    case ShaderType::GEOMETRY:
      return decl.file == RegFile::IN && !(decl.has_semantic && decl.semantic == Semantic::PRIMID);
    case ShaderType::TESS_EVAL:
      return decl.file == RegFile::IN && !patch;
    case ShaderType::TESS_CTRL:
      return (decl.file == RegFile::IN || decl.file == RegFile::OUT) && !patch;
    default:
      return false;
  }
}

}  // namespace clpipe::compiler
