// clpipe-demo (tools/clpipe-demo): the PNG writer read back by an independent reader, and
// the demo program run at a small size, its PNG decoded and checked at pixels the scene
// constants locate: the depth test (a sphere drawn before the ground behind it), the
// blending of a translucent pane, the lighting, and the coverage of the frame.
#include <catch2/catch.hpp>

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "demo_app.h"
#include "demo_scene.h"
#include "png_writer.h"

namespace {

using clpipe::demo::Vec3;

// A decoded 8-bit RGB PNG.
struct Decoded {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgb;
  const uint8_t* at(uint32_t x, uint32_t y) const { return &rgb[(size_t(y) * width + x) * 3]; }
};

uint32_t be32(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}

// Bitwise CRC-32 and byte-by-byte Adler-32: written apart from the encoder's so that a
// mistake in either shows up as a mismatch.
uint32_t reference_crc(const uint8_t* p, size_t n) {
  uint32_t c = 0xffffffffu;
  for (size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k)
      c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
  }
  return ~c;
}

uint32_t reference_adler(const std::vector<uint8_t>& d) {
  uint32_t a = 1, b = 0;
  for (uint8_t v : d) {
    a = (a + v) % 65521;
    b = (b + a) % 65521;
  }
  return b << 16 | a;
}

// Decodes what encode_png_rgb writes: chunks with checked CRCs, IHDR for 8-bit RGB
// without interlace, IDAT holding a zlib stream of stored deflate blocks, filter 0 rows.
// FAILs (with the reason) on anything else.
Decoded decode_png(const std::vector<uint8_t>& f) {
  static const uint8_t kSig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  REQUIRE(f.size() > 8);
  REQUIRE(std::equal(kSig, kSig + 8, f.begin()));
  Decoded d;
  std::vector<uint8_t> z;
  bool ihdr = false, iend = false;
  size_t at = 8;
  while (at < f.size()) {
    REQUIRE(at + 12 <= f.size());
    const uint32_t len = be32(&f[at]);
    REQUIRE(at + 12 + len <= f.size());
    const std::string type(f.begin() + long(at) + 4, f.begin() + long(at) + 8);
    const uint8_t* data = &f[at + 8];
    INFO("chunk " << type);
    REQUIRE(be32(data + len) == reference_crc(&f[at + 4], len + 4));
    if (type == "IHDR") {
      REQUIRE(len == 13);
      d.width = be32(data);
      d.height = be32(data + 4);
      CHECK(data[8] == 8);   // bit depth
      CHECK(data[9] == 2);   // RGB
      CHECK(data[10] == 0);  // deflate
      CHECK(data[11] == 0);  // filter method
      CHECK(data[12] == 0);  // no interlace
      ihdr = true;
    } else if (type == "IDAT") {
      REQUIRE(ihdr);
      z.insert(z.end(), data, data + len);
    } else if (type == "IEND") {
      iend = true;
    }
    at += 12 + len;
  }
  REQUIRE(ihdr);
  REQUIRE(iend);
  REQUIRE(d.width > 0);
  REQUIRE(d.height > 0);

  // zlib header: deflate, no preset dictionary, check bits.
  REQUIRE(z.size() >= 6);
  CHECK((z[0] & 0x0f) == 8);
  CHECK((z[1] & 0x20) == 0);
  CHECK((z[0] * 256 + z[1]) % 31 == 0);
  std::vector<uint8_t> raw;
  size_t p = 2;
  for (bool last = false; !last;) {
    REQUIRE(p + 5 <= z.size());
    last = (z[p] & 1) != 0;
    REQUIRE(((z[p] >> 1) & 3) == 0);  // stored block; the rest of the byte is padding
    const uint32_t n = z[p + 1] | uint32_t(z[p + 2]) << 8;
    const uint32_t nn = z[p + 3] | uint32_t(z[p + 4]) << 8;
    REQUIRE((n ^ 0xffffu) == nn);
    p += 5;
    REQUIRE(p + n <= z.size());
    raw.insert(raw.end(), z.begin() + long(p), z.begin() + long(p + n));
    p += n;
  }
  REQUIRE(p + 4 == z.size());
  CHECK(be32(&z[p]) == reference_adler(raw));

  const size_t row = size_t(d.width) * 3;
  REQUIRE(raw.size() == (row + 1) * d.height);
  for (uint32_t y = 0; y < d.height; ++y) {
    const uint8_t* r = &raw[y * (row + 1)];
    REQUIRE(r[0] == 0);  // filter type None
    d.rgb.insert(d.rgb.end(), r + 1, r + 1 + row);
  }
  return d;
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

std::vector<uint8_t> read_gzip_file(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  REQUIRE(f);
  std::vector<uint8_t> out;
  uint8_t buf[65536];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0)
    out.insert(out.end(), buf, buf + n);
  gzclose(f);
  REQUIRE(n == 0);
  return out;
}

