// ContextImpl: clpipe's Context (Gallium's pipe_context) on one in-order OpenCL queue.
//
// The methods live in one file per responsibility: context.cpp (construction, flush,
// barriers), state_<cso>.cpp (one CSO kind each), state_params.cpp (set_* calls),
// views.cpp, transfer.cpp, clear.cpp, copy.cpp, blit.cpp, mipmap.cpp, draw_vbo.cpp,
// compute_launch.cpp (launch_grid).
// State calls validate, then store into state_ and set dirty bits (context_state.h);
// data calls enqueue kernels through ops_ and report each command to the resources it
// uses (ResourceImpl::note_use). Used by one thread at a time.
#pragma once

#include <atomic>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

#include "clpipe/context.h"
#include "frontend/blit.h"
#include "frontend/context_state.h"
#include "frontend/device_ops.h"
#include "frontend/draw/draw_pipeline.h"
#include "frontend/draw_setup.h"
#include "frontend/query.h"
#include "frontend/resource.h"
#include "frontend/screen_impl.h"
#include "runtime/queue.h"

namespace clpipe::frontend {

class ContextImpl final : public Context {
 public:
  explicit ContextImpl(std::shared_ptr<ScreenImpl> screen);
  ~ContextImpl() override;

  Screen& screen() override { return *screen_; }

  // CSOs (state_<cso>.cpp).
  Result<BlendHandle> create_blend_state(const BlendState& state) override;
  void bind_blend_state(const BlendHandle& cso) override;
  Result<DepthStencilAlphaHandle> create_depth_stencil_alpha_state(
      const DepthStencilAlphaState& state) override;
  void bind_depth_stencil_alpha_state(const DepthStencilAlphaHandle& cso) override;
  Result<RasterizerHandle> create_rasterizer_state(const RasterizerState& state) override;
  void bind_rasterizer_state(const RasterizerHandle& cso) override;
  Result<SamplerHandle> create_sampler_state(const SamplerState& state) override;
  Status bind_sampler_states(ShaderType shader, unsigned start,
                             const std::vector<SamplerHandle>& samplers) override;
  Result<VertexElementsHandle> create_vertex_elements_state(
      const std::vector<VertexElement>& elements) override;
  void bind_vertex_elements_state(const VertexElementsHandle& cso) override;
  Result<ShaderHandle> create_vs_state(const ShaderState& state) override;
  Result<ShaderHandle> create_fs_state(const ShaderState& state) override;
  Result<ShaderHandle> create_gs_state(const ShaderState& state) override;
  Result<ShaderHandle> create_tcs_state(const ShaderState& state) override;
  Result<ShaderHandle> create_tes_state(const ShaderState& state) override;
  Status bind_vs_state(const ShaderHandle& shader) override;
  Status bind_fs_state(const ShaderHandle& shader) override;
  Status bind_gs_state(const ShaderHandle& shader) override;
  Status bind_tcs_state(const ShaderHandle& shader) override;
  Status bind_tes_state(const ShaderHandle& shader) override;
  Result<ComputeHandle> create_compute_state(const ComputeState& state) override;
  void bind_compute_state(const ComputeHandle& shader) override;

  // Parameter state (state_params.cpp).
  void set_blend_color(const BlendColor& color) override;
  void set_stencil_ref(const StencilRef& ref) override;
  void set_sample_mask(uint32_t mask) override;
  void set_min_samples(unsigned min_samples) override;
  Status get_sample_position(unsigned sample_count, unsigned index, float out[2]) const override;
  void set_clip_state(const ClipState& clip) override;
  void set_polygon_stipple(const PolyStipple& stipple) override;
  Status set_scissor_states(unsigned start, const std::vector<ScissorState>& s) override;
  Status set_viewport_states(unsigned start, const std::vector<ViewportState>& v) override;
  Status set_framebuffer_state(const FramebufferState& fb) override;
  Status set_vertex_buffers(unsigned start, const std::vector<VertexBuffer>& buffers,
                            unsigned unbind_trailing) override;
  Status set_constant_buffer(ShaderType shader, unsigned index, const ConstantBuffer* cb) override;
  Status set_shader_buffers(ShaderType shader, unsigned start,
                            const std::vector<ShaderBuffer>& buffers,
                            uint32_t writable_bitmask) override;
  Status set_shader_images(ShaderType shader, unsigned start, const std::vector<ImageView>& images,
                           unsigned unbind_trailing) override;
  Status set_sampler_views(ShaderType shader, unsigned start,
                           const std::vector<SamplerViewHandle>& views,
                           unsigned unbind_trailing) override;
  Status set_stream_output_targets(const std::vector<StreamOutputTargetHandle>& targets,
                                   const std::vector<uint32_t>& offsets) override;
  void set_tess_state(const float default_outer[4], const float default_inner[2]) override;
  void set_patch_vertices(uint8_t patch_vertices) override;

