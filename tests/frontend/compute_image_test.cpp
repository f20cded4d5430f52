// Shader images in compute shaders through set_shader_images and launch_grid: loads and
// stores with format conversion (typed and format-less declarations: IMAGE_LOAD_FORMATTED
// / IMAGE_STORE_FORMATTED), every target (1D, 1D array, 2D, rectangle, 2D array, 3D, cube,
// cube array, buffer), the
// view's level and layer range, RESQ, and out-of-range coordinates (loads read zero,
// stores are dropped), all checked byte by byte against the resource's layout.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "compute_util.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

// Thread (x, y, z) of the grid stores (x + 1, y + 1, z + 1, 7) as integers at coordinate
// (x, y, z) of IMAGE[0] (format-less: the view's format encodes), and thread (0, 0, 0)
// stores RESQ of the image into BUFFER[0].
std::string store_coords_shader(const char* target) {
  const std::string t = target;
  return "COMP\nDCL SV[0], THREAD_ID\nDCL SV[1], BLOCK_ID\nDCL SV[2], BLOCK_SIZE\n"
         "DCL IMAGE[0], " +
         t + ", PIPE_FORMAT_NONE, WR\n" + R"(DCL BUFFER[0]
DCL TEMP[0..3]
IMM[0] UINT32 {1, 7, 0, 0}
UMAD TEMP[0].xyz, SV[1].xyzz, SV[2].xyzz, SV[0].xyzz
UADD TEMP[1].xyz, TEMP[0].xyzz, IMM[0].xxxx
MOV TEMP[1].w, IMM[0].yyyy
STORE IMAGE[0], TEMP[0], TEMP[1], )" +
         t + R"(
OR TEMP[2].x, TEMP[0].xxxx, TEMP[0].yyyy
OR TEMP[2].x, TEMP[2].xxxx, TEMP[0].zzzz
USEQ TEMP[2].y, TEMP[2].xxxx, IMM[0].zzzz
UIF TEMP[2].yyyy
  RESQ TEMP[3], IMAGE[0]
  STORE BUFFER[0].xyzw, IMM[0].zzzz, TEMP[3]
ENDIF
END
)";
}

// Little-endian bytes of (x + 1, y + 1, z + 1, 7) in a pure-integer format of `channels`
// channels of `bytes` bytes each.
std::vector<uint8_t> coord_texel(uint32_t x, uint32_t y, uint32_t z, unsigned channels,
                                 unsigned bytes) {
  const uint32_t v[4] = {x + 1, y + 1, z + 1, 7};
  std::vector<uint8_t> out;
  for (unsigned c = 0; c < channels; ++c)
    for (unsigned b = 0; b < bytes; ++b)
      out.push_back(uint8_t(v[c] >> (8 * b)));
  return out;
}

struct TargetCase {
  const char* name;  // TGSI target
  ResourceTemplate templ;
  ImageView view;
  std::array<uint32_t, 3> grid;  // threads in x, y, z (blocks of 1x1x1)
  unsigned channels, channel_bytes;
  std::array<uint32_t, 4> resq;
  // Whether thread (x, y, z) lands in the view, and at which level / layer (or slice) of
  // the resource; buffers use x only.
  std::function<bool(uint32_t x, uint32_t y, uint32_t z, uint32_t* layer)> lands;
};

ResourceTemplate image_templ(TextureTarget t, Format f, uint32_t w, uint16_t h, uint16_t d,
                             uint16_t layers, uint8_t last_level = 0) {
  return make_templ(t, f, w, h, d, layers, last_level,
                    t == TextureTarget::BUFFER ? uint32_t(Bind::SHADER_IMAGE)
                                               : uint32_t(Bind::SHADER_IMAGE | Bind::SAMPLER_VIEW));
}

