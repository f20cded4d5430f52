// resource_copy_region: across targets, levels and layers, every block size, buffers
// (also within one buffer), and the bad-input cases.
#include <catch2/catch.hpp>

#include "frontend_util.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

frontend::ResourceImpl& impl(const ResourceRef& r) {
  return dynamic_cast<frontend::ResourceImpl&>(*r);
}

ResourceTemplate shape(TextureTarget target, Format f) {
  using T = TextureTarget;
  switch (target) {
    case T::TEXTURE_1D:
      return make_templ(target, f, 12, 1, 1, 1, 2);
    case T::TEXTURE_1D_ARRAY:
      return make_templ(target, f, 12, 1, 1, 5, 2);
    case T::TEXTURE_3D:
      return make_templ(target, f, 12, 6, 5, 1, 2);
    case T::TEXTURE_CUBE:
      return make_templ(target, f, 8, 8, 1, 6, 2);
    case T::TEXTURE_CUBE_ARRAY:
      return make_templ(target, f, 8, 8, 1, 12, 1);
    case T::TEXTURE_RECT:
      return make_templ(target, f, 12, 6);
    default:
      return make_templ(target, f, 12, 6, 1, target == T::TEXTURE_2D ? 1 : 5, 2);
  }
}

// Fills every level of a resource with random bytes; returns its raw image.
std::vector<uint8_t> fill_random(Context& ctx, const ResourceRef& r, uint32_t seed) {
  const auto& L = impl(r).layout();
  for (unsigned l = 0; l < L.num_levels(); ++l) {
    const Box all = level_box(r, l);
    write_box(ctx, r, l, all,
              random_bytes(size_t(all.width) * all.height * all.depth * L.block_bytes(), seed + l));
  }
  finish(ctx);
  return read_raw(r);
}

// The host model of a copy between raw images.
void model_copy(std::vector<uint8_t>& dst, const frontend::ResourceLayout& D, unsigned dl, int dx,
                int dy, int dz, const std::vector<uint8_t>& src, const frontend::ResourceLayout& S,
                unsigned sl, const Box& b) {
  const size_t row = size_t(b.width) * S.block_bytes();
  for (int z = 0; z < b.depth; ++z) {
    for (int y = 0; y < b.height; ++y) {
      std::memcpy(dst.data() + D.texel_offset(dl, dx, dy + y, dz + z),
                  src.data() + S.texel_offset(sl, b.x, b.y + y, b.z + z), row);
    }
  }
}

}  // namespace

TEST_CASE("copies between every pair of targets, at any level and layer", "[frontend][copy]") {
  auto ctx = new_context();
  uint32_t seed = 1;
  for (unsigned s = 1; s < kTextureTargets; ++s) {
    for (unsigned d = 1; d < kTextureTargets; ++d) {
      const auto st = TextureTarget(s), dt = TextureTarget(d);
      INFO(target_name(st) << " -> " << target_name(dt));
      // Different formats of one block size are compatible.
      auto src = create(shape(st, Format::R32_FLOAT));
      auto dst = create(shape(dt, Format::R8G8B8A8_UINT));
      const auto src_image = fill_random(*ctx, src, seed += 10);
      auto dst_image = fill_random(*ctx, dst, seed += 10);
      const auto& S = impl(src).layout();
      const auto& D = impl(dst).layout();
      // From the last level of the source to level 1 (or 0) of the destination, and
      // level 0 to level 0, with layers/slices offset where there are several.
      for (unsigned pass = 0; pass < 2; ++pass) {
        const unsigned sl = pass == 0 ? S.num_levels() - 1 : 0;
        const unsigned dl = pass == 0 ? std::min(1u, D.num_levels() - 1) : 0;
        const auto& sv = S.level(sl);
        const auto& dv = D.level(dl);
        Box box;
        box.width = int(std::min(sv.width, dv.width) > 2 ? std::min(sv.width, dv.width) - 2
                                                         : std::min(sv.width, dv.width));
        box.height = int(std::min(sv.height, dv.height));
        box.depth =
            int(std::min(sv.layers, dv.layers) > 1 ? std::min(sv.layers, dv.layers) - 1 : 1);
        box.x = int(sv.width) - box.width;
        box.y = 0;
        box.z = int(sv.layers) - box.depth;
        const int dx = dv.width > uint32_t(box.width) ? 1 : 0;
        const int dy = int(dv.height) - box.height;
        const int dz = dv.layers > uint32_t(box.depth) ? 1 : 0;
        INFO("pass " << pass << " box " << box.x << "," << box.y << "," << box.z << " " << box.width
                     << "x" << box.height << "x" << box.depth);
        REQUIRE(ctx->resource_copy_region(dst, dl, dx, dy, dz, src, sl, box).is_ok());
        model_copy(dst_image, D, dl, dx, dy, dz, src_image, S, sl, box);
      }
      finish(*ctx);
      CHECK(read_raw(dst) == dst_image);
      CHECK(read_raw(src) == src_image);
    }
  }
}

