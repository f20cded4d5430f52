// Resource layout (pitches, offsets, alignment) and the template / box rules.
#include <catch2/catch.hpp>

#include "frontend/layout.h"
#include "frontend_util.h"
#include "runtime/error.h"

using namespace clpipe;
using namespace clpipe::frontend;
using clpipe::test::make_templ;

namespace {

TextureLimits limits() {
  TextureLimits l;
  l.max_buffer = 1u << 30;
  l.max_alloc = 1u << 30;
  return l;
}

ErrorCode code_of(const ResourceTemplate& t, const TextureLimits& l = limits()) {
  try {
    validate_template(t, l);
    return ErrorCode::kOk;
  } catch (const clpipe::Error& e) {
    return e.code();
  }
}

}  // namespace

TEST_CASE("2D mip chain: pitches aligned to 16, levels to 64", "[frontend][layout]") {
  // R8G8B8: 3-byte texels, 13x7 -> rows of 39 bytes padded to 48.
  const ResourceLayout L(
      make_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8_UNORM, 13, 7, 1, 1, 3));
  REQUIRE(L.num_levels() == 4);
  CHECK(L.block_bytes() == 3);
  const uint32_t widths[] = {13, 6, 3, 1}, heights[] = {7, 3, 1, 1};
  uint64_t end = 0;
  for (unsigned l = 0; l < 4; ++l) {
    const LevelLayout& lv = L.level(l);
    CHECK(lv.width == widths[l]);
    CHECK(lv.height == heights[l]);
    CHECK(lv.layers == 1);
    CHECK(lv.row_pitch % 16 == 0);
    CHECK(lv.row_pitch >= lv.width * 3);
    CHECK(lv.row_pitch < lv.width * 3 + 16);
    CHECK(lv.layer_pitch == uint64_t(lv.row_pitch) * lv.height);
    CHECK(lv.offset % 64 == 0);
    CHECK(lv.offset >= end);
    CHECK(lv.offset < end + 64);
    end = lv.offset + lv.size;
  }
  CHECK(L.level(0).row_pitch == 48);
  CHECK(L.size_bytes() == end);
  CHECK(L.alloc_bytes() % 16 == 0);
  CHECK(L.texel_offset(1, 2, 1, 0) == L.level(1).offset + L.level(1).row_pitch + 6);
}

TEST_CASE("array, cube and 3D layers are z, and 1D arrays keep height 1", "[frontend][layout]") {
  const ResourceLayout a1(
      make_templ(TextureTarget::TEXTURE_1D_ARRAY, Format::R32_FLOAT, 10, 1, 1, 5, 1));
  CHECK(a1.level(0).height == 1);
  CHECK(a1.level(0).layers == 5);
  CHECK(a1.level(1).layers == 5);
  CHECK(a1.level(1).width == 5);
  CHECK(a1.level(0).layer_pitch == 48);  // 40 bytes padded to 48
  CHECK(a1.texel_offset(0, 3, 0, 2) == 2 * 48 + 12);

  const ResourceLayout cube(
      make_templ(TextureTarget::TEXTURE_CUBE, Format::R8G8B8A8_UNORM, 8, 8, 1, 6, 3));
  CHECK(cube.level(0).layers == 6);
  CHECK(cube.level(3).layers == 6);
  CHECK(cube.level(3).width == 1);
  CHECK(cube.level(0).size == 6u * 8 * 32);

  const ResourceLayout v(make_templ(TextureTarget::TEXTURE_3D, Format::R16_UINT, 8, 4, 6, 1, 2));
  CHECK(v.level(0).layers == 6);
  CHECK(v.level(1).layers == 3);
  CHECK(v.level(2).layers == 1);
  CHECK(v.level(1).depth == 3);
  CHECK(v.level(2).height == 1);
}

TEST_CASE("buffers are one row of width0 bytes, padded only in the allocation",
          "[frontend][layout]") {
  const ResourceLayout b(
      make_templ(TextureTarget::BUFFER, Format::R32G32B32A32_FLOAT, 37, 1, 1, 1, 0));
  CHECK(b.is_buffer());
  CHECK(b.block_bytes() == 1);
  CHECK(b.size_bytes() == 37);
  CHECK(b.alloc_bytes() == 48);
  CHECK(b.level(0).row_pitch == 37);
}

