// Tests of the TGSI scanner (src/compiler/tgsi/lexer.h).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "compiler/tgsi/lexer.h"

using namespace clpipe::compiler;

TEST_CASE("lexer whitespace: space, tab, newline, CR LF but not a lone CR", "[compiler][lexer]") {
  Lexer a(" \t\n\r\nX");
  CHECK(a.skip_space());
  CHECK(a.peek() == 'X');
  CHECK(a.loc().line == 3);
  CHECK(a.loc().column == 1);

  Lexer b("\rX");
  CHECK_FALSE(b.skip_space());
  CHECK(b.peek() == '\r');
  CHECK(describe_char('\r').find("carriage return") != std::string::npos);

  Lexer c("A B");
  CHECK_FALSE(c.skip_space());
  CHECK(c.peek_after_space() == 'A');
  c.read_word();
  CHECK(c.peek_after_space() == 'B');
  CHECK(c.pos() == 1);  // peek_after_space does not move
}

TEST_CASE("lexer stops at NUL and reports end of text", "[compiler][lexer]") {
  std::string text("MOV\0GARBAGE", 11);
  Lexer lx(text);
  CHECK(lx.text().size() == 3);
  CHECK(lx.read_word() == "MOV");
  CHECK(lx.at_end());
  CHECK(lx.peek() == '\0');
  CHECK(describe_char('\0') == "end of text");
}

TEST_CASE("lexer words and keywords", "[compiler][lexer]") {
  Lexer lx("dcl 2D_ARRAY,IMM[0]");
  CHECK(lx.accept_keyword("DCL"));
  lx.skip_space();
  CHECK_FALSE(lx.accept_keyword("2D"));  // whole words only
  CHECK(lx.read_word() == "2D_ARRAY");
  CHECK(lx.accept(','));
  CHECK_FALSE(lx.accept_keyword("IM"));
  CHECK(lx.accept_keyword("IMM"));
  CHECK(lx.peek() == '[');
}

TEST_CASE("lexer decimal numbers with limits", "[compiler][lexer]") {
  uint64_t v = 0;
  Lexer a("4294967295 4294967296 x");
  CHECK(a.read_decimal(UINT32_MAX, &v) == Lexer::Number::kOk);
  CHECK(v == 4294967295u);
  a.skip_space();
  CHECK(a.read_decimal(UINT32_MAX, &v) == Lexer::Number::kTooLarge);
  CHECK(a.peek() == ' ');  // the digits were consumed
  a.skip_space();
  CHECK(a.read_decimal(UINT32_MAX, &v) == Lexer::Number::kNone);

  Lexer b("99999999999999999999999999999999");
  CHECK(b.read_decimal(UINT64_MAX, &v) == Lexer::Number::kTooLarge);
  // A single digit above a small limit.
  Lexer c("4 3");
  CHECK(c.read_decimal(3, &v) == Lexer::Number::kTooLarge);
  c.skip_space();
  CHECK(c.read_decimal(3, &v) == Lexer::Number::kOk);
  CHECK(v == 3);
}

TEST_CASE("lexer C integers: hex, octal, decimal", "[compiler][lexer]") {
  uint64_t v = 0;
  Lexer a("0x1F 017 0 18446744073709551615 0x10000000000000000");
  CHECK(a.read_c_integer(&v) == Lexer::Number::kOk);
  CHECK(v == 31);
  a.skip_space();
  CHECK(a.read_c_integer(&v) == Lexer::Number::kOk);
  CHECK(v == 15);
  a.skip_space();
  CHECK(a.read_c_integer(&v) == Lexer::Number::kOk);
  CHECK(v == 0);
  a.skip_space();
  CHECK(a.read_c_integer(&v) == Lexer::Number::kOk);
  CHECK(v == UINT64_MAX);
  a.skip_space();
  CHECK(a.read_c_integer(&v) == Lexer::Number::kTooLarge);
}

TEST_CASE("lexer floats", "[compiler][lexer]") {
  double d = 0;
  Lexer a("1.5 -0.25 .5 3. 1e3 2.5E-2 +7 1e400 1e-400");
  auto next = [&](double expect) {
    a.skip_space();
    REQUIRE(a.read_float(false, &d) == Lexer::Number::kOk);
    CHECK(d == expect);
  };
  next(1.5);
  next(-0.25);
  next(0.5);
  next(3.0);
  next(1000.0);
  next(0.025);
  next(7.0);
  a.skip_space();
  REQUIRE(a.read_float(false, &d) == Lexer::Number::kOk);
  CHECK(std::isinf(d));
  a.skip_space();
  REQUIRE(a.read_float(false, &d) == Lexer::Number::kOk);
  CHECK(d == 0.0);

  Lexer b("1e");
  CHECK(b.read_float(false, &d) == Lexer::Number::kNone);
  CHECK(b.pos() == 0);
  Lexer c(".");
  CHECK(c.read_float(false, &d) == Lexer::Number::kNone);
  Lexer e("-inf nan");
  CHECK(e.read_float(false, &d) == Lexer::Number::kNone);
  CHECK(e.read_float(true, &d) == Lexer::Number::kOk);
  CHECK(std::isinf(d));
  CHECK(d < 0);
  e.skip_space();
  CHECK(e.read_float(true, &d) == Lexer::Number::kOk);
  CHECK(std::isnan(d));
}

TEST_CASE("lexer hex digits with a digit limit", "[compiler][lexer]") {
  uint64_t v = 0;
  Lexer a("3f800000");
  CHECK(a.read_hex(8, &v) == Lexer::Number::kOk);
  CHECK(v == 0x3f800000u);
  Lexer b("3f8000001");
  CHECK(b.read_hex(8, &v) == Lexer::Number::kTooLarge);
}

TEST_CASE("lexer locations count lines and byte columns", "[compiler][lexer]") {
  Lexer lx("VERT\nDCL IN[0]\r\n  END");
  CHECK(lx.loc_at(0).line == 1);
  CHECK(lx.loc_at(0).column == 1);
  CHECK(lx.loc_at(5).line == 2);
  CHECK(lx.loc_at(9).column == 5);  // 'I' of IN
  CHECK(lx.loc_at(18).line == 3);
  CHECK(lx.loc_at(18).column == 3);  // E of END
  CHECK(lx.loc_at(1000).line == 3);  // clamped to the end
}
