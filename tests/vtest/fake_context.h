// A fake clpipe Context for the vtest tests (see fake_screen.h): records every call with
// its decoded values, checks every argument against the API's rules (violations), and
// really moves bytes for transfers (subdata writes, transfer_map reads) so that layouts
// can be checked end to end. Opaque CSO handles point at fake objects through
// shared_ptr's aliasing constructor; the decoder never dereferences them.
#pragma once

#include "vtest/fake_screen.h"

namespace clpipe::vtest_fake {

template <typename State>
struct FakeCso : Counted {
  FakeCso(FakeLogRef l, State s) : Counted(std::move(l)), state(std::move(s)) {}
  State state;
};

struct FakeShader : Counted {
  FakeShader(FakeLogRef l, ShaderType t, std::string text)
      : Counted(std::move(l)), type(t), tgsi(std::move(text)) {}
  ShaderType type;
  std::string tgsi;
  StreamOutputInfo so;
};

struct FakeQuery : Counted {
  FakeQuery(FakeLogRef l, QueryType t) : Counted(std::move(l)), type(t) {}
  QueryType type;
  int polls = 0;
};

// Opaque handle -> fake object and back.
template <typename Opaque, typename Fake>
std::shared_ptr<Opaque> wrap(std::shared_ptr<Fake> f) {
  Opaque* p = reinterpret_cast<Opaque*>(f.get());
  return std::shared_ptr<Opaque>(std::move(f), p);
}
template <typename Fake, typename Opaque>
Fake* unwrap(const std::shared_ptr<Opaque>& h) {
  return reinterpret_cast<Fake*>(h.get());
}
// Ids of opaque handles (CSOs, shaders, queries); views and surfaces use vid() below.
template <typename Opaque>
std::string oid(const std::shared_ptr<Opaque>& h) {
  return h ? "#" + std::to_string(unwrap<Counted>(h)->id) : std::string("null");
}

struct FakeView : SamplerView, Counted {
  FakeView(FakeLogRef l, ResourceRef r, const SamplerViewTemplate& t)
      : SamplerView(std::move(r), t), Counted(std::move(l)) {}
};
struct FakeSurface : Surface, Counted {
  FakeSurface(FakeLogRef l, ResourceRef r, const SurfaceTemplate& t, uint32_t w, uint32_t h)
      : Surface(std::move(r), t, w, h), Counted(std::move(l)) {}
};
struct FakeSoTarget : StreamOutputTarget, Counted {
  FakeSoTarget(FakeLogRef l, ResourceRef r, uint32_t o, uint32_t s)
      : StreamOutputTarget(std::move(r), o, s), Counted(std::move(l)) {}
};
struct FakeTransfer : Transfer {
  FakeTransfer(ResourceRef r, unsigned level, uint32_t usage, const Box& b)
      : Transfer(r, level, usage, b) {
    FakeResource* f = fake(resource_);
    data_ = f->at(level, uint32_t(b.x), uint32_t(b.y), uint32_t(b.z));
    stride_ = f->level_row_pitch(level);
    layer_stride_ = f->level_layer_pitch(level);
  }
};
struct FakeFence : Fence {};

inline std::string vid(const SurfaceHandle& h) {
  return h ? "#" + std::to_string(static_cast<FakeSurface*>(h.get())->id) : std::string("null");
}
inline std::string vid(const SamplerViewHandle& h) {
  return h ? "#" + std::to_string(static_cast<FakeView*>(h.get())->id) : std::string("null");
}

class FakeContext : public Context {
 public:
  FakeContext(FakeScreen& s, FakeLogRef l) : screen_(s), log_(std::move(l)) {
    ++log_->live_contexts;
  }
  ~FakeContext() override { --log_->live_contexts; }
  Screen& screen() override { return screen_; }

  template <typename Opaque, typename State>
  Result<std::shared_ptr<Opaque>> cso(const char* what, const State& s) {
    auto f = std::make_shared<FakeCso<State>>(log_, s);
    log_->record(s);
    log_->call("create_", what, " #", f->id);
    return wrap<Opaque>(f);
  }
  template <typename Opaque>
  void bind(const char* what, const std::shared_ptr<Opaque>& h) {
    log_->call("bind_", what, " ", oid(h));
  }
  bool check(bool ok, const char* what) {
    if (!ok) log_->violation(what);
    return ok;
  }

