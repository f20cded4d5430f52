// Caps blob construction from a clpipe Screen (see caps.h). Each virgl field names the
// Gallium cap or format query it comes from; fields for features the vtest server cannot
// forward (atomic counter buffers: no API call) stay 0 whatever the Screen says.
#include "vtest/caps.h"

#include <algorithm>
#include <cstring>

#include "vtest/formats.h"

namespace clpipe::frontend::vtest {
namespace {

class Writer {
 public:
  explicit Writer(CapsBlob& b) : b_(b) {}
  void u32(uint32_t off, uint32_t v) { std::memcpy(b_.data() + off, &v, 4); }
  void i32(uint32_t off, int32_t v) { std::memcpy(b_.data() + off, &v, 4); }
  void f32(uint32_t off, float v) { std::memcpy(b_.data() + off, &v, 4); }
  void format(uint32_t mask, uint32_t virgl_format) {
    b_[mask + 4 * (virgl_format / 32) + (virgl_format % 32) / 8] |=
        uint8_t(1u << (virgl_format % 8));
  }

 private:
  CapsBlob& b_;
};

uint32_t clamp_u32(int v) {
  return v < 0 ? 0u : uint32_t(v);
}

uint32_t level_size(int levels) {
  return levels <= 0 ? 0u : 1u << std::min(levels - 1, 31);
}

struct ScreenQuery {
  const Screen& s;
  bool cap(Cap c) const { return s.get_param(c) != 0; }
  uint32_t value(Cap c) const { return clamp_u32(s.get_param(c)); }
  uint32_t shader(ShaderType t, ShaderCap c) const { return clamp_u32(s.get_shader_param(t, c)); }
  bool stage_supported(ShaderType t) const { return shader(t, ShaderCap::MAX_INSTRUCTIONS) > 0; }
};

void fill_formats(const Screen& s, Writer& w, bool real_msaa) {
  for (uint32_t v = 1; v < kVirglFormatCount; ++v) {
    const Format f = format_from_virgl(v);
    if (f == Format::NONE) continue;
    const bool zs = format_is_depth_or_stencil(f);
    const bool sampled =
        s.is_format_supported(f, TextureTarget::TEXTURE_2D, 0, 0, Bind::SAMPLER_VIEW);
    const bool rendered =
        !zs && s.is_format_supported(f, TextureTarget::TEXTURE_2D, 0, 0, Bind::RENDER_TARGET);
    const bool depth =
        zs && s.is_format_supported(f, TextureTarget::TEXTURE_2D, 0, 0, Bind::DEPTH_STENCIL);
    // Mesa reads depth formats from the sampler mask (doc 5.1).
    if (sampled) w.format(CapsOffset::SAMPLER, v);
    if (rendered) w.format(CapsOffset::RENDER, v);
    if (depth) w.format(CapsOffset::DEPTHSTENCIL, v);
    if (s.is_format_supported(f, TextureTarget::BUFFER, 0, 0, Bind::VERTEX_BUFFER))
      w.format(CapsOffset::VERTEXBUFFER, v);
    // Readback copies raw bytes: any resource that can exist can be read back.
    if (sampled || rendered || depth) w.format(CapsOffset::SUPPORTED_READBACK_FORMATS, v);
    if (real_msaa && s.is_format_supported(f, TextureTarget::TEXTURE_2D, 4, 4,
                                           zs ? Bind::DEPTH_STENCIL : Bind::RENDER_TARGET))
      w.format(CapsOffset::SUPPORTED_MULTISAMPLE_FORMATS, v);
  }
}

uint32_t bset_from(const ScreenQuery& q) {
  struct Pair {
    uint32_t bit;
    Cap cap;
  };
  static constexpr Pair kPairs[] = {
      {Bset::INDEP_BLEND_ENABLE, Cap::INDEP_BLEND_ENABLE},
      {Bset::INDEP_BLEND_FUNC, Cap::INDEP_BLEND_FUNC},
      {Bset::CUBE_MAP_ARRAY, Cap::CUBE_MAP_ARRAY},
      {Bset::SHADER_STENCIL_EXPORT, Cap::SHADER_STENCIL_EXPORT},
      {Bset::CONDITIONAL_RENDER, Cap::CONDITIONAL_RENDER},
      {Bset::START_INSTANCE, Cap::START_INSTANCE},
      {Bset::PRIMITIVE_RESTART, Cap::PRIMITIVE_RESTART},
      {Bset::BLEND_EQ_SEP, Cap::BLEND_EQUATION_SEPARATE},
      {Bset::INSTANCEID, Cap::VS_INSTANCEID},
      {Bset::VERTEX_ELEMENT_INSTANCE_DIVISOR, Cap::VERTEX_ELEMENT_INSTANCE_DIVISOR},
      {Bset::SEAMLESS_CUBE_MAP, Cap::SEAMLESS_CUBE_MAP},
      {Bset::OCCLUSION_QUERY, Cap::OCCLUSION_QUERY},
      {Bset::STREAMOUT_PAUSE_RESUME, Cap::STREAM_OUTPUT_PAUSE_RESUME},
      {Bset::TEXTURE_MULTISAMPLE, Cap::TEXTURE_MULTISAMPLE},
      {Bset::DEPTH_CLIP_DISABLE, Cap::DEPTH_CLIP_DISABLE},
      {Bset::SEAMLESS_CUBE_MAP_PER_TEXTURE, Cap::SEAMLESS_CUBE_MAP_PER_TEXTURE},
      {Bset::MIRROR_CLAMP, Cap::TEXTURE_MIRROR_CLAMP},
      {Bset::TEXTURE_QUERY_LOD, Cap::TEXTURE_QUERY_LOD},
      {Bset::HAS_FP64, Cap::DOUBLES},
      {Bset::HAS_INDIRECT_DRAW, Cap::DRAW_INDIRECT},
      {Bset::HAS_SAMPLE_SHADING, Cap::SAMPLE_SHADING},
      {Bset::HAS_CULL, Cap::CULL_DISTANCE},
      {Bset::CONDITIONAL_RENDER_INVERTED, Cap::CONDITIONAL_RENDER_INVERTED},
      {Bset::DERIVATIVE_CONTROL, Cap::FS_FINE_DERIVATIVE},
      {Bset::POLYGON_OFFSET_CLAMP, Cap::POLYGON_OFFSET_CLAMP},
      {Bset::TRANSFORM_FEEDBACK_OVERFLOW_QUERY, Cap::QUERY_SO_OVERFLOW},
  };
  uint32_t b = 0;
  for (const auto& p : kPairs)
    if (q.cap(p.cap)) b |= p.bit;
  if (q.cap(Cap::QUERY_TIME_ELAPSED) && q.cap(Cap::QUERY_TIMESTAMP)) b |= Bset::TIMER_QUERY;
  // virgl maps both FS_COORD_ORIGIN_LOWER_LEFT and FS_COORD_PIXEL_CENTER_INTEGER to one bit.
  if (q.cap(Cap::FS_COORD_ORIGIN_LOWER_LEFT) && q.cap(Cap::FS_COORD_PIXEL_CENTER_INTEGER))
    b |= Bset::FRAGMENT_COORD_CONVENTIONS;
  if (q.shader(ShaderType::FRAGMENT, ShaderCap::MAX_CONST_BUFFERS) > 1) b |= Bset::UBO;
  // Native clamping; without the bit Mesa clamps colours in the shaders itself.
  if (q.cap(Cap::VERTEX_COLOR_CLAMPED) && q.cap(Cap::FRAGMENT_COLOR_CLAMPED))
    b |= Bset::COLOR_CLAMPING;
  if (q.stage_supported(ShaderType::TESS_CTRL) && q.stage_supported(ShaderType::TESS_EVAL))
    b |= Bset::HAS_TESSELLATION_SHADERS;
  return b;
}

uint32_t capability_bits_from(const ScreenQuery& q, bool compute, bool ssbo_or_images) {
  struct Pair {
    uint32_t bit;
    Cap cap;
  };
  static constexpr Pair kPairs[] = {
      {VirglCap::TEXTURE_VIEW, Cap::SAMPLER_VIEW_TARGET},
      {VirglCap::SET_MIN_SAMPLES, Cap::SAMPLE_SHADING},
      {VirglCap::TXQS, Cap::TEXTURE_QUERY_SAMPLES},
      {VirglCap::FB_NO_ATTACH, Cap::FRAMEBUFFER_NO_ATTACHMENT},
      {VirglCap::ROBUST_BUFFER_ACCESS, Cap::ROBUST_BUFFER_ACCESS_BEHAVIOR},
      {VirglCap::TGSI_FBFETCH, Cap::FBFETCH},
      {VirglCap::SHADER_CLOCK, Cap::SHADER_CLOCK},
      {VirglCap::TEXTURE_BARRIER, Cap::TEXTURE_BARRIER},
      {VirglCap::SRGB_WRITE_CONTROL, Cap::DEST_SURFACE_SRGB_CONTROL},
      {VirglCap::QBO, Cap::QUERY_BUFFER_OBJECT},
      {VirglCap::FBO_MIXED_COLOR_FORMATS, Cap::MIXED_COLORBUFFER_FORMATS},
      {VirglCap::MULTI_DRAW_INDIRECT, Cap::MULTI_DRAW_INDIRECT},
      {VirglCap::INDIRECT_PARAMS, Cap::MULTI_DRAW_INDIRECT_PARAMS},
      {VirglCap::CLIP_HALFZ, Cap::CLIP_HALFZ},
      {VirglCap::CLEAR_TEXTURE, Cap::CLEAR_TEXTURE},
  };
  // Encoded transfers (TRANSFER3D in the submit) and staging uploads (COPY_TRANSFER3D,
  // decode_transfer.cpp) are the server's choice: always on. Without COPY_TRANSFER a
  // client that writes a buffer recorded draws use waits for them first (a
  // RESOURCE_BUSY_WAIT, so a scene per write); with it, it writes a staging buffer and
  // the server orders the copy after those draws.
  uint32_t b = VirglCap::TRANSFER | VirglCap::COPY_TRANSFER;
  for (const auto& p : kPairs)
    if (q.cap(p.cap)) b |= p.bit;
  if (compute) b |= VirglCap::COMPUTE_SHADER;
  if (ssbo_or_images) b |= VirglCap::MEMORY_BARRIER;
  if (q.value(Cap::MAX_VERTEX_STREAMS) > 1) b |= VirglCap::TRANSFORM_FEEDBACK3;
  if (q.shader(ShaderType::VERTEX, ShaderCap::INDIRECT_INPUT_ADDR) &&
      q.shader(ShaderType::FRAGMENT, ShaderCap::INDIRECT_INPUT_ADDR))
    b |= VirglCap::INDIRECT_INPUT_ADDR;
  return b;
}

// Everything except the GLSL level, which build_caps chooses afterwards.
CapsBlob build_fields(const Screen& s) {
  CapsBlob blob{};
  Writer w(blob);
  const ScreenQuery q{s};
  const ShaderType kVs = ShaderType::VERTEX, kFs = ShaderType::FRAGMENT;

  // Real multisampling needs sample counts >= 4 of RGBA8 as textures (doc 5.3); anything
  // less is advertised as "fake" MSAA (max_samples 1), which GL 3.x accepts.
  uint32_t max_samples = 1;
  if (q.cap(Cap::TEXTURE_MULTISAMPLE))
    for (uint32_t n : {16u, 8u, 4u})
      if (s.is_format_supported(Format::R8G8B8A8_UNORM, TextureTarget::TEXTURE_2D, n, n,
                                Bind::RENDER_TARGET)) {
        max_samples = n;
        break;
      }
  const bool real_msaa = max_samples >= 4;
  fill_formats(s, w, real_msaa);

  const bool compute = q.cap(Cap::COMPUTE) && q.stage_supported(ShaderType::COMPUTE);
  // virgl has one field for fragment and compute shaders (Mesa gives both stages its
  // value): the smaller of the two stages' limits, so that neither is overstated.
  const uint32_t ssbo_cs =
      compute ? q.shader(ShaderType::COMPUTE, ShaderCap::MAX_SHADER_BUFFERS) : 0;
  const uint32_t img_cs = compute ? q.shader(ShaderType::COMPUTE, ShaderCap::MAX_SHADER_IMAGES) : 0;
  const uint32_t ssbo_fs = std::min(q.shader(kFs, ShaderCap::MAX_SHADER_BUFFERS), ssbo_cs);
  const uint32_t ssbo_vs = q.shader(kVs, ShaderCap::MAX_SHADER_BUFFERS);
  const uint32_t img_fs = std::min(q.shader(kFs, ShaderCap::MAX_SHADER_IMAGES), img_cs);
  const uint32_t img_vs = q.shader(kVs, ShaderCap::MAX_SHADER_IMAGES);

  w.u32(CapsOffset::MAX_VERSION, 2);
  w.u32(CapsOffset::BSET, bset_from(q));
  w.u32(CapsOffset::MAX_TEXTURE_ARRAY_LAYERS, q.value(Cap::MAX_TEXTURE_ARRAY_LAYERS));
  w.u32(CapsOffset::MAX_STREAMOUT_BUFFERS, q.value(Cap::MAX_STREAM_OUTPUT_BUFFERS));
  w.u32(CapsOffset::MAX_DUAL_SOURCE_RENDER_TARGETS, q.value(Cap::MAX_DUAL_SOURCE_RENDER_TARGETS));
  w.u32(CapsOffset::MAX_RENDER_TARGETS, std::min(q.value(Cap::MAX_RENDER_TARGETS), kMaxColorBufs));
  w.u32(CapsOffset::MAX_SAMPLES, max_samples);
  // Sample positions in 1/16 pixel, one byte per sample, x in the high nibble (Mesa's
  // virgl_get_sample_position): word 0 for 2 samples, 1 for 4, 2-3 for 8, 4-7 for 16.
  if (real_msaa) {
    uint32_t words[8] = {};
    for (unsigned n : {2u, 4u, 8u, 16u}) {
      if (n > max_samples) break;
      const unsigned first = n == 2 ? 0 : n == 4 ? 1 : n == 8 ? 2 : 4;
      for (unsigned i = 0; i < n; ++i) {
        float p[2];
        if (!s.get_sample_position(n, i, p).is_ok()) continue;
        const uint32_t x = std::min(15u, uint32_t(p[0] * 16.0f));
        const uint32_t y = std::min(15u, uint32_t(p[1] * 16.0f));
        words[first + i / 4] |= (x << 4 | y) << (8 * (i % 4));
      }
    }
    for (unsigned k = 0; k < 8; ++k)
      w.u32(CapsOffset::SAMPLE_LOCATIONS + 4 * k, words[k]);
  }
  uint32_t prims = q.value(Cap::SUPPORTED_PRIM_MODES) & ((1u << kPrimTypes) - 1);
  if (prims == 0)  // the modes every Gallium driver draws, plus adjacency with a GS
    prims = 0x7f | (q.stage_supported(ShaderType::GEOMETRY) ? 0x3c00u : 0u);
  w.u32(CapsOffset::PRIM_MASK, prims);
  w.u32(CapsOffset::MAX_TBO_SIZE,
        q.cap(Cap::TEXTURE_BUFFER_OBJECTS) ? q.value(Cap::MAX_TEXEL_BUFFER_ELEMENTS_UINT) : 0);
  w.u32(CapsOffset::MAX_UNIFORM_BLOCKS,
        std::min({q.shader(kVs, ShaderCap::MAX_CONST_BUFFERS),
                  q.shader(kFs, ShaderCap::MAX_CONST_BUFFERS), kMaxConstantBuffers}));
  w.u32(CapsOffset::MAX_VIEWPORTS, std::min(q.value(Cap::MAX_VIEWPORTS), kMaxViewports));
  w.u32(CapsOffset::MAX_TEXTURE_GATHER_COMPONENTS, q.value(Cap::MAX_TEXTURE_GATHER_COMPONENTS));

  const CapF kFloats[] = {
      CapF::MIN_POINT_SIZE,    CapF::MAX_POINT_SIZE,    CapF::MIN_POINT_SIZE_AA,
      CapF::MAX_POINT_SIZE_AA, CapF::MIN_LINE_WIDTH,    CapF::MAX_LINE_WIDTH,
      CapF::MIN_LINE_WIDTH_AA, CapF::MAX_LINE_WIDTH_AA, CapF::MAX_TEXTURE_LOD_BIAS};
  for (uint32_t i = 0; i < 9; ++i)
    w.f32(CapsOffset::MIN_ALIASED_POINT_SIZE + 4 * i, s.get_paramf(kFloats[i]));
  w.u32(CapsOffset::MAX_GEOM_OUTPUT_VERTICES, q.value(Cap::MAX_GEOMETRY_OUTPUT_VERTICES));
  w.u32(CapsOffset::MAX_GEOM_TOTAL_OUTPUT_COMPONENTS,
        q.value(Cap::MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS));
  w.u32(CapsOffset::MAX_VERTEX_OUTPUTS, q.shader(kVs, ShaderCap::MAX_OUTPUTS));
  w.u32(CapsOffset::MAX_VERTEX_ATTRIBS,
        std::min(q.shader(kVs, ShaderCap::MAX_INPUTS), kMaxAttribs));
  w.u32(CapsOffset::MAX_SHADER_PATCH_VARYINGS, q.value(Cap::MAX_SHADER_PATCH_VARYINGS));
  w.i32(CapsOffset::MIN_TEXEL_OFFSET, s.get_param(Cap::MIN_TEXEL_OFFSET));
  w.i32(CapsOffset::MAX_TEXEL_OFFSET, s.get_param(Cap::MAX_TEXEL_OFFSET));
  w.i32(CapsOffset::MIN_TEXTURE_GATHER_OFFSET, s.get_param(Cap::MIN_TEXTURE_GATHER_OFFSET));
  w.i32(CapsOffset::MAX_TEXTURE_GATHER_OFFSET, s.get_param(Cap::MAX_TEXTURE_GATHER_OFFSET));
  w.u32(CapsOffset::TEXTURE_BUFFER_OFFSET_ALIGNMENT, q.value(Cap::TEXTURE_BUFFER_OFFSET_ALIGNMENT));
  // Mesa divides by this: never 0.
  w.u32(CapsOffset::UNIFORM_BUFFER_OFFSET_ALIGNMENT,
        std::max(1u, q.value(Cap::CONSTANT_BUFFER_OFFSET_ALIGNMENT)));
  w.u32(CapsOffset::SHADER_BUFFER_OFFSET_ALIGNMENT,
        std::max(1u, q.value(Cap::SHADER_BUFFER_OFFSET_ALIGNMENT)));
  w.u32(CapsOffset::CAPABILITY_BITS,
        capability_bits_from(q, compute, ssbo_fs + ssbo_vs + img_fs + img_vs > 0));
  w.u32(CapsOffset::MAX_VERTEX_ATTRIB_STRIDE, q.value(Cap::MAX_VERTEX_ATTRIB_STRIDE));
  w.u32(CapsOffset::MAX_SHADER_BUFFER_FRAG_COMPUTE, ssbo_fs);
  w.u32(CapsOffset::MAX_SHADER_BUFFER_OTHER_STAGES, ssbo_vs);
  w.u32(CapsOffset::MAX_SHADER_IMAGE_FRAG_COMPUTE, img_fs);
  w.u32(CapsOffset::MAX_SHADER_IMAGE_OTHER_STAGES, img_vs);
  if (compute) {
    auto first = [&](ComputeCap c) {
      const std::vector<uint64_t> v = s.get_compute_param(c);
      return v.empty() ? 0u : uint32_t(std::min<uint64_t>(v[0], UINT32_MAX));
    };
    w.u32(CapsOffset::MAX_COMPUTE_WORK_GROUP_INVOCATIONS, first(ComputeCap::MAX_THREADS_PER_BLOCK));
    w.u32(CapsOffset::MAX_COMPUTE_SHARED_MEMORY_SIZE, first(ComputeCap::MAX_LOCAL_SIZE));
    const std::vector<uint64_t> grid = s.get_compute_param(ComputeCap::MAX_GRID_SIZE);
    const std::vector<uint64_t> block = s.get_compute_param(ComputeCap::MAX_BLOCK_SIZE);
    for (uint32_t i = 0; i < 3; ++i) {
      w.u32(CapsOffset::MAX_COMPUTE_GRID_SIZE + 4 * i,
            i < grid.size() ? uint32_t(std::min<uint64_t>(grid[i], UINT32_MAX)) : 0);
      w.u32(CapsOffset::MAX_COMPUTE_BLOCK_SIZE + 4 * i,
            i < block.size() ? uint32_t(std::min<uint64_t>(block[i], UINT32_MAX)) : 0);
    }
  }
  w.u32(CapsOffset::MAX_TEXTURE_2D_SIZE, q.value(Cap::MAX_TEXTURE_2D_SIZE));
  w.u32(CapsOffset::MAX_TEXTURE_3D_SIZE, level_size(s.get_param(Cap::MAX_TEXTURE_3D_LEVELS)));
  w.u32(CapsOffset::MAX_TEXTURE_CUBE_SIZE, level_size(s.get_param(Cap::MAX_TEXTURE_CUBE_LEVELS)));
  w.u32(CapsOffset::MAX_COMBINED_SHADER_BUFFERS, q.value(Cap::MAX_COMBINED_SHADER_BUFFERS));
  // Atomic counter fields stay 0: the clpipe API cannot bind atomic counter buffers.

  // host_feature_check_version: >= 6 gives the compatibility profile the full GLSL level,
  // >= 10 makes Mesa emit TGSI TEXCOORD semantics (only if clpipe parses them), >= 12 / 13
  // make Mesa read the per-stage constant buffer and uniform block sizes below.
  const bool texcoord = q.cap(Cap::TGSI_TEXCOORD);
  w.u32(CapsOffset::HOST_FEATURE_CHECK_VERSION, texcoord ? 13 : 9);
  // BLEND_EQUATION stays clear whatever the Screen says: with it Mesa sends advanced blend
  // equations in RT0's alpha_src_factor, and BlendState has no field to carry them.
  uint32_t v2 = 0;
  if (q.cap(Cap::TEXTURE_SHADOW_LOD)) v2 |= VirglCapV2::TEXTURE_SHADOW_LOD;
  w.u32(CapsOffset::CAPABILITY_BITS_V2, v2);
  const std::string name = s.get_name();
  std::memcpy(blob.data() + CapsOffset::RENDERER, name.data(),
              std::min<size_t>(name.size(), kRendererBytes - 1));
  w.f32(CapsOffset::MAX_ANISOTROPY, s.get_paramf(CapF::MAX_TEXTURE_ANISOTROPY));
  w.u32(CapsOffset::MAX_SHADER_SAMPLER_VIEWS,
        std::min({q.shader(kVs, ShaderCap::MAX_SAMPLER_VIEWS),
                  q.shader(kFs, ShaderCap::MAX_SAMPLER_VIEWS), 32u}));
  for (uint32_t stage = 0; stage < kVirglStages; ++stage) {
    const ShaderType t = shader_type_from_wire(stage);
    const uint32_t size = q.stage_supported(t) ? q.shader(t, ShaderCap::MAX_CONST_BUFFER0_SIZE) : 0;
    w.u32(CapsOffset::MAX_CONST_BUFFER_SIZE + 4 * stage, size);
  }
  uint32_t ubo = q.value(Cap::MAX_CONSTANT_BUFFER_SIZE_UINT);
  if (ubo == 0)
    ubo = std::min(q.shader(kVs, ShaderCap::MAX_CONST_BUFFER0_SIZE),
                   q.shader(kFs, ShaderCap::MAX_CONST_BUFFER0_SIZE));
  w.u32(CapsOffset::MAX_UNIFORM_BLOCK_SIZE, ubo);
  return blob;
}

}  // namespace

uint32_t caps_u32(const uint8_t* blob, uint32_t offset) {
  uint32_t v;
  std::memcpy(&v, blob + offset, 4);
  return v;
}

float caps_f32(const uint8_t* blob, uint32_t offset) {
  float v;
  std::memcpy(&v, blob + offset, 4);
  return v;
}

bool caps_has_format(const uint8_t* blob, uint32_t mask_offset, uint32_t virgl_format) {
  if (virgl_format >= kVirglFormatMaskBits) return false;
  return caps_u32(blob, mask_offset + 4 * (virgl_format / 32)) & (1u << (virgl_format % 32));
}

CapsBlob build_caps(const Screen& screen, const CapsOptions& options) {
  CapsBlob blob = build_fields(screen);
  // The GLSL level: what the Screen compiles (compatibility and core alike, since virgl
  // has a single field), no higher than 3.30, the option, or the GL level that the other
  // fields support — measured by evaluating the blob with the most GLSL allowed.
  unsigned glsl = std::min<unsigned>(330, clamp_u32(screen.get_param(Cap::GLSL_FEATURE_LEVEL)));
  const int compat = screen.get_param(Cap::GLSL_FEATURE_LEVEL_COMPATIBILITY);
  if (compat > 0) glsl = std::min(glsl, unsigned(compat));
  Writer(blob).u32(CapsOffset::GLSL_LEVEL, 330);
  const unsigned features = mesa_gl_version(blob).feature_level;
  const unsigned gl = std::min({features, std::max(20u, options.max_gl_version), 33u});
  glsl = std::min(glsl, glsl_level_for_gl(gl));
  Writer(blob).u32(CapsOffset::GLSL_LEVEL, glsl);
  return blob;
}

std::array<uint8_t, kCapsV1Bytes> caps_v1(const CapsBlob& blob) {
  std::array<uint8_t, kCapsV1Bytes> v1;
  std::copy(blob.begin(), blob.begin() + kCapsV1Bytes, v1.begin());
  const uint32_t one = 1;
  std::memcpy(v1.data() + CapsOffset::MAX_VERSION, &one, 4);
  return v1;
}

}  // namespace clpipe::frontend::vtest
