// Compute shaders with shared memory and barriers through launch_grid, checked against
// host-computed results: a tree reduction and a Hillis-Steele prefix sum over blocks of a
// size that is not a power of two, and barriers inside a loop in groups whose last block is
// partial (every thread of a group must reach each barrier).
#include <catch2/catch.hpp>

#include <vector>

#include "compute_util.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

std::vector<uint32_t> lcg_words(size_t n, uint32_t seed) {
  std::vector<uint32_t> w(n);
  for (auto& v : w) {
    seed = seed * 1664525u + 1013904223u;
    v = seed >> 12;
  }
  return w;
}

// Sum of the block's inputs: shared[tid] = in[gid]; for s = 1, 2, 4, ... < n: threads with
// tid % 2s == 0 and tid + s < n add shared[tid + s]; BARRIER after each step.
const char* kReduce = R"(COMP
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL SV[2], BLOCK_SIZE
DCL BUFFER[0]
DCL BUFFER[1]
DCL MEMORY[0], SHARED
DCL TEMP[0..7]
IMM[0] UINT32 {4, 1, 0, 2}
UMAD TEMP[0].x, SV[1].xxxx, SV[2].xxxx, SV[0].xxxx
UMUL TEMP[0].y, TEMP[0].xxxx, IMM[0].xxxx
LOAD TEMP[1].x, BUFFER[0], TEMP[0].yyyy
UMUL TEMP[0].z, SV[0].xxxx, IMM[0].xxxx
STORE MEMORY[0].x, TEMP[0].zzzz, TEMP[1].xxxx
BARRIER
MOV TEMP[2].x, IMM[0].yyyy
BGNLOOP
  USGE TEMP[3].x, TEMP[2].xxxx, SV[2].xxxx
  UIF TEMP[3].xxxx
    BRK
  ENDIF
  UMUL TEMP[3].y, TEMP[2].xxxx, IMM[0].wwww
  UMOD TEMP[3].z, SV[0].xxxx, TEMP[3].yyyy
  UADD TEMP[3].w, SV[0].xxxx, TEMP[2].xxxx
  USEQ TEMP[4].x, TEMP[3].zzzz, IMM[0].zzzz
  USLT TEMP[4].y, TEMP[3].wwww, SV[2].xxxx
  AND TEMP[4].x, TEMP[4].xxxx, TEMP[4].yyyy
  UIF TEMP[4].xxxx
    UMUL TEMP[5].x, TEMP[3].wwww, IMM[0].xxxx
    LOAD TEMP[6].x, MEMORY[0], TEMP[5].xxxx
    LOAD TEMP[7].x, MEMORY[0], TEMP[0].zzzz
    UADD TEMP[7].x, TEMP[7].xxxx, TEMP[6].xxxx
    STORE MEMORY[0].x, TEMP[0].zzzz, TEMP[7].xxxx
  ENDIF
  BARRIER
  MOV TEMP[2].x, TEMP[3].yyyy
ENDLOOP
USEQ TEMP[4].z, SV[0].xxxx, IMM[0].zzzz
UIF TEMP[4].zzzz
  LOAD TEMP[6].x, MEMORY[0], IMM[0].zzzz
  UMUL TEMP[1].y, SV[1].xxxx, IMM[0].xxxx
  STORE BUFFER[1].x, TEMP[1].yyyy, TEMP[6].xxxx
ENDIF
END
)";

