// Atomics in compute shaders through launch_grid: every ATOM* operation on shader buffers,
// shared memory and shader images (ATOMFADD on an R32_FLOAT image: IMAGE_ATOMIC_FLOAT_ADD),
// and a histogram counted with shared-memory atomics, merged into a buffer and into an
// R32_UINT image with global atomics, all against host-computed results.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "compute_util.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

constexpr uint32_t kThreads = 64;

enum class Target { kBuffer, kShared, kImage };

// Eleven atomics by 64 threads on words 0..10 of one target (thread i):
//   0 UADD 1, 1 UMAX i, 2 UMIN i, 3 IMIN -i, 4 IMAX -i, 5 OR 1<<i, 6 XOR 1<<i,
//   7 AND ~(1<<i), 8 FADD 0.5, 9 CAS(0 -> i+1), 10 XCHG i
// and BUFFER[0][i] = what UADD returned. Buffers and shared memory are addressed in bytes,
// images by texel (a 1D R32_UINT image; FADD goes to texel 0 of a 1D R32_FLOAT image).
// Shared memory starts as a copy of BUFFER[1] and is copied back at the end.
std::string atomics_shader(Target t) {
  std::string s = R"(COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 64
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL MEMORY[0], SHARED
DCL IMAGE[0], 1D, PIPE_FORMAT_R32_UINT, WR
DCL IMAGE[1], 1D, PIPE_FORMAT_R32_FLOAT, WR
DCL TEMP[0..6]
IMM[0] UINT32 {0, 1, 2, 3}
IMM[1] UINT32 {4, 5, 6, 7}
IMM[2] UINT32 {8, 9, 10, 11}
IMM[3] UINT32 {0, 4, 8, 12}
IMM[4] UINT32 {16, 20, 24, 28}
IMM[5] UINT32 {32, 36, 40, 44}
IMM[6] FLT32 {0x3f000000, 0x00000000, 0x00000000, 0x00000000}
)";
  const char* chan = "xyzw";
  auto addr = [&](int k) {
    const int base = t == Target::kImage ? 0 : 3;
    const char c = chan[k % 4];
    return "IMM[" + std::to_string(base + k / 4) + "]." + std::string(4, c);
  };
  const std::string res = t == Target::kBuffer   ? "BUFFER[1]"
                          : t == Target::kShared ? "MEMORY[0]"
                                                 : "IMAGE[0]";
  const std::string suffix = t == Target::kImage ? ", 1D, PIPE_FORMAT_R32_UINT" : "";
  auto op = [&](const char* name, int k, const std::string& operands) {
    s +=
        std::string(name) + " TEMP[2].x, " + res + ", " + addr(k) + ", " + operands + suffix + "\n";
  };
  if (t == Target::kShared) {
    s += R"(USEQ TEMP[6].x, SV[0].xxxx, IMM[0].xxxx
UIF TEMP[6].xxxx
  LOAD TEMP[4], BUFFER[1], IMM[3].xxxx
  STORE MEMORY[0].xyzw, IMM[3].xxxx, TEMP[4]
  LOAD TEMP[4], BUFFER[1], IMM[4].xxxx
  STORE MEMORY[0].xyzw, IMM[4].xxxx, TEMP[4]
  LOAD TEMP[4], BUFFER[1], IMM[5].xxxx
  STORE MEMORY[0].xyzw, IMM[5].xxxx, TEMP[4]
ENDIF
BARRIER
)";
  }
  s += R"(INEG TEMP[0].y, SV[0].xxxx
SHL TEMP[0].z, IMM[0].yyyy, SV[0].xxxx
NOT TEMP[0].w, TEMP[0].zzzz
UADD TEMP[1].x, SV[0].xxxx, IMM[0].yyyy
)";
  s += "ATOMUADD TEMP[3].x, " + res + ", " + addr(0) + ", IMM[0].yyyy" + suffix + "\n";
  op("ATOMUMAX", 1, "SV[0].xxxx");
  op("ATOMUMIN", 2, "SV[0].xxxx");
  op("ATOMIMIN", 3, "TEMP[0].yyyy");
  op("ATOMIMAX", 4, "TEMP[0].yyyy");
  op("ATOMOR", 5, "TEMP[0].zzzz");
  op("ATOMXOR", 6, "TEMP[0].zzzz");
  op("ATOMAND", 7, "TEMP[0].wwww");
  if (t == Target::kImage) {
    s += "ATOMFADD TEMP[2].x, IMAGE[1], IMM[0].xxxx, IMM[6].xxxx, 1D, PIPE_FORMAT_R32_FLOAT\n";
  } else {
    op("ATOMFADD", 8, "IMM[6].xxxx");
  }
  op("ATOMCAS", 9, "IMM[0].xxxx, TEMP[1].xxxx");
  op("ATOMXCHG", 10, "SV[0].xxxx");
  s += R"(UMUL TEMP[5].x, SV[0].xxxx, IMM[1].xxxx