TEST_CASE("templates that break a target's rules are invalid", "[frontend][layout]") {
  using T = TextureTarget;
  const Format f = Format::R8G8B8A8_UNORM;
  CHECK(code_of(make_templ(T::TEXTURE_2D, f, 16, 16, 1, 1, 4)) == ErrorCode::kOk);
  CHECK(code_of(make_templ(T::TEXTURE_2D, f, 0, 16, 1, 1, 0)) == ErrorCode::kInvalidArgument);
  CHECK(code_of(make_templ(T::TEXTURE_2D, f, 16, 0, 1, 1, 0)) == ErrorCode::kInvalidArgument);
  CHECK(code_of(make_templ(T::TEXTURE_2D, f, 16, 16, 1, 0, 0)) == ErrorCode::kInvalidArgument);
  CHECK(code_of(make_templ(T::TEXTURE_2D, f, 16, 16, 2, 1, 0)) == ErrorCode::kInvalidArgument);
  CHECK(code_of(make_templ(T::TEXTURE_2D, f, 16, 16, 1, 2, 0)) == ErrorCode::kInvalidArgument);
  CHECK(code_of(make_templ(T::TEXTURE_2D, f, 16, 16, 1, 1, 5)) == ErrorCode::kInvalidArgument);
  CHECK(code_of(make_templ(T::TEXTURE_1D, f, 16, 2, 1, 1, 0)) == ErrorCode::kInvalidArgument);
  CHECK(code_of(make_templ(T::TEXTURE_1D_ARRAY, f, 16, 1, 1, 4, 4)) == ErrorCode::kOk);
  CHECK(code_of(make_templ(T::TEXTURE_RECT, f, 16, 16, 1, 1, 1)) == ErrorCode::kInvalidArgument);
  CHECK(code_of(make_templ(T::TEXTURE_CUBE, f, 16, 8, 1, 6, 0)) == ErrorCode::kInvalidArgument);
  CHECK(code_of(make_templ(T::TEXTURE_CUBE, f, 16, 16, 1, 5, 0)) == ErrorCode::kInvalidArgument);
  CHECK(code_of(make_templ(T::TEXTURE_CUBE_ARRAY, f, 16, 16, 1, 12, 0)) == ErrorCode::kOk);
  CHECK(code_of(make_templ(T::TEXTURE_CUBE_ARRAY, f, 16, 16, 1, 8, 0)) ==
        ErrorCode::kInvalidArgument);
  CHECK(code_of(make_templ(T::TEXTURE_3D, f, 16, 16, 16, 2, 0)) == ErrorCode::kInvalidArgument);
  CHECK(code_of(make_templ(T::TEXTURE_3D, f, 4, 4, 64, 1, 6)) == ErrorCode::kOk);  // depth counts
  CHECK(code_of(make_templ(T::BUFFER, f, 64, 2, 1, 1, 0)) == ErrorCode::kInvalidArgument);
  CHECK(code_of(make_templ(T::BUFFER, f, 64, 1, 1, 1, 1)) == ErrorCode::kInvalidArgument);
  CHECK(code_of(make_templ(TextureTarget(9), f, 16, 1, 1, 1, 0)) == ErrorCode::kInvalidArgument);
  CHECK(code_of(make_templ(T::TEXTURE_2D, Format::NONE, 16, 1, 1, 1, 0)) ==
        ErrorCode::kInvalidArgument);
  CHECK(code_of(make_templ(T::TEXTURE_2D, Format::COUNT, 16, 1, 1, 1, 0)) ==
        ErrorCode::kInvalidArgument);
  // 32-byte texels exist only as vertex formats.
  CHECK(code_of(make_templ(T::TEXTURE_2D, Format::R64G64B64A64_FLOAT, 4, 4, 1, 1, 0)) ==
        ErrorCode::kInvalidArgument);
}