ImageView view_of(Format f, unsigned level, unsigned first, unsigned last) {
  ImageView v;
  v.format = f;
  v.access = v.shader_access = ImageAccess::READ_WRITE;
  v.level = uint8_t(level);
  v.first_layer = uint16_t(first);
  v.last_layer = uint16_t(last);
  return v;
}

void run_target_case(const TargetCase& tc) {
  INFO("target " << tc.name);
  auto ctx = new_context();
  ResourceRef res = create(tc.templ);
  ImageView view = tc.view;
  view.resource = res;
  REQUIRE(ctx->set_shader_images(ShaderType::COMPUTE, 0, {view}).is_ok());
  ResourceRef resq = words_resource(*ctx, {}, 16);
  bind_buffers(*ctx, {resq});
  bind_compute(*ctx, store_coords_shader(tc.name));
  launch(*ctx, make_grid({1, 1, 1}, tc.grid));
  const std::vector<uint32_t> size = read_words(*ctx, resq);
  CHECK(std::vector<uint32_t>(size.begin(), size.end()) ==
        std::vector<uint32_t>(tc.resq.begin(), tc.resq.end()));

  finish(*ctx);
  const std::vector<uint8_t> data = read_raw(res);
  std::vector<uint8_t> want(data.size(), 0);  // new resources hold zeros
  const unsigned bpp = tc.channels * tc.channel_bytes;
  const unsigned level = view.level;
  for (uint32_t z = 0; z < tc.grid[2]; ++z)
    for (uint32_t y = 0; y < tc.grid[1]; ++y)
      for (uint32_t x = 0; x < tc.grid[0]; ++x) {
        uint32_t layer = 0;
        if (!tc.lands(x, y, z, &layer)) continue;
        uint64_t off;
        if (tc.templ.target == TextureTarget::BUFFER) {
          off = view.buf_offset + uint64_t(x) * bpp;
        } else {
          const uint32_t row = tc.templ.target == TextureTarget::TEXTURE_1D_ARRAY ? 0 : y;
          off = res->level_offset(level) + layer * res->level_layer_pitch(level) +
                uint64_t(row) * res->level_row_pitch(level) + uint64_t(x) * bpp;
        }
        const std::vector<uint8_t> t = coord_texel(x, y, z, tc.channels, tc.channel_bytes);
        std::copy(t.begin(), t.end(), want.begin() + off);
      }
  for (size_t i = 0; i < data.size(); ++i) {
    INFO("byte " << i);
    REQUIRE(int(data[i]) == int(want[i]));
  }
}

uint16_t to_half(float f) {
  // Exact for the normal, representable values the tests use.
  uint32_t u = fbits(f);
  const uint32_t sign = (u >> 16) & 0x8000u;
  if ((u & 0x7fffffffu) == 0) return uint16_t(sign);
  const int exp = int((u >> 23) & 0xff) - 127 + 15;
  return uint16_t(sign | (uint32_t(exp) << 10) | ((u >> 13) & 0x3ffu));
}

}  // namespace