  Result<BlendHandle> create_blend_state(const BlendState& s) override {
    for (const RtBlendState& rt : s.rt)
      if (rt.blend_enable)
        check(int(rt.rgb_func) <= 4 && int(rt.alpha_func) <= 4 && valid(rt.rgb_src_factor) &&
                  valid(rt.rgb_dst_factor) && valid(rt.alpha_src_factor) &&
                  valid(rt.alpha_dst_factor),
              "blend state with invalid enums");
    return cso<BlendCso>("blend", s);
  }
  void bind_blend_state(const BlendHandle& h) override { bind("blend", h); }
  Result<DepthStencilAlphaHandle> create_depth_stencil_alpha_state(
      const DepthStencilAlphaState& s) override {
    return cso<DepthStencilAlphaCso>("dsa", s);
  }
  void bind_depth_stencil_alpha_state(const DepthStencilAlphaHandle& h) override { bind("dsa", h); }
  Result<RasterizerHandle> create_rasterizer_state(const RasterizerState& s) override {
    check(int(s.fill_front) <= 3 && int(s.fill_back) <= 3 && s.cull_face <= 3, "rasterizer enums");
    return cso<RasterizerCso>("rasterizer", s);
  }
  void bind_rasterizer_state(const RasterizerHandle& h) override { bind("rasterizer", h); }
  Result<SamplerHandle> create_sampler_state(const SamplerState& s) override {
    check(int(s.min_img_filter) <= 1 && int(s.mag_img_filter) <= 1 && int(s.min_mip_filter) <= 2,
          "sampler filters");
    return cso<SamplerCso>("sampler", s);
  }
  Status bind_sampler_states(ShaderType t, unsigned start,
                             const std::vector<SamplerHandle>& s) override {
    check(start + s.size() <= kMaxSamplers, "bind_sampler_states range");
    log_->call("bind_sampler_states stage=", int(t), " start=", start, " n=", s.size());
    return Status::ok();
  }
  Result<VertexElementsHandle> create_vertex_elements_state(
      const std::vector<VertexElement>& e) override {
    check(e.size() <= kMaxAttribs, "too many vertex elements");
    for (const VertexElement& v : e)
      check(format_is_valid(v.src_format) && v.vertex_buffer_index < kMaxVertexBuffers,
            "vertex element");
    return cso<VertexElementsCso>("vertex_elements", e);
  }
  void bind_vertex_elements_state(const VertexElementsHandle& h) override {
    bind("vertex_elements", h);
  }

  Result<ShaderHandle> shader(ShaderType t, const ShaderState& s) {
    for (const StreamOutput& o : s.stream_output.output)
      check(o.num_components >= 1 && o.start_component + o.num_components <= 4 &&
                o.output_buffer < kMaxSoBuffers,
            "stream output");
    if (s.tgsi.find("FAIL_COMPILE") != std::string::npos)
      return Status(ErrorCode::kCompileError, "1:1: fake compile error");
    auto f = std::make_shared<FakeShader>(log_, t, s.tgsi);
    f->so = s.stream_output;
    log_->stream_outputs.push_back(s.stream_output);
    log_->call("create_shader stage=", int(t), " #", f->id, " bytes=", s.tgsi.size());
    log_->shader_texts.emplace_back(int(t), s.tgsi);
    return wrap<Shader>(f);
  }
  Result<ShaderHandle> create_vs_state(const ShaderState& s) override {
    return shader(ShaderType::VERTEX, s);
  }
  Result<ShaderHandle> create_fs_state(const ShaderState& s) override {
    return shader(ShaderType::FRAGMENT, s);
  }
  Result<ShaderHandle> create_gs_state(const ShaderState& s) override {
    return shader(ShaderType::GEOMETRY, s);
  }
  Result<ShaderHandle> create_tcs_state(const ShaderState& s) override {
    return shader(ShaderType::TESS_CTRL, s);
  }
  Result<ShaderHandle> create_tes_state(const ShaderState& s) override {
    return shader(ShaderType::TESS_EVAL, s);
  }
  Status bind_stage(ShaderType t, const ShaderHandle& h) {
    if (h) check(unwrap<FakeShader>(h)->type == t, "shader bound to the wrong stage");
    log_->call("bind_shader stage=", int(t), " ", oid(h));
    return Status::ok();
  }
  Status bind_vs_state(const ShaderHandle& h) override { return bind_stage(ShaderType::VERTEX, h); }
  Status bind_fs_state(const ShaderHandle& h) override {
    return bind_stage(ShaderType::FRAGMENT, h);
  }
  Status bind_gs_state(const ShaderHandle& h) override {
    return bind_stage(ShaderType::GEOMETRY, h);
  }
  Status bind_tcs_state(const ShaderHandle& h) override {
    return bind_stage(ShaderType::TESS_CTRL, h);
  }
  Status bind_tes_state(const ShaderHandle& h) override {
    return bind_stage(ShaderType::TESS_EVAL, h);
  }
  Result<ComputeHandle> create_compute_state(const ComputeState& s) override {
    auto f = std::make_shared<FakeShader>(log_, ShaderType::COMPUTE, s.tgsi);
    log_->call("create_shader stage=5 #", f->id, " bytes=", s.tgsi.size());
    log_->shader_texts.emplace_back(5, s.tgsi);
    return wrap<ComputeShader>(f);
  }
  void bind_compute_state(const ComputeHandle& h) override {
    log_->call("bind_shader stage=5 ", oid(h));
  }

