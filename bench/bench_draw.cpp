// Throughput of draw_vbo on the selected device, with the device time of each pass
// (OpenCL profiling through Context::collect_pass_times): many tiny triangles, one-pixel
// points, medium triangles, a full-screen fill, a blended fill, both again as eight
// layers in one scene, depth overdraw drawn front to back and back to front, 500 small
// draws as direct and as indirect calls, and a draw with a read-back as round trips; then
// whole frames, the clear of colour and depth timed with the draws, once as fill passes of
// their own (clear_render_target, clear_depth_stencil) and once as `clear`, which the
// scene's tile pass applies as it loads its pixels; last, fills (one layer and eight) into
// 4-sample targets. Prints figures only.
//
//   build/bench/bench_draw [WxH] [reps] [filter]
//     (default 1024x768, 5 timed runs per case; filter: run the cases whose name
//     contains it)
//
// Each case is drawn once untimed (program builds, buffer growth), then `reps` times;
// the wall time is the best run (draw_vbo until the fence signals), the pass times are
// the mean over the runs. Mtri/s counts the triangles (or points) submitted, Mpix/s the
// pixels they cover (fragments, counting every layer of overdraw). "cpu" is the process
// CPU time of the best run: on a CPU device (PoCL) it includes the device's work and,
// unlike wall time, hardly depends on other load on the machine.
#include <clpipe/clpipe.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
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
    "  0: MOV OUT[0], IN[0]\n"
    "  1: END\n";

// Position (x, y in pixels, z in [0, 1]) and colour of a vertex; the VS reads NDC.
struct Vertex {
  float x, y, z;
  uint8_t rgba[4];
};

// User + system CPU time of this process (every thread), in seconds.
double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

[[noreturn]] void die(const std::string& what, const Status& s) {
  std::fprintf(stderr, "bench_draw: %s: %s\n", what.c_str(), s.to_string().c_str());
  std::exit(1);
}

template <typename T>
T take(Result<T> r, const char* what) {
  if (!r) die(what, r.status());
  return std::move(r).value();
}

class Bench {
 public:
  Bench(uint32_t w, uint32_t h, int reps, std::string filter)
      : w_(w), h_(h), reps_(reps), filter_(std::move(filter)) {
    screen_ = take(Screen::create(), "Screen::create");
    ctx_ = take(screen_->context_create(), "context_create");
    bind_targets(1, &color_, &depth_);
    // Identity viewport in pixels: the vertices are converted to NDC on the host.
    ViewportState vp;
    vp.scale[0] = vp.translate[0] = float(w) / 2;
    vp.scale[1] = vp.translate[1] = float(h) / 2;
    vp.scale[2] = vp.translate[2] = 0.5f;
    check(ctx_->set_viewport_states(0, {vp}), "set_viewport_states");
    ShaderState s;
    s.tgsi = kVs;
    vs_ = take(ctx_->create_vs_state(s), "vs");
    s.tgsi = kFs;
    fs_ = take(ctx_->create_fs_state(s), "fs");
    check(ctx_->bind_vs_state(vs_), "bind vs");
    check(ctx_->bind_fs_state(fs_), "bind fs");
    VertexElement pos, col;
    pos.src_format = Format::R32G32B32_FLOAT;
    col.src_format = Format::R8G8B8A8_UNORM;
    col.src_offset = offsetof(Vertex, rgba);
    ve_ = take(ctx_->create_vertex_elements_state({pos, col}), "vertex elements");
    ctx_->bind_vertex_elements_state(ve_);
    ctx_->bind_rasterizer_state(take(ctx_->create_rasterizer_state(RasterizerState()), "rs"));
    opaque_ = take(ctx_->create_blend_state(BlendState()), "blend");
    BlendState b;
    b.rt[0].blend_enable = true;
    b.rt[0].rgb_src_factor = b.rt[0].alpha_src_factor = BlendFactor::SRC_ALPHA;
    b.rt[0].rgb_dst_factor = b.rt[0].alpha_dst_factor = BlendFactor::INV_SRC_ALPHA;
    blended_ = take(ctx_->create_blend_state(b), "blend");
    no_depth_ = take(ctx_->create_depth_stencil_alpha_state(DepthStencilAlphaState()), "dsa");
    DepthStencilAlphaState z;
    z.depth_enabled = true;
    z.depth_writemask = true;
    z.depth_func = CompareFunc::LESS;
    depth_less_ = take(ctx_->create_depth_stencil_alpha_state(z), "dsa");
  }

