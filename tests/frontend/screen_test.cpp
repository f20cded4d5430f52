// Screen: device selection, names, caps, format support, resource creation (rules,
// limits, allocation failure, zero contents, layout), fences and timestamps.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "frontend/features.h"
#include "frontend_util.h"

using namespace clpipe;
using namespace clpipe::test;

TEST_CASE("a screen names clpipe and its device", "[frontend][screen]") {
  auto screen = shared_screen();
  CHECK(screen->get_vendor() == "clpipe");
  CHECK(screen->get_name() == "clpipe (" + screen->device().device_name + ")");
  CHECK(screen->get_device_vendor() == screen->device().device_vendor);
  auto devices = Screen::list_devices();
  REQUIRE(devices.is_ok());
  bool found = false;
  for (const DeviceDescription& d : devices.value()) {
    found |= d.device_name == screen->device().device_name;
  }
  CHECK(found);
}

TEST_CASE("an unknown device name fails and lists the devices", "[frontend][screen]") {
  ScreenOptions options;
  options.device = "no-such-device-xyzzy";
  auto s = Screen::create(options);
  REQUIRE_FALSE(s.is_ok());
  CHECK(s.status().code() == ErrorCode::kInvalidArgument);
  CHECK_THAT(s.status().message(), Catch::Contains("xyzzy"));
  CHECK_THAT(s.status().message(), Catch::Contains(shared_screen()->device().device_name));
}

TEST_CASE("every cap has a name and the limits follow the device", "[frontend][screen][caps]") {
  auto screen = shared_screen();
  for (unsigned i = 0; i < unsigned(Cap::LAST); ++i)
    CHECK(std::string(cap_name(Cap(i))) != "INVALID");
  for (unsigned i = 0; i < unsigned(CapF::LAST); ++i)
    CHECK(std::string(cap_name(CapF(i))) != "INVALID");
  CHECK(std::string(cap_name(Cap::LAST)) == "INVALID");
  CHECK(std::string(cap_name(Cap::VALIDATE_ALL_DIRTY_STATES)) == "VALIDATE_ALL_DIRTY_STATES");

  const int max2d = screen->get_param(Cap::MAX_TEXTURE_2D_SIZE);
  CHECK(max2d >= 1024);
  CHECK((max2d & (max2d - 1)) == 0);
  ResourceTemplate t = make_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM,
                                  uint32_t(max2d), uint16_t(max2d), 1, 1, 0, Bind::SAMPLER_VIEW);
  CHECK(screen->can_create_resource(t));
  t.width0 = uint32_t(max2d) + 1;
  CHECK_FALSE(screen->can_create_resource(t));

  const int levels3d = screen->get_param(Cap::MAX_TEXTURE_3D_LEVELS);
  const uint16_t max3d = uint16_t(1u << (levels3d - 1));
  t = make_templ(TextureTarget::TEXTURE_3D, Format::R8G8B8A8_UNORM, max3d, max3d, max3d, 1,
                 uint8_t(levels3d - 1));
  CHECK(screen->can_create_resource(t));
  t.depth0 = uint16_t(max3d + 1);
  CHECK_FALSE(screen->can_create_resource(t));

  const int cube_levels = screen->get_param(Cap::MAX_TEXTURE_CUBE_LEVELS);
  const uint16_t max_cube = uint16_t(1u << (cube_levels - 1));
  t = make_templ(TextureTarget::TEXTURE_CUBE, Format::R8G8B8A8_UNORM, max_cube, max_cube, 1, 6);
  CHECK(screen->can_create_resource(t));
  t.width0 = t.height0 = uint16_t(max_cube * 2);
  CHECK_FALSE(screen->can_create_resource(t));

  const int layers = screen->get_param(Cap::MAX_TEXTURE_ARRAY_LAYERS);
  t = make_templ(TextureTarget::TEXTURE_2D_ARRAY, Format::R8_UNORM, 4, 4, 1, uint16_t(layers));
  CHECK(screen->can_create_resource(t));
  t.array_size = uint16_t(layers + 1);
  CHECK_FALSE(screen->can_create_resource(t));

  // Pixel buffer objects arrive as R8 buffers marked RENDER_TARGET (Mesa's usage hint);
  // real render-target binds still need a texture target.
  t = make_templ(TextureTarget::BUFFER, Format::R8_UNORM, 4096, 1, 1, 1, 0,
                 Bind::RENDER_TARGET | Bind::CUSTOM);
  CHECK(screen->can_create_resource(t));
  CHECK_FALSE(screen->is_format_supported(Format::R8_UNORM, TextureTarget::BUFFER, 0, 0,
                                          Bind::RENDER_TARGET));
  t.bind = Bind::DEPTH_STENCIL;
  CHECK_FALSE(screen->can_create_resource(t));

  CHECK(screen->get_param(Cap::MAX_RENDER_TARGETS) == int(kMaxColorBufs));
  CHECK(screen->get_param(Cap::ENDIANNESS) == 0);
  CHECK(screen->get_param(Cap::CLEAR_TEXTURE) == 1);
  CHECK(screen->get_param(Cap::BUFFER_MAP_PERSISTENT_COHERENT) == 0);
  CHECK(screen->get_param(Cap::USER_VERTEX_BUFFERS) == 0);
  CHECK(screen->get_param(Cap::TEXTURE_MULTISAMPLE) == 1);
  CHECK(screen->get_param(Cap::FAKE_SW_MSAA) == 0);
  CHECK(screen->get_param(Cap::ACCELERATED) == int(screen->device().is_gpu));
  CHECK(screen->get_param(Cap::VIDEO_MEMORY) > 0);

  auto grid = screen->get_compute_param(ComputeCap::MAX_GRID_SIZE);
  CHECK(grid.size() == 3);
  auto block = screen->get_compute_param(ComputeCap::MAX_BLOCK_SIZE);
  REQUIRE(block.size() == 3);
  CHECK(block[0] >= 1);
  CHECK(screen->get_compute_param(ComputeCap::MAX_THREADS_PER_BLOCK).at(0) >= 1);
  CHECK(screen->get_compute_param(ComputeCap::MAX_MEM_ALLOC_SIZE).at(0) >=
        uint64_t(max2d) * max2d * 4);
  for (unsigned i = 0; i < unsigned(ComputeCap::LAST); ++i) {
    CHECK(std::string(cap_name(ComputeCap(i))) != "INVALID");
  }
}

