// A deterministic mutation fuzzer for the vtest server: the client streams of every
// capture, with bit flips, lying length fields, truncations, huge counts, bad handles,
// corrupted virgl command headers and reordered messages, go through the real connection
// and decoder over the fake screen for a bounded time. Nothing may crash (the sanitizer
// build checks memory errors too), no invalid argument may reach the API (the fakes record
// violations), every rejection is a logged protocol error, and nothing leaks.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>

#include "vtest/capture.h"
#include "vtest/connection.h"
#include "vtest/fuzz_stream.h"
#include "vtest/vtest_test_util.h"

using namespace clpipe;
using namespace clpipe::vtest_test;

namespace {

// Time budget per run; CLPIPE_VTEST_FUZZ_SECONDS overrides it for longer local runs (e.g.
// under the sanitizers).
std::chrono::seconds budget() {
  const char* env = std::getenv("CLPIPE_VTEST_FUZZ_SECONDS");
  const long s = env ? std::strtol(env, nullptr, 10) : 0;
  return std::chrono::seconds(s > 0 && s <= 86400 ? s : 8);
}
constexpr uint64_t kSeed = 0x5eed1e55c0ffee11ull;

class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 7;
    s_ ^= s_ << 17;
    return s_;
  }
  uint32_t below(uint32_t n) { return n ? uint32_t(next() % n) : 0; }

 private:
  uint64_t s_;
};

using Messages = std::vector<std::vector<uint8_t>>;

// The client->server messages of every connection of every capture.
std::vector<Messages> load_seeds() {
  std::vector<Messages> seeds;
  for (const std::string& name : capture_names()) {
    auto c = read_capture(capture_dir() + "/" + name + ".vtcap.gz");
    REQUIRE(c);
    std::map<uint16_t, std::vector<uint8_t>> streams;
    for (const CaptureRecord& r : c.value().records)
      if (r.kind == RecordKind::DATA && r.dir == 0)
        streams[r.conn].insert(streams[r.conn].end(), r.payload.begin(), r.payload.end());
    for (auto& [conn, bytes] : streams) {
      Messages m;
      size_t off = 0;
      while (off < bytes.size()) {
        const uint64_t n = Connection::message_size(bytes.data() + off, bytes.size() - off);
        if (n == 0 || n > bytes.size() - off) break;
        m.emplace_back(bytes.begin() + long(off), bytes.begin() + long(off + n));
        off += size_t(n);
      }
      seeds.push_back(std::move(m));
    }
  }
  return seeds;
}

bool is_submit(const std::vector<uint8_t>& m) {
  return m.size() >= 8 && load_u32(m.data() + 4) == VtestCmd::SUBMIT_CMD;
}

uint32_t interesting(Rng& rng) {
  static constexpr uint32_t kValues[] = {
      0,   1,   2,      3,       4,          7,          8,          16,         31,       64,
      255, 256, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 1u << 20, 6};
  return rng.below(4) == 0 ? uint32_t(rng.next()) : kValues[rng.below(sizeof kValues / 4)];
}

void put_u32(std::vector<uint8_t>& m, size_t off, uint32_t v) {
  if (off + 4 <= m.size()) store_u32(m.data() + off, v);
}

