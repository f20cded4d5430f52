// Clears against host-packed values: every renderable format on every target (caps
// consistency: a format reported renderable clears and reads back), depth and stencil
// separately on every depth/stencil format, buffers bits, layers and scissors,
// clear_render_target / clear_depth_stencil rectangles, clear_texture, clear_buffer
// patterns, and the bad-input cases.
#include <catch2/catch.hpp>

#include "frontend/format_codec.h"
#include "frontend_util.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

ColorUnion color_for(Format f, int variant) {
  ColorUnion c;
  if (format_is_pure_uint(f)) {
    const uint32_t v[2][4] = {{1, 2, 3, 4}, {200, 0, 77, 1}};
    std::memcpy(c.ui, v[variant], sizeof(c.ui));
  } else if (format_is_pure_sint(f)) {
    const int32_t v[2][4] = {{-1, 2, -3, 4}, {100, -100, 0, 7}};
    std::memcpy(c.i, v[variant], sizeof(c.i));
  } else {
    const float v[2][4] = {{0.25f, -0.5f, 0.75f, 1.0f}, {1.0f, 0.5f, 0.125f, 0.0f}};
    std::memcpy(c.f, v[variant], sizeof(c.f));
  }
  return c;
}

// The texel a clear must write: the host codec is the oracle.
std::vector<uint8_t> packed(Format f, const ColorUnion& c) {
  std::vector<uint8_t> t(format_desc(f).block_bytes);
  if (format_is_pure_uint(f)) {
    frontend::pack_rgba_uint(f, c.ui, t.data());
  } else if (format_is_pure_sint(f)) {
    frontend::pack_rgba_sint(f, c.i, t.data());
  } else {
    frontend::pack_rgba_float(f, c.f, t.data());
  }
  return t;
}

std::vector<uint8_t> repeat(const std::vector<uint8_t>& texel, size_t n) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i < n; ++i)
    out.insert(out.end(), texel.begin(), texel.end());
  return out;
}

void bind_cbufs(Context& ctx, std::vector<SurfaceHandle> cbufs, SurfaceHandle zs = nullptr) {
  FramebufferState fb;
  fb.nr_cbufs = uint8_t(cbufs.size());
  fb.width = 0xffff;
  fb.height = 0xffff;
  for (size_t i = 0; i < cbufs.size(); ++i)
    fb.cbufs[i] = cbufs[i];
  fb.zsbuf = zs;
  for (const auto& s : cbufs) {
    if (!s) continue;
    fb.width = std::min<uint16_t>(fb.width, uint16_t(s->width()));
    fb.height = std::min<uint16_t>(fb.height, uint16_t(s->height()));
  }
  if (zs) {
    fb.width = std::min<uint16_t>(fb.width, uint16_t(zs->width()));
    fb.height = std::min<uint16_t>(fb.height, uint16_t(zs->height()));
  }
  REQUIRE(ctx.set_framebuffer_state(fb).is_ok());
}

// One texel of a packed box.
std::vector<uint8_t> texel_at(const std::vector<uint8_t>& box, size_t bs, size_t index) {
  return std::vector<uint8_t>(box.begin() + index * bs, box.begin() + (index + 1) * bs);
}

}  // namespace

