// Throughput of texture sampling in the fragment stage: a full-screen quad textured from a
// 512x512 RGBA8 texture with a full mip chain (built by generate_mipmap), sampled with
// nearest, bilinear and trilinear filtering, at 1:1 (magnification edge) and at 2.6:1
// minification (so that trilinear blends two levels). Prints figures only.
//
//   build/bench/bench_texture [WxH] [reps] [filter]
//     (default 1024x768, best of 5 runs; filter: run the cases whose name contains it)
//
// Msamples/s counts texture samples (one per pixel); Mtexels/s the texels those samples
// read (1 nearest, 4 bilinear, 8 trilinear when two levels are blended). "cpu" is the
// process CPU time of the best run (on PoCL it includes the device's work).
#include <clpipe/clpipe.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace clpipe;

namespace {

const char* kVs =
    "VERT\n"
    "DCL IN[0]\n"
    "DCL IN[1]\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "  0: MOV OUT[0], IN[0]\n"
    "  1: MOV OUT[1], IN[1]\n"
    "  2: END\n";
const char* kFs =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
    "DCL OUT[0], COLOR\n"
    "DCL SAMP[0]\n"
    "DCL SVIEW[0], 2D, FLOAT\n"
    "  0: TEX OUT[0], IN[0], SAMP[0], 2D\n"
    "  1: END\n";

constexpr uint32_t kTexSize = 512;

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

[[noreturn]] void die(const std::string& what, const Status& s) {
  std::fprintf(stderr, "bench_texture: %s: %s\n", what.c_str(), s.to_string().c_str());
  std::exit(1);
}
void check(const Status& s, const char* what) {
  if (!s.is_ok()) die(what, s);
}
template <typename T>
T take(Result<T> r, const char* what) {
  if (!r) die(what, r.status());
  return std::move(r).value();
}

struct Bench {
  uint32_t w, h;
  int reps;
  std::shared_ptr<Screen> screen;
  std::unique_ptr<Context> ctx;
  ResourceRef color, texture, vbuf;
  std::string only;  // run the cases whose name contains this

  void finish() {
    FenceHandle fence;
    check(ctx->flush(&fence), "flush");
    check(screen->fence_finish(fence, UINT64_MAX), "fence_finish");
  }

  void setup() {
    screen = take(Screen::create(), "Screen::create");
    ctx = take(screen->context_create(), "context_create");
    ResourceTemplate t;
    t.format = Format::R8G8B8A8_UNORM;
    t.width0 = w;
    t.height0 = uint16_t(h);
    t.bind = Bind::RENDER_TARGET;
    color = take(screen->resource_create(t), "colour buffer");
    SurfaceTemplate st;
    st.format = Format::R8G8B8A8_UNORM;
    FramebufferState fb;
    fb.width = uint16_t(w);
    fb.height = uint16_t(h);
    fb.nr_cbufs = 1;
    fb.cbufs[0] = take(ctx->create_surface(color, st), "surface");
    check(ctx->set_framebuffer_state(fb), "set_framebuffer_state");
    ViewportState vp;
    vp.scale[0] = vp.translate[0] = float(w) / 2;
    vp.scale[1] = vp.translate[1] = float(h) / 2;
    vp.scale[2] = vp.translate[2] = 0.5f;
    check(ctx->set_viewport_states(0, {vp}), "set_viewport_states");
    ShaderState s;
    s.tgsi = kVs;
    check(ctx->bind_vs_state(take(ctx->create_vs_state(s), "vs")), "bind vs");
    s.tgsi = kFs;
    check(ctx->bind_fs_state(take(ctx->create_fs_state(s), "fs")), "bind fs");
    VertexElement pos, tc;
    pos.src_format = Format::R32G32_FLOAT;
    tc.src_format = Format::R32G32_FLOAT;
    tc.src_offset = 8;
    ctx->bind_vertex_elements_state(take(ctx->create_vertex_elements_state({pos, tc}), "ve"));
    ctx->bind_rasterizer_state(take(ctx->create_rasterizer_state(RasterizerState()), "rs"));
    ctx->bind_blend_state(take(ctx->create_blend_state(BlendState()), "blend"));
    ctx->bind_depth_stencil_alpha_state(
        take(ctx->create_depth_stencil_alpha_state(DepthStencilAlphaState()), "dsa"));
    // A procedural texture (rings and a checker), mipmapped on the device.
    ResourceTemplate tt;
    tt.format = Format::R8G8B8A8_UNORM;
    tt.width0 = kTexSize;
    tt.height0 = kTexSize;
    tt.last_level = 9;
    tt.bind = Bind::SAMPLER_VIEW | Bind::RENDER_TARGET;
    texture = take(screen->resource_create(tt), "texture");
    std::vector<uint8_t> texels(size_t(kTexSize) * kTexSize * 4);
    for (uint32_t y = 0; y < kTexSize; ++y) {
      for (uint32_t x = 0; x < kTexSize; ++x) {
        uint8_t* p = &texels[(size_t(y) * kTexSize + x) * 4];
        p[0] = uint8_t((x * y) >> 6);
        p[1] = ((x / 32 + y / 32) & 1) ? 230 : 40;
        p[2] = uint8_t(x ^ y);
        p[3] = 255;
      }
    }
    Box box;
    box.width = int(kTexSize);
    box.height = int(kTexSize);
    box.depth = 1;
    check(ctx->texture_subdata(texture, 0, Map::WRITE, box, texels.data(), kTexSize * 4, 0),
          "texture_subdata");
    check(ctx->generate_mipmap(texture, tt.format, 0, 9, 0, 0), "generate_mipmap");
    SamplerViewTemplate vt;
    vt.format = tt.format;
    vt.last_level = 9;
    check(ctx->set_sampler_views(ShaderType::FRAGMENT, 0,
                                 {take(ctx->create_sampler_view(texture, vt), "sampler view")}),
          "set_sampler_views");
  }

