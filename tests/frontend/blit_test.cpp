// Context::blit against the host reference (blit_reference.h): nearest and linear
// scaling, mirroring, format conversions, integer views, colour masks, scissor, alpha
// blending and overlapping regions, plus a few hand-computed results that check the
// reference itself. Targets, levels, depth/stencil and bad input: blit_targets_test.cpp.
#include <catch2/catch.hpp>

#include "blit_reference.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::test::blit_ref;

namespace {

ResourceTemplate tex2d(Format f, uint32_t w, uint16_t h) {
  return make_templ(TextureTarget::TEXTURE_2D, f, w, h);
}

// The RGBA8 texels of a one-row image.
std::vector<uint8_t> row_rgba8(const Image& img, int y = 0) {
  std::vector<uint8_t> out;
  for (int x = 0; x < img.w; ++x)
    out.push_back(img.at(x, y, 0)[0]);
  return out;
}

}  // namespace

TEST_CASE("blit reference: hand-computed nearest, linear and mirrored rows", "[frontend][blit]") {
  // Checks the reference model itself on results worked out by hand (red channel).
  auto ctx = new_context();
  auto src = create(tex2d(Format::R8G8B8A8_UNORM, 4, 1));
  write_box(*ctx, src, 0, make_box_2d(0, 0, 4, 1),
            {0, 1, 2, 255, 100, 1, 2, 255, 200, 1, 2, 255, 255, 1, 2, 255});
  auto dst = create(tex2d(Format::R8G8B8A8_UNORM, 8, 1));
  auto red = [&] { return row_rgba8(read_level(*ctx, dst, 0, Format::R8G8B8A8_UNORM)); };

  // Nearest 2x: every texel twice.
  REQUIRE(ctx->blit(make_info(dst, make_box_2d(0, 0, 8, 1), src, make_box_2d(0, 0, 4, 1))).is_ok());
  CHECK(red() == std::vector<uint8_t>{0, 0, 100, 100, 200, 200, 255, 255});
  // Mirrored source: reversed.
  REQUIRE(
      ctx->blit(make_info(dst, make_box_2d(0, 0, 4, 1), src, make_box_2d(4, 0, -4, 1))).is_ok());
  CHECK(red() == std::vector<uint8_t>{255, 200, 100, 0, 200, 200, 255, 255});
  // Mirrored destination box: reversed too.
  REQUIRE(
      ctx->blit(make_info(dst, make_box_2d(8, 0, -4, 1), src, make_box_2d(0, 0, 4, 1))).is_ok());
  CHECK(red() == std::vector<uint8_t>{255, 200, 100, 0, 255, 200, 100, 0});
  // Linear from the box {0, 100} to 4 texels: centres 0.25, 0.75, 1.25, 1.75 blend
  // 0 (clamped at the left edge), 0.25 * 100, 0.75 * 100, and 0.75 * 100 + 0.25 * 200:
  // the last tap lies outside the box but inside the level, which linear filtering reads.
  REQUIRE(ctx->blit(make_info(dst, make_box_2d(0, 0, 4, 1), src, make_box_2d(0, 0, 2, 1),
                              TexFilter::LINEAR))
              .is_ok());
  CHECK(red() == std::vector<uint8_t>{0, 25, 75, 125, 255, 200, 100, 0});
  // A source box partly outside: texels left of 0 repeat texel 0, right of 3 texel 3.
  REQUIRE(
      ctx->blit(make_info(dst, make_box_2d(0, 0, 8, 1), src, make_box_2d(-2, 0, 8, 1))).is_ok());
  CHECK(red() == std::vector<uint8_t>{0, 0, 0, 100, 200, 255, 255, 255});
  // The reference agrees with all of it.
  const Image s = read_level(*ctx, src, 0, Format::R8G8B8A8_UNORM);
  Image m = read_level(*ctx, dst, 0, Format::R8G8B8A8_UNORM);
  model_blit(m, s, make_info(dst, make_box_2d(0, 0, 8, 1), src, make_box_2d(-2, 0, 8, 1)), false);
  CHECK(row_rgba8(m) == std::vector<uint8_t>{0, 0, 0, 100, 200, 255, 255, 255});
}