TEST_CASE("feature caps answer from features.h", "[frontend][screen][caps]") {
  using namespace clpipe::frontend;
  auto screen = shared_screen();
  const bool graphics = kDraw && kShaders;
  CHECK(screen->get_param(Cap::GRAPHICS) == int(graphics));
  CHECK(screen->get_param(Cap::COMPUTE) == int(kShaders && kCompute));
  CHECK(screen->get_param(Cap::INDEP_BLEND_ENABLE) == int(kDraw));
  CHECK(screen->get_param(Cap::TEXTURE_SWIZZLE) == int(kTexturing));
  CHECK(screen->get_param(Cap::OCCLUSION_QUERY) == int(kQueries && kDraw));
  CHECK((screen->get_param(Cap::MAX_STREAM_OUTPUT_BUFFERS) > 0) == kStreamOutput);
  CHECK(screen->get_param(Cap::CONDITIONAL_RENDER) == int(kConditionalRender));
  CHECK(screen->get_param(Cap::GENERATE_MIPMAP) == int(kGenerateMipmap));
  CHECK((screen->get_param(Cap::GLSL_FEATURE_LEVEL) > 0) == graphics);
  CHECK((screen->get_paramf(CapF::MAX_LINE_WIDTH) > 0) == kDraw);
  // A stage that does not run reports nothing; one that runs reports TGSI.
  for (unsigned s = 0; s < kShaderTypes; ++s) {
    const int instructions = screen->get_shader_param(ShaderType(s), ShaderCap::MAX_INSTRUCTIONS);
    INFO(shader_type_name(ShaderType(s)));
    if (instructions == 0) {
      for (unsigned c = 0; c < unsigned(ShaderCap::LAST); ++c) {
        CHECK(screen->get_shader_param(ShaderType(s), ShaderCap(c)) == 0);
      }
    } else {
      CHECK(screen->get_shader_param(ShaderType(s), ShaderCap::PREFERRED_IR) ==
            int(ShaderIr::TGSI));
    }
  }
  CHECK(screen->get_shader_param(ShaderType::VERTEX, ShaderCap::MAX_INSTRUCTIONS) ==
        (graphics ? 65536 : 0));
  CHECK(screen->get_shader_param(ShaderType(17), ShaderCap::MAX_INSTRUCTIONS) == 0);
}

