// PNG encoding with stored deflate blocks (see png_writer.h). References: PNG
// specification (ISO/IEC 15948) chunks IHDR/IDAT/IEND; RFC 1950 (zlib) and RFC 1951
// section 3.2.4 (stored blocks: BFINAL/BTYPE=00 header byte, LEN, NLEN, raw bytes).
#include "png_writer.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace clpipe::demo {

namespace {

std::array<uint32_t, 256> make_crc_table() {
  std::array<uint32_t, 256> t{};
  for (uint32_t n = 0; n < 256; ++n) {
    uint32_t c = n;
    for (int k = 0; k < 8; ++k)
      c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    t[n] = c;
  }
  return t;
}

void put_be32(std::vector<uint8_t>& out, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8)
    out.push_back(uint8_t(v >> s));
}

// Appends a chunk: length, type, data, CRC over type and data.
void put_chunk(std::vector<uint8_t>& out, const char type[4], const std::vector<uint8_t>& data) {
  put_be32(out, uint32_t(data.size()));
  const size_t type_at = out.size();
  out.insert(out.end(), type, type + 4);
  out.insert(out.end(), data.begin(), data.end());
  put_be32(out, crc32(out.data() + type_at, out.size() - type_at));
}

}  // namespace

uint32_t crc32(const uint8_t* data, size_t size, uint32_t crc) {
  static const std::array<uint32_t, 256> table = make_crc_table();
  uint32_t c = crc ^ 0xffffffffu;
  for (size_t i = 0; i < size; ++i)
    c = table[(c ^ data[i]) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

uint32_t adler32(const uint8_t* data, size_t size) {
  // 5552 bytes is the most that can be summed before a 32-bit b can overflow (zlib's NMAX).
  uint32_t a = 1, b = 0;
  while (size > 0) {
    const size_t n = size < 5552 ? size : 5552;
    for (size_t i = 0; i < n; ++i) {
      a += data[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
    data += n;
    size -= n;
  }
  return (b << 16) | a;
}

std::vector<uint8_t> encode_png_rgb(const uint8_t* rgb, uint32_t width, uint32_t height) {
  if (width == 0 || height == 0 || width > 0x7fffffffu || height > 0x7fffffffu) {
    throw std::invalid_argument("PNG size must be 1..2^31-1 in each direction");
  }
  // Scanlines: a filter byte (0 = none) before each row.
  const size_t row = size_t(width) * 3;
  std::vector<uint8_t> raw;
  raw.reserve((row + 1) * height);
  for (uint32_t y = 0; y < height; ++y) {
    raw.push_back(0);
    raw.insert(raw.end(), rgb + y * row, rgb + (y + 1) * row);
  }

  // zlib stream: CMF/FLG (deflate, 32K window, no dictionary; 0x7801 is a multiple of 31),
  // stored blocks of at most 65535 bytes, Adler-32 of the raw data.
  std::vector<uint8_t> z = {0x78, 0x01};
  z.reserve(raw.size() + raw.size() / 65535 * 5 + 16);
  size_t at = 0;
  do {
    const size_t n = std::min<size_t>(raw.size() - at, 65535);
    const bool last = at + n == raw.size();
    z.push_back(last ? 1 : 0);  // BFINAL, BTYPE = 00 (stored)
    z.push_back(uint8_t(n));
    z.push_back(uint8_t(n >> 8));
    z.push_back(uint8_t(~n));
    z.push_back(uint8_t(~n >> 8));
    z.insert(z.end(), raw.begin() + at, raw.begin() + at + n);
    at += n;
  } while (at < raw.size());
  put_be32(z, adler32(raw.data(), raw.size()));

  std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::vector<uint8_t> ihdr;
  put_be32(ihdr, width);
  put_be32(ihdr, height);
  // Bit depth 8, colour type 2 (RGB), compression 0, filter method 0, no interlace.
  ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0});
  put_chunk(png, "IHDR", ihdr);
  put_chunk(png, "IDAT", z);
  put_chunk(png, "IEND", {});
  return png;
}

bool write_file(const std::string& path, const std::vector<uint8_t>& bytes, std::string* error) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    *error = "cannot open " + path + " for writing: " + std::strerror(errno);
    return false;
  }
  const bool wrote = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  const int err = errno;
  const bool closed = std::fclose(f) == 0;
  if (!wrote || !closed) {
    *error = "cannot write " + path + ": " + std::strerror(wrote ? errno : err);
    return false;
  }
  return true;
}

}  // namespace clpipe::demo
