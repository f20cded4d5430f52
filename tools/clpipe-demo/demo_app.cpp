// clpipe-demo's driver (see demo_app.h): options, the frame loop with its timing, the
// optional per-pass profile ($CLPIPE_PROFILE=1), and the PNG output.
#include "demo_app.h"

#include <chrono>
#include <cstdint>
#include <cstdlib>

#include <clpipe/clpipe.h>

#include "demo_scene.h"
#include "png_writer.h"

namespace clpipe::demo {

namespace {

struct Options {
  std::string out = "clpipe-demo.png";
  uint32_t width = 800, height = 600;
  int frames = 3;
};

constexpr const char* kUsage =
    "usage: clpipe-demo [--out FILE.png] [--size WxH] [--frames N]\n"
    "  Renders the demo scene through clpipe on the OpenCL device ($CLPIPE_DEVICE selects\n"
    "  one) and writes the last frame as a PNG. Defaults: --out clpipe-demo.png,\n"
    "  --size 800x600, --frames 3. $CLPIPE_PROFILE=1 adds device time per pass.\n";

// Parses a decimal number in [lo, hi]; false if `s` is anything else.
bool parse_uint(const std::string& s, uint32_t lo, uint32_t hi, uint32_t* v) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) {
    return false;
  }
  const unsigned long n = std::strtoul(s.c_str(), nullptr, 10);
  if (n < lo || n > hi) return false;
  *v = uint32_t(n);
  return true;
}

// The largest framebuffer side the demo accepts (a 16-bit framebuffer size, and far
// more than a demo needs).
constexpr uint32_t kMaxSide = 8192;

bool parse_options(const std::vector<std::string>& args, Options* o, std::string* error) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    if (a == "--out" && has_value) {
      o->out = args[++i];
    } else if (a == "--size" && has_value) {
      const std::string& v = args[++i];
      const size_t x = v.find('x');
      if (x == std::string::npos || !parse_uint(v.substr(0, x), 1, kMaxSide, &o->width) ||
          !parse_uint(v.substr(x + 1), 1, kMaxSide, &o->height)) {
        *error =
            "--size wants WxH with each side 1.." + std::to_string(kMaxSide) + ", not '" + v + "'";
        return false;
      }
    } else if (a == "--frames" && has_value) {
      uint32_t n = 0;
      if (!parse_uint(args[++i], 1, 100000, &n)) {
        *error = "--frames wants a number 1..100000, not '" + args[i] + "'";
        return false;
      }
      o->frames = int(n);
    } else {
      *error = has_value || a.rfind("--", 0) != 0 ? "unknown argument '" + a + "'"
                                                  : "missing value after '" + a + "'";
      return false;
    }
  }
  if (o->out.empty()) {
    *error = "--out needs a file name";
    return false;
  }
  return true;
}

void print_profile(Context& ctx, int frames, std::FILE* out) {
  Result<std::vector<PassTime>> times = ctx.collect_pass_times();
  if (!times || times.value().empty()) return;
  std::fprintf(out, "device time per pass, mean of %d frame(s):\n", frames);
  for (const PassTime& p : times.value()) {
    std::fprintf(out, "  %-8s %6.1f launches %9.3f ms\n", p.pass.c_str(),
                 double(p.launches) / frames, double(p.device_ns) / 1e6 / frames);
  }
}

}  // namespace

int run_demo(const std::vector<std::string>& args, std::FILE* out, std::FILE* err,
             const std::string& builder) {
  Options o;
  std::string error;
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, out);
      return 0;
    }
  }
  if (!parse_options(args, &o, &error)) {
    std::fprintf(err, "clpipe-demo: %s\n%s", error.c_str(), kUsage);
    return 2;
  }
  ScreenOptions screen_options;
  screen_options.builder.executable = builder;
  Result<std::shared_ptr<Screen>> screen_r = Screen::create(screen_options);
  if (!screen_r) {
    std::fprintf(err, "clpipe-demo: %s\n", screen_r.status().to_string().c_str());
    return 1;
  }
  Screen& screen = *screen_r.value();
  Result<std::unique_ptr<Context>> ctx_r = screen.context_create();
  if (!ctx_r) {
    std::fprintf(err, "clpipe-demo: %s\n", ctx_r.status().to_string().c_str());
    return 1;
  }
  Context& ctx = *ctx_r.value();
  std::fprintf(out, "device: %s\n", screen.get_name().c_str());
  try {
    DemoScene scene(screen, ctx, o.width, o.height);
    std::fprintf(out, "scene: %ux%u, %llu triangles per frame\n", o.width, o.height,
                 static_cast<unsigned long long>(scene.triangles_per_frame()));
    double total_after_first = 0;
    for (int f = 0; f < o.frames; ++f) {
      const auto t0 = std::chrono::steady_clock::now();
      scene.render(f);
      FenceHandle fence;
      Status s = ctx.flush(&fence);
      if (s.is_ok()) s = screen.fence_finish(fence, UINT64_MAX);
      if (!s.is_ok()) throw DemoError("flush: " + s.to_string());
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (f > 0) total_after_first += ms;
      // Programs are built (or loaded from the program cache) during the first frame.
      std::fprintf(out, "frame %d: %.1f ms%s\n", f, ms,
                   f == 0 ? " (includes building or loading the programs)" : "");
      std::fflush(out);
    }
    if (o.frames > 1) {
      std::fprintf(out, "mean of frames 1..%d: %.1f ms\n", o.frames - 1,
                   total_after_first / (o.frames - 1));
    }
    print_profile(ctx, o.frames, out);
    const std::vector<uint8_t> rgb = scene.read_rgb();
    const std::vector<uint8_t> png = encode_png_rgb(rgb.data(), o.width, o.height);
    if (!write_file(o.out, png, &error)) throw DemoError(error);
    std::fprintf(out, "wrote %s (%ux%u PNG, %zu bytes)\n", o.out.c_str(), o.width, o.height,
                 png.size());
  } catch (const std::exception& e) {
    std::fprintf(err, "clpipe-demo: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace clpipe::demo