  // Views (views.cpp).
  Result<SamplerViewHandle> create_sampler_view(const ResourceRef& res,
                                                const SamplerViewTemplate& templ) override;
  Result<SurfaceHandle> create_surface(const ResourceRef& res,
                                       const SurfaceTemplate& templ) override;
  Result<StreamOutputTargetHandle> create_stream_output_target(const ResourceRef& res,
                                                               uint32_t buffer_offset,
                                                               uint32_t buffer_size) override;

  // Draws (draw_vbo.cpp) and compute dispatches (compute_launch.cpp).
  Status draw_vbo(const DrawInfo& info, unsigned drawid_offset, const DrawIndirectInfo* indirect,
                  const std::vector<DrawStartCountBias>& draws) override;
  Status launch_grid(const GridInfo& grid) override;
  Status set_global_binding(unsigned first, unsigned count,
                            const std::vector<ResourceRef>& resources,
                            const std::vector<uint32_t*>& handles) override;  // compute_global.cpp

  // Blits (blit.cpp) and mipmap generation (mipmap.cpp).
  Status blit(const BlitInfo& info) override;
  Status generate_mipmap(const ResourceRef& res, Format format, unsigned base_level,
                         unsigned last_level, unsigned first_layer, unsigned last_layer) override;

  // Clears (clear.cpp) and copies (copy.cpp).
  Status clear(uint32_t buffers, const ScissorState* scissor, const ColorUnion& color, double depth,
               unsigned stencil) override;
  Status clear_render_target(const SurfaceHandle& dst, const ColorUnion& color, unsigned x,
                             unsigned y, unsigned w, unsigned h,
                             bool render_condition_enabled) override;
  Status clear_depth_stencil(const SurfaceHandle& dst, uint32_t clear_flags, double depth,
                             unsigned stencil, unsigned x, unsigned y, unsigned w, unsigned h,
                             bool render_condition_enabled) override;
  Status clear_texture(const ResourceRef& res, unsigned level, const Box& box,
                       const void* data) override;
  Status clear_buffer(const ResourceRef& res, uint32_t offset, uint32_t size, const void* value,
                      unsigned value_size) override;
  Status resource_copy_region(const ResourceRef& dst, unsigned dst_level, unsigned dstx,
                              unsigned dsty, unsigned dstz, const ResourceRef& src,
                              unsigned src_level, const Box& src_box) override;

  // Synchronisation (context.cpp).
  Status flush(FenceHandle* fence, uint32_t flags) override;
  void texture_barrier(uint32_t flags) override;
  void memory_barrier(uint32_t flags) override;
  bool is_resource_referenced(const ResourceRef& res, unsigned level) override;

  // Transfers (transfer.cpp).
  Result<TransferHandle> transfer_map(const ResourceRef& res, unsigned level, uint32_t usage,
                                      const Box& box) override;
  Status transfer_flush_region(const TransferHandle& transfer, const Box& box) override;
  Status transfer_unmap(TransferHandle& transfer) override;
  Status buffer_subdata(const ResourceRef& res, uint32_t usage, uint32_t offset, uint32_t size,
                        const void* data) override;
  Status texture_subdata(const ResourceRef& res, unsigned level, uint32_t usage, const Box& box,
                         const void* data, uint32_t stride, uint64_t layer_stride) override;

