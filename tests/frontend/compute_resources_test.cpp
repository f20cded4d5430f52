// The resources a compute shader sees through the COMPUTE stage's bindings: constant
// buffers (user memory and buffer ranges, reads past the bound size are zero), shader
// buffers at offsets (sub-buffers, copies of read-only slots, copies written back for
// writable slots at offsets the device cannot address, aliasing refused), unbound slots
// (read zero, writes dropped), texture sampling (TXF, TEX, TXL) through the sampling
// library, dispatches that consume what the previous one wrote, and a shader at the
// advertised resource limits.
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "compute_util.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

// out[t] = in[t] + CONST[0][1].x + CONST[1][3].y + CONST[1][4].z + BUFFER[2][t] for 10
// threads; BUFFER[2] is never bound (reads 0, its store is dropped); CONST[1][4] lies past
// the 64 bytes bound to constant buffer 1 (reads 0).
const char* kSum = R"(COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 10
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL CONST[0][0..1]
DCL CONST[1][0..5]
DCL BUFFER[0]
DCL BUFFER[1]
DCL BUFFER[2]
DCL TEMP[0..2]
IMM[0] UINT32 {4, 0, 0, 0}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
LOAD TEMP[1].x, BUFFER[0], TEMP[0].xxxx
LOAD TEMP[2].x, BUFFER[2], TEMP[0].xxxx
UADD TEMP[1].x, TEMP[1].xxxx, CONST[0][1].xxxx
UADD TEMP[1].x, TEMP[1].xxxx, CONST[1][3].yyyy
UADD TEMP[1].x, TEMP[1].xxxx, CONST[1][4].zzzz
UADD TEMP[1].x, TEMP[1].xxxx, TEMP[2].xxxx
STORE BUFFER[1].x, TEMP[0].xxxx, TEMP[1].xxxx
STORE BUFFER[2].x, TEMP[0].xxxx, TEMP[1].xxxx
END
)";

struct SumSetup {
  std::unique_ptr<Context> ctx;
  ResourceRef in, out, cb;
  std::vector<uint32_t> in_words, out_words;
};

SumSetup sum_setup() {
  SumSetup s;
  s.ctx = new_context();
  Context& ctx = *s.ctx;
  bind_compute(ctx, kSum);
  // User constant buffer 0: CONST[0][1].x = 1000.
  std::vector<uint32_t> user(8, 0);
  user[4] = 1000;
  ConstantBuffer c0;
  c0.user_buffer = user.data();
  c0.buffer_size = 32;
  REQUIRE(ctx.set_constant_buffer(ShaderType::COMPUTE, 0, &c0).is_ok());
  // Constant buffer 1: 64 bytes at byte 16 of a 128-byte buffer; CONST[1][3].y = 20000 is
  // word 4 + 13; CONST[1][4].z (word 4 + 18) holds data but is outside the bound range.
  std::vector<uint32_t> cbw(32, 0);
  cbw[4 + 13] = 20000;
  cbw[4 + 18] = 0x0bad0000u;
  s.cb = words_resource(ctx, cbw);
  ConstantBuffer c1;
  c1.buffer = s.cb;
  c1.buffer_offset = 16;
  c1.buffer_size = 64;
  REQUIRE(ctx.set_constant_buffer(ShaderType::COMPUTE, 1, &c1).is_ok());
  s.in_words.resize(128);
  for (uint32_t i = 0; i < 128; ++i)
    s.in_words[i] = i * 3 + 1;
  s.in = words_resource(ctx, s.in_words);
  s.out_words.assign(256, 0xeeeeeeeeu);
  s.out = words_resource(ctx, s.out_words);
  return s;
}

// Binds BUFFER[0] = in at in_offset (read-only slot) and BUFFER[1] = 8 words of out at
// out_offset (writable), launches the 10 threads and checks every word of out.
void run_sum(SumSetup& s, uint32_t in_offset, uint32_t out_offset) {
  INFO("in at byte " << in_offset << ", out at byte " << out_offset);
  Context& ctx = *s.ctx;
  REQUIRE(
      ctx.buffer_subdata(s.out, Map::WRITE, 0, uint32_t(s.out_words.size() * 4), s.out_words.data())
          .is_ok());
  std::vector<ShaderBuffer> sb(2);
  sb[0].buffer = s.in;
  sb[0].buffer_offset = in_offset;
  sb[0].buffer_size = 512 - in_offset;
  sb[1].buffer = s.out;
  sb[1].buffer_offset = out_offset;
  sb[1].buffer_size = 32;
  REQUIRE(ctx.set_shader_buffers(ShaderType::COMPUTE, 0, sb, 0x2).is_ok());
  launch(ctx, make_grid({10, 1, 1}, {1, 1, 1}));
  const std::vector<uint32_t> out = read_words(ctx, s.out);
  REQUIRE(out_offset % 4 == 0);  // (unaligned bytes: the bytewise test below)
  const uint32_t first = out_offset / 4;
  for (uint32_t w = 0; w < out.size(); ++w) {
    INFO("word " << w);
    if (w >= first && w < first + 8) {
      CHECK(out[w] == s.in_words[in_offset / 4 + (w - first)] + 21000);
    } else {
      CHECK(out[w] == 0xeeeeeeeeu);  // threads 8 and 9 store past the 32 bound bytes
    }
  }
}

}  // namespace

