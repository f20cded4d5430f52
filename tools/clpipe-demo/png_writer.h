// A minimal PNG encoder for clpipe-demo: 8-bit RGB, no interlace, filter 0 on every row,
// and the zlib stream made of stored (uncompressed) deflate blocks. Stored blocks keep
// the encoder to CRC-32, Adler-32 and framing, with no dependency; the file is about
// 3 bytes per pixel, which is fine for a demo image. Consumer: demo_app.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace clpipe::demo {

// The PNG file of a width x height image; rgb holds 3 bytes per pixel, rows top first.
// width and height must be 1..2^31-1 (PNG's limit); rgb must hold width*height*3 bytes.
std::vector<uint8_t> encode_png_rgb(const uint8_t* rgb, uint32_t width, uint32_t height);

// CRC-32 (ISO 3309, as PNG chunks use it) and Adler-32 (zlib) of a byte range.
uint32_t crc32(const uint8_t* data, size_t size, uint32_t crc = 0);
uint32_t adler32(const uint8_t* data, size_t size);

// Writes bytes to path; false (and a reason in *error) when the file cannot be written.
bool write_file(const std::string& path, const std::vector<uint8_t>& bytes, std::string* error);

}  // namespace clpipe::demo
