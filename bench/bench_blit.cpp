// Throughput of Context::blit and generate_mipmap on the selected device: unscaled
// same-format blits (the raw-copy path), format conversions, nearest and linear scaling,
// a masked blit, depth, and a full mip chain. Prints figures only (Mtexel/s counts
// destination texels written).
//
//   build/bench/bench_blit [size]    (size: source width = height, default 1024)
#include <clpipe/clpipe.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>

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

void report(const char* what, double texels, double seconds) {
  if (seconds < 0) {
    std::printf("%-52s failed\n", what);
    return;
  }
  std::printf("%-52s %8.3f ms  %8.1f Mtexel/s\n", what, seconds * 1e3, texels / seconds / 1e6);
}

ResourceRef make(Screen& screen, Format f, uint32_t n, uint8_t last_level = 0) {
  ResourceTemplate t;
  t.format = f;
  t.width0 = n;
  t.height0 = uint16_t(n);
  t.last_level = last_level;
  auto r = screen.resource_create(t);
  if (!r) {
    std::fprintf(stderr, "%s\n", r.status().to_string().c_str());
    std::exit(1);
  }
  return r.value();
}

}  // namespace

int main(int argc, char** argv) {
  const uint32_t n = argc > 1 ? uint32_t(std::atoi(argv[1])) : 1024;
  auto screen_r = Screen::create();
  if (!screen_r) {
    std::fprintf(stderr, "%s\n", screen_r.status().to_string().c_str());
    return 1;
  }
  Screen& screen = *screen_r.value();
  auto ctx_r = screen.context_create();
  if (!ctx_r) return 1;
  Context& ctx = *ctx_r.value();
  std::printf("device: %s, %ux%u sources\n", screen.get_name().c_str(), n, n);

  struct Case {
    const char* name;
    Format src, dst;
    uint32_t dst_size;  // destination width = height
    TexFilter filter;
    uint32_t mask;
  };
  const uint32_t half = n / 2, dbl = n * 2 > 16384 ? n : n * 2;
  const Case cases[] = {
      {"RGBA8 -> RGBA8, unscaled (raw copy)", Format::R8G8B8A8_UNORM, Format::R8G8B8A8_UNORM, n,
       TexFilter::NEAREST, Mask::RGBA},
      {"RGBA8 -> BGRA8, unscaled", Format::R8G8B8A8_UNORM, Format::B8G8R8A8_UNORM, n,
       TexFilter::NEAREST, Mask::RGBA},
      {"RGBA8 -> RGBA16F, unscaled", Format::R8G8B8A8_UNORM, Format::R16G16B16A16_FLOAT, n,
       TexFilter::NEAREST, Mask::RGBA},
      {"RGB10A2 -> R11G11B10F, unscaled", Format::R10G10B10A2_UNORM, Format::R11G11B10_FLOAT, n,
       TexFilter::NEAREST, Mask::RGBA},
      {"RGBA8 -> RGBA8, 2x up, nearest", Format::R8G8B8A8_UNORM, Format::R8G8B8A8_UNORM, dbl,
       TexFilter::NEAREST, Mask::RGBA},
      {"RGBA8 -> RGBA8, 2x up, linear", Format::R8G8B8A8_UNORM, Format::R8G8B8A8_UNORM, dbl,
       TexFilter::LINEAR, Mask::RGBA},
      {"RGBA8_SRGB -> RGBA8_SRGB, 2x down, linear", Format::R8G8B8A8_SRGB, Format::R8G8B8A8_SRGB,
       half, TexFilter::LINEAR, Mask::RGBA},
      {"RGBA16F -> RGBA16F, 2x down, linear", Format::R16G16B16A16_FLOAT,
       Format::R16G16B16A16_FLOAT, half, TexFilter::LINEAR, Mask::RGBA},
      {"RGBA8 -> RGBA8, unscaled, mask RGB", Format::R8G8B8A8_UNORM, Format::R8G8B8A8_UNORM, n,
       TexFilter::NEAREST, Mask::R | Mask::G | Mask::B},
      {"RGBA8_UINT -> RGBA16_UINT, unscaled", Format::R8G8B8A8_UINT, Format::R16G16B16A16_UINT, n,
       TexFilter::NEAREST, Mask::RGBA},
      {"Z24S8 -> Z32F, depth, unscaled", Format::Z24_UNORM_S8_UINT, Format::Z32_FLOAT, n,
       TexFilter::NEAREST, Mask::Z},
      {"Z24S8 -> Z24S8, stencil only, unscaled", Format::Z24_UNORM_S8_UINT,
       Format::Z24_UNORM_S8_UINT, n, TexFilter::NEAREST, Mask::S},
  };
  for (const Case& c : cases) {
    ResourceRef src = make(screen, c.src, n);
    ResourceRef dst = make(screen, c.dst, c.dst_size);
    BlitInfo b;
    b.src.resource = src;
    b.src.format = c.src;
    b.src.box = Box{0, 0, 0, int32_t(n), int32_t(n), 1};
    b.dst.resource = dst;
    b.dst.format = c.dst;
    b.dst.box = Box{0, 0, 0, int32_t(c.dst_size), int32_t(c.dst_size), 1};
    b.filter = c.filter;
    b.mask = c.mask;
    const double s = best_seconds(screen, ctx, 5, [&] { return ctx.blit(b).is_ok(); });
    report(c.name, double(c.dst_size) * c.dst_size, s);
  }

  unsigned levels = 1;
  while ((n >> levels) > 0)
    ++levels;
  for (Format f : {Format::R8G8B8A8_UNORM, Format::R8G8B8A8_SRGB}) {
    ResourceRef t = make(screen, f, n, uint8_t(levels - 1));
    const double s = best_seconds(
        screen, ctx, 5, [&] { return ctx.generate_mipmap(t, f, 0, levels - 1, 0, 0).is_ok(); });
    char name[96];
    std::snprintf(name, sizeof name, "generate_mipmap %s, %u levels", format_name(f), levels);
    report(name, double(n) * n / 3.0, s);
  }
  return 0;
}