TEST_CASE("every renderable format clears to its packed value", "[frontend][clear][caps]") {
  auto screen = shared_screen();
  auto ctx = new_context();
  unsigned tested = 0;
  for (unsigned i = 1; i < unsigned(Format::COUNT); ++i) {
    const Format f = Format(i);
    if (!screen->is_format_supported(f, TextureTarget::TEXTURE_2D, 0, 0, Bind::RENDER_TARGET)) {
      continue;
    }
    ++tested;
    INFO(format_name(f));
    const size_t bs = format_desc(f).block_bytes;
    auto tex = create(make_templ(TextureTarget::TEXTURE_2D, f, 7, 5, 1, 1, 0, Bind::RENDER_TARGET));
    auto surf = make_surface(*ctx, tex, f);
    bind_cbufs(*ctx, {surf});
    const ColorUnion c0 = color_for(f, 0), c1 = color_for(f, 1);
    REQUIRE(ctx->clear(Clear::COLOR0, nullptr, c0, 0, 0).is_ok());
    CHECK(read_box(*ctx, tex, 0, make_box_2d(0, 0, 7, 5)) == repeat(packed(f, c0), 35));
    REQUIRE(ctx->clear_render_target(surf, c1, 2, 1, 4, 3, false).is_ok());
    auto got = read_box(*ctx, tex, 0, make_box_2d(0, 0, 7, 5));
    for (int y = 0; y < 5; ++y) {
      for (int x = 0; x < 7; ++x) {
        const bool inside = x >= 2 && x < 6 && y >= 1 && y < 4;
        INFO(x << "," << y);
        CHECK(texel_at(got, bs, size_t(y) * 7 + x) == packed(f, inside ? c1 : c0));
      }
    }
  }
  CHECK(tested > 100);
}

TEST_CASE("clears reach every level and layer of every target", "[frontend][clear]") {
  auto screen = shared_screen();
  auto ctx = new_context();
  // One format per texel size (1, 2, 3, 4, 6, 8, 12, 16 bytes) and an integer one.
  const Format formats[] = {Format::R8_UNORM,        Format::B5G6R5_UNORM,
                            Format::R8G8B8_SNORM,    Format::B8G8R8A8_SRGB,
                            Format::R16G16B16_FLOAT, Format::R16G16B16A16_SINT,
                            Format::R32G32B32_UINT,  Format::R32G32B32A32_FLOAT};
  for (unsigned t = 1; t < kTextureTargets; ++t) {
    const TextureTarget target = TextureTarget(t);
    for (Format f : formats) {
      INFO(format_name(f) << " on " << target_name(target));
      REQUIRE(screen->is_format_supported(f, target, 0, 0, Bind::RENDER_TARGET));
      ResourceTemplate templ;
      switch (target) {
        case TextureTarget::TEXTURE_1D:
          templ = make_templ(target, f, 19, 1, 1, 1, 2);
          break;
        case TextureTarget::TEXTURE_1D_ARRAY:
          templ = make_templ(target, f, 19, 1, 1, 4, 2);
          break;
        case TextureTarget::TEXTURE_3D:
          templ = make_templ(target, f, 9, 5, 8, 1, 2);
          break;
        case TextureTarget::TEXTURE_CUBE:
          templ = make_templ(target, f, 6, 6, 1, 6, 2);
          break;
        case TextureTarget::TEXTURE_CUBE_ARRAY:
          templ = make_templ(target, f, 4, 4, 1, 12, 1);
          break;
        case TextureTarget::TEXTURE_RECT:
          templ = make_templ(target, f, 9, 5);
          break;
        default:
          templ = make_templ(target, f, 9, 5, 1, target == TextureTarget::TEXTURE_2D ? 1 : 3, 2);
      }
      auto tex = create(templ);
      const unsigned level = templ.last_level;  // the smallest level, then level 0
      for (unsigned l : {level, 0u}) {
        const Box all = level_box(tex, l);
        // Layers 1..last (or all when there is one): layer 0 must stay zero.
        const unsigned first = all.depth > 1 ? 1 : 0;
        auto surf = make_surface(*ctx, tex, f, l, first, unsigned(all.depth - 1));
        bind_cbufs(*ctx, {surf});
        const ColorUnion c = color_for(f, int(l % 2));
        REQUIRE(ctx->clear(Clear::COLOR, nullptr, c, 0, 0).is_ok());
        const size_t per_layer = size_t(all.width) * all.height;
        auto got = read_box(*ctx, tex, l, all);
        const auto zero = std::vector<uint8_t>(format_desc(f).block_bytes, 0);
        for (int z = 0; z < all.depth; ++z) {
          INFO("level " << l << " layer " << z);
          const auto want = unsigned(z) >= first ? packed(f, c) : zero;
          bool all_match = true;
          for (size_t i = 0; i < per_layer; ++i) {
            all_match &= texel_at(got, want.size(), z * per_layer + i) == want;
          }
          CHECK(all_match);
        }
      }
    }
  }
}

