// SHA-256 (FIPS 180-4): the hash of disk-cache keys and of cache-entry payloads.
// A cryptographic hash because the key names a file that is trusted once its checksum
// matches: two programs must never share an entry.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace clpipe::runtime {

class Sha256 {
 public:
  Sha256();
  // `portable`: the portable rounds even where the processor has SHA extensions (tests
  // compare the two).
  explicit Sha256(bool portable) : Sha256() { portable_ = portable; }
  void update(const void* data, size_t size);
  void update(std::string_view s) { update(s.data(), s.size()); }
  // Feeds a length-prefixed field so that ("ab","c") and ("a","bc") hash differently.
  void update_field(std::string_view s);
  std::array<uint8_t, 32> finish();

  static std::array<uint8_t, 32> of(std::string_view s);
  static std::string hex(const std::array<uint8_t, 32>& digest);
  // Whether this processor runs the SHA-extension rounds.
  static bool accelerated();

 private:
  void blocks(const uint8_t* p, size_t n);
  void block(const uint8_t* p);
  uint32_t h_[8];
  bool portable_ = false;
  uint8_t buf_[64];
  size_t buf_len_ = 0;
  uint64_t total_ = 0;
};

}  // namespace clpipe::runtime
