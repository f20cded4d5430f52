// Context::generate_mipmap: 2D, 2D array (a layer range), 1D array, cube, 3D and sRGB
// levels against a host box filter of the level above; odd sizes, integer and
// depth/stencil formats against the blit reference (blit_reference.h); level ranges,
// untouched levels and layers, bad input and the cap.
#include <catch2/catch.hpp>

#include "blit_reference.h"
#include "frontend/features.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::test::blit_ref;

namespace {

using T = TextureTarget;

// Level `below` of a power-of-two chain from `above`: each texel the average of the 2 (or
// 1 where an axis is already 1) texels per axis above it, decoded to float (linear for
// sRGB) and encoded. Layers [first, last] are filtered (all slices and filter_z for 3D);
// the other layers keep `keep`'s texels.
Image box_filter(const Image& above, const Image& keep, int first, int last, bool filter_z) {
  Image out = keep;
  auto taps = [](int i, int from, int to) {
    REQUIRE((from == 2 * to || (from == 1 && to == 1)));
    return from == to ? std::vector<int>{i} : std::vector<int>{2 * i, 2 * i + 1};
  };
  for (int z = first; z <= last; ++z) {
    for (int y = 0; y < out.h; ++y) {
      for (int x = 0; x < out.w; ++x) {
        const std::vector<int> zs =
            filter_z ? taps(z, above.layers, out.layers) : std::vector<int>{z};
        float sum[4] = {0, 0, 0, 0};
        int n = 0;
        for (int sz : zs) {
          for (int sy : taps(y, above.h, out.h)) {
            for (int sx : taps(x, above.w, out.w)) {
              float c[4];
              frontend::unpack_rgba_float(above.format, above.at(sx, sy, sz), c);
              for (int i = 0; i < 4; ++i)
                sum[i] += c[i];
              ++n;
            }
          }
        }
        for (float& s : sum)
          s /= float(n);
        frontend::pack_rgba_float(out.format, sum, out.at(x, y, z));
      }
    }
  }
  return out;
}

// Generates levels base+1..last of layers [first, last_layer] and checks every level of
// the texture: generated ones against the box filter of the level above as the device
// left it, all others (and other layers) unchanged. tol: per decoded component.
void check_generate(Context& ctx, const ResourceRef& r, Format f, unsigned base, unsigned last,
                    unsigned first_layer, unsigned last_layer, float tol) {
  const unsigned levels = unsigned(r->info().last_level) + 1;
  const bool is_3d = r->info().target == T::TEXTURE_3D;
  std::vector<Image> before;
  for (unsigned l = 0; l < levels; ++l)
    before.push_back(read_level(ctx, r, l, f));
  REQUIRE(ctx.generate_mipmap(r, f, base, last, first_layer, last_layer).to_string() == "Ok");
  std::vector<Image> after;
  for (unsigned l = 0; l < levels; ++l)
    after.push_back(read_level(ctx, r, l, f));
  for (unsigned l = 0; l < levels; ++l) {
    INFO(format_name(f) << " " << target_name(r->info().target) << " level " << l);
    if (l <= base || l > last) {
      CHECK(compare(after[l], before[l]) == "");
      continue;
    }
    const int z0 = is_3d ? 0 : int(first_layer);
    const int z1 = is_3d ? after[l].layers - 1 : int(last_layer);
    const Image want = box_filter(after[l - 1], before[l], z0, z1, is_3d);
    CHECK(compare(after[l], want, tol) == "");
  }
}

// One LSB of an 8-bit UNORM channel, and a little more for float rounding on the way.
constexpr float kUnorm8Tol = 1.0f / 255.0f + 1e-6f;
// Half floats of values below 2: two units in the last place.
constexpr float kHalfTol = 2.0f / 1024.0f;

}  // namespace