TEST_CASE("compute: constant buffers and shader buffers at offsets",
          "[frontend][compute][resources]") {
  SumSetup s = sum_setup();
  const uint32_t align = uint32_t(shared_screen()->get_param(Cap::SHADER_BUFFER_OFFSET_ALIGNMENT));
  run_sum(s, 0, 0);
  run_sum(s, 4, align);  // an unaligned read-only slot is read through a copy
  run_sum(s, align, 2 * align);
  run_sum(s, 8, 12);         // a writable slot the device cannot address: copied back
  run_sum(s, 12, 256 + 20);  // and again at another offset, after the others
}

TEST_CASE("compute: aliasing writable copies are refused", "[frontend][compute][resources]") {
  SumSetup s = sum_setup();
  // BUFFER[0] and BUFFER[1] overlap in one resource, and BUFFER[1]'s offset needs a copy:
  // the write-back would lose what went through BUFFER[0], so the launch is refused.
  std::vector<ShaderBuffer> sb(2);
  sb[0].buffer = s.out;
  sb[0].buffer_offset = 0;
  sb[0].buffer_size = 64;
  sb[1].buffer = s.out;
  sb[1].buffer_offset = 12;
  sb[1].buffer_size = 32;
  REQUIRE(s.ctx->set_shader_buffers(ShaderType::COMPUTE, 0, sb, 0x3).is_ok());
  const Status st = s.ctx->launch_grid(make_grid({10, 1, 1}, {1, 1, 1}));
  CHECK(st.code() == ErrorCode::kUnsupported);
  CHECK_THAT(st.message(), Catch::Contains("overlaps"));
  CHECK(read_words(*s.ctx, s.out) == s.out_words);
  // So is an image of the resource next to the copied slot.
  ImageView iv;
  iv.resource = s.out;
  iv.format = Format::R32_UINT;
  iv.access = iv.shader_access = ImageAccess::READ_WRITE;
  iv.buf_size = 16;
  REQUIRE(s.ctx->set_shader_buffers(ShaderType::COMPUTE, 0, {sb[1]}, 0x1).is_ok());
  REQUIRE(s.ctx->set_shader_images(ShaderType::COMPUTE, 0, {iv}).is_ok());
  bind_compute(*s.ctx, R"(COMP
DCL IMAGE[0], BUFFER, PIPE_FORMAT_R32_UINT, WR
DCL BUFFER[0]
IMM[0] UINT32 {0, 1, 0, 0}
STORE BUFFER[0].x, IMM[0].xxxx, IMM[0].yyyy
STORE IMAGE[0], IMM[0].xxxx, IMM[0].yyyy, BUFFER
END
)");
  const Status img = s.ctx->launch_grid(make_grid({1, 1, 1}, {1, 1, 1}));
  CHECK(img.code() == ErrorCode::kUnsupported);
  CHECK_THAT(img.message(), Catch::Contains("image"));
  CHECK(read_words(*s.ctx, s.out) == s.out_words);
  bind_compute(*s.ctx, kSum);
  // Disjoint ranges of one resource are fine.
  sb[0].buffer_size = 12;
  REQUIRE(s.ctx->set_shader_buffers(ShaderType::COMPUTE, 0, sb, 0x2).is_ok());
  launch(*s.ctx, make_grid({10, 1, 1}, {1, 1, 1}));
  const std::vector<uint32_t> out = read_words(*s.ctx, s.out);
  for (uint32_t w = 0; w < 8; ++w) {
    const uint32_t in = w < 3 ? 0xeeeeeeeeu : 0;  // BUFFER[0] holds 3 words of out
    CHECK(out[3 + w] == in + 21000u);
  }
}

