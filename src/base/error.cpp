#include "base/error.h"

namespace clpipe {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk:
      return "Ok";
    case ErrorCode::kInvalidArgument:
      return "InvalidArgument";
    case ErrorCode::kUnsupported:
      return "Unsupported";
    case ErrorCode::kOutOfMemory:
      return "OutOfMemory";
    case ErrorCode::kCompileError:
      return "CompileError";
    case ErrorCode::kDeviceError:
      return "DeviceError";
    case ErrorCode::kNotReady:
      return "NotReady";
    case ErrorCode::kTimeout:
      return "Timeout";
  }
  return "Unknown";
}

std::string Status::to_string() const {
  if (is_ok()) return "Ok";
  return std::string(error_code_name(code_)) + ": " + message_;
}

}  // namespace clpipe
