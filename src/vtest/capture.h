// Reader of vtest captures (.vtcap / .vtcap.gz, format in
// tests/data/vtest-captures/README.md): recorded client<->server byte streams, passed fds,
// shared-memory snapshots, notes and the client's result.
//
// Produced by shared/tools/vtest-capture/vtest_proxy.py; consumed by the replayer
// (replay.h) in tests and in clpipe-vtest --replay.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "clpipe/status.h"

namespace clpipe::frontend::vtest {

namespace RecordKind {
enum : uint8_t { DATA = 1, FD = 2, SHM = 3, NOTE = 4, RESULT = 5 };
}

struct CaptureRecord {
  uint8_t kind = 0;
  uint8_t dir = 0;  // 0 client -> server, 1 server -> client
  uint16_t conn = 0;
  std::vector<uint8_t> payload;
};

struct Capture {
  std::string meta_json;
  std::vector<CaptureRecord> records;
};

// Reads a capture (gzip-compressed or not). Fails with a message naming the file and the
// offset for anything malformed; the whole file is bounded to 1 GiB.
Result<Capture> read_capture(const std::string& path);
// The same from `size` bytes in memory (gzip-compressed or not); `name` names it in errors.
Result<Capture> parse_capture(const std::string& name, const uint8_t* bytes, size_t size);

}  // namespace clpipe::frontend::vtest
