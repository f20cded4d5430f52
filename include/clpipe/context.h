// Context: Gallium's pipe_context in C++ (context.rst): CSOs, parameter state, views,
// transfers, draws, clears, copies, blits, queries, compute.
//
// Rules of the API, decided once:
// * Calls that can fail return Status / Result; nothing throws out of a Context.
//   A failed call changes no state (a failed set_* keeps the previous binding).
// * CSOs and views are shared_ptr handles. delete_* drops the caller's reference; a
//   bound or in-flight object stays alive until it is unbound and its work is done.
// * User memory (VertexBuffer::user_buffer, DrawInfo::index_user,
//   ConstantBuffer::user_buffer) is read before the call returns.
// * One thread at a time per Context; several Contexts of a Screen may run in parallel.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "clpipe/defines.h"
#include "clpipe/screen.h"
#include "clpipe/state.h"
#include "clpipe/status.h"

namespace clpipe {

// Opaque CSO and view types; their templates are in state.h.
class BlendCso;
class DepthStencilAlphaCso;
class RasterizerCso;
class SamplerCso;
class VertexElementsCso;
class Shader;
class ComputeShader;
class Query;
using BlendHandle = std::shared_ptr<BlendCso>;
using DepthStencilAlphaHandle = std::shared_ptr<DepthStencilAlphaCso>;
using RasterizerHandle = std::shared_ptr<RasterizerCso>;
using SamplerHandle = std::shared_ptr<SamplerCso>;
using VertexElementsHandle = std::shared_ptr<VertexElementsCso>;
using ShaderHandle = std::shared_ptr<Shader>;
using ComputeHandle = std::shared_ptr<ComputeShader>;
using QueryHandle = std::shared_ptr<Query>;

class SamplerView {
 public:
  virtual ~SamplerView() = default;
  const SamplerViewTemplate& info() const { return info_; }
  const ResourceRef& resource() const { return resource_; }

 protected:
  SamplerView(ResourceRef res, const SamplerViewTemplate& info)
      : info_(info), resource_(std::move(res)) {}

 private:
  SamplerViewTemplate info_;
  ResourceRef resource_;
};
using SamplerViewHandle = std::shared_ptr<SamplerView>;

// A render-target or depth-stencil view of one level (and a layer range) of a resource.
class Surface {
 public:
  virtual ~Surface() = default;
  const SurfaceTemplate& info() const { return info_; }
  const ResourceRef& resource() const { return resource_; }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }

 protected:
  Surface(ResourceRef res, const SurfaceTemplate& info, uint32_t w, uint32_t h)
      : info_(info), resource_(std::move(res)), width_(w), height_(h) {}

 private:
  SurfaceTemplate info_;
  ResourceRef resource_;
  uint32_t width_, height_;
};

class StreamOutputTarget {
 public:
  virtual ~StreamOutputTarget() = default;
  const ResourceRef& buffer() const { return buffer_; }
  uint32_t buffer_offset() const { return offset_; }
  uint32_t buffer_size() const { return size_; }

 protected:
  StreamOutputTarget(ResourceRef buf, uint32_t offset, uint32_t size)
      : buffer_(std::move(buf)), offset_(offset), size_(size) {}

 private:
  ResourceRef buffer_;
  uint32_t offset_, size_;
};

// A mapping of a box of one level of a resource (pipe_transfer).
class Transfer {
 public:
  virtual ~Transfer() = default;
  // First byte of the box; rows are stride() bytes apart, layers / slices layer_stride().
  void* data() const { return data_; }
  uint32_t stride() const { return stride_; }
  uint64_t layer_stride() const { return layer_stride_; }
  const Box& box() const { return box_; }
  unsigned level() const { return level_; }
  uint32_t usage() const { return usage_; }
  const ResourceRef& resource() const { return resource_; }

 protected:
  Transfer(ResourceRef res, unsigned level, uint32_t usage, const Box& box)
      : resource_(std::move(res)), level_(level), usage_(usage), box_(box) {}
  ResourceRef resource_;
  unsigned level_;
  uint32_t usage_;
  Box box_;
  void* data_ = nullptr;
  uint32_t stride_ = 0;
  uint64_t layer_stride_ = 0;
};
using TransferHandle = std::shared_ptr<Transfer>;

