// The error boundary of the public API: runs a method body and turns whatever it throws
// into a Status (or a Result).
//
// Producers: every public Screen / Context method wraps its body in guard() or
// guard_result(). Inside, code throws clpipe::Error (base/error.h) with the
// ErrorCode it means; std::bad_alloc becomes kOutOfMemory and any other exception
// kDeviceError, so nothing escapes the API. Bodies validate before they change state, so
// a failed call leaves the object as it was.
#pragma once

#include <exception>
#include <new>
#include <string>
#include <utility>

#include "base/error.h"
#include "clpipe/status.h"

namespace clpipe::frontend {

namespace detail {

// The Status for the exception being handled; call only inside a catch block.
inline Status current_exception_status(const char* call) noexcept {
  try {
    try {
      throw;
    } catch (const clpipe::Error& e) {
      return Status(e.code(), std::string(call) + ": " + e.what());
    } catch (const std::bad_alloc&) {
      return Status(ErrorCode::kOutOfMemory, std::string(call) + ": out of host memory");
    } catch (const std::exception& e) {
      return Status(ErrorCode::kDeviceError, std::string(call) + ": internal error: " + e.what());
    } catch (...) {
      return Status(ErrorCode::kDeviceError, std::string(call) + ": unknown internal error");
    }
  } catch (...) {
    // Building the message itself failed (no memory for the string).
    return Status(ErrorCode::kOutOfMemory, std::string());
  }
}

}  // namespace detail

// Runs body(); a throw becomes the returned Status, prefixed with the call's name.
template <typename Body>
Status guard(const char* call, Body&& body) noexcept {
  try {
    body();
    return Status();
  } catch (...) {
    return detail::current_exception_status(call);
  }
}

// Runs body(), which returns a T, or throws.
template <typename T, typename Body>
Result<T> guard_result(const char* call, Body&& body) noexcept {
  try {
    return Result<T>(body());
  } catch (...) {
    return Result<T>(detail::current_exception_status(call));
  }
}

}  // namespace clpipe::frontend
