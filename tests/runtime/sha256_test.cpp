#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

#include "runtime/sha256.h"

using clpipe::runtime::Sha256;

TEST_CASE("SHA-256 matches the FIPS 180-4 test vectors", "[runtime][hash]") {
  CHECK(Sha256::hex(Sha256::of("")) ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(Sha256::hex(Sha256::of("abc")) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(Sha256::hex(Sha256::of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // A million 'a', fed in uneven pieces to cross block boundaries.
  Sha256 h;
  std::string chunk(997, 'a');
  size_t left = 1000000;
  while (left > 0) {
    size_t n = std::min(left, chunk.size());
    h.update(chunk.data(), n);
    left -= n;
  }
  CHECK(Sha256::hex(h.finish()) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("length-prefixed fields keep field boundaries", "[runtime][hash]") {
  Sha256 a, b;
  a.update_field("ab");
  a.update_field("c");
  b.update_field("a");
  b.update_field("bc");
  CHECK(a.finish() != b.finish());
}

TEST_CASE("the SHA-extension rounds give the portable rounds' digests", "[runtime][hash]") {
  // Where the processor has no SHA extensions both are the portable rounds; the FIPS
  // vectors above then test the only path there is.
  INFO("SHA extensions used: " << Sha256::accelerated());
  std::string data(5000, '\0');
  uint32_t x = 12345;
  for (char& c : data) {
    x = x * 1664525u + 1013904223u;
    c = char(x >> 24);
  }
  for (size_t n = 0; n <= data.size(); n += 61) {
    Sha256 fast, portable(true);
    // Uneven pieces: a partial block first, then whole blocks straight from the input.
    const size_t first = std::min(n, size_t(13));
    fast.update(data.data(), first);
    fast.update(data.data() + first, n - first);
    portable.update(data.data(), n);
    REQUIRE(Sha256::hex(fast.finish()) == Sha256::hex(portable.finish()));
  }
}