// Device time of one kind of pass ("vertex", "setup", "scan", "bin", "tile", "fill",
// "copy", "blit", ...), from OpenCL profiling events.
struct PassTime {
  std::string pass;
  uint64_t launches = 0;
  uint64_t device_ns = 0;  // sum of the launches' execution times
};

class Context {
 public:
  virtual ~Context() = default;
  virtual Screen& screen() = 0;

  // --- CSOs -------------------------------------------------------------------------
  virtual Result<BlendHandle> create_blend_state(const BlendState& state) = 0;
  virtual void bind_blend_state(const BlendHandle& cso) = 0;
  void delete_blend_state(BlendHandle& cso) { cso.reset(); }

  virtual Result<DepthStencilAlphaHandle> create_depth_stencil_alpha_state(
      const DepthStencilAlphaState& state) = 0;
  virtual void bind_depth_stencil_alpha_state(const DepthStencilAlphaHandle& cso) = 0;
  void delete_depth_stencil_alpha_state(DepthStencilAlphaHandle& cso) { cso.reset(); }

  virtual Result<RasterizerHandle> create_rasterizer_state(const RasterizerState& state) = 0;
  virtual void bind_rasterizer_state(const RasterizerHandle& cso) = 0;
  void delete_rasterizer_state(RasterizerHandle& cso) { cso.reset(); }

  virtual Result<SamplerHandle> create_sampler_state(const SamplerState& state) = 0;
  // Binds samplers[0..n) to slots start..start+n-1 of a stage; null entries unbind.
  virtual Status bind_sampler_states(ShaderType shader, unsigned start,
                                     const std::vector<SamplerHandle>& samplers) = 0;
  void delete_sampler_state(SamplerHandle& cso) { cso.reset(); }

  virtual Result<VertexElementsHandle> create_vertex_elements_state(
      const std::vector<VertexElement>& elements) = 0;
  virtual void bind_vertex_elements_state(const VertexElementsHandle& cso) = 0;
  void delete_vertex_elements_state(VertexElementsHandle& cso) { cso.reset(); }

  // Shaders: TGSI text; the stage in the text must match the call. Compile errors are
  // reported here with line:column.
  virtual Result<ShaderHandle> create_vs_state(const ShaderState& state) = 0;
  virtual Result<ShaderHandle> create_fs_state(const ShaderState& state) = 0;
  virtual Result<ShaderHandle> create_gs_state(const ShaderState& state) = 0;
  virtual Result<ShaderHandle> create_tcs_state(const ShaderState& state) = 0;
  virtual Result<ShaderHandle> create_tes_state(const ShaderState& state) = 0;
  virtual Status bind_vs_state(const ShaderHandle& shader) = 0;
  virtual Status bind_fs_state(const ShaderHandle& shader) = 0;
  virtual Status bind_gs_state(const ShaderHandle& shader) = 0;
  virtual Status bind_tcs_state(const ShaderHandle& shader) = 0;
  virtual Status bind_tes_state(const ShaderHandle& shader) = 0;
  void delete_shader_state(ShaderHandle& shader) { shader.reset(); }

  virtual Result<ComputeHandle> create_compute_state(const ComputeState& state) = 0;
  virtual void bind_compute_state(const ComputeHandle& shader) = 0;
  void delete_compute_state(ComputeHandle& shader) { shader.reset(); }