TEST_CASE("copies work for every block size at odd offsets", "[frontend][copy]") {
  auto ctx = new_context();
  const Format formats[] = {Format::R8_UINT,         Format::R16_FLOAT,
                            Format::R8G8B8_UNORM,    Format::Z24_UNORM_S8_UINT,
                            Format::R16G16B16_SNORM, Format::Z32_FLOAT_S8X24_UINT,
                            Format::R32G32B32_FLOAT, Format::R32G32B32A32_SINT};
  uint32_t seed = 7;
  for (Format f : formats) {
    INFO(format_name(f));
    auto src = create(make_templ(TextureTarget::TEXTURE_2D, f, 37, 9));
    auto dst = create(make_templ(TextureTarget::TEXTURE_2D, f, 41, 9));
    const auto s_image = fill_random(*ctx, src, seed += 3);
    auto d_image = fill_random(*ctx, dst, seed += 3);
    const Box box{3, 1, 0, 29, 7, 1};
    REQUIRE(ctx->resource_copy_region(dst, 0, 7, 2, 0, src, 0, box).is_ok());
    model_copy(d_image, impl(dst).layout(), 0, 7, 2, 0, s_image, impl(src).layout(), 0, box);
    // Within one texture: a non-overlapping region of the same level.
    const Box inner{0, 0, 0, 5, 2, 1};
    REQUIRE(ctx->resource_copy_region(dst, 0, 33, 6, 0, dst, 0, inner).is_ok());
    model_copy(d_image, impl(dst).layout(), 0, 33, 6, 0, d_image, impl(dst).layout(), 0, inner);
    finish(*ctx);
    CHECK(read_raw(dst) == d_image);
  }
}

TEST_CASE("buffer copies, also within one buffer", "[frontend][copy]") {
  auto ctx = new_context();
  auto a = create_buffer(1000);
  auto b = create_buffer(777);
  auto ia = fill_random(*ctx, a, 1);
  auto ib = fill_random(*ctx, b, 2);
  REQUIRE(ctx->resource_copy_region(b, 0, 3, 0, 0, a, 0, make_box_1d(101, 700)).is_ok());
  std::copy(ia.begin() + 101, ia.begin() + 801, ib.begin() + 3);
  REQUIRE(ctx->resource_copy_region(a, 0, 1, 0, 0, a, 0, make_box_1d(500, 499)).is_ok());
  std::copy(ia.begin() + 500, ia.begin() + 999, ia.begin() + 1);
  REQUIRE(ctx->resource_copy_region(b, 0, 776, 0, 0, b, 0, make_box_1d(0, 1)).is_ok());
  ib[776] = ib[0];
  finish(*ctx);
  CHECK(read_raw(a) == ia);
  CHECK(read_raw(b) == ib);
}

TEST_CASE("bad copies get a clear error and change nothing", "[frontend][copy]") {
  auto ctx = new_context();
  auto rgba = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, 8, 8, 1, 1, 1));
  auto rg = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8G8_UNORM, 8, 8));
  auto buf = create_buffer(64);
  const auto before = fill_random(*ctx, rgba, 3);
  auto code = [&](const ResourceRef& dst, unsigned dl, unsigned x, unsigned y, unsigned z,
                  const ResourceRef& src, unsigned sl, const Box& box) {
    const Status s = ctx->resource_copy_region(dst, dl, x, y, z, src, sl, box);
    if (!s.is_ok()) CHECK_FALSE(s.message().empty());
    return s.code();
  };
  const Box b = make_box_2d(0, 0, 4, 4);
  CHECK(code(rgba, 0, 0, 0, 0, rg, 0, b) == ErrorCode::kInvalidArgument);
  CHECK(code(rgba, 0, 0, 0, 0, buf, 0, make_box_1d(0, 4)) == ErrorCode::kInvalidArgument);
  CHECK(code(buf, 0, 0, 0, 0, rgba, 0, b) == ErrorCode::kInvalidArgument);
  CHECK(code(nullptr, 0, 0, 0, 0, rgba, 0, b) == ErrorCode::kInvalidArgument);
  CHECK(code(rgba, 0, 0, 0, 0, nullptr, 0, b) == ErrorCode::kInvalidArgument);
  CHECK(code(rgba, 0, 5, 0, 0, rgba, 1, b) == ErrorCode::kInvalidArgument);  // dst beyond
  CHECK(code(rgba, 1, 0, 0, 0, rgba, 0, b) == ErrorCode::kOk);               // other level
  CHECK(code(rgba, 2, 0, 0, 0, rgba, 0, b) == ErrorCode::kInvalidArgument);  // no level 2
  CHECK(code(rgba, 0, 0, 0, 0, rgba, 0, make_box_2d(6, 0, 4, 4)) == ErrorCode::kInvalidArgument);
  CHECK(code(rgba, 0, 0, 0, 1, rgba, 1, make_box_2d(0, 0, 2, 2)) == ErrorCode::kInvalidArgument);
  CHECK(code(rgba, 0, 2, 2, 0, rgba, 0, b) == ErrorCode::kInvalidArgument);  // overlap
  CHECK(code(rgba, 0, 0x80000000u, 0, 0, rgba, 1, b) == ErrorCode::kInvalidArgument);
  CHECK(code(rgba, 0, 0, 0, 0, rgba, 1, make_box_2d(0, 0, 0, 1)) == ErrorCode::kInvalidArgument);
  CHECK(code(buf, 0, 10, 0, 0, buf, 0, make_box_1d(0, 20)) == ErrorCode::kInvalidArgument);
  CHECK(code(buf, 0, 50, 0, 0, buf, 0, make_box_1d(0, 20)) == ErrorCode::kInvalidArgument);
  finish(*ctx);
  // Only the valid copy (level 0 to level 1) changed anything.
  auto after = read_raw(rgba);
  const auto& L = impl(rgba).layout();
  CHECK(std::equal(before.begin(), before.begin() + L.level(0).size, after.begin()));
}