TEST_CASE("blit reference: sRGB decode, integer clamping and depth conversion",
          "[frontend][blit]") {
  auto ctx = new_context();
  // sRGB 188 is linear 0.5026..., which is UNORM 128; alpha stays linear.
  auto srgb = create(tex2d(Format::R8G8B8A8_SRGB, 1, 1));
  auto lin = create(tex2d(Format::R8G8B8A8_UNORM, 1, 1));
  write_box(*ctx, srgb, 0, make_box_2d(0, 0, 1, 1), {188, 188, 255, 188});
  REQUIRE(
      ctx->blit(make_info(lin, make_box_2d(0, 0, 1, 1), srgb, make_box_2d(0, 0, 1, 1))).is_ok());
  CHECK(read_box(*ctx, lin, 0, make_box_2d(0, 0, 1, 1)) ==
        std::vector<uint8_t>{128, 128, 255, 188});

  // R32_UINT 300 and 7 narrowed to R8_UINT: 255 (clamped) and 7.
  auto wide = create(tex2d(Format::R32_UINT, 2, 1));
  auto narrow = create(tex2d(Format::R8_UINT, 2, 1));
  write_box(*ctx, wide, 0, make_box_2d(0, 0, 2, 1), {44, 1, 0, 0, 7, 0, 0, 0});
  REQUIRE(
      ctx->blit(make_info(narrow, make_box_2d(0, 0, 2, 1), wide, make_box_2d(0, 0, 2, 1))).is_ok());
  CHECK(read_box(*ctx, narrow, 0, make_box_2d(0, 0, 2, 1)) == std::vector<uint8_t>{255, 7});

  // Z32_FLOAT 0.5 into Z24_UNORM_S8_UINT: 0x800000 (0.5 * (2^24 - 1) rounded up), stencil 9
  // kept.
  auto zf = create(tex2d(Format::Z32_FLOAT, 1, 1));
  auto z24 = create(tex2d(Format::Z24_UNORM_S8_UINT, 1, 1));
  write_box(*ctx, zf, 0, make_box_2d(0, 0, 1, 1), {0, 0, 0, 0x3f});
  write_box(*ctx, z24, 0, make_box_2d(0, 0, 1, 1), {1, 2, 3, 9});
  REQUIRE(
      ctx->blit(make_info(z24, 0, make_box_2d(0, 0, 1, 1), Format::Z24_UNORM_S8_UINT, zf, 0,
                          make_box_2d(0, 0, 1, 1), Format::Z32_FLOAT, TexFilter::NEAREST, Mask::Z))
          .is_ok());
  CHECK(read_box(*ctx, z24, 0, make_box_2d(0, 0, 1, 1)) == std::vector<uint8_t>{0, 0, 0x80, 9});
}

TEST_CASE("nearest blits scale up and down and mirror", "[frontend][blit]") {
  auto ctx = new_context();
  auto src = filled(*ctx, tex2d(Format::R8G8B8A8_UNORM, 13, 9), 1);
  auto dst = filled(*ctx, tex2d(Format::R8G8B8A8_UNORM, 31, 23), 2);
  struct Case {
    Box s, d;
  };
  const Case cases[] = {
      {{2, 1, 0, 8, 6, 1}, {5, 3, 0, 8, 6, 1}},        // unscaled (a raw copy)
      {{0, 0, 0, 13, 9, 1}, {1, 2, 0, 26, 18, 1}},     // 2x up
      {{3, 2, 0, 7, 5, 1}, {0, 0, 0, 21, 10, 1}},      // 3x, 2x up
      {{0, 0, 0, 13, 9, 1}, {4, 4, 0, 5, 4, 1}},       // down, uneven
      {{1, 1, 0, 12, 8, 1}, {0, 0, 0, 31, 23, 1}},     // up by 31/12, 23/8
      {{13, 0, 0, -13, 9, 1}, {0, 0, 0, 13, 9, 1}},    // mirrored in x
      {{0, 9, 0, 13, -9, 1}, {2, 2, 0, 13, 9, 1}},     // mirrored in y
      {{12, 8, 0, -10, -7, 1}, {0, 0, 0, 29, 20, 1}},  // both, scaled up
      {{0, 0, 0, 13, 9, 1}, {20, 0, 0, -13, 9, 1}},    // destination mirrored in x
      {{13, 0, 0, -13, 9, 1}, {20, 5, 0, -13, 9, 1}},  // both mirrored: no flip
      {{0, 0, 0, 13, 9, 1}, {3, 22, 0, 9, -13, 1}},    // destination mirrored in y, scaled
  };
  for (const Case& c : cases)
    check_blit(*ctx, make_info(dst, c.d, src, c.s));
}