  // --- Parameter state --------------------------------------------------------------
  virtual void set_blend_color(const BlendColor& color) = 0;
  virtual void set_stencil_ref(const StencilRef& ref) = 0;
  virtual void set_sample_mask(uint32_t mask) = 0;
  virtual void set_min_samples(unsigned min_samples) = 0;
  // Position of sample `index` of a `sample_count`-sample pixel (2, 4 or 8: the
  // standard GL / D3D patterns; 1: the centre) in [0, 1)^2 from the pixel's top-left
  // corner, as pipe_context::get_sample_position. Other counts and indices are invalid.
  virtual Status get_sample_position(unsigned sample_count, unsigned index, float out[2]) const = 0;
  virtual void set_clip_state(const ClipState& clip) = 0;
  virtual void set_polygon_stipple(const PolyStipple& stipple) = 0;
  virtual Status set_scissor_states(unsigned start, const std::vector<ScissorState>& s) = 0;
  virtual Status set_viewport_states(unsigned start, const std::vector<ViewportState>& v) = 0;
  virtual Status set_framebuffer_state(const FramebufferState& fb) = 0;
  // Sets slots start..start+n-1, then unbinds the next unbind_trailing slots.
  virtual Status set_vertex_buffers(unsigned start, const std::vector<VertexBuffer>& buffers,
                                    unsigned unbind_trailing = 0) = 0;
  // cb == nullptr unbinds slot index.
  virtual Status set_constant_buffer(ShaderType shader, unsigned index,
                                     const ConstantBuffer* cb) = 0;
  virtual Status set_shader_buffers(ShaderType shader, unsigned start,
                                    const std::vector<ShaderBuffer>& buffers,
                                    uint32_t writable_bitmask) = 0;
  virtual Status set_shader_images(ShaderType shader, unsigned start,
                                   const std::vector<ImageView>& images,
                                   unsigned unbind_trailing = 0) = 0;
  virtual Status set_sampler_views(ShaderType shader, unsigned start,
                                   const std::vector<SamplerViewHandle>& views,
                                   unsigned unbind_trailing = 0) = 0;
  // offsets[i]: new write offset in bytes, or 0xffffffff to append.
  virtual Status set_stream_output_targets(const std::vector<StreamOutputTargetHandle>& targets,
                                           const std::vector<uint32_t>& offsets) = 0;
  virtual void set_tess_state(const float default_outer[4], const float default_inner[2]) = 0;
  virtual void set_patch_vertices(uint8_t patch_vertices) = 0;

  // --- Views ------------------------------------------------------------------------
  virtual Result<SamplerViewHandle> create_sampler_view(const ResourceRef& res,
                                                        const SamplerViewTemplate& templ) = 0;
  virtual Result<SurfaceHandle> create_surface(const ResourceRef& res,
                                               const SurfaceTemplate& templ) = 0;
  virtual Result<StreamOutputTargetHandle> create_stream_output_target(const ResourceRef& res,
                                                                       uint32_t buffer_offset,
                                                                       uint32_t buffer_size) = 0;

  // --- Actions ----------------------------------------------------------------------
  virtual Status draw_vbo(const DrawInfo& info, unsigned drawid_offset,
                          const DrawIndirectInfo* indirect,
                          const std::vector<DrawStartCountBias>& draws) = 0;
  virtual Status launch_grid(const GridInfo& grid) = 0;
  // Compute: binds buffers to global-binding slots first..first+count-1 (at most 32) of
  // the MEMORY GLOBAL address space of compute shaders (context.rst). resources empty:
  // unbinds the slots (handles must be empty too); else both hold count entries, and a
  // null resource unbinds its slot. handles[i] (may be null) points to a 32-bit location
  // holding a byte offset into resources[i] (at most its size); the call adds the buffer's
  // base, so it then holds the address LOAD / STORE / ATOM* on MEMORY GLOBAL use. Addresses
  // are 32 bits (ADDRESS_BITS); a buffer keeps its base while it stays bound in any slot,
  // and a buffer bound in two slots has one base. Accesses outside every binding read 0,
  // and what they write is dropped after the dispatch. Buffers must be BUFFER resources;
  // one written through both MEMORY GLOBAL and a shader buffer or image of the same
  // dispatch is refused by launch_grid (kUnsupported).
  virtual Status set_global_binding(unsigned first, unsigned count,
                                    const std::vector<ResourceRef>& resources,
                                    const std::vector<uint32_t*>& handles) {
    (void)first, (void)count, (void)resources, (void)handles;
    return Status(ErrorCode::kUnsupported, "set_global_binding: not implemented by this context");
  }

