// TGSI text -> IR (parser.h): statements, properties, immediates, instructions and
// operands. Declarations are in parser_decl.cpp.
//
// The grammar follows Mesa 22.3's tgsi_text.c: a header word, then statements separated
// by whitespace, recognised in Mesa's order (a leading "n:" instruction number, DCL, IMM,
// PROPERTY, else an instruction). Every check that Mesa does silently (or not at all)
// becomes a diagnostic here: numbers that overflow, indices beyond the limits of ir.h,
// labels on opcodes that take none.
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <limits>

#include "compiler/tgsi/parser.h"
#include "compiler/tgsi/parser_impl.h"

namespace clpipe::compiler {

namespace detail {

namespace {

// x, y, z, w (case-insensitive) -> 0..3, else -1.
int component_of(char c) {
  switch (c) {
    case 'x':
    case 'X':
      return 0;
    case 'y':
    case 'Y':
      return 1;
    case 'z':
    case 'Z':
      return 2;
    case 'w':
    case 'W':
      return 3;
    default:
      return -1;
  }
}

uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

uint64_t double_bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}

bool ends_with_nocase(std::string_view word, std::string_view upper_suffix) {
  if (word.size() <= upper_suffix.size()) return false;
  std::string_view tail = word.substr(word.size() - upper_suffix.size());
  for (size_t i = 0; i < tail.size(); ++i) {
    char c = tail[i];
    if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
    if (c != upper_suffix[i]) return false;
  }
  return true;
}

}  // namespace

bool is_format_word(std::string_view w) {
  constexpr std::string_view kPrefix = "PIPE_FORMAT_";
  if (w.size() <= kPrefix.size()) return false;
  for (size_t i = 0; i < kPrefix.size(); ++i) {
    char c = w[i];
    if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
    if (c != kPrefix[i]) return false;
  }
  return true;
}

void Parser::fail_at(size_t pos, const std::string& message) const {
  throw CompileError(lex_.loc_at(pos), message);
}

void Parser::expect(char c, const char* context) {
  lex_.skip_space();
  if (!lex_.accept(c)) {
    fail(std::string("expected `") + c + "' " + context + ", found " + found());
  }
}

std::string Parser::found() const {
  std::string_view w = lex_.peek_word();
  if (!w.empty()) {
    if (w.size() > 40) return "`" + std::string(w.substr(0, 40)) + "...'";
    return "`" + std::string(w) + "'";
  }
  return describe_char(lex_.peek());
}

uint32_t Parser::read_uint(uint64_t max, const char* what) {
  size_t start = lex_.pos();
  uint64_t v = 0;
  switch (lex_.read_decimal(max, &v)) {
    case Lexer::Number::kOk:
      return uint32_t(v);
    case Lexer::Number::kTooLarge:
      fail_at(start,
              std::string(what) + " is too large (the limit is " + std::to_string(max) + ")");
    case Lexer::Number::kNone:
      break;
  }
  fail(std::string("expected ") + what + ", found " + found());
}

Shader Parser::run() {
  if (lex_.text().size() > kMaxTextBytes) {
    fail_at(0, "shader text is " + std::to_string(lex_.text().size()) + " bytes; the limit is " +
                   std::to_string(kMaxTextBytes));
  }
  lex_.skip_space();
  parse_header();
  for (;;) {
    bool spaced = lex_.skip_space();
    if (lex_.at_end()) break;
    if (!spaced) fail("unexpected " + found() + " after the end of the statement");
    parse_statement();
  }
  merge_declarations(&shader_.declarations);
  return std::move(shader_);
}

void Parser::parse_header() {
  size_t start = lex_.pos();
  std::string_view word = lex_.read_word();
  ShaderType stage;
  if (!lookup_stage(word, &stage)) {
    lex_.set_pos(start);
    fail("expected the shader stage (VERT, TESS_CTRL, TESS_EVAL, GEOM, FRAG or COMP), found " +
         found());
  }
  shader_.stage = stage;
  if (stage == ShaderType::TESS_CTRL || stage == ShaderType::TESS_EVAL) {
    implied_array_size_ = 32;
  }
}

void Parser::parse_statement() {
  if (Lexer::is_digit(lex_.peek())) {
    // "n:" instruction number printed by the dumper: parsed and ignored.
    read_uint(UINT32_MAX, "an instruction number");
    lex_.skip_space();
    if (!lex_.accept(':')) fail("expected `:' after the instruction number, found " + found());
    lex_.skip_space();
    parse_instruction(true);
  } else if (lex_.accept_keyword("DCL")) {
    parse_declaration();
  } else if (lex_.accept_keyword("IMM")) {
    parse_immediate();
  } else if (lex_.accept_keyword("PROPERTY")) {
    parse_property();
  } else {
    parse_instruction(false);
  }
}

void Parser::parse_property() {
  lex_.skip_space();
  size_t name_pos = lex_.pos();
  Property name;
  if (!lookup_property(lex_.peek_word(), &name)) {
    fail(lex_.peek_word().empty() ? "expected a property name, found " + found()
                                  : "unknown property " + found());
  }
  lex_.read_word();
  lex_.skip_space();
  uint32_t value = 0;
  std::string_view word = lex_.peek_word();
  switch (property_value_kind(name)) {
    case PropertyValueKind::PRIM: {
      PrimType prim;
      if (!lookup_prim(word, &prim)) fail("expected a primitive name, found " + found());
      value = uint32_t(prim);
      lex_.read_word();
      if (name == Property::GS_INPUT_PRIM && shader_.stage == ShaderType::GEOMETRY) {
        implied_array_size_ = gs_input_vertices(prim);
      }
      break;
    }
    case PropertyValueKind::ORIGIN:
      if (lex_.accept_keyword("UPPER_LEFT")) {
        value = 0;
      } else if (lex_.accept_keyword("LOWER_LEFT")) {
        value = 1;
      } else {
        fail("expected UPPER_LEFT or LOWER_LEFT, found " + found());
      }
      break;
    case PropertyValueKind::CENTER:
      if (lex_.accept_keyword("HALF_INTEGER")) {
        value = 0;
      } else if (lex_.accept_keyword("INTEGER")) {
        value = 1;
      } else {
        fail("expected HALF_INTEGER or INTEGER, found " + found());
      }
      break;
    case PropertyValueKind::STAGE: {
      ShaderType stage;
      if (!lookup_stage(word, &stage)) fail("expected a shader stage name, found " + found());
      value = uint32_t(stage);
      lex_.read_word();
      break;
    }
    case PropertyValueKind::UINT:
      value = read_uint(UINT32_MAX, "an unsigned integer property value");
      break;
  }
  shader_.properties.push_back(PropertyDecl{name, value, lex_.loc_at(name_pos)});
}

void Parser::parse_immediate() {
  size_t imm_pos = lex_.pos() - 3;
  if (shader_.immediates.size() >= kMaxImmediates) {
    fail_at(imm_pos, "too many immediates (the limit is " + std::to_string(kMaxImmediates) + ")");
  }
  if (lex_.peek_after_space() == '[') {
    lex_.skip_space();
    lex_.accept('[');
    lex_.skip_space();
    size_t index_pos = lex_.pos();
    uint32_t index = read_uint(kMaxImmediates, "an immediate index");
    if (index != shader_.immediates.size()) {
      fail_at(index_pos, "immediates must be numbered in order: expected IMM[" +
                             std::to_string(shader_.immediates.size()) + "], found IMM[" +
                             std::to_string(index) + "]");
    }
    expect(']', "after the immediate index");
  }
  lex_.skip_space();
  Immediate imm;
  imm.loc = lex_.loc_at(imm_pos);
  if (!lookup_imm_type(lex_.peek_word(), &imm.type)) {
    fail("expected an immediate type (FLT32, UINT32, INT32, FLT64, UINT64 or INT64), found " +
         found());
  }
  lex_.read_word();
  expect('{', "before the immediate values");
  const unsigned per_value = imm_words_per_value(imm.type);
  const unsigned max_values = 4 / per_value;
  unsigned words = 0;
  for (unsigned v = 0;; ++v) {
    lex_.skip_space();
    if (v > 0) {
      if (lex_.accept('}')) break;
      if (!lex_.accept(',')) fail("expected `,' or `}' in the immediate, found " + found());
      lex_.skip_space();
    }
    if (v == max_values) {
      fail("too many values: " + std::string(imm_type_name(imm.type)) + " immediates hold " +
           std::to_string(max_values));
    }
    size_t value_pos = lex_.pos();
    bool negative = lex_.peek() == '-';
    uint64_t u = 0;
    double d = 0;
    Lexer::Number r = Lexer::Number::kNone;
    const char* expected = "";
    switch (imm.type) {
      case ImmType::UINT32:
        expected = "an unsigned 32-bit integer";
        r = lex_.read_decimal(UINT32_MAX, &u);
        break;
      case ImmType::INT32:
        expected = "a signed 32-bit integer";
        if (lex_.peek() == '-' || lex_.peek() == '+') lex_.accept(lex_.peek());
        r = lex_.read_decimal(negative ? uint64_t(INT32_MAX) + 1 : INT32_MAX, &u);
        if (negative) u = uint64_t(-int64_t(u));
        break;
      case ImmType::FLT32:
        expected = "a float (decimal or 0x bit pattern)";
        if (lex_.peek() == '0' && (lex_.peek(1) == 'x' || lex_.peek(1) == 'X')) {
          lex_.accept('0');
          lex_.accept(lex_.peek());
          r = lex_.read_hex(8, &u);
        } else {
          r = lex_.read_float(false, &d);
          u = float_bits(float(d));
        }
        break;
      case ImmType::FLT64:
        expected = "a double";
        r = lex_.read_float(true, &d);
        u = double_bits(d);
        break;
      case ImmType::UINT64:
        expected = "an unsigned 64-bit integer";
        r = lex_.read_c_integer(&u);
        break;
      case ImmType::INT64:
        expected = "a signed 64-bit integer";
        if (lex_.peek() == '-' || lex_.peek() == '+') lex_.accept(lex_.peek());
        r = lex_.read_c_integer(&u);
        if (r == Lexer::Number::kOk) {
          if (negative ? u > uint64_t(INT64_MAX) + 1 : u > uint64_t(INT64_MAX)) {
            r = Lexer::Number::kTooLarge;
          } else if (negative) {
            u = uint64_t(0) - u;
          }
        }
        break;
    }
    if (r == Lexer::Number::kNone) {
      lex_.set_pos(value_pos);
      fail(std::string("expected ") + expected + ", found " + found());
    }
    if (r == Lexer::Number::kTooLarge) {
      fail_at(value_pos, std::string("value out of range: expected ") + expected);
    }
    if (Lexer::is_word_char(lex_.peek()) || lex_.peek() == '.') {
      fail("unexpected " + found() + " after the immediate value");
    }
    imm.words[words++] = uint32_t(u);
    if (per_value == 2) imm.words[words++] = uint32_t(u >> 32);
  }
  imm.num_words = uint8_t(words);
  shader_.immediates.push_back(imm);
}

void Parser::parse_instruction(bool after_label) {
  if (shader_.instructions.size() >= kMaxInstructions) {
    fail("too many instructions (the limit is " + std::to_string(kMaxInstructions) + ")");
  }
  std::string_view word = lex_.peek_word();
  Instruction inst;
  inst.loc = lex_.loc();
  std::string_view base = word;
  // OPCODE[_SAT][_PRECISE], in that order.
  if (!lookup_opcode(base, &inst.opcode)) {
    if (ends_with_nocase(base, "_PRECISE")) {
      base.remove_suffix(8);
      inst.precise = true;
    }
    if (!lookup_opcode(base, &inst.opcode) && ends_with_nocase(base, "_SAT")) {
      base.remove_suffix(4);
      inst.saturate = true;
    }
    if (!lookup_opcode(base, &inst.opcode)) {
      if (word.empty()) {
        fail(std::string(after_label ? "expected an opcode"
                                     : "expected DCL, IMM, PROPERTY or an instruction") +
             ", found " + found());
      }
      fail("unknown opcode " + found());
    }
  }
  lex_.read_word();
  const OpcodeInfo& info = opcode_info(inst.opcode);
  inst.num_dst = info.num_dst;
  inst.num_src = info.num_src;
  const unsigned operands = info.num_dst + info.num_src + (info.is_tex ? 1 : 0);
  for (unsigned i = 0; i < operands; ++i) {
    lex_.skip_space();
    if (i > 0) {
      if (!lex_.accept(',')) {
        fail(std::string(info.name) + " takes " + std::to_string(operands) + " operand" +
             (operands == 1 ? "" : "s") + (info.is_tex ? " (the last is the texture target)" : "") +
             ": expected `,', found " + found());
      }
      lex_.skip_space();
    }
    if (i < info.num_dst) {
      parse_dst(&inst.dst[i]);
    } else if (i < unsigned(info.num_dst + info.num_src)) {
      parse_src(&inst.src[i - info.num_dst]);
    } else {
      inst.texture = parse_texture_target("a texture target");
    }
  }
  if (opcode_takes_tex_offsets(inst.opcode)) {
    while (lex_.peek_after_space() == ',') {
      if (inst.num_tex_offsets == kMaxTexOffsets) fail("more than 4 texture offsets");
      lex_.skip_space();
      lex_.accept(',');
      lex_.skip_space();
      parse_tex_offset(&inst.tex_offsets[inst.num_tex_offsets++]);
    }
  }
  if (opcode_is_memory(inst.opcode)) parse_memory_flags(&inst);
  if (lex_.peek_after_space() == ':') {
    lex_.skip_space();
    if (!opcode_takes_label(inst.opcode)) {
      fail(std::string(info.name) + " takes no label");
    }
    lex_.accept(':');
    lex_.skip_space();
    inst.label_loc = lex_.loc();
    inst.label = read_uint(kMaxInstructions, "a label (instruction number)");
    inst.has_label = true;
  }
  shader_.instructions.push_back(std::move(inst));
}

TexTarget Parser::parse_texture_target(const char* what) {
  TexTarget t;
  if (!lookup_texture(lex_.peek_word(), &t))
    fail(std::string("expected ") + what + ", found " + found());
  lex_.read_word();
  return t;
}

ImageFormat Parser::read_format_word() {
  std::string_view w = lex_.read_word();
  ImageFormat f;
  f.name.reserve(w.size());
  for (char c : w)
    f.name += (c >= 'a' && c <= 'z') ? char(c - 'a' + 'A') : c;
  f.format = format_from_name(f.name);
  return f;
}

void Parser::parse_memory_flags(Instruction* inst) {
  while (lex_.peek_after_space() == ',') {
    lex_.skip_space();
    lex_.accept(',');
    lex_.skip_space();
    std::string_view w = lex_.peek_word();
    unsigned bit;
    TexTarget target;
    if (lookup_mem_qualifier(w, &bit)) {
      inst->mem_qualifiers |= uint8_t(1u << bit);
      lex_.read_word();
    } else if (lookup_texture(w, &target)) {
      inst->mem_target = target;
      lex_.read_word();
    } else if (is_format_word(w)) {
      // PIPE_FORMAT_NONE is Mesa's "no format" (it is not printed either).
      ImageFormat f = read_format_word();
      inst->mem_format = f.name == "PIPE_FORMAT_NONE" ? ImageFormat{} : f;
    } else {
      fail("expected a memory qualifier, an image target or a format, found " + found());
    }
  }
}

uint8_t Parser::parse_write_mask() {
  lex_.skip_space();
  uint8_t mask = 0;
  for (int c = 0; c < 4; ++c) {
    if (component_of(lex_.peek()) == c) {
      lex_.accept(lex_.peek());
      mask |= uint8_t(1u << c);
    }
  }
  if (mask == 0) fail("expected a write mask (letters x, y, z, w), found " + found());
  if (Lexer::is_word_char(lex_.peek())) {
    fail("invalid write mask: letters must be a subset of x, y, z, w in that order");
  }
  return mask;
}

void Parser::parse_dst(DstOperand* dst) {
  dst->loc = lex_.loc();
  parse_register(&dst->reg);
  if (lex_.peek_after_space() == '.') {
    lex_.skip_space();
    lex_.accept('.');
    dst->write_mask = parse_write_mask();
  }
}

void Parser::parse_src(SrcOperand* src) {
  src->loc = lex_.loc();
  if (lex_.accept('-')) {
    src->negate = true;
    lex_.skip_space();
  }
  if (lex_.accept('|')) {
    src->absolute = true;
    lex_.skip_space();
  }
  parse_register(&src->reg);
  if (lex_.peek_after_space() == '.') {
    lex_.skip_space();
    lex_.accept('.');
    lex_.skip_space();
    for (int i = 0; i < 4; ++i) {
      int c = component_of(lex_.peek());
      if (c < 0) fail("expected a swizzle of exactly four letters x, y, z, w, found " + found());
      src->swizzle[i] = uint8_t(c);
      lex_.accept(lex_.peek());
    }
  }
  if (src->absolute) expect('|', "closing the absolute value");
}

void Parser::parse_tex_offset(TexOffset* off) {
  off->loc = lex_.loc();
  size_t start = lex_.pos();
  RegisterRef reg;
  parse_register(&reg);
  if (reg.indirect.is_indirect() || reg.has_dimension) {
    fail_at(start, "a texture offset must be a direct register such as IMM[0].xyz");
  }
  off->file = reg.file;
  off->index = uint32_t(reg.index);
  if (lex_.peek_after_space() == '.') {
    lex_.skip_space();
    lex_.accept('.');
    lex_.skip_space();
    for (int i = 0; i < 3; ++i) {
      int c = component_of(lex_.peek());
      if (c < 0) {
        fail("expected a texture offset swizzle of three letters x, y, z, w, found " + found());
      }
      off->swizzle[i] = uint8_t(c);
      lex_.accept(lex_.peek());
    }
  }
}

void Parser::parse_register(RegisterRef* reg) {
  if (!lookup_file(lex_.peek_word(), &reg->file)) {
    fail("expected a register (TEMP[n], IN[n], CONST[n], ...), found " + found());
  }
  lex_.read_word();
  expect('[', "after the register file");
  parse_operand_bracket(&reg->index, &reg->indirect);
  if (lex_.peek_after_space() == '[') {
    lex_.skip_space();
    lex_.accept('[');
    // The first bracket was the dimension (CONST[b][n], IN[v][r], HWATOMIC[b][n]).
    reg->has_dimension = true;
    reg->dimension = reg->index;
    reg->dim_indirect = reg->indirect;
    reg->indirect = IndirectRef{};
    parse_operand_bracket(&reg->index, &reg->indirect);
  }
}

void Parser::parse_operand_bracket(int32_t* index, IndirectRef* indirect) {
  lex_.skip_space();
  *indirect = IndirectRef{};
  RegFile file;
  if (lookup_file(lex_.peek_word(), &file)) {
    // FILE[i].c +/- k
    lex_.read_word();
    indirect->file = file;
    expect('[', "after the address register file");
    lex_.skip_space();
    indirect->index = read_uint(kMaxRegisterIndex, "an address register index");
    expect(']', "after the address register index");
    if (lex_.peek_after_space() == '.') {
      lex_.skip_space();
      lex_.accept('.');
      lex_.skip_space();
      int c = component_of(lex_.peek());
      if (c < 0) fail("expected an address component x, y, z or w, found " + found());
      indirect->component = uint8_t(c);
      lex_.accept(lex_.peek());
    }
    *index = 0;
    char sign = lex_.peek_after_space();
    if (sign == '+' || sign == '-') {
      lex_.skip_space();
      lex_.accept(sign);
      lex_.skip_space();
      uint32_t k = read_uint(sign == '-' ? uint64_t(-int64_t(kMinIndexOffset)) : kMaxRegisterIndex,
                             "an index offset");
      *index = sign == '-' ? -int32_t(k) : int32_t(k);
    }
  } else {
    if (lex_.peek() == ']') fail("expected a register index, found `]'");
    *index = int32_t(read_uint(kMaxRegisterIndex, "a register index"));
  }
  expect(']', "closing the register index");
  if (lex_.accept('(')) {
    lex_.skip_space();
    uint32_t id = read_uint(kMaxArrayId, "an array id");
    expect(')', "after the array id");
    // Mesa keeps the ArrayID only on indirect brackets.
    if (indirect->is_indirect()) indirect->array_id = id;
  }
}

}  // namespace detail

Shader parse_tgsi(std::string_view text) {
  return detail::Parser(text).run();
}

}  // namespace clpipe::compiler
