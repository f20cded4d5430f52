// The TGSI text scanner: a cursor over the text with the lexical rules of Mesa 22.3's
// tgsi_text.c (tgsi.md §2), used by the parser.
//
// * Whitespace is space, tab and newline. CR is not whitespace (as in Mesa), except in a
//   CR LF pair, so files with Windows line endings parse.
// * A word is a run of letters, digits and '_'; keywords and names match whole words,
//   case-insensitively (the lookups in tables.h do the case folding).
// * The text ends at its end or at the first NUL (vtest sends NUL-terminated text).
// * Positions are byte offsets; loc() turns one into line:column through a line table
//   built once, so backtracking is just restoring an offset.
// Numbers are read without sign handling or overflow surprises: every reader reports
// "no number here" and "too large" separately so the parser can say which.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "compiler/diagnostics.h"

namespace clpipe::compiler {

class Lexer {
 public:
  explicit Lexer(std::string_view text);

  size_t pos() const { return pos_; }
  void set_pos(size_t pos) { pos_ = pos < text_.size() ? pos : text_.size(); }
  bool at_end() const { return pos_ >= text_.size(); }
  // The character at the cursor (or k further), '\0' past the end.
  char peek(size_t k = 0) const { return pos_ + k < text_.size() ? text_[pos_ + k] : '\0'; }
  std::string_view text() const { return text_; }

  // Skips whitespace; true if at least one character was skipped.
  bool skip_space();
  // The character after any whitespace, without moving.
  char peek_after_space() const;
  // Consumes `c` if it is at the cursor (no whitespace skipping).
  bool accept(char c);

  // The word at the cursor ("" if none), without / with consuming it.
  std::string_view peek_word() const;
  std::string_view read_word();
  // Consumes the word at the cursor if it equals `upper` case-insensitively.
  bool accept_keyword(std::string_view upper);

  enum class Number { kOk, kNone, kTooLarge };
  // Decimal digits only (Mesa's parse_uint); kTooLarge when the value exceeds `max`.
  // On kTooLarge the digits are consumed.
  Number read_decimal(uint64_t max, uint64_t* out);
  // C integer literal without sign: 0x hex, leading-0 octal, or decimal (strtoull base 0).
  Number read_c_integer(uint64_t* out);
  // Hex digits after a consumed "0x"; at most `max_digits`.
  Number read_hex(unsigned max_digits, uint64_t* out);
  // A floating-point literal (optional sign, digits, '.', exponent; or inf / nan when
  // allow_special); the value rounded to double. kNone if there is no literal here.
  Number read_float(bool allow_special, double* out);

  SourceLoc loc() const { return loc_at(pos_); }
  SourceLoc loc_at(size_t pos) const;

  static bool is_word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }
  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  std::vector<size_t> line_starts_;  // offset of the first byte of each line
};

// "`x'", or a description for characters that do not print ("end of text", "CR", ...).
std::string describe_char(char c);

}  // namespace clpipe::compiler
