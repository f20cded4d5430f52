// ContextState: everything bound or set on a Context, as validated by the create_* /
// bind_* / set_* calls.
//
// Producer: ContextImpl's state calls (state_*.cpp, state_params.cpp). Consumers: the
// draw and compute passes (issue 4), which validate derived state lazily at draw time
// for the groups whose dirty bit is set, then clear those bits. Handles keep what they
// reference alive; user constant buffers are copied at set time.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "clpipe/context.h"
#include "frontend/compute_global.h"

namespace clpipe::frontend {

// One bit per group of state; set by every call that changes the group.
enum Dirty : uint32_t {
  kDirtyBlend = 1u << 0,
  kDirtyDepthStencilAlpha = 1u << 1,
  kDirtyRasterizer = 1u << 2,
  kDirtySamplers = 1u << 3,
  kDirtyVertexElements = 1u << 4,
  kDirtyShaders = 1u << 5,
  kDirtyCompute = 1u << 6,
  kDirtyBlendColor = 1u << 7,
  kDirtyStencilRef = 1u << 8,
  kDirtySampleMask = 1u << 9,
  kDirtyMinSamples = 1u << 10,
  kDirtyClip = 1u << 11,
  kDirtyStipple = 1u << 12,
  kDirtyScissors = 1u << 13,
  kDirtyViewports = 1u << 14,
  kDirtyFramebuffer = 1u << 15,
  kDirtyVertexBuffers = 1u << 16,
  kDirtyConstantBuffers = 1u << 17,
  kDirtyShaderBuffers = 1u << 18,
  kDirtyImages = 1u << 19,
  kDirtySamplerViews = 1u << 20,
  kDirtyStreamOutput = 1u << 21,
  kDirtyTess = 1u << 22,
  kDirtyAll = (1u << 23) - 1,
};

// A constant buffer slot: a buffer range, or a copy of user memory.
struct BoundConstantBuffer {
  ResourceRef buffer;
  std::shared_ptr<const std::vector<uint8_t>> user_data;  // the bytes, when set from memory
  uint32_t buffer_offset = 0;
  uint32_t buffer_size = 0;
  bool bound() const { return buffer || user_data; }
};

struct ContextState {
  BlendHandle blend;
  DepthStencilAlphaHandle depth_stencil_alpha;
  RasterizerHandle rasterizer;
  std::array<std::array<SamplerHandle, kMaxSamplers>, kShaderTypes> samplers{};
  VertexElementsHandle vertex_elements;
  // Graphics stages indexed by ShaderType (COMPUTE unused: see compute).
  std::array<ShaderHandle, kShaderTypes> shaders{};
  ComputeHandle compute;
  GlobalBindings global_bindings;  // set_global_binding (compute_global.h)

  BlendColor blend_color;
  StencilRef stencil_ref;
  uint32_t sample_mask = ~0u;
  unsigned min_samples = 1;
  ClipState clip;
  PolyStipple stipple;
  std::array<ScissorState, kMaxViewports> scissors{};
  std::array<ViewportState, kMaxViewports> viewports{};
  FramebufferState framebuffer;
  std::array<VertexBuffer, kMaxVertexBuffers> vertex_buffers{};
  std::array<std::array<BoundConstantBuffer, kMaxConstantBuffers>, kShaderTypes> constant_buffers{};
  std::array<std::array<ShaderBuffer, kMaxShaderBuffers>, kShaderTypes> shader_buffers{};
  std::array<uint32_t, kShaderTypes> shader_buffers_writable{};  // bit i = slot i writable
  std::array<std::array<ImageView, kMaxShaderImages>, kShaderTypes> images{};
  std::array<std::array<SamplerViewHandle, kMaxSamplerViews>, kShaderTypes> sampler_views{};
  std::vector<StreamOutputTargetHandle> so_targets;
  std::vector<uint32_t> so_offsets;  // bytes, or 0xffffffff = append
  float tess_outer[4] = {1, 1, 1, 1};
  float tess_inner[2] = {1, 1};
  uint8_t patch_vertices = 3;
  bool queries_active = true;
  // render_condition(): the query whose result gates draws and clears (null = none).
  QueryHandle render_cond_query;
  bool render_cond_condition = false;
  RenderCondMode render_cond_mode = RenderCondMode::WAIT;

  uint32_t dirty = kDirtyAll;
};

}  // namespace clpipe::frontend
