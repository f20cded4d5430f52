// Sampler views, surfaces and stream-output targets: format compatibility, target
// rules, level and layer ranges, swizzles, buffers.
#include <catch2/catch.hpp>

#include "frontend/format_support.h"
#include "frontend_util.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

SamplerViewTemplate view(Format f, TextureTarget t, unsigned first_layer = 0,
                         unsigned last_layer = 0, unsigned first_level = 0,
                         unsigned last_level = 0) {
  SamplerViewTemplate v;
  v.format = f;
  v.target = t;
  v.first_layer = uint16_t(first_layer);
  v.last_layer = uint16_t(last_layer);
  v.first_level = uint8_t(first_level);
  v.last_level = uint8_t(last_level);
  return v;
}

}  // namespace

TEST_CASE("view formats must alias the resource's bits", "[frontend][views]") {
  using frontend::view_format_compatible;
  CHECK(view_format_compatible(Format::R8G8B8A8_UNORM, Format::R8G8B8A8_SRGB));
  CHECK(view_format_compatible(Format::R8G8B8A8_UNORM, Format::R32_FLOAT));
  CHECK_FALSE(view_format_compatible(Format::R8G8B8A8_UNORM, Format::R16_FLOAT));
  CHECK(view_format_compatible(Format::Z24_UNORM_S8_UINT, Format::Z24X8_UNORM));
  CHECK(view_format_compatible(Format::Z24_UNORM_S8_UINT, Format::X24S8_UINT));
  CHECK_FALSE(view_format_compatible(Format::Z24X8_UNORM, Format::X24S8_UINT));
  CHECK_FALSE(view_format_compatible(Format::Z24X8_UNORM, Format::Z24_UNORM_S8_UINT));
  CHECK_FALSE(view_format_compatible(Format::Z24_UNORM_S8_UINT, Format::S8X24_UINT));
  CHECK(view_format_compatible(Format::S8_UINT_Z24_UNORM, Format::S8X24_UINT));
  CHECK(view_format_compatible(Format::Z32_FLOAT_S8X24_UINT, Format::X32_S8X24_UINT));
  CHECK_FALSE(view_format_compatible(Format::Z32_FLOAT, Format::R32_FLOAT));
  CHECK_FALSE(view_format_compatible(Format::R32_UINT, Format::Z32_FLOAT));
  CHECK_FALSE(view_format_compatible(Format::NONE, Format::NONE));
}

TEST_CASE("sampler views: targets, layers, levels, swizzles", "[frontend][views]") {
  auto ctx = new_context();
  using T = TextureTarget;
  auto arr = create(make_templ(T::TEXTURE_2D_ARRAY, Format::R8G8B8A8_UNORM, 8, 8, 1, 12, 3));
  auto code = [&](const ResourceRef& r, const SamplerViewTemplate& t) {
    auto v = ctx->create_sampler_view(r, t);
    if (v.is_ok()) {
      CHECK(v.value()->resource() == r);
      CHECK(v.value()->info().format == t.format);
    } else {
      CHECK_FALSE(v.status().message().empty());
    }
    return v.status().code();
  };
  const Format f = Format::R8G8B8A8_UNORM;
  CHECK(code(arr, view(f, T::TEXTURE_2D_ARRAY, 0, 11, 0, 3)) == ErrorCode::kOk);
  CHECK(code(arr, view(Format::R8G8B8A8_SRGB, T::TEXTURE_2D, 5, 5, 1, 2)) == ErrorCode::kOk);
  CHECK(code(arr, view(f, T::TEXTURE_CUBE, 6, 11)) == ErrorCode::kOk);
  CHECK(code(arr, view(f, T::TEXTURE_CUBE_ARRAY, 0, 11)) == ErrorCode::kOk);
  CHECK(code(arr, view(f, T::TEXTURE_CUBE, 6, 10)) == ErrorCode::kInvalidArgument);
  CHECK(code(arr, view(f, T::TEXTURE_CUBE_ARRAY, 0, 8)) == ErrorCode::kInvalidArgument);
  CHECK(code(arr, view(f, T::TEXTURE_2D, 0, 1)) == ErrorCode::kInvalidArgument);
  CHECK(code(arr, view(f, T::TEXTURE_3D)) == ErrorCode::kInvalidArgument);
  CHECK(code(arr, view(f, T::TEXTURE_1D)) == ErrorCode::kInvalidArgument);
  CHECK(code(arr, view(f, T::BUFFER)) == ErrorCode::kInvalidArgument);
  CHECK(code(arr, view(f, TextureTarget(9))) == ErrorCode::kInvalidArgument);
  CHECK(code(arr, view(f, T::TEXTURE_2D_ARRAY, 0, 12)) == ErrorCode::kInvalidArgument);
  CHECK(code(arr, view(f, T::TEXTURE_2D_ARRAY, 3, 2)) == ErrorCode::kInvalidArgument);
  CHECK(code(arr, view(f, T::TEXTURE_2D_ARRAY, 0, 0, 0, 4)) == ErrorCode::kInvalidArgument);
  CHECK(code(arr, view(f, T::TEXTURE_2D_ARRAY, 0, 0, 2, 1)) == ErrorCode::kInvalidArgument);
  CHECK(code(arr, view(Format::R16G16B16A16_FLOAT, T::TEXTURE_2D_ARRAY)) ==
        ErrorCode::kInvalidArgument);
  CHECK(code(arr, view(Format::NONE, T::TEXTURE_2D_ARRAY)) == ErrorCode::kInvalidArgument);
  CHECK(code(nullptr, view(f, T::TEXTURE_2D_ARRAY)) == ErrorCode::kInvalidArgument);
  auto swz = view(f, T::TEXTURE_2D_ARRAY);
  swz.swizzle_r = Swizzle::ONE;
  swz.swizzle_a = Swizzle::ZERO;
  CHECK(code(arr, swz) == ErrorCode::kOk);
  swz.swizzle_g = Swizzle::NONE;
  CHECK(code(arr, swz) == ErrorCode::kInvalidArgument);
  swz.swizzle_g = Swizzle(7);
  CHECK(code(arr, swz) == ErrorCode::kInvalidArgument);

  auto wide = create(make_templ(T::TEXTURE_2D_ARRAY, f, 8, 4, 1, 6));
  CHECK(code(wide, view(f, T::TEXTURE_CUBE, 0, 5)) == ErrorCode::kInvalidArgument);
  auto vol = create(make_templ(T::TEXTURE_3D, f, 8, 8, 8, 1, 2));
  CHECK(code(vol, view(f, T::TEXTURE_3D, 0, 0, 0, 2)) == ErrorCode::kOk);
  CHECK(code(vol, view(f, T::TEXTURE_3D, 0, 1)) == ErrorCode::kInvalidArgument);
  CHECK(code(vol, view(f, T::TEXTURE_2D)) == ErrorCode::kInvalidArgument);
  auto one = create(make_templ(T::TEXTURE_1D_ARRAY, f, 8, 1, 1, 3));
  CHECK(code(one, view(f, T::TEXTURE_1D, 2, 2)) == ErrorCode::kOk);
  CHECK(code(one, view(f, T::TEXTURE_2D, 0, 0)) == ErrorCode::kInvalidArgument);
  auto zs = create(make_templ(T::TEXTURE_2D, Format::Z24_UNORM_S8_UINT, 8, 8));
  CHECK(code(zs, view(Format::X24S8_UINT, T::TEXTURE_2D)) == ErrorCode::kOk);
  CHECK(code(zs, view(Format::Z24X8_UNORM, T::TEXTURE_2D)) == ErrorCode::kOk);
  CHECK(code(zs, view(Format::R8G8B8A8_UINT, T::TEXTURE_2D)) == ErrorCode::kInvalidArgument);
}