TEST_CASE("compute: image stores to every target, level and layer range",
          "[frontend][compute][image]") {
  using T = TextureTarget;
  auto always = [](uint32_t, uint32_t, uint32_t z, uint32_t* layer) {
    *layer = z;
    return true;
  };
  std::vector<TargetCase> cases;
  // 2D array: the view is layers 1..2 of 4; grid layer 2 falls outside the view.
  cases.push_back({"2D_ARRAY",
                   image_templ(T::TEXTURE_2D_ARRAY, Format::R32_UINT, 4, 3, 1, 4),
                   view_of(Format::R32_UINT, 0, 1, 2),
                   {4, 3, 3},
                   1,
                   4,
                   {4, 3, 2, 1},
                   [](uint32_t, uint32_t, uint32_t z, uint32_t* layer) {
                     *layer = 1 + z;
                     return z < 2;
                   }});
  // 3D: slice 2 is past the depth.
  cases.push_back({"3D",
                   image_templ(T::TEXTURE_3D, Format::R16G16B16A16_SINT, 3, 3, 2, 1),
                   view_of(Format::R16G16B16A16_SINT, 0, 0, 1),
                   {3, 3, 3},
                   4,
                   2,
                   {3, 3, 2, 1},
                   [](uint32_t, uint32_t, uint32_t z, uint32_t* layer) {
                     *layer = z;
                     return z < 2;
                   }});
  // Cube: the six faces are layers.
  cases.push_back({"CUBE",
                   image_templ(T::TEXTURE_CUBE, Format::R32G32B32A32_UINT, 2, 2, 1, 6),
                   view_of(Format::R32G32B32A32_UINT, 0, 0, 5),
                   {2, 2, 6},
                   4,
                   4,
                   {2, 2, 6, 1},
                   always});
  // Cube array: the view is the second cube (layers 6..11 of 12); z = face + 6 * cube,
  // so z = 6 falls outside the view. RESQ reports cubes in z.
  cases.push_back({"CUBEARRAY",
                   image_templ(T::TEXTURE_CUBE_ARRAY, Format::R32G32B32A32_UINT, 2, 2, 1, 12),
                   view_of(Format::R32G32B32A32_UINT, 0, 6, 11),
                   {2, 2, 7},
                   4,
                   4,
                   {2, 2, 1, 1},
                   [](uint32_t, uint32_t, uint32_t z, uint32_t* layer) {
                     *layer = 6 + z;
                     return z < 6;
                   }});
  // Rectangle: x = 3 is past the width.
  cases.push_back({"RECT",
                   image_templ(T::TEXTURE_RECT, Format::R16G16_UINT, 3, 2, 1, 1),
                   view_of(Format::R16G16_UINT, 0, 0, 0),
                   {4, 2, 1},
                   2,
                   2,
                   {3, 2, 1, 1},
                   [](uint32_t x, uint32_t, uint32_t, uint32_t* layer) {
                     *layer = 0;
                     return x < 3;
                   }});
  // 1D array: (x, layer); x = 5 and layer 2 fall outside the 5-wide, 2-layer view.
  cases.push_back({"1D_ARRAY",
                   image_templ(T::TEXTURE_1D_ARRAY, Format::R8G8B8A8_UINT, 5, 1, 1, 3),
                   view_of(Format::R8G8B8A8_UINT, 0, 0, 1),
                   {6, 3, 1},
                   4,
                   1,
                   {5, 2, 1, 1},
                   [](uint32_t x, uint32_t y, uint32_t, uint32_t* layer) {
                     *layer = y;
                     return x < 5 && y < 2;
                   }});
  // 2D: level 1 (4x4) of an 8x8 texture with two levels; the grid overhangs by one.
  cases.push_back({"2D",
                   image_templ(T::TEXTURE_2D, Format::R32G32_UINT, 8, 8, 1, 1, 1),
                   view_of(Format::R32G32_UINT, 1, 0, 0),
                   {5, 5, 1},
                   2,
                   4,
                   {4, 4, 1, 1},
                   [](uint32_t x, uint32_t y, uint32_t, uint32_t* layer) {
                     *layer = 0;
                     return x < 4 && y < 4;
                   }});
  // Buffer: 10 R32_UINT elements at byte 16 of a 64-byte buffer; elements 10, 11 dropped.
  TargetCase buf{"BUFFER",
                 image_templ(T::BUFFER, Format::R8_UNORM, 64, 1, 1, 1),
                 view_of(Format::R32_UINT, 0, 0, 0),
                 {12, 1, 1},
                 1,
                 4,
                 {10, 1, 1, 1},
                 [](uint32_t x, uint32_t, uint32_t, uint32_t* layer) {
                   *layer = 0;
                   return x < 10;
                 }};
  buf.view.buf_offset = 16;
  buf.view.buf_size = 40;
  cases.push_back(buf);
  for (const TargetCase& tc : cases)
    run_target_case(tc);
}