TEST_CASE("linear blits filter bilinearly from texel centres", "[frontend][blit]") {
  auto ctx = new_context();
  const Format formats[] = {Format::R8G8B8A8_UNORM, Format::R16G16B16A16_FLOAT,
                            Format::R32G32B32A32_FLOAT, Format::R16G16_SNORM};
  uint32_t seed = 10;
  for (Format f : formats) {
    auto src = filled(*ctx, tex2d(f, 11, 7), seed++);
    auto dst = filled(*ctx, tex2d(f, 30, 19), seed++);
    const Box cases[][2] = {
        {{0, 0, 0, 11, 7, 1}, {0, 0, 0, 22, 14, 1}},     // 2x up
        {{0, 0, 0, 11, 7, 1}, {3, 1, 0, 27, 18, 1}},     // uneven up
        {{0, 0, 0, 10, 6, 1}, {0, 0, 0, 5, 3, 1}},       // 2x down: a 2x2 box filter
        {{1, 0, 0, 9, 7, 1}, {4, 4, 0, 3, 2, 1}},        // 3x, 3.5x down
        {{11, 0, 0, -11, 7, 1}, {0, 0, 0, 30, 19, 1}},   // mirrored and scaled
        {{2, 2, 0, 5, 3, 1}, {6, 6, 0, 5, 3, 1}},        // unscaled: the texels themselves
        {{-3, -2, 0, 17, 11, 1}, {0, 0, 0, 30, 19, 1}},  // partly outside the source
        // The extreme box: from the last int32 back over the whole range (only its far
        // end is inside the level, so nearly every texel clamps).
        {{INT32_MAX, 0, 0, INT32_MIN, 7, 1}, {0, 0, 0, 30, 19, 1}},
    };
    for (const auto& c : cases)
      check_blit(*ctx, make_info(dst, c[1], src, c[0], TexFilter::LINEAR));
  }
}

