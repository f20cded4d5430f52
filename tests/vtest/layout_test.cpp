// Resource validation and the guest backing-store layout (doc 3.2-3.3).
#include <catch2/catch.hpp>

#include "vtest/formats.h"
#include "vtest/layout.h"
#include "vtest/wire.h"

using namespace clpipe;
using namespace clpipe::frontend::vtest;

namespace {

ResourceDesc desc(TextureTarget t, Format f, uint32_t w, uint32_t h = 1, uint32_t d = 1,
                  uint32_t layers = 1, uint32_t last_level = 0, uint32_t samples = 0) {
  const uint32_t fields[10] = {1, uint32_t(t), format_to_virgl(f), 0,      w, h,
                               d, layers,      last_level,         samples};
  return validate_resource(fields);
}

}  // namespace

TEST_CASE("vtest layout: backing-store sizes verified in the captures", "[vtest][layout]") {
  using T = TextureTarget;
  CHECK(GuestLayout(desc(T::TEXTURE_2D, Format::R8G8B8A8_UNORM, 250, 250)).total_bytes() == 250000);
  CHECK(GuestLayout(desc(T::TEXTURE_2D, Format::B5G6R5_UNORM, 250, 250)).total_bytes() == 125000);
  CHECK(GuestLayout(desc(T::TEXTURE_2D, Format::R8G8B8A8_UNORM, 8, 8)).total_bytes() == 256);
  CHECK(GuestLayout(desc(T::TEXTURE_2D, Format::Z24X8_UNORM, 32, 32)).total_bytes() == 4096);
  for (uint32_t n : {96u, 160u, 1048576u})
    CHECK(GuestLayout(desc(T::BUFFER, Format::R8_UNORM, n)).total_bytes() == n);
}

TEST_CASE("vtest layout: mip levels, cube faces and 3D slices are packed in order",
          "[vtest][layout]") {
  using T = TextureTarget;
  const GuestLayout mips(desc(T::TEXTURE_2D, Format::R8G8B8A8_UNORM, 8, 8, 1, 1, 3));
  CHECK(mips.level(0).offset == 0);
  CHECK(mips.level(1).offset == 256);
  CHECK(mips.level(1).stride == 16);
  CHECK(mips.level(2).offset == 256 + 64);
  CHECK(mips.level(3).offset == 256 + 64 + 16);
  CHECK(mips.total_bytes() == 256 + 64 + 16 + 4);

  const GuestLayout cube(desc(T::TEXTURE_CUBE, Format::R8G8B8A8_UNORM, 16, 16, 1, 6, 1));
  CHECK(cube.level(0).layer_stride == 1024);
  CHECK(cube.level(1).offset == 6 * 1024);
  CHECK(cube.total_bytes() == 6 * 1024 + 6 * 256);

  const GuestLayout vol(desc(T::TEXTURE_3D, Format::R8_UNORM, 4, 4, 4, 1, 2));
  CHECK(vol.level(1).offset == 64);      // 4 slices of 16 bytes
  CHECK(vol.level(2).offset == 64 + 8);  // 2 slices of 4 bytes
  CHECK(vol.total_bytes() == 64 + 8 + 1);

  const GuestLayout arr(desc(T::TEXTURE_1D_ARRAY, Format::R16_FLOAT, 10, 1, 1, 3));
  CHECK(arr.level(0).stride == 20);
  CHECK(arr.total_bytes() == 60);

  // Multisampled resources have no backing store.
  const GuestLayout ms(desc(T::TEXTURE_2D, Format::R8G8B8A8_UNORM, 8, 8, 1, 1, 0, 4));
  CHECK(ms.total_bytes() == 0);
  CHECK(ms.packed_bytes() == 256);
}

TEST_CASE("vtest layout: transfer boxes address the level image with its strides",
          "[vtest][layout]") {
  const ResourceDesc d = desc(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, 250, 250);
  const GuestLayout l(d);
  // Capture 06: a 1x1 readback at (225, 249) has offset 249 * 1000 + 225 * 4.
  const uint32_t box[6] = {225, 249, 0, 1, 1, 1};
  const TransferGeometry g = transfer_geometry(d, l, 0, box, 0, 0, "t");
  CHECK(g.stride == 1000);
  CHECK(g.row_bytes == 4);
  CHECK(g.span() == 4);
  CHECK(l.level(0).offset + 249 * g.stride + 225 * 4 == 249900);
  const uint32_t full[6] = {0, 0, 0, 250, 250, 1};
  CHECK(transfer_geometry(d, l, 0, full, 0, 0, "t").span() == 250000);
  const uint32_t rect[6] = {10, 20, 0, 5, 3, 1};
  CHECK(transfer_geometry(d, l, 0, rect, 0, 0, "t").span() == 2 * 1000 + 20);
  CHECK(transfer_geometry(d, l, 0, rect, 64, 0, "t").span() == 2 * 64 + 20);
  const uint32_t empty[6] = {3, 3, 0, 0, 1, 1};
  CHECK(transfer_geometry(d, l, 0, empty, 0, 0, "t").span() == 0);
}