TEST_CASE("compute: unaligned writable slots are written back bytewise",
          "[frontend][compute][resources]") {
  // A store through a slot at byte 6: word-addressed stores land at bytes 6 + 4k.
  const char* kStore = R"(COMP
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL TEMP[0]
IMM[0] UINT32 {4, 67305985, 0, 0}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
STORE BUFFER[0].x, TEMP[0].xxxx, IMM[0].yyyy
END
)";
  auto ctx = new_context();
  bind_compute(*ctx, kStore);
  ResourceRef buf = words_resource(*ctx, std::vector<uint32_t>(8, 0xeeeeeeeeu));
  ShaderBuffer sb;
  sb.buffer = buf;
  sb.buffer_offset = 6;
  sb.buffer_size = 16;
  REQUIRE(ctx->set_shader_buffers(ShaderType::COMPUTE, 0, {sb}, 0x1).is_ok());
  launch(*ctx, make_grid({5, 1, 1}, {1, 1, 1}));
  const std::vector<uint8_t> bytes = read_box(*ctx, buf, 0, make_box_1d(0, 32));
  for (uint32_t i = 0; i < 32; ++i) {
    INFO("byte " << i);
    const bool inside = i >= 6 && i < 22;
    CHECK(int(bytes[i]) == (inside ? int((i - 6) % 4 + 1) : 0xee));
  }
}

TEST_CASE("compute: texture sampling", "[frontend][compute][sampling]") {
  // Thread (x, y) of a 4x4 block: TXF (x, y, level 0), TEX at the texel centre (no
  // derivatives in compute: level 0), TXL at level 1 (nearest): 12 words per thread.
  const char* kSample = R"(COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
PROPERTY CS_FIXED_BLOCK_HEIGHT 4
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL BUFFER[0]
DCL TEMP[0..5]
IMM[0] UINT32 {4, 48, 16, 32}
IMM[1] FLT32 {0x3f000000, 0x3e800000, 0x3f800000, 0x00000000}
MOV TEMP[0].xy, SV[0].xyyy
MOV TEMP[0].zw, IMM[1].wwww
TXF TEMP[1], TEMP[0], SAMP[0], 2D
U2F TEMP[2].xy, SV[0].xyyy
ADD TEMP[2].xy, TEMP[2].xyyy, IMM[1].xxxx
MUL TEMP[2].xy, TEMP[2].xyyy, IMM[1].yyyy
MOV TEMP[2].zw, IMM[1].zzzz
TEX TEMP[3], TEMP[2], SAMP[0], 2D
TXL TEMP[4], TEMP[2], SAMP[0], 2D
UMAD TEMP[5].x, SV[0].yyyy, IMM[0].xxxx, SV[0].xxxx
UMUL TEMP[5].x, TEMP[5].xxxx, IMM[0].yyyy
UADD TEMP[5].y, TEMP[5].xxxx, IMM[0].zzzz
UADD TEMP[5].z, TEMP[5].xxxx, IMM[0].wwww
STORE BUFFER[0].xyzw, TEMP[5].xxxx, TEMP[1]
STORE BUFFER[0].xyzw, TEMP[5].yyyy, TEMP[3]
STORE BUFFER[0].xyzw, TEMP[5].zzzz, TEMP[4]
END
)";
  auto ctx = new_context();
  ResourceRef tex = create(make_templ(TextureTarget::TEXTURE_2D, Format::R32G32B32A32_FLOAT, 4, 4,
                                      1, 1, 1, Bind::SAMPLER_VIEW));
  auto texel = [](uint32_t x, uint32_t y, uint32_t level) {
    return std::array<float, 4>{float(x) + 100.0f * float(level), float(y), float(level), 1.0f};
  };
  for (uint32_t level = 0; level < 2; ++level) {
    const uint32_t n = 4 >> level;
    std::vector<float> f;
    for (uint32_t y = 0; y < n; ++y)
      for (uint32_t x = 0; x < n; ++x)
        for (float c : texel(x, y, level))
          f.push_back(c);
    std::vector<uint8_t> b(f.size() * 4);
    std::memcpy(b.data(), f.data(), b.size());
    write_box(*ctx, tex, level, make_box_2d(0, 0, int(n), int(n)), b);
  }
  SamplerViewTemplate vt;
  vt.format = Format::R32G32B32A32_FLOAT;
  vt.target = TextureTarget::TEXTURE_2D;
  vt.first_level = 0;
  vt.last_level = 1;
  auto view = ctx->create_sampler_view(tex, vt);
  REQUIRE(view.is_ok());
  SamplerState ss;
  ss.wrap_s = ss.wrap_t = ss.wrap_r = TexWrap::CLAMP_TO_EDGE;
  ss.min_img_filter = ss.mag_img_filter = TexFilter::NEAREST;
  ss.min_mip_filter = TexMipFilter::NEAREST;
  auto sampler = ctx->create_sampler_state(ss);
  REQUIRE(sampler.is_ok());
  REQUIRE(ctx->bind_sampler_states(ShaderType::COMPUTE, 0, {sampler.value()}).is_ok());
  REQUIRE(ctx->set_sampler_views(ShaderType::COMPUTE, 0, {view.value()}).is_ok());
  ResourceRef out = words_resource(*ctx, {}, 16 * 48);
  bind_buffers(*ctx, {out});
  bind_compute(*ctx, kSample);
  launch(*ctx, make_grid({4, 4, 1}, {1, 1, 1}));
  const std::vector<uint32_t> w = read_words(*ctx, out);
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      INFO("thread " << x << "," << y);
      const uint32_t base = (y * 4 + x) * 12;
      const auto t0 = texel(x, y, 0), t1 = texel(x / 2, y / 2, 1);
      for (int c = 0; c < 4; ++c) {
        CHECK(bitsf(w[base + c]) == t0[c]);      // TXF
        CHECK(bitsf(w[base + 4 + c]) == t0[c]);  // TEX
        CHECK(bitsf(w[base + 8 + c]) == t1[c]);  // TXL lod 1
      }
    }
}