TEST_CASE("depth and stencil clear separately on every depth/stencil format",
          "[frontend][clear][caps]") {
  auto screen = shared_screen();
  auto ctx = new_context();
  unsigned tested = 0;
  for (unsigned i = 1; i < unsigned(Format::COUNT); ++i) {
    const Format f = Format(i);
    if (!screen->is_format_supported(f, TextureTarget::TEXTURE_2D_ARRAY, 0, 0,
                                     Bind::DEPTH_STENCIL)) {
      continue;
    }
    ++tested;
    INFO(format_name(f));
    const size_t bs = format_desc(f).block_bytes;
    auto tex =
        create(make_templ(TextureTarget::TEXTURE_2D_ARRAY, f, 6, 4, 1, 2, 0, Bind::DEPTH_STENCIL));
    auto zs = make_surface(*ctx, tex, f, 0, 0, 1);
    bind_cbufs(*ctx, {}, zs);
    const ColorUnion unused{};
    std::vector<uint8_t> want(bs, 0);
    frontend::pack_depth(f, 0.25, want.data());
    frontend::pack_stencil(f, 0x5a, want.data());
    REQUIRE(ctx->clear(Clear::DEPTHSTENCIL, nullptr, unused, 0.25, 0x5a).is_ok());
    CHECK(read_box(*ctx, tex, 0, Box{0, 0, 0, 6, 4, 2}) == repeat(want, 48));
    // Depth only: the stencil bits stay.
    frontend::pack_depth(f, 0.75, want.data());
    REQUIRE(ctx->clear(Clear::DEPTH, nullptr, unused, 0.75, 0x11).is_ok());
    CHECK(read_box(*ctx, tex, 0, Box{0, 0, 0, 6, 4, 2}) == repeat(want, 48));
    // Stencil only, on a rectangle: the depth bits stay, and outside nothing changes.
    std::vector<uint8_t> inside = want;
    frontend::pack_stencil(f, 0x33, inside.data());
    REQUIRE(ctx->clear_depth_stencil(zs, Clear::STENCIL, 0.0, 0x33, 1, 1, 3, 2, false).is_ok());
    auto got = read_box(*ctx, tex, 0, Box{0, 0, 0, 6, 4, 2});
    for (int z = 0; z < 2; ++z) {
      for (int y = 0; y < 4; ++y) {
        for (int x = 0; x < 6; ++x) {
          const bool in = x >= 1 && x < 4 && y >= 1 && y < 3;
          INFO(x << "," << y << "," << z);
          CHECK(texel_at(got, bs, size_t(z) * 24 + size_t(y) * 6 + x) == (in ? inside : want));
        }
      }
    }
  }
  CHECK(tested >= 8);
}