TEST_CASE("compute: typed loads convert, out-of-range loads read zero",
          "[frontend][compute][image]") {
  // IMAGE[0]: 5x3 RGBA8_UNORM declared with its format; IMAGE[1]: level 0 (6x4) of a
  // two-level RGBA32F texture, format-less. A 7x5 grid copies IMAGE[0] into IMAGE[1]:
  // texels outside IMAGE[0] read (0, 0, 0, 0); stores outside IMAGE[1] are dropped, so
  // level 1 keeps its contents.
  const char* kCopy = R"(COMP
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL SV[2], BLOCK_SIZE
DCL IMAGE[0], 2D, PIPE_FORMAT_R8G8B8A8_UNORM
DCL IMAGE[1], 2D, PIPE_FORMAT_NONE, WR
DCL TEMP[0..1]
UMAD TEMP[0].xy, SV[1].xyyy, SV[2].xyyy, SV[0].xyyy
LOAD TEMP[1], IMAGE[0], TEMP[0], 2D, PIPE_FORMAT_R8G8B8A8_UNORM
STORE IMAGE[1], TEMP[0], TEMP[1], 2D
END
)";
  auto ctx = new_context();
  ResourceRef src =
      create(image_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, 5, 3, 1, 1));
  ResourceRef dst =
      create(image_templ(TextureTarget::TEXTURE_2D, Format::R32G32B32A32_FLOAT, 6, 4, 1, 1, 1));
  const std::vector<uint8_t> texels = random_bytes(5 * 3 * 4, 5);
  write_box(*ctx, src, 0, make_box_2d(0, 0, 5, 3), texels);
  std::vector<float> sentinel(6 * 4 * 4, 9.0f), level1(3 * 2 * 4, -3.0f);
  auto as_bytes = [](const std::vector<float>& f) {
    std::vector<uint8_t> b(f.size() * 4);
    std::memcpy(b.data(), f.data(), b.size());
    return b;
  };
  write_box(*ctx, dst, 0, make_box_2d(0, 0, 6, 4), as_bytes(sentinel));
  write_box(*ctx, dst, 1, make_box_2d(0, 0, 3, 2), as_bytes(level1));
  ImageView a = view_of(Format::R8G8B8A8_UNORM, 0, 0, 0);
  a.resource = src;
  a.access = a.shader_access = ImageAccess::READ;
  ImageView b = view_of(Format::R32G32B32A32_FLOAT, 0, 0, 0);
  b.resource = dst;
  REQUIRE(ctx->set_shader_images(ShaderType::COMPUTE, 0, {a, b}).is_ok());
  bind_compute(*ctx, kCopy);
  GridInfo g = make_grid({4, 2, 1}, {2, 3, 1});
  g.last_block[0] = 3;  // 7 x 6 threads; the last block in x is 3 wide
  launch(*ctx, g);

  const std::vector<uint8_t> out = read_box(*ctx, dst, 0, make_box_2d(0, 0, 6, 4));
  std::vector<float> f(out.size() / 4);
  std::memcpy(f.data(), out.data(), out.size());
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 6; ++x)
      for (uint32_t c = 0; c < 4; ++c) {
        INFO("texel " << x << "," << y << " channel " << c);
        const bool inside = x < 5 && y < 3;
        const float want = inside ? float(texels[(y * 5 + x) * 4 + c]) / 255.0f : 0.0f;
        CHECK(f[(y * 6 + x) * 4 + c] == Approx(want).margin(1e-6));
      }
  const std::vector<uint8_t> l1 = read_box(*ctx, dst, 1, make_box_2d(0, 0, 3, 2));
  CHECK(l1 == as_bytes(level1));
}

