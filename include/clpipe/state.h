// State templates of the clpipe API: the C++ spelling of Gallium's p_state.h.
//
// Templates are plain values: the create_* calls copy what they need, so a template
// may be discarded after the call. Field meanings follow gallium.md; where a field is a
// Gallium bitfield it is a plain integer here and its valid range is checked at create.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "clpipe/defines.h"
#include "clpipe/format.h"

namespace clpipe {

class Resource;
using ResourceRef = std::shared_ptr<Resource>;

// ---------------------------------------------------------------------------------
// Resources.

// pipe_resource as a template for Screen::resource_create.
struct ResourceTemplate {
  TextureTarget target = TextureTarget::TEXTURE_2D;
  Format format = Format::R8G8B8A8_UNORM;
  uint32_t width0 = 1;  // texels, or bytes for BUFFER
  uint16_t height0 = 1;
  uint16_t depth0 = 1;
  uint16_t array_size = 1;  // layers; 6 x cubes for CUBE / CUBE_ARRAY
  uint8_t last_level = 0;   // mip levels - 1
  uint8_t nr_samples = 0;   // 0 or 1 = single-sampled
  uint8_t nr_storage_samples = 0;
  ResourceUsage usage = ResourceUsage::DEFAULT;
  uint32_t bind = 0;   // Bind::*
  uint32_t flags = 0;  // ResourceFlag::*
};

// pipe_box. For BUFFER, x/width are bytes. Array layers and cube faces are z/depth.
struct Box {
  int32_t x = 0, y = 0, z = 0;
  int32_t width = 0, height = 0, depth = 0;
};

inline Box make_box_2d(int x, int y, int w, int h) {
  return Box{x, y, 0, w, h, 1};
}
inline Box make_box_1d(int x, int w) {
  return Box{x, 0, 0, w, 1, 1};
}

// ---------------------------------------------------------------------------------
// CSO templates.

struct RtBlendState {
  bool blend_enable = false;
  BlendFunc rgb_func = BlendFunc::ADD;
  BlendFactor rgb_src_factor = BlendFactor::ONE;
  BlendFactor rgb_dst_factor = BlendFactor::ZERO;
  BlendFunc alpha_func = BlendFunc::ADD;
  BlendFactor alpha_src_factor = BlendFactor::ONE;
  BlendFactor alpha_dst_factor = BlendFactor::ZERO;
  uint8_t colormask = Mask::RGBA;
};

struct BlendState {
  bool independent_blend_enable = false;  // else rt[0] applies to every colour buffer
  bool logicop_enable = false;            // logic op replaces blending on all RTs
  LogicOp logicop_func = LogicOp::COPY;
  bool dither = false;
  bool alpha_to_coverage = false;
  bool alpha_to_coverage_dither = false;
  bool alpha_to_one = false;
  uint8_t max_rt = 0;
  std::array<RtBlendState, kMaxColorBufs> rt{};
};

struct StencilState {
  bool enabled = false;
  CompareFunc func = CompareFunc::ALWAYS;
  StencilOp fail_op = StencilOp::KEEP;
  StencilOp zpass_op = StencilOp::KEEP;
  StencilOp zfail_op = StencilOp::KEEP;
  uint8_t valuemask = 0xff;
  uint8_t writemask = 0xff;
};

struct DepthStencilAlphaState {
  bool depth_enabled = false;
  bool depth_writemask = false;
  CompareFunc depth_func = CompareFunc::LESS;
  bool depth_bounds_test = false;
  double depth_bounds_min = 0.0, depth_bounds_max = 1.0;
  std::array<StencilState, 2> stencil{};  // [0] front (or both), [1] back
  bool alpha_enabled = false;
  CompareFunc alpha_func = CompareFunc::ALWAYS;
  float alpha_ref_value = 0.0f;
};

struct RasterizerState {
  bool flatshade = false;
  bool light_twoside = false;
  bool clamp_vertex_color = false;
  bool clamp_fragment_color = false;
  bool front_ccw = false;
  uint8_t cull_face = Face::NONE;  // Face::* mask
  PolygonMode fill_front = PolygonMode::FILL;
  PolygonMode fill_back = PolygonMode::FILL;
  bool offset_point = false;
  bool offset_line = false;
  bool offset_tri = false;
  bool scissor = false;
  bool poly_smooth = false;
  bool poly_stipple_enable = false;
  bool point_smooth = false;
  SpriteCoordMode sprite_coord_mode = SpriteCoordMode::UPPER_LEFT;
  bool point_quad_rasterization = false;
  bool point_tri_clip = false;
  bool point_size_per_vertex = false;
  bool multisample = false;
  bool no_ms_sample_mask_out = false;
  bool force_persample_interp = false;
  bool line_smooth = false;
  bool line_stipple_enable = false;
  bool line_last_pixel = false;
  bool line_rectangular = false;
  bool flatshade_first = false;
  bool half_pixel_center = true;
  bool bottom_edge_rule = false;
  bool rasterizer_discard = false;
  bool tile_raster_order_fixed = false;
  bool depth_clip_near = true;
  bool depth_clip_far = true;
  bool depth_clamp = false;
  bool clip_halfz = false;
  bool offset_units_unscaled = false;
  uint8_t clip_plane_enable = 0;
  uint8_t line_stipple_factor = 0;  // repeat count - 1
  uint16_t line_stipple_pattern = 0xffff;
  uint16_t sprite_coord_enable = 0;
  float line_width = 1.0f;
  float point_size = 1.0f;
  float offset_units = 0.0f;
  float offset_scale = 0.0f;
  float offset_clamp = 0.0f;
};

struct SamplerState {
  TexWrap wrap_s = TexWrap::REPEAT;
  TexWrap wrap_t = TexWrap::REPEAT;
  TexWrap wrap_r = TexWrap::REPEAT;
  TexFilter min_img_filter = TexFilter::NEAREST;
  TexMipFilter min_mip_filter = TexMipFilter::NONE;
  TexFilter mag_img_filter = TexFilter::NEAREST;
  TexCompare compare_mode = TexCompare::NONE;
  CompareFunc compare_func = CompareFunc::LEQUAL;
  bool unnormalized_coords = false;
  uint8_t max_anisotropy = 0;
  bool seamless_cube_map = false;
  bool border_color_is_integer = false;
  // The border colour holds integers for pure integer views and floats for the others,
  // whatever border_color_is_integer says: virgl's encoding, whose sampler states are
  // created without knowing the views they will be used with.
  bool border_color_in_view_format = false;
  TexReductionMode reduction_mode = TexReductionMode::WEIGHTED_AVERAGE;
  float lod_bias = 0.0f;
  float min_lod = 0.0f;
  float max_lod = 1000.0f;
  union {
    float f[4];
    int32_t i[4];
    uint32_t ui[4];
  } border_color = {{0, 0, 0, 0}};
};

// pipe_vertex_element.
struct VertexElement {
  uint16_t src_offset = 0;
  uint8_t vertex_buffer_index = 0;
  bool dual_slot = false;
  Format src_format = Format::R32G32B32A32_FLOAT;
  uint32_t instance_divisor = 0;  // 0 = per vertex
};

// pipe_stream_output_info.
struct StreamOutput {
  uint8_t register_index = 0;   // OUT register index of the last vertex stage
  uint8_t start_component = 0;  // 0..3
  uint8_t num_components = 0;   // 1..4
  uint8_t output_buffer = 0;    // 0..3
  uint16_t dst_offset = 0;      // dwords within the vertex record
  uint8_t stream = 0;           // GS vertex stream
};
struct StreamOutputInfo {
  std::array<uint16_t, kMaxSoBuffers> stride{};  // dwords per vertex record
  std::vector<StreamOutput> output;              // at most kMaxSoOutputs
};

// pipe_shader_state: the TGSI text of one stage.
struct ShaderState {
  std::string tgsi;
  StreamOutputInfo stream_output;
};

// pipe_compute_state.
struct ComputeState {
  std::string tgsi;
  uint32_t req_local_mem = 0;  // bytes of MEMORY[..], SHARED
  uint32_t req_private_mem = 0;
  // Bytes of MEMORY[..], INPUT that GridInfo::input holds; at most MAX_INPUT_SIZE.
  uint32_t req_input_mem = 0;
};

// ---------------------------------------------------------------------------------
// Parameter state (set by value).

struct BlendColor {
  float color[4] = {0, 0, 0, 0};
};

struct StencilRef {
  uint8_t ref_value[2] = {0, 0};  // [0] front, [1] back
};

struct ClipState {
  float ucp[kMaxClipPlanes][4] = {};
};

struct PolyStipple {
  uint32_t stipple[32] = {};
};

// pipe_scissor_state: min inclusive, max exclusive, y = 0 at the top of the surface.
struct ScissorState {
  uint16_t minx = 0, miny = 0, maxx = 0, maxy = 0;
};

// pipe_viewport_state: window = ndc * scale + translate.
struct ViewportState {
  float scale[3] = {1, 1, 1};
  float translate[3] = {0, 0, 0};
};

union ColorUnion {
  float f[4];
  int32_t i[4];
  uint32_t ui[4];
};

struct VertexBuffer {
  uint32_t stride = 0;  // bytes; 0 = same data for every vertex
  uint32_t buffer_offset = 0;
  ResourceRef buffer;                 // or:
  const void* user_buffer = nullptr;  // user memory, read during the call (see Context)
};

struct ConstantBuffer {
  ResourceRef buffer;                 // or:
  const void* user_buffer = nullptr;  // copied during the set call
  uint32_t buffer_offset = 0;
  uint32_t buffer_size = 0;
};

struct ShaderBuffer {
  ResourceRef buffer;
  uint32_t buffer_offset = 0;
  uint32_t buffer_size = 0;
};

// pipe_image_view.
struct ImageView {
  ResourceRef resource;
  Format format = Format::NONE;
  uint16_t access = 0;         // ImageAccess::*
  uint16_t shader_access = 0;  // ImageAccess::*
  // Textures: layer range and level; buffers: byte range.
  uint16_t first_layer = 0, last_layer = 0;
  uint8_t level = 0;
  uint32_t buf_offset = 0, buf_size = 0;
};

class Surface;
using SurfaceHandle = std::shared_ptr<Surface>;

// pipe_framebuffer_state.
struct FramebufferState {
  uint16_t width = 0, height = 0;
  uint16_t layers = 0;                               // no-attachment framebuffers
  uint8_t samples = 0;                               // no-attachment framebuffers
  std::array<SurfaceHandle, kMaxColorBufs> cbufs{};  // may contain holes
  uint8_t nr_cbufs = 0;
  SurfaceHandle zsbuf;
};

// Template for Context::create_sampler_view (pipe_sampler_view minus the refcount).
struct SamplerViewTemplate {
  Format format = Format::NONE;  // may differ from the resource's: a compatible cast
  TextureTarget target = TextureTarget::TEXTURE_2D;
  Swizzle swizzle_r = Swizzle::X, swizzle_g = Swizzle::Y, swizzle_b = Swizzle::Z,
          swizzle_a = Swizzle::W;
  // Textures.
  uint16_t first_layer = 0, last_layer = 0;
  uint8_t first_level = 0, last_level = 0;
  // Buffers: bytes.
  uint32_t buf_offset = 0, buf_size = 0;
};

// Template for Context::create_surface (pipe_surface minus the refcount).
struct SurfaceTemplate {
  Format format = Format::NONE;
  uint8_t level = 0;
  uint16_t first_layer = 0, last_layer = 0;
  uint32_t first_element = 0, last_element = 0;  // buffer render targets
  uint8_t nr_samples = 0;
};

// ---------------------------------------------------------------------------------
// Draws and compute.

// pipe_draw_start_count_bias.
struct DrawStartCountBias {
  uint32_t start = 0;
  uint32_t count = 0;
  int32_t index_bias = 0;
};

class StreamOutputTarget;
using StreamOutputTargetHandle = std::shared_ptr<StreamOutputTarget>;

// pipe_draw_info.
struct DrawInfo {
  PrimType mode = PrimType::TRIANGLES;
  uint8_t index_size = 0;  // 0 = not indexed, else 1, 2 or 4
  bool primitive_restart = false;
  bool has_user_indices = false;
  bool index_bounds_valid = false;
  bool increment_draw_id = false;
  uint32_t start_instance = 0;
  uint32_t instance_count = 1;
  uint32_t restart_index = 0;               // compared with the raw index before index_bias
  ResourceRef index_resource;               // when indexed and !has_user_indices
  const void* index_user = nullptr;         // when has_user_indices; read during the call
  uint32_t min_index = 0, max_index = ~0u;  // hints, valid if index_bounds_valid
};

// pipe_draw_indirect_info.
struct DrawIndirectInfo {
  uint32_t offset = 0;
  uint32_t stride = 0;
  uint32_t draw_count = 1;
  uint32_t indirect_draw_count_offset = 0;
  ResourceRef buffer;
  ResourceRef indirect_draw_count;
  StreamOutputTargetHandle count_from_stream_output;
};

// pipe_grid_info.
struct GridInfo {
  uint32_t work_dim = 3;
  uint32_t block[3] = {1, 1, 1};       // threads per work-group
  uint32_t last_block[3] = {0, 0, 0};  // partial last group (0 = none)
  uint32_t grid[3] = {1, 1, 1};        // work-groups
  uint32_t grid_base[3] = {0, 0, 0};
  ResourceRef indirect;  // {x, y, z} group counts at indirect_offset
  uint32_t indirect_offset = 0;
  // MEMORY INPUT: ComputeState::req_input_mem bytes of user memory, read during the call;
  // may be null only when req_input_mem is 0. Reads past req_input_mem return 0.
  const void* input = nullptr;
};

// pipe_blit_info.
struct BlitInfo {
  struct Side {
    ResourceRef resource;
    uint8_t level = 0;
    Box box;  // src width/height may be negative (mirrored)
    Format format = Format::NONE;
  } dst, src;
  uint32_t mask = Mask::RGBA;  // Mask::*
  TexFilter filter = TexFilter::NEAREST;
  bool scissor_enable = false;
  ScissorState scissor;
  bool render_condition_enable = false;
  bool alpha_blend = false;
};

// ---------------------------------------------------------------------------------
// Queries.

union QueryResult {
  bool b;
  uint64_t u64;
  uint32_t u32;
  struct {
    uint64_t num_primitives_written;
    uint64_t primitives_storage_needed;
  } so_statistics;
  struct {
    uint64_t frequency;
    bool disjoint;
  } timestamp_disjoint;
  struct {
    uint64_t ia_vertices, ia_primitives, vs_invocations, gs_invocations, gs_primitives,
        c_invocations, c_primitives, ps_invocations, hs_invocations, ds_invocations, cs_invocations;
  } pipeline_statistics;
};

}  // namespace clpipe