  void set_blend_color(const BlendColor&) override { log_->call("set_blend_color"); }
  void set_stencil_ref(const StencilRef& r) override {
    log_->call("set_stencil_ref ", int(r.ref_value[0]), " ", int(r.ref_value[1]));
  }
  void set_sample_mask(uint32_t m) override { log_->call("set_sample_mask 0x", std::hex, m); }
  void set_min_samples(unsigned n) override { log_->call("set_min_samples ", n); }
  Status get_sample_position(unsigned n, unsigned i, float out[2]) const override {
    log_->call("get_sample_position ", n, " ", i);
    out[0] = out[1] = 0.5f;
    return Status::ok();
  }
  void set_clip_state(const ClipState&) override { log_->call("set_clip_state"); }
  void set_polygon_stipple(const PolyStipple&) override { log_->call("set_polygon_stipple"); }
  Status set_scissor_states(unsigned start, const std::vector<ScissorState>& s) override {
    check(start + s.size() <= kMaxViewports, "scissor range");
    log_->call("set_scissor_states start=", start, " n=", s.size());
    return Status::ok();
  }
  Status set_viewport_states(unsigned start, const std::vector<ViewportState>& v) override {
    check(start + v.size() <= kMaxViewports, "viewport range");
    log_->call("set_viewport_states start=", start, " n=", v.size(),
               " scale=", v.empty() ? 0.0f : v[0].scale[0], ",", v.empty() ? 0.0f : v[0].scale[1]);
    return Status::ok();
  }
  Status set_framebuffer_state(const FramebufferState& fb) override {
    check(fb.nr_cbufs <= kMaxColorBufs, "framebuffer nr_cbufs");
    log_->framebuffers.push_back(fb);
    std::string cbufs;
    for (unsigned i = 0; i < fb.nr_cbufs; ++i)
      cbufs += " " + vid(fb.cbufs[i]);
    log_->call("set_framebuffer_state ", fb.width, "x", fb.height, " zs=", vid(fb.zsbuf),
               " cbufs=[", cbufs, " ]");
    return Status::ok();
  }
  Status set_vertex_buffers(unsigned start, const std::vector<VertexBuffer>& b,
                            unsigned trailing) override {
    check(start + b.size() + trailing <= kMaxVertexBuffers, "vertex buffer range");
    std::string s;
    for (const VertexBuffer& v : b)
      s += " {" + std::to_string(v.stride) + "," + std::to_string(v.buffer_offset) + "," +
           rid(v.buffer) + "}";
    log_->call("set_vertex_buffers start=", start, s, " unbind=", trailing);
    return Status::ok();
  }
  Status set_constant_buffer(ShaderType t, unsigned index, const ConstantBuffer* cb) override {
    check(index < kMaxConstantBuffers, "constant buffer index");
    if (cb && cb->user_buffer)
      log_->last_constants.assign(static_cast<const uint8_t*>(cb->user_buffer),
                                  static_cast<const uint8_t*>(cb->user_buffer) + cb->buffer_size);
    log_->call("set_constant_buffer stage=", int(t), " index=", index, " ",
               !cb          ? std::string("null")
               : cb->buffer ? "res " + rid(cb->buffer)
                            : "user",
               " size=", cb ? cb->buffer_size : 0);
    return Status::ok();
  }
  Status set_shader_buffers(ShaderType t, unsigned start, const std::vector<ShaderBuffer>& b,
                            uint32_t) override {
    check(start + b.size() <= kMaxShaderBuffers, "shader buffer range");
    log_->call("set_shader_buffers stage=", int(t), " start=", start, " n=", b.size());
    return Status::ok();
  }
  Status set_shader_images(ShaderType t, unsigned start, const std::vector<ImageView>& v,
                           unsigned) override {
    check(start + v.size() <= kMaxShaderImages, "shader image range");
    log_->call("set_shader_images stage=", int(t), " start=", start, " n=", v.size());
    return Status::ok();
  }
  Status set_sampler_views(ShaderType t, unsigned start, const std::vector<SamplerViewHandle>& v,
                           unsigned) override {
    check(start + v.size() <= kMaxSamplerViews, "sampler view range");
    std::string s;
    for (const auto& h : v)
      s += " " + vid(h);
    log_->call("set_sampler_views stage=", int(t), " start=", start, " [", s, " ]");
    return Status::ok();
  }
  Status set_stream_output_targets(const std::vector<StreamOutputTargetHandle>& t,
                                   const std::vector<uint32_t>& o) override {
    check(t.size() == o.size() && t.size() <= kMaxSoBuffers, "stream output targets");
    log_->call("set_stream_output_targets n=", t.size());
    return Status::ok();
  }
  void set_tess_state(const float*, const float*) override { log_->call("set_tess_state"); }
  void set_patch_vertices(uint8_t n) override { log_->call("set_patch_vertices ", int(n)); }