std::string read_all(std::FILE* f) {
  std::rewind(f);
  std::string s;
  char buf[512];
  while (size_t n = std::fread(buf, 1, sizeof buf, f))
    s.append(buf, n);
  return s;
}

// Runs the demo program's code with args; returns its exit status, its output in *text.
int run(const std::vector<std::string>& args, std::string* text) {
  std::FILE* out = std::tmpfile();
  REQUIRE(out);
  const int rc = clpipe::demo::run_demo(args, out, out);
  *text = read_all(out);
  std::fclose(out);
  return rc;
}

std::string temp_png(const char* name) {
  return (std::filesystem::temp_directory_path() /
          (std::string("clpipe-demo-test-") + std::to_string(getpid()) + "-" + name + ".png"))
      .string();
}

// Whether the ray from `from` through `to` meets the demo's sphere.
bool ray_hits_sphere(Vec3 from, Vec3 to) {
  const Vec3 dir = clpipe::demo::normalize(to - from);
  const Vec3 oc = from - clpipe::demo::kSphereCentre;
  const float b = clpipe::demo::dot(oc, dir);
  const float c =
      clpipe::demo::dot(oc, oc) - clpipe::demo::kSphereRadius * clpipe::demo::kSphereRadius;
  return b * b - c > 0 && b < 0;
}

// Sum of the channels at the pixel where world point p lands.
int brightness(const Decoded& d, Vec3 p) {
  float x, y;
  clpipe::demo::project_to_pixel(p, d.width, d.height, &x, &y);
  const uint8_t* c = d.at(uint32_t(x), uint32_t(y));
  return c[0] + c[1] + c[2];
}

}  // namespace

TEST_CASE("clpipe-demo: PNG writer output decodes to the same pixels", "[tools][demo]") {
  // 300 x 250 RGB spans four stored blocks (65535 bytes each at most); 1 x 1 is one.
  for (auto [w, h] : {std::pair<uint32_t, uint32_t>{300, 250}, {1, 1}, {7, 3}}) {
    std::vector<uint8_t> rgb(size_t(w) * h * 3);
    for (size_t i = 0; i < rgb.size(); ++i)
      rgb[i] = uint8_t(i * 7 + i / 13);
    const Decoded d = decode_png(clpipe::demo::encode_png_rgb(rgb.data(), w, h));
    CHECK(d.width == w);
    CHECK(d.height == h);
    CHECK(d.rgb == rgb);
  }
  CHECK_THROWS(clpipe::demo::encode_png_rgb(nullptr, 0, 4));
}