TEST_CASE("generate_mipmap box-filters a 2D chain", "[frontend][mipmap]") {
  auto ctx = new_context();
  auto t = filled(*ctx, make_templ(T::TEXTURE_2D, Format::R8G8B8A8_UNORM, 32, 8, 1, 1, 5), 1);
  check_generate(*ctx, t, Format::R8G8B8A8_UNORM, 0, 5, 0, 0, kUnorm8Tol);
  // A sub-range: levels 3..4 from level 2; levels 0..2 and 5 stay.
  auto u = filled(*ctx, make_templ(T::TEXTURE_2D, Format::B5G6R5_UNORM, 16, 16, 1, 1, 4), 2);
  check_generate(*ctx, u, Format::B5G6R5_UNORM, 2, 3, 0, 0, 1.0f / 31.0f + 1e-6f);
  // base == last: nothing to do, nothing changes.
  check_generate(*ctx, u, Format::B5G6R5_UNORM, 4, 4, 0, 0, 0.0f);
}

TEST_CASE("generate_mipmap filters the chosen layers of arrays", "[frontend][mipmap]") {
  auto ctx = new_context();
  auto arr =
      filled(*ctx, make_templ(T::TEXTURE_2D_ARRAY, Format::R16G16B16A16_FLOAT, 16, 8, 1, 4, 4), 3);
  check_generate(*ctx, arr, Format::R16G16B16A16_FLOAT, 0, 4, 1, 2, kHalfTol);
  auto ones = filled(*ctx, make_templ(T::TEXTURE_1D_ARRAY, Format::R8G8_UNORM, 64, 1, 1, 3, 6), 4);
  check_generate(*ctx, ones, Format::R8G8_UNORM, 0, 6, 0, 2, kUnorm8Tol);
}

TEST_CASE("generate_mipmap filters every cube face, in linear space for sRGB",
          "[frontend][mipmap]") {
  auto ctx = new_context();
  auto cube = filled(*ctx, make_templ(T::TEXTURE_CUBE, Format::R8G8B8A8_SRGB, 16, 16, 1, 6, 4), 5);
  check_generate(*ctx, cube, Format::R8G8B8A8_SRGB, 0, 4, 0, 5, kUnorm8Tol);
  // A UNORM cube array generated through its sRGB view: averaged as linear colours.
  auto cubes =
      filled(*ctx, make_templ(T::TEXTURE_CUBE_ARRAY, Format::B8G8R8A8_UNORM, 8, 8, 1, 12, 3), 6);
  check_generate(*ctx, cubes, Format::B8G8R8A8_SRGB, 0, 3, 6, 11, kUnorm8Tol);
}

TEST_CASE("generate_mipmap box-filters 3D textures in all three axes", "[frontend][mipmap]") {
  auto ctx = new_context();
  auto cube = filled(*ctx, make_templ(T::TEXTURE_3D, Format::R16G16B16A16_FLOAT, 8, 8, 8, 1, 3), 7);
  check_generate(*ctx, cube, Format::R16G16B16A16_FLOAT, 0, 3, 0, 7, kHalfTol);
  // Uneven axes: the slice count reaches 1 first.
  auto slab = filled(*ctx, make_templ(T::TEXTURE_3D, Format::R8G8B8A8_UNORM, 16, 8, 2, 1, 4), 8);
  check_generate(*ctx, slab, Format::R8G8B8A8_UNORM, 0, 4, 0, 1, kUnorm8Tol);
}