TEST_CASE("oversized dimensions, samples and flags are refused", "[frontend][layout]") {
  using T = TextureTarget;
  const Format f = Format::R8_UNORM;
  TextureLimits l = limits();
  CHECK(code_of(make_templ(T::TEXTURE_2D, f, l.max_2d, 1, 1, 1, 0)) == ErrorCode::kOk);
  CHECK(code_of(make_templ(T::TEXTURE_2D, f, l.max_2d + 1, 1, 1, 1, 0)) ==
        ErrorCode::kInvalidArgument);
  CHECK(code_of(make_templ(T::TEXTURE_3D, f, l.max_3d + 1, 1, 1, 1, 0)) ==
        ErrorCode::kInvalidArgument);
  CHECK(code_of(make_templ(T::TEXTURE_2D_ARRAY, f, 4, 4, 1, uint16_t(l.max_layers + 1), 0)) ==
        ErrorCode::kInvalidArgument);
  CHECK(code_of(make_templ(T::BUFFER, f, uint32_t(l.max_buffer) + 1, 1, 1, 1, 0)) ==
        ErrorCode::kInvalidArgument);
  // Fits every per-dimension limit but not one allocation.
  l.max_alloc = 1000;
  CHECK(code_of(make_templ(T::TEXTURE_2D, f, 64, 64, 1, 1, 0), l) == ErrorCode::kOutOfMemory);
  ResourceTemplate ms = make_templ(T::TEXTURE_2D, f, 4, 4, 1, 1, 0);
  ms.nr_samples = 16;
  CHECK(code_of(ms) == ErrorCode::kUnsupported);
  ms.nr_samples = 8;
  CHECK(code_of(ms) == ErrorCode::kOk);
  ResourceTemplate persistent = make_templ(T::BUFFER, f, 64, 1, 1, 1, 0);
  persistent.flags = ResourceFlag::MAP_PERSISTENT;
  CHECK(code_of(persistent) == ErrorCode::kUnsupported);
}

TEST_CASE("textures that are sampled or images stay below 4 GiB", "[frontend][layout]") {
  // A view's descriptor holds 32-bit level offsets: a 16384^2 RGBA32F texture with its mip
  // chain (5.3 GiB) would sample level 1 from level 0's bytes. On a device that can
  // allocate it, it is refused when sampled, and allowed as a render target only.
  using T = TextureTarget;
  TextureLimits l = limits();
  l.max_alloc = uint64_t(64) << 30;
  const Format f = Format::R32G32B32A32_FLOAT;
  for (uint32_t bind : {uint32_t(Bind::SAMPLER_VIEW), uint32_t(Bind::SHADER_IMAGE)}) {
    INFO("bind " << bind);
    try {
      validate_template(make_templ(T::TEXTURE_2D, f, 16384, 16384, 1, 1, 14, bind), l);
      FAIL("a 5.3 GiB sampled texture was accepted");
    } catch (const clpipe::Error& e) {
      CHECK(e.code() == ErrorCode::kOutOfMemory);
      CHECK_THAT(e.what(), Catch::Contains("at most 4 GiB - 1"));
    }
  }
  CHECK(code_of(make_templ(T::TEXTURE_2D, f, 16384, 16384, 1, 1, 14, Bind::RENDER_TARGET), l) ==
        ErrorCode::kOk);
  // 4 GiB - 1 at most: 16384 x 16383 RGBA32F is 4 GiB - 256 KiB.
  CHECK(code_of(make_templ(T::TEXTURE_2D, f, 16384, 16383, 1, 1, 0, Bind::SAMPLER_VIEW), l) ==
        ErrorCode::kOk);
  CHECK(code_of(make_templ(T::TEXTURE_2D, f, 16384, 16384, 1, 1, 0, Bind::SAMPLER_VIEW), l) ==
        ErrorCode::kOutOfMemory);
}

TEST_CASE("boxes must be non-empty and inside the level", "[frontend][layout]") {
  const ResourceLayout L(
      make_templ(TextureTarget::TEXTURE_2D_ARRAY, Format::R8_UNORM, 8, 4, 1, 3, 1));
  auto ok = [&](unsigned level, Box b) {
    try {
      check_box(L, level, b, "test");
      return true;
    } catch (const clpipe::Error& e) {
      CHECK(e.code() == ErrorCode::kInvalidArgument);
      return false;
    }
  };
  CHECK(ok(0, Box{0, 0, 0, 8, 4, 3}));
  CHECK(ok(1, Box{3, 1, 2, 1, 1, 1}));
  CHECK_FALSE(ok(1, Box{0, 0, 0, 5, 2, 1}));
  CHECK_FALSE(ok(0, Box{0, 0, 0, 8, 4, 4}));
  CHECK_FALSE(ok(0, Box{-1, 0, 0, 2, 1, 1}));
  CHECK_FALSE(ok(0, Box{0, 0, 0, 0, 1, 1}));
  CHECK_FALSE(ok(0, Box{0, 0, 0, 1, -1, 1}));
  CHECK_FALSE(ok(2, Box{0, 0, 0, 1, 1, 1}));
  CHECK_FALSE(ok(0, Box{0x7fffffff, 0, 0, 0x7fffffff, 1, 1}));
}
