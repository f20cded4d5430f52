// MEMORY GLOBAL through set_global_binding and MEMORY INPUT through GridInfo::input: two
// buffers at different offsets read, written and updated atomically through the addresses
// the handles receive, a buffer bound in two slots, accesses outside every binding,
// rebinding and unbinding, input bytes past req_input_mem, and bad input (slots past the
// limit, non-buffer resources, offsets past the buffer, missing or oversized input,
// aliasing with a writable shader buffer): errors that change nothing, never a crash.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "compute_util.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

// 8 threads. MEMORY INPUT words: A, B (addresses of two bindings), k, C (address of a
// counter), then bytes the test places around req_input_mem. Thread t:
//   B[t]      = A[t] + k                          (global read and write)
//   B[8 + t]  = INPUT word 4 + t                  (only word 4 lies partly inside the input)
//   B[16 + t] = global words at 4 and 0xfffffff0  (outside every binding: 0)
//   B[24 + t] = ATOMUADD(C, 1)                    (the old values)
// and stores 0xdead at addresses 8 and 0xfffffff0, outside every binding (dropped).
const char* kGlobal = R"(COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL MEMORY[0], GLOBAL
DCL MEMORY[1], INPUT
DCL TEMP[0..5]
IMM[0] UINT32 {4, 0, 16, 32}
IMM[1] UINT32 {1, 4294967280, 8, 57005}
IMM[2] UINT32 {64, 96, 0, 0}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
LOAD TEMP[1], MEMORY[1], IMM[0].yyyy
UADD TEMP[2].x, TEMP[1].xxxx, TEMP[0].xxxx
LOAD TEMP[3].x, MEMORY[0], TEMP[2].xxxx
UADD TEMP[3].x, TEMP[3].xxxx, TEMP[1].zzzz
UADD TEMP[2].y, TEMP[1].yyyy, TEMP[0].xxxx
STORE MEMORY[0].x, TEMP[2].yyyy, TEMP[3].xxxx
UADD TEMP[4].x, TEMP[0].xxxx, IMM[0].zzzz
LOAD TEMP[3].x, MEMORY[1], TEMP[4].xxxx
UADD TEMP[4].y, TEMP[2].yyyy, IMM[0].wwww
STORE MEMORY[0].x, TEMP[4].yyyy, TEMP[3].xxxx
LOAD TEMP[3].x, MEMORY[0], IMM[0].xxxx
LOAD TEMP[3].y, MEMORY[0], IMM[1].yyyy
UADD TEMP[3].x, TEMP[3].xxxx, TEMP[3].yyyy
UADD TEMP[4].z, TEMP[2].yyyy, IMM[2].xxxx
STORE MEMORY[0].x, TEMP[4].zzzz, TEMP[3].xxxx
ATOMUADD TEMP[5].x, MEMORY[0], TEMP[1].wwww, IMM[1].xxxx
UADD TEMP[4].w, TEMP[2].yyyy, IMM[2].yyyy
STORE MEMORY[0].x, TEMP[4].wwww, TEMP[5].xxxx
STORE MEMORY[0].x, IMM[1].zzzz, IMM[1].wwww
STORE MEMORY[0].x, IMM[1].yyyy, IMM[1].wwww
END
)";

constexpr uint32_t kK = 1000;
constexpr uint32_t kReqInput = 18;  // words 0..3 whole, half of word 4

ComputeHandle bind_global_shader(Context& ctx, uint32_t req_input_mem = kReqInput) {
  ComputeState cs;
  cs.tgsi = kGlobal;
  cs.req_input_mem = req_input_mem;
  auto c = ctx.create_compute_state(cs);
  REQUIRE(c.status().to_string() == "Ok");
  ctx.bind_compute_state(c.value());
  return c.value();
}

// The input of kGlobal: A, B, k, C, then 0xaaaabbbb (of which bytes 16, 17 are inside
// req_input_mem) and words the shader must not see.
std::vector<uint32_t> make_input(uint32_t a, uint32_t b, uint32_t c) {
  return {a,           b,           kK,          c,           0xaaaabbbbu, 0xccccccccu, 0xddddddddu,
          0xeeeeeeeeu, 0x11111111u, 0x22222222u, 0x33333333u, 0x44444444u, 0x55555555u};
}

std::vector<uint32_t> iota_words(uint32_t n, uint32_t first) {
  std::vector<uint32_t> w(n);
  for (uint32_t i = 0; i < n; ++i)
    w[i] = first + i;
  return w;
}

}  // namespace