  // A full-screen quad whose texture coordinates span `repeat` texture widths.
  void set_quad(float repeat) {
    const float s = repeat * float(w) / kTexSize, t = repeat * float(h) / kTexSize;
    const float v[] = {-1, -1, 0, 0, 1, -1, s, 0, -1, 1, 0, t,
                       1,  -1, s, 0, 1, 1,  s, t, -1, 1, 0, t};
    ResourceTemplate bt;
    bt.target = TextureTarget::BUFFER;
    bt.format = Format::R8_UNORM;
    bt.width0 = sizeof(v);
    bt.bind = Bind::VERTEX_BUFFER;
    vbuf = take(screen->resource_create(bt), "vertex buffer");
    check(ctx->buffer_subdata(vbuf, Map::WRITE, 0, sizeof(v), v), "upload");
    VertexBuffer vb;
    vb.stride = 16;
    vb.buffer = vbuf;
    check(ctx->set_vertex_buffers(0, {vb}), "set_vertex_buffers");
  }

  void run(const char* name, TexFilter filter, TexMipFilter mip, float repeat, int taps) {
    if (std::string(name).find(only) == std::string::npos) return;
    SamplerState ss;
    ss.min_img_filter = ss.mag_img_filter = filter;
    ss.min_mip_filter = mip;
    check(ctx->bind_sampler_states(ShaderType::FRAGMENT, 0,
                                   {take(ctx->create_sampler_state(ss), "sampler")}),
          "bind_sampler_states");
    set_quad(repeat);
    double best = 1e30, best_cpu = 0;
    for (int r = -1; r < reps; ++r) {
      finish();
      const double c0 = cpu_seconds();
      const auto t0 = std::chrono::steady_clock::now();
      check(ctx->draw_vbo(DrawInfo(), 0, nullptr, {DrawStartCountBias{0, 6, 0}}), "draw_vbo");
      finish();
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (r >= 0 && s < best) {
        best = s;
        best_cpu = cpu_seconds() - c0;
      }
    }
    const double samples = double(w) * h;
    std::printf("%-36s %9.3f ms %9.1f Msamples/s %9.1f Mtexels/s  cpu %.1f ms\n", name, best * 1e3,
                samples / best / 1e6, samples * taps / best / 1e6, best_cpu * 1e3);
  }
};

}  // namespace

int main(int argc, char** argv) {
  // Throughput of optimised programs, from the first timed run: no quick builds first
  // (CLPIPE_QUICK_PROGRAMS, README) unless the caller asks for them.
  setenv("CLPIPE_QUICK_PROGRAMS", "off", 0);
  Bench b{1024, 768, 5, nullptr, nullptr, {}, {}, {}, {}};
  if (argc > 1 && std::sscanf(argv[1], "%ux%u", &b.w, &b.h) != 2) {
    std::fprintf(stderr, "usage: bench_texture [WxH] [reps] [filter]\n");
    return 2;
  }
  if (argc > 2) b.reps = std::max(1, std::atoi(argv[2]));
  if (argc > 3) b.only = argv[3];
  if (b.w == 0 || b.h == 0 || b.w > 8192 || b.h > 8192) {
    std::fprintf(stderr, "bench_texture: size must be 1..8192 per side\n");
    return 2;
  }
  b.setup();
  std::printf("device: %s, %ux%u RGBA8 target, 512x512 RGBA8 texture, best of %d runs\n",
              b.screen->get_name().c_str(), b.w, b.h, b.reps);
  b.run("nearest, 1:1", TexFilter::NEAREST, TexMipFilter::NONE, 1.0f, 1);
  b.run("bilinear, 1:1", TexFilter::LINEAR, TexMipFilter::NONE, 1.0f, 4);
  b.run("nearest mip nearest, 2.6:1", TexFilter::NEAREST, TexMipFilter::NEAREST, 2.6f, 1);
  b.run("bilinear mip nearest, 2.6:1", TexFilter::LINEAR, TexMipFilter::NEAREST, 2.6f, 4);
  b.run("trilinear, 2.6:1", TexFilter::LINEAR, TexMipFilter::LINEAR, 2.6f, 8);
  return 0;
}
