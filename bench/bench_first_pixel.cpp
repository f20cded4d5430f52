// Create-to-first-pixel latency of new shaders: for each of a fixed sample of real fragment
// shaders from the TGSI corpus (the one tests/data unpacks into the build tree), the wall
// time from create_vs_state until the fence of its first draw signals, once with empty
// program caches (cold) and once from a new Screen that finds the programs in the disk
// cache (warm). Prints figures only.
//
//   build/bench/bench_first_pixel [--children] [--warm-up CLPIPE_VTEST] [count] [corpus]
//     (default 12 shaders from the build tree's tgsi-corpus; --children: programs build
//     in builder children, as in clpipe-vtest, with this executable as the builder;
//     --warm-up: runs `CLPIPE_VTEST --warm-cache` into the empty caches first, as the
//     README's set-up does, so that "cold" is a new shader after the set-up)
//
// The caches are folders of its own under $TMPDIR, emptied at the start: clpipe's
// (CLPIPE_CACHE_DIR) and PoCL's (POCL_CACHE_DIR, read when the OpenCL platform loads,
// so it is set before the first OpenCL call). Programs build in this process, as an
// application linking clpipe does, or with --children in builder children, which add
// their start (~0.5 s) and the compiler's first-build set-up (~1 s) to the first build.
//
// The sample: fragment shaders of passing piglit tests whose declarations this bench can
// feed (2D float textures, constants, colour outputs, generic/colour/texcoord/position/
// face inputs), every n-th in corpus order. Each gets a vertex shader made for it that
// passes IN[1] to every input the fragment shader reads, so its vertex program is new
// too. The fixed passes (clear, binning, setup) are built first, by a draw of a shader
// outside the sample, and reported apart: a new shader does not pay for them again.
#include <clpipe/clpipe.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace clpipe;
namespace fs = std::filesystem;

namespace {

[[noreturn]] void die(const std::string& what, const Status& s) {
  std::fprintf(stderr, "bench_first_pixel: %s: %s\n", what.c_str(), s.to_string().c_str());
  std::exit(1);
}

template <typename T>
T take(Result<T> r, const char* what) {
  if (!r) die(what, r.status());
  return std::move(r).value();
}

void check(const Status& s, const char* what) {
  if (!s.is_ok()) die(what, s);
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Sample {
  std::string name;  // corpus file
  std::string fs;    // its TGSI
  std::string vs;    // made for it
  int textures = 0;  // SVIEW declarations (2D, float)
};

// The vertex shader for a fragment shader whose input declarations are `inputs`
// ("GENERIC[3]", "COLOR", ...): OUT[0] = IN[0] (position), each input = IN[1].
std::string vertex_shader_for(const std::vector<std::string>& inputs) {
  std::string s = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\n";
  for (size_t i = 0; i < inputs.size(); ++i)
    s += "DCL OUT[" + std::to_string(i + 1) + "], " + inputs[i] + "\n";
  s += "  0: MOV OUT[0], IN[0]\n";
  for (size_t i = 0; i < inputs.size(); ++i)
    s += "  " + std::to_string(i + 1) + ": MOV OUT[" + std::to_string(i + 1) + "], IN[1]\n";
  return s + "  " + std::to_string(inputs.size() + 1) + ": END\n";
}

// The shader as a Sample, or false when it declares something this bench does not feed.
bool make_sample(const std::string& name, const std::string& tgsi, Sample* out) {
  static const std::regex in_decl(R"(^DCL IN\[\d+\](\.[xyzw]+)?, (\w+)(\[(\d+)\])?(, \w+)*$)");
  static const std::regex ok_decl(
      R"(^DCL (TEMP\[.*|OUT\[\d+\], COLOR(\[\d+\])?|CONST\[(0\]\[)?[\d.]+\]|SAMP\[\d+\]|)"
      R"(SVIEW\[\d+\], 2D, FLOAT|ADDR\[.*|SV\[\d+\], \w+)$)");
  std::vector<std::string> inputs;
  int textures = 0;
  std::istringstream lines(tgsi);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("DCL ", 0) != 0) continue;
    std::smatch m;
    if (std::regex_match(line, m, in_decl)) {
      const std::string sem = m[2];
      if (sem == "POSITION" || sem == "FACE") continue;  // the rasteriser's own
      if (sem != "GENERIC" && sem != "COLOR" && sem != "TEXCOORD") return false;
      inputs.push_back(sem + (m[3].matched ? "[" + std::string(m[4]) + "]" : ""));
    } else if (std::regex_match(line, ok_decl)) {
      if (line.find("SVIEW") != std::string::npos) ++textures;
    } else {
      return false;
    }
  }
  if (inputs.size() > 16) return false;
  *out = {name, tgsi, vertex_shader_for(inputs), textures};
  return true;
}

