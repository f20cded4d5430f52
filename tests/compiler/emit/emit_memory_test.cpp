// Memory in compute shaders on the device: shader buffers (LOAD / STORE by byte address,
// bounds-checked, RESQ), every ATOM* op including the CAS-loop ones (ATOMFADD,
// ATOMINC_WRAP, ATOMDEC_WRAP), shared memory across BARRIER, atomic counters (HWATOMIC),
// shader images (typed through format.h, atomics, RESQ), and side effects that killed or
// helper fragment lanes must not have.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "clpipe/format.h"
#include "compiler/emit/harness.h"

using namespace clpipe::test::emit;

TEST_CASE("emit: shader buffers, atomics and bounds", "[emit][memory]") {
  HarnessInput in;
  // 64 invocations. BUFFER[0]: per-invocation results; BUFFER[1]: atomic targets.
  in.tgsi = R"(COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 16
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..5]
IMM[0] UINT32 {16, 32, 4, 1}
IMM[1] UINT32 {0, 8, 12, 16}
IMM[2] UINT32 {20, 24, 28, 1000}
IMM[3] FLT32 {0x3f000000, 0x00000000, 0x00000000, 0x00000000}
IMM[4] UINT32 {36, 40, 7, 0}
  0: UMAD TEMP[0].x, SV[1].xxxx, IMM[0].xxxx, SV[0].xxxx
  1: UMUL TEMP[0].y, TEMP[0].xxxx, IMM[0].yyyy
  2: ATOMUADD TEMP[1].x, BUFFER[1], IMM[1].xxxx, IMM[0].wwww
  3: ATOMUMAX TEMP[1].y, BUFFER[1], IMM[0].zzzz, TEMP[0].xxxx
  4: ATOMUMIN TEMP[1].z, BUFFER[1], IMM[1].yyyy, TEMP[0].xxxx
  5: INEG TEMP[2].x, TEMP[0].xxxx
  6: ATOMIMIN TEMP[1].w, BUFFER[1], IMM[1].zzzz, TEMP[2].xxxx
  7: ATOMIMAX TEMP[3].x, BUFFER[1], IMM[1].wwww, TEMP[2].xxxx
  8: SHL TEMP[2].y, IMM[0].wwww, TEMP[0].xxxx
  9: ATOMOR TEMP[3].y, BUFFER[1], IMM[2].xxxx, TEMP[2].yyyy
 10: ATOMXOR TEMP[3].z, BUFFER[1], IMM[2].yyyy, TEMP[2].yyyy
 11: NOT TEMP[2].z, TEMP[2].yyyy
 12: ATOMAND TEMP[3].w, BUFFER[1], IMM[2].zzzz, TEMP[2].zzzz
 13: ATOMFADD TEMP[4].x, BUFFER[1], IMM[4].xxxx, IMM[3].xxxx
 14: ATOMINC_WRAP TEMP[4].y, BUFFER[1], IMM[4].yyyy, IMM[4].zzzz
 15: ATOMXCHG TEMP[4].z, BUFFER[1], IMM[2].wwww, TEMP[0].xxxx
 16: STORE BUFFER[0].xyzw, TEMP[0].yyyy, TEMP[1]
 17: UADD TEMP[5].x, TEMP[0].yyyy, IMM[0].xxxx
 18: STORE BUFFER[0].xyzw, TEMP[5].xxxx, TEMP[3]
 19: END
)";
  // BUFFER[1] word 250 is bound only for ATOMXCHG's address (1000 = word 250).
  const uint32_t n = 64;
  in.grid = {4, 1, 1};
  in.block = {16, 1, 1};
  in.buffers[0].assign(n * 8, 0xdeadu);
  in.buffers[1].assign(251, 0);
  in.buffers[1][2] = 0xffffffffu;  // UMIN target (word 2 = byte 8)
  in.buffers[1][7] = 0xffffffffu;  // AND target (byte 28)
  in.buffers[1][9] = fbits(1.0f);  // FADD target (byte 36)
  HarnessResult r = run_shader(in);
  const auto& b0 = r.buffers[0];
  const auto& b1 = r.buffers[1];
  std::set<uint32_t> add_old;
  for (uint32_t i = 0; i < n; ++i) {
    INFO("invocation " << i);
    add_old.insert(b0[i * 8 + 0]);
    CHECK(b0[i * 8 + 1] < n);                     // UMAX: some earlier maximum
    CHECK(int32_t(b0[i * 8 + 3]) > -int32_t(n));  // IMIN: some earlier minimum
  }
  CHECK(add_old.size() == n);  // every ATOMUADD saw a different old value
  CHECK(*add_old.rbegin() == n - 1);
  CHECK(b1[0] == n);
  CHECK(b1[1] == n - 1);                     // UMAX
  CHECK(b1[2] == 0u);                        // UMIN
  CHECK(int32_t(b1[3]) == -int32_t(n - 1));  // IMIN of -i
  CHECK(b1[4] == 0u);                        // IMAX of -i (and the initial 0)
  CHECK(b1[5] == 0xffffffffu);               // OR of 1 << (i & 31)
  CHECK(b1[6] == 0u);                        // XOR: every bit twice
  CHECK(b1[7] == 0u);                        // AND of ~(1 << i)
  CHECK(bitsf(b1[9]) == 1.0f + 0.5f * n);    // FADD through CAS
  CHECK(b1[10] == n % 8);                    // INC_WRAP with limit 7: wraps 0..7
  CHECK(b1[250] < n);                        // XCHG kept one invocation's value
}