// Inclusive prefix sum per block (Hillis-Steele): two arrays of n words in shared memory,
// read from one and written to the other at each step, swapped after a BARRIER.
const char* kScan = R"(COMP
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL SV[2], BLOCK_SIZE
DCL BUFFER[0]
DCL BUFFER[1]
DCL MEMORY[0], SHARED
DCL TEMP[0..8]
IMM[0] UINT32 {4, 1, 0, 2}
UMAD TEMP[0].x, SV[1].xxxx, SV[2].xxxx, SV[0].xxxx
UMUL TEMP[0].y, TEMP[0].xxxx, IMM[0].xxxx
UMUL TEMP[0].z, SV[0].xxxx, IMM[0].xxxx
UMUL TEMP[0].w, SV[2].xxxx, IMM[0].xxxx
LOAD TEMP[1].x, BUFFER[0], TEMP[0].yyyy
STORE MEMORY[0].x, TEMP[0].zzzz, TEMP[1].xxxx
BARRIER
MOV TEMP[2].x, IMM[0].yyyy
MOV TEMP[2].y, IMM[0].zzzz
MOV TEMP[2].z, TEMP[0].wwww
BGNLOOP
  USGE TEMP[3].x, TEMP[2].xxxx, SV[2].xxxx
  UIF TEMP[3].xxxx
    BRK
  ENDIF
  UADD TEMP[3].y, TEMP[2].yyyy, TEMP[0].zzzz
  LOAD TEMP[4].x, MEMORY[0], TEMP[3].yyyy
  USGE TEMP[3].z, SV[0].xxxx, TEMP[2].xxxx
  UIF TEMP[3].zzzz
    UMUL TEMP[5].x, TEMP[2].xxxx, IMM[0].xxxx
    INEG TEMP[5].y, TEMP[5].xxxx
    UADD TEMP[5].z, TEMP[3].yyyy, TEMP[5].yyyy
    LOAD TEMP[8].x, MEMORY[0], TEMP[5].zzzz
    UADD TEMP[4].x, TEMP[4].xxxx, TEMP[8].xxxx
  ENDIF
  UADD TEMP[3].w, TEMP[2].zzzz, TEMP[0].zzzz
  STORE MEMORY[0].x, TEMP[3].wwww, TEMP[4].xxxx
  BARRIER
  MOV TEMP[6].x, TEMP[2].yyyy
  MOV TEMP[2].y, TEMP[2].zzzz
  MOV TEMP[2].z, TEMP[6].xxxx
  UMUL TEMP[2].x, TEMP[2].xxxx, IMM[0].wwww
ENDLOOP
UADD TEMP[7].x, TEMP[2].yyyy, TEMP[0].zzzz
LOAD TEMP[8].x, MEMORY[0], TEMP[7].xxxx
STORE BUFFER[1].x, TEMP[0].yyyy, TEMP[8].xxxx
END
)";

// Three rounds of: thread 0 clears a shared counter, BARRIER, every thread adds 1 (and
// MEMBAR for shared memory), BARRIER,
// every thread reads the count, BARRIER. out[block_id * BLOCK_SIZE + tid] = sum of counts,
// i.e. 3 x the threads that exist in the group.
const char* kCountThreads = R"(COMP
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL SV[2], BLOCK_SIZE
DCL BUFFER[0]
DCL MEMORY[0], SHARED
DCL TEMP[0..4]
IMM[0] UINT32 {4, 1, 0, 3}
IMM[1] UINT32 {8, 0, 0, 0}
MOV TEMP[0].x, IMM[0].zzzz
MOV TEMP[0].y, IMM[0].zzzz
BGNLOOP
  USGE TEMP[1].x, TEMP[0].yyyy, IMM[0].wwww
  UIF TEMP[1].xxxx
    BRK
  ENDIF
  USEQ TEMP[1].y, SV[0].xxxx, IMM[0].zzzz
  UIF TEMP[1].yyyy
    STORE MEMORY[0].x, IMM[0].zzzz, IMM[0].zzzz
  ENDIF
  BARRIER
  ATOMUADD TEMP[2].x, MEMORY[0], IMM[0].zzzz, IMM[0].yyyy
  MEMBAR IMM[1].xxxx
  BARRIER
  LOAD TEMP[4].x, MEMORY[0], IMM[0].zzzz
  UADD TEMP[0].x, TEMP[0].xxxx, TEMP[4].xxxx
  BARRIER
  UADD TEMP[0].y, TEMP[0].yyyy, IMM[0].yyyy
ENDLOOP
UMAD TEMP[3].x, SV[1].xxxx, SV[2].xxxx, SV[0].xxxx
UMUL TEMP[3].x, TEMP[3].xxxx, IMM[0].xxxx
STORE BUFFER[0].x, TEMP[3].xxxx, TEMP[0].xxxx
END
)";

}  // namespace

