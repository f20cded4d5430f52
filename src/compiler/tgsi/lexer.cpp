// The TGSI text scanner (lexer.h).
#include "compiler/tgsi/lexer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace clpipe::compiler {

namespace {

bool is_space_at(std::string_view t, size_t p) {
  char c = t[p];
  if (c == ' ' || c == '\t' || c == '\n') return true;
  // CR counts only as the first half of a CR LF line end.
  return c == '\r' && p + 1 < t.size() && t[p + 1] == '\n';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

char upper(char c) {
  return (c >= 'a' && c <= 'z') ? char(c - 'a' + 'A') : c;
}

}  // namespace

Lexer::Lexer(std::string_view text) {
  size_t nul = text.find('\0');
  text_ = nul == std::string_view::npos ? text : text.substr(0, nul);
  line_starts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
}

bool Lexer::skip_space() {
  size_t start = pos_;
  while (pos_ < text_.size() && is_space_at(text_, pos_))
    ++pos_;
  return pos_ != start;
}

char Lexer::peek_after_space() const {
  size_t p = pos_;
  while (p < text_.size() && is_space_at(text_, p))
    ++p;
  return p < text_.size() ? text_[p] : '\0';
}

bool Lexer::accept(char c) {
  if (pos_ < text_.size() && text_[pos_] == c) {
    ++pos_;
    return true;
  }
  return false;
}

std::string_view Lexer::peek_word() const {
  size_t end = pos_;
  while (end < text_.size() && is_word_char(text_[end]))
    ++end;
  return text_.substr(pos_, end - pos_);
}

std::string_view Lexer::read_word() {
  std::string_view w = peek_word();
  pos_ += w.size();
  return w;
}

bool Lexer::accept_keyword(std::string_view upper_kw) {
  std::string_view w = peek_word();
  if (w.size() != upper_kw.size()) return false;
  for (size_t i = 0; i < w.size(); ++i) {
    if (upper(w[i]) != upper_kw[i]) return false;
  }
  pos_ += w.size();
  return true;
}

Lexer::Number Lexer::read_decimal(uint64_t max, uint64_t* out) {
  if (!is_digit(peek())) return Number::kNone;
  uint64_t v = 0;
  bool too_large = false;
  while (is_digit(peek())) {
    unsigned d = unsigned(text_[pos_] - '0');
    if (d > max || v > (max - d) / 10) too_large = true;
    if (!too_large) v = v * 10 + d;
    ++pos_;
  }
  if (too_large) return Number::kTooLarge;
  *out = v;
  return Number::kOk;
}

Lexer::Number Lexer::read_hex(unsigned max_digits, uint64_t* out) {
  uint64_t v = 0;
  unsigned n = 0;
  while (hex_value(peek()) >= 0) {
    if (n < 16) v = v * 16 + unsigned(hex_value(text_[pos_]));
    ++n;
    ++pos_;
  }
  if (n == 0) return Number::kNone;
  if (n > max_digits) return Number::kTooLarge;
  *out = v;
  return Number::kOk;
}

Lexer::Number Lexer::read_c_integer(uint64_t* out) {
  if (!is_digit(peek())) return Number::kNone;
  if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X') && hex_value(peek(2)) >= 0) {
    pos_ += 2;
    size_t start = pos_;
    while (peek() == '0')
      ++pos_;  // leading zeros do not count against the 16 digits
    if (hex_value(peek()) < 0) {
      *out = 0;
      return pos_ > start ? Number::kOk : Number::kNone;
    }
    return read_hex(16, out);
  }
  if (peek() == '0') {
    uint64_t v = 0;
    bool too_large = false;
    while (peek() >= '0' && peek() <= '7') {
      unsigned d = unsigned(text_[pos_] - '0');
      if (v > (std::numeric_limits<uint64_t>::max() >> 3)) too_large = true;
      v = v * 8 + d;
      ++pos_;
    }
    if (too_large) return Number::kTooLarge;
    *out = v;
    return Number::kOk;
  }
  return read_decimal(std::numeric_limits<uint64_t>::max(), out);
}

Lexer::Number Lexer::read_float(bool allow_special, double* out) {
  size_t start = pos_;
  size_t p = pos_;
  bool negative = false;
  if (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) {
    negative = text_[p] == '-';
    ++p;
  }
  if (allow_special) {
    size_t end = p;
    while (end < text_.size() && is_word_char(text_[end]))
      ++end;
    std::string word;
    for (size_t i = p; i < end; ++i)
      word += upper(text_[i]);
    if (word == "INF" || word == "INFINITY" || word == "NAN") {
      pos_ = end;
      double v = word == "NAN" ? std::numeric_limits<double>::quiet_NaN()
                               : std::numeric_limits<double>::infinity();
      *out = negative ? -v : v;
      return Number::kOk;
    }
  }
  size_t digits_start = p;
  bool integral = false, fractional = false;
  while (p < text_.size() && is_digit(text_[p])) {
    ++p;
    integral = true;
  }
  if (p < text_.size() && text_[p] == '.') {
    ++p;
    while (p < text_.size() && is_digit(text_[p])) {
      ++p;
      fractional = true;
    }
  }
  if (!integral && !fractional) {
    pos_ = start;
    return Number::kNone;
  }
  bool negative_exponent = false;
  if (p < text_.size() && (text_[p] == 'e' || text_[p] == 'E')) {
    size_t q = p + 1;
    if (q < text_.size() && (text_[q] == '+' || text_[q] == '-')) {
      negative_exponent = text_[q] == '-';
      ++q;
    }
    if (q >= text_.size() || !is_digit(text_[q])) {
      pos_ = start;
      return Number::kNone;
    }
    while (q < text_.size() && is_digit(text_[q]))
      ++q;
    p = q;
  }
  double v = 0;
  auto r =
      std::from_chars(text_.data() + digits_start, text_.data() + p, v, std::chars_format::general);
  if (r.ec == std::errc::result_out_of_range) {
    // Like strtod: overflow gives infinity, underflow zero.
    v = negative_exponent ? 0.0 : std::numeric_limits<double>::infinity();
  } else if (r.ec != std::errc() || r.ptr != text_.data() + p) {
    pos_ = start;
    return Number::kNone;
  }
  pos_ = p;
  *out = negative ? -v : v;
  return Number::kOk;
}

SourceLoc Lexer::loc_at(size_t pos) const {
  pos = std::min(pos, text_.size());
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), pos);
  size_t line = size_t(it - line_starts_.begin());  // >= 1 because line_starts_[0] == 0
  size_t column = pos - line_starts_[line - 1] + 1;
  return SourceLoc{uint32_t(std::min<size_t>(line, UINT32_MAX)),
                   uint32_t(std::min<size_t>(column, UINT32_MAX))};
}

std::string describe_char(char c) {
  switch (c) {
    case '\0':
      return "end of text";
    case '\r':
      return "a carriage return (CR not followed by LF)";
    case '\n':
      return "end of line";
    default:
      break;
  }
  unsigned char u = static_cast<unsigned char>(c);
  if (u < 0x20 || u >= 0x7f) {
    static const char kHex[] = "0123456789abcdef";
    return std::string("byte 0x") + kHex[u >> 4] + kHex[u & 15];
  }
  return std::string("`") + c + "'";
}

}  // namespace clpipe::compiler
