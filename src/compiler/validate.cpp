// validate() (validate.h): the driver, property checks and declaration checks.
// Instruction and operand checks are in validate_instructions.cpp.
#include "compiler/validate.h"

#include <map>

#include "compiler/control_flow.h"
#include "compiler/validate_impl.h"

namespace clpipe::compiler {

namespace detail {

namespace {

bool property_allowed(Property p, ShaderType stage) {
  switch (p) {
    case Property::GS_INPUT_PRIM:
    case Property::GS_OUTPUT_PRIM:
    case Property::GS_MAX_OUTPUT_VERTICES:
    case Property::GS_INVOCATIONS:
      return stage == ShaderType::GEOMETRY;
    case Property::FS_COORD_ORIGIN:
    case Property::FS_COORD_PIXEL_CENTER:
    case Property::FS_COLOR0_WRITES_ALL_CBUFS:
    case Property::FS_DEPTH_LAYOUT:
    case Property::FS_EARLY_DEPTH_STENCIL:
    case Property::FS_POST_DEPTH_COVERAGE:
    case Property::FS_BLEND_EQUATION_ADVANCED:
      return stage == ShaderType::FRAGMENT;
    case Property::VS_PROHIBIT_UCPS:
    case Property::VS_WINDOW_SPACE_POSITION:
    case Property::VS_BLIT_SGPRS_AMD:
      return stage == ShaderType::VERTEX;
    case Property::TCS_VERTICES_OUT:
      return stage == ShaderType::TESS_CTRL;
    case Property::TES_PRIM_MODE:
    case Property::TES_SPACING:
    case Property::TES_VERTEX_ORDER_CW:
    case Property::TES_POINT_MODE:
      return stage == ShaderType::TESS_EVAL;
    case Property::CS_FIXED_BLOCK_WIDTH:
    case Property::CS_FIXED_BLOCK_HEIGHT:
    case Property::CS_FIXED_BLOCK_DEPTH:
    case Property::CS_USER_DATA_COMPONENTS_AMD:
      return stage == ShaderType::COMPUTE;
    case Property::NUM_CLIPDIST_ENABLED:
    case Property::NUM_CULLDIST_ENABLED:
      return stage != ShaderType::FRAGMENT && stage != ShaderType::COMPUTE;
    default:
      return true;
  }
}

// Largest legal value of a property; UINT32_MAX when any value goes.
uint32_t property_max(Property p) {
  switch (p) {
    case Property::FS_COORD_ORIGIN:
    case Property::FS_COORD_PIXEL_CENTER:
    case Property::FS_COLOR0_WRITES_ALL_CBUFS:
    case Property::VS_PROHIBIT_UCPS:
    case Property::VS_WINDOW_SPACE_POSITION:
    case Property::TES_VERTEX_ORDER_CW:
    case Property::TES_POINT_MODE:
    case Property::FS_EARLY_DEPTH_STENCIL:
    case Property::FS_POST_DEPTH_COVERAGE:
    case Property::LEGACY_MATH_RULES:
    case Property::LAYER_VIEWPORT_RELATIVE:
    case Property::SEPARABLE_PROGRAM:
      return 1;
    case Property::FS_DEPTH_LAYOUT:
      return 4;
    case Property::TES_SPACING:
      return 2;
    case Property::NUM_CLIPDIST_ENABLED:
    case Property::NUM_CULLDIST_ENABLED:
      return 8;
    case Property::GS_INVOCATIONS:
    case Property::TCS_VERTICES_OUT:
      return 32;
    case Property::GS_MAX_OUTPUT_VERTICES:
      return 4096;
    case Property::CS_FIXED_BLOCK_WIDTH:
    case Property::CS_FIXED_BLOCK_HEIGHT:
    case Property::CS_FIXED_BLOCK_DEPTH:
      return 65536;
    default:
      return UINT32_MAX;
  }
}

bool is_compute_system_value(Semantic s) {
  return s == Semantic::GRID_SIZE || s == Semantic::BLOCK_ID || s == Semantic::BLOCK_SIZE ||
         s == Semantic::THREAD_ID || s == Semantic::WORK_DIM;
}

std::string loc_text(SourceLoc loc) {
  if (!loc.is_valid()) return "elsewhere";
  return "at " + std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

}  // namespace

void Validator::error(SourceLoc loc, std::string message) {
  if (diags_.size() < kMaxDiagnostics) {
    diags_.push_back(Diagnostic{loc, std::move(message)});
    if (diags_.size() == kMaxDiagnostics) {
      diags_.back().message += " (too many errors; stopping)";
    }
  }
}

std::vector<Diagnostic> Validator::run() {
  check_properties();
  check_declarations();
  for (const Instruction& inst : shader_.instructions) {
    if (full()) break;
    check_instruction(inst);
  }
  if (!full()) {
    std::vector<Diagnostic> cf_diags;
    check_control_flow(shader_, &cf_diags);
    for (Diagnostic& d : cf_diags)
      error(d.loc, std::move(d.message));
  }
  return std::move(diags_);
}

void Validator::check_properties() {
  const ShaderType stage = shader_.stage;
  std::map<Property, const PropertyDecl*> seen;
  for (const PropertyDecl& p : shader_.properties) {
    const std::string name = property_name(p.name);
    if (!property_allowed(p.name, stage)) {
      error(p.loc, "property " + name + " does not apply to " + stage_name(stage) + " shaders");
      continue;
    }
    auto [it, inserted] = seen.emplace(p.name, &p);
    if (!inserted && it->second->value != p.value) {
      error(p.loc, "property " + name + " given twice with different values (first " +
                       loc_text(it->second->loc) + ")");
    }
    if (p.value > property_max(p.name)) {
      error(p.loc, "property " + name + " value " + std::to_string(p.value) +
                       " is out of range (at most " + std::to_string(property_max(p.name)) + ")");
    }
    switch (p.name) {
      case Property::GS_INPUT_PRIM:
        if (p.value >= kPrimTypes || gs_input_vertices(PrimType(p.value)) == 0) {
          error(p.loc,
                "GS_INPUT_PRIMITIVE must be POINTS, LINES, LINES_ADJACENCY, "
                "TRIANGLES or TRIANGLES_ADJACENCY");
        }
        break;
      case Property::GS_OUTPUT_PRIM:
        if (p.value != uint32_t(PrimType::POINTS) && p.value != uint32_t(PrimType::LINE_STRIP) &&
            p.value != uint32_t(PrimType::TRIANGLE_STRIP)) {
          error(p.loc, "GS_OUTPUT_PRIMITIVE must be POINTS, LINE_STRIP or TRIANGLE_STRIP");
        }
        break;
      case Property::TES_PRIM_MODE:
        if (p.value != uint32_t(PrimType::LINES) && p.value != uint32_t(PrimType::TRIANGLES) &&
            p.value != uint32_t(PrimType::QUADS)) {
          error(p.loc, "TES_PRIM_MODE must be 1 (isolines), 4 (triangles) or 7 (quads)");
        }
        break;
      case Property::TCS_VERTICES_OUT:
        if (p.value == 0) error(p.loc, "TCS_VERTICES_OUT must be at least 1");
        break;
      default:
        break;
    }
  }
  if (shader_.property(Property::NUM_CLIPDIST_ENABLED) +
          shader_.property(Property::NUM_CULLDIST_ENABLED) >
      8) {
    for (const PropertyDecl& p : shader_.properties) {
      if (p.name == Property::NUM_CULLDIST_ENABLED) {
        error(p.loc, "clip and cull distances together exceed 8");
        break;
      }
    }
  }
}

void Validator::check_declarations() {
  const auto& decls = shader_.declarations;
  for (const Declaration& d : decls) {
    if (full()) return;
    check_declaration(d);
  }
  for (const auto& [a, b] : decls_.overlaps()) {
    const Declaration& first = decls[a];
    const Declaration& second = decls[b];
    uint32_t reg = std::max(first.first, second.first);
    std::string what = std::string(file_name(second.file)) +
                       (second.has_dimension ? "[" + std::to_string(second.dimension) + "]" : "") +
                       "[" + std::to_string(reg) + "]";
    error(second.loc, what + " is declared twice (also " + loc_text(first.loc) + ")");
  }
  // ArrayIDs name one declaration per file.
  std::map<std::pair<RegFile, uint32_t>, const Declaration*> arrays;
  for (const Declaration& d : decls) {
    if (d.array_id == 0) continue;
    auto [it, inserted] = arrays.emplace(std::make_pair(d.file, d.array_id), &d);
    if (!inserted) {
      error(d.loc, "ARRAY(" + std::to_string(d.array_id) + ") of " + file_name(d.file) +
                       " is declared twice (also " + loc_text(it->second->loc) + ")");
    }
  }
}

void Validator::check_declaration(const Declaration& d) {
  const ShaderType stage = shader_.stage;
  const std::string file = file_name(d.file);
  switch (d.file) {
    case RegFile::NONE:
    case RegFile::CONSTBUF:
      error(d.loc, "register file " + file + " cannot be declared");
      return;
    case RegFile::IMM:
      error(d.loc, "immediates are declared with IMM, not DCL");
      return;
    default:
      break;
  }
  if (d.has_dimension && d.file != RegFile::CONST && d.file != RegFile::HWATOMIC) {
    error(d.loc, file + " declarations take no dimension bracket");
  }
  if (d.has_dimension && d.file == RegFile::CONST && d.dimension >= kMaxConstantBuffers) {
    error(d.loc, "constant buffer " + std::to_string(d.dimension) + " is beyond the " +
                     std::to_string(kMaxConstantBuffers) + " buffers of a stage");
  }
  const bool io = d.file == RegFile::IN || d.file == RegFile::OUT || d.file == RegFile::SV;
  if (d.has_semantic && !io) {
    error(d.loc, std::string("a semantic (") + semantic_name(d.semantic) +
                     ") only applies to IN, OUT and SV declarations");
  }
  if (!d.has_semantic && io) {
    bool vs_input = d.file == RegFile::IN && stage == ShaderType::VERTEX;
    if (!vs_input) error(d.loc, file + " declarations need a semantic");
  }
  if (d.local && d.file != RegFile::TEMP) error(d.loc, "LOCAL only applies to TEMP");
  if (d.array_id != 0 && d.file != RegFile::TEMP && d.file != RegFile::IN &&
      d.file != RegFile::OUT && d.file != RegFile::HWATOMIC) {
    error(d.loc, "ARRAY only applies to TEMP, IN, OUT and HWATOMIC declarations");
  }
  if (d.has_interp && !(d.file == RegFile::IN && stage == ShaderType::FRAGMENT)) {
    error(d.loc, "an interpolation mode only applies to fragment shader inputs");
  }
  if (d.location != InterpLoc::CENTER && d.file != RegFile::IN && d.file != RegFile::OUT) {
    error(d.loc, std::string(interp_loc_name(d.location)) + " only applies to IN and OUT");
  }
  if ((d.stream[0] | d.stream[1] | d.stream[2] | d.stream[3]) &&
      !(d.file == RegFile::OUT && stage == ShaderType::GEOMETRY)) {
    error(d.loc, "STREAM only applies to geometry shader outputs");
  }
  if (d.invariant && d.file != RegFile::OUT) error(d.loc, "INVARIANT only applies to outputs");
  if (d.file == RegFile::OUT && stage == ShaderType::COMPUTE) {
    error(d.loc, "compute shaders have no outputs");
  }
  if (d.file == RegFile::IN && stage == ShaderType::COMPUTE) {
    error(d.loc, "compute shaders have no inputs (use SV or MEMORY INPUT)");
  }
  if (d.has_semantic && d.file == RegFile::OUT && stage == ShaderType::FRAGMENT) {
    switch (d.semantic) {
      case Semantic::COLOR:
        if (d.semantic_index_of(d.last) >= kMaxColorBufs) {
          error(d.loc, "fragment COLOR output index " +
                           std::to_string(d.semantic_index_of(d.last)) + " is beyond the " +
                           std::to_string(kMaxColorBufs) + " colour buffers");
        }
        break;
      case Semantic::POSITION:
      case Semantic::STENCIL:
      case Semantic::SAMPLEMASK:
        break;
      default:
        error(d.loc, std::string("fragment shader outputs are COLOR, POSITION, STENCIL or "
                                 "SAMPLEMASK, not ") +
                         semantic_name(d.semantic));
    }
  }
  if (d.has_semantic && d.file == RegFile::SV && is_compute_system_value(d.semantic) &&
      stage != ShaderType::COMPUTE) {
    error(d.loc, std::string(semantic_name(d.semantic)) + " is a compute shader system value");
  }
  if (d.file == RegFile::SVIEW && d.target == TexTarget::UNKNOWN) {
    error(d.loc, "sampler view target UNKNOWN");
  }
  if (d.file == RegFile::IMAGE && d.target == TexTarget::UNKNOWN) {
    error(d.loc, "image target UNKNOWN");
  }
  if (d.file == RegFile::MEMORY && d.memory_type == MemoryType::SHARED &&
      stage != ShaderType::COMPUTE) {
    error(d.loc, "shared memory only exists in compute shaders");
  }
}

std::string describe_register(const RegisterRef& reg) {
  std::string s = file_name(reg.file);
  if (reg.has_dimension) {
    s += reg.dim_indirect.is_indirect() ? "[ADDR]" : "[" + std::to_string(reg.dimension) + "]";
  }
  s += reg.indirect.is_indirect() ? "[ADDR]" : "[" + std::to_string(reg.index) + "]";
  return s;
}

}  // namespace detail

void validate(const Shader& shader) {
  std::vector<Diagnostic> diags = detail::Validator(shader).run();
  if (!diags.empty()) throw CompileError(std::move(diags));
}

}  // namespace clpipe::compiler