TEST_CASE("blits convert between formats", "[frontend][blit]") {
  auto ctx = new_context();
  struct Pair {
    Format src, dst;
  };
  using F = Format;
  const Pair pairs[] = {
      {F::R8G8B8A8_UNORM, F::B8G8R8A8_UNORM},
      {F::B8G8R8A8_UNORM, F::R8G8B8A8_UNORM},
      {F::R8G8B8A8_UNORM, F::R16G16B16A16_FLOAT},
      {F::R16G16B16A16_FLOAT, F::R8G8B8A8_UNORM},
      {F::R16G16B16A16_FLOAT, F::R11G11B10_FLOAT},
      {F::R11G11B10_FLOAT, F::R16G16B16A16_FLOAT},
      {F::R11G11B10_FLOAT, F::B8G8R8A8_UNORM},
      {F::R10G10B10A2_UNORM, F::R8G8B8A8_UNORM},
      {F::R8G8B8A8_UNORM, F::R10G10B10A2_UNORM},
      {F::B8G8R8A8_UNORM, F::B10G10R10A2_UNORM},
      {F::R8G8B8A8_SRGB, F::R8G8B8A8_UNORM},      // decodes
      {F::R8G8B8A8_UNORM, F::B8G8R8A8_SRGB},      // encodes
      {F::B8G8R8A8_SRGB, F::R16G16B16A16_FLOAT},  // decodes
      {F::R8G8B8A8_SNORM, F::R8G8B8A8_UNORM},     // negatives clamp to 0
      {F::R32G32B32A32_FLOAT, F::R8G8B8A8_SNORM},
      {F::B5G6R5_UNORM, F::R8G8B8A8_UNORM},
      {F::R8G8B8A8_UNORM, F::B4G4R4A4_UNORM},
      {F::R9G9B9E5_FLOAT, F::R32G32B32A32_FLOAT},
      {F::L8_UNORM, F::R8G8B8A8_UNORM},
      {F::A8_UNORM, F::R8G8B8A8_UNORM},
      {F::I8_UNORM, F::R8G8B8A8_UNORM},
      {F::L8A8_UNORM, F::B8G8R8A8_UNORM},
      {F::R8G8B8A8_UNORM, F::L8A8_UNORM},
      {F::R8G8B8A8_UNORM, F::A8_UNORM},
      {F::R8G8B8A8_UNORM, F::I16_FLOAT},
      {F::L16_FLOAT, F::R16G16B16A16_FLOAT},
      {F::R8G8B8X8_UNORM, F::R8G8B8A8_UNORM},  // alpha reads 1
  };
  uint32_t seed = 100;
  for (const Pair& pr : pairs) {
    auto src = filled(*ctx, tex2d(pr.src, 9, 6), seed++);
    auto dst = filled(*ctx, tex2d(pr.dst, 17, 12), seed++);
    check_blit(*ctx, make_info(dst, make_box_2d(1, 2, 9, 6), src, make_box_2d(0, 0, 9, 6)));
    check_blit(*ctx, make_info(dst, make_box_2d(0, 0, 17, 12), src, make_box_2d(0, 6, 9, -6),
                               TexFilter::LINEAR));
  }
}

TEST_CASE("blits read and write through sRGB and linear views of a resource", "[frontend][blit]") {
  // GL's sRGB blits arrive as BlitInfo formats that differ from the resources' formats.
  auto ctx = new_context();
  auto unorm = filled(*ctx, tex2d(Format::R8G8B8A8_UNORM, 8, 8), 1);
  auto srgb = filled(*ctx, tex2d(Format::R8G8B8A8_SRGB, 16, 16), 2);
  auto half = filled(*ctx, tex2d(Format::R16G16B16A16_FLOAT, 16, 16), 3);
  // UNORM data read as sRGB (decoded).
  check_blit(*ctx, make_info(half, 0, make_box_2d(0, 0, 16, 16), Format::R16G16B16A16_FLOAT, unorm,
                             0, make_box_2d(0, 0, 8, 8), Format::R8G8B8A8_SRGB, TexFilter::LINEAR));
  // sRGB data read raw through its linear twin and written encoded into a UNORM resource.
  check_blit(*ctx, make_info(unorm, 0, make_box_2d(0, 0, 8, 8), Format::R8G8B8A8_SRGB, srgb, 0,
                             make_box_2d(0, 0, 16, 16), Format::R8G8B8A8_UNORM, TexFilter::LINEAR));
  // Downsampling in linear space: sRGB -> sRGB, decoded, filtered, encoded.
  check_blit(*ctx, make_info(unorm, 0, make_box_2d(0, 0, 8, 8), Format::R8G8B8A8_SRGB, srgb, 0,
                             make_box_2d(0, 0, 16, 16), Format::R8G8B8A8_SRGB, TexFilter::LINEAR));
}

