// Transfers round trip for every format x every target, with levels and layers: writes
// through full and partial maps and texture_subdata, reads back through maps, and
// checks the device storage byte for byte against clpipe's layout.
#include <catch2/catch.hpp>

#include "frontend/format_support.h"
#include "frontend_util.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

// Small sizes that still give several levels and layers (and odd row lengths).
ResourceTemplate shape_of(TextureTarget target, Format f) {
  using T = TextureTarget;
  switch (target) {
    case T::TEXTURE_1D:
      return make_templ(target, f, 9, 1, 1, 1, 3);
    case T::TEXTURE_1D_ARRAY:
      return make_templ(target, f, 7, 1, 1, 3, 2);
    case T::TEXTURE_2D:
      return make_templ(target, f, 7, 5, 1, 1, 2);
    case T::TEXTURE_RECT:
      return make_templ(target, f, 6, 3, 1, 1, 0);
    case T::TEXTURE_3D:
      return make_templ(target, f, 5, 4, 3, 1, 2);
    case T::TEXTURE_CUBE:
      return make_templ(target, f, 4, 4, 1, 6, 2);
    case T::TEXTURE_2D_ARRAY:
      return make_templ(target, f, 5, 3, 1, 4, 1);
    case T::TEXTURE_CUBE_ARRAY:
      return make_templ(target, f, 2, 2, 1, 12, 1);
    default:
      return make_templ(target, f, 1);
  }
}

// Puts a packed box into the host image of the whole resource.
void put(std::vector<uint8_t>& image, const frontend::ResourceLayout& L, unsigned level,
         const Box& b, const std::vector<uint8_t>& packed) {
  const size_t row = size_t(b.width) * L.block_bytes();
  for (int z = 0; z < b.depth; ++z) {
    for (int y = 0; y < b.height; ++y) {
      std::memcpy(image.data() + L.texel_offset(level, b.x, b.y + y, b.z + z),
                  packed.data() + (size_t(z) * b.height + y) * row, row);
    }
  }
}

std::vector<uint8_t> get(const std::vector<uint8_t>& image, const frontend::ResourceLayout& L,
                         unsigned level, const Box& b) {
  const size_t row = size_t(b.width) * L.block_bytes();
  std::vector<uint8_t> out(row * b.height * b.depth);
  for (int z = 0; z < b.depth; ++z) {
    for (int y = 0; y < b.height; ++y) {
      std::memcpy(out.data() + (size_t(z) * b.height + y) * row,
                  image.data() + L.texel_offset(level, b.x, b.y + y, b.z + z), row);
    }
  }
  return out;
}

// The inner part of a box: one texel in from each side where possible.
Box inner(const Box& b) {
  auto shrink = [](int32_t& o, int32_t& n) {
    if (n > 2) {
      o += 1;
      n -= 2;
    } else if (n == 2) {
      o += 1;
      n = 1;
    }
  };
  Box r = b;
  shrink(r.x, r.width);
  shrink(r.y, r.height);
  shrink(r.z, r.depth);
  return r;
}