  // Queries and conditional rendering (context_query.cpp).
  Result<QueryHandle> create_query(QueryType type, unsigned index) override;
  Status begin_query(const QueryHandle& query) override;
  Status end_query(const QueryHandle& query) override;
  Status get_query_result(const QueryHandle& query, bool wait, QueryResult* result) override;
  Status get_query_result_resource(const QueryHandle& query, uint32_t flags,
                                   QueryValueType result_type, int index, const ResourceRef& res,
                                   unsigned offset) override;
  void set_active_query_state(bool enable) override;
  Status render_condition(const QueryHandle& query, bool condition, RenderCondMode mode) override;

  // Profiling (context_profile.cpp).
  Result<std::vector<PassTime>> collect_pass_times() override;

  // For the passes and for tests.
  const ContextState& state() const { return state_; }
  // Whether the render condition lets host-side work (clears, blits) run now: no
  // condition, a NO_WAIT mode whose result is not ready, or a result that differs from
  // the condition. Waits for the result in the WAIT modes.
  bool render_condition_allows();
  ContextState& mutable_state() { return state_; }
  uint64_t id() const { return id_; }
  // The draw pipeline's counters (tests, profile), or zeros before the first draw.
  draw::SceneCounters scene_counters() const;
  // draw_vbo calls that derived their draw state rather than reusing the last (tests).
  uint64_t draw_derivations() const { return derivations_; }
  // Test knob: DrawPipeline::set_capacity_cap for this context's scenes.
  void set_scene_capacity_cap(uint32_t records, uint32_t list);
  // Test knob: DrawPipeline::set_scratch_budget; and the scratch it holds.
  void set_scene_scratch_budget(uint64_t bytes);
  uint64_t scene_scratch_capacity() const { return pipeline_ ? pipeline_->scratch_capacity() : 0; }
  // Test knob: DrawPipeline::set_device_count_positions for this context's scenes.
  void set_device_count_positions(uint64_t positions);
  // Test knob: DrawPipeline::set_tile_mode for this context's scenes.
  void set_tile_variant_mode(draw::TileVariantMode mode);
  // Test knob: the bytes of released resources a scene may keep alive (default
  // kSceneMaxReleasedBytes).
  void set_scene_released_limit(uint64_t bytes) { released_limit_ = bytes; }
  // Bytes of subdata copies whose writes have not finished (tests).
  size_t held_upload_bytes() const { return *upload_bytes_; }
  // Test knob: the context's queue, to hold it behind an event.
  runtime::Queue& queue_for_tests() { return queue_; }

 private:
  ResourceImpl& resource(const ResourceRef& res, const char* what) {
    return resource_of(res, screen_->id(), what);
  }
  Result<ShaderHandle> create_shader(ShaderType stage, const ShaderState& state, const char* call);
  Status bind_shader(ShaderType stage, const ShaderHandle& shader, const char* call);
  // Fills the whole box of a surface's layers; rect in texels of the surface's level.
  void fill_surface(const Surface& surf, unsigned x, unsigned y, unsigned w, unsigned h,
                    const FillPattern& pattern);
  // clear() of the rectangle (x0, y0, x1, y1, inside the framebuffer) as the clear the
  // scene begins with (draw::SceneClear), after running the scene if it has draws; false,
  // with nothing changed, where the scene cannot hold it (a render condition, layered or
  // buffer targets, targets smaller than the rectangle, a clear of one aspect of a
  // depth/stencil format).
  bool clear_in_scene(uint32_t buffers, const int32_t (&rect)[4], const ColorUnion& color,
                      double depth, unsigned stencil);
  // Keeps host data alive until the command reading it has finished, and frees it then.
  void keep_until_done(const cl::Event& event, std::shared_ptr<std::vector<uint8_t>> data);
  void reap_uploads();
  // Scenes (scene.cpp): draws are recorded, and run when their results are needed or
  // their inputs change. Every call whose commands or answers must come after the
  // recorded draws calls flush_scene first: flushes and fences, framebuffer changes,
  // clears (but a clear of the bound framebuffer that starts the next scene), copies,
  // blits, queries, render conditions, stream output targets, compute, barriers;
  // transfers and texture subdata only when the scene uses the resource, buffer subdata
  // only when it may touch what the scene reads or writes (flush_scene_writing).
  void flush_scene();
  void flush_scene_using(const ResourceRef& res);
  // flush_scene_using for a write of bytes [begin, end) of a buffer: a scene that only
  // reads the buffer as vertex input, elsewhere, keeps recording (piglit
  // vbo-subdata-many: a glBufferSubData before each draw of the next vertices).
  void flush_scene_writing(const ResourceRef& res, uint64_t begin, uint64_t end);
  // flush_scene for calls that return nothing: a failure is kept for the next flush().
  void flush_scene_nothrow() noexcept;
  // Records the resources of the draws just recorded, reported their commands at the
  // scene's end.
  void note_scene_use(const DrawResources& used);
  // Whether the scene is the last owner of more than released_limit_ bytes of resources:
  // the application released them, and only running the scene lets them go. Draws flush
  // such a scene before they join it, so that a program that makes, draws with and
  // deletes a texture per draw (piglit streaming-texture-leak: 5000 of 4 MiB) runs in
  // bounded memory.
  bool scene_holds_released() const;
  // 256 MiB: a small part of any device that draws, and large enough that programs that
  // release what they draw with now and then never flush for it.
  static constexpr uint64_t kSceneMaxReleasedBytes = uint64_t(256) << 20;

