// The exception type of clpipe's internals, and the checks that throw it.
//
// Every layer (compiler, runtime, frontend) throws clpipe::Error or a type derived from
// it: compiler::CompileError (bad shader text), runtime::Error (a failed OpenCL call,
// which also carries the call and its status). The public API methods catch it at the
// boundary and return its Status (src/frontend/api_guard.h). This header needs no
// OpenCL, so the compiler layer can use it.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

#include "clpipe/status.h"

namespace clpipe {

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}

  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

// Builds a message from stream-able parts: fail(ErrorCode::kInvalidArgument, "level ", l).
template <typename... Parts>
[[noreturn]] void fail(ErrorCode code, const Parts&... parts) {
  std::ostringstream os;
  (os << ... << parts);
  throw Error(code, os.str());
}

template <typename... Parts>
[[noreturn]] void invalid(const Parts&... parts) {
  fail(ErrorCode::kInvalidArgument, parts...);
}

template <typename... Parts>
[[noreturn]] void unsupported(const Parts&... parts) {
  fail(ErrorCode::kUnsupported, parts...);
}

}  // namespace clpipe