TEST_CASE("clear honours the buffers bits, holes and the scissor", "[frontend][clear]") {
  auto ctx = new_context();
  const Format f = Format::R8G8B8A8_UNORM;
  auto a = create(make_templ(TextureTarget::TEXTURE_2D, f, 8, 8));
  auto b = create(make_templ(TextureTarget::TEXTURE_2D, f, 8, 8));
  FramebufferState fb;
  fb.width = fb.height = 8;
  fb.nr_cbufs = 3;
  fb.cbufs[0] = make_surface(*ctx, a, f);
  fb.cbufs[2] = make_surface(*ctx, b, f);  // cbufs[1] is a hole
  REQUIRE(ctx->set_framebuffer_state(fb).is_ok());
  ColorUnion c;
  c.f[0] = c.f[1] = c.f[2] = c.f[3] = 1.0f;
  REQUIRE(ctx->clear(Clear::COLOR0 << 2, nullptr, c, 0, 0).is_ok());
  CHECK(read_box(*ctx, a, 0, make_box_2d(0, 0, 8, 8)) == std::vector<uint8_t>(256, 0));
  CHECK(read_box(*ctx, b, 0, make_box_2d(0, 0, 8, 8)) == std::vector<uint8_t>(256, 255));
  ScissorState sc;
  sc.minx = 2;
  sc.miny = 3;
  sc.maxx = 20;  // clipped to the framebuffer
  sc.maxy = 5;
  REQUIRE(ctx->clear(Clear::COLOR, &sc, c, 0, 0).is_ok());
  auto got = read_box(*ctx, a, 0, make_box_2d(0, 0, 8, 8));
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 8; ++x) {
      const bool in = x >= 2 && y >= 3 && y < 5;
      INFO(x << "," << y);
      CHECK(got[(y * 8 + x) * 4] == (in ? 255 : 0));
    }
  }
  // An empty scissor clears nothing; no depth buffer means depth bits do nothing.
  sc.maxx = sc.minx;
  CHECK(ctx->clear(Clear::COLOR | Clear::DEPTHSTENCIL, &sc, ColorUnion{}, 0, 0).is_ok());
  CHECK(read_box(*ctx, a, 0, make_box_2d(0, 0, 8, 8)) == got);
  // The framebuffer area limits clears of larger surfaces.
  auto big = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8_UNORM, 16, 2));
  fb = FramebufferState{};
  fb.width = 4;
  fb.height = 2;
  fb.nr_cbufs = 1;
  fb.cbufs[0] = make_surface(*ctx, big, Format::R8_UNORM);
  REQUIRE(ctx->set_framebuffer_state(fb).is_ok());
  REQUIRE(ctx->clear(Clear::COLOR0, nullptr, c, 0, 0).is_ok());
  auto row = read_box(*ctx, big, 0, make_box_1d(0, 16));
  CHECK(row == std::vector<uint8_t>{255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
}

TEST_CASE("clear_texture fills boxes with one texel", "[frontend][clear]") {
  auto ctx = new_context();
  auto tex = create(make_templ(TextureTarget::TEXTURE_3D, Format::R32G32B32_FLOAT, 5, 4, 6, 1, 1));
  const float texel[3] = {1.5f, -2.0f, 3.25f};
  std::vector<uint8_t> t(12);
  std::memcpy(t.data(), texel, 12);
  REQUIRE(ctx->clear_texture(tex, 0, Box{0, 0, 0, 5, 4, 6}, texel).is_ok());
  CHECK(read_box(*ctx, tex, 0, Box{0, 0, 0, 5, 4, 6}) == repeat(t, 120));
  REQUIRE(ctx->clear_texture(tex, 1, Box{1, 0, 1, 1, 2, 2}, texel).is_ok());
  auto got = read_box(*ctx, tex, 1, Box{0, 0, 0, 2, 2, 3});
  for (int z = 0; z < 3; ++z) {
    for (int y = 0; y < 2; ++y) {
      for (int x = 0; x < 2; ++x) {
        const bool in = x == 1 && z >= 1;
        CHECK(texel_at(got, 12, size_t(z) * 4 + y * 2 + x) ==
              (in ? t : std::vector<uint8_t>(12, 0)));
      }
    }
  }
  // Null data clears to zero; a buffer needs clear_buffer; boxes are checked.
  REQUIRE(ctx->clear_texture(tex, 0, Box{0, 0, 0, 5, 4, 6}, nullptr).is_ok());
  CHECK(read_box(*ctx, tex, 0, Box{0, 0, 0, 5, 4, 6}) == std::vector<uint8_t>(1440, 0));
  CHECK(ctx->clear_texture(tex, 0, Box{0, 0, 0, 5, 4, 7}, texel).code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->clear_texture(tex, 2, Box{0, 0, 0, 1, 1, 1}, texel).code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->clear_texture(create_buffer(16), 0, make_box_1d(0, 4), texel).code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->clear_texture(nullptr, 0, make_box_1d(0, 4), texel).code() ==
        ErrorCode::kInvalidArgument);
}

TEST_CASE("clear_buffer repeats multi-byte patterns from the offset", "[frontend][clear]") {
  auto ctx = new_context();
  const uint8_t value[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  for (unsigned size : {1u, 2u, 4u, 8u, 12u, 16u}) {
    INFO("value size " << size);
    auto buf = create_buffer(301);
    std::vector<uint8_t> want(301, 0);
    const uint32_t offset = size * 3, bytes = size * 10;
    REQUIRE(ctx->clear_buffer(buf, offset, bytes, value, size).is_ok());
    for (uint32_t i = 0; i < bytes; ++i)
      want[offset + i] = value[i % size];
    CHECK(read_box(*ctx, buf, 0, make_box_1d(0, 301)) == want);
    // Up to the very end of the buffer.
    const uint32_t tail = (301 / size) * size - size;
    REQUIRE(ctx->clear_buffer(buf, tail, size, value, size).is_ok());
    for (uint32_t i = 0; i < size; ++i)
      want[tail + i] = value[i];
    CHECK(read_box(*ctx, buf, 0, make_box_1d(0, 301)) == want);
  }
  auto buf = create_buffer(64);
  CHECK(ctx->clear_buffer(buf, 0, 0, value, 4).is_ok());
  CHECK(ctx->clear_buffer(buf, 0, 12, value, 3).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->clear_buffer(buf, 2, 8, value, 4).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->clear_buffer(buf, 0, 6, value, 4).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->clear_buffer(buf, 60, 8, value, 4).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->clear_buffer(buf, 0xfffffff0u, 16, value, 16).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->clear_buffer(buf, 0, 4, nullptr, 4).code() == ErrorCode::kInvalidArgument);
  auto tex = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8_UNORM, 4, 4));
  CHECK(ctx->clear_buffer(tex, 0, 4, value, 4).code() == ErrorCode::kInvalidArgument);
}