  // Draws from here on go to colour and depth targets of n samples, rasterized at the
  // samples (round_trips still reads the single-sampled colour buffer).
  void use_samples(unsigned n) {
    bind_targets(n, &ms_color_, &ms_depth_);
    RasterizerState rs;
    rs.multisample = true;
    ctx_->bind_rasterizer_state(take(ctx_->create_rasterizer_state(rs), "rs"));
  }

  uint32_t width() const { return w_; }
  uint32_t height() const { return h_; }
  const std::string device() const { return screen_->get_name(); }

  // A vertex at pixel (x, y), depth z.
  Vertex vertex(float x, float y, float z, uint32_t rgba) const {
    Vertex v{x / float(w_) * 2 - 1, y / float(h_) * 2 - 1, z, {}};
    std::memcpy(v.rgba, &rgba, 4);
    return v;
  }

  // How a case clears colour and depth: before the timed draws, or inside the timed frame
  // as fill passes or as the clear a scene begins with.
  enum class FrameClear { kBefore, kPasses, kScene };

  // Runs one case: the triangle list `verts` (non-indexed) in `draws` draw_vbo calls of
  // equal size, covering `pixels` pixels in all; with `indirect`, each call reads its
  // range from an argument buffer (as glDrawArraysIndirect).
  void run(const char* name, const std::vector<Vertex>& verts, bool blend, bool depth,
           double pixels, uint32_t draws = 1, FrameClear clear = FrameClear::kBefore,
           bool indirect = false, PrimType mode = PrimType::TRIANGLES) {
    if (std::string(name).find(filter_) == std::string::npos) return;
    bind_vertices(verts);
    ctx_->bind_blend_state(blend ? blended_ : opaque_);
    ctx_->bind_depth_stencil_alpha_state(depth ? depth_less_ : no_depth_);
    const uint32_t count = uint32_t(verts.size());
    const uint32_t per_prim = mode == PrimType::POINTS ? 1 : 3;
    const uint32_t per_draw = count / per_prim / draws * per_prim;
    // {count, instance_count, start, start_instance} per draw.
    std::vector<uint32_t> args;
    for (uint32_t d = 0; d < draws; ++d) {
      const uint32_t start = d * per_draw, n = d + 1 == draws ? count - start : per_draw;
      args.insert(args.end(), {n, 1, start, 0});
    }
    const ResourceRef args_buf = indirect ? upload(args.data(), args.size() * 4) : ResourceRef();

    double best = 1e30, best_cpu = 0;
    std::map<std::string, double> pass_ms;
    std::vector<std::string> order;
    for (int r = -1; r < reps_; ++r) {
      const ColorUnion c{};
      const uint32_t both = Clear::COLOR0 | Clear::DEPTHSTENCIL;
      if (clear == FrameClear::kBefore) {
        check(ctx_->clear(both, nullptr, c, 1.0, 0), "clear");
        finish();
        take(ctx_->collect_pass_times(), "collect_pass_times");  // drop the clear's
      }
      const double c0 = cpu_seconds();
      const auto t0 = std::chrono::steady_clock::now();
      if (clear == FrameClear::kPasses) {
        check(ctx_->clear_render_target(cbuf_, c, 0, 0, w_, h_, false), "clear_render_target");
        check(ctx_->clear_depth_stencil(zsbuf_, Clear::DEPTHSTENCIL, 1.0, 0, 0, 0, w_, h_, false),
              "clear_depth_stencil");
      } else if (clear == FrameClear::kScene) {
        check(ctx_->clear(both, nullptr, c, 1.0, 0), "clear");
      }
      for (uint32_t d = 0; d < draws; ++d) {
        DrawIndirectInfo ind;
        ind.buffer = args_buf;
        ind.offset = d * 16;
        const DrawStartCountBias range{args[d * 4 + 2], args[d * 4], 0};
        DrawInfo info;
        info.mode = mode;
        check(ctx_->draw_vbo(info, 0, indirect ? &ind : nullptr, {range}), "draw_vbo");
      }
      finish();
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const double cpu = cpu_seconds() - c0;
      const std::vector<PassTime> times = take(ctx_->collect_pass_times(), "collect_pass_times");
      if (r < 0) continue;  // warm-up
      if (s < best) {
        best = s;
        best_cpu = cpu;
      }
      for (const PassTime& p : times) {
        if (!pass_ms.count(p.pass)) order.push_back(p.pass);
        pass_ms[p.pass] += double(p.device_ns) / 1e6 / reps_;
      }
    }
    const double tris = count / per_prim;
    std::printf("%-34s %9.3f ms %9.2f Mtri/s %9.1f Mpix/s  cpu %.1f ms\n", name, best * 1e3,
                tris / best / 1e6, pixels / best / 1e6, best_cpu * 1e3);
    std::printf("%-34s", "  device ms per pass:");
    for (const std::string& p : order)
      std::printf(" %s %.3f", p.c_str(), pass_ms[p]);
    std::printf("\n");
  }

