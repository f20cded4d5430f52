// Context::blit on every target (1D, 2D, RECT, 3D, cube, arrays; layers and levels),
// depth and stencil, and the bad-input cases, against the host reference
// (blit_reference.h).
#include <catch2/catch.hpp>

#include "blit_reference.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::test::blit_ref;

namespace {

using T = TextureTarget;

ResourceTemplate tex(T target, Format f, uint32_t w, uint16_t h, uint16_t d, uint16_t layers,
                     uint8_t last_level = 0) {
  return make_templ(target, f, w, h, d, layers, last_level);
}

}  // namespace

TEST_CASE("3D blits scale slices, filtering between them when linear", "[frontend][blit]") {
  auto ctx = new_context();
  const Format f = Format::R16G16B16A16_FLOAT;
  auto vol = filled(*ctx, tex(T::TEXTURE_3D, f, 8, 6, 4, 1, 1), 1);
  auto vol2 = filled(*ctx, tex(T::TEXTURE_3D, f, 9, 7, 5, 1), 2);
  auto arr = filled(*ctx, tex(T::TEXTURE_2D_ARRAY, f, 8, 6, 1, 5), 3);
  for (const TexFilter filter : {TexFilter::NEAREST, TexFilter::LINEAR}) {
    // Down by two in every axis (a 2x2x2 box when linear), up, and mirrored in z.
    check_blit(*ctx, make_info(vol2, Box{0, 0, 0, 4, 3, 2}, vol, Box{0, 0, 0, 8, 6, 4}, filter));
    check_blit(*ctx, make_info(vol2, Box{0, 0, 0, 9, 7, 5}, vol, Box{1, 1, 1, 6, 4, 2}, filter));
    check_blit(*ctx, make_info(vol2, Box{1, 0, 1, 8, 6, 4}, vol, Box{0, 0, 4, 8, 6, -4}, filter));
    // Slices to array layers and back: layers are never filtered between.
    check_blit(*ctx, make_info(arr, Box{0, 0, 1, 8, 6, 4}, vol, Box{0, 0, 0, 8, 6, 4}, filter));
    check_blit(*ctx, make_info(vol2, Box{0, 0, 0, 9, 7, 5}, arr, Box{0, 0, 0, 8, 6, 5}, filter));
    // A level of the 3D texture (level 1: 4x3x2).
    check_blit(*ctx, make_info(vol2, 0, Box{2, 2, 1, 4, 3, 3}, f, vol, 1, Box{0, 0, 0, 4, 3, 2}, f,
                               filter));
  }
}

TEST_CASE("array layers and cube faces blit one to one", "[frontend][blit]") {
  auto ctx = new_context();
  const Format f = Format::B8G8R8A8_UNORM;
  auto arr = filled(*ctx, tex(T::TEXTURE_2D_ARRAY, f, 10, 8, 1, 4, 2), 1);
  auto cube = filled(*ctx, tex(T::TEXTURE_CUBE, f, 8, 8, 1, 6, 3), 2);
  auto cubes = filled(*ctx, tex(T::TEXTURE_CUBE_ARRAY, f, 8, 8, 1, 12, 1), 3);
  auto flat = filled(*ctx, tex(T::TEXTURE_2D, f, 16, 16, 1, 1, 1), 4);
  // Layers 1..3 of the array to faces 2..4 of the cube, scaled and converted.
  check_blit(*ctx, make_info(cube, 0, Box{0, 0, 2, 8, 8, 3}, Format::B8G8R8A8_UNORM, arr, 0,
                             Box{0, 0, 1, 10, 8, 3}, f, TexFilter::LINEAR));
  // Face 5 of the cube to the 2D texture; face 4 at level 1 to level 1.
  check_blit(*ctx, make_info(flat, Box{0, 0, 0, 16, 16, 1}, cube, Box{0, 0, 5, 8, 8, 1}));
  check_blit(*ctx, make_info(flat, 1, Box{0, 0, 0, 8, 8, 1}, f, cube, 1, Box{4, 0, 4, -4, 4, 1}, f,
                             TexFilter::LINEAR));
  // The 2D texture into face 3 of the second cube of the cube array, and its faces 6..11
  // to the array's layers at level 1 (cube array level 1: 4x4).
  check_blit(*ctx, make_info(cubes, Box{0, 0, 9, 8, 8, 1}, flat, Box{0, 0, 0, 16, 16, 1},
                             TexFilter::LINEAR));
  check_blit(*ctx, make_info(arr, 1, Box{0, 0, 0, 5, 4, 4}, f, cubes, 1, Box{0, 0, 6, 4, 4, 4}, f));
  // Layers in reverse order (negative source depth).
  check_blit(*ctx, make_info(arr, Box{0, 0, 0, 10, 8, 4}, cubes, Box{0, 0, 4, 8, 8, -4}));
}