TEST_CASE("compute: a dispatch reads what the previous one wrote",
          "[frontend][compute][resources]") {
  // Dispatch 1 writes i * i into a buffer through BUFFER[0]; after memory_barrier, dispatch 2
  // reads the same buffer as constant buffer 0 and as an R32_UINT buffer image.
  const char* kWrite = R"(COMP
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL TEMP[0]
IMM[0] UINT32 {4, 0, 0, 0}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
UMUL TEMP[0].y, SV[0].xxxx, SV[0].xxxx
STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[0].yyyy
END
)";
  auto ctx = new_context();
  ResourceRef data = words_resource(*ctx, std::vector<uint32_t>(16, 0));
  ResourceRef out = words_resource(*ctx, std::vector<uint32_t>(16, 0));
  bind_compute(*ctx, kWrite);
  bind_buffers(*ctx, {data});
  launch(*ctx, make_grid({16, 1, 1}, {1, 1, 1}));
  ctx->memory_barrier(Barrier::ALL);

  // Words 0, 1 of each vec4 through CONST (thread i reads vec4 i / 4 ... of the first two
  // channels only), every word through the image: out[i] = (i & 3 ? word 1 : word 0) of
  // vec4 i / 4, plus word i.
  const char* kReadWords = R"(COMP
DCL SV[0], THREAD_ID
DCL CONST[0][0..3]
DCL IMAGE[0], BUFFER, PIPE_FORMAT_R32_UINT
DCL BUFFER[0]
DCL TEMP[0..2]
DCL ADDR[0]
IMM[0] UINT32 {4, 2, 3, 0}
USHR TEMP[0].x, SV[0].xxxx, IMM[0].yyyy
UARL ADDR[0].x, TEMP[0].xxxx
AND TEMP[0].y, SV[0].xxxx, IMM[0].zzzz
MOV TEMP[1], CONST[0][ADDR[0].x]
UCMP TEMP[1].x, TEMP[0].yyyy, TEMP[1].yyyy, TEMP[1].xxxx
LOAD TEMP[2].x, IMAGE[0], SV[0], BUFFER, PIPE_FORMAT_R32_UINT
UADD TEMP[1].x, TEMP[1].xxxx, TEMP[2].xxxx
UMUL TEMP[0].w, SV[0].xxxx, IMM[0].xxxx
STORE BUFFER[0].x, TEMP[0].wwww, TEMP[1].xxxx
END
)";
  bind_compute(*ctx, kReadWords);
  ConstantBuffer cb;
  cb.buffer = data;
  cb.buffer_size = 64;
  REQUIRE(ctx->set_constant_buffer(ShaderType::COMPUTE, 0, &cb).is_ok());
  ImageView iv;
  iv.resource = data;
  iv.format = Format::R32_UINT;
  iv.access = iv.shader_access = ImageAccess::READ;
  iv.buf_offset = 0;
  iv.buf_size = 64;
  REQUIRE(ctx->set_shader_images(ShaderType::COMPUTE, 0, {iv}).is_ok());
  bind_buffers(*ctx, {out});
  launch(*ctx, make_grid({16, 1, 1}, {1, 1, 1}));
  const std::vector<uint32_t> w = read_words(*ctx, out);
  for (uint32_t i = 0; i < 16; ++i) {
    INFO("thread " << i);
    const uint32_t v = i / 4 * 4;  // first word of vec4 i / 4
    const uint32_t c = (i & 3) ? (v + 1) * (v + 1) : v * v;
    CHECK(w[i] == c + i * i);
  }
}