  // Draw, then read one pixel back, `n` times: what a program that reads back after each
  // draw (most piglit tests' probes, Mesa's readpixels through virpipe) pays per scene.
  void round_trips(const char* name, uint32_t n) {
    if (std::string(name).find(filter_) == std::string::npos) return;
    const std::vector<Vertex> verts = {
        vertex(0, 0, 0.5f, 0xff3060a0u),   vertex(16, 0, 0.5f, 0xff3060a0u),
        vertex(0, 16, 0.5f, 0xff3060a0u),  vertex(16, 0, 0.5f, 0xff3060a0u),
        vertex(16, 16, 0.5f, 0xff3060a0u), vertex(0, 16, 0.5f, 0xff3060a0u)};
    bind_vertices(verts);
    ctx_->bind_blend_state(opaque_);
    ctx_->bind_depth_stencil_alpha_state(no_depth_);
    double best = 1e30, best_cpu = 0;
    uint32_t pixel = 0;
    for (int r = -1; r < reps_; ++r) {
      const double c0 = cpu_seconds();
      const auto t0 = std::chrono::steady_clock::now();
      for (uint32_t i = 0; i < n; ++i) {
        check(ctx_->draw_vbo(DrawInfo(), 0, nullptr, {DrawStartCountBias{0, 6, 0}}), "draw_vbo");
        Box box;
        box.width = box.height = box.depth = 1;
        TransferHandle tr = take(ctx_->transfer_map(color_, 0, Map::READ, box), "transfer_map");
        std::memcpy(&pixel, tr->data(), 4);
        check(ctx_->transfer_unmap(tr), "transfer_unmap");
      }
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const double cpu = cpu_seconds() - c0;
      take(ctx_->collect_pass_times(), "collect_pass_times");
      if (r >= 0 && s < best) {
        best = s;
        best_cpu = cpu;
      }
    }
    if (pixel != 0xff3060a0u) std::fprintf(stderr, "bench_draw: %s read 0x%08x\n", name, pixel);
    std::printf("%-34s %9.3f ms per round trip  cpu %.3f ms\n", name, best * 1e3 / n,
                best_cpu * 1e3 / n);
  }

 private:
  // Makes RGBA8 colour and Z24S8 depth targets of the bench's size with `samples`
  // samples (1: single-sampled) and binds them as the framebuffer (cbuf_, zsbuf_).
  void bind_targets(unsigned samples, ResourceRef* color, ResourceRef* depth) {
    ResourceTemplate t;
    t.format = Format::R8G8B8A8_UNORM;
    t.width0 = w_;
    t.height0 = uint16_t(h_);
    if (samples > 1) t.nr_samples = t.nr_storage_samples = uint8_t(samples);
    t.bind = Bind::RENDER_TARGET;
    *color = take(screen_->resource_create(t), "colour buffer");
    t.format = Format::Z24_UNORM_S8_UINT;
    t.bind = Bind::DEPTH_STENCIL;
    *depth = take(screen_->resource_create(t), "depth buffer");
    SurfaceTemplate st;
    st.format = Format::R8G8B8A8_UNORM;
    FramebufferState fb;
    fb.width = uint16_t(w_);
    fb.height = uint16_t(h_);
    fb.nr_cbufs = 1;
    fb.cbufs[0] = cbuf_ = take(ctx_->create_surface(*color, st), "surface");
    st.format = Format::Z24_UNORM_S8_UINT;
    fb.zsbuf = zsbuf_ = take(ctx_->create_surface(*depth, st), "surface");
    check(ctx_->set_framebuffer_state(fb), "set_framebuffer_state");
  }

  // A new buffer holding `bytes` bytes of `data`.
  ResourceRef upload(const void* data, size_t bytes) {
    ResourceTemplate t;
    t.target = TextureTarget::BUFFER;
    t.format = Format::R8_UNORM;
    t.width0 = uint32_t(bytes);
    t.bind = Bind::VERTEX_BUFFER;
    ResourceRef buf = take(screen_->resource_create(t), "buffer");
    check(ctx_->buffer_subdata(buf, Map::WRITE, 0, t.width0, data), "upload");
    return buf;
  }
  // Uploads `verts` into a new vertex buffer and binds it as buffer 0.
  void bind_vertices(const std::vector<Vertex>& verts) {
    ResourceRef vbuf = upload(verts.data(), verts.size() * sizeof(Vertex));
    VertexBuffer vb;
    vb.stride = sizeof(Vertex);
    vb.buffer = vbuf;
    check(ctx_->set_vertex_buffers(0, {vb}), "set_vertex_buffers");
  }
  void check(const Status& s, const char* what) {
    if (!s.is_ok()) die(what, s);
  }
  void finish() {
    FenceHandle fence;
    check(ctx_->flush(&fence), "flush");
    check(screen_->fence_finish(fence, UINT64_MAX), "fence_finish");
  }

