// Checked access to untrusted wire data: the ProtocolError every decoder throws, bit-field
// helpers, and Payload, a bounds-checked view of one virgl command's dwords.
//
// Producers: the connection (vtest messages) and the submit walker (virgl commands) build
// Payloads over bytes received from a client. Consumers: every decode_*.cpp. A
// ProtocolError means "this client sent something malformed"; the connection catches it,
// logs it with the client and command, and closes that client's connection.
#pragma once

#include <cstdint>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>

namespace clpipe::frontend::vtest {

class ProtocolError : public std::runtime_error {
 public:
  explicit ProtocolError(const std::string& what) : std::runtime_error(what) {}
};

template <typename... Parts>
[[noreturn]] void protocol_error(const Parts&... parts) {
  std::ostringstream os;
  (os << ... << parts);
  throw ProtocolError(os.str());
}

// Bits lo..lo+n-1 of v (n <= 32).
inline uint32_t bits(uint32_t v, unsigned lo, unsigned n) {
  return n >= 32 ? (v >> lo) : ((v >> lo) & ((1u << n) - 1u));
}

inline float as_float(uint32_t v) {
  float f;
  std::memcpy(&f, &v, sizeof f);
  return f;
}

inline uint32_t load_u32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);  // the wire and every supported host are little-endian
  return v;
}

inline void store_u32(uint8_t* p, uint32_t v) {
  std::memcpy(p, &v, sizeof v);
}

// One virgl command's payload: dwords d1..d(len) in the numbering of the doc (d1 is the
// first dword after the header). Every access is range-checked; a short command is a
// ProtocolError naming the missing dword.
class Payload {
 public:
  Payload(const uint32_t* dwords, uint32_t len) : d_(dwords), len_(len) {}

  uint32_t len() const { return len_; }
  // d(i), 1 <= i <= len.
  uint32_t operator[](uint32_t i) const {
    if (i == 0 || i > len_) protocol_error("command too short: needs dword ", i, ", has ", len_);
    return d_[i - 1];
  }
  float f(uint32_t i) const { return as_float((*this)[i]); }
  // Pointer to d(first) with count dwords after it available; count may be 0.
  const uint32_t* span(uint32_t first, uint32_t count) const {
    if (first == 0 || uint64_t(first) - 1 + count > len_)
      protocol_error("command too short: needs dwords ", first, "..", uint64_t(first) + count - 1,
                     ", has ", len_);
    return d_ + (first - 1);
  }

  void expect_len(uint32_t n) const {
    if (len_ != n) protocol_error("bad length ", len_, " (expected ", n, ")");
  }
  void expect_len_at_least(uint32_t n) const {
    if (len_ < n) protocol_error("bad length ", len_, " (expected at least ", n, ")");
  }

 private:
  const uint32_t* d_;
  uint32_t len_;
};

}  // namespace clpipe::frontend::vtest