TEST_CASE("1D, 1D array and RECT textures blit like the others", "[frontend][blit]") {
  auto ctx = new_context();
  const Format f = Format::R32_FLOAT;
  auto one = filled(*ctx, tex(T::TEXTURE_1D, f, 16, 1, 1, 1, 2), 1);
  auto ones = filled(*ctx, tex(T::TEXTURE_1D_ARRAY, f, 12, 1, 1, 3), 2);
  auto rect = filled(*ctx, tex(T::TEXTURE_RECT, f, 7, 5, 1, 1), 3);
  check_blit(*ctx, make_info(ones, Box{0, 0, 1, 12, 1, 2}, ones, Box{0, 0, 0, 12, 1, 2}));
  check_blit(*ctx, make_info(ones, 0, Box{0, 0, 0, 12, 1, 3}, f, one, 1, Box{8, 0, 0, -8, 1, 3}, f,
                             TexFilter::LINEAR));
  check_blit(*ctx, make_info(one, 2, Box{0, 0, 0, 4, 1, 1}, f, ones, 0, Box{0, 0, 2, 12, 1, 1}, f,
                             TexFilter::LINEAR));
  // A row stretched over a rectangle, and the rectangle squeezed into a row.
  check_blit(
      *ctx, make_info(rect, Box{0, 0, 0, 7, 5, 1}, one, Box{2, 0, 0, 10, 1, 1}, TexFilter::LINEAR));
  check_blit(
      *ctx, make_info(one, Box{0, 0, 0, 16, 1, 1}, rect, Box{0, 0, 0, 7, 5, 1}, TexFilter::LINEAR));
}

TEST_CASE("blits between levels of one texture", "[frontend][blit]") {
  auto ctx = new_context();
  const Format f = Format::R8G8B8A8_UNORM;
  auto t = filled(*ctx, tex(T::TEXTURE_2D, f, 16, 12, 1, 1, 3), 7);
  check_blit(*ctx, make_info(t, 1, Box{0, 0, 0, 8, 6, 1}, f, t, 0, Box{0, 0, 0, 16, 12, 1}, f,
                             TexFilter::LINEAR));
  check_blit(*ctx, make_info(t, 0, Box{0, 0, 0, 16, 12, 1}, f, t, 2, Box{0, 0, 0, 4, 3, 1}, f));
  check_blit(*ctx, make_info(t, 3, Box{0, 0, 0, 2, 1, 1}, f, t, 1, Box{1, 1, 0, 2, 1, 1}, f));
}