// One mutation of a message list (by reference) or of the final byte stream (returned).
void mutate(Messages& msgs, Rng& rng) {
  if (msgs.empty()) return;
  // Most mutations hit SUBMIT_CMD payloads: that is where the decoder lives.
  std::vector<size_t> submits;
  for (size_t i = 0; i < msgs.size(); ++i)
    if (is_submit(msgs[i])) submits.push_back(i);
  const size_t pick = (!submits.empty() && rng.below(10) < 7)
                          ? submits[rng.below(uint32_t(submits.size()))]
                          : rng.below(uint32_t(msgs.size()));
  std::vector<uint8_t>& m = msgs[pick];
  const uint32_t dwords = uint32_t(m.size() / 4);
  switch (rng.below(7)) {
    case 0:  // bit flips
      for (uint32_t n = 1 + rng.below(8); n > 0 && !m.empty(); --n)
        m[rng.below(uint32_t(m.size()))] ^= uint8_t(1u << rng.below(8));
      break;
    case 1:  // a lying vtest length field
      put_u32(m, 0, rng.below(2) ? interesting(rng) : load_u32(m.data()) + rng.below(5) - 2);
      break;
    case 2:  // huge counts and sizes in the fields
      if (dwords > 2) put_u32(m, 4 * (2 + rng.below(dwords - 2)), interesting(rng));
      break;
    case 3:  // bad handles: small numbers that may or may not name something
      if (dwords > 2) put_u32(m, 4 * (2 + rng.below(dwords - 2)), rng.below(70));
      break;
    case 4:  // a corrupted virgl command header inside a submit
      if (is_submit(m) && dwords > 2) {
        std::vector<size_t> headers;
        for (size_t i = 2; i < dwords;) {
          headers.push_back(i);
          i += 1 + (load_u32(m.data() + 4 * i) >> 16);
        }
        const size_t h = headers[rng.below(uint32_t(headers.size()))];
        const uint32_t old = load_u32(m.data() + 4 * h);
        const uint32_t field = rng.below(3);
        const uint32_t v = field == 0   ? (old & ~0xffu) | rng.below(64)
                           : field == 1 ? (old & ~0xff00u) | (rng.below(13) << 8)
                                        : (old & 0xffffu) | (interesting(rng) << 16);
        put_u32(m, 4 * h, v);
      }
      break;
    case 5:  // truncate the message
      m.resize(rng.below(uint32_t(m.size()) + 1));
      break;
    case 6:  // drop, duplicate or swap whole messages
      if (rng.below(3) == 0) {
        msgs.erase(msgs.begin() + long(pick));
      } else if (rng.below(2)) {
        msgs.insert(msgs.begin() + long(pick), msgs[pick]);
      } else {
        std::swap(msgs[pick], msgs[rng.below(uint32_t(msgs.size()))]);
      }
      break;
  }
}

struct Outcome {
  bool protocol_error = false;
  size_t close_logs = 0;  // lines saying why the connection closed
  std::vector<std::string> violations;
  bool leak_free = true;
};

Outcome run(const std::vector<uint8_t>& stream) {
  Outcome o;
  LogRecorder rec;
  auto log = std::make_shared<FakeLog>();
  o.protocol_error = serve_fuzz_stream(stream.data(), stream.size(), log);
  // A stream that ends mid-message is the client leaving (info), the rest protocol errors.
  o.close_logs = rec.count("protocol error in") + rec.count(": disconnected in ");
  o.violations = log->violations;
  log->release_records();
  o.leak_free = log->leak_free();
  return o;
}

}  // namespace

TEST_CASE("vtest fuzz: mutated capture streams never crash, leak or reach the API unchecked",
          "[vtest][fuzz]") {
  const std::vector<Messages> seeds = load_seeds();
  REQUIRE(seeds.size() == 12);  // 11 captures, capture 10 has two connections
  Rng rng(kSeed);
  const auto start = std::chrono::steady_clock::now();
  size_t runs = 0, rejected = 0;
  const auto limit = budget();
  while (std::chrono::steady_clock::now() - start < limit || runs < 50) {
    Messages msgs = seeds[rng.below(uint32_t(seeds.size()))];
    for (uint32_t n = 1 + rng.below(3); n > 0; --n)
      mutate(msgs, rng);
    std::vector<uint8_t> stream;
    for (const auto& m : msgs)
      stream.insert(stream.end(), m.begin(), m.end());
    if (rng.below(8) == 0 && !stream.empty()) stream.resize(rng.below(uint32_t(stream.size())));
    const Outcome o = run(stream);
    ++runs;
    rejected += o.protocol_error;
    INFO("run " << runs);
    if (!o.violations.empty()) FAIL("invalid API argument: " << o.violations.front());
    REQUIRE(o.close_logs == (o.protocol_error ? 1u : 0u));
    REQUIRE(o.leak_free);
  }
  // The mutations must exercise both outcomes.
  CHECK(rejected > runs / 10);
  CHECK(rejected < runs);
  WARN("fuzz: " << runs << " mutated streams, " << rejected << " rejected with a protocol error");
}

TEST_CASE("vtest fuzz: the unmutated seeds are accepted", "[vtest][fuzz]") {
  for (const Messages& seed : load_seeds()) {
    std::vector<uint8_t> stream;
    for (const auto& m : seed)
      stream.insert(stream.end(), m.begin(), m.end());
    const Outcome o = run(stream);
    CHECK_FALSE(o.protocol_error);
    CHECK(o.violations.empty());
    CHECK(o.leak_free);
  }
}