std::vector<Sample> pick(const fs::path& corpus, size_t count) {
  std::ifstream index(corpus / "index.tsv");
  if (!index) {
    std::fprintf(stderr, "bench_first_pixel: no %s\n", (corpus / "index.tsv").c_str());
    std::exit(2);
  }
  std::vector<Sample> all;
  std::string line;
  std::getline(index, line);  // header: file, stage, piglit_test, test_result, ...
  while (std::getline(index, line)) {
    std::vector<std::string> col;
    std::istringstream cells(line);
    for (std::string c; std::getline(cells, c, '\t');)
      col.push_back(c);
    if (col.size() < 4 || col[1] != "FRAG" || col[3] != "pass") continue;
    Sample s;
    if (make_sample(col[0], read_file(corpus / col[0]), &s)) all.push_back(std::move(s));
  }
  std::vector<Sample> picked;
  const size_t step = std::max<size_t>(1, all.size() / std::max<size_t>(count, 1));
  for (size_t i = step / 2; i < all.size() && picked.size() < count; i += step)
    picked.push_back(all[i]);
  return picked;
}

class Run {
 public:
  explicit Run(const ScreenOptions& options) {
    screen_ = take(Screen::create(options), "Screen::create");
    ctx_ = take(screen_->context_create(), "context_create");
    ResourceTemplate t;
    t.format = Format::R8G8B8A8_UNORM;
    t.width0 = 64;
    t.height0 = 64;
    t.bind = Bind::RENDER_TARGET | Bind::SAMPLER_VIEW;
    target_ = take(screen_->resource_create(t), "colour buffer");
    SurfaceTemplate st;
    st.format = t.format;
    FramebufferState fb;
    fb.width = fb.height = 64;
    fb.nr_cbufs = 1;
    fb.cbufs[0] = take(ctx_->create_surface(target_, st), "surface");
    check(ctx_->set_framebuffer_state(fb), "set_framebuffer_state");
    ViewportState vp;
    vp.scale[0] = vp.translate[0] = vp.scale[1] = vp.translate[1] = 32;
    vp.scale[2] = vp.translate[2] = 0.5f;
    check(ctx_->set_viewport_states(0, {vp}), "set_viewport_states");
    ctx_->bind_rasterizer_state(take(ctx_->create_rasterizer_state(RasterizerState()), "rs"));
    ctx_->bind_blend_state(take(ctx_->create_blend_state(BlendState()), "blend"));
    ctx_->bind_depth_stencil_alpha_state(
        take(ctx_->create_depth_stencil_alpha_state(DepthStencilAlphaState()), "dsa"));
    VertexElement pos, attr;
    pos.src_format = attr.src_format = Format::R32G32B32A32_FLOAT;
    attr.src_offset = 16;
    ctx_->bind_vertex_elements_state(
        take(ctx_->create_vertex_elements_state({pos, attr}), "vertex elements"));
    // One triangle over the whole framebuffer; the attribute varies over it.
    const float v[] = {-1,   -1,   0,    1, 0.1f, 0.2f, 0.3f, 1, 3,    -1,   0,    1,
                       0.9f, 0.2f, 0.5f, 1, -1,   3,    0,    1, 0.4f, 0.8f, 0.1f, 1};
    ResourceTemplate bt;
    bt.target = TextureTarget::BUFFER;
    bt.format = Format::R8_UNORM;
    bt.width0 = sizeof(v);
    bt.bind = Bind::VERTEX_BUFFER;
    ResourceRef vbuf = take(screen_->resource_create(bt), "vertex buffer");
    check(ctx_->buffer_subdata(vbuf, Map::WRITE, 0, sizeof(v), v), "upload");
    VertexBuffer vb;
    vb.stride = 32;
    vb.buffer = vbuf;
    check(ctx_->set_vertex_buffers(0, {vb}), "set_vertex_buffers");
    // Constants (zero: loops over uniform counts end at once) and up to 16 textures.
    std::vector<float> zeros(4096 * 4, 0.0f);
    ConstantBuffer cb;
    cb.user_buffer = zeros.data();
    cb.buffer_size = uint32_t(zeros.size() * sizeof(float));
    check(ctx_->set_constant_buffer(ShaderType::FRAGMENT, 0, &cb), "set_constant_buffer");
    SamplerViewTemplate vt;
    vt.format = t.format;
    std::vector<SamplerViewHandle> views(16, take(ctx_->create_sampler_view(target_, vt), "view"));
    check(ctx_->set_sampler_views(ShaderType::FRAGMENT, 0, views), "set_sampler_views");
    std::vector<SamplerHandle> samplers(16, take(ctx_->create_sampler_state(SamplerState()), "s"));
    check(ctx_->bind_sampler_states(ShaderType::FRAGMENT, 0, samplers), "bind_sampler_states");
  }