TEST_CASE("depth and stencil blits convert each aspect and keep the other",
          "[frontend][blit][zs]") {
  auto ctx = new_context();
  struct Case {
    Format src, dst;
    uint32_t mask;
    TexFilter filter;
  };
  using F = Format;
  const TexFilter N = TexFilter::NEAREST, L = TexFilter::LINEAR;
  const Case cases[] = {
      {F::Z24_UNORM_S8_UINT, F::Z32_FLOAT, Mask::Z, N},
      {F::Z32_FLOAT, F::Z24_UNORM_S8_UINT, Mask::Z, N},          // keeps the stencil
      {F::Z24_UNORM_S8_UINT, F::Z24_UNORM_S8_UINT, Mask::S, N},  // keeps the depth
      {F::Z24_UNORM_S8_UINT, F::Z24_UNORM_S8_UINT, Mask::ZS, N},
      {F::S8_UINT, F::Z24_UNORM_S8_UINT, Mask::S, N},
      {F::Z24_UNORM_S8_UINT, F::S8_UINT, Mask::S, N},
      {F::Z32_FLOAT_S8X24_UINT, F::Z24_UNORM_S8_UINT, Mask::ZS, N},
      {F::Z24_UNORM_S8_UINT, F::Z32_FLOAT_S8X24_UINT, Mask::ZS, N},
      {F::S8_UINT_Z24_UNORM, F::Z16_UNORM, Mask::Z, L},
      {F::Z16_UNORM, F::Z32_FLOAT, Mask::Z, L},
      {F::Z32_FLOAT, F::Z24X8_UNORM, Mask::Z, L},
      {F::Z32_FLOAT, F::Z32_FLOAT, Mask::Z, N},  // unscaled: a raw copy
  };
  uint32_t seed = 40;
  for (const Case& c : cases) {
    auto src = filled(*ctx, tex(T::TEXTURE_2D, c.src, 9, 7, 1, 1), seed++);
    auto dst = filled(*ctx, tex(T::TEXTURE_2D_ARRAY, c.dst, 16, 14, 1, 2), seed++);
    check_blit(*ctx, make_info(dst, 0, Box{1, 1, 1, 9, 7, 1}, c.dst, src, 0, Box{0, 0, 0, 9, 7, 1},
                               c.src, c.filter, c.mask));
    check_blit(*ctx, make_info(dst, 0, Box{0, 0, 0, 16, 14, 1}, c.dst, src, 0,
                               Box{9, -1, 0, -9, 9, 1}, c.src, c.filter, c.mask));
  }
}

