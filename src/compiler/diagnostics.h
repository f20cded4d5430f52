// Compiler diagnostics: source locations, messages, and the one exception type of the
// TGSI front-end.
//
// Error policy (the same for every stage of src/compiler): each entry point throws
// CompileError when the input is bad. The parser stops at the first syntax error (one
// diagnostic); validate() collects every problem it finds (up to kMaxDiagnostics) and
// throws them together. A CompileError is a clpipe::Error with ErrorCode::kCompileError,
// so the API boundary turns it into a Status like any other internal error; tools print
// diagnostics() one per line as "file:line:col: message".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/error.h"

namespace clpipe::compiler {

// A position in TGSI text: 1-based line and column (column counts bytes). {0, 0} = no
// position (IR built by code rather than parsed).
struct SourceLoc {
  uint32_t line = 0;
  uint32_t column = 0;
  bool is_valid() const { return line != 0 && column != 0; }
};

struct Diagnostic {
  SourceLoc loc;
  std::string message;
  // "12:7: unknown opcode `FOO'" (without a position when loc is not valid).
  std::string to_string() const;
};

// validate() stops collecting after this many diagnostics (the last one says so).
constexpr size_t kMaxDiagnostics = 100;

class CompileError : public clpipe::Error {
 public:
  explicit CompileError(std::vector<Diagnostic> diagnostics);
  CompileError(SourceLoc loc, const std::string& message)
      : CompileError(std::vector<Diagnostic>{Diagnostic{loc, message}}) {}
  // Never empty.
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace clpipe::compiler