TEST_CASE("vtest layout: out-of-range transfers are protocol errors", "[vtest][layout]") {
  const ResourceDesc d = desc(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, 16, 16, 1, 1, 1);
  const GuestLayout l(d);
  const uint32_t past_right[6] = {10, 0, 0, 7, 1, 1};
  CHECK_THROWS_WITH(transfer_geometry(d, l, 0, past_right, 0, 0, "TRANSFER3D"),
                    Catch::Contains("TRANSFER3D") && Catch::Contains("exceeds level 0"));
  const uint32_t level1[6] = {0, 0, 0, 9, 1, 1};  // level 1 is 8 wide
  CHECK_THROWS_AS(transfer_geometry(d, l, 1, level1, 0, 0, "t"), ProtocolError);
  const uint32_t ok[6] = {0, 0, 0, 4, 4, 1};
  CHECK_THROWS_WITH(transfer_geometry(d, l, 2, ok, 0, 0, "t"), Catch::Contains("last_level"));
  CHECK_THROWS_WITH(transfer_geometry(d, l, 0, ok, 8, 0, "t"), Catch::Contains("stride"));
  const uint32_t huge[6] = {0xffffffffu, 0, 0, 2, 1, 1};  // x + w overflows 32 bits
  CHECK_THROWS_AS(transfer_geometry(d, l, 0, huge, 0, 0, "t"), ProtocolError);
  const uint32_t layers[6] = {0, 0, 0, 1, 1, 2};
  CHECK_THROWS_AS(transfer_geometry(d, l, 0, layers, 0, 0, "t"), ProtocolError);

  CHECK_NOTHROW(check_span(96, 4, 100, "t"));
  CHECK_THROWS_AS(check_span(97, 4, 100, "t"), ProtocolError);
  CHECK_THROWS_AS(check_span(101, 0, 100, "t"), ProtocolError);
  CHECK_THROWS_AS(check_span(~0ull, 2, 100, "t"), ProtocolError);
}

TEST_CASE("vtest layout: resource descriptions follow gallium's target rules", "[vtest][layout]") {
  using T = TextureTarget;
  // Fence pseudo-resources have array_size 0 (doc 3.5).
  const uint32_t fence[10] = {7, 0, 64, 1u << 17, 8, 1, 1, 0, 0, 0};
  CHECK(validate_resource(fence).array_size == 1);
  CHECK_THROWS_WITH(desc(T::BUFFER, Format::R8_UNORM, 16, 2), Catch::Contains("buffer"));
  CHECK_THROWS_WITH(desc(T::TEXTURE_CUBE, Format::R8_UNORM, 16, 8, 1, 6),
                    Catch::Contains("square"));
  CHECK_THROWS_AS(desc(T::TEXTURE_CUBE, Format::R8_UNORM, 16, 16, 1, 5), ProtocolError);
  CHECK_THROWS_WITH(desc(T::TEXTURE_2D, Format::R8_UNORM, 16, 16, 1, 1, 5),
                    Catch::Contains("last_level"));
  CHECK_NOTHROW(desc(T::TEXTURE_2D, Format::R8_UNORM, 16, 16, 1, 1, 4));
  CHECK_THROWS_AS(desc(T::TEXTURE_2D, Format::R8_UNORM, 16, 16, 2), ProtocolError);
  CHECK_THROWS_AS(desc(T::TEXTURE_1D, Format::R8_UNORM, 16, 2), ProtocolError);
  CHECK_THROWS_AS(desc(T::TEXTURE_2D, Format::R8_UNORM, 0, 16), ProtocolError);
  CHECK_THROWS_AS(desc(T::TEXTURE_2D, Format::R8_UNORM, 1u << 20, 1), ProtocolError);
  CHECK_THROWS_AS(desc(T::TEXTURE_3D, Format::R8_UNORM, 4, 4, 4, 1, 0, 4), ProtocolError);
  const uint32_t handle0[10] = {0, 2, 67, 0, 4, 4, 1, 1, 0, 0};
  CHECK_THROWS_WITH(validate_resource(handle0), Catch::Contains("handle 0"));
  const uint32_t target9[10] = {1, 9, 67, 0, 4, 4, 1, 1, 0, 0};
  CHECK_THROWS_AS(validate_resource(target9), ProtocolError);
  const uint32_t dxt[10] = {1, 2, 105, 0, 4, 4, 1, 1, 0, 0};
  CHECK_THROWS_WITH(validate_resource(dxt), Catch::Contains("DXT1_RGB"));

  const ResourceTemplate t =
      resource_template(desc(T::TEXTURE_2D_ARRAY, Format::R8G8B8A8_UNORM, 4, 4, 1, 3, 2));
  CHECK(t.target == T::TEXTURE_2D_ARRAY);
  CHECK(t.array_size == 3);
  CHECK(t.last_level == 2);
  CHECK(t.format == Format::R8G8B8A8_UNORM);
}
