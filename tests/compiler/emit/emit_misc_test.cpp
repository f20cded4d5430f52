// The rarer opcodes on the device: subgroup operations over the work-item's lanes
// (VOTE_*, BALLOT, READ_FIRST, READ_INVOC, SUBGROUP_* values), CLOCK, ARL / ARR, the
// unpacking opcodes, projective and level-0 texturing (TXP, TEX_LZ, TXF_LZ), the D3D10
// sampling forms with bias, compare and gather, ATOMDEC_WRAP, and MEMORY GLOBAL / INPUT.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "clpipe/format.h"
#include "compiler/emit/harness.h"

using namespace clpipe::test::emit;

TEST_CASE("emit: subgroup operations, CLOCK, ARL / ARR and unpacking", "[emit][misc]") {
  HarnessInput in;
  in.tgsi = R"(VERT
DCL IN[0]
DCL SV[0], SUBGROUP_INVOCATION
DCL SV[1], SUBGROUP_SIZE
DCL SV[2], SUBGROUP_LT_MASK
DCL OUT[0..5], GENERIC[0]
DCL TEMP[0..3], ARRAY(1), LOCAL
DCL TEMP[4..7]
DCL ADDR[0]
IMM[0] UINT32 {10, 20, 30, 40}
IMM[1] UINT32 {2, 2155807231, 4294934528, 0}
  0: VOTE_ANY OUT[0].x, IN[0].xxxx
  1: VOTE_ALL OUT[0].y, IN[0].xxxx
  2: VOTE_EQ OUT[0].z, IN[0].yyyy
  3: BALLOT TEMP[7].xy, IN[0].xxxx
  4: READ_FIRST OUT[1].x, IN[0].zzzz
  5: READ_INVOC OUT[1].y, IN[0].zzzz, IMM[1].xxxx
  6: MOV OUT[1].z, SV[0].xxxx
  7: MOV OUT[1].w, SV[1].xxxx
  8: MOV OUT[2].x, SV[2].xxxx
  9: MOV TEMP[0].x, IMM[0].xxxx
 10: MOV TEMP[1].x, IMM[0].yyyy
 11: MOV TEMP[2].x, IMM[0].zzzz
 12: MOV TEMP[3].x, IMM[0].wwww
 13: ARL ADDR[0].x, IN[0].wwww
 14: MOV OUT[2].y, TEMP[ADDR[0].x](1).xxxx
 15: ARR ADDR[0].x, IN[0].wwww
 16: MOV OUT[2].z, TEMP[ADDR[0].x](1).xxxx
 17: CLOCK TEMP[4].xy
 18: CLOCK TEMP[5].xy
 19: MOV OUT[3], TEMP[4].xyxy
 20: MOV OUT[3].zw, TEMP[5].xxxy
 21: UP4UB OUT[4], IMM[1].yyyy
 22: UP4B OUT[5], IMM[1].yyyy
 23: UP2US TEMP[6], IMM[1].zzzz
 24: MOV OUT[2].w, TEMP[6].yyyy
 25: MOV OUT[0].w, TEMP[7].xxxx
 26: END
)";
  // Quad 0: x = (1, 1, 0, 1), lane 2 not executing; quad 1: all x = 1, y equal.
  in.count = 8;
  const uint32_t x[8] = {1, 1, 0, 1, 1, 1, 1, 1};
  const uint32_t y[8] = {5, 5, 6, 5, 7, 7, 7, 7};
  const float w[8] = {0.5f, 1.5f, 2.4f, 2.6f, -0.5f, 3.49f, 1.0f, 0.0f};
  for (uint32_t i = 0; i < 8; ++i)
    in.in.insert(in.in.end(), {x[i], y[i], 100 + i, fbits(w[i])});
  in.exec = {-1, -1, 0, -1, -1, -1, -1, -1};
  in.clock_base = 0x0000000500000000ull;
  HarnessResult r = run_shader(in);
  const uint32_t arr[4] = {10, 20, 30, 40};
  for (uint32_t i = 0; i < 8; ++i) {
    if (i == 2) continue;  // not executing
    INFO("invocation " << i);
    const uint32_t q = i / 4, lane = i % 4;
    CHECK(r.u(i, 0, 0) == ~0u);                     // some active lane has x != 0
    CHECK(r.u(i, 0, 1) == ~0u);                     // lane 2 (x = 0) does not vote
    CHECK(r.u(i, 0, 2) == ~0u);                     // active lanes agree on y
    CHECK(r.u(i, 0, 3) == (q == 0 ? 0xbu : 0xfu));  // lanes 0, 1, 3 / all
    CHECK(r.u(i, 1, 0) == 100 + q * 4);             // first active lane
    CHECK(r.u(i, 1, 1) == 100 + q * 4 + 2);         // lane 2's value
    CHECK(r.u(i, 1, 2) == lane);
    CHECK(r.u(i, 1, 3) == 4u);
    CHECK(r.u(i, 2, 0) == (1u << lane) - 1u);
    const int arl = int(std::floor(w[i])), arr_i = int(std::floor(w[i] + 0.5f));
    CHECK(r.u(i, 2, 1) == (arl >= 0 && arl < 4 ? arr[arl] : 0u));
    CHECK(r.u(i, 2, 2) == (arr_i >= 0 && arr_i < 4 ? arr[arr_i] : 0u));
    // CLOCK: the base plus a count, growing within the invocation.
    const uint64_t c0 = uint64_t(r.u(i, 3, 1)) << 32 | r.u(i, 3, 0);
    const uint64_t c1 = uint64_t(r.u(i, 3, 3)) << 32 | r.u(i, 3, 2);
    CHECK(c0 >= in.clock_base);
    CHECK(c1 > c0);
    // 0x807f01ff: bytes ff, 01, 7f, 80.
    CHECK(r.f(i, 4, 0) == 1.0f);
    CHECK(r.f(i, 4, 1) == Approx(1.0f / 255.0f));
    CHECK(r.f(i, 4, 2) == Approx(127.0f / 255.0f));
    CHECK(r.f(i, 4, 3) == Approx(128.0f / 255.0f));
    CHECK(r.f(i, 5, 0) == Approx(-1.0f / 127.0f));
    CHECK(r.f(i, 5, 1) == Approx(1.0f / 127.0f));
    CHECK(r.f(i, 5, 2) == 1.0f);
    CHECK(r.f(i, 5, 3) == -1.0f);  // -128 clamps to -1
    CHECK(r.f(i, 2, 3) == 1.0f);   // UP2US: high half 0xffff
  }
}

