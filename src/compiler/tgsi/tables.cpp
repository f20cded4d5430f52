// The TGSI name and opcode tables (tables.h): rows come from opcodes.def and tables.def;
// lookups are case-insensitive hash lookups built once per table.
#include "compiler/tgsi/tables.h"

#include <array>
#include <string>
#include <unordered_map>

namespace clpipe::compiler {

namespace {

constexpr OpcodeInfo kOpcodes[kOpcodeCount] = {
#define CLPIPE_TGSI_OPCODE(num, name, ndst, nsrc, tex, mode, cf, d0, d1, s0, s1, s2, s3, s4) \
  {#name,                                                                                    \
   ndst,                                                                                     \
   nsrc,                                                                                     \
   tex != 0,                                                                                 \
   ChannelMode::mode,                                                                        \
   CfRole::cf,                                                                               \
   {OperandType::d0, OperandType::d1},                                                       \
   {OperandType::s0, OperandType::s1, OperandType::s2, OperandType::s3, OperandType::s4}},
#define CLPIPE_TGSI_OPCODE_UNUSED(num) \
  {nullptr,                            \
   0,                                  \
   0,                                  \
   false,                              \
   ChannelMode::NONE,                  \
   CfRole::NONE,                       \
   {OperandType::N, OperandType::N},   \
   {OperandType::N, OperandType::N, OperandType::N, OperandType::N, OperandType::N}},
#include "compiler/tgsi/opcodes.def"
#undef CLPIPE_TGSI_OPCODE
#undef CLPIPE_TGSI_OPCODE_UNUSED
};

// Row numbers of opcodes.def must equal the enum values (checked at compile time).
constexpr bool opcode_rows_in_order() {
  unsigned row = 0;
#define CLPIPE_TGSI_OPCODE(num, ...) \
  if (num != row++) return false;
#define CLPIPE_TGSI_OPCODE_UNUSED(num) \
  if (num != row++) return false;
#include "compiler/tgsi/opcodes.def"
#undef CLPIPE_TGSI_OPCODE
#undef CLPIPE_TGSI_OPCODE_UNUSED
  return row == kOpcodeCount;
}
static_assert(opcode_rows_in_order(), "opcodes.def rows must be numbered 0..251 in order");

#define CLPIPE_TGSI_STAGE(e, text) text,
constexpr const char* kStageNames[] = {
#include "compiler/tgsi/tables.def"
};
#define CLPIPE_TGSI_FILE(e, text) text,
constexpr const char* kFileNames[] = {
#include "compiler/tgsi/tables.def"
};
#define CLPIPE_TGSI_SEMANTIC(e, text) text,
constexpr const char* kSemanticNames[] = {
#include "compiler/tgsi/tables.def"
};
struct TextureRow {
  const char* name;
  bool shadow, array, msaa;
};
#define CLPIPE_TGSI_TEXTURE(e, text, shadow, array, msaa) \
  {text, shadow != 0, array != 0, msaa != 0},
constexpr TextureRow kTextures[] = {
#include "compiler/tgsi/tables.def"
};
#define CLPIPE_TGSI_RETURN_TYPE(e, text) text,
constexpr const char* kReturnTypeNames[] = {
#include "compiler/tgsi/tables.def"
};
#define CLPIPE_TGSI_INTERP(e, text) text,
constexpr const char* kInterpNames[] = {
#include "compiler/tgsi/tables.def"
};
#define CLPIPE_TGSI_INTERP_LOC(e, text) text,
constexpr const char* kInterpLocNames[] = {
#include "compiler/tgsi/tables.def"
};
struct ImmTypeRow {
  const char* name;
  unsigned words;
};
#define CLPIPE_TGSI_IMM_TYPE(e, text, words) {text, words},
constexpr ImmTypeRow kImmTypes[] = {
#include "compiler/tgsi/tables.def"
};
#define CLPIPE_TGSI_MEMORY_TYPE(e, text) text,
constexpr const char* kMemoryTypeNames[] = {
#include "compiler/tgsi/tables.def"
};
#define CLPIPE_TGSI_MEMORY_QUALIFIER(e, text) text,
constexpr const char* kMemQualifierNames[] = {
#include "compiler/tgsi/tables.def"
};
#define CLPIPE_TGSI_PRIM(e, text) text,
constexpr const char* kPrimNames[] = {
#include "compiler/tgsi/tables.def"
};
struct PropertyRow {
  const char* name;
  PropertyValueKind kind;
  uint32_t default_value;
};
#define CLPIPE_TGSI_PROPERTY(e, text, kind, def) {text, PropertyValueKind::kind, def},
constexpr PropertyRow kProperties[] = {
#include "compiler/tgsi/tables.def"
};

static_assert(std::size(kStageNames) == kShaderTypes);
static_assert(std::size(kFileNames) == kRegFileCount);
static_assert(std::size(kSemanticNames) == kSemanticCount);
static_assert(std::size(kTextures) == kTexTargetCount);
static_assert(std::size(kMemQualifierNames) == kMemQualifierCount);
static_assert(std::size(kPrimNames) == kPrimTypes);
static_assert(std::size(kProperties) == kPropertyCount);

template <typename T, size_t N>
const T& row(const T (&table)[N], unsigned i) {
  static const T kEmpty{};
  return i < N ? table[i] : kEmpty;
}

const char* name_or_empty(const char* const* table, size_t n, unsigned i) {
  return i < n && table[i] ? table[i] : "";
}

// Upper-case name -> row index of one table. Names are short identifiers; a word longer
// than any name cannot match, which also bounds the copy below.
class NameIndex {
 public:
  template <typename Get>
  NameIndex(size_t n, Get get) {
    for (size_t i = 0; i < n; ++i) {
      const char* name = get(i);
      if (name == nullptr || name[0] == '\0') continue;
      std::string_view v(name);
      if (v.size() > max_len_) max_len_ = v.size();
      map_.emplace(v, unsigned(i));
    }
  }
  bool find(std::string_view word, unsigned* out) const {
    if (word.empty() || word.size() > max_len_) return false;
    std::array<char, 64> buf;
    for (size_t i = 0; i < word.size(); ++i) {
      char c = word[i];
      buf[i] = (c >= 'a' && c <= 'z') ? char(c - 'a' + 'A') : c;
    }
    auto it = map_.find(std::string_view(buf.data(), word.size()));
    if (it == map_.end()) return false;
    *out = it->second;
    return true;
  }