TEST_CASE("buffer sampler views: alignment, range, formats", "[frontend][views]") {
  auto ctx = new_context();
  auto buf = create_buffer(256);
  auto bv = [&](Format f, uint32_t offset, uint32_t size) {
    SamplerViewTemplate t;
    t.format = f;
    t.target = TextureTarget::BUFFER;
    t.buf_offset = offset;
    t.buf_size = size;
    return ctx->create_sampler_view(buf, t).status().code();
  };
  CHECK(bv(Format::R32G32B32A32_FLOAT, 0, 256) == ErrorCode::kOk);
  CHECK(bv(Format::R32G32B32_FLOAT, 16, 48) == ErrorCode::kOk);
  CHECK(bv(Format::R8_UNORM, 8, 16) == ErrorCode::kInvalidArgument);
  CHECK(bv(Format::R8_UNORM, 16, 241) == ErrorCode::kInvalidArgument);
  CHECK(bv(Format::R8_UNORM, 16, 0) == ErrorCode::kInvalidArgument);
  CHECK(bv(Format::R32_FIXED, 0, 16) == ErrorCode::kUnsupported);
  CHECK(bv(Format::Z32_FLOAT, 0, 16) == ErrorCode::kUnsupported);
}

TEST_CASE("surfaces: levels, layers and 3D slices, formats", "[frontend][views]") {
  auto ctx = new_context();
  using T = TextureTarget;
  auto code = [&](const ResourceRef& r, Format f, unsigned level, unsigned first, unsigned last) {
    SurfaceTemplate t;
    t.format = f;
    t.level = uint8_t(level);
    t.first_layer = uint16_t(first);
    t.last_layer = uint16_t(last);
    auto s = ctx->create_surface(r, t);
    return s.status().code();
  };
  const Format f = Format::B8G8R8A8_UNORM;
  auto vol = create(make_templ(T::TEXTURE_3D, f, 16, 8, 8, 1, 3));
  CHECK(code(vol, f, 0, 0, 7) == ErrorCode::kOk);
  CHECK(code(vol, f, 1, 0, 3) == ErrorCode::kOk);  // level 1 has 4 slices
  CHECK(code(vol, f, 1, 0, 4) == ErrorCode::kInvalidArgument);
  CHECK(code(vol, f, 4, 0, 0) == ErrorCode::kInvalidArgument);
  CHECK(code(vol, f, 0, 2, 1) == ErrorCode::kInvalidArgument);
  CHECK(code(vol, Format::B8G8R8A8_SRGB, 0, 0, 0) == ErrorCode::kOk);
  CHECK(code(vol, Format::R16G16_UNORM, 0, 0, 0) == ErrorCode::kOk);
  CHECK(code(vol, Format::R16G16B16A16_UNORM, 0, 0, 0) == ErrorCode::kInvalidArgument);
  CHECK(code(vol, Format::NONE, 0, 0, 0) == ErrorCode::kInvalidArgument);
  auto s = make_surface(*ctx, vol, f, 2, 1, 1);
  CHECK(s->width() == 4);
  CHECK(s->height() == 2);
  CHECK(s->info().level == 2);
  auto zs = create(make_templ(T::TEXTURE_CUBE, Format::Z24_UNORM_S8_UINT, 8, 8, 1, 6));
  CHECK(code(zs, Format::Z24_UNORM_S8_UINT, 0, 0, 5) == ErrorCode::kOk);
  CHECK(code(zs, Format::Z24X8_UNORM, 0, 2, 2) == ErrorCode::kOk);
  CHECK(code(zs, Format::R32_UINT, 0, 0, 0) == ErrorCode::kInvalidArgument);
  CHECK(code(create_buffer(64), Format::R8_UNORM, 0, 0, 0) == ErrorCode::kUnsupported);
  SurfaceTemplate ms;
  ms.format = f;
  ms.nr_samples = 4;
  CHECK(ctx->create_surface(vol, ms).status().code() == ErrorCode::kUnsupported);
}