TEST_CASE("emit: TXP, TEX_LZ, TXF_LZ and the SAMPLE_B / SAMPLE_C / GATHER4 forms", "[emit][misc]") {
  HarnessInput in;
  in.tgsi = R"(FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL OUT[1], COLOR[1]
DCL OUT[2], COLOR[2]
DCL OUT[3], COLOR[3]
DCL OUT[4], COLOR[4]
DCL OUT[5], COLOR[5]
DCL SAMP[0]
DCL SAMP[1]
DCL SVIEW[0], 2D, FLOAT
DCL SVIEW[1], 2D, FLOAT
DCL TEMP[0]
IMM[0] FLT32 {0x40000000, 0x3f000000, 0x00000000, 0x40800000}
IMM[1] INT32 {1, 1, 0, 3}
  0: MUL TEMP[0], IN[0], IMM[0].xxxx
  1: MOV TEMP[0].w, IMM[0].xxxx
  2: TXP OUT[0], TEMP[0], SAMP[0], 2D
  3: TEX_LZ OUT[1], IN[0], SAMP[0], 2D
  4: TXF_LZ OUT[2], IMM[1], SAMP[0], 2D
  5: SAMPLE_B OUT[3], IN[0], SVIEW[0], SAMP[0], IMM[0].wwww
  6: SAMPLE_C OUT[4], IN[0], SVIEW[1], SAMP[1], IN[0].zzzz
  7: GATHER4 OUT[5], IN[0], SVIEW[0], SAMP[0].yyyy
  8: END
)";
  // View 0: 4x4 RGBA32F with 3 levels, texel = (x + 100 * level, y, 0, level).
  TextureBinding t;
  t.view.format = uint32_t(clpipe::Format::R32G32B32A32_FLOAT);
  t.view.target = CLP_TEXTARGET_2D;
  t.view.width = t.view.height = 4;
  t.view.depth = t.view.layers = 1;
  t.view.last_level = 2;
  for (int c = 0; c < 4; ++c)
    t.view.swizzle[c] = uint32_t(c);
  uint32_t off = 0;
  for (uint32_t l = 0; l < 3; ++l) {
    const uint32_t s = 4 >> l;
    t.view.level_offset[l] = off;
    t.view.row_pitch[l] = s * 16;
    t.view.layer_pitch[l] = s * s * 16;
    for (uint32_t y = 0; y < s; ++y) {
      for (uint32_t x = 0; x < s; ++x) {
        const float v[4] = {float(x + 100 * l), float(y), 0.0f, float(l)};
        t.data.resize(off + (y * s + x + 1) * 16);
        std::memcpy(&t.data[off + (y * s + x) * 16], v, 16);
      }
    }
    off += s * s * 16;
  }
  t.sampler.min_mip_filter = CLP_MIP_NEAREST;
  t.sampler.max_lod = 1000.0f;
  in.textures[0] = t;
  // View 1: 1x1 depth 0.75; sampler 1 compares GREATER (ref > texel).
  TextureBinding z;
  z.view = t.view;
  z.view.format = uint32_t(clpipe::Format::R32_FLOAT);
  z.view.width = z.view.height = 1;
  z.view.last_level = 0;
  z.view.row_pitch[0] = 4;
  z.view.layer_pitch[0] = 4;
  const float depth = 0.75f;
  z.data.resize(4);
  std::memcpy(z.data.data(), &depth, 4);
  z.sampler.compare_mode = 1;
  z.sampler.compare_func = 4;
  z.sampler.max_lod = 1000.0f;
  in.textures[1] = z;
  in.count = 4;
  // A quad whose coordinates move by one texel of level 0 per pixel: lambda 0.
  for (uint32_t l = 0; l < 4; ++l) {
    in.in.insert(in.in.end(), {fbits(0.1f + 0.25f * (l & 1)), fbits(0.6f + 0.25f * (l >> 1)),
                               fbits(0.6f + 0.1f * l), 0});
  }
  HarnessResult r = run_shader(in);
  for (uint32_t l = 0; l < 4; ++l) {
    INFO("lane " << l);
    const float s = 0.1f + 0.25f * (l & 1), tt = 0.6f + 0.25f * (l >> 1);
    const float ref = 0.6f + 0.1f * l;
    // TXP: (2s, 2t) / 2 = (s, t), same scale: level 0 nearest.
    CHECK(r.f(l, 0, 0) == float(int(s * 4)));
    CHECK(r.f(l, 0, 1) == float(int(tt * 4)));
    // TEX_LZ: level 0 whatever the derivatives.
    CHECK(r.f(l, 1, 3) == 0.0f);
    // TXF_LZ at (1, 1) of level 0 (.w = 3 ignored).
    CHECK(r.f(l, 2, 0) == 1.0f);
    CHECK(r.f(l, 2, 1) == 1.0f);
    // SAMPLE_B: lambda 0 + bias 4 -> the last level (2).
    CHECK(r.f(l, 3, 3) == 2.0f);
    // SAMPLE_C: ref (IN[0].z) 0.6 .. 0.9 against 0.75 with GREATER.
    CHECK(r.f(l, 4, 0) == (ref > depth ? 1.0f : 0.0f));
    // GATHER4 with the sampler's .y: the t texels of the footprint.
    const float y0 = std::floor(tt * 4 - 0.5f);
    CHECK(r.f(l, 5, 0) == y0 + 1);
    CHECK(r.f(l, 5, 2) == y0);
  }
}