TEST_CASE("format support follows the format table", "[frontend][screen][formats]") {
  auto s = shared_screen();
  using T = TextureTarget;
  const uint32_t rt = Bind::RENDER_TARGET, sv = Bind::SAMPLER_VIEW, ds = Bind::DEPTH_STENCIL;
  CHECK(s->is_format_supported(Format::R8G8B8A8_UNORM, T::TEXTURE_2D, 0, 0,
                               rt | sv | Bind::BLENDABLE));
  CHECK(s->is_format_supported(Format::R8G8B8A8_UNORM, T::TEXTURE_2D, 1, 1, rt));
  CHECK(s->is_format_supported(Format::R8G8B8A8_UNORM, T::TEXTURE_2D, 4, 4, rt));
  CHECK_FALSE(s->is_format_supported(Format::R8G8B8A8_UNORM, T::TEXTURE_2D, 3, 3, rt));
  CHECK_FALSE(s->is_format_supported(Format::R8G8B8A8_UNORM, T::TEXTURE_2D, 0, 0, ds));
  // Display targets are 2D images the client reads back (vtest), not 3D or arrays.
  const uint32_t display = Bind::DISPLAY_TARGET | Bind::SCANOUT | Bind::SHARED;
  CHECK(s->is_format_supported(Format::B5G6R5_UNORM, T::TEXTURE_2D, 0, 0, rt | display));
  CHECK_FALSE(s->is_format_supported(Format::R8G8B8A8_UNORM, T::TEXTURE_3D, 0, 0, display));
  CHECK_FALSE(s->is_format_supported(Format::Z24_UNORM_S8_UINT, T::TEXTURE_2D, 0, 0, display));
  CHECK(s->is_format_supported(Format::R32G32B32A32_UINT, T::TEXTURE_2D, 0, 0, rt));
  CHECK_FALSE(
      s->is_format_supported(Format::R32G32B32A32_UINT, T::TEXTURE_2D, 0, 0, Bind::BLENDABLE));
  CHECK(s->is_format_supported(Format::Z24_UNORM_S8_UINT, T::TEXTURE_2D, 0, 0, ds | sv));
  CHECK(s->is_format_supported(Format::Z32_FLOAT, T::TEXTURE_CUBE_ARRAY, 0, 0, ds));
  CHECK_FALSE(s->is_format_supported(Format::Z24_UNORM_S8_UINT, T::TEXTURE_2D, 0, 0, rt));
  CHECK_FALSE(s->is_format_supported(Format::Z24_UNORM_S8_UINT, T::TEXTURE_3D, 0, 0, sv));
  CHECK_FALSE(
      s->is_format_supported(Format::Z24_UNORM_S8_UINT, T::BUFFER, 0, 0, Bind::VERTEX_BUFFER));
  CHECK(s->is_format_supported(Format::R16G16_SSCALED, T::BUFFER, 0, 0, Bind::VERTEX_BUFFER));
  CHECK(s->is_format_supported(Format::R64G64B64A64_FLOAT, T::BUFFER, 0, 0, Bind::VERTEX_BUFFER));
  CHECK_FALSE(s->is_format_supported(Format::R16G16_SSCALED, T::TEXTURE_2D, 0, 0, sv));
  CHECK_FALSE(s->is_format_supported(Format::R32_FIXED, T::BUFFER, 0, 0, sv));
  CHECK(s->is_format_supported(Format::R32G32B32_FLOAT, T::BUFFER, 0, 0, sv));
  CHECK_FALSE(s->is_format_supported(Format::NONE, T::TEXTURE_2D, 0, 0, 0));
  CHECK_FALSE(s->is_format_supported(Format::COUNT, T::TEXTURE_2D, 0, 0, 0));
  CHECK_FALSE(s->is_format_supported(Format::R8_UNORM, TextureTarget(9), 0, 0, 0));
  // Consistency over the whole table.
  for (unsigned i = 1; i < unsigned(Format::COUNT); ++i) {
    const Format f = Format(i);
    INFO(format_name(f));
    const bool zs = format_is_depth_or_stencil(f);
    for (unsigned t = 1; t < kTextureTargets; ++t) {
      const bool renderable = s->is_format_supported(f, T(t), 0, 0, rt);
      const bool depth = s->is_format_supported(f, T(t), 0, 0, ds);
      CHECK_FALSE((renderable && depth));
      CHECK((depth ? zs : true));
      if (renderable || depth) CHECK(s->is_format_supported(f, T(t), 0, 0, sv));
      if (s->is_format_supported(f, T(t), 0, 0, Bind::BLENDABLE))
        CHECK_FALSE(format_is_pure_integer(f));
    }
  }
}