TEST_CASE("compute: tree reduction in shared memory", "[frontend][compute][shared]") {
  auto ctx = new_context();
  const uint32_t n = 96, groups = 5;  // 96 threads: the tree has a ragged last step
  bind_compute(*ctx, kReduce, n * 4);
  const std::vector<uint32_t> in = lcg_words(n * groups, 7);
  ResourceRef src = words_resource(*ctx, in);
  ResourceRef dst = words_resource(*ctx, std::vector<uint32_t>(groups, 0xdeadu));
  bind_buffers(*ctx, {src, dst});
  launch(*ctx, make_grid({n, 1, 1}, {groups, 1, 1}));
  const std::vector<uint32_t> out = read_words(*ctx, dst);
  for (uint32_t g = 0; g < groups; ++g) {
    uint32_t sum = 0;
    for (uint32_t t = 0; t < n; ++t)
      sum += in[g * n + t];
    INFO("group " << g);
    CHECK(out[g] == sum);
  }
}

TEST_CASE("compute: prefix sum in shared memory", "[frontend][compute][shared]") {
  auto ctx = new_context();
  const uint32_t n = 100, groups = 3;
  bind_compute(*ctx, kScan, 2 * n * 4);
  const std::vector<uint32_t> in = lcg_words(n * groups, 11);
  ResourceRef src = words_resource(*ctx, in);
  ResourceRef dst = words_resource(*ctx, {}, n * groups * 4);
  bind_buffers(*ctx, {src, dst});
  launch(*ctx, make_grid({n, 1, 1}, {groups, 1, 1}));
  const std::vector<uint32_t> out = read_words(*ctx, dst);
  for (uint32_t g = 0; g < groups; ++g) {
    uint32_t sum = 0;
    for (uint32_t t = 0; t < n; ++t) {
      sum += in[g * n + t];
      INFO("group " << g << " thread " << t);
      REQUIRE(out[g * n + t] == sum);
    }
  }
}

TEST_CASE("compute: barriers in loops with partial last blocks", "[frontend][compute][shared]") {
  auto ctx = new_context();
  bind_compute(*ctx, kCountThreads, 4);
  const uint32_t block = 24, groups = 4, last = 9;
  ResourceRef out = words_resource(*ctx, std::vector<uint32_t>(block * groups, 0xdeadu));
  bind_buffers(*ctx, {out});
  GridInfo g = make_grid({block, 1, 1}, {groups, 1, 1});
  g.last_block[0] = last;
  launch(*ctx, g);
  const std::vector<uint32_t> w = read_words(*ctx, out);
  for (uint32_t grp = 0; grp < groups; ++grp) {
    for (uint32_t t = 0; t < block; ++t) {
      INFO("group " << grp << " thread " << t);
      const bool partial = grp == groups - 1;
      if (partial && t >= last) {
        CHECK(w[grp * block + t] == 0xdeadu);  // disabled threads write nothing
      } else {
        CHECK(w[grp * block + t] == 3 * (partial ? last : block));
      }
    }
  }
}

TEST_CASE("compute: shared memory is per work-group and sized by req_local_mem",
          "[frontend][compute][shared]") {
  auto ctx = new_context();
  // The same reduction with req_local_mem covering only half of the block: the upper half
  // of the threads store out of range (dropped) and read 0, so the sum is of the first
  // half. Then a second CSO of the same text with the full size sums everything.
  const uint32_t n = 64;
  const std::vector<uint32_t> in = lcg_words(n * 2, 3);
  ResourceRef src = words_resource(*ctx, in);
  ResourceRef dst = words_resource(*ctx, {}, 8);
  bind_buffers(*ctx, {src, dst});
  bind_compute(*ctx, kReduce, n * 2);
  launch(*ctx, make_grid({n, 1, 1}, {2, 1, 1}));
  std::vector<uint32_t> out = read_words(*ctx, dst);
  for (uint32_t g = 0; g < 2; ++g) {
    uint32_t half = 0;
    for (uint32_t t = 0; t < n / 2; ++t)
      half += in[g * n + t];
    CHECK(out[g] == half);
  }
  bind_compute(*ctx, kReduce, n * 4);
  launch(*ctx, make_grid({n, 1, 1}, {2, 1, 1}));
  out = read_words(*ctx, dst);
  for (uint32_t g = 0; g < 2; ++g) {
    uint32_t sum = 0;
    for (uint32_t t = 0; t < n; ++t)
      sum += in[g * n + t];
    CHECK(out[g] == sum);
  }
}