TEST_CASE("stream-output targets: buffers only, dword offsets, in range", "[frontend][views]") {
  auto ctx = new_context();
  auto buf = create_buffer(256);
  auto t = ctx->create_stream_output_target(buf, 16, 240);
  REQUIRE(t.is_ok());
  CHECK(t.value()->buffer() == buf);
  CHECK(t.value()->buffer_offset() == 16);
  CHECK(t.value()->buffer_size() == 240);
  CHECK(ctx->create_stream_output_target(buf, 16, 241).status().code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->create_stream_output_target(buf, 2, 16).status().code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->create_stream_output_target(buf, 0xfffffffcu, 8).status().code() ==
        ErrorCode::kInvalidArgument);
  auto tex = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8_UNORM, 4, 4));
  CHECK(ctx->create_stream_output_target(tex, 0, 4).status().code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->create_stream_output_target(nullptr, 0, 4).status().code() ==
        ErrorCode::kInvalidArgument);
}

TEST_CASE("every supported format and target takes the views its binds promise",
          "[frontend][views][caps]") {
  auto screen = shared_screen();
  auto ctx = new_context();
  unsigned views = 0, surfaces = 0;
  for (unsigned t = 1; t < kTextureTargets; ++t) {
    const auto target = TextureTarget(t);
    const bool cube =
        target == TextureTarget::TEXTURE_CUBE || target == TextureTarget::TEXTURE_CUBE_ARRAY;
    const bool array =
        target == TextureTarget::TEXTURE_1D_ARRAY || target == TextureTarget::TEXTURE_2D_ARRAY;
    const bool one_d =
        target == TextureTarget::TEXTURE_1D || target == TextureTarget::TEXTURE_1D_ARRAY;
    const uint16_t layers = cube ? (target == TextureTarget::TEXTURE_CUBE ? 6 : 12) : array ? 2 : 1;
    const uint8_t last_level = target == TextureTarget::TEXTURE_RECT ? 0 : 1;
    for (unsigned i = 1; i < unsigned(Format::COUNT); ++i) {
      const Format f = Format(i);
      const uint32_t binds = Bind::SAMPLER_VIEW | Bind::RENDER_TARGET | Bind::DEPTH_STENCIL;
      uint32_t supported = 0;
      for (uint32_t b : {uint32_t(Bind::SAMPLER_VIEW), uint32_t(Bind::RENDER_TARGET),
                         uint32_t(Bind::DEPTH_STENCIL)}) {
        if (screen->is_format_supported(f, target, 0, 0, b)) supported |= b;
      }
      if (!(supported & binds)) continue;
      INFO(format_name(f) << " on " << target_name(target));
      auto res = create(make_templ(target, f, 4, one_d ? 1 : 4,
                                   target == TextureTarget::TEXTURE_3D ? 2 : 1, layers, last_level,
                                   supported));
      if (supported & Bind::SAMPLER_VIEW) {
        SamplerViewTemplate vt;
        vt.format = f;
        vt.target = target;
        vt.last_layer = uint16_t(layers - 1);
        vt.last_level = last_level;
        CHECK(ctx->create_sampler_view(res, vt).status().to_string() == "Ok");
        ++views;
      }
      if (supported & (Bind::RENDER_TARGET | Bind::DEPTH_STENCIL)) {
        SurfaceTemplate st;
        st.format = f;
        st.level = last_level;
        CHECK(ctx->create_surface(res, st).status().to_string() == "Ok");
        ++surfaces;
      }
    }
  }
  CHECK(views > 800);
  CHECK(surfaces > 800);
}