TEST_CASE("integer blits widen and narrow through the integer views", "[frontend][blit]") {
  auto ctx = new_context();
  struct Pair {
    Format src, dst;
  };
  using F = Format;
  const Pair pairs[] = {
      {F::R8G8B8A8_UINT, F::R16G16B16A16_UINT},
      {F::R32G32B32A32_UINT, F::R8G8B8A8_UINT},
      {F::R16G16B16A16_UINT, F::R10G10B10A2_UINT},
      {F::R10G10B10A2_UINT, F::R32G32_UINT},
      {F::R8G8B8A8_SINT, F::R32G32B32A32_SINT},
      {F::R32G32B32A32_SINT, F::R8G8B8A8_SINT},
      {F::R16G16_SINT, F::R8G8_SINT},
      {F::L8_UINT, F::R16G16B16A16_UINT},
      {F::A8_UINT, F::R8G8B8A8_UINT},
      {F::I16_SINT, F::R32G32B32A32_SINT},
      {F::R8G8B8A8_UINT, F::L16A16_UINT},
      {F::R32_SINT, F::I8_SINT},
  };
  uint32_t seed = 300;
  for (const Pair& pr : pairs) {
    auto src = filled(*ctx, tex2d(pr.src, 7, 5), seed++);
    auto dst = filled(*ctx, tex2d(pr.dst, 15, 11), seed++);
    check_blit(*ctx, make_info(dst, make_box_2d(2, 1, 7, 5), src, make_box_2d(0, 0, 7, 5)));
    check_blit(*ctx, make_info(dst, make_box_2d(0, 0, 15, 11), src, make_box_2d(7, 0, -7, 5)));
  }
}

TEST_CASE("colour masks write only the selected components", "[frontend][blit]") {
  auto ctx = new_context();
  struct Case {
    Format src, dst;
    uint32_t mask;
  };
  using F = Format;
  const Case cases[] = {
      {F::R8G8B8A8_UNORM, F::R8G8B8A8_UNORM, Mask::R | Mask::B},
      {F::R8G8B8A8_UNORM, F::B8G8R8A8_UNORM, Mask::A},
      {F::R16G16B16A16_FLOAT, F::B5G6R5_UNORM, Mask::G},
      {F::R8G8B8A8_UNORM, F::R8G8B8X8_UNORM, Mask::R | Mask::G | Mask::B},
      {F::R8G8B8A8_UNORM, F::L8A8_UNORM, Mask::G | Mask::A},  // L stores R: A only
      {F::R8G8B8A8_UNORM, F::R9G9B9E5_FLOAT, Mask::G},        // shared exponent: all
      {F::R8G8B8A8_UINT, F::R16G16B16A16_UINT, Mask::G | Mask::A},
      {F::R8G8B8A8_UNORM, F::R8G8B8A8_UNORM, Mask::Z},  // no colour component: nothing
  };
  uint32_t seed = 500;
  for (const Case& c : cases) {
    auto src = filled(*ctx, tex2d(c.src, 6, 6), seed++);
    auto dst = filled(*ctx, tex2d(c.dst, 12, 12), seed++);
    check_blit(*ctx, make_info(dst, 0, make_box_2d(0, 0, 12, 12), c.dst, src, 0,
                               make_box_2d(0, 0, 6, 6), c.src, TexFilter::NEAREST, c.mask));
    check_blit(*ctx, make_info(dst, 0, make_box_2d(3, 3, 6, 6), c.dst, src, 0,
                               make_box_2d(0, 0, 6, 6), c.src, TexFilter::NEAREST, c.mask));
  }
}

TEST_CASE("the scissor clips the destination", "[frontend][blit]") {
  auto ctx = new_context();
  auto src = filled(*ctx, tex2d(Format::R8G8B8A8_UNORM, 10, 10), 1);
  auto dst = filled(*ctx, tex2d(Format::R8G8B8A8_UNORM, 20, 20), 2);
  const ScissorState scissors[] = {
      {3, 4, 15, 9},   // inside the box
      {0, 0, 40, 40},  // covers it
      {19, 0, 40, 5},  // one column
      {7, 7, 7, 12},   // empty
      {0, 0, 1, 1},    // outside the box
  };
  for (const ScissorState& sc : scissors) {
    INFO("scissor " << sc.minx << "," << sc.miny << " - " << sc.maxx << "," << sc.maxy);
    for (const bool scaled : {false, true}) {
      BlitInfo b = make_info(dst, make_box_2d(2, 2, scaled ? 18 : 10, scaled ? 17 : 10), src,
                             make_box_2d(0, 0, 10, 10), TexFilter::LINEAR);
      b.scissor_enable = true;
      b.scissor = sc;
      check_blit(*ctx, b);
    }
  }
}

