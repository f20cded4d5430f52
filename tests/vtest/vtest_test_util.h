// Helpers shared by the vtest tests: paths of the recorded captures, a builder for virgl
// command streams and vtest messages, a log recorder, and a decoder harness over the fake
// screen.
#pragma once

#include <catch2/catch.hpp>

#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "vtest/decoder.h"
#include "vtest/fake_context.h"
#include "vtest/formats.h"
#include "vtest/log.h"
#include "vtest/protocol.h"
#include "vtest/resources.h"

namespace clpipe::vtest_test {

using namespace clpipe::frontend::vtest;
using namespace clpipe::vtest_fake;

inline std::string capture_dir() {
  return CLPIPE_VTEST_CAPTURES_DIR;
}

inline const std::vector<std::string>& capture_names() {
  static const std::vector<std::string> names = {
      "01-fs-sign-neg",
      "02-vs-post-increment",
      "03-cmod-clear-probe-all",
      "04-vs-attrib-ivec4",
      "05-texture2D",
      "06-sampler2dshadow",
      "07-texture2D-proto-v0",
      "08-texture2D-gl33caps-no-cap-transfer",
      "09-vs-attrib-ivec4-gl33caps",
      "10-cmod-glx-window",
      "11-huge-shader-chunked",
  };
  return names;
}

// Records log messages while alive (and keeps them off stderr).
class LogRecorder {
 public:
  LogRecorder() {
    set_log_sink([this](LogLevel l, const std::string& m) { lines.emplace_back(l, m); });
  }
  ~LogRecorder() { set_log_sink(nullptr); }
  size_t count(const std::string& needle) const {
    size_t n = 0;
    for (const auto& [l, m] : lines)
      n += m.find(needle) != std::string::npos;
    return n;
  }
  std::vector<std::pair<LogLevel, std::string>> lines;
};

// A virgl command stream under construction.
struct Stream {
  std::vector<uint32_t> dw;
  Stream& cmd(uint32_t c, uint32_t obj, std::initializer_list<uint32_t> payload) {
    dw.push_back(ccmd_header(c, obj, uint32_t(payload.size())));
    dw.insert(dw.end(), payload);
    return *this;
  }
  Stream& raw(std::vector<uint32_t> payload_with_header) {
    dw.insert(dw.end(), payload_with_header.begin(), payload_with_header.end());
    return *this;
  }
};

inline uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Bytes of a vtest message: header [length, id] + payload dwords.
inline std::vector<uint8_t> message(uint32_t id, std::vector<uint32_t> payload,
                                    int64_t length_override = -1) {
  std::vector<uint32_t> all = {
      length_override >= 0 ? uint32_t(length_override) : uint32_t(payload.size()), id};
  all.insert(all.end(), payload.begin(), payload.end());
  std::vector<uint8_t> bytes(all.size() * 4);
  std::memcpy(bytes.data(), all.data(), bytes.size());
  return bytes;
}

// CREATE_RENDERER with a NUL-terminated name (its length field counts bytes).
inline std::vector<uint8_t> create_renderer_message(const std::string& name) {
  std::vector<uint8_t> m = message(VtestCmd::CREATE_RENDERER, {}, int64_t(name.size() + 1));
  m.insert(m.end(), name.begin(), name.end());
  m.push_back(0);
  return m;
}

// A Decoder over the fake screen with its resource table, as a connection would own them.
struct Harness {
  explicit Harness(FakeConfig cfg = gl33_config(), DecoderOptions opts = {})
      : log(std::make_shared<FakeLog>()),
        lazy([cfg, this]() -> Result<std::shared_ptr<Screen>> {
          return std::shared_ptr<Screen>(std::make_shared<FakeScreen>(cfg, log));
        }),
        resources(limits),
        decoder(std::make_unique<Decoder>(lazy, resources, limits, opts, "test")) {}

  // The log's records reference surfaces and resources, which reference the log: break the
  // cycle once the decoder is gone.
  ~Harness() {
    decoder.reset();
    log->release_records();
  }

  // A resource with shared memory of its guest layout size.
  VtestResource& resource(uint32_t handle, TextureTarget target, Format format, uint32_t w,
                          uint32_t h = 1, uint32_t d = 1, uint32_t layers = 1,
                          uint32_t last_level = 0, bool shm = true) {
    const uint32_t f[10] = {
        handle, uint32_t(target), format_to_virgl(format), 0, w, h, d, layers, last_level, 0};
    const ResourceDesc desc = validate_resource(f);
    const uint64_t size = shm ? GuestLayout(desc).total_bytes() : 0;
    return resources.create(lazy.get(), desc, size);
  }
  void submit(const Stream& s) { decoder->submit(s.dw.data(), s.dw.size()); }
  // The ProtocolError message of a submit, or "" when it succeeded.
  std::string submit_error(const Stream& s) {
    try {
      submit(s);
    } catch (const ProtocolError& e) {
      return e.what();
    }
    return "";
  }
  FakeResource* host(uint32_t handle) { return fake(resources.get(handle, "test").host); }

  FakeLogRef log;
  Limits limits;
  LazyScreen lazy;
  ResourceTable resources;
  std::unique_ptr<Decoder> decoder;
};

}  // namespace clpipe::vtest_test
