// libFuzzer target of the draw path (issue 17 item 7): libFuzzer's bytes choose one
// context's framebuffer, vertex and index buffers, vertex layout, rasterizer, depth,
// stencil and blend state, and up to four draws, which run through the public API on
// the real device. The vtest target (tests/vtest/fuzz) reaches the API over a fake
// screen; this one reaches what lies behind it: draw validation, vertex and index
// bounds, chunking, binning and the kernels' buffer indexing. Sizes are drawn from
// small ranges with rare huge values, so inputs stay fast and still reach the limits.
//
// The shaders are fixed (no loops), so every draw ends. A finding is a sanitizer report,
// a draw that hangs (libFuzzer's -timeout) or device memory the context did not give
// back when it ended (Screen::memory_in_use above its value before the input).
#include <fuzzer/FuzzedDataProvider.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "clpipe/clpipe.h"

using namespace clpipe;

namespace {

std::shared_ptr<Screen> g_screen;

const Format kColorFormats[] = {Format::R8G8B8A8_UNORM, Format::R32G32B32A32_FLOAT,
                                Format::B5G6R5_UNORM,   Format::R16G16B16A16_FLOAT,
                                Format::R32_UINT,       Format::R10G10B10A2_UNORM};
const Format kAttribFormats[] = {
    Format::R32G32B32A32_FLOAT, Format::R32G32B32_FLOAT, Format::R32G32_FLOAT,
    Format::R8G8B8A8_UNORM,     Format::R16G16_SNORM,    Format::R16G16B16A16_FLOAT,
    Format::R10G10B10A2_UNORM,  Format::R8_UINT,         Format::R16_SINT,
    Format::R8G8_SSCALED,       Format::R32_UINT,        Format::NONE};

const char* const kVertexShaders[] = {
    "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n"
    "  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[1]\n  2: END\n",
    // Point size and a clip distance from the attributes.
    "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n"
    "DCL OUT[2], PSIZE\nDCL OUT[3], CLIPDIST[0]\n"
    "  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[1]\n  2: MOV OUT[2], IN[1].wwww\n"
    "  3: MOV OUT[3], IN[1]\n  4: END\n"};
const char* const kFragmentShaders[] = {
    "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
    "  0: MOV OUT[0], IN[0]\n  1: END\n",
    // Discards, and writes depth.
    "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\nDCL OUT[1], POSITION\n"
    "  0: KILL_IF IN[0].xxxx\n  1: MOV OUT[0], IN[0]\n  2: MOV OUT[1].z, IN[0].yyyy\n"
    "  3: END\n",
    // Flat, and integer colour for integer targets.
    "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n"
    "  0: F2U OUT[0], IN[0]\n  1: END\n"};

// A size: mostly small, sometimes one of the edges that once overflowed.
uint32_t size_value(FuzzedDataProvider& in, uint32_t small_max) {
  static const uint32_t kEdges[] = {0,           1,           255,        256,      65535,
                                    65536,       1u << 20,    1u << 24,   1u << 26, 0x7fffffffu,
                                    0x80000000u, 0xfffffff0u, 0xffffffffu};
  if (in.ConsumeIntegralInRange<uint8_t>(0, 15) == 0) return in.PickValueInArray(kEdges);
  return in.ConsumeIntegralInRange<uint32_t>(0, small_max);
}

float float_value(FuzzedDataProvider& in) {
  static const float kEdges[] = {0.0f,
                                 -0.0f,
                                 1.0f,
                                 -1.0f,
                                 0.5f,
                                 1e30f,
                                 -1e30f,
                                 1e-30f,
                                 __builtin_inff(),
                                 -__builtin_inff(),
                                 __builtin_nanf("")};
  if (in.ConsumeBool()) return in.PickValueInArray(kEdges);
  return in.ConsumeFloatingPointInRange<float>(-4.0f, 4.0f);
}

ResourceRef make_resource(TextureTarget target, Format format, uint32_t w, uint16_t h,
                          uint32_t bind) {
  ResourceTemplate t;
  t.target = target;
  t.format = format;
  t.width0 = w;
  t.height0 = h;
  t.bind = bind;
  auto r = g_screen->resource_create(t);
  return r ? r.value() : nullptr;
}

ResourceRef make_buffer(FuzzedDataProvider& in, uint32_t bind) {
  const uint32_t bytes = in.ConsumeIntegralInRange<uint32_t>(1, 4096);
  return make_resource(TextureTarget::BUFFER, Format::R8_UNORM, bytes, 1, bind);
}

void fill(Context& ctx, const ResourceRef& buffer, FuzzedDataProvider& in, bool floats) {
  if (!buffer) return;
  const uint32_t bytes = uint32_t(buffer->size_bytes());
  std::vector<uint8_t> data(bytes);
  for (uint32_t i = 0; i + 4 <= bytes && in.remaining_bytes(); i += 4) {
    if (floats) {
      const float f = float_value(in);
      std::memcpy(&data[i], &f, 4);
    } else {
      const uint32_t v = in.ConsumeIntegralInRange<uint32_t>(0, 64);
      std::memcpy(&data[i], &v, 4);
    }
  }
  (void)ctx.buffer_subdata(buffer, Map::WRITE, 0, bytes, data.data());
}

void run(FuzzedDataProvider& in) {
  auto made = g_screen->context_create();
  if (!made) return;
  std::unique_ptr<Context> ctx = std::move(made.value());

  // Framebuffer: a colour target (and maybe depth), or none with a size of its own.
  FramebufferState fb;
  const bool attachments = in.ConsumeIntegralInRange<uint8_t>(0, 7) != 0;
  const uint32_t w = in.ConsumeIntegralInRange<uint32_t>(1, 96);
  const uint32_t h = in.ConsumeIntegralInRange<uint32_t>(1, 96);
  ResourceRef rt, zs;
  if (attachments) {
    const Format cf = in.PickValueInArray(kColorFormats);
    rt = make_resource(TextureTarget::TEXTURE_2D, cf, w, uint16_t(h), Bind::RENDER_TARGET);
    if (rt) {
      SurfaceTemplate st;
      st.format = cf;
      auto s = ctx->create_surface(rt, st);
      if (s) {
        fb.cbufs[0] = s.value();
        fb.nr_cbufs = 1;
      }
    }
    if (in.ConsumeBool()) {
      zs = make_resource(TextureTarget::TEXTURE_2D, Format::Z24_UNORM_S8_UINT, w, uint16_t(h),
                         Bind::DEPTH_STENCIL);
      SurfaceTemplate st;
      st.format = Format::Z24_UNORM_S8_UINT;
      if (zs) {
        auto s = ctx->create_surface(zs, st);
        if (s) fb.zsbuf = s.value();
      }
    }
    fb.width = uint16_t(w);
    fb.height = uint16_t(h);
  } else {
    // Past the caps' 16384 must be refused; past 1024 would only be slow to draw.
    fb.width = uint16_t(in.ConsumeBool() ? in.ConsumeIntegralInRange<uint32_t>(0, 65535) : w);
    fb.height = uint16_t(in.ConsumeBool() ? in.ConsumeIntegralInRange<uint32_t>(0, 65535) : h);
    fb.layers = in.ConsumeIntegralInRange<uint16_t>(0, 3);
  }
  const bool fb_ok = ctx->set_framebuffer_state(fb).is_ok();
  const bool draws_ok = fb_ok && (attachments || (fb.width <= 1024 && fb.height <= 1024));

  ViewportState vp;
  for (int i = 0; i < 3; ++i) {
    vp.scale[i] = float_value(in) * float(w);
    vp.translate[i] = float_value(in) * float(w);
  }
  (void)ctx->set_viewport_states(0, {vp});
  ScissorState sc;
  sc.minx = in.ConsumeIntegral<uint16_t>();
  sc.miny = in.ConsumeIntegral<uint16_t>();
  sc.maxx = in.ConsumeIntegral<uint16_t>();
  sc.maxy = in.ConsumeIntegral<uint16_t>();
  (void)ctx->set_scissor_states(0, {sc});

  ShaderState ss;
  ss.tgsi = in.PickValueInArray(kVertexShaders);
  if (auto vs = ctx->create_vs_state(ss)) (void)ctx->bind_vs_state(vs.value());
  ss.tgsi = in.PickValueInArray(kFragmentShaders);
  if (auto fs = ctx->create_fs_state(ss)) (void)ctx->bind_fs_state(fs.value());

  RasterizerState rs;
  rs.cull_face = in.ConsumeIntegralInRange<uint8_t>(0, 3);
  rs.fill_front = PolygonMode(in.ConsumeIntegralInRange<uint8_t>(0, 3));
  rs.fill_back = PolygonMode(in.ConsumeIntegralInRange<uint8_t>(0, 3));
  rs.scissor = in.ConsumeBool();
  rs.flatshade = in.ConsumeBool();
  rs.front_ccw = in.ConsumeBool();
  rs.point_size_per_vertex = in.ConsumeBool();
  rs.rasterizer_discard = in.ConsumeIntegralInRange<uint8_t>(0, 7) == 0;
  rs.offset_tri = in.ConsumeBool();
  rs.clip_plane_enable = in.ConsumeIntegral<uint8_t>();
  rs.point_size = float_value(in);
  rs.line_width = float_value(in);
  rs.offset_units = float_value(in);
  rs.offset_scale = float_value(in);
  if (auto r = ctx->create_rasterizer_state(rs)) ctx->bind_rasterizer_state(r.value());

  DepthStencilAlphaState dsa;
  dsa.depth_enabled = in.ConsumeBool();
  dsa.depth_writemask = in.ConsumeBool();
  dsa.depth_func = CompareFunc(in.ConsumeIntegralInRange<uint8_t>(0, 7));
  dsa.stencil[0].enabled = in.ConsumeBool();
  dsa.stencil[0].func = CompareFunc(in.ConsumeIntegralInRange<uint8_t>(0, 7));
  dsa.stencil[0].zpass_op = StencilOp(in.ConsumeIntegralInRange<uint8_t>(0, 7));
  dsa.alpha_enabled = in.ConsumeBool();
  dsa.alpha_func = CompareFunc(in.ConsumeIntegralInRange<uint8_t>(0, 7));
  if (auto d = ctx->create_depth_stencil_alpha_state(dsa))
    ctx->bind_depth_stencil_alpha_state(d.value());
  BlendState bs;
  bs.rt[0].blend_enable = in.ConsumeBool();
  bs.rt[0].rgb_src_factor = BlendFactor::SRC_ALPHA;
  bs.rt[0].rgb_dst_factor = BlendFactor::INV_SRC_ALPHA;
  bs.rt[0].colormask = in.ConsumeIntegralInRange<uint8_t>(0, 15);
  bs.logicop_enable = in.ConsumeIntegralInRange<uint8_t>(0, 7) == 0;
  if (auto b = ctx->create_blend_state(bs)) ctx->bind_blend_state(b.value());

  // Vertex input: up to two buffers, up to three elements with any offsets.
  std::vector<VertexBuffer> vbs(in.ConsumeIntegralInRange<size_t>(0, 2));
  for (VertexBuffer& vb : vbs) {
    vb.buffer = make_buffer(in, Bind::VERTEX_BUFFER);
    fill(*ctx, vb.buffer, in, true);
    vb.stride = size_value(in, 64);
    vb.buffer_offset = size_value(in, 64);
  }
  (void)ctx->set_vertex_buffers(0, vbs, in.ConsumeIntegralInRange<unsigned>(0, 2));
  std::vector<VertexElement> elements(in.ConsumeIntegralInRange<size_t>(1, 3));
  for (VertexElement& e : elements) {
    e.src_offset = uint16_t(size_value(in, 64));
    e.vertex_buffer_index = in.ConsumeIntegralInRange<uint8_t>(0, 2);
    e.src_format = in.PickValueInArray(kAttribFormats);
    e.instance_divisor = in.ConsumeBool() ? 0 : size_value(in, 4);
  }
  if (auto ve = ctx->create_vertex_elements_state(elements))
    ctx->bind_vertex_elements_state(ve.value());
  ResourceRef indices = in.ConsumeBool() ? make_buffer(in, Bind::INDEX_BUFFER) : nullptr;
  fill(*ctx, indices, in, false);

  // Up to four draws; vertices x instances stays under 2^18 so an input takes
  // milliseconds, except where a count alone is huge (validation must refuse or chunk).
  const int draws = in.ConsumeIntegralInRange<int>(0, 4);
  for (int i = 0; i < draws && draws_ok; ++i) {
    DrawInfo info;
    info.mode = PrimType(in.ConsumeIntegralInRange<uint8_t>(0, kPrimTypes));
    if (indices && in.ConsumeBool()) {
      static const uint8_t kSizes[] = {1, 2, 4, 3, 0};
      info.index_size = in.PickValueInArray(kSizes);
      info.index_resource = indices;
      info.index_bounds_valid = in.ConsumeBool();
      info.min_index = size_value(in, 64);
      info.max_index = size_value(in, 64);
      info.primitive_restart = in.ConsumeBool();
      info.restart_index = in.ConsumeIntegralInRange<uint32_t>(0, 8);
    }
    info.start_instance = size_value(in, 4);
    DrawStartCountBias d;
    d.start = size_value(in, 64);
    d.count = in.ConsumeIntegralInRange<uint32_t>(0, 4096);
    d.index_bias = int32_t(size_value(in, 64));
    info.instance_count = in.ConsumeIntegralInRange<uint32_t>(0, 64);
    if (uint64_t(d.count) * info.instance_count > (1u << 18)) info.instance_count = 1;
    (void)ctx->draw_vbo(info, 0, nullptr, {d});
  }
  FenceHandle fence;
  if (ctx->flush(&fence).is_ok() && fence) (void)g_screen->fence_finish(fence, UINT64_MAX);
}

}  // namespace

// LeakSanitizer at exit would report the OpenCL implementation's own allocations (PoCL
// keeps some until the process ends); device memory is checked after each input instead.
extern "C" const char* __asan_default_options() {
  return "detect_leaks=0";
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  auto s = Screen::create();
  if (!s) {
    std::fprintf(stderr, "draw fuzz: no screen: %s\n", s.status().to_string().c_str());
    std::exit(1);
  }
  g_screen = s.value();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const uint64_t before = g_screen->memory_in_use();
  {
    FuzzedDataProvider in(data, size);
    run(in);
  }
  // The OpenCL implementation may free a released buffer only when the last command
  // that used it has retired (PoCL does, on its own thread): give it a second.
  for (int i = 0; i < 100 && g_screen->memory_in_use() > before; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (g_screen->memory_in_use() > before) {
    std::fprintf(stderr, "draw fuzz: %llu bytes of device memory outlived the context\n",
                 static_cast<unsigned long long>(g_screen->memory_in_use() - before));
    std::abort();
  }
  return 0;
}