 private:
  std::unordered_map<std::string_view, unsigned> map_;
  size_t max_len_ = 0;
};

template <typename E>
bool find_in(const NameIndex& index, std::string_view word, E* out) {
  unsigned i;
  if (!index.find(word, &i)) return false;
  *out = E(i);
  return true;
}

}  // namespace

const OpcodeInfo& opcode_info(Opcode op) {
  return kOpcodes[unsigned(op) < kOpcodeCount ? unsigned(op) : unsigned(Opcode::NOP)];
}

bool opcode_takes_tex_offsets(Opcode op) {
  return opcode_info(op).is_tex || (op >= Opcode::SAMPLE && op <= Opcode::GATHER4);
}

bool opcode_is_memory(Opcode op) {
  return (op >= Opcode::LOAD && op <= Opcode::STORE) ||
         (op >= Opcode::ATOMUADD && op <= Opcode::ATOMIMAX) || op == Opcode::RESQ ||
         op == Opcode::ATOMFADD || op == Opcode::ATOMINC_WRAP || op == Opcode::ATOMDEC_WRAP;
}

bool opcode_takes_label(Opcode op) {
  switch (op) {
    case Opcode::IF:
    case Opcode::UIF:
    case Opcode::ELSE:
    case Opcode::BGNLOOP:
    case Opcode::ENDLOOP:
    case Opcode::CAL:
    case Opcode::BGNSUB:
      return true;
    default:
      return false;
  }
}

const char* stage_name(ShaderType stage) {
  return name_or_empty(kStageNames, std::size(kStageNames), unsigned(stage));
}
const char* file_name(RegFile file) {
  return name_or_empty(kFileNames, std::size(kFileNames), unsigned(file));
}
const char* semantic_name(Semantic semantic) {
  return name_or_empty(kSemanticNames, std::size(kSemanticNames), unsigned(semantic));
}
const char* texture_name(TexTarget target) {
  const char* n = row(kTextures, unsigned(target)).name;
  return n ? n : "";
}
const char* return_type_name(ReturnType type) {
  return name_or_empty(kReturnTypeNames, std::size(kReturnTypeNames), unsigned(type));
}
const char* interp_name(InterpMode mode) {
  return name_or_empty(kInterpNames, std::size(kInterpNames), unsigned(mode));
}
const char* interp_loc_name(InterpLoc loc) {
  return name_or_empty(kInterpLocNames, std::size(kInterpLocNames), unsigned(loc));
}
const char* imm_type_name(ImmType type) {
  const char* n = row(kImmTypes, unsigned(type)).name;
  return n ? n : "";
}
const char* memory_type_name(MemoryType type) {
  return name_or_empty(kMemoryTypeNames, std::size(kMemoryTypeNames), unsigned(type));
}
const char* mem_qualifier_name(unsigned bit_index) {
  return name_or_empty(kMemQualifierNames, std::size(kMemQualifierNames), bit_index);
}
const char* tgsi_prim_name(PrimType prim) {
  return name_or_empty(kPrimNames, std::size(kPrimNames), unsigned(prim));
}
const char* property_name(Property property) {
  const char* n = row(kProperties, unsigned(property)).name;
  return n ? n : "";
}
PropertyValueKind property_value_kind(Property property) {
  return row(kProperties, unsigned(property)).kind;
}
uint32_t property_default(Property property) {
  return row(kProperties, unsigned(property)).default_value;
}
unsigned imm_words_per_value(ImmType type) {
  unsigned w = row(kImmTypes, unsigned(type)).words;
  return w ? w : 1;
}
bool texture_is_shadow(TexTarget target) {
  return row(kTextures, unsigned(target)).shadow;
}
bool texture_is_array(TexTarget target) {
  return row(kTextures, unsigned(target)).array;
}
bool texture_is_msaa(TexTarget target) {
  return row(kTextures, unsigned(target)).msaa;
}

#define CLPIPE_DEFINE_LOOKUP(fn, Enum, table, get)                         \
  bool fn(std::string_view word, Enum* out) {                              \
    static const NameIndex index(std::size(table), [](size_t i) { get; }); \
    return find_in(index, word, out);                                      \
  }

CLPIPE_DEFINE_LOOKUP(lookup_opcode, Opcode, kOpcodes, return kOpcodes[i].name)
CLPIPE_DEFINE_LOOKUP(lookup_stage, ShaderType, kStageNames, return kStageNames[i])
CLPIPE_DEFINE_LOOKUP(lookup_file, RegFile, kFileNames, return kFileNames[i])
CLPIPE_DEFINE_LOOKUP(lookup_semantic, Semantic, kSemanticNames, return kSemanticNames[i])
CLPIPE_DEFINE_LOOKUP(lookup_texture, TexTarget, kTextures, return kTextures[i].name)
CLPIPE_DEFINE_LOOKUP(lookup_return_type, ReturnType, kReturnTypeNames, return kReturnTypeNames[i])
CLPIPE_DEFINE_LOOKUP(lookup_interp, InterpMode, kInterpNames, return kInterpNames[i])
CLPIPE_DEFINE_LOOKUP(lookup_interp_loc, InterpLoc, kInterpLocNames, return kInterpLocNames[i])
CLPIPE_DEFINE_LOOKUP(lookup_imm_type, ImmType, kImmTypes, return kImmTypes[i].name)
CLPIPE_DEFINE_LOOKUP(lookup_memory_type, MemoryType, kMemoryTypeNames, return kMemoryTypeNames[i])
CLPIPE_DEFINE_LOOKUP(lookup_mem_qualifier, unsigned, kMemQualifierNames,
                     return kMemQualifierNames[i])
CLPIPE_DEFINE_LOOKUP(lookup_prim, PrimType, kPrimNames, return kPrimNames[i])
CLPIPE_DEFINE_LOOKUP(lookup_property, Property, kProperties, return kProperties[i].name)
#undef CLPIPE_DEFINE_LOOKUP

unsigned gs_input_vertices(PrimType prim) {
  switch (prim) {
    case PrimType::POINTS:
      return 1;
    case PrimType::LINES:
    case PrimType::LINE_STRIP:
    case PrimType::LINE_LOOP:
      return 2;
    case PrimType::TRIANGLES:
    case PrimType::TRIANGLE_STRIP:
    case PrimType::TRIANGLE_FAN:
      return 3;
    case PrimType::LINES_ADJACENCY:
    case PrimType::LINE_STRIP_ADJACENCY:
      return 4;
    case PrimType::TRIANGLES_ADJACENCY:
    case PrimType::TRIANGLE_STRIP_ADJACENCY:
      return 6;
    default:
      return 0;
  }
}

}  // namespace clpipe::compiler