TEST_CASE("emit: buffer RESQ and out-of-bounds LOAD / STORE", "[emit][memory]") {
  HarnessInput in;
  in.tgsi = R"(COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 1
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL BUFFER[0]
DCL TEMP[0..1]
IMM[0] UINT32 {12, 16, 1000, 4}
IMM[1] UINT32 {7, 8, 9, 10}
  0: LOAD TEMP[0].xy, BUFFER[0], IMM[0].xxxx
  1: RESQ TEMP[1].x, BUFFER[0]
  2: MOV TEMP[0].z, TEMP[1].xxxx
  3: LOAD TEMP[0].w, BUFFER[0], IMM[0].zzzz
  4: STORE BUFFER[0].xyzw, IMM[0].wwww, TEMP[0]
  5: STORE BUFFER[0].xyzw, IMM[0].yyyy, IMM[1]
  6: END
)";
  in.buffers[0] = {1, 2, 3, 40, 0, 0};  // 24 bytes
  HarnessResult r = run_shader(in);
  const auto& b = r.buffers[0];
  CHECK(b[0] == 1);
  CHECK(b[1] == 40);  // LOAD .x at byte 12
  CHECK(b[2] == 0);   // .y at byte 16
  CHECK(b[3] == 24);  // RESQ: bytes bound
  CHECK(b[4] == 7);   // .w (0, from out of range) went to byte 16 first, then IMM[1].x
  CHECK(b[5] == 8);   // bytes 24.. of the second store are past the end: dropped
}

TEST_CASE("emit: shared memory across BARRIER and shared atomics", "[emit][memory]") {
  HarnessInput in;
  // Thread 0 clears a counter at byte 128, every thread stores its word and adds 1 to the
  // counter, then reads its neighbour's word and the counter (LOAD .y at byte 124 reads
  // byte 128: channel c is at address + 4c).
  in.tgsi = R"(COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 32
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL MEMORY[0], SHARED
DCL TEMP[0..5]
IMM[0] UINT32 {4, 1, 31, 124}
IMM[1] UINT32 {128, 3, 0, 32}
  0: USEQ TEMP[5].x, SV[0].xxxx, IMM[1].zzzz
  1: UIF TEMP[5].xxxx :3
  2:   STORE MEMORY[0].x, IMM[1].xxxx, IMM[1].zzzz
  3: ENDIF
  4: UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
  5: UMUL TEMP[0].y, SV[1].xxxx, IMM[1].yyyy
  6: UADD TEMP[0].y, TEMP[0].yyyy, SV[0].xxxx
  7: STORE MEMORY[0].x, TEMP[0].xxxx, TEMP[0].yyyy
  8: BARRIER
  9: ATOMUADD TEMP[1].x, MEMORY[0], IMM[1].xxxx, IMM[0].yyyy
 10: MEMBAR IMM[0].wwww
 11: BARRIER
 12: UADD TEMP[2].x, SV[0].xxxx, IMM[0].yyyy
 13: AND TEMP[2].x, TEMP[2].xxxx, IMM[0].zzzz
 14: UMUL TEMP[2].y, TEMP[2].xxxx, IMM[0].xxxx
 15: LOAD TEMP[3].x, MEMORY[0], TEMP[2].yyyy
 16: LOAD TEMP[3].y, MEMORY[0], IMM[0].wwww
 17: UMAD TEMP[4].x, SV[1].xxxx, IMM[1].wwww, SV[0].xxxx
 18: UMUL TEMP[4].x, TEMP[4].xxxx, IMM[0].xxxx
 19: UMUL TEMP[4].x, TEMP[4].xxxx, IMM[0].xxxx
 20: STORE BUFFER[0].xy, TEMP[4].xxxx, TEMP[3]
 21: END
)";
  in.grid = {2, 1, 1};
  in.block = {32, 1, 1};
  in.shared_size = 33 * 4;
  in.buffers[0].assign(64 * 4, 0);
  HarnessResult r = run_shader(in);
  for (uint32_t g = 0; g < 2; ++g) {
    for (uint32_t t = 0; t < 32; ++t) {
      INFO("group " << g << " thread " << t);
      const uint32_t i = g * 32 + t;
      CHECK(r.buffers[0][i * 4] == g * 3 + (t + 1) % 32);
      CHECK(r.buffers[0][i * 4 + 1] == 32u);  // every thread of the group added 1
    }
  }
}