  Result<SamplerViewHandle> create_sampler_view(const ResourceRef& r,
                                                const SamplerViewTemplate& t) override {
    if (!check(r != nullptr, "sampler view of null resource"))
      return Status(ErrorCode::kInvalidArgument, "null");
    const ResourceTemplate& i = r->info();
    if (i.target == TextureTarget::BUFFER)
      check(uint64_t(t.buf_offset) + t.buf_size <= i.width0, "buffer view range");
    else
      check(t.first_level <= t.last_level && t.last_level <= i.last_level &&
                t.first_layer <= t.last_layer && t.last_layer < fake(r)->slices(0),
            "sampler view levels/layers");
    auto v = std::make_shared<FakeView>(log_, r, t);
    log_->views.push_back(t);
    log_->call("create_sampler_view #", v->id, " res=", rid(r), " format=", format_name(t.format),
               " target=", int(t.target));
    return SamplerViewHandle(v);
  }
  Result<SurfaceHandle> create_surface(const ResourceRef& r, const SurfaceTemplate& t) override {
    if (!check(r != nullptr, "surface of null resource"))
      return Status(ErrorCode::kInvalidArgument, "null");
    check(t.level <= r->info().last_level && t.first_layer <= t.last_layer &&
              t.last_layer < fake(r)->slices(t.level),
          "surface level/layers");
    log_->surfaces.push_back(t);
    auto s = std::make_shared<FakeSurface>(log_, r, t, fake_minify(r->info().width0, t.level),
                                           fake_minify(r->info().height0, t.level));
    log_->call("create_surface #", s->id, " res=", rid(r), " format=", format_name(t.format));
    return SurfaceHandle(s);
  }
  Result<StreamOutputTargetHandle> create_stream_output_target(const ResourceRef& r, uint32_t o,
                                                               uint32_t s) override {
    if (!check(r != nullptr && uint64_t(o) + s <= r->info().width0, "stream output target range"))
      return Status(ErrorCode::kInvalidArgument, "range");
    auto t = std::make_shared<FakeSoTarget>(log_, r, o, s);
    log_->call("create_stream_output_target #", t->id);
    return StreamOutputTargetHandle(t);
  }