STORE BUFFER[0].x, TEMP[5].xxxx, TEMP[3].xxxx
)";
  if (t == Target::kShared) {
    s += R"(BARRIER
UIF TEMP[6].xxxx
  LOAD TEMP[4], MEMORY[0], IMM[3].xxxx
  STORE BUFFER[1].xyzw, IMM[3].xxxx, TEMP[4]
  LOAD TEMP[4], MEMORY[0], IMM[4].xxxx
  STORE BUFFER[1].xyzw, IMM[4].xxxx, TEMP[4]
  LOAD TEMP[4], MEMORY[0], IMM[5].xxxx
  STORE BUFFER[1].xyzw, IMM[5].xxxx, TEMP[4]
ENDIF
)";
  }
  s += "END\n";
  return s;
}

// Initial words 0..11 (word 11 is never touched).
std::vector<uint32_t> atomics_initial() {
  std::vector<uint32_t> w(12, 0);
  w[2] = 0xffffffffu;  // UMIN
  w[4] = uint32_t(-100);
  w[7] = 0xffffffffu;  // AND
  w[8] = fbits(1.0f);  // FADD
  w[11] = 0x5a5a5a5au;
  return w;
}

void check_atomics(const std::vector<uint32_t>& w, float fadd, const std::vector<uint32_t>& olds) {
  const uint32_t n = kThreads;
  CHECK(w[0] == n);
  CHECK(w[1] == n - 1);
  CHECK(w[2] == 0u);
  CHECK(int32_t(w[3]) == -int32_t(n - 1));
  CHECK(int32_t(w[4]) == 0);
  CHECK(w[5] == 0xffffffffu);
  CHECK(w[6] == 0u);  // 64 threads: every bit flipped twice
  CHECK(w[7] == 0u);
  CHECK(fadd == 1.0f + 0.5f * n);
  CHECK(w[9] >= 1u);  // exactly one CAS saw 0 and stored its i + 1
  CHECK(w[9] <= n);
  CHECK(w[10] < n);
  CHECK(w[11] == 0x5a5a5a5au);
  std::vector<uint32_t> sorted = olds;
  std::sort(sorted.begin(), sorted.end());
  for (uint32_t i = 0; i < n; ++i)
    CHECK(sorted[i] == i);  // every UADD returned a different old value
}

}  // namespace

TEST_CASE("compute: every atomic on shader buffers and shared memory",
          "[frontend][compute][atomics]") {
  for (Target t : {Target::kBuffer, Target::kShared}) {
    INFO((t == Target::kBuffer ? "buffer" : "shared"));
    auto ctx = new_context();
    bind_compute(*ctx, atomics_shader(t), 48);
    ResourceRef olds = words_resource(*ctx, {}, kThreads * 4);
    ResourceRef target = words_resource(*ctx, atomics_initial());
    bind_buffers(*ctx, {olds, target});
    launch(*ctx, make_grid({kThreads, 1, 1}, {1, 1, 1}));
    const std::vector<uint32_t> w = read_words(*ctx, target);
    check_atomics(w, bitsf(w[8]), read_words(*ctx, olds));
  }
}

TEST_CASE("compute: every atomic on shader images", "[frontend][compute][atomics]") {
  auto ctx = new_context();
  bind_compute(*ctx, atomics_shader(Target::kImage));
  const uint32_t bind = Bind::SHADER_IMAGE | Bind::SAMPLER_VIEW;
  ResourceRef ui =
      create(make_templ(TextureTarget::TEXTURE_1D, Format::R32_UINT, 16, 1, 1, 1, 0, bind));
  ResourceRef fl =
      create(make_templ(TextureTarget::TEXTURE_1D, Format::R32_FLOAT, 16, 1, 1, 1, 0, bind));
  std::vector<uint32_t> init = atomics_initial();
  init.resize(16, 0x77u);
  std::vector<uint8_t> bytes(64);
  std::memcpy(bytes.data(), init.data(), 64);
  write_box(*ctx, ui, 0, make_box_1d(0, 16), bytes);
  std::vector<uint32_t> finit(16, fbits(3.0f));
  finit[0] = fbits(1.0f);
  std::memcpy(bytes.data(), finit.data(), 64);
  write_box(*ctx, fl, 0, make_box_1d(0, 16), bytes);
  ImageView iv;
  iv.resource = ui;
  iv.format = Format::R32_UINT;
  iv.access = iv.shader_access = ImageAccess::READ_WRITE;
  ImageView fv = iv;
  fv.resource = fl;
  fv.format = Format::R32_FLOAT;
  REQUIRE(ctx->set_shader_images(ShaderType::COMPUTE, 0, {iv, fv}).is_ok());
  ResourceRef olds = words_resource(*ctx, {}, kThreads * 4);
  bind_buffers(*ctx, {olds});
  launch(*ctx, make_grid({kThreads, 1, 1}, {1, 1, 1}));

  const std::vector<uint8_t> ub = read_box(*ctx, ui, 0, make_box_1d(0, 16));
  const std::vector<uint8_t> fb = read_box(*ctx, fl, 0, make_box_1d(0, 16));
  std::vector<uint32_t> w(16), f(16);
  std::memcpy(w.data(), ub.data(), 64);
  std::memcpy(f.data(), fb.data(), 64);
  CHECK(w[8] == fbits(1.0f));  // untouched: FADD went to texel 0 of IMAGE[1]
  check_atomics(w, bitsf(f[0]), read_words(*ctx, olds));
  for (uint32_t k = 12; k < 16; ++k)
    CHECK(w[k] == 0x77u);
  CHECK(bitsf(f[1]) == 3.0f);
}

