// Compute shaders as Mesa 22.3 emits them for piglit (the shared TGSI corpus), run through
// the API the way the GL state tracker would: a few with their piglit checks
// (arb_compute_shader basic-uniform-access, multiple-workgroups, multiple-texture-reading),
// and a fixed sample of all the corpus's compute shaders launched with nothing bound, which
// must build and run (unbound resources read zero and take no writes).
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/tgsi_test_util.h"
#include "compute_util.h"
#include "frontend/screen_impl.h"

using namespace clpipe;
using namespace clpipe::test;
using clpipe::compiler::test::corpus_dir;
using clpipe::compiler::test::corpus_shader;
using clpipe::compiler::test::read_text;

namespace {

ImageView image_of(const ResourceRef& res, Format f, uint16_t access) {
  ImageView v;
  v.resource = res;
  v.format = f;
  v.access = v.shader_access = access;
  return v;
}

void set_const(Context& ctx, const std::vector<uint32_t>& words) {
  ConstantBuffer cb;
  cb.user_buffer = words.data();
  cb.buffer_size = uint32_t(words.size() * 4);
  REQUIRE(ctx.set_constant_buffer(ShaderType::COMPUTE, 0, &cb).is_ok());
}

// Fixed block of a shader's text (CS_FIXED_BLOCK_*), {0, 0, 0} when it has none.
std::array<uint32_t, 3> fixed_block(const std::string& tgsi) {
  std::array<uint32_t, 3> b = {0, 0, 0};
  const char* names[3] = {"CS_FIXED_BLOCK_WIDTH ", "CS_FIXED_BLOCK_HEIGHT ",
                          "CS_FIXED_BLOCK_DEPTH "};
  for (int d = 0; d < 3; ++d) {
    const size_t p = tgsi.find(names[d]);
    if (p != std::string::npos) b[d] = uint32_t(std::stoul(tgsi.substr(p + std::strlen(names[d]))));
  }
  return b;
}

}  // namespace

TEST_CASE("compute corpus: uniform colour into an image over several workgroups",
          "[frontend][compute][corpus]") {
  // 1387 (basic-uniform-access, 16x16 blocks) and 1390 (multiple-workgroups, 8x8 blocks):
  // imageStore(tex, ivec2(gl_GlobalInvocationID.xy), color) with color in CONST[0].
  for (const char* file : {"1387.tgsi", "1390.tgsi"}) {
    INFO(file);
    const std::string tgsi = corpus_shader(file);
    const std::array<uint32_t, 3> block = fixed_block(tgsi);
    auto ctx = new_context();
    bind_compute(*ctx, tgsi);
    ResourceRef tex = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, 32, 32,
                                        1, 1, 0, Bind::SHADER_IMAGE | Bind::SAMPLER_VIEW));
    REQUIRE(ctx->set_shader_images(ShaderType::COMPUTE, 0,
                                   {image_of(tex, Format::R8G8B8A8_UNORM, ImageAccess::WRITE)})
                .is_ok());
    set_const(*ctx, {fbits(0.0f), fbits(1.0f), fbits(0.2f), fbits(0.6f)});
    // Two blocks wide, one block high: part of the 32 x 32 image.
    const uint32_t w = 2 * block[0], h = block[1];
    launch(*ctx, make_grid(block, {2, 1, 1}));
    const std::vector<uint8_t> px = read_box(*ctx, tex, 0, make_box_2d(0, 0, 32, 32));
    for (uint32_t y = 0; y < 32; ++y)
      for (uint32_t x = 0; x < 32; ++x) {
        INFO("texel " << x << "," << y);
        const bool in = x < w && y < h;
        const uint8_t* p = &px[(y * 32 + x) * 4];
        CHECK(int(p[0]) == 0);
        CHECK(int(p[1]) == (in ? 255 : 0));
        CHECK(int(p[2]) == (in ? 51 : 0));
        CHECK(int(p[3]) == (in ? 153 : 0));
      }
  }
}