TEST_CASE("resource_create refuses bad templates with a clear status", "[frontend][screen]") {
  auto s = shared_screen();
  using T = TextureTarget;
  auto code = [&](const ResourceTemplate& t) {
    auto r = s->resource_create(t);
    CHECK(s->can_create_resource(t) == r.is_ok());
    if (!r.is_ok()) CHECK_FALSE(r.status().message().empty());
    return r.status().code();
  };
  CHECK(code(make_templ(T::TEXTURE_2D, Format::R8_UNORM, 4, 4)) == ErrorCode::kOk);
  CHECK(code(make_templ(T(12), Format::R8_UNORM, 4, 4)) == ErrorCode::kInvalidArgument);
  CHECK(code(make_templ(T::TEXTURE_2D, Format(0), 4, 4)) == ErrorCode::kInvalidArgument);
  CHECK(code(make_templ(T::TEXTURE_2D, Format(9999), 4, 4)) == ErrorCode::kInvalidArgument);
  CHECK(code(make_templ(T::TEXTURE_2D, Format::R8_UNORM, 0, 4)) == ErrorCode::kInvalidArgument);
  CHECK(code(make_templ(T::TEXTURE_2D, Format::R8_UNORM, 4, 4, 1, 1, 9)) ==
        ErrorCode::kInvalidArgument);
  CHECK(code(make_templ(T::TEXTURE_2D, Format::R8_UNORM, 1u << 30, 4)) ==
        ErrorCode::kInvalidArgument);
  CHECK(code(make_templ(T::TEXTURE_3D, Format::R8_UNORM, 4, 4, 4, 1, 0, Bind::SCANOUT)) ==
        ErrorCode::kUnsupported);
  CHECK(code(make_templ(T::TEXTURE_2D, Format::Z16_UNORM, 4, 4, 1, 1, 0, Bind::RENDER_TARGET)) ==
        ErrorCode::kUnsupported);
  CHECK(code(make_templ(T::TEXTURE_3D, Format::Z16_UNORM, 4, 4, 4)) == ErrorCode::kUnsupported);
  CHECK(code(make_templ(T::TEXTURE_2D, Format::R32G32_SSCALED, 4, 4)) == ErrorCode::kUnsupported);
  ResourceTemplate ms = make_templ(T::TEXTURE_2D, Format::R8_UNORM, 4, 4);
  ms.nr_samples = 3;
  CHECK(code(ms) == ErrorCode::kUnsupported);
  ResourceTemplate usage = make_templ(T::TEXTURE_2D, Format::R8_UNORM, 4, 4);
  usage.usage = ResourceUsage(9);
  CHECK(code(usage) == ErrorCode::kInvalidArgument);
}

TEST_CASE("a resource larger than one device allocation fails with OutOfMemory",
          "[frontend][screen]") {
  auto s = shared_screen();
  const int max2d = s->get_param(Cap::MAX_TEXTURE_2D_SIZE);
  const int layers = s->get_param(Cap::MAX_TEXTURE_ARRAY_LAYERS);
  // max2d^2 * layers * 16 bytes: at least 2^20 * 2^11 * 16 = 32 GiB, and far more than the
  // largest allocation whenever max2d is 16384 (the 2D size limit is set for 4-byte texels).
  const auto t = make_templ(TextureTarget::TEXTURE_2D_ARRAY, Format::R32G32B32A32_FLOAT,
                            uint32_t(max2d), uint16_t(max2d), 1, uint16_t(layers));
  auto r = s->resource_create(t);
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().code() == ErrorCode::kOutOfMemory);
  CHECK_THAT(r.status().message(), Catch::Contains("largest allocation"));
  // Nothing else is disturbed: the screen still creates and fills resources.
  auto ctx = new_context();
  auto ok = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8_UNORM, 4, 4));
  CHECK(read_box(*ctx, ok, 0, level_box(ok, 0)) == std::vector<uint8_t>(16, 0));
}