  uint32_t w_, h_;
  int reps_;
  std::string filter_;
  std::shared_ptr<Screen> screen_;
  std::unique_ptr<Context> ctx_;
  ResourceRef color_, depth_;
  ResourceRef ms_color_, ms_depth_;  // use_samples
  SurfaceHandle cbuf_, zsbuf_;
  ShaderHandle vs_, fs_;
  VertexElementsHandle ve_;
  BlendHandle opaque_, blended_;
  DepthStencilAlphaHandle no_depth_, depth_less_;
};

// Two triangles per cell of `cell` x `cell` pixels over [0, cols*cell) x [0, rows*cell).
std::vector<Vertex> grid(const Bench& b, uint32_t cols, uint32_t rows, float cell) {
  std::vector<Vertex> v;
  v.reserve(size_t(cols) * rows * 6);
  for (uint32_t j = 0; j < rows; ++j) {
    for (uint32_t i = 0; i < cols; ++i) {
      const float x = float(i) * cell, y = float(j) * cell;
      const uint32_t c = 0xff000000u | (i * 37 % 256) << 8 | (j * 53 % 256);
      v.push_back(b.vertex(x, y, 0.5f, c));
      v.push_back(b.vertex(x + cell, y, 0.5f, c));
      v.push_back(b.vertex(x, y + cell, 0.5f, c));
      v.push_back(b.vertex(x + cell, y, 0.5f, c ^ 0xffu));
      v.push_back(b.vertex(x + cell, y + cell, 0.5f, c ^ 0xffu));
      v.push_back(b.vertex(x, y + cell, 0.5f, c ^ 0xffu));
    }
  }
  return v;
}

// One-pixel points on the pixel centres of [0, cols) x [0, rows).
std::vector<Vertex> dots(const Bench& b, uint32_t cols, uint32_t rows) {
  std::vector<Vertex> v;
  v.reserve(size_t(cols) * rows);
  for (uint32_t j = 0; j < rows; ++j) {
    for (uint32_t i = 0; i < cols; ++i)
      v.push_back(b.vertex(float(i) + 0.5f, float(j) + 0.5f, 0.5f,
                           0xff000000u | (i * 37 % 256) << 8 | (j * 53 % 256)));
  }
  return v;
}

