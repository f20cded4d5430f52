// TGSI text -> IR, declarations (parser.h): "DCL FILE[range] [.mask] [, attributes]" and
// the merging of plain range declarations.
//
// Attributes follow Mesa 22.3's parse_declaration order: ARRAY(n); then the file's own
// part (IMAGE target/format/WR/RAW, SVIEW target/return types, BUFFER ATOMIC, MEMORY
// kind, or LOCAL and a semantic); then STREAM(a,b,c,d); an interpolation mode; a
// location; INVARIANT. Each is optional, but they must come in this order, which also
// settles the one ambiguous word: in "DCL IN[0], COLOR, COLOR" the first COLOR is the
// semantic and the second the interpolation mode. Unlike Mesa, VS inputs accept the
// same attributes as other inputs (they are simply not needed there).
#include <algorithm>

#include "compiler/tgsi/parser_impl.h"

namespace clpipe::compiler::detail {

namespace {

// Attribute slots in their required order.
enum Slot : int {
  kSlotStart = 0,
  kSlotArray,
  kSlotFilePart,
  kSlotLocal,
  kSlotSemantic,
  kSlotStream,
  kSlotInterp,
  kSlotLocation,
  kSlotInvariant,
};

bool has_resource_part(RegFile f) {
  return f == RegFile::IMAGE || f == RegFile::SVIEW || f == RegFile::BUFFER || f == RegFile::MEMORY;
}

int component_bit(char c) {
  switch (c) {
    case 'x':
    case 'X':
      return 1;
    case 'y':
    case 'Y':
      return 2;
    case 'z':
    case 'Z':
      return 4;
    case 'w':
    case 'W':
      return 8;
    default:
      return 0;
  }
}

}  // namespace

bool Parser::parse_decl_bracket(uint32_t* first, uint32_t* last, bool allow_empty) {
  lex_.skip_space();
  if (lex_.peek() == ']') {
    if (!allow_empty) {
      fail(
          "an empty `[]' needs an implied size (a GS after PROPERTY GS_INPUT_PRIMITIVE, or "
          "a TCS/TES); expected a register index");
    }
    lex_.accept(']');
    return false;
  }
  *first = read_uint(kMaxRegisterIndex, "a register index");
  *last = *first;
  lex_.skip_space();
  if (lex_.peek() == '.' && lex_.peek(1) == '.') {
    lex_.accept('.');
    lex_.accept('.');
    lex_.skip_space();
    size_t last_pos = lex_.pos();
    *last = read_uint(kMaxRegisterIndex, "the last register index");
    if (*last < *first) {
      fail_at(last_pos, "declaration range " + std::to_string(*first) + ".." +
                            std::to_string(*last) + " is reversed");
    }
  }
  expect(']', "closing the declaration range");
  return true;
}

void Parser::parse_array_id(uint32_t* id) {
  expect('(', "after ARRAY");
  lex_.skip_space();
  *id = read_uint(kMaxArrayId, "an array id");
  expect(')', "after the array id");
}

void Parser::parse_declaration() {
  size_t dcl_pos = lex_.pos() - 3;
  if (shader_.declarations.size() >= kMaxDeclarations) {
    fail_at(dcl_pos, "too many declarations");
  }
  Declaration d;
  d.loc = lex_.loc_at(dcl_pos);
  lex_.skip_space();
  if (!lookup_file(lex_.peek_word(), &d.file)) {
    fail("expected a register file after DCL, found " + found());
  }
  lex_.read_word();
  expect('[', "after the register file");
  uint32_t first0 = 0, last0 = 0;
  const bool vertex_file =
      (shader_.stage == ShaderType::GEOMETRY && d.file == RegFile::IN) ||
      (shader_.stage == ShaderType::TESS_EVAL && d.file == RegFile::IN) ||
      (shader_.stage == ShaderType::TESS_CTRL && (d.file == RegFile::IN || d.file == RegFile::OUT));
  size_t bracket0_pos = lex_.pos();
  // The first bracket of a per-vertex declaration may be empty even without an implied
  // size: it is dropped anyway (see Declaration in ir.h).
  {
    size_t save = lex_.pos();
    lex_.skip_space();
    bool empty_first = lex_.peek() == ']';
    lex_.set_pos(save);
    if (empty_first && vertex_file) {
      lex_.skip_space();
      lex_.accept(']');
      if (lex_.peek_after_space() != '[') {
        if (implied_array_size_ == 0) {
          fail_at(bracket0_pos,
                  "an empty `[]' needs an implied size (PROPERTY "
                  "GS_INPUT_PRIMITIVE before this declaration)");
        }
        first0 = 0;
        last0 = implied_array_size_ - 1;
      }
    } else {
      bool nonempty = parse_decl_bracket(&first0, &last0, implied_array_size_ != 0);
      if (!nonempty) {
        first0 = 0;
        last0 = implied_array_size_ - 1;
      }
    }
  }
  if (lex_.peek_after_space() == '[') {
    lex_.skip_space();
    lex_.accept('[');
    bool nonempty = parse_decl_bracket(&d.first, &d.last, implied_array_size_ != 0);
    if (!nonempty) {
      d.first = 0;
      d.last = implied_array_size_ - 1;
    }
    if (!vertex_file) {
      if (first0 != last0) fail_at(bracket0_pos, "the dimension must be a single index");
      d.has_dimension = true;
      d.dimension = first0;
    }
  } else {
    d.first = first0;
    d.last = last0;
  }
  if (lex_.peek_after_space() == '.') {
    lex_.skip_space();
    lex_.accept('.');
    lex_.skip_space();
    uint8_t mask = 0;
    for (int bit : {1, 2, 4, 8}) {
      if (component_bit(lex_.peek()) == bit) {
        mask |= uint8_t(bit);
        lex_.accept(lex_.peek());
      }
    }
    if (mask == 0) fail("expected a usage mask (letters x, y, z, w), found " + found());
    if (Lexer::is_word_char(lex_.peek())) {
      fail("invalid usage mask: letters must be a subset of x, y, z, w in that order");
    }
    d.usage_mask = mask;
  }
  parse_decl_attributes(&d);
  shader_.declarations.push_back(std::move(d));
}

void Parser::parse_decl_attributes(Declaration* d) {
  int slot = kSlotStart;
  while (lex_.peek_after_space() == ',') {
    lex_.skip_space();
    lex_.accept(',');
    lex_.skip_space();
    size_t word_pos = lex_.pos();
    std::string_view w = lex_.peek_word();
    Semantic semantic;
    InterpMode interp;
    InterpLoc location;
    if (slot < kSlotArray && lex_.accept_keyword("ARRAY")) {
      parse_array_id(&d->array_id);
      if (d->array_id == 0) fail_at(word_pos, "ARRAY ids start at 1 (0 means no array)");
      slot = kSlotArray;
    } else if (slot < kSlotFilePart && d->file == RegFile::IMAGE) {
      parse_image_part(d);
      slot = kSlotFilePart;
    } else if (slot < kSlotFilePart && d->file == RegFile::SVIEW) {
      parse_sview_part(d);
      slot = kSlotFilePart;
    } else if (slot < kSlotFilePart && d->file == RegFile::BUFFER &&
               lex_.accept_keyword("ATOMIC")) {
      d->atomic = true;
      slot = kSlotFilePart;
    } else if (slot < kSlotFilePart && d->file == RegFile::MEMORY &&
               lookup_memory_type(w, &d->memory_type)) {
      lex_.read_word();
      slot = kSlotFilePart;
    } else if (slot < kSlotLocal && !has_resource_part(d->file) && lex_.accept_keyword("LOCAL")) {
      d->local = true;
      slot = kSlotLocal;
    } else if (slot < kSlotSemantic && !has_resource_part(d->file) &&
               lookup_semantic(w, &semantic)) {
      lex_.read_word();
      d->has_semantic = true;
      d->semantic = semantic;
      if (lex_.peek_after_space() == '[') {
        lex_.skip_space();
        lex_.accept('[');
        lex_.skip_space();
        d->semantic_index = read_uint(kMaxSemanticIndex, "a semantic index");
        expect(']', "after the semantic index");
      }
      slot = kSlotSemantic;
    } else if (slot < kSlotStream && lex_.accept_keyword("STREAM")) {
      expect('(', "after STREAM");
      for (int c = 0; c < 4; ++c) {
        if (c > 0) expect(',', "between stream numbers");
        lex_.skip_space();
        d->stream[c] = uint8_t(read_uint(3, "a vertex stream number (0..3)"));
      }
      expect(')', "after the stream numbers");
      slot = kSlotStream;
    } else if (slot < kSlotInterp && lookup_interp(w, &interp)) {
      lex_.read_word();
      d->has_interp = true;
      d->interp = interp;
      slot = kSlotInterp;
    } else if (slot < kSlotLocation && lookup_interp_loc(w, &location)) {
      lex_.read_word();
      d->location = location;
      slot = kSlotLocation;
    } else if (slot < kSlotInvariant && lex_.accept_keyword("INVARIANT")) {
      d->invariant = true;
      slot = kSlotInvariant;
    } else {
      lex_.set_pos(word_pos);
      fail("unexpected " + found() +
           " in the declaration (attributes go in the order ARRAY, "
           "LOCAL or resource part, semantic, STREAM, interpolation, location, INVARIANT)");
    }
  }
}

void Parser::parse_image_part(Declaration* d) {
  d->target = parse_texture_target("an image target");
  // No format given is the same declaration as PIPE_FORMAT_NONE (Mesa's default).
  d->format = ImageFormat{"PIPE_FORMAT_NONE", Format::NONE};
  // Then any of ", FORMAT", ", WR", ", RAW" in any order (Mesa accepts repeats).
  while (lex_.peek_after_space() == ',') {
    size_t save = lex_.pos();
    lex_.skip_space();
    lex_.accept(',');
    lex_.skip_space();
    std::string_view w = lex_.peek_word();
    if (lex_.accept_keyword("WR")) {
      d->writable = true;
    } else if (lex_.accept_keyword("RAW")) {
      d->raw = true;
    } else if (is_format_word(w)) {
      d->format = read_format_word();
    } else {
      lex_.set_pos(save);
      break;
    }
  }
}

void Parser::parse_sview_part(Declaration* d) {
  d->target = parse_texture_target("a sampler view target");
  expect(',', "after the sampler view target");
  lex_.skip_space();
  // One return type for all channels, or four.
  int count = 0;
  for (;;) {
    ReturnType t;
    if (!lookup_return_type(lex_.peek_word(), &t)) {
      fail("expected a return type (UNORM, SNORM, SINT, UINT or FLOAT), found " + found());
    }
    lex_.read_word();
    d->return_type[count++] = t;
    if (count == 4) break;
    size_t save = lex_.pos();
    lex_.skip_space();
    if (!lex_.accept(',')) {
      lex_.set_pos(save);
      break;
    }
    lex_.skip_space();
    ReturnType next;
    if (!lookup_return_type(lex_.peek_word(), &next)) {
      // Not a return type: the comma starts the next attribute.
      lex_.set_pos(save);
      break;
    }
  }
  if (count == 1) {
    d->return_type = {d->return_type[0], d->return_type[0], d->return_type[0], d->return_type[0]};
  } else if (count != 4) {
    fail("a sampler view takes one return type or four, found " + std::to_string(count));
  }
}

void merge_declarations(std::vector<Declaration>* decls) {
  // Groups of mergeable declarations with equal attributes. A declaration is mergeable
  // when it carries nothing that is tied to its exact range: no semantic (its index
  // counts from the first register) and no ArrayID (it names exactly that range).
  struct Group {
    size_t first_pos;  // position of the group's earliest member
    std::vector<std::pair<uint32_t, uint32_t>> ranges;
  };
  auto same_attributes = [](const Declaration& a, const Declaration& b) {
    Declaration x = a, y = b;
    x.first = y.first = 0;
    x.last = y.last = 0;
    return x == y;
  };
  auto mergeable = [](const Declaration& d) { return !d.has_semantic && d.array_id == 0; };

  std::vector<Group> groups;
  std::vector<int> group_of(decls->size(), -1);
  for (size_t i = 0; i < decls->size(); ++i) {
    const Declaration& d = (*decls)[i];
    if (!mergeable(d)) continue;
    int g = -1;
    for (size_t k = 0; k < groups.size(); ++k) {
      if (same_attributes((*decls)[groups[k].first_pos], d)) {
        g = int(k);
        break;
      }
    }
    if (g < 0) {
      groups.push_back(Group{i, {}});
      g = int(groups.size() - 1);
    }
    groups[size_t(g)].ranges.emplace_back(d.first, d.last);
    group_of[i] = g;
  }
  for (Group& g : groups) {
    std::sort(g.ranges.begin(), g.ranges.end());
    std::vector<std::pair<uint32_t, uint32_t>> merged;
    for (const auto& r : g.ranges) {
      // Touching ranges merge too: [0..3] + [4..7] = [0..7].
      if (!merged.empty() && r.first <= merged.back().second + 1) {
        merged.back().second = std::max(merged.back().second, r.second);
      } else {
        merged.push_back(r);
      }
    }
    g.ranges = std::move(merged);
  }
  // Declarations of exactly the same registers that differ at most in their usage mask
  // (component-packed varyings: "DCL IN[0].xyz, GENERIC[0]" + "DCL IN[0].w, GENERIC[0]")
  // become one with the union of the masks; exact repeats are dropped the same way.
  std::vector<bool> drop(decls->size(), false);
  auto same_but_mask = [](const Declaration& a, const Declaration& b) {
    Declaration x = a, y = b;
    x.usage_mask = y.usage_mask = 0;
    return x == y;
  };
  for (size_t i = 0; i < decls->size(); ++i) {
    if (group_of[i] >= 0) continue;
    for (size_t j = 0; j < i; ++j) {
      if (!drop[j] && group_of[j] < 0 && same_but_mask((*decls)[j], (*decls)[i])) {
        (*decls)[j].usage_mask |= (*decls)[i].usage_mask;
        drop[i] = true;
        break;
      }
    }
  }
  std::vector<Declaration> out;
  out.reserve(decls->size());
  for (size_t i = 0; i < decls->size(); ++i) {
    if (drop[i]) continue;
    int g = group_of[i];
    if (g < 0) {
      out.push_back(std::move((*decls)[i]));
      continue;
    }
    const Group& group = groups[size_t(g)];
    if (group.first_pos != i) continue;
    for (const auto& r : group.ranges) {
      Declaration d = (*decls)[i];
      d.first = r.first;
      d.last = r.second;
      out.push_back(std::move(d));
    }
  }
  *decls = std::move(out);
}

}  // namespace clpipe::compiler::detail