TEST_CASE("new resources read as zero and expose their layout", "[frontend][screen]") {
  auto tex = create(make_templ(TextureTarget::TEXTURE_2D_ARRAY, Format::R8G8B8_UNORM, 13, 7, 1, 3,
                               2, Bind::SAMPLER_VIEW));
  auto raw = read_raw(tex);
  CHECK(raw == std::vector<uint8_t>(raw.size(), 0));
  CHECK(tex->level_row_pitch(0) == 48);
  CHECK(tex->level_layer_pitch(0) == 48 * 7);
  CHECK(tex->level_offset(0) == 0);
  CHECK(tex->level_offset(1) == ((48 * 7 * 3 + 63) / 64) * 64);
  CHECK(tex->level_row_pitch(1) == 32);  // 6 texels * 3 bytes = 18 -> 32
  CHECK(tex->level_row_pitch(7) == 0);   // no such level
  CHECK(tex->size_bytes() == raw.size());
  CHECK(tex->info().width0 == 13);
  auto buf = create_buffer(1000);
  CHECK(buf->size_bytes() == 1000);
  CHECK(buf->level_row_pitch(0) == 1000);
  raw = read_raw(buf);
  CHECK(raw == std::vector<uint8_t>(1000, 0));
  // Also where the device reuses the memory of a resource that held data (OpenCL gives
  // no zeroed memory of its own), and at sizes that are no multiple of 4.
  auto ctx = new_context();
  for (uint32_t size : {4096u, 1001u}) {
    for (int round = 0; round < 3; ++round) {
      auto used = create_buffer(size);
      const std::vector<uint8_t> ones(size, 0xff);
      REQUIRE(ctx->buffer_subdata(used, Map::WRITE, 0, size, ones.data()).is_ok());
      finish(*ctx);
      REQUIRE(read_raw(used) == ones);
      used.reset();
      CHECK(read_raw(create_buffer(size)) == std::vector<uint8_t>(size, 0));
    }
  }
}

TEST_CASE("fences signal, time out, and refuse foreign handles", "[frontend][screen][fence]") {
  auto screen = shared_screen();
  auto ctx = new_context();
  auto buf = create_buffer(1 << 20);
  const uint32_t v = 0x01020304;
  REQUIRE(ctx->clear_buffer(buf, 0, 1 << 20, &v, 4).is_ok());
  FenceHandle fence;
  REQUIRE(ctx->flush(&fence).is_ok());
  REQUIRE(fence);
  CHECK(screen->fence_finish(fence, UINT64_MAX).is_ok());
  CHECK(screen->fence_finish(fence, 0).is_ok());  // stays signalled

  CHECK(screen->fence_finish(nullptr, 0).code() == ErrorCode::kInvalidArgument);
  struct Foreign : Fence {};
  CHECK(screen->fence_finish(std::make_shared<Foreign>(), 0).code() == ErrorCode::kInvalidArgument);

  // A fence on work that cannot finish yet: a user event stands for it.
  auto* impl = dynamic_cast<frontend::ScreenImpl*>(screen.get());
  REQUIRE(impl);
  cl::UserEvent pending(impl->cl_device().context());
  auto blocked = std::make_shared<frontend::FenceImpl>(pending);
  CHECK(screen->fence_finish(blocked, 0).code() == ErrorCode::kTimeout);
  const auto start = std::chrono::steady_clock::now();
  const Status timed_out = screen->fence_finish(blocked, 20'000'000);  // 20 ms
  CHECK(timed_out.code() == ErrorCode::kTimeout);
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(20));
  std::thread signal([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    pending.setStatus(CL_COMPLETE);
  });
  CHECK(screen->fence_finish(blocked, 5'000'000'000ull).is_ok());
  signal.join();
  CHECK(ctx->flush(nullptr, Flush::FENCE_FD).code() == ErrorCode::kUnsupported);
}

TEST_CASE("timestamps advance in nanoseconds", "[frontend][screen]") {
  auto screen = shared_screen();
  const uint64_t t0 = screen->get_timestamp();
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const uint64_t t1 = screen->get_timestamp();
  CHECK(t1 > t0);
  CHECK(t1 - t0 >= 4'000'000);
  CHECK(t1 - t0 < 5'000'000'000ull);
}