  Status draw_vbo(const DrawInfo& i, unsigned drawid, const DrawIndirectInfo* ind,
                  const std::vector<DrawStartCountBias>& d) override {
    check(unsigned(i.mode) < kPrimTypes, "draw mode");
    check(i.index_size == 0 ||
              ((i.index_size == 1 || i.index_size == 2 || i.index_size == 4) && i.index_resource),
          "draw index buffer");
    log_->draws.emplace_back(i, d.empty() ? DrawStartCountBias{} : d[0]);
    log_->call("draw_vbo mode=", int(i.mode), " start=", d.empty() ? 0 : d[0].start,
               " count=", d.empty() ? 0 : d[0].count, " index_size=", int(i.index_size),
               " instances=", i.instance_count, ind ? " indirect" : "");
    return Status::ok();
  }
  Status launch_grid(const GridInfo&) override {
    log_->call("launch_grid");
    return Status::ok();
  }
  Status clear(uint32_t buffers, const ScissorState*, const ColorUnion& c, double depth,
               unsigned stencil) override {
    check((buffers & ~(Clear::DEPTHSTENCIL | Clear::COLOR)) == 0, "clear bits");
    log_->call("clear buffers=0x", std::hex, buffers, " color0=0x", c.ui[0], std::dec,
               " depth=", depth, " stencil=", stencil);
    return Status::ok();
  }
  Status clear_render_target(const SurfaceHandle&, const ColorUnion&, unsigned, unsigned, unsigned,
                             unsigned, bool) override {
    return Status::ok();
  }
  Status clear_depth_stencil(const SurfaceHandle&, uint32_t, double, unsigned, unsigned, unsigned,
                             unsigned, unsigned, bool) override {
    return Status::ok();
  }
  Status clear_texture(const ResourceRef& r, unsigned level, const Box& b, const void*) override {
    check(r && fake(r)->box_ok(level, b), "clear_texture box");
    log_->call("clear_texture res=", rid(r));
    return Status::ok();
  }
  Status clear_buffer(const ResourceRef&, uint32_t, uint32_t, const void*, unsigned) override {
    return Status::ok();
  }
  Status resource_copy_region(const ResourceRef& dst, unsigned dl, unsigned x, unsigned y,
                              unsigned z, const ResourceRef& src, unsigned sl,
                              const Box& sb) override {
    check(dst && src && fake(src)->box_ok(sl, sb) &&
              fake(dst)->box_ok(dl, Box{int(x), int(y), int(z), sb.width, sb.height, sb.depth}),
          "copy region box");
    log_->call("resource_copy_region dst=", rid(dst), " src=", rid(src));
    return Status::ok();
  }
  Status blit(const BlitInfo& b) override {
    // Boxes may reach outside their levels (Context::blit clips and clamps); the levels
    // must exist.
    const Box none{};
    check(b.dst.resource && b.src.resource && fake(b.dst.resource)->box_ok(b.dst.level, none) &&
              fake(b.src.resource)->box_ok(b.src.level, none),
          "blit levels");
    log_->blits.push_back(b);
    log_->call("blit dst=", rid(b.dst.resource), " src=", rid(b.src.resource), " mask=0x", std::hex,
               b.mask);
    return Status::ok();
  }
  Status generate_mipmap(const ResourceRef&, Format, unsigned, unsigned, unsigned,
                         unsigned) override {
    return Status::ok();
  }
  Status flush(FenceHandle* f, uint32_t) override {
    log_->call("flush");
    if (f) *f = std::make_shared<FakeFence>();
    return Status::ok();
  }
  void texture_barrier(uint32_t) override { log_->call("texture_barrier"); }
  void memory_barrier(uint32_t) override { log_->call("memory_barrier"); }
  bool is_resource_referenced(const ResourceRef&, unsigned) override { return false; }