TEST_CASE("compute: a shader at the advertised resource limits", "[frontend][compute][limits]") {
  auto screen = shared_screen();
  const int buffers = screen->get_shader_param(ShaderType::COMPUTE, ShaderCap::MAX_SHADER_BUFFERS);
  const int images = screen->get_shader_param(ShaderType::COMPUTE, ShaderCap::MAX_SHADER_IMAGES);
  const int cbs = screen->get_shader_param(ShaderType::COMPUTE, ShaderCap::MAX_CONST_BUFFERS);
  REQUIRE(buffers == 32);
  REQUIRE(images == 32);
  // One thread: sum = sum of CONST[k][0].x and of BUFFER[k] word 0; after each buffer k the
  // running sum goes to texel 0 of IMAGE[k]; the total to BUFFER[0] word 1.
  std::string t = "COMP\nDCL SV[0], THREAD_ID\n";
  for (int k = 0; k < cbs; ++k)
    t += "DCL CONST[" + std::to_string(k) + "][0]\n";
  for (int k = 0; k < buffers; ++k)
    t += "DCL BUFFER[" + std::to_string(k) + "]\n";
  for (int k = 0; k < images; ++k)
    t += "DCL IMAGE[" + std::to_string(k) + "], 1D, PIPE_FORMAT_R32_UINT, WR\n";
  t += "DCL TEMP[0..1]\nIMM[0] UINT32 {0, 4, 0, 0}\nMOV TEMP[0].x, IMM[0].xxxx\n";
  for (int k = 0; k < cbs; ++k)
    t += "UADD TEMP[0].x, TEMP[0].xxxx, CONST[" + std::to_string(k) + "][0].xxxx\n";
  for (int k = 0; k < buffers; ++k) {
    const std::string n = std::to_string(k);
    t += "LOAD TEMP[1].x, BUFFER[" + n + "], IMM[0].xxxx\n";
    t += "UADD TEMP[0].x, TEMP[0].xxxx, TEMP[1].xxxx\n";
    t += "STORE IMAGE[" + n + "], IMM[0].xxxx, TEMP[0].xxxx, 1D, PIPE_FORMAT_R32_UINT\n";
  }
  t += "STORE BUFFER[0].x, IMM[0].yyyy, TEMP[0].xxxx\nEND\n";

  auto ctx = new_context();
  bind_compute(*ctx, t);
  uint32_t sum = 0;
  std::vector<uint32_t> cvals(4);
  for (int k = 0; k < cbs; ++k) {
    cvals[0] = 1000u * uint32_t(k + 1);
    sum += cvals[0];
    ConstantBuffer cb;
    cb.user_buffer = cvals.data();
    cb.buffer_size = 16;
    REQUIRE(ctx->set_constant_buffer(ShaderType::COMPUTE, unsigned(k), &cb).is_ok());
  }
  std::vector<ResourceRef> bufs;
  for (int k = 0; k < buffers; ++k)
    bufs.push_back(words_resource(*ctx, {uint32_t(k + 1), 0}));
  bind_buffers(*ctx, bufs);
  std::vector<ResourceRef> texs;
  std::vector<ImageView> views;
  for (int k = 0; k < images; ++k) {
    texs.push_back(create(make_templ(TextureTarget::TEXTURE_1D, Format::R32_UINT, 2, 1, 1, 1, 0,
                                     Bind::SHADER_IMAGE)));
    ImageView iv;
    iv.resource = texs.back();
    iv.format = Format::R32_UINT;
    iv.access = iv.shader_access = ImageAccess::READ_WRITE;
    views.push_back(iv);
  }
  REQUIRE(ctx->set_shader_images(ShaderType::COMPUTE, 0, views).is_ok());
  launch(*ctx, make_grid({1, 1, 1}, {1, 1, 1}));
  for (int k = 0; k < images; ++k) {
    sum += uint32_t(k + 1);
    const std::vector<uint8_t> b = read_box(*ctx, texs[k], 0, make_box_1d(0, 1));
    uint32_t v;
    std::memcpy(&v, b.data(), 4);
    INFO("image " << k);
    CHECK(v == sum);
  }
  CHECK(read_words(*ctx, bufs[0], 1, 1)[0] == sum);
}
