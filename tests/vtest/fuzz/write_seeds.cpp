// Writes the fuzz target's seed corpus: the client->server byte stream of every
// connection of the recorded captures (tests/data/vtest-captures) and of the sessions
// that once crashed, hung or over-allocated the server (tests/data/vtest-repro), one file
// per stream, into the folder given as the only argument.
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "vtest/capture.h"

using namespace clpipe::frontend::vtest;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT-FOLDER\n", argv[0]);
    return 2;
  }
  const std::string out = argv[1];
  const char* captures[] = {CLPIPE_FUZZ_SEED_CAPTURES};
  int written = 0;
  for (const char* path : captures) {
    auto c = read_capture(path);
    if (!c) {
      std::fprintf(stderr, "%s: %s\n", path, c.status().message().c_str());
      return 1;
    }
    std::map<uint16_t, std::vector<uint8_t>> streams;
    for (const CaptureRecord& r : c.value().records)
      if (r.kind == RecordKind::DATA && r.dir == 0)
        streams[r.conn].insert(streams[r.conn].end(), r.payload.begin(), r.payload.end());
    std::string base = path;
    base = base.substr(base.find_last_of('/') + 1);
    base = base.substr(0, base.find('.'));
    for (const auto& [conn, bytes] : streams) {
      std::ofstream f(out + "/" + base + "-" + std::to_string(conn) + ".bin", std::ios::binary);
      f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
      if (!f) {
        std::fprintf(stderr, "cannot write into %s\n", out.c_str());
        return 1;
      }
      ++written;
    }
  }
  std::printf("%d seed streams written to %s\n", written, out.c_str());
  return 0;
}