TEST_CASE("compute corpus: reading two images into a third", "[frontend][compute][corpus]") {
  // 1389 (multiple-texture-reading): out = (bit 0 of CONST[0].x ? image 0 : 0) +
  // (bit 1 ? image 1 : 0), 16x16 blocks; out is format-less (here RGBA32F).
  const std::string tgsi = corpus_shader("1389.tgsi");
  auto ctx = new_context();
  bind_compute(*ctx, tgsi);
  const uint32_t bind = Bind::SHADER_IMAGE | Bind::SAMPLER_VIEW;
  ResourceRef a =
      create(make_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, 16, 16, 1, 1, 0, bind));
  ResourceRef b =
      create(make_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, 16, 16, 1, 1, 0, bind));
  ResourceRef out = create(
      make_templ(TextureTarget::TEXTURE_2D, Format::R32G32B32A32_FLOAT, 16, 16, 1, 1, 0, bind));
  const std::vector<uint8_t> ta = random_bytes(16 * 16 * 4, 1), tb = random_bytes(16 * 16 * 4, 2);
  write_box(*ctx, a, 0, make_box_2d(0, 0, 16, 16), ta);
  write_box(*ctx, b, 0, make_box_2d(0, 0, 16, 16), tb);
  REQUIRE(ctx->set_shader_images(ShaderType::COMPUTE, 0,
                                 {image_of(a, Format::R8G8B8A8_UNORM, ImageAccess::READ),
                                  image_of(b, Format::R8G8B8A8_UNORM, ImageAccess::READ),
                                  image_of(out, Format::R32G32B32A32_FLOAT, ImageAccess::WRITE)})
              .is_ok());
  for (uint32_t flags : {1u, 2u, 3u}) {
    INFO("flags " << flags);
    set_const(*ctx, {flags, 0, 0, 0});
    launch(*ctx, make_grid({16, 16, 1}, {1, 1, 1}));
    const std::vector<uint8_t> raw = read_box(*ctx, out, 0, make_box_2d(0, 0, 16, 16));
    std::vector<float> f(raw.size() / 4);
    std::memcpy(f.data(), raw.data(), raw.size());
    for (size_t i = 0; i < f.size(); ++i) {
      const float want =
          ((flags & 1) ? ta[i] / 255.0f : 0.0f) + ((flags & 2) ? tb[i] / 255.0f : 0.0f);
      INFO("channel " << i);
      REQUIRE(f[i] == Approx(want).margin(1e-6));
    }
  }
}

TEST_CASE("compute corpus: a sample of all compute shaders builds and runs unbound",
          "[frontend][compute][corpus]") {
  std::vector<std::string> comp;
  std::istringstream index(read_text(corpus_dir() + "/index.tsv"));
  std::string line;
  while (std::getline(index, line)) {
    std::istringstream fields(line);
    std::string file, stage;
    std::getline(fields, file, '\t');
    std::getline(fields, stage, '\t');
    if (stage == "COMP") comp.push_back(file);
  }
  REQUIRE(comp.size() >= 100);
  auto* screen = dynamic_cast<frontend::ScreenImpl*>(shared_screen().get());
  REQUIRE(screen);
  const bool fp64 = screen->cl_device().limits().fp64;
  auto ctx = new_context();
  size_t ran = 0;
  for (size_t i = 0; i < comp.size(); i += 9) {
    INFO(comp[i]);
    const std::string tgsi = corpus_shader(comp[i]);
    std::array<uint32_t, 3> block = fixed_block(tgsi);
    if (!block[0] || !block[1] || !block[2]) block = {4, 2, 1};
    bind_compute(*ctx, tgsi);
    const Status s = ctx->launch_grid(make_grid(block, {2, 1, 1}));
    if (!fp64 && s.code() == ErrorCode::kCompileError) continue;  // double opcodes
    // A kernel may fit fewer threads per work-group than its block on a device (NVIDIA:
    // 256 for the heaviest shaders, whose registers the compiler sizes for no block):
    // launch_grid says so, and nothing ran.
    if (s.code() == ErrorCode::kUnsupported &&
        s.message().find("threads per block on the device") != std::string::npos) {
      WARN(comp[i] << ": " << s.message());
      continue;
    }
    CHECK(s.to_string() == "Ok");
    ++ran;
  }
  finish(*ctx);
  CHECK(ran >= 30);
}
