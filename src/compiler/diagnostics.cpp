// Diagnostic formatting and CompileError (diagnostics.h).
#include "compiler/diagnostics.h"

namespace clpipe::compiler {

namespace {

std::string join(const std::vector<Diagnostic>& diagnostics) {
  std::string s;
  for (size_t i = 0; i < diagnostics.size(); ++i) {
    if (i) s += '\n';
    s += diagnostics[i].to_string();
  }
  return s;
}

std::vector<Diagnostic> non_empty(std::vector<Diagnostic> diagnostics) {
  if (diagnostics.empty()) diagnostics.push_back({SourceLoc{}, "compile error"});
  return diagnostics;
}

}  // namespace

std::string Diagnostic::to_string() const {
  if (!loc.is_valid()) return message;
  return std::to_string(loc.line) + ":" + std::to_string(loc.column) + ": " + message;
}

CompileError::CompileError(std::vector<Diagnostic> diagnostics)
    : clpipe::Error(ErrorCode::kCompileError, join(non_empty(diagnostics))),
      diagnostics_(non_empty(std::move(diagnostics))) {}

}  // namespace clpipe::compiler
