// assemble_program: the one assembler of program text.
#include <catch2/catch.hpp>

#include "compiler/emit/program_text.h"

using namespace clpipe;

namespace {

// An #include directive left in the text (comments may mention the word).
bool has_include_directive(const std::string& s) {
  size_t pos = 0;
  while (pos < s.size()) {
    const size_t first = s.find_first_not_of(" \t", pos);
    if (first != std::string::npos && s.compare(first, 8, "#include") == 0) return true;
    const size_t eol = s.find('\n', pos);
    if (eol == std::string::npos) break;
    pos = eol + 1;
  }
  return false;
}

}  // namespace

TEST_CASE("program text: prelude, libraries, bodies and files in order, includes expanded",
          "[compiler][program_text]") {
  compiler::ProgramText t;
  t.prelude = "#define CLP_MARK_PRELUDE 1\n";
  t.bodies = {"// body one\n", "// body two\n"};
  t.files = {"fill.cl"};
  const std::string s = compiler::assemble_program(t);
  const size_t prelude = s.find("CLP_MARK_PRELUDE"), abi = s.find("// begin shader_abi.h"),
               format = s.find("// begin format.h"), one = s.find("// body one"),
               two = s.find("// body two"), fill = s.find("// begin fill.cl");
  REQUIRE(prelude != std::string::npos);
  REQUIRE(abi != std::string::npos);
  REQUIRE(format != std::string::npos);
  REQUIRE(one != std::string::npos);
  REQUIRE(two != std::string::npos);
  REQUIRE(fill != std::string::npos);
  CHECK(prelude < abi);
  CHECK(abi < format);
  CHECK(format < one);
  CHECK(one < two);
  CHECK(two < fill);
  // Everything is inlined: the device compiler needs no file system.
  CHECK_FALSE(has_include_directive(s));
}

TEST_CASE("program text: kernel files alone get no shader ABI", "[compiler][program_text]") {
  const std::string s = compiler::assemble_kernel_files({"scan.cl", "fill.cl"});
  CHECK(s.find("// begin shader_abi.h") == std::string::npos);
  const size_t scan = s.find("// begin scan.cl"), fill = s.find("// begin fill.cl");
  REQUIRE(scan != std::string::npos);
  REQUIRE(fill != std::string::npos);
  CHECK(scan < fill);
  CHECK_FALSE(has_include_directive(s));
}