TEST_CASE("bad blits get a clear error and change nothing", "[frontend][blit]") {
  auto ctx = new_context();
  auto rgba = filled(*ctx, tex(T::TEXTURE_2D, Format::R8G8B8A8_UNORM, 8, 8, 1, 1, 1), 1);
  auto dst = filled(*ctx, tex(T::TEXTURE_2D, Format::R8G8B8A8_UNORM, 8, 8, 1, 1), 2);
  auto uint_tex = filled(*ctx, tex(T::TEXTURE_2D, Format::R8G8B8A8_UINT, 8, 8, 1, 1), 3);
  auto sint_tex = filled(*ctx, tex(T::TEXTURE_2D, Format::R8G8B8A8_SINT, 8, 8, 1, 1), 4);
  auto z24 = filled(*ctx, tex(T::TEXTURE_2D, Format::Z24_UNORM_S8_UINT, 8, 8, 1, 1), 5);
  auto zf = filled(*ctx, tex(T::TEXTURE_2D, Format::Z32_FLOAT, 8, 8, 1, 1), 6);
  auto buf = create_buffer(256);
  const Box all = make_box_2d(0, 0, 8, 8);
  const BlitInfo good = make_info(dst, all, rgba, all);
  REQUIRE(ctx->blit(good).is_ok());  // the baseline that each case below breaks works
  finish(*ctx);
  const auto before = read_raw(dst);
  const auto uint_before = read_raw(uint_tex);
  const auto z24_before = read_raw(z24);
  auto expect = [&](BlitInfo b, ErrorCode code, const char* what) {
    INFO(what);
    const Status st = ctx->blit(b);
    CHECK(st.code() == code);
    CHECK_FALSE(st.message().empty());
  };
  const ErrorCode kBad = ErrorCode::kInvalidArgument;
  {
    BlitInfo b = good;
    b.dst.resource = nullptr;
    expect(b, kBad, "null dst");
    b = good;
    b.src.resource = nullptr;
    expect(b, kBad, "null src");
  }
  auto second = Screen::create();
  REQUIRE(second.is_ok());
  auto foreign =
      second.value()->resource_create(tex(T::TEXTURE_2D, Format::R8G8B8A8_UNORM, 8, 8, 1, 1));
  REQUIRE(foreign.is_ok());
  {
    BlitInfo b = good;
    b.src.resource = foreign.value();
    expect(b, kBad, "foreign src");
    b = good;
    b.dst.resource = foreign.value();
    expect(b, kBad, "foreign dst");
    b = good;
    b.src.resource = buf;
    b.src.format = Format::R8_UNORM;
    b.src.box = make_box_1d(0, 8);
    expect(b, kBad, "buffer source");
  }
  {
    BlitInfo b = good;
    b.mask = 0x40;
    expect(b, kBad, "mask bits beyond RGBA | ZS");
    b = good;
    b.filter = TexFilter(2);
    expect(b, kBad, "filter 2");
    b = good;
    b.src.format = Format::NONE;
    expect(b, kBad, "format NONE");
    b = good;
    b.dst.format = Format::R16_UNORM;
    expect(b, kBad, "a view format of another block size");
    b = good;
    b.src.format = Format::Z24_UNORM_S8_UINT;
    expect(b, kBad, "a depth view of colour data");
  }
  {
    BlitInfo b = make_info(dst, all, uint_tex, all);
    expect(b, kBad, "uint to unorm");
    b = make_info(uint_tex, all, sint_tex, all);
    expect(b, kBad, "sint to uint");
    b = make_info(uint_tex, all, uint_tex, make_box_2d(0, 0, 4, 4), TexFilter::LINEAR);
    expect(b, kBad, "linear integer blit");
    b = make_info(uint_tex, all, uint_tex, make_box_2d(0, 0, 4, 4));
    b.alpha_blend = true;
    expect(b, kBad, "alpha_blend of integers");
    b = make_info(dst, all, z24, all);
    b.mask = Mask::RGBA | Mask::Z;
    expect(b, kBad, "depth to colour");
    b = make_info(z24, all, zf, all);
    b.mask = Mask::S;
    expect(b, kBad, "stencil from a format without stencil");
    b = make_info(zf, all, z24, all);
    b.mask = Mask::ZS;
    expect(b, kBad, "stencil into a format without stencil");
    b = make_info(z24, all, z24, make_box_2d(0, 0, 4, 4), TexFilter::LINEAR);
    b.mask = Mask::S;
    expect(b, kBad, "linear stencil");
    b = make_info(zf, all, z24, all);
    b.mask = Mask::Z;
    b.alpha_blend = true;
    expect(b, kBad, "alpha_blend of depth");
  }
  {
    BlitInfo b = good;
    // (Destination boxes past the level are clipped to it: blit_test.cpp.)
    b.dst.box = make_box_2d(0, 0, 0, 8);
    expect(b, kBad, "empty dst box");
    b.dst.box = Box{INT32_MIN + 4, 0, 0, INT32_MAX, 8, 1};
    expect(b, kBad, "dst box reaching the level from 2^31 texels before it");
    b = good;
    b.dst.level = 1;
    expect(b, kBad, "dst level that does not exist");
    b = good;
    b.src.level = 2;
    expect(b, kBad, "src level that does not exist");
    b = good;
    b.src.box = make_box_2d(0, 0, 8, 0);
    expect(b, kBad, "empty src box");
    b.src.box = make_box_2d(8, 0, 4, 4);
    expect(b, kBad, "src box entirely outside");
    b.src.box = make_box_2d(0, -5, 4, -4);
    expect(b, kBad, "mirrored src box entirely outside");
    b.src.box = Box{0, 0, 1, 8, 8, 1};
    expect(b, kBad, "src layer beyond the texture");
    b = good;
    b.scissor_enable = true;
    b.scissor = ScissorState{4, 0, 2, 8};
    expect(b, kBad, "scissor min beyond max");
  }
  finish(*ctx);
  CHECK(read_raw(dst) == before);
  CHECK(read_raw(uint_tex) == uint_before);
  CHECK(read_raw(z24) == z24_before);
}

TEST_CASE("render_condition_enable is accepted and the blit runs", "[frontend][blit]") {
  // No render condition can be active before issue 6 (render_condition refuses queries),
  // so the flag must not stop the blit.
  auto ctx = new_context();
  auto src = filled(*ctx, tex(T::TEXTURE_2D, Format::R8G8B8A8_UNORM, 4, 4, 1, 1), 1);
  auto dst = filled(*ctx, tex(T::TEXTURE_2D, Format::R8G8B8A8_UNORM, 8, 8, 1, 1), 2);
  BlitInfo b = make_info(dst, make_box_2d(0, 0, 8, 8), src, make_box_2d(0, 0, 4, 4));
  b.render_condition_enable = true;
  check_blit(*ctx, b);
}
