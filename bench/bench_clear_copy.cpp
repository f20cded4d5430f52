// Throughput of the foundation's data paths: clears (fill kernel), copies (copy kernel),
// uploads (texture_subdata) and read maps, on the selected device. Prints figures only.
//
//   build/bench/bench_clear_copy [size]    (size: texture width = height, default 2048)
#include <clpipe/clpipe.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

using namespace clpipe;

namespace {

// Best of `reps` timed runs of body() followed by a flush and fence wait.
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

void report(const char* what, double bytes, double seconds) {
  if (seconds < 0) {
    std::printf("%-44s failed\n", what);
    return;
  }
  std::printf("%-44s %8.3f ms  %7.2f GB/s\n", what, seconds * 1e3, bytes / seconds / 1e9);
}

}  // namespace

int main(int argc, char** argv) {
  const uint32_t n = argc > 1 ? uint32_t(std::atoi(argv[1])) : 2048;
  auto screen_r = Screen::create();
  if (!screen_r) {
    std::fprintf(stderr, "%s\n", screen_r.status().to_string().c_str());
    return 1;
  }
  Screen& screen = *screen_r.value();
  auto ctx_r = screen.context_create();
  if (!ctx_r) return 1;
  Context& ctx = *ctx_r.value();
  std::printf("device: %s, %ux%u textures\n", screen.get_name().c_str(), n, n);

  for (Format f : {Format::R8G8B8A8_UNORM, Format::R32G32B32A32_FLOAT, Format::R8G8B8_UNORM,
                   Format::Z24_UNORM_S8_UINT}) {
    ResourceTemplate t;
    t.format = f;
    t.width0 = n;
    t.height0 = uint16_t(n);
    auto a = screen.resource_create(t);
    auto b = screen.resource_create(t);
    if (!a || !b) {
      std::printf("%s: %s\n", format_name(f), a.status().to_string().c_str());
      continue;
    }
    SurfaceTemplate st;
    st.format = f;
    auto surf = ctx.create_surface(a.value(), st);
    if (!surf) continue;
    const double bytes = double(n) * n * format_desc(f).block_bytes;
    char label[96];
    ColorUnion c = {{0.5f, 0.25f, 1.0f, 1.0f}};
    const bool zs = format_is_depth_or_stencil(f);
    std::snprintf(label, sizeof label, "clear %s", format_name(f));
    report(label, bytes, best_seconds(screen, ctx, 5, [&] {
             return zs ? ctx.clear_depth_stencil(surf.value(), Clear::DEPTHSTENCIL, 0.5, 3, 0, 0, n,
                                                 n, false)
                             .is_ok()
                       : ctx.clear_render_target(surf.value(), c, 0, 0, n, n, false).is_ok();
           }));
    if (zs) {
      std::snprintf(label, sizeof label, "clear depth only %s", format_name(f));
      report(label, bytes, best_seconds(screen, ctx, 5, [&] {
               return ctx
                   .clear_depth_stencil(surf.value(), Clear::DEPTH, 0.25, 0, 0, 0, n, n, false)
                   .is_ok();
             }));
    }
    std::snprintf(label, sizeof label, "copy %s (odd offsets)", format_name(f));
    const Box box{1, 0, 0, int(n - 1), int(n), 1};
    report(label, bytes, best_seconds(screen, ctx, 5, [&] {
             return ctx.resource_copy_region(b.value(), 0, 0, 0, 0, a.value(), 0, box).is_ok();
           }));
    std::vector<uint8_t> host(static_cast<size_t>(bytes));
    const uint32_t stride = n * format_desc(f).block_bytes;
    std::snprintf(label, sizeof label, "texture_subdata %s", format_name(f));
    report(label, bytes, best_seconds(screen, ctx, 5, [&] {
             return ctx
                 .texture_subdata(a.value(), 0, Map::WRITE, Box{0, 0, 0, int(n), int(n), 1},
                                  host.data(), stride, 0)
                 .is_ok();
           }));
    std::snprintf(label, sizeof label, "map READ + unmap %s", format_name(f));
    report(label, bytes, best_seconds(screen, ctx, 5, [&] {
             auto m = ctx.transfer_map(a.value(), 0, Map::READ, Box{0, 0, 0, int(n), int(n), 1});
             if (!m) return false;
             TransferHandle h = m.value();
             volatile uint8_t sink = static_cast<const uint8_t*>(h->data())[0];
             (void)sink;
             return ctx.transfer_unmap(h).is_ok();
           }));
  }
  return 0;
}