  Result<TransferHandle> transfer_map(const ResourceRef& r, unsigned level, uint32_t usage,
                                      const Box& b) override {
    if (!check(r && fake(r)->box_ok(level, b), "transfer_map box"))
      return Status(ErrorCode::kInvalidArgument, "box");
    log_->call("transfer_map res=", rid(r), " level=", level, " usage=", usage, " box=", b.x, ",",
               b.y, ",", b.z, " ", b.width, "x", b.height, "x", b.depth);
    return TransferHandle(std::make_shared<FakeTransfer>(r, level, usage, b));
  }
  Status transfer_flush_region(const TransferHandle&, const Box&) override { return Status::ok(); }
  Status transfer_unmap(TransferHandle& t) override {
    check(t != nullptr, "unmap of null transfer");
    t.reset();
    return Status::ok();
  }
  Status buffer_subdata(const ResourceRef& r, uint32_t usage, uint32_t offset, uint32_t size,
                        const void* data) override {
    if (!check(r && r->info().target == TextureTarget::BUFFER &&
                   uint64_t(offset) + size <= r->info().width0,
               "buffer_subdata range"))
      return Status(ErrorCode::kInvalidArgument, "range");
    std::memcpy(fake(r)->bytes().data() + offset, data, size);
    log_->call("buffer_subdata res=", rid(r), " offset=", offset, " size=", size);
    return Status::ok();
  }
  Status texture_subdata(const ResourceRef& r, unsigned level, uint32_t, const Box& b,
                         const void* data, uint32_t stride, uint64_t layer_stride) override {
    if (!check(r && fake(r)->box_ok(level, b), "texture_subdata box"))
      return Status(ErrorCode::kInvalidArgument, "box");
    FakeResource* f = fake(r);
    const auto* src = static_cast<const uint8_t*>(data);
    for (int z = 0; z < b.depth; ++z)
      for (int y = 0; y < b.height; ++y)
        std::memcpy(f->at(level, uint32_t(b.x), uint32_t(b.y + y), uint32_t(b.z + z)),
                    src + uint64_t(z) * layer_stride + uint64_t(y) * stride,
                    size_t(b.width) * f->bpp());
    log_->call("texture_subdata res=", rid(r), " level=", level, " box=", b.x, ",", b.y, ",", b.z,
               " ", b.width, "x", b.height, "x", b.depth, " stride=", stride);
    return Status::ok();
  }

  Result<QueryHandle> create_query(QueryType t, unsigned) override {
    check(unsigned(t) < kQueryTypes, "query type");
    auto q = std::make_shared<FakeQuery>(log_, t);
    log_->call("create_query #", q->id, " type=", int(t));
    return wrap<Query>(q);
  }
  Status begin_query(const QueryHandle& q) override {
    check(q != nullptr, "begin null query");
    log_->call("begin_query ", oid(q));
    return Status::ok();
  }
  Status end_query(const QueryHandle& q) override {
    check(q != nullptr, "end null query");
    log_->call("end_query ", oid(q));
    return Status::ok();
  }
  // Not ready at the first poll without wait, to exercise the pending-result path.
  Status get_query_result(const QueryHandle& q, bool wait, QueryResult* r) override {
    if (!check(q != nullptr, "result of null query"))
      return Status(ErrorCode::kInvalidArgument, "null");
    FakeQuery* f = unwrap<FakeQuery>(q);
    if (!wait && f->polls++ == 0) return Status(ErrorCode::kNotReady, "not yet");
    switch (f->type) {
      case QueryType::OCCLUSION_PREDICATE:
      case QueryType::OCCLUSION_PREDICATE_CONSERVATIVE:
      case QueryType::SO_OVERFLOW_PREDICATE:
      case QueryType::SO_OVERFLOW_ANY_PREDICATE:
      case QueryType::GPU_FINISHED:
        r->b = true;
        break;
      default:
        r->u64 = 1000 + f->id;
    }
    log_->call("get_query_result ", oid(q), " wait=", wait);
    return Status::ok();
  }
  Status get_query_result_resource(const QueryHandle& q, uint32_t, QueryValueType, int,
                                   const ResourceRef& r, unsigned offset) override {
    check(q && r && offset < r->info().width0, "query result resource");
    return Status::ok();
  }
  void set_active_query_state(bool) override {}
  Status render_condition(const QueryHandle& q, bool c, RenderCondMode m) override {
    log_->call("render_condition ", oid(q), " cond=", c, " mode=", int(m));
    return Status::ok();
  }

 private:
  static bool valid(BlendFactor f) {
    const unsigned v = unsigned(f);
    return (v >= 1 && v <= 0x0a) || (v >= 0x11 && v <= 0x15) || (v >= 0x17 && v <= 0x1a);
  }
  FakeScreen& screen_;
  FakeLogRef log_;
};

inline Result<std::unique_ptr<Context>> FakeScreen::context_create() {
  log_->call("context_create");
  return std::unique_ptr<Context>(std::make_unique<FakeContext>(*this, log_));
}

}  // namespace clpipe::vtest_fake