  // Milliseconds from creating the shaders to the fence of their first draw.
  double first_pixel_ms(const Sample& s) {
    const auto t0 = std::chrono::steady_clock::now();
    ShaderState st;
    st.tgsi = s.vs;
    ShaderHandle vs = take(ctx_->create_vs_state(st), "create_vs_state");
    st.tgsi = s.fs;
    ShaderHandle fs = take(ctx_->create_fs_state(st), "create_fs_state");
    check(ctx_->bind_vs_state(vs), "bind_vs_state");
    check(ctx_->bind_fs_state(fs), "bind_fs_state");
    check(ctx_->draw_vbo(DrawInfo(), 0, nullptr, {DrawStartCountBias{0, 3, 0}}), "draw_vbo");
    FenceHandle fence;
    check(ctx_->flush(&fence), "flush");
    check(screen_->fence_finish(fence, UINT64_MAX), "fence_finish");
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    check(ctx_->bind_vs_state(nullptr), "unbind");
    check(ctx_->bind_fs_state(nullptr), "unbind");
    return ms;
  }

 private:
  std::shared_ptr<Screen> screen_;
  std::unique_ptr<Context> ctx_;
  ResourceRef target_;
};

void report(const char* what, std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  const size_t n = ms.size();
  const double median = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
  std::printf("%-6s median %8.1f ms  worst %8.1f ms\n", what, median, ms.back());
}

}  // namespace

int main(int argc, char** argv) {
  program_builder_main(argc, argv);  // a builder child (--children) never returns
  ScreenOptions options;
  int arg = 1;
  if (arg < argc && std::string(argv[arg]) == "--children") {
    options.builder.executable = fs::canonical("/proc/self/exe").string();
    ++arg;
  }
  std::string warm_up;
  if (arg + 1 < argc && std::string(argv[arg]) == "--warm-up") {
    warm_up = argv[arg + 1];
    arg += 2;
  }
  size_t count = 12;
  fs::path corpus = CLPIPE_BENCH_CORPUS;
  if (arg < argc) count = size_t(std::max(1, std::atoi(argv[arg++])));
  if (arg < argc) corpus = argv[arg];
  const std::vector<Sample> samples = pick(corpus, count);
  if (samples.empty()) {
    std::fprintf(stderr, "bench_first_pixel: no usable fragment shader in %s\n", corpus.c_str());
    return 2;
  }
  const char* tmp = std::getenv("TMPDIR");
  const fs::path dir = fs::path(tmp && *tmp ? tmp : "/tmp") /
                       ("clpipe-bench-first-pixel-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "clpipe");
  fs::create_directories(dir / "pocl");
  setenv("CLPIPE_CACHE_DIR", (dir / "clpipe").c_str(), 1);
  setenv("POCL_CACHE_DIR", (dir / "pocl").c_str(), 1);
  if (!warm_up.empty()) {
    // Into the caches just set: the child inherits the environment.
    const auto start = std::chrono::steady_clock::now();
    const std::string cmd = "'" + warm_up + "' --warm-cache > /dev/null";
    if (std::system(cmd.c_str()) != 0) {
      std::fprintf(stderr, "bench_first_pixel: %s --warm-cache failed\n", warm_up.c_str());
      fs::remove_all(dir);
      return 1;
    }
    std::printf(
        "after clpipe-vtest --warm-cache (%.1f s): \"cold\" is a new shader after the "
        "set-up\n",
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }

  // The fixed passes, with a shader outside the sample (no inputs, one colour).
  Sample fixed;
  make_sample("fixed",
              "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {0.5, 0.25, 1.0, 1.0}\n"
              "  0: MOV OUT[0], IMM[0]\n  1: END\n",
              &fixed);
  std::vector<double> cold, warm;
  std::printf("programs build %s\n",
              options.builder.executable.empty() ? "in this process" : "in builder children");
  {
    Run run(options);
    std::printf("fixed passes and the first shader, cold: %.1f ms\n", run.first_pixel_ms(fixed));
    for (const Sample& s : samples)
      cold.push_back(run.first_pixel_ms(s));
  }
  std::printf("%-10s %8s %8s  textures\n", "shader", "cold ms", "warm ms");
  {
    Run run(options);
    run.first_pixel_ms(fixed);
    for (const Sample& s : samples)
      warm.push_back(run.first_pixel_ms(s));
  }
  for (size_t i = 0; i < samples.size(); ++i)
    std::printf("%-10s %8.1f %8.1f  %d\n", samples[i].name.c_str(), cold[i], warm[i],
                samples[i].textures);
  report("cold", cold);
  report("warm", warm);
  fs::remove_all(dir);
  return 0;
}