// Full-framebuffer quads (two triangles each) at the depths given, in order.
std::vector<Vertex> layers(const Bench& b, const std::vector<float>& depths, uint32_t rgba) {
  std::vector<Vertex> v;
  const float w = float(b.width()), h = float(b.height());
  for (float z : depths) {
    for (auto [x, y] : {std::pair<float, float>{0, 0}, {w, 0}, {0, h}, {w, 0}, {w, h}, {0, h}})
      v.push_back(b.vertex(x, y, z, rgba));
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  // Throughput of optimised programs, from the first timed run: no quick builds first
  // (CLPIPE_QUICK_PROGRAMS, README) unless the caller asks for them.
  setenv("CLPIPE_QUICK_PROGRAMS", "off", 0);
  uint32_t w = 1024, h = 768;
  int reps = 5;
  if (argc > 1 && std::sscanf(argv[1], "%ux%u", &w, &h) != 2) {
    std::fprintf(stderr, "usage: bench_draw [WxH] [reps] [filter]\n");
    return 2;
  }
  if (argc > 2) reps = std::max(1, std::atoi(argv[2]));
  const std::string filter = argc > 3 ? argv[3] : "";
  if (w == 0 || h == 0 || w > 8192 || h > 8192) {
    std::fprintf(stderr, "bench_draw: size must be 1..8192 per side\n");
    return 2;
  }
  // Per-pass device times come from the queue's profiling (read when a context is made).
  setenv("CLPIPE_PROFILE", "1", 1);
  Bench b(w, h, reps, filter);
  std::printf("device: %s, %ux%u RGBA8 + Z24S8, best of %d runs\n", b.device().c_str(), w, h, reps);
  const double full = double(w) * h;

  // ~100k triangles of 2 pixels: 2x2-pixel cells (two triangles each) over a block.
  {
    const uint32_t cols = std::min<uint32_t>(w / 2, 250), rows = std::min<uint32_t>(h / 2, 200);
    b.run("tiny triangles (2 px)", grid(b, cols, rows, 2), false, false, cols * rows * 4.0);
  }
  // ~100k one-pixel points (what piglit's texelFetch tests draw, a point per texel).
  {
    const uint32_t cols = std::min<uint32_t>(w, 500), rows = std::min<uint32_t>(h, 200);
    b.run("points (1 px)", dots(b, cols, rows), false, false, cols * rows * 1.0, 1,
          Bench::FrameClear::kBefore, false, PrimType::POINTS);
  }
  {
    const uint32_t cols = w / 16, rows = h / 16;
    b.run("medium triangles (128 px)", grid(b, cols, rows, 16), false, false, cols * rows * 256.0);
  }
  b.run("full-screen fill", layers(b, {0.5f}, 0xff3060a0u), false, false, full);
  b.run("blended fill", layers(b, {0.5f}, 0x803060a0u), true, false, full);
  std::vector<float> depths;
  for (int i = 0; i < 8; ++i)
    depths.push_back(0.1f + 0.1f * float(i));
  // Eight layers in one scene, as glbench's fill and blend draw them: the per-layer cost
  // of the tile pass without its once-per-tile load and store.
  b.run("opaque fill x8", layers(b, depths, 0xff3060a0u), false, false, 8 * full);
  b.run("blended fill x8", layers(b, depths, 0x803060a0u), true, false, 8 * full);
  b.run("depth overdraw x8, front to back", layers(b, depths, 0xff20c040u), false, true, 8 * full);
  std::reverse(depths.begin(), depths.end());
  b.run("depth overdraw x8, back to front", layers(b, depths, 0xff20c040u), false, true, 8 * full);
  // The fixed cost of a draw_vbo call: 500 draws of two 16x16-pixel triangles each.
  b.run("500 draws of 2 triangles (256 px)", grid(b, std::min<uint32_t>(w / 16, 50), 10, 16), false,
        false, std::min<uint32_t>(w / 16, 50) * 10 * 256.0, std::min<uint32_t>(w / 16, 50) * 10);
  // The same draws as indirect draws: each reads its range from a buffer.
  b.run("500 indirect draws of 2 triangles", grid(b, std::min<uint32_t>(w / 16, 50), 10, 16), false,
        false, std::min<uint32_t>(w / 16, 50) * 10 * 256.0, std::min<uint32_t>(w / 16, 50) * 10,
        Bench::FrameClear::kBefore, true);
  // A scene per draw: 200 times a draw of 256 pixels and a read of one pixel.
  b.round_trips("round trips: draw + read 1 pixel", 200);
  // Whole frames: the clear timed with the draws, as passes of its own or in the scene.
  using FC = Bench::FrameClear;
  std::reverse(depths.begin(), depths.end());
  for (FC c : {FC::kPasses, FC::kScene}) {
    const bool passes = c == FC::kPasses;
    b.run(passes ? "frame: clear as passes + fill" : "frame: clear in scene + fill",
          layers(b, {0.5f}, 0xff3060a0u), false, true, full, 1, c);
    b.run(passes ? "frame: clear as passes + overdraw x8" : "frame: clear in scene + overdraw x8",
          layers(b, depths, 0xff20c040u), false, true, 8 * full, 1, c);
    b.run(passes ? "frame: clear as passes + 500 draws" : "frame: clear in scene + 500 draws",
          grid(b, std::min<uint32_t>(w / 16, 50), 10, 16), false, true,
          std::min<uint32_t>(w / 16, 50) * 10 * 256.0, std::min<uint32_t>(w / 16, 50) * 10, c);
  }
  // Multisampling: the fills again into 4-sample targets (Mpix/s counts pixels, not
  // samples), against the single-sampled cases above.
  b.use_samples(4);
  b.run("4x MSAA full-screen fill", layers(b, {0.5f}, 0xff3060a0u), false, false, full);
  b.run("4x MSAA blended fill", layers(b, {0.5f}, 0x803060a0u), true, false, full);
  std::sort(depths.begin(), depths.end());
  b.run("4x MSAA opaque fill x8", layers(b, depths, 0xff3060a0u), false, false, 8 * full);
  b.run("4x MSAA blended fill x8", layers(b, depths, 0x803060a0u), true, false, 8 * full);
  b.run("4x MSAA medium triangles (128 px)", grid(b, w / 16, h / 16, 16), false, false,
        (w / 16) * (h / 16) * 256.0);
  return 0;
}
