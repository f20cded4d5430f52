// The exception type of clpipe's internals, and the checks that throw it.
//
// Runtime, compiler and frontend code throws runtime::Error; the public API methods
// catch it at the boundary and return its Status (src/frontend/api_guard.h).
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

#include "clpipe/status.h"
#include "runtime/cl.h"

namespace clpipe::runtime {

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  // An OpenCL call failed: the message names the call and the status.
  Error(cl_int cl_status, const char* call, const std::string& detail = {},
        std::string build_log = {});

  ErrorCode code() const { return code_; }
  cl_int cl_status() const { return cl_status_; }
  const std::string& call() const { return call_; }
  const std::string& build_log() const { return build_log_; }
  Status to_status() const { return Status(code_, what()); }

 private:
  ErrorCode code_;
  cl_int cl_status_ = CL_SUCCESS;
  std::string call_;
  std::string build_log_;
};

// "CL_OUT_OF_RESOURCES" for -5.
const char* cl_status_name(cl_int status);

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

// Throws Error for a failed OpenCL status; `call` names the call site.
inline void check_cl(cl_int status, const char* call) {
  if (status != CL_SUCCESS) throw Error(status, call);
}

}  // namespace clpipe::runtime

// CLP_CHECK(clFoo(...)) throws runtime::Error naming the call when it does not return
// CL_SUCCESS.
#define CLP_CHECK(expr) ::clpipe::runtime::check_cl((expr), #expr)