TEST_CASE("compute: histogram with shared, buffer and image atomics",
          "[frontend][compute][atomics]") {
  // 5 groups of 100 threads: bins = 16 words of shared memory, cleared by threads 0..15,
  // BARRIER, ATOMUADD per input value, BARRIER, then threads 0..15 add their bin to
  // BUFFER[1][bin] and to texel (bin % 4, bin / 4) of a 4x4 R32_UINT image.
  const char* kHistogram = R"(COMP
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL SV[2], BLOCK_SIZE
DCL BUFFER[0]
DCL BUFFER[1]
DCL MEMORY[0], SHARED
DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR
DCL TEMP[0..5]
IMM[0] UINT32 {4, 16, 15, 0}
IMM[1] UINT32 {3, 2, 0, 0}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
USLT TEMP[0].y, SV[0].xxxx, IMM[0].yyyy
UIF TEMP[0].yyyy
  STORE MEMORY[0].x, TEMP[0].xxxx, IMM[0].wwww
ENDIF
BARRIER
UMAD TEMP[1].x, SV[1].xxxx, SV[2].xxxx, SV[0].xxxx
UMUL TEMP[1].y, TEMP[1].xxxx, IMM[0].xxxx
LOAD TEMP[5].x, BUFFER[0], TEMP[1].yyyy
AND TEMP[1].z, TEMP[5].xxxx, IMM[0].zzzz
UMUL TEMP[1].w, TEMP[1].zzzz, IMM[0].xxxx
ATOMUADD TEMP[2].x, MEMORY[0], TEMP[1].wwww, IMM[1].yyyy
BARRIER
UIF TEMP[0].yyyy
  LOAD TEMP[3].x, MEMORY[0], TEMP[0].xxxx
  ATOMUADD TEMP[2].y, BUFFER[1], TEMP[0].xxxx, TEMP[3].xxxx
  AND TEMP[4].x, SV[0].xxxx, IMM[1].xxxx
  USHR TEMP[4].y, SV[0].xxxx, IMM[1].yyyy
  ATOMUADD TEMP[2].z, IMAGE[0], TEMP[4], TEMP[3].xxxx, 2D, PIPE_FORMAT_R32_UINT
ENDIF
END
)";
  auto ctx = new_context();
  bind_compute(*ctx, kHistogram, 64);
  const uint32_t n = 100, groups = 5;
  std::vector<uint32_t> in(n * groups);
  uint32_t seed = 99;
  for (auto& v : in) {
    seed = seed * 1103515245u + 12345u;
    v = seed >> 7;
  }
  ResourceRef src = words_resource(*ctx, in);
  ResourceRef hist = words_resource(*ctx, std::vector<uint32_t>(16, 1000));
  bind_buffers(*ctx, {src, hist});
  ResourceRef img = create(
      make_templ(TextureTarget::TEXTURE_2D, Format::R32_UINT, 4, 4, 1, 1, 0, Bind::SHADER_IMAGE));
  ImageView iv;
  iv.resource = img;
  iv.format = Format::R32_UINT;
  iv.access = iv.shader_access = ImageAccess::READ_WRITE;
  REQUIRE(ctx->set_shader_images(ShaderType::COMPUTE, 0, {iv}).is_ok());
  launch(*ctx, make_grid({n, 1, 1}, {groups, 1, 1}));

  std::vector<uint32_t> want(16, 0);
  for (uint32_t v : in)
    want[v & 15] += 2;  // every value adds 2 (IMM[1].y)
  const std::vector<uint32_t> got = read_words(*ctx, hist);
  const std::vector<uint8_t> ib = read_box(*ctx, img, 0, make_box_2d(0, 0, 4, 4));
  std::vector<uint32_t> texels(16);
  std::memcpy(texels.data(), ib.data(), 64);
  for (uint32_t b = 0; b < 16; ++b) {
    INFO("bin " << b);
    CHECK(got[b] == 1000 + want[b]);
    CHECK(texels[b] == want[b]);  // texel (b % 4, b / 4) is word b of the 4x4 image
  }
}