TEST_CASE("compute: MEMORY GLOBAL through two bindings at offsets, and MEMORY INPUT",
          "[frontend][compute][global]") {
  auto ctx = new_context();
  bind_global_shader(*ctx);
  const std::vector<uint32_t> a_words = iota_words(32, 100);
  ResourceRef a = words_resource(*ctx, a_words);
  ResourceRef b = words_resource(*ctx, {}, 256);

  // Offsets into the buffers: A = a + 16 bytes, B = b + 32 bytes; slot 2 binds b again.
  uint32_t ha = 16, hb = 32, hb2 = 0;
  REQUIRE(ctx->set_global_binding(0, 3, {a, b, b}, {&ha, &hb, &hb2}).is_ok());
  const uint32_t base_a = ha - 16, base_b = hb - 32;
  CHECK(base_b == hb2);  // one buffer, one base
  CHECK(base_a >= 256);  // address 0 is no buffer's
  CHECK(base_b >= 256);
  CHECK(base_a % 256 == 0);
  CHECK(base_b % 256 == 0);
  CHECK((base_a + 128 <= base_b || base_b + 256 <= base_a));  // disjoint

  const uint32_t counter = ha + 64;  // word 4 + 16 = 20 of a
  const std::vector<uint32_t> input = make_input(ha, hb, counter);
  GridInfo g = make_grid({8, 1, 1}, {1, 1, 1});
  g.input = input.data();
  launch(*ctx, g);

  const std::vector<uint32_t> bw = read_words(*ctx, b);
  for (uint32_t t = 0; t < 8; ++t) {
    INFO("thread " << t);
    CHECK(bw[8 + t] == a_words[4 + t] + kK);
    // Input word 4 holds 0xaaaabbbb, but only its low two bytes lie inside req_input_mem.
    CHECK(bw[16 + t] == (t == 0 ? 0x0000bbbbu : 0u));
    CHECK(bw[24 + t] == 0u);
  }
  std::vector<uint32_t> olds(bw.begin() + 32, bw.begin() + 40);
  std::sort(olds.begin(), olds.end());
  CHECK(olds == iota_words(8, a_words[20]));
  // Nothing else of b was written: the stores outside every binding were dropped.
  for (uint32_t i : {0u, 1u, 7u, 40u, 63u})
    CHECK(bw[i] == 0u);
  std::vector<uint32_t> a_expected = a_words;
  a_expected[20] += 8;
  CHECK(read_words(*ctx, a) == a_expected);

  SECTION("rebinding one slot keeps the other bases; unbinding empties the space") {
    // b leaves slots 1 and 2; c takes slot 1. a keeps its base.
    REQUIRE(ctx->set_global_binding(2, 1, {}, {}).is_ok());
    ResourceRef c = words_resource(*ctx, {}, 1024);
    uint32_t hc = 0;
    REQUIRE(ctx->set_global_binding(1, 1, {c}, {&hc}).is_ok());
    CHECK((hc + 1024 <= base_a || base_a + 128 <= hc));
    CHECK(hc % 256 == 0);
    uint32_t ha_again = 0;
    REQUIRE(ctx->set_global_binding(0, 1, {a}, {&ha_again}).is_ok());
    CHECK(ha_again == base_a);

    // The shader now writes into c through its address and reads a as before.
    const std::vector<uint32_t> input2 = make_input(ha, hc, counter);
    g.input = input2.data();
    launch(*ctx, g);
    const std::vector<uint32_t> cw = read_words(*ctx, c);
    for (uint32_t t = 0; t < 8; ++t)
      CHECK(cw[t] == a_words[4 + t] + kK);
    CHECK(read_words(*ctx, a)[20] == a_words[20] + 16);

    // Unbound: the same addresses now name nothing; reads give 0 and writes are dropped.
    REQUIRE(ctx->set_global_binding(0, 2, {nullptr, nullptr}, {nullptr, nullptr}).is_ok());
    const std::vector<uint32_t> a_before = read_words(*ctx, a);
    const std::vector<uint32_t> c_before = read_words(*ctx, c);
    launch(*ctx, g);
    CHECK(read_words(*ctx, a) == a_before);
    CHECK(read_words(*ctx, c) == c_before);
  }
}

