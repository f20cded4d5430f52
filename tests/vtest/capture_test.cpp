// Captures parsed from memory (parse_capture, what clpipe-vtest --warm-cache reads its
// built-in sessions with) against the file reader, and malformed bytes: a clear error
// that names the capture, never a crash.
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "vtest/capture.h"
#include "vtest/vtest_test_util.h"

using namespace clpipe::frontend::vtest;
using namespace clpipe::vtest_test;

namespace {

std::vector<uint8_t> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void put_u32(std::vector<uint8_t>& v, uint32_t x) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(&x);
  v.insert(v.end(), p, p + 4);
}

}  // namespace

TEST_CASE("vtest capture: a gzip'ed capture parsed from memory equals the file read",
          "[vtest][capture]") {
  const std::string path = capture_dir() + "/05-texture2D.vtcap.gz";
  const std::vector<uint8_t> bytes = file_bytes(path);
  REQUIRE(bytes.size() > 2);
  auto from_file = read_capture(path);
  auto from_memory = parse_capture("05-texture2D", bytes.data(), bytes.size());
  REQUIRE(from_file);
  REQUIRE(from_memory);
  CHECK(from_memory.value().meta_json == from_file.value().meta_json);
  const auto& a = from_memory.value().records;
  const auto& b = from_file.value().records;
  REQUIRE(a.size() == b.size());
  REQUIRE(a.size() > 10);
  for (size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].kind == b[i].kind);
    CHECK(a[i].dir == b[i].dir);
    CHECK(a[i].conn == b[i].conn);
    CHECK(a[i].payload == b[i].payload);
  }
}

TEST_CASE("vtest capture: uncompressed bytes parse too, and malformed ones fail with the name",
          "[vtest][capture]") {
  // The smallest capture: magic, 2 bytes of metadata, one client->server DATA record.
  std::vector<uint8_t> raw = {'V', 'T', 'C', 'A', 'P', 0, 1, 0};
  put_u32(raw, 2);
  raw.push_back('{');
  raw.push_back('}');
  raw.insert(raw.end(), {1, 0, 7, 0});  // DATA, client -> server, connection 7
  put_u32(raw, 3);
  raw.insert(raw.end(), {0xa, 0xb, 0xc});
  auto ok = parse_capture("tiny", raw.data(), raw.size());
  REQUIRE(ok);
  CHECK(ok.value().meta_json == "{}");
  REQUIRE(ok.value().records.size() == 1);
  CHECK(ok.value().records[0].conn == 7);
  CHECK(ok.value().records[0].payload == std::vector<uint8_t>{0xa, 0xb, 0xc});

  auto fails_with = [](const std::vector<uint8_t>& bytes, const char* what) {
    auto r = parse_capture("the-session", bytes.data(), bytes.size());
    REQUIRE_FALSE(r);
    const std::string text = r.status().to_string();
    INFO(text);
    CHECK(text.find("the-session") != std::string::npos);
    CHECK(text.find(what) != std::string::npos);
  };
  // A record that claims more bytes than there are.
  std::vector<uint8_t> long_record = raw;
  long_record.resize(long_record.size() - 1);
  fails_with(long_record, "runs past the end");
  fails_with({'n', 'o', 't', ' ', 'a', ' ', 'c', 'a', 'p', 't', 'u', 'r', 'e'}, "bad magic");
  fails_with({}, "bad magic");

  // A gzip stream cut short, and one whose compressed bytes are damaged.
  const std::vector<uint8_t> gz = file_bytes(capture_dir() + "/05-texture2D.vtcap.gz");
  REQUIRE(gz.size() > 64);
  fails_with(std::vector<uint8_t>(gz.begin(), gz.begin() + long(gz.size() / 2)), "gzip");
  std::vector<uint8_t> damaged = gz;
  for (size_t i = 20; i < damaged.size() - 8; i += 7)
    damaged[i] ^= 0x5a;
  fails_with(damaged, "gzip");
}
