// The runtime's exception: a clpipe::Error (base/error.h) that can also carry a failed
// OpenCL call, its status and a program's build log.
#pragma once

#include <string>

#include "base/error.h"
#include "runtime/cl.h"

namespace clpipe::runtime {

class Error : public clpipe::Error {
 public:
  // An OpenCL call failed: the message names the call and the status.
  Error(cl_int cl_status, const char* call, const std::string& detail = {},
        std::string build_log = {});

  cl_int cl_status() const { return cl_status_; }
  const std::string& call() const { return call_; }
  const std::string& build_log() const { return build_log_; }

 private:
  cl_int cl_status_ = CL_SUCCESS;
  std::string call_;
  std::string build_log_;
};

// "CL_OUT_OF_RESOURCES" for -5.
const char* cl_status_name(cl_int status);

// Runtime code reports bad requests with the common checks (they throw clpipe::Error).
using clpipe::fail;
using clpipe::invalid;
using clpipe::unsupported;

// Throws Error for a failed OpenCL status; `call` names the call site.
inline void check_cl(cl_int status, const char* call) {
  if (status != CL_SUCCESS) throw Error(status, call);
}

}  // namespace clpipe::runtime

// CLP_CHECK(clFoo(...)) throws runtime::Error naming the call when it does not return
// CL_SUCCESS.
#define CLP_CHECK(expr) ::clpipe::runtime::check_cl((expr), #expr)