TEST_CASE("compute: format-less loads and stores use the view's format",
          "[frontend][compute][image]") {
  // RGBA16F (format-less load) -> RGBA8_UNORM (format-less store): clamped and rounded.
  const char* kConvert = R"(COMP
DCL SV[0], THREAD_ID
DCL IMAGE[0], 1D, PIPE_FORMAT_NONE
DCL IMAGE[1], 1D, PIPE_FORMAT_NONE, WR
DCL TEMP[0]
LOAD TEMP[0], IMAGE[0], SV[0], 1D
STORE IMAGE[1], SV[0], TEMP[0], 1D
END
)";
  const float values[12] = {0.0f,   0.125f, 0.25f, 0.375f, 0.625f, 0.75f,
                            0.875f, 1.0f,   2.0f,  -1.0f,  64.0f,  -0.0f};
  auto ctx = new_context();
  ResourceRef src =
      create(image_templ(TextureTarget::TEXTURE_1D, Format::R16G16B16A16_FLOAT, 3, 1, 1, 1));
  ResourceRef dst =
      create(image_templ(TextureTarget::TEXTURE_1D, Format::R8G8B8A8_UNORM, 3, 1, 1, 1));
  std::vector<uint8_t> half(24);
  for (int i = 0; i < 12; ++i) {
    const uint16_t h = to_half(values[i]);
    std::memcpy(&half[2 * i], &h, 2);
  }
  write_box(*ctx, src, 0, make_box_1d(0, 3), half);
  ImageView a = view_of(Format::R16G16B16A16_FLOAT, 0, 0, 0);
  a.resource = src;
  ImageView b = view_of(Format::R8G8B8A8_UNORM, 0, 0, 0);
  b.resource = dst;
  REQUIRE(ctx->set_shader_images(ShaderType::COMPUTE, 0, {a, b}).is_ok());
  bind_compute(*ctx, kConvert);
  launch(*ctx, make_grid({3, 1, 1}, {1, 1, 1}));
  const std::vector<uint8_t> out = read_box(*ctx, dst, 0, make_box_1d(0, 3));
  for (int i = 0; i < 12; ++i) {
    INFO("value " << values[i]);
    const float c = std::fmin(std::fmax(values[i], 0.0f), 1.0f);
    CHECK(int(out[i]) == int(std::lround(c * 255.0f)));
  }
}

TEST_CASE("compute: unbound images read zero and drop stores", "[frontend][compute][image]") {
  // The copy of the previous test with nothing bound to IMAGE[0]: IMAGE[1] gets zeros.
  const char* kCopy = R"(COMP
DCL SV[0], THREAD_ID
DCL IMAGE[0], 1D, PIPE_FORMAT_R32_UINT
DCL IMAGE[1], 1D, PIPE_FORMAT_R32_UINT, WR
DCL IMAGE[2], 1D, PIPE_FORMAT_R32_UINT, WR
DCL TEMP[0]
LOAD TEMP[0], IMAGE[0], SV[0], 1D, PIPE_FORMAT_R32_UINT
STORE IMAGE[1], SV[0], TEMP[0], 1D, PIPE_FORMAT_R32_UINT
STORE IMAGE[2], SV[0], SV[0], 1D, PIPE_FORMAT_R32_UINT
END
)";
  auto ctx = new_context();
  ResourceRef dst = create(image_templ(TextureTarget::TEXTURE_1D, Format::R32_UINT, 8, 1, 1, 1));
  write_box(*ctx, dst, 0, make_box_1d(0, 8), std::vector<uint8_t>(32, 0xab));
  ImageView b = view_of(Format::R32_UINT, 0, 0, 0);
  b.resource = dst;
  REQUIRE(ctx->set_shader_images(ShaderType::COMPUTE, 1, {b}).is_ok());
  bind_compute(*ctx, kCopy);
  launch(*ctx, make_grid({8, 1, 1}, {1, 1, 1}));
  CHECK(read_box(*ctx, dst, 0, make_box_1d(0, 8)) == std::vector<uint8_t>(32, 0));
}
