// .vtcap(.gz) reader (see capture.h). zlib's gz* functions read both compressed and
// plain files.
#include "vtest/capture.h"

#include <zlib.h>

#include <cstring>
#include <memory>

namespace clpipe::frontend::vtest {
namespace {

constexpr size_t kMaxCaptureBytes = size_t(1) << 30;
constexpr char kMagic[8] = {'V', 'T', 'C', 'A', 'P', 0, 1, 0};

Status bad(const std::string& path, const std::string& what) {
  return Status(ErrorCode::kInvalidArgument, path + ": " + what);
}

uint32_t u32_at(const std::vector<uint8_t>& d, size_t off) {
  uint32_t v;
  std::memcpy(&v, d.data() + off, 4);
  return v;
}

// The records of an uncompressed capture.
Result<Capture> decode_capture(const std::string& path, const std::vector<uint8_t>& data) {
  if (data.size() < 12 || std::memcmp(data.data(), kMagic, 8) != 0)
    return bad(path, "not a vtest capture (bad magic)");
  Capture c;
  const uint32_t meta_len = u32_at(data, 8);
  if (meta_len > data.size() - 12) return bad(path, "metadata runs past the end");
  c.meta_json.assign(reinterpret_cast<const char*>(data.data()) + 12, meta_len);
  size_t off = 12 + size_t(meta_len);
  while (off < data.size()) {
    if (data.size() - off < 8)
      return bad(path, "truncated record header at " + std::to_string(off));
    CaptureRecord r;
    r.kind = data[off];
    r.dir = data[off + 1];
    std::memcpy(&r.conn, data.data() + off + 2, 2);
    const uint32_t len = u32_at(data, off + 4);
    off += 8;
    if (len > data.size() - off)
      return bad(path, "record at " + std::to_string(off - 8) + " runs past the end");
    if (r.kind < RecordKind::DATA || r.kind > RecordKind::RESULT || r.dir > 1)
      return bad(path, "unknown record kind/dir at " + std::to_string(off - 8));
    r.payload.assign(data.begin() + long(off), data.begin() + long(off + len));
    off += len;
    c.records.push_back(std::move(r));
  }
  return c;
}

}  // namespace

Result<Capture> read_capture(const std::string& path) {
  std::unique_ptr<gzFile_s, int (*)(gzFile)> f(gzopen(path.c_str(), "rb"), gzclose);
  if (!f) return bad(path, "cannot open");
  std::vector<uint8_t> data;
  uint8_t chunk[1 << 16];
  for (;;) {
    const int n = gzread(f.get(), chunk, sizeof chunk);
    if (n < 0) return bad(path, "read error (corrupt gzip stream?)");
    if (n == 0) break;
    data.insert(data.end(), chunk, chunk + n);
    if (data.size() > kMaxCaptureBytes) return bad(path, "larger than 1 GiB");
  }
  return decode_capture(path, data);
}

Result<Capture> parse_capture(const std::string& name, const uint8_t* bytes, size_t size) {
  if (size < 2 || bytes[0] != 0x1f || bytes[1] != 0x8b)
    return decode_capture(name, std::vector<uint8_t>(bytes, bytes + size));
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return bad(name, "cannot start zlib");
  std::unique_ptr<z_stream, int (*)(z_stream*)> end(&z, inflateEnd);
  z.next_in = const_cast<Bytef*>(bytes);
  z.avail_in = uInt(size);
  std::vector<uint8_t> data;
  uint8_t chunk[1 << 16];
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    z.next_out = chunk;
    z.avail_out = sizeof chunk;
    rc = inflate(&z, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) return bad(name, "corrupt gzip stream");
    data.insert(data.end(), chunk, chunk + (sizeof chunk - z.avail_out));
    if (data.size() > kMaxCaptureBytes) return bad(name, "larger than 1 GiB");
    if (rc == Z_OK && z.avail_in == 0 && z.avail_out != 0)
      return bad(name, "truncated gzip stream");
  }
  return decode_capture(name, data);
}

}  // namespace clpipe::frontend::vtest
