// Internal state of the TGSI parser (parser.h), shared by its two source files:
// parser.cpp (statements, properties, immediates, instructions, operands) and
// parser_decl.cpp (declarations and their merging). Not for use outside the parser.
#pragma once

#include <string>
#include <string_view>

#include "compiler/ir.h"
#include "compiler/tgsi/lexer.h"

namespace clpipe::compiler::detail {

class Parser {
 public:
  explicit Parser(std::string_view text) : lex_(text) {}
  Shader run();

 private:
  // parser.cpp
  void parse_header();
  void parse_statement();
  void parse_property();
  void parse_immediate();
  void parse_instruction(bool after_label);
  void parse_dst(DstOperand* dst);
  void parse_src(SrcOperand* src);
  void parse_tex_offset(TexOffset* off);
  void parse_register(RegisterRef* reg);
  // One operand bracket "[n]" or "[ADDR[a].c+k]" plus an optional "(arrayid)".
  void parse_operand_bracket(int32_t* index, IndirectRef* indirect);
  uint8_t parse_write_mask();  // after the '.'
  TexTarget parse_texture_target(const char* what);
  void parse_memory_flags(Instruction* inst);

  // parser_decl.cpp
  void parse_declaration();
  void parse_decl_attributes(Declaration* d);
  void parse_image_part(Declaration* d);
  void parse_sview_part(Declaration* d);
  // "[first]", "[first..last]" or "[]" (empty only when `allow_empty`); returns false
  // for an empty bracket.
  bool parse_decl_bracket(uint32_t* first, uint32_t* last, bool allow_empty);
  void parse_array_id(uint32_t* id);

  // Helpers.
  [[noreturn]] void fail_at(size_t pos, const std::string& message) const;
  [[noreturn]] void fail(const std::string& message) const { fail_at(lex_.pos(), message); }
  // Skips whitespace, then requires `c`.
  void expect(char c, const char* context);
  uint32_t read_uint(uint64_t max, const char* what);
  ImageFormat read_format_word();
  // The word at the cursor quoted for a message, or a description of the character.
  std::string found() const;

  Lexer lex_;
  Shader shader_;
  // Vertex count implied by an empty "[]" (GS: from GS_INPUT_PRIMITIVE; TCS/TES: 32).
  uint32_t implied_array_size_ = 0;
};

// True for a word that names an image format ("PIPE_FORMAT_..." in any case).
bool is_format_word(std::string_view word);

// Merges declarations that carry nothing but a range (ir.h); declared in parser_decl.cpp.
void merge_declarations(std::vector<Declaration>* decls);

}  // namespace clpipe::compiler::detail
