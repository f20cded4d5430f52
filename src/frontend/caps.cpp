// Every cap of the Screen: get_param, get_paramf, get_shader_param, get_compute_param.
//
// Rules: each switch has no default, so a new enumerator fails to compile until it has
// an answer. A cap answers what works today: resources, transfers, clears, copies and
// state validation are implemented here and answer for themselves; everything that
// needs draws, shaders, texturing, queries, stream output or compute answers from the
// constants of features.h (flipping one is a claim that every cap derived from it below
// really works). Size limits come from the device (ScreenImpl::limits()).
#include <algorithm>

#include "frontend/compute_global.h"
#include "frontend/compute_grid.h"
#include "frontend/features.h"
#include "frontend/layout.h"
#include "frontend/limits.h"
#include "frontend/screen_impl.h"

// A cap without a case is an error, not a warning: every cap has an explicit answer.
#pragma GCC diagnostic error "-Wswitch"

namespace clpipe::frontend {

namespace {

// The draw pipeline with shaders: what GL calls rendering.
constexpr bool kGraphics = kDraw && kShaders;
// launch_grid with compute shaders.
constexpr bool kComputeRuns = kShaders && kCompute;

// Shader buffers and images of the COMPUTE stage: every one is a kernel parameter (a
// pointer, and images share one descriptor array), and with 16 constant buffers and 16
// sampler views a shader using all of them stays below the 1024 bytes of parameters
// OpenCL 1.2 guarantees (CL_DEVICE_MAX_PARAMETER_SIZE). 32 = CLP_RI_MAX_SHADER_BUFFERS.
constexpr uint32_t kComputeShaderBuffers = 32;
constexpr uint32_t kComputeShaderImages = 32;

constexpr int b(bool v) {
  return v ? 1 : 0;
}

// Which shader stages run today.
bool stage_runs(ShaderType stage) {
  switch (stage) {
    case ShaderType::VERTEX:
    case ShaderType::FRAGMENT:
      return kGraphics;
    case ShaderType::GEOMETRY:
      return kGraphics && kGeometryShaders;
    case ShaderType::TESS_CTRL:
    case ShaderType::TESS_EVAL:
      return kGraphics && kTessellation;
    case ShaderType::COMPUTE:
      return kComputeRuns;
  }
  return false;
}

// SHADER_BUFFER_OFFSET_ALIGNMENT: the device's sub-buffer alignment
// (CL_DEVICE_MEM_BASE_ADDR_ALIGN, bits), at most GL's largest allowed value (256) and at
// least a word. Offsets the device cannot take as a sub-buffer are bound through copies
// (shader_program.cpp), so a device needing more than 256 bytes still works.
uint32_t shader_buffer_offset_alignment(const runtime::DeviceLimits& dev) {
  return std::clamp<uint32_t>(dev.mem_base_addr_align / 8, 4, 256);
}

int clamp_int(uint64_t v) {
  return int(std::min<uint64_t>(v, 0x7fffffff));
}

int log2_levels(uint32_t size) {
  int n = 1;
  while (size > 1) {
    size >>= 1;
    ++n;
  }
  return n;
}

}  // namespace

int ScreenImpl::get_param(Cap cap) const {
  const runtime::DeviceLimits& dev = device_.limits();
  switch (cap) {
    // --- Resources, transfers, clears and copies: implemented here. ----------------
    case Cap::NPOT_TEXTURES:
    case Cap::TEXRECT:
    case Cap::CLEAR_TEXTURE:
    case Cap::CLEAR_SCISSORED:
    case Cap::MIXED_COLOR_DEPTH_BITS:
      return 1;
    case Cap::MAX_RENDER_TARGETS:
      return kMaxColorBufs;  // framebuffer state and clear handle 8 colour buffers
    case Cap::MAX_TEXTURE_2D_SIZE:
      return int(limits_.max_2d);
    case Cap::MAX_TEXTURE_3D_LEVELS:
      return log2_levels(limits_.max_3d);
    case Cap::MAX_TEXTURE_CUBE_LEVELS:
      return log2_levels(limits_.max_cube);
    case Cap::MAX_TEXTURE_ARRAY_LAYERS:
      return int(limits_.max_layers);
    case Cap::MAX_TEXTURE_MB:
      return clamp_int(std::min(limits_.max_alloc, kMaxViewedTextureBytes) >> 20);
    case Cap::MIN_MAP_BUFFER_ALIGNMENT:
      return int(kMinMapBufferAlignment);
    case Cap::CONSTANT_BUFFER_OFFSET_ALIGNMENT:
      return int(kConstantBufferOffsetAlignment);
    case Cap::MAX_VERTEX_ATTRIB_STRIDE:
      return int(kMaxVertexAttribStride);
    case Cap::MAX_VERTEX_ELEMENT_SRC_OFFSET:
      return int(kMaxVertexElementSrcOffset);
    case Cap::MAX_VERTEX_BUFFERS:
      return int(kMaxVertexBuffers);
    case Cap::MAX_VIEWPORTS:
      return 1;  // state holds 16; the pipeline is designed for one viewport
    case Cap::MAX_TEXTURE_UPLOAD_MEMORY_BUDGET:
      return 64 << 20;  // bytes of uploads the GL front-end may batch
    case Cap::GL_BEGIN_END_BUFFER_SIZE:
      return 512 << 10;
    case Cap::ALLOW_DYNAMIC_VAO_FASTPATH:
      return 1;  // a front-end optimisation that needs nothing from the driver
    case Cap::ENDIANNESS:
      return 0;  // PIPE_ENDIAN_LITTLE: the format codec and the layout are little-endian

    // --- Device identity. ------------------------------------------------------------
    case Cap::VENDOR_ID: {
      cl_uint id = 0;
      return device_.device().getInfo(CL_DEVICE_VENDOR_ID, &id) == CL_SUCCESS ? int(id) : -1;
    }
    case Cap::DEVICE_ID:
      return -1;  // 0xFFFFFFFF: OpenCL 1.2 does not report a PCI device id
    case Cap::ACCELERATED:
      return b(device_.description().is_gpu);
    case Cap::VIDEO_MEMORY:
      return clamp_int(dev.global_mem_size >> 20);
    case Cap::UMA:
      return b(dev.host_unified_memory);
    case Cap::PCI_GROUP:
    case Cap::PCI_BUS:
    case Cap::PCI_DEVICE:
    case Cap::PCI_FUNCTION:
      return 0;  // not known through OpenCL 1.2

    // --- The draw pipeline (kDraw, with kShaders for GRAPHICS). -----------------------
    case Cap::GRAPHICS:
    case Cap::FS_COORD_ORIGIN_UPPER_LEFT:
    case Cap::FS_COORD_PIXEL_CENTER_HALF_INTEGER:
    case Cap::SHADER_STENCIL_EXPORT:
    case Cap::VS_INSTANCEID:
    case Cap::VERTEX_COLOR_UNCLAMPED:
    case Cap::BLEND_EQUATION_SEPARATE:
      return b(kGraphics);
    // Single-sampled rendering standing in for multisampling, without real samples.
    case Cap::FAKE_SW_MSAA:
      return b(kGraphics && !kMultisample);
    // Real samples (resources of 2, 4 and 8 samples; format_support.h). min_samples > 1
    // shades every sample on its own (tile.cl, CLP_RAST_SAMPLE_SHADING).
    case Cap::TEXTURE_MULTISAMPLE:
    case Cap::SAMPLE_SHADING:
    case Cap::TEXTURE_QUERY_SAMPLES:
    case Cap::MULTISAMPLE_Z_RESOLVE:
      return b(kGraphics && kMultisample);
    case Cap::MAX_DUAL_SOURCE_RENDER_TARGETS:
      return b(kGraphics);
    case Cap::PRIMITIVE_RESTART:
    case Cap::PRIMITIVE_RESTART_FIXED_INDEX:
    case Cap::INDEP_BLEND_ENABLE:
    case Cap::INDEP_BLEND_FUNC:
    case Cap::DEPTH_CLIP_DISABLE:
    case Cap::DEPTH_CLIP_DISABLE_SEPARATE:
    case Cap::DEPTH_CLAMP_ENABLE:
    case Cap::VERTEX_ELEMENT_INSTANCE_DIVISOR:
    case Cap::MIXED_COLORBUFFER_FORMATS:
    case Cap::QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION:
    case Cap::START_INSTANCE:
    case Cap::MIXED_FRAMEBUFFER_SIZES:
    case Cap::CLIP_HALFZ:
    case Cap::POLYGON_OFFSET_CLAMP:
    case Cap::DEPTH_BOUNDS_TEST:
    case Cap::DEST_SURFACE_SRGB_CONTROL:
    case Cap::FLATSHADE:
    case Cap::ALPHA_TEST:
    case Cap::TWO_SIDED_COLOR:
    // The tile pass reads the shader's FS_COORD_* properties, and clamps colours itself
    // (clamp_vertex_color at input, clamp_fragment_color at output).
    case Cap::FS_COORD_ORIGIN_LOWER_LEFT:
    case Cap::FS_COORD_PIXEL_CENTER_INTEGER:
    case Cap::FRAGMENT_COLOR_CLAMPED:
    case Cap::VERTEX_COLOR_CLAMPED:
      return b(kDraw);
    case Cap::CLIP_PLANES:
      return kDraw ? int(kMaxClipPlanes) : 0;
    case Cap::VIEWPORT_SUBPIXEL_BITS:
    case Cap::RASTERIZER_SUBPIXEL_BITS:
      return kDraw ? 8 : 0;  // fixed-point snapping with 8 sub-pixel bits (design.md)
    case Cap::SUPPORTED_PRIM_MODES:
    case Cap::SUPPORTED_PRIM_MODES_WITH_RESTART:
      // Every type but PATCHES (tessellation).
      return kDraw ? (1 << unsigned(PrimType::PATCHES)) - 1 : 0;

    // --- Shaders (kShaders). ---------------------------------------------------------
    case Cap::GLSL_FEATURE_LEVEL:
    case Cap::GLSL_FEATURE_LEVEL_COMPATIBILITY:
      return kGraphics ? 330 : 0;
    case Cap::TGSI_TEXCOORD:
    case Cap::SHAREABLE_SHADERS:
    case Cap::SHADER_PACK_HALF_FLOAT:
    case Cap::FS_FINE_DERIVATIVE:
    case Cap::TGSI_DIV:
    case Cap::FRAGMENT_SHADER_DERIVATIVES:
      return b(kShaders);
    case Cap::MAX_VARYINGS:
      return kGraphics ? 32 : 0;
    case Cap::MAX_CONSTANT_BUFFER_SIZE_UINT:
      return kShaders ? 65536 : 0;
    case Cap::COMPUTE:
      return b(kComputeRuns);

    // --- Compute (kCompute): shader buffers and images (COMPUTE and FRAGMENT stages). ----
    case Cap::COMPUTE_GRID_INFO_LAST_BLOCK:  // partial blocks run as launches of their own
    case Cap::IMAGE_LOAD_FORMATTED:          // PIPE_FORMAT_NONE images decode the view's format
    case Cap::IMAGE_STORE_FORMATTED:
    case Cap::IMAGE_ATOMIC_FLOAT_ADD:  // ATOMFADD on R32_FLOAT texels (compare-and-swap loop)
      return b(kComputeRuns);
    case Cap::SHADER_BUFFER_OFFSET_ALIGNMENT:
      return kComputeRuns ? int(shader_buffer_offset_alignment(dev)) : 0;
    case Cap::MAX_SHADER_BUFFER_SIZE_UINT:
      // Shaders address buffers with 32-bit byte offsets; get_param answers an int.
      return kComputeRuns ? int(std::min<uint64_t>(dev.max_mem_alloc_size, 0x7ffffffcu)) : 0;
    case Cap::MAX_COMBINED_SHADER_BUFFERS:
      return kComputeRuns ? int(kComputeShaderBuffers) : 0;
    case Cap::MAX_COMBINED_SHADER_OUTPUT_RESOURCES:
      // Shader buffers and images of one stage (COMPUTE or FRAGMENT), plus colour outputs.
      return kComputeRuns ? int(kComputeShaderBuffers + kComputeShaderImages + kMaxColorBufs) : 0;
    case Cap::MAX_GEOMETRY_OUTPUT_VERTICES:
      return kGraphics && kGeometryShaders ? 256 : 0;
    case Cap::MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS:
      return kGraphics && kGeometryShaders ? 1024 : 0;
    case Cap::MAX_GS_INVOCATIONS:
      return kGraphics && kGeometryShaders ? int(kMaxGsInvocations) : 0;
    case Cap::MAX_SHADER_PATCH_VARYINGS:
      return kGraphics && kTessellation ? 30 : 0;
    case Cap::MAX_VERTEX_STREAMS:
      return 1;

    // --- Texturing (kTexturing): the sampling library (src/kernels/sampling*.h), tested
    // against the host reference sampler (tests/compiler/emit/sampling_*_test.cpp).
    // SEAMLESS_CUBE_MAP(_PER_TEXTURE): seamless_cube_map of each sampler is honoured.
    // TEXTURE_BARRIER: draws run in queue order and are not batched, so a draw sees what
    // earlier draws rendered.
    case Cap::TEXTURE_SHADOW_MAP:
    case Cap::TEXTURE_SWIZZLE:
    case Cap::TEXTURE_MIRROR_CLAMP:
    case Cap::TEXTURE_MIRROR_CLAMP_TO_EDGE:
    case Cap::SEAMLESS_CUBE_MAP:
    case Cap::SEAMLESS_CUBE_MAP_PER_TEXTURE:
    case Cap::CUBE_MAP_ARRAY:
    case Cap::TEXTURE_BUFFER_OBJECTS:
    case Cap::TEXTURE_QUERY_LOD:
    case Cap::SAMPLER_VIEW_TARGET:
    case Cap::TEXTURE_FLOAT_LINEAR:
    case Cap::TEXTURE_HALF_FLOAT_LINEAR:
    case Cap::FRAGMENT_SHADER_TEXTURE_LOD:
    case Cap::GL_CLAMP:
      return b(kTexturing);
    case Cap::TEXTURE_BARRIER:
      return b(kDraw && kTexturing);
    case Cap::MIN_TEXEL_OFFSET:
    case Cap::MIN_TEXTURE_GATHER_OFFSET:
      return kTexturing ? -8 : 0;
    case Cap::MAX_TEXEL_OFFSET:
    case Cap::MAX_TEXTURE_GATHER_OFFSET:
      return kTexturing ? 7 : 0;
    case Cap::MAX_TEXTURE_GATHER_COMPONENTS:
      return kTexturing ? 4 : 0;
    case Cap::TEXTURE_BUFFER_OFFSET_ALIGNMENT:
      return kTexturing ? int(kTextureBufferOffsetAlignment) : 0;
    case Cap::MAX_TEXEL_BUFFER_ELEMENTS_UINT:
      // Elements of the largest texel (16 bytes) in one allocation.
      return kTexturing ? clamp_int(std::min<uint64_t>(limits_.max_buffer / 16, 1u << 27)) : 0;

    // --- Queries, stream output, conditional rendering, blits, mipmaps. ---------------
    case Cap::OCCLUSION_QUERY:
    case Cap::QUERY_PIPELINE_STATISTICS:
      return b(kQueries && kDraw);
    case Cap::QUERY_TIME_ELAPSED:
    case Cap::QUERY_TIMESTAMP:
      return b(kQueries);
    case Cap::QUERY_TIMESTAMP_BITS:
      return kQueries ? 64 : 0;
    case Cap::MAX_STREAM_OUTPUT_BUFFERS:
      return kStreamOutput ? int(kMaxSoBuffers) : 0;
    // Stream output writes any register range to any target at any dword offset
    // (stream.cl); the bound is kMaxSoOutputs vec4 ranges in all.
    case Cap::MAX_STREAM_OUTPUT_SEPARATE_COMPONENTS:
      return kStreamOutput ? 16 : 0;
    case Cap::MAX_STREAM_OUTPUT_INTERLEAVED_COMPONENTS:
      return kStreamOutput ? 64 : 0;
    case Cap::STREAM_OUTPUT_PAUSE_RESUME:
    case Cap::PACKED_STREAM_OUTPUT:
    case Cap::STREAM_OUTPUT_INTERLEAVE_BUFFERS:
      return b(kStreamOutput);
    case Cap::QUERY_SO_OVERFLOW:
      return b(kStreamOutput && kQueries);
    case Cap::CONDITIONAL_RENDER:
    case Cap::CONDITIONAL_RENDER_INVERTED:
      return b(kConditionalRender);
    case Cap::GENERATE_MIPMAP:
      return b(kGenerateMipmap);

    // --- Not supported. ----------------------------------------------------------------
    case Cap::ANISOTROPIC_FILTER:
    case Cap::TGSI_CAN_COMPACT_CONSTANTS:
    case Cap::ESSL_FEATURE_LEVEL:
    case Cap::USER_VERTEX_BUFFERS:
    case Cap::VERTEX_BUFFER_OFFSET_4BYTE_ALIGNED_ONLY:
    case Cap::VERTEX_BUFFER_STRIDE_4BYTE_ALIGNED_ONLY:
    case Cap::VERTEX_ELEMENT_SRC_OFFSET_4BYTE_ALIGNED_ONLY:
    case Cap::VERTEX_ATTRIB_ELEMENT_ALIGNED_ONLY:
    case Cap::BUFFER_SAMPLER_VIEW_RGBA_ONLY:
    case Cap::TEXTURE_BUFFER_SAMPLER:
    case Cap::TEXTURE_TRANSFER_MODES:
    case Cap::TEXTURE_BORDER_COLOR_QUIRK:
    case Cap::VS_LAYER_VIEWPORT:
    case Cap::TEXTURE_GATHER_SM5:
    case Cap::BUFFER_MAP_PERSISTENT_COHERENT:
    case Cap::TEXTURE_GATHER_OFFSETS:
    case Cap::VS_WINDOW_SPACE_POSITION:
    case Cap::DRAW_INDIRECT:
    case Cap::RESOURCE_FROM_USER_MEMORY:
    case Cap::RESOURCE_FROM_USER_MEMORY_COMPUTE_ONLY:
    case Cap::DEVICE_RESET_STATUS_QUERY:
    case Cap::FORCE_PERSAMPLE_INTERP:
    case Cap::COPY_BETWEEN_COMPRESSED_AND_PLAIN_FORMATS:
    case Cap::DRAW_PARAMETERS:
    case Cap::MULTI_DRAW_INDIRECT:
    case Cap::MULTI_DRAW_INDIRECT_PARAMS:
    case Cap::MULTI_DRAW_INDIRECT_PARTIAL_STRIDE:
    case Cap::FS_POSITION_IS_SYSVAL:
    case Cap::FS_POINT_IS_SYSVAL:
    case Cap::FS_FACE_IS_INTEGER_SYSVAL:
    case Cap::INVALIDATE_BUFFER:
    case Cap::STRING_MARKER:
    case Cap::SURFACE_REINTERPRET_BLOCKS:
    case Cap::QUERY_BUFFER_OBJECT:
    case Cap::QUERY_MEMORY_INFO:
    case Cap::FRAMEBUFFER_NO_ATTACHMENT:
    case Cap::ROBUST_BUFFER_ACCESS_BEHAVIOR:
    case Cap::CULL_DISTANCE:
    case Cap::CULL_DISTANCE_NOCOMBINE:
    case Cap::SHADER_GROUP_VOTE:
    case Cap::MAX_WINDOW_RECTANGLES:
    case Cap::POLYGON_OFFSET_UNITS_UNSCALED:
    case Cap::SHADER_ARRAY_COMPONENTS:
    case Cap::SHADER_CAN_READ_OUTPUTS:
    case Cap::NATIVE_FENCE_FD:
    case Cap::GLSL_TESS_LEVELS_AS_INPUTS:
    case Cap::FBFETCH:
    case Cap::LEGACY_MATH_RULES:
    case Cap::DOUBLES:
    case Cap::INT64:
    case Cap::INT64_DIVMOD:
    case Cap::TGSI_TEX_TXF_LZ:
    case Cap::SHADER_CLOCK:
    case Cap::POLYGON_MODE_FILL_RECTANGLE:
    case Cap::SPARSE_BUFFER_PAGE_SIZE:
    case Cap::SHADER_BALLOT:
    case Cap::TES_LAYER_VIEWPORT:
    case Cap::CAN_BIND_CONST_BUFFER_AS_VERTEX:
    case Cap::ALLOW_MAPPED_BUFFERS_DURING_EXECUTION:
    case Cap::POST_DEPTH_COVERAGE:
    case Cap::BINDLESS_TEXTURE:
    case Cap::NIR_SAMPLERS_AS_DEREF:
    case Cap::MEMOBJ:
    case Cap::LOAD_CONSTBUF:
    case Cap::TILE_RASTER_ORDER:
    case Cap::FRAMEBUFFER_MSAA_CONSTRAINTS:
    case Cap::SIGNED_VERTEX_BUFFER_OFFSET:
    case Cap::CONTEXT_PRIORITY_MASK:
    case Cap::FENCE_SIGNAL:
    case Cap::CONSTBUF0_FLAGS:
    case Cap::PACKED_UNIFORMS:
    case Cap::CONSERVATIVE_RASTER_POST_SNAP_TRIANGLES:
    case Cap::CONSERVATIVE_RASTER_POST_SNAP_POINTS_LINES:
    case Cap::CONSERVATIVE_RASTER_PRE_SNAP_TRIANGLES:
    case Cap::CONSERVATIVE_RASTER_PRE_SNAP_POINTS_LINES:
    case Cap::MAX_CONSERVATIVE_RASTER_SUBPIXEL_PRECISION_BIAS:
    case Cap::CONSERVATIVE_RASTER_POST_DEPTH_COVERAGE:
    case Cap::CONSERVATIVE_RASTER_INNER_COVERAGE:
    case Cap::PROGRAMMABLE_SAMPLE_LOCATIONS:
    case Cap::MAX_COMBINED_HW_ATOMIC_COUNTERS:
    case Cap::MAX_COMBINED_HW_ATOMIC_COUNTER_BUFFERS:
    case Cap::SURFACE_SAMPLE_COUNT:
    case Cap::QUERY_PIPELINE_STATISTICS_SINGLE:
    case Cap::RGB_OVERRIDE_DST_ALPHA_BLEND:
    case Cap::NIR_COMPACT_ARRAYS:
    case Cap::COMPUTE_SHADER_DERIVATIVES:
    case Cap::THROTTLE:
    case Cap::DMABUF:
    case Cap::PREFER_COMPUTE_FOR_MULTIMEDIA:
    case Cap::FRAGMENT_SHADER_INTERLOCK:
    case Cap::FBFETCH_COHERENT:
    case Cap::ATOMIC_FLOAT_MINMAX:
    case Cap::TEXTURE_SHADOW_LOD:
    case Cap::SHADER_SAMPLES_IDENTICAL:
    case Cap::IMAGE_ATOMIC_INC_WRAP:
    case Cap::PREFER_IMM_ARRAYS_AS_CONSTBUF:
    case Cap::GL_SPIRV:
    case Cap::GL_SPIRV_VARIABLE_POINTERS:
    case Cap::DEMOTE_TO_HELPER_INVOCATION:
    case Cap::TGSI_TG4_COMPONENT_IN_SWIZZLE:
    case Cap::POINT_SIZE_FIXED:
    case Cap::OPENCL_INTEGER_FUNCTIONS:
    case Cap::INTEGER_MULTIPLY_32X16:
    case Cap::FRONTEND_NOOP:
    case Cap::NIR_IMAGES_AS_DEREF:
    case Cap::VIEWPORT_TRANSFORM_LOWERED:
    case Cap::PSIZ_CLAMPED:
    case Cap::VIEWPORT_SWIZZLE:
    case Cap::SYSTEM_SVM:
    case Cap::VIEWPORT_MASK:
    case Cap::ALPHA_TO_COVERAGE_DITHER_CONTROL:
    case Cap::MAP_UNSYNCHRONIZED_THREAD_SAFE:
    case Cap::GLSL_ZERO_INIT:
    case Cap::BLEND_EQUATION_ADVANCED:
    case Cap::NIR_ATOMICS_AS_DEREF:
    case Cap::NO_CLIP_ON_COPY_TEX:
    case Cap::SHADER_ATOMIC_INT64:
    case Cap::DEVICE_PROTECTED_SURFACE:
    case Cap::PREFER_REAL_BUFFER_IN_CONSTBUF0:
    case Cap::SAMPLER_REDUCTION_MINMAX:
    case Cap::SAMPLER_REDUCTION_MINMAX_ARB:
    case Cap::EMULATE_NONFIXED_PRIMITIVE_RESTART:
    case Cap::PREFER_BACK_BUFFER_REUSE:
    case Cap::DRAW_VERTEX_STATE:
    case Cap::PREFER_POT_ALIGNED_VARYINGS:
    case Cap::MAX_SPARSE_TEXTURE_SIZE:
    case Cap::MAX_SPARSE_3D_TEXTURE_SIZE:
    case Cap::MAX_SPARSE_ARRAY_TEXTURE_LAYERS:
    case Cap::SPARSE_TEXTURE_FULL_ARRAY_CUBE_MIPMAPS:
    case Cap::QUERY_SPARSE_TEXTURE_RESIDENCY:
    case Cap::CLAMP_SPARSE_TEXTURE_LOD:
    case Cap::ALLOW_DRAW_OUT_OF_ORDER:
    case Cap::HARDWARE_GL_SELECT:
    case Cap::DITHERING:
    case Cap::FBFETCH_ZS:
    case Cap::TIMELINE_SEMAPHORE_IMPORT:
    case Cap::DEVICE_PROTECTED_CONTEXT:
    case Cap::ALLOW_GLTHREAD_BUFFER_SUBDATA_OPT:
    case Cap::VALIDATE_ALL_DIRTY_STATES:
      return 0;
    case Cap::LAST:
      return 0;  // not a cap
  }
  return 0;
}

float ScreenImpl::get_paramf(CapF cap) const {
  switch (cap) {
    case CapF::MIN_LINE_WIDTH:
    case CapF::MIN_LINE_WIDTH_AA:
    case CapF::MIN_POINT_SIZE:
    case CapF::MIN_POINT_SIZE_AA:
      return kDraw ? 1.0f : 0.0f;
    case CapF::MAX_LINE_WIDTH:
    case CapF::MAX_LINE_WIDTH_AA:
    case CapF::MAX_POINT_SIZE:
    case CapF::MAX_POINT_SIZE_AA:
      return kDraw ? 255.0f : 0.0f;
    case CapF::LINE_WIDTH_GRANULARITY:
    case CapF::POINT_SIZE_GRANULARITY:
      return kDraw ? 0.1f : 0.0f;
    case CapF::MAX_TEXTURE_ANISOTROPY:
      return 0.0f;  // ANISOTROPIC_FILTER = 0
    case CapF::MAX_TEXTURE_LOD_BIAS:
      return kTexturing ? 16.0f : 0.0f;
    case CapF::MIN_CONSERVATIVE_RASTER_DILATE:
    case CapF::MAX_CONSERVATIVE_RASTER_DILATE:
    case CapF::CONSERVATIVE_RASTER_DILATE_GRANULARITY:
      return 0.0f;  // no conservative rasterization
    case CapF::LAST:
      return 0.0f;
  }
  return 0.0f;
}

int ScreenImpl::get_shader_param(ShaderType shader, ShaderCap cap) const {
  if (unsigned(shader) >= kShaderTypes || !stage_runs(shader)) return 0;
  const bool fragment = shader == ShaderType::FRAGMENT;
  switch (cap) {
    // Limits of the compiler (issue 3) and the linkage: its engineer owns these values.
    case ShaderCap::MAX_INSTRUCTIONS:
    case ShaderCap::MAX_ALU_INSTRUCTIONS:
    case ShaderCap::MAX_TEX_INSTRUCTIONS:
    case ShaderCap::MAX_TEX_INDIRECTIONS:
      return 65536;
    case ShaderCap::MAX_CONTROL_FLOW_DEPTH:
      return 64;
    case ShaderCap::MAX_INPUTS:
      return shader == ShaderType::VERTEX ? int(kMaxAttribs) : 32;
    case ShaderCap::MAX_OUTPUTS:
      return fragment ? int(kMaxColorBufs) : 32;
    case ShaderCap::MAX_CONST_BUFFER0_SIZE:
      return 65536;  // bytes
    case ShaderCap::MAX_CONST_BUFFERS:
      return 16;
    case ShaderCap::MAX_TEMPS:
      return 1024;
    case ShaderCap::CONT_SUPPORTED:
    case ShaderCap::INDIRECT_INPUT_ADDR:
    case ShaderCap::INDIRECT_OUTPUT_ADDR:
    case ShaderCap::INDIRECT_TEMP_ADDR:
    case ShaderCap::INDIRECT_CONST_ADDR:
    case ShaderCap::SUBROUTINES:
    case ShaderCap::INTEGERS:
    case ShaderCap::TGSI_SQRT_SUPPORTED:
    case ShaderCap::TGSI_ANY_INOUT_DECL_RANGE:
      return 1;
    case ShaderCap::MAX_TEXTURE_SAMPLERS:
    case ShaderCap::MAX_SAMPLER_VIEWS:
      return kTexturing ? 16 : 0;
    case ShaderCap::MAX_SHADER_BUFFERS:
      // Compute and fragment shaders (tests/frontend/fragment_resources_test.cpp: stores
      // and atomics once per covered pixel). The tile pass's 17 own parameters plus every
      // resource parameter still fit 1024 bytes. Other draw stages bind them too, but
      // nothing tests them there yet.
      return shader == ShaderType::COMPUTE || shader == ShaderType::FRAGMENT
                 ? int(kComputeShaderBuffers)
                 : 0;
    case ShaderCap::MAX_SHADER_IMAGES:
      return shader == ShaderType::COMPUTE || shader == ShaderType::FRAGMENT
                 ? int(kComputeShaderImages)
                 : 0;
    case ShaderCap::PREFERRED_IR:
      return int(ShaderIr::TGSI);
    case ShaderCap::SUPPORTED_IRS:
      return 1 << unsigned(ShaderIr::TGSI);
    case ShaderCap::INT64_ATOMICS:
    case ShaderCap::FP16:
    case ShaderCap::FP16_DERIVATIVES:
    case ShaderCap::FP16_CONST_BUFFERS:
    case ShaderCap::INT16:
    case ShaderCap::GLSL_16BIT_CONSTS:
    case ShaderCap::DROUND_SUPPORTED:
    case ShaderCap::DFRACEXP_DLDEXP_SUPPORTED:
    case ShaderCap::LDEXP_SUPPORTED:
    case ShaderCap::MAX_HW_ATOMIC_COUNTERS:
    case ShaderCap::MAX_HW_ATOMIC_COUNTER_BUFFERS:
      return 0;
    case ShaderCap::LAST:
      return 0;
  }
  return 0;
}

std::vector<uint64_t> ScreenImpl::get_compute_param(ComputeCap cap) const {
  // Device facts, reported even while COMPUTE = 0 (clients ask only when it is 1). The
  // grid and block limits are the ones launch_grid enforces (compute_grid.h).
  const runtime::DeviceLimits& dev = device_.limits();
  const ComputeLimits lim = compute_limits(dev);
  switch (cap) {
    case ComputeCap::ADDRESS_BITS:
      // MEMORY GLOBAL addresses (set_global_binding handles) are 32-bit byte addresses of
      // the space compute_global.h builds, whatever the device's own pointer width.
      return {32};
    case ComputeCap::IR_TARGET:
      return {};  // a target-triple string in Gallium; clpipe takes TGSI, it has none
    case ComputeCap::GRID_DIMENSION:
      return {3};
    case ComputeCap::MAX_GRID_SIZE:
      return {lim.max_grid[0], lim.max_grid[1], lim.max_grid[2]};  // work-groups
    case ComputeCap::MAX_BLOCK_SIZE:
      return {lim.max_block[0], lim.max_block[1], lim.max_block[2]};
    case ComputeCap::MAX_THREADS_PER_BLOCK:
      return {lim.max_threads};
    case ComputeCap::MAX_GLOBAL_SIZE:
      // All buffers bound with set_global_binding together: one device allocation that
      // 32-bit addresses reach.
      return {global_space_limit(dev.max_mem_alloc_size)};
    case ComputeCap::MAX_LOCAL_SIZE:
      return {lim.local_mem_size};
    case ComputeCap::MAX_PRIVATE_SIZE:
      return {0};  // OpenCL 1.2 does not report private memory
    case ComputeCap::MAX_INPUT_SIZE:
      return {kMaxInputSize};  // GridInfo::input, bound as MEMORY INPUT
    case ComputeCap::MAX_MEM_ALLOC_SIZE:
      return {dev.max_mem_alloc_size};
    case ComputeCap::MAX_CLOCK_FREQUENCY:
      return {dev.max_clock_frequency};
    case ComputeCap::MAX_COMPUTE_UNITS:
      return {dev.max_compute_units};
    case ComputeCap::IMAGES_SUPPORTED:
      return {uint64_t(b(kComputeRuns))};  // shader images in compute shaders
    case ComputeCap::SUBGROUP_SIZE:
      return {1};  // one invocation per work-item and no sub-group operations
    case ComputeCap::MAX_VARIABLE_THREADS_PER_BLOCK:
      // A shader without CS_FIXED_BLOCK_* runs with any block within the limits.
      return {kComputeRuns ? lim.max_threads : 0};
    case ComputeCap::LAST:
      return {};
  }
  return {};
}

}  // namespace clpipe::frontend