TEST_CASE("bad clears get a clear error and change nothing", "[frontend][clear]") {
  auto ctx = new_context();
  auto tex = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, 4, 4));
  auto zs_tex = create(make_templ(TextureTarget::TEXTURE_2D, Format::Z24_UNORM_S8_UINT, 4, 4));
  auto color = make_surface(*ctx, tex, Format::R8G8B8A8_UNORM);
  auto zs = make_surface(*ctx, zs_tex, Format::Z24_UNORM_S8_UINT);
  ColorUnion c;
  c.f[0] = c.f[1] = c.f[2] = c.f[3] = 1.0f;
  CHECK(ctx->clear(1u << 10, nullptr, c, 0, 0).code() == ErrorCode::kInvalidArgument);
  ScissorState inverted;
  inverted.minx = 3;
  inverted.maxx = 1;
  inverted.maxy = 4;
  bind_cbufs(*ctx, {color});
  CHECK(ctx->clear(Clear::COLOR, &inverted, c, 0, 0).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->clear_render_target(color, c, 1, 1, 4, 1, false).code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->clear_render_target(color, c, 0, 0xffffffffu, 1, 2, false).code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->clear_render_target(zs, c, 0, 0, 1, 1, false).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->clear_render_target(nullptr, c, 0, 0, 1, 1, false).code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->clear_depth_stencil(color, Clear::DEPTH, 1, 0, 0, 0, 1, 1, false).code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->clear_depth_stencil(zs, Clear::COLOR0, 1, 0, 0, 0, 1, 1, false).code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->clear_depth_stencil(zs, Clear::DEPTH, 1, 0, 2, 2, 3, 1, false).code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->clear_render_target(color, c, 4, 4, 0, 0, false).is_ok());  // empty: nothing
  CHECK(read_box(*ctx, tex, 0, make_box_2d(0, 0, 4, 4)) == std::vector<uint8_t>(64, 0));
  CHECK(read_box(*ctx, zs_tex, 0, make_box_2d(0, 0, 4, 4)) == std::vector<uint8_t>(64, 0));
}