TEST_CASE("emit: atomic counters", "[emit][memory]") {
  HarnessInput in;
  in.tgsi = R"(COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL HWATOMIC[0][0]
DCL HWATOMIC[0][1]
DCL BUFFER[0]
DCL SV[0], THREAD_ID
DCL TEMP[0..2]
IMM[0] UINT32 {0, 4, 8, 0}
IMM[1] INT32 {1, -1, 0, 0}
  0: ATOMUADD TEMP[0].x, HWATOMIC[0][0], IMM[0].xxxx, IMM[1].xxxx
  1: ATOMUADD TEMP[0].y, HWATOMIC[0][1], IMM[0].yyyy, IMM[1].yyyy
  2: UMUL TEMP[1].x, SV[0].xxxx, IMM[0].zzzz
  3: STORE BUFFER[0].xy, TEMP[1].xxxx, TEMP[0]
  4: END
)";
  in.block = {8, 1, 1};
  in.hw_atomics[0] = {5, 100};
  in.buffers[0].assign(16, 0);
  HarnessResult r = run_shader(in);
  CHECK(r.hw_atomics[0][0] == 13u);
  CHECK(r.hw_atomics[0][1] == 92u);
  std::vector<uint32_t> inc, dec;
  for (int t = 0; t < 8; ++t) {
    inc.push_back(r.buffers[0][2 * t]);
    dec.push_back(r.buffers[0][2 * t + 1]);
  }
  std::sort(inc.begin(), inc.end());
  std::sort(dec.begin(), dec.end());
  for (uint32_t k = 0; k < 8; ++k) {
    CHECK(inc[k] == 5 + k);
    CHECK(dec[k] == 93 + k);
  }
}

