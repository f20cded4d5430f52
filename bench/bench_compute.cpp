// launch_grid on the selected device: the cost of one small dispatch (binding, argument
// upload, launch), the bandwidth of a streaming shader over shader buffers, and a shared-
// memory reduction with barriers. Prints figures only.
//
//   build/bench/bench_compute [words]    (words: buffer length in 32-bit words, default 4M)
#include <clpipe/clpipe.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

using namespace clpipe;

namespace {

double best_seconds(Screen& screen, Context& ctx, int reps, const std::function<bool()>& body) {
  double best = 1e30;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!body()) return -1;
    FenceHandle fence;
    if (!ctx.flush(&fence).is_ok() || !screen.fence_finish(fence, UINT64_MAX).is_ok()) return -1;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::min(best, s);
  }
  return best;
}

// out[i] = in[i] * 3 + 1 over 256-thread blocks.
const char* kStream = R"(COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 256
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..1]
IMM[0] UINT32 {256, 4, 3, 1}
UMAD TEMP[0].x, SV[1].xxxx, IMM[0].xxxx, SV[0].xxxx
UMUL TEMP[0].y, TEMP[0].xxxx, IMM[0].yyyy
LOAD TEMP[1].x, BUFFER[0], TEMP[0].yyyy
UMAD TEMP[1].x, TEMP[1].xxxx, IMM[0].zzzz, IMM[0].wwww
STORE BUFFER[1].x, TEMP[0].yyyy, TEMP[1].xxxx
END
)";

// Per 256-thread block: sum of its words through a shared-memory tree (8 barriers).
const char* kReduce = R"(COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 256
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL MEMORY[0], SHARED
DCL TEMP[0..4]
IMM[0] UINT32 {256, 4, 128, 0}
IMM[1] UINT32 {1, 0, 0, 0}
UMAD TEMP[0].x, SV[1].xxxx, IMM[0].xxxx, SV[0].xxxx
UMUL TEMP[0].y, TEMP[0].xxxx, IMM[0].yyyy
UMUL TEMP[0].z, SV[0].xxxx, IMM[0].yyyy
LOAD TEMP[1].x, BUFFER[0], TEMP[0].yyyy
STORE MEMORY[0].x, TEMP[0].zzzz, TEMP[1].xxxx
BARRIER
MOV TEMP[2].x, IMM[0].zzzz
BGNLOOP
  USEQ TEMP[3].x, TEMP[2].xxxx, IMM[0].wwww
  UIF TEMP[3].xxxx
    BRK
  ENDIF
  USLT TEMP[3].y, SV[0].xxxx, TEMP[2].xxxx
  UIF TEMP[3].yyyy
    UADD TEMP[3].z, SV[0].xxxx, TEMP[2].xxxx
    UMUL TEMP[3].z, TEMP[3].zzzz, IMM[0].yyyy
    LOAD TEMP[4].x, MEMORY[0], TEMP[3].zzzz
    LOAD TEMP[1].x, MEMORY[0], TEMP[0].zzzz
    UADD TEMP[1].x, TEMP[1].xxxx, TEMP[4].xxxx
    STORE MEMORY[0].x, TEMP[0].zzzz, TEMP[1].xxxx
  ENDIF
  BARRIER
  USHR TEMP[2].x, TEMP[2].xxxx, IMM[1].xxxx
ENDLOOP
USEQ TEMP[3].w, SV[0].xxxx, IMM[0].wwww
UIF TEMP[3].wwww
  LOAD TEMP[1].x, MEMORY[0], IMM[0].wwww
  UMUL TEMP[0].w, SV[1].xxxx, IMM[0].yyyy
  STORE BUFFER[1].x, TEMP[0].wwww, TEMP[1].xxxx
ENDIF
END
)";

}  // namespace

int main(int argc, char** argv) {
  const uint32_t words = argc > 1 ? uint32_t(std::atoi(argv[1])) : (4u << 20);
  const uint32_t groups = words / 256;
  auto screen_r = Screen::create();
  if (!screen_r) {
    std::fprintf(stderr, "%s\n", screen_r.status().to_string().c_str());
    return 1;
  }
  Screen& screen = *screen_r.value();
  auto ctx_r = screen.context_create();
  if (!ctx_r) return 1;
  Context& ctx = *ctx_r.value();
  std::printf("device: %s, %u words\n", screen.get_name().c_str(), groups * 256);

  ResourceTemplate t;
  t.target = TextureTarget::BUFFER;
  t.format = Format::R8_UNORM;
  t.width0 = groups * 256 * 4;
  t.bind = Bind::SHADER_BUFFER;
  auto in = screen.resource_create(t);
  auto out = screen.resource_create(t);
  if (!in || !out) return 1;
  std::vector<uint32_t> data(groups * 256, 1);
  if (!ctx.buffer_subdata(in.value(), Map::WRITE, 0, t.width0, data.data()).is_ok()) return 1;
  std::vector<ShaderBuffer> sb(2);
  sb[0].buffer = in.value();
  sb[0].buffer_size = t.width0;
  sb[1].buffer = out.value();
  sb[1].buffer_size = t.width0;
  if (!ctx.set_shader_buffers(ShaderType::COMPUTE, 0, sb, 0x2).is_ok()) return 1;

  ComputeState cs;
  cs.tgsi = kStream;
  auto stream = ctx.create_compute_state(cs);
  cs.tgsi = kReduce;
  cs.req_local_mem = 256 * 4;
  auto reduce = ctx.create_compute_state(cs);
  if (!stream || !reduce) {
    std::fprintf(stderr, "create_compute_state failed\n");
    return 1;
  }
  GridInfo one;
  one.block[0] = 256;
  GridInfo all = one;
  all.grid[0] = groups;

  ctx.bind_compute_state(stream.value());
  const int kSmall = 200;
  const double small = best_seconds(screen, ctx, 3, [&] {
    for (int i = 0; i < kSmall; ++i)
      if (!ctx.launch_grid(one).is_ok()) return false;
    return true;
  });
  std::printf("%-44s %8.1f us per launch\n", "launch_grid, 1 block of 256 threads",
              small < 0 ? -1.0 : small / kSmall * 1e6);
  const double s = best_seconds(screen, ctx, 5, [&] { return ctx.launch_grid(all).is_ok(); });
  std::printf("%-44s %8.3f ms  %7.2f GB/s\n", "stream in*3+1 (read + write)", s * 1e3,
              2.0 * t.width0 / s / 1e9);
  ctx.bind_compute_state(reduce.value());
  const double r = best_seconds(screen, ctx, 5, [&] { return ctx.launch_grid(all).is_ok(); });
  std::printf("%-44s %8.3f ms  %7.2f Gwords/s\n", "shared-memory reduction, 256 per block", r * 1e3,
              double(groups) * 256 / r / 1e9);
  return 0;
}