  std::shared_ptr<ScreenImpl> screen_;
  const uint64_t id_;
  runtime::Queue queue_;
  // Maps and unmaps run on their own queue, so that mapping an idle resource never waits
  // for this context's unrelated work; shared with outstanding transfers.
  std::shared_ptr<runtime::Queue> transfer_queue_;
  DeviceOps ops_;
  QueryTracker queries_;
  Blitter blitter_;                               // blit and generate_mipmap (blit.cpp, mipmap.cpp)
  std::unique_ptr<draw::DrawPipeline> pipeline_;  // created by the first draw
  ContextState state_;
  // The resources the recorded scene uses.
  struct SceneUse {
    std::shared_ptr<ResourceImpl> res;
    bool writes = false;
    bool beyond_vertices = false;  // written, or read other than as a vertex buffer
  };
  std::vector<SceneUse> scene_resources_;
  // The counter buffer of the scene's draws that occlusion queries count (set when
  // QueryTracker::counts_per_scene() held at record time), added to the active queries
  // after the scene ran. Those are the queries of record time: begin_query and end_query
  // flush the scene.
  cl::Buffer scene_query_counters_;
  // The derived state of the last draw_vbo that joined a scene (llvmpipe's
  // update_derived): its setup, with the stages' bindings in that scene's tables. A draw
  // reuses it while nothing it was derived from changed: no state call since (every
  // setter sets a bit of state_.dirty, which deriving clears), the same index binding
  // (user indices are copied per call, never reused), the same scene (scene_serial), no
  // storage renamed (ResourceImpl::rename_epoch), and no query counting or render
  // condition (their facts are taken per call).
  struct DerivedDraw {
    std::shared_ptr<const draw::DrawSetup> setup;  // null: none
    // null: not indexed. Held, so that its address cannot come to name another resource.
    ResourceRef index_resource;
    uint64_t scene = 0, rename_epoch = 0;
  } derived_;
  uint64_t derivations_ = 0;
  uint64_t released_limit_ = kSceneMaxReleasedBytes;
  Status scene_error_;  // a failure of flush_scene_nothrow, reported by flush()
  // Host copies of subdata uploads belong to their writes' completion callbacks, which free
  // them (a client may never make another call on this context: vtest's transfer context).
  // upload_bytes_ counts the copies not yet freed, uploads_ the writes not yet seen
  // finished, oldest first; both bound what is held (keep_until_done).
  std::deque<cl::Event> uploads_;
  std::shared_ptr<std::atomic<size_t>> upload_bytes_ = std::make_shared<std::atomic<size_t>>(0);
};

}  // namespace clpipe::frontend
