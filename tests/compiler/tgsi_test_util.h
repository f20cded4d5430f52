// Helpers for the compiler tests: parse or validate TGSI text and get the IR or the
// diagnostics, and find the shared corpus (tests/compiler/*_test.cpp).
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/diagnostics.h"
#include "compiler/ir.h"
#include "compiler/tgsi/parser.h"
#include "compiler/validate.h"

namespace clpipe::compiler::test {

// Parses text that must be valid syntax (fails the test with the diagnostic otherwise);
// valid() also validates; parse_error() returns the one diagnostic of text that must not
// parse; validate_errors() the diagnostics of text that parses but must not validate.
// has_diag() is true if some diagnostic is at line:column and contains `part`.
// corpus_*: the TGSI corpus (tests/data/tgsi-corpus.tar.gz, unpacked into the build tree).
inline std::string join_diagnostics(const std::vector<Diagnostic>& diags) {
  std::string s;
  for (const Diagnostic& d : diags)
    s += d.to_string() + "\n";
  return s;
}

inline Shader parse_ok(const std::string& text) {
  try {
    return parse_tgsi(text);
  } catch (const CompileError& e) {
    FAIL_CHECK("unexpected parse error: " << e.what() << "\nin:\n" << text);
    throw;
  }
}

inline Shader valid(const std::string& text) {
  Shader s = parse_ok(text);
  try {
    validate(s);
  } catch (const CompileError& e) {
    FAIL_CHECK("unexpected validation error:\n"
               << join_diagnostics(e.diagnostics()) << "in:\n"
               << text);
    throw;
  }
  return s;
}

inline Diagnostic parse_error(const std::string& text) {
  try {
    parse_tgsi(text);
  } catch (const CompileError& e) {
    REQUIRE(e.diagnostics().size() == 1);
    return e.diagnostics()[0];
  }
  FAIL("text parsed but should not have:\n" << text);
  return {};
}

inline std::vector<Diagnostic> validate_errors(const std::string& text) {
  Shader s = parse_ok(text);
  try {
    validate(s);
  } catch (const CompileError& e) {
    return e.diagnostics();
  }
  FAIL("shader validated but should not have:\n" << text);
  return {};
}

inline bool has_diag(const std::vector<Diagnostic>& diags, uint32_t line, uint32_t column,
                     const std::string& part) {
  for (const Diagnostic& d : diags) {
    if (d.loc.line == line && d.loc.column == column && d.message.find(part) != std::string::npos) {
      return true;
    }
  }
  UNSCOPED_INFO("diagnostics:\n" << join_diagnostics(diags));
  return false;
}

inline std::string corpus_dir() {
  return CLPIPE_TGSI_CORPUS_DIR;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::vector<std::string> corpus_files() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(corpus_dir())) {
    if (e.path().extension() == ".tgsi") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

inline std::string corpus_shader(const std::string& name) {
  return read_text(corpus_dir() + "/" + name);
}

}  // namespace clpipe::compiler::test