TEST_CASE("compute: MEMORY INPUT without input bytes reads 0", "[frontend][compute][global]") {
  auto ctx = new_context();
  bind_global_shader(*ctx, 0);  // no input: GridInfo::input may be null
  ResourceRef b = words_resource(*ctx, iota_words(64, 7));
  uint32_t hb = 0;
  REQUIRE(ctx->set_global_binding(0, 1, {b}, {&hb}).is_ok());
  // Every address read from the input is 0: below every base, so nothing is written.
  launch(*ctx, make_grid({8, 1, 1}, {1, 1, 1}));
  CHECK(read_words(*ctx, b) == iota_words(64, 7));
}

TEST_CASE("compute: bad global bindings and inputs are errors that change nothing",
          "[frontend][compute][global]") {
  auto ctx = new_context();
  bind_global_shader(*ctx);
  ResourceRef a = words_resource(*ctx, iota_words(32, 100));
  ResourceRef b = words_resource(*ctx, {}, 256);
  uint32_t ha = 0, hb = 0;
  REQUIRE(ctx->set_global_binding(0, 2, {a, b}, {&ha, &hb}).is_ok());

  uint32_t h = 4;
  // Slots past the 32 there are.
  Status s = ctx->set_global_binding(31, 2, {a, b}, {&h, &h});
  CHECK(s.code() == ErrorCode::kInvalidArgument);
  CHECK(h == 4);
  s = ctx->set_global_binding(40, 0, {}, {});
  CHECK(s.code() == ErrorCode::kInvalidArgument);
  // Vectors that do not hold count entries.
  CHECK(ctx->set_global_binding(0, 2, {a}, {&h}).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->set_global_binding(0, 1, {}, {&h}).code() == ErrorCode::kInvalidArgument);
  // A texture is not a buffer.
  ResourceRef tex = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, 4, 4, 1, 1,
                                      0, Bind::SAMPLER_VIEW));
  s = ctx->set_global_binding(0, 2, {tex, b}, {&h, nullptr});
  CHECK(s.code() == ErrorCode::kInvalidArgument);
  CHECK(s.message().find("not a BUFFER") != std::string::npos);
  // A handle's offset past the buffer.
  uint32_t far = 129;
  CHECK(ctx->set_global_binding(0, 1, {a}, {&far}).code() == ErrorCode::kInvalidArgument);
  CHECK(far == 129);
  CHECK(h == 4);

  // The failed calls left both bindings as they were: the dispatch reads a, writes b.
  std::vector<uint32_t> input = make_input(ha, hb, 0);
  GridInfo g = make_grid({8, 1, 1}, {1, 1, 1});
  g.input = input.data();
  launch(*ctx, g);
  CHECK(read_words(*ctx, b, 0, 8) == iota_words(8, 100 + kK));

  SECTION("a null input with req_input_mem is refused") {
    g.input = nullptr;
    CHECK(ctx->launch_grid(g).code() == ErrorCode::kInvalidArgument);
  }
  SECTION("req_input_mem past MAX_INPUT_SIZE is refused") {
    const auto max_input = ctx->screen().get_compute_param(ComputeCap::MAX_INPUT_SIZE).at(0);
    bind_global_shader(*ctx, uint32_t(max_input) + 4);
    std::vector<uint8_t> big(max_input + 4, 0);
    g.input = big.data();
    CHECK(ctx->launch_grid(g).code() == ErrorCode::kInvalidArgument);
  }
  SECTION("a buffer written both globally and as a shader buffer is refused") {
    const std::vector<uint32_t> b_before = read_words(*ctx, b);
    const char* kSsbo = R"(COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL MEMORY[0], GLOBAL
DCL BUFFER[0]
DCL TEMP[0]
IMM[0] UINT32 {0, 7, 0, 0}
LOAD TEMP[0].x, MEMORY[0], IMM[0].xxxx
STORE BUFFER[0].x, IMM[0].xxxx, IMM[0].yyyy
END
)";
    bind_compute(*ctx, kSsbo);
    bind_buffers(*ctx, {b});
    const Status r = ctx->launch_grid(make_grid({8, 1, 1}, {1, 1, 1}));
    CHECK(r.code() == ErrorCode::kUnsupported);
    CHECK(read_words(*ctx, b) == b_before);
    // With b out of the global space the same dispatch runs.
    REQUIRE(ctx->set_global_binding(1, 1, {}, {}).is_ok());
    launch(*ctx, make_grid({8, 1, 1}, {1, 1, 1}));
    CHECK(read_words(*ctx, b, 0, 1) == std::vector<uint32_t>{7});
  }
}