void round_trip_all_formats(TextureTarget target) {
  auto screen = shared_screen();
  auto ctx = new_context();
  unsigned formats = 0;
  for (unsigned i = 1; i < unsigned(Format::COUNT); ++i) {
    const Format f = Format(i);
    if (!screen->is_format_supported(f, target, 0, 0, Bind::SAMPLER_VIEW)) continue;
    ++formats;
    INFO(format_name(f) << " on " << target_name(target));
    auto res = create(shape_of(target, f));
    const auto& L = dynamic_cast<frontend::ResourceImpl&>(*res).layout();
    std::vector<uint8_t> image(L.size_bytes(), 0);  // what the device must hold
    uint32_t seed = i * 131 + unsigned(target);
    for (unsigned level = 0; level < L.num_levels(); ++level) {
      INFO("level " << level);
      const Box all = level_box(res, level);
      const size_t bs = L.block_bytes();
      // 1. The whole level (all layers) through a write map.
      auto data = random_bytes(bs * all.width * all.height * all.depth, ++seed);
      write_box(*ctx, res, level, all, data);
      put(image, L, level, all, data);
      // 2. A READ|WRITE map of an inner box sees the data, then changes it.
      const Box in = inner(all);
      {
        auto t = ctx->transfer_map(res, level, Map::READ | Map::WRITE, in);
        REQUIRE(t.is_ok());
        TransferHandle h = t.value();
        CHECK(h->stride() == L.level(level).row_pitch);
        CHECK(h->layer_stride() == L.level(level).layer_pitch);
        const auto expect = get(image, L, level, in);
        const size_t row = bs * in.width;
        auto fresh = random_bytes(expect.size(), ++seed);
        bool same = true;
        for (int z = 0; z < in.depth; ++z) {
          for (int y = 0; y < in.height; ++y) {
            auto* p = static_cast<uint8_t*>(h->data()) + z * h->layer_stride() + y * h->stride();
            const size_t at = (size_t(z) * in.height + y) * row;
            same &= std::memcmp(p, expect.data() + at, row) == 0;
            std::memcpy(p, fresh.data() + at, row);
          }
        }
        CHECK(same);
        REQUIRE(ctx->transfer_unmap(h).is_ok());
        put(image, L, level, in, fresh);
      }
      // 3. texture_subdata of a corner box from memory with padded rows and layers.
      const Box corner{0,
                       0,
                       0,
                       std::max(1, all.width / 2),
                       std::max(1, all.height / 2),
                       std::max(1, all.depth / 2)};
      const uint32_t stride = uint32_t(bs * corner.width + 5);
      const uint64_t layer_stride = uint64_t(stride) * corner.height + 3;
      auto src = random_bytes(layer_stride * corner.depth, ++seed);
      REQUIRE(ctx->texture_subdata(res, level, Map::WRITE, corner, src.data(), stride, layer_stride)
                  .is_ok());
      std::vector<uint8_t> packed;
      for (int z = 0; z < corner.depth; ++z) {
        for (int y = 0; y < corner.height; ++y) {
          const uint8_t* row = src.data() + z * layer_stride + y * stride;
          packed.insert(packed.end(), row, row + bs * corner.width);
        }
      }
      put(image, L, level, corner, packed);
      // 4. The whole level reads back.
      CHECK(read_box(*ctx, res, level, all) == get(image, L, level, all));
    }
    // The storage holds exactly the layout's image (zeros between rows and levels).
    finish(*ctx);
    CHECK(read_raw(res) == image);
  }
  CHECK(formats > 0);
}

}  // namespace

TEST_CASE("transfers round trip on 1D textures", "[frontend][transfer][roundtrip]") {
  round_trip_all_formats(TextureTarget::TEXTURE_1D);
}
TEST_CASE("transfers round trip on 1D arrays", "[frontend][transfer][roundtrip]") {
  round_trip_all_formats(TextureTarget::TEXTURE_1D_ARRAY);
}
TEST_CASE("transfers round trip on 2D textures", "[frontend][transfer][roundtrip]") {
  round_trip_all_formats(TextureTarget::TEXTURE_2D);
}
TEST_CASE("transfers round trip on RECT textures", "[frontend][transfer][roundtrip]") {
  round_trip_all_formats(TextureTarget::TEXTURE_RECT);
}
TEST_CASE("transfers round trip on 3D textures", "[frontend][transfer][roundtrip]") {
  round_trip_all_formats(TextureTarget::TEXTURE_3D);
}
TEST_CASE("transfers round trip on cube maps", "[frontend][transfer][roundtrip]") {
  round_trip_all_formats(TextureTarget::TEXTURE_CUBE);
}
TEST_CASE("transfers round trip on 2D arrays", "[frontend][transfer][roundtrip]") {
  round_trip_all_formats(TextureTarget::TEXTURE_2D_ARRAY);
}
TEST_CASE("transfers round trip on cube arrays", "[frontend][transfer][roundtrip]") {
  round_trip_all_formats(TextureTarget::TEXTURE_CUBE_ARRAY);
}

TEST_CASE("transfers round trip on buffers", "[frontend][transfer][roundtrip]") {
  auto ctx = new_context();
  for (uint32_t size : {1u, 15u, 16u, 17u, 1000u}) {
    INFO("size " << size);
    auto buf = create_buffer(size);
    std::vector<uint8_t> image(size, 0);
    auto data = random_bytes(size, size);
    write_box(*ctx, buf, 0, make_box_1d(0, int(size)), data);
    image = data;
    if (size > 2) {
      auto part = random_bytes(size - 2, size + 1);
      REQUIRE(ctx->buffer_subdata(buf, Map::WRITE, 1, size - 2, part.data()).is_ok());
      std::copy(part.begin(), part.end(), image.begin() + 1);
      CHECK(read_box(*ctx, buf, 0, make_box_1d(1, int(size - 2))) == part);
    }
    CHECK(read_box(*ctx, buf, 0, make_box_1d(0, int(size))) == image);
    finish(*ctx);
    CHECK(read_raw(buf) == image);
  }
}