  // buffers: Clear::* mask; scissor may be null; colour interpreted per cbuf format.
  virtual Status clear(uint32_t buffers, const ScissorState* scissor, const ColorUnion& color,
                       double depth, unsigned stencil) = 0;
  virtual Status clear_render_target(const SurfaceHandle& dst, const ColorUnion& color, unsigned x,
                                     unsigned y, unsigned w, unsigned h,
                                     bool render_condition_enabled) = 0;
  virtual Status clear_depth_stencil(const SurfaceHandle& dst, uint32_t clear_flags, double depth,
                                     unsigned stencil, unsigned x, unsigned y, unsigned w,
                                     unsigned h, bool render_condition_enabled) = 0;
  // data: one texel in the resource's format (block_bytes).
  virtual Status clear_texture(const ResourceRef& res, unsigned level, const Box& box,
                               const void* data) = 0;
  // Repeats value (value_size bytes: 1, 2, 4, 8, 12 or 16) over [offset, offset + size).
  virtual Status clear_buffer(const ResourceRef& res, uint32_t offset, uint32_t size,
                              const void* value, unsigned value_size) = 0;
  virtual Status resource_copy_region(const ResourceRef& dst, unsigned dst_level, unsigned dstx,
                                      unsigned dsty, unsigned dstz, const ResourceRef& src,
                                      unsigned src_level, const Box& src_box) = 0;
  virtual Status blit(const BlitInfo& info) = 0;
  // Fills levels base_level+1..last_level from base_level (layers first..last).
  virtual Status generate_mipmap(const ResourceRef& res, Format format, unsigned base_level,
                                 unsigned last_level, unsigned first_layer,
                                 unsigned last_layer) = 0;

  // Submits queued work; *fence (if given) signals when it has finished.
  virtual Status flush(FenceHandle* fence, uint32_t flags = 0) = 0;
  virtual void texture_barrier(uint32_t flags) = 0;
  virtual void memory_barrier(uint32_t flags) = 0;
  // True when queued, unfinished work of this context reads or writes res.
  virtual bool is_resource_referenced(const ResourceRef& res, unsigned level) = 0;

  // --- Transfers --------------------------------------------------------------------
  // usage: Map::* flags. For textures the box is in texels of `level`, layers in z.
  virtual Result<TransferHandle> transfer_map(const ResourceRef& res, unsigned level,
                                              uint32_t usage, const Box& box) = 0;
  virtual Status transfer_flush_region(const TransferHandle& transfer, const Box& box) = 0;
  virtual Status transfer_unmap(TransferHandle& transfer) = 0;
  virtual Status buffer_subdata(const ResourceRef& res, uint32_t usage, uint32_t offset,
                                uint32_t size, const void* data) = 0;
  virtual Status texture_subdata(const ResourceRef& res, unsigned level, uint32_t usage,
                                 const Box& box, const void* data, uint32_t stride,
                                 uint64_t layer_stride) = 0;

  // --- Queries ----------------------------------------------------------------------
  virtual Result<QueryHandle> create_query(QueryType type, unsigned index) = 0;
  void destroy_query(QueryHandle& query) { query.reset(); }
  virtual Status begin_query(const QueryHandle& query) = 0;
  virtual Status end_query(const QueryHandle& query) = 0;
  // kNotReady when !wait and the result is not available yet.
  virtual Status get_query_result(const QueryHandle& query, bool wait, QueryResult* result) = 0;
  // index: -1 = availability, else the result (or statistics counter) index.
  virtual Status get_query_result_resource(const QueryHandle& query, uint32_t flags,
                                           QueryValueType result_type, int index,
                                           const ResourceRef& res, unsigned offset) = 0;
  virtual void set_active_query_state(bool enable) = 0;
  // query == nullptr disables conditional rendering.
  virtual Status render_condition(const QueryHandle& query, bool condition,
                                  RenderCondMode mode) = 0;

  // --- Profiling --------------------------------------------------------------------
  // When $CLPIPE_PROFILE=1 was set as the context was created: the device time per pass
  // of the kernels launched since the previous call (waiting for them to finish), in
  // order of first launch. Empty when profiling is off or the context does not profile.
  virtual Result<std::vector<PassTime>> collect_pass_times() { return std::vector<PassTime>{}; }
};

}  // namespace clpipe