TEST_CASE("the destination box may reach outside its level", "[frontend][blit]") {
  // st/mesa sends scaled blits unclipped (piglit fbo-blit-scaled-linear): the part inside
  // the level is written at the box's scale, the rest is dropped.
  auto ctx = new_context();
  auto src = filled(*ctx, tex2d(Format::R8G8B8A8_UNORM, 10, 10), 1);
  auto dst = filled(*ctx, tex2d(Format::R8G8B8A8_UNORM, 20, 16), 2);
  const Box boxes[] = {
      make_box_2d(4, 6, 20, 14),    // past the right and bottom edges
      make_box_2d(-5, -3, 12, 9),   // before the left and top edges
      make_box_2d(-4, -4, 28, 24),  // around the whole level
      make_box_2d(22, 0, 24, -10),  // mirrored, starting past the right edge
      make_box_2d(25, 20, 10, 10),  // entirely outside: nothing is written
  };
  for (const Box& db : boxes) {
    for (const TexFilter f : {TexFilter::NEAREST, TexFilter::LINEAR}) {
      INFO("dst box " << db.x << "," << db.y << " " << db.width << "x" << db.height << " filter "
                      << int(f));
      check_blit(*ctx, make_info(dst, db, src, make_box_2d(0, 0, 10, 10), f));
    }
  }
  // Unscaled and inside the source: the copy path clips the same way.
  check_blit(*ctx, make_info(dst, make_box_2d(15, 12, 10, 10), src, make_box_2d(0, 0, 10, 10),
                             TexFilter::NEAREST));
}

TEST_CASE("alpha_blend blends the source over the destination", "[frontend][blit]") {
  auto ctx = new_context();
  const Format formats[] = {Format::R8G8B8A8_UNORM, Format::R16G16B16A16_FLOAT,
                            Format::B8G8R8A8_SRGB};
  uint32_t seed = 700;
  for (Format f : formats) {
    auto src = filled(*ctx, tex2d(Format::R8G8B8A8_UNORM, 8, 8), seed++);
    auto dst = filled(*ctx, tex2d(f, 8, 8), seed++);
    BlitInfo b = make_info(dst, make_box_2d(0, 0, 8, 8), src, make_box_2d(0, 0, 8, 8));
    b.alpha_blend = true;
    check_blit(*ctx, b);
    b.filter = TexFilter::LINEAR;
    b.src.box = make_box_2d(1, 1, 4, 5);
    b.mask = Mask::R | Mask::A;
    check_blit(*ctx, b);
  }
}

TEST_CASE("blits inside one level read the source as it was", "[frontend][blit]") {
  auto ctx = new_context();
  auto tex = filled(*ctx, tex2d(Format::R8G8B8A8_UNORM, 16, 16), 3);
  // Overlapping shift, an in-place horizontal flip, and an in-place upscale.
  check_blit(*ctx, make_info(tex, make_box_2d(3, 2, 10, 10), tex, make_box_2d(0, 0, 10, 10)));
  check_blit(*ctx, make_info(tex, make_box_2d(0, 0, 16, 16), tex, make_box_2d(16, 0, -16, 16)));
  check_blit(*ctx, make_info(tex, make_box_2d(0, 0, 16, 16), tex, make_box_2d(4, 4, 8, 8),
                             TexFilter::LINEAR));
  // Disjoint regions of one level need no staging and give the same answer.
  check_blit(*ctx, make_info(tex, make_box_2d(8, 8, 8, 8), tex, make_box_2d(0, 0, 4, 4)));
  // A same-format unscaled copy inside the level.
  check_blit(*ctx, make_info(tex, make_box_2d(1, 1, 8, 8), tex, make_box_2d(0, 0, 8, 8)));
}