TEST_CASE("clpipe-demo: renders the scene to a PNG with depth, blending and lighting",
          "[tools][demo]") {
  const std::string path = temp_png("scene");
  std::string text;
  const int rc = run({"--size", "160x120", "--frames", "1", "--out", path}, &text);
  INFO(text);
  REQUIRE(rc == 0);
  CHECK(text.find("frame 0: ") != std::string::npos);
  CHECK(text.find("wrote " + path) != std::string::npos);
  const Decoded d = decode_png(read_file(path));
  std::filesystem::remove(path);
  REQUIRE(d.width == 160);
  REQUIRE(d.height == 120);

  // The scene fills most of the frame: the ground covers everything below the horizon.
  const clpipe::demo::Rgba8 bg = clpipe::demo::kClearColor;
  size_t drawn = 0;
  for (size_t i = 0; i < d.rgb.size(); i += 3)
    drawn += d.rgb[i] != bg.r || d.rgb[i + 1] != bg.g || d.rgb[i + 2] != bg.b;
  CHECK(drawn > d.rgb.size() / 3 * 6 / 10);
  CHECK(drawn < d.rgb.size() / 3);  // some sky is left above the horizon

  float x, y;
  // Depth: the ground, drawn after the sphere, lies behind it; the sphere's blue stays.
  // (The red pane must not cover the sphere's centre: its nearest corner projects away.)
  {
    const Vec3 c = clpipe::demo::kRedPaneCentre;
    const float h = clpipe::demo::kRedPaneHalfSize;
    float px, py, sx, sy;
    clpipe::demo::project_to_pixel(c + Vec3{h, h, 0}, 160, 120, &px, &py);
    clpipe::demo::project_to_pixel(clpipe::demo::kSphereCentre, 160, 120, &sx, &sy);
    REQUIRE((sx > px + 2 || sy < py - 2));
  }
  clpipe::demo::project_to_pixel(clpipe::demo::kSphereCentre, 160, 120, &x, &y);
  const uint8_t* s = d.at(uint32_t(x), uint32_t(y));
  INFO("sphere centre pixel " << int(s[0]) << "," << int(s[1]) << "," << int(s[2]));
  CHECK(s[2] > s[0] + 60);
  CHECK(s[2] > s[1] + 30);

  // Blending: the red pane (alpha 1/2) in front of the blue sphere shows both: red from
  // the pane, blue from the sphere, little green from either.
  REQUIRE(ray_hits_sphere(clpipe::demo::kEye, clpipe::demo::kRedPaneCentre));
  clpipe::demo::project_to_pixel(clpipe::demo::kRedPaneCentre, 160, 120, &x, &y);
  const uint8_t* r = d.at(uint32_t(x), uint32_t(y));
  INFO("red pane pixel " << int(r[0]) << "," << int(r[1]) << "," << int(r[2]));
  CHECK(r[0] > r[1] + 30);
  CHECK(r[2] > r[1] + 30);

  // Lighting: the sphere is brighter on its side towards the light than on the far side
  // (both points face the camera).
  const Vec3 to_eye = clpipe::demo::normalize(clpipe::demo::kEye - clpipe::demo::kSphereCentre);
  const Vec3 light = clpipe::demo::normalize(clpipe::demo::kLightDir);
  const Vec3 lit = clpipe::demo::normalize(to_eye + light * 0.8f);
  const Vec3 dark = clpipe::demo::normalize(to_eye - light * 0.8f);
  const float rad = clpipe::demo::kSphereRadius;
  CHECK(brightness(d, clpipe::demo::kSphereCentre + lit * rad) >
        brightness(d, clpipe::demo::kSphereCentre + dark * rad) + 90);

  // Texturing: the panel's pixels are its minified brick texture (red bricks, light
  // mortar, trilinear), not its white vertex colour nor the clear colour. (Its left
  // half: the torus hides part of the right half.)
  clpipe::demo::project_to_pixel(clpipe::demo::kPanelCentre - Vec3{0.5f, 0, 0}, 160, 120, &x, &y);
  const uint8_t* p = d.at(uint32_t(x), uint32_t(y));
  INFO("panel centre pixel " << int(p[0]) << "," << int(p[1]) << "," << int(p[2]));
  CHECK(p[0] > p[1] + 40);
  CHECK(p[0] > p[2] + 40);
  CHECK(p[1] > 20);  // some mortar is averaged in
}

TEST_CASE("clpipe-demo: the image is the NVIDIA H100's within the float paths' tolerance",
          "[tools][demo]") {
  // The reference was rendered on an H100 (tests/data/README.md). PoCL at 4, 8 and 16
  // lanes, with generic or specialised tile programs, on 1 or 2 threads, differs from it
  // in 7 of 480,000 pixels by 1/255: interpolation, lighting and blending round
  // differently in a few places. More than that is a device-dependent result.
  const std::string path = temp_png("reference");
  std::string text;
  REQUIRE(run({"--size", "800x600", "--frames", "2", "--out", path}, &text) == 0);
  const Decoded got = decode_png(read_file(path));
  std::remove(path.c_str());
  const Decoded want = decode_png(read_gzip_file(
      std::string(CLPIPE_SOURCE_DIR) + "/tests/data/demo/demo-800x600-frames2-h100.png.gz"));
  REQUIRE(got.width == want.width);
  REQUIRE(got.height == want.height);
  size_t differ = 0;
  int max_diff = 0;
  for (size_t i = 0; i < got.rgb.size(); i += 3) {
    int d = 0;
    for (size_t c = 0; c < 3; ++c)
      d = std::max(d, std::abs(int(got.rgb[i + c]) - int(want.rgb[i + c])));
    differ += d > 0;
    max_diff = std::max(max_diff, d);
  }
  INFO(differ << " pixels differ, by up to " << max_diff << "/255");
  CHECK(max_diff <= 2);
  CHECK(differ <= got.rgb.size() / 3 / 10000);  // 0.01%
}

TEST_CASE("clpipe-demo: bad options and unwritable outputs are errors", "[tools][demo]") {
  std::string text;
  CHECK(run({"--size", "64"}, &text) == 2);
  CHECK(text.find("--size wants WxH") != std::string::npos);
  CHECK(run({"--frames", "0"}, &text) == 2);
  CHECK(run({"--frames"}, &text) == 2);
  CHECK(text.find("missing value after '--frames'") != std::string::npos);
  CHECK(run({"--bogus", "1"}, &text) == 2);
  CHECK(run({"--size", "32x24", "--frames", "1", "--out", "/nonexistent-dir/x.png"}, &text) == 1);
  CHECK(text.find("cannot open /nonexistent-dir/x.png") != std::string::npos);
}