TEST_CASE("emit: shader images load, store, atomics and size", "[emit][memory]") {
  HarnessInput in;
  // 4x4 R32_UINT image 0 (atomics), 4x4x2 RGBA8 image 1 (2D array): every thread stores a
  // colour into layer 1 of image 1, adds to image 0, then reads back a neighbour's texel.
  in.tgsi = R"(COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
PROPERTY CS_FIXED_BLOCK_HEIGHT 4
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR
DCL IMAGE[1], 2D_ARRAY, PIPE_FORMAT_NONE, WR
DCL BUFFER[0]
DCL TEMP[0..5]
IMM[0] UINT32 {1, 0, 4, 16}
IMM[1] FLT32 {0x3f800000, 0x3f000000, 0x00000000, 0x3e800000}
  0: MOV TEMP[0].xy, SV[0].xyyy
  1: MOV TEMP[0].z, IMM[0].xxxx
  2: STORE IMAGE[1], TEMP[0], IMM[1], 2D_ARRAY
  3: ATOMUADD TEMP[1].x, IMAGE[0], TEMP[0], SV[0].xxxx, 2D, PIPE_FORMAT_R32_UINT
  4: LOAD TEMP[2], IMAGE[0], TEMP[0], 2D, PIPE_FORMAT_R32_UINT
  5: UMAD TEMP[3].x, SV[0].yyyy, IMM[0].zzzz, SV[0].xxxx
  6: UMUL TEMP[3].x, TEMP[3].xxxx, IMM[0].wwww
  7: RESQ TEMP[4], IMAGE[1]
  8: MOV TEMP[5].xy, TEMP[2].xxxx
  9: MOV TEMP[5].z, TEMP[1].xxxx
 10: MOV TEMP[5].w, TEMP[4].zzzz
 11: STORE BUFFER[0].xyzw, TEMP[3].xxxx, TEMP[5]
 12: END
)";
  in.block = {4, 4, 1};
  in.buffers[0].assign(16 * 4, 0);
  auto view2d = [](clpipe::Format f, uint32_t w, uint32_t h, uint32_t layers, uint32_t bpp) {
    TextureBinding t;
    t.view.format = uint32_t(f);
    t.view.target = layers > 1 ? CLP_TEXTARGET_2D_ARRAY : CLP_TEXTARGET_2D;
    t.view.width = w;
    t.view.height = h;
    t.view.depth = 1;
    t.view.layers = layers;
    t.view.last_layer = layers - 1;
    for (int c = 0; c < 4; ++c)
      t.view.swizzle[c] = uint32_t(c);
    t.view.row_pitch[0] = w * bpp;
    t.view.layer_pitch[0] = w * h * bpp;
    t.data.assign(size_t(w) * h * layers * bpp, 0);
    return t;
  };
  in.images[0] = view2d(clpipe::Format::R32_UINT, 4, 4, 1, 4);
  for (uint32_t k = 0; k < 16; ++k)
    in.images[0].data[k * 4] = uint8_t(10 * k);
  in.images[1] = view2d(clpipe::Format::R8G8B8A8_UNORM, 4, 4, 2, 4);
  HarnessResult r = run_shader(in);
  for (uint32_t y = 0; y < 4; ++y) {
    for (uint32_t x = 0; x < 4; ++x) {
      const uint32_t i = y * 4 + x;
      INFO("thread " << x << "," << y);
      CHECK(r.buffers[0][i * 4 + 2] == 10 * i);          // old value of the atomic
      CHECK(r.buffers[0][i * 4 + 0] == 10 * i + x);      // loaded after the add
      CHECK(r.buffers[0][i * 4 + 3] == 2u);              // RESQ: layers
      const uint8_t* px = &r.images[1][16 * 4 + i * 4];  // layer 1
      CHECK(px[0] == 255);
      CHECK(px[1] == 128);
      CHECK(px[2] == 0);
      CHECK(px[3] == 64);
      CHECK(r.images[1][i * 4] == 0);  // layer 0 untouched
    }
  }
}

TEST_CASE("emit: killed and helper fragment lanes have no side effects", "[emit][memory]") {
  HarnessInput in;
  in.tgsi = R"(FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
DCL BUFFER[0]
DCL TEMP[0..1]
IMM[0] UINT32 {4, 1, 0, 0}
IMM[1] FLT32 {0x3f000000, 0x00000000, 0x00000000, 0x00000000}
  0: FSLT TEMP[0].x, IN[0].yyyy, IMM[1].xxxx
  1: UIF TEMP[0].xxxx :3
  2:   KILL
  3: ENDIF
  4: F2U TEMP[1].x, IN[0].xxxx
  5: UMUL TEMP[1].y, TEMP[1].xxxx, IMM[0].xxxx
  6: STORE BUFFER[0].x, TEMP[1].yyyy, IMM[0].yyyy
  7: ATOMUADD TEMP[1].z, BUFFER[0], IMM[0].zzzz, IMM[0].yyyy
  8: END
)";
  in.count = 8;
  const float kill[8] = {1, 0, 1, 1, 0, 0, 1, 1};
  for (uint32_t i = 0; i < 8; ++i)
    in.in.insert(in.in.end(), {fbits(float(i + 1)), fbits(kill[i]), 0, 0});
  in.helper = {0, 0, -1, 0, 0, 0, 0, -1};
  in.buffers[0].assign(10, 0);
  HarnessResult r = run_shader(in);
  uint32_t live = 0;
  for (uint32_t i = 0; i < 8; ++i) {
    const bool writes = kill[i] != 0.0f && !in.helper[i];
    live += writes;
    INFO("invocation " << i);
    CHECK(r.buffers[0][i + 1] == (writes ? 1u : 0u));
  }
  CHECK(r.buffers[0][0] == live);
  CHECK(r.compiled.code.prelude.find("#define CLP_FS_HAS_SIDE_EFFECTS 1\n") != std::string::npos);
}