TEST_CASE("a blit inside one level stages only the texels it reads", "[frontend][blit]") {
  auto ctx = new_context();
  frontend::ContextImpl& impl = dynamic_cast<frontend::ContextImpl&>(*ctx);
  auto tex = filled(*ctx, tex2d(Format::R8G8B8A8_UNORM, 16, 16), 5);
  // Launches of the blit alone (a staging copy is a launch of its own), and its texels.
  auto launches = [&](const BlitInfo& b) {
    const Image src = read_level(*ctx, tex, 0, Format::R8G8B8A8_UNORM);
    Image want = src;
    model_blit(want, src, b, false);
    const uint64_t before = impl.queue_for_tests().counters().launches;
    REQUIRE(ctx->blit(b).is_ok());
    const uint64_t n = impl.queue_for_tests().counters().launches - before;
    CHECK(compare(read_level(*ctx, tex, 0, Format::R8G8B8A8_UNORM), want) == "");
    return n;
  };
  // glCopyPixels of one pixel onto the next, as piglit's copypixels-sync does 25,600
  // times: a raw copy, with no staging copy of the level.
  CHECK(launches(make_info(tex, make_box_2d(1, 0, 1, 1), tex, make_box_2d(0, 0, 1, 1))) == 1);
  CHECK(launches(make_info(tex, make_box_2d(4, 6, 3, 2), tex, make_box_2d(4, 4, 3, 2))) == 1);
  // Masked, so blit_texels: unscaled nearest reads only its source box, which misses the
  // destination.
  BlitInfo masked = make_info(tex, make_box_2d(3, 3, 1, 1), tex, make_box_2d(2, 3, 1, 1));
  masked.mask = Mask::R | Mask::G;
  CHECK(launches(masked) == 1);
  // Mirrored, unscaled: the same.
  CHECK(launches(make_info(tex, make_box_2d(4, 9, 4, 1), tex, make_box_2d(4, 9, -4, 1))) == 1);
  // Linear filtering reaches the neighbours, scaled nearest may round onto them, and
  // overlapping boxes overlap: each reads a staged copy (2 launches) and gets the texels
  // of a blit from a copy.
  masked.filter = TexFilter::LINEAR;
  CHECK(launches(masked) == 2);
  masked.filter = TexFilter::NEAREST;
  CHECK(launches(make_info(tex, make_box_2d(10, 0, 2, 2), tex, make_box_2d(9, 0, 1, 1))) == 2);
  masked.dst.box = make_box_2d(5, 5, 4, 4);
  masked.src.box = make_box_2d(4, 4, 4, 4);
  CHECK(launches(masked) == 2);
  CHECK(launches(make_info(tex, make_box_2d(0, 1, 16, 4), tex, make_box_2d(0, 0, 16, 4))) == 2);
}

TEST_CASE("blits honour the render condition only when asked to", "[frontend][blit][query]") {
  auto ctx = new_context();
  auto src = filled(*ctx, tex2d(Format::R8G8B8A8_UNORM, 8, 8), 11);
  auto dst = filled(*ctx, tex2d(Format::R8G8B8A8_UNORM, 8, 8), 12);
  auto q = ctx->create_query(QueryType::OCCLUSION_PREDICATE, 0).value();
  REQUIRE(ctx->begin_query(q).is_ok());
  REQUIRE(ctx->end_query(q).is_ok());                                      // nothing drawn: false
  REQUIRE(ctx->render_condition(q, false, RenderCondMode::WAIT).is_ok());  // skip when false
  BlitInfo b = make_info(dst, make_box_2d(0, 0, 8, 8), src, make_box_2d(0, 0, 8, 8));
  const Image before = read_level(*ctx, dst, 0, Format::R8G8B8A8_UNORM);
  b.render_condition_enable = true;
  REQUIRE(ctx->blit(b).is_ok());
  CHECK(compare(read_level(*ctx, dst, 0, Format::R8G8B8A8_UNORM), before) == "");
  // Invalid blits are still errors when the condition would skip them.
  BlitInfo bad = b;
  bad.mask = 0x1000;
  CHECK(ctx->blit(bad).code() == ErrorCode::kInvalidArgument);
  // Without render_condition_enable (u_blitter's internal blits) the condition is ignored.
  b.render_condition_enable = false;
  check_blit(*ctx, b);
  // An inverted condition lets the blit through.
  REQUIRE(ctx->render_condition(q, true, RenderCondMode::WAIT).is_ok());
  b.render_condition_enable = true;
  b.src.box = make_box_2d(8, 0, -8, 8);
  check_blit(*ctx, b);
}