TEST_CASE("generate_mipmap: odd sizes take the linear blit, integers and depth nearest",
          "[frontend][mipmap]") {
  auto ctx = new_context();
  struct Case {
    ResourceTemplate t;
    TexFilter filter;
    uint32_t mask;
  };
  const Case cases[] = {
      {make_templ(T::TEXTURE_2D, Format::R8G8B8A8_UNORM, 13, 7, 1, 1, 3), TexFilter::LINEAR,
       Mask::RGBA},
      {make_templ(T::TEXTURE_2D, Format::R8G8B8A8_UINT, 12, 9, 1, 1, 3), TexFilter::NEAREST,
       Mask::RGBA},
      {make_templ(T::TEXTURE_2D_ARRAY, Format::R16_SINT, 8, 8, 1, 2, 3), TexFilter::NEAREST,
       Mask::RGBA},
      {make_templ(T::TEXTURE_2D, Format::Z24_UNORM_S8_UINT, 10, 6, 1, 1, 2), TexFilter::NEAREST,
       Mask::ZS},
      {make_templ(T::TEXTURE_2D, Format::Z32_FLOAT, 8, 8, 1, 1, 3), TexFilter::NEAREST, Mask::Z},
      {make_templ(T::TEXTURE_3D, Format::R32_FLOAT, 5, 3, 7, 1, 2), TexFilter::LINEAR, Mask::RGBA},
  };
  uint32_t seed = 20;
  for (const Case& c : cases) {
    const Format f = c.t.format;
    INFO(format_name(f) << " " << target_name(c.t.target));
    auto r = filled(*ctx, c.t, seed++);
    const unsigned levels = unsigned(c.t.last_level) + 1;
    const unsigned last_layer = c.t.target == T::TEXTURE_3D ? c.t.depth0 - 1u : c.t.array_size - 1u;
    std::vector<Image> want;
    for (unsigned l = 0; l < levels; ++l)
      want.push_back(read_level(*ctx, r, l, f));
    // The model: one blit per level from the (modelled) level above, whole levels.
    for (unsigned l = 1; l < levels; ++l) {
      BlitInfo b =
          make_info(r, l, level_box(r, l), f, r, l - 1, level_box(r, l - 1), f, c.filter, c.mask);
      model_blit(want[l], want[l - 1], b, c.t.target == T::TEXTURE_3D);
    }
    REQUIRE(ctx->generate_mipmap(r, f, 0, levels - 1, 0, last_layer).to_string() == "Ok");
    for (unsigned l = 0; l < levels; ++l) {
      INFO("level " << l);
      CHECK(compare(read_level(*ctx, r, l, f), want[l]) == "");
    }
  }
}

TEST_CASE("bad generate_mipmap calls get a clear error and change nothing", "[frontend][mipmap]") {
  auto ctx = new_context();
  auto t = filled(*ctx, make_templ(T::TEXTURE_2D_ARRAY, Format::R8G8B8A8_UNORM, 8, 8, 1, 3, 3), 1);
  auto vol = filled(*ctx, make_templ(T::TEXTURE_3D, Format::R8G8B8A8_UNORM, 4, 4, 4, 1, 2), 2);
  finish(*ctx);
  const auto before = read_raw(t);
  const auto vol_before = read_raw(vol);
  const Format f = Format::R8G8B8A8_UNORM;
  auto code = [&](const ResourceRef& r, Format fmt, unsigned b, unsigned l, unsigned fl,
                  unsigned ll) { return ctx->generate_mipmap(r, fmt, b, l, fl, ll).code(); };
  const ErrorCode kBad = ErrorCode::kInvalidArgument;
  CHECK(code(nullptr, f, 0, 1, 0, 0) == kBad);
  CHECK(code(create_buffer(64), Format::R8_UNORM, 0, 0, 0, 0) == kBad);
  CHECK(code(t, Format::NONE, 0, 1, 0, 0) == kBad);
  CHECK(code(t, Format::R16_UNORM, 0, 1, 0, 0) == kBad);          // another block size
  CHECK(code(t, Format::Z24_UNORM_S8_UINT, 0, 1, 0, 0) == kBad);  // depth view of colour
  CHECK(code(t, f, 2, 1, 0, 0) == kBad);                          // base beyond last
  CHECK(code(t, f, 0, 4, 0, 0) == kBad);                          // no level 4
  CHECK(code(t, f, 0, 3, 2, 1) == kBad);                          // first beyond last layer
  CHECK(code(t, f, 0, 3, 0, 3) == kBad);                          // no layer 3
  CHECK(code(vol, f, 0, 2, 0, 4) == kBad);                        // no slice 4 at level 0
  auto second = Screen::create();
  REQUIRE(second.is_ok());
  auto foreign = second.value()->resource_create(make_templ(T::TEXTURE_2D, f, 8, 8, 1, 1, 3));
  REQUIRE(foreign.is_ok());
  CHECK(code(foreign.value(), f, 0, 3, 0, 0) == kBad);
  finish(*ctx);
  CHECK(read_raw(t) == before);
  CHECK(read_raw(vol) == vol_before);
}

TEST_CASE("PIPE_CAP_GENERATE_MIPMAP says generate_mipmap works", "[frontend][mipmap]") {
  CHECK(frontend::kGenerateMipmap);
  CHECK(shared_screen()->get_param(Cap::GENERATE_MIPMAP) == 1);
}