TEST_CASE("emit: ATOMDEC_WRAP and MEMORY GLOBAL / INPUT", "[emit][misc]") {
  HarnessInput in;
  // Thread t: old = ATOMDEC_WRAP(counter, 5); global[2t] = old, global[2t + 1] = input[t].
  in.tgsi = R"(COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL MEMORY[0], GLOBAL
DCL MEMORY[1], INPUT
DCL BUFFER[0]
DCL TEMP[0..2]
IMM[0] UINT32 {4, 0, 5, 8}
  0: ATOMDEC_WRAP TEMP[0].x, BUFFER[0], IMM[0].yyyy, IMM[0].zzzz
  1: UMUL TEMP[1].x, SV[0].xxxx, IMM[0].xxxx
  2: LOAD TEMP[2].x, MEMORY[1], TEMP[1].xxxx
  3: MOV TEMP[0].y, TEMP[2].xxxx
  4: UMUL TEMP[1].y, SV[0].xxxx, IMM[0].wwww
  5: STORE MEMORY[0].xy, TEMP[1].yyyy, TEMP[0]
  6: END
)";
  in.block = {8, 1, 1};
  in.buffers[0] = {3};
  in.input_memory = {11, 12, 13, 14, 15, 16, 17, 18};
  in.global_memory.assign(15, 0xdeadu);  // thread 7's second word is past the end
  HarnessResult r = run_shader(in);
  // DEC_WRAP stores old - 1 for 0 < old < 5, else 0: 3, 2, 1, then 0 five times.
  CHECK(r.buffers[0][0] == 0u);
  std::vector<uint32_t> olds;
  for (uint32_t t = 0; t < 8; ++t)
    olds.push_back(r.global_memory[2 * t]);
  std::sort(olds.begin(), olds.end());
  CHECK(olds == std::vector<uint32_t>{0, 0, 0, 0, 0, 1, 2, 3});
  for (uint32_t t = 0; t < 7; ++t)
    CHECK(r.global_memory[2 * t + 1] == 11 + t);
  CHECK(r.global_memory.size() == 15);
}
