// Status and Result: how every fallible call of the public API reports failure.
//
// The public API (Screen, Context) is the error boundary of clpipe: no exception
// escapes it. A call that can fail returns Status (or Result<T> when it also produces
// a value); the message says what was wrong in words a user can act on. Internally the
// runtime and the compiler throw; the API methods catch and convert (see
// src/frontend/api_guard.h).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace clpipe {

enum class ErrorCode {
  kOk = 0,
  kInvalidArgument,  // the caller broke a rule of the API (bad enum, box out of range, ...)
  kUnsupported,      // valid request that clpipe or the device cannot do (format, feature)
  kOutOfMemory,      // host or device allocation failed
  kCompileError,     // shader text did not parse or translate, or the program did not build
  kDeviceError,      // an OpenCL call failed for a reason that is not the caller's
  kNotReady,         // result not available yet (query without wait, DONTBLOCK map)
  kTimeout,          // fence_finish timed out
};

const char* error_code_name(ErrorCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status ok() { return Status(); }

  bool is_ok() const { return code_ == ErrorCode::kOk; }
  explicit operator bool() const { return is_ok(); }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "InvalidArgument: box exceeds level 0 (width 16)".
  std::string to_string() const;

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
};

// A value or the Status saying why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Status status) : v_(std::move(status)) {}

  bool is_ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return is_ok(); }
  // The error; an ok Status when there is a value.
  Status status() const { return is_ok() ? Status() : std::get<Status>(v_); }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace clpipe
