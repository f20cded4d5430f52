// The GL version Mesa 22.3.6's virpipe exposes for a caps blob: the requirements of doc
// 5.3 (Mesa's caps -> PIPE_CAP -> st_extensions -> compute_version path), checked in
// order of GL version. Verified against the blobs of caps/min-gl21..33, which wflinfo
// reported as exactly GL 2.1 .. 3.3 (tests/vtest/caps_test.cpp).
//
// One requirement is stricter than the doc: GL 3.0 also asks for the integer texture
// formats (EXT_texture_integer is core in 3.0; the doc lists it as always on, which holds
// only because every server it tried had them). Being stricter can only lower the level
// this server advertises, never raise it.
#include <cstring>

#include "vtest/caps.h"
#include "vtest/formats.h"

namespace clpipe::frontend::vtest {
namespace {

class Checker {
 public:
  explicit Checker(const CapsBlob& b) : b_(b.data()) {}

  uint32_t u(uint32_t off) const { return caps_u32(b_, off); }
  bool bset(uint32_t bit) const { return u(CapsOffset::BSET) & bit; }
  bool has(uint32_t mask, const char* format) const {
    const uint32_t v = format_to_virgl(format_from_name(format));
    return v != 0 && caps_has_format(b_, mask, v);
  }
  bool sampler(const char* f) const { return has(CapsOffset::SAMPLER, f); }
  bool render(const char* f) const { return has(CapsOffset::RENDER, f); }
  bool both(const char* f) const { return sampler(f) && render(f); }

  // Records a failed requirement; returns whether it held.
  bool need(bool ok, const char* what) {
    if (!ok) missing.emplace_back(what);
    return ok;
  }
  std::vector<std::string> missing;

 private:
  const uint8_t* b_;
};

bool gl21(Checker& c) {
  return c.need(c.sampler("A8B8G8R8_SRGB") || c.sampler("B8G8R8A8_SRGB") ||
                    c.sampler("A8R8G8B8_SRGB") || c.sampler("R8G8B8A8_SRGB"),
                "EXT_texture_sRGB: an 8-bit sRGB RGBA format in the sampler mask");
}

bool gl30(Checker& c) {
  const uint32_t samples = c.u(CapsOffset::MAX_SAMPLES);
  const bool hfcv9 = c.u(CapsOffset::HOST_FEATURE_CHECK_VERSION) >= 9;
  const bool real_msaa =
      samples >= 4 && c.bset(Bset::TEXTURE_MULTISAMPLE) && c.render("R8G8B8A8_UNORM") &&
      c.render("B8G8R8A8_UNORM") &&
      (!hfcv9 || (c.has(CapsOffset::SUPPORTED_MULTISAMPLE_FORMATS, "R8G8B8A8_UNORM") &&
                  c.has(CapsOffset::SUPPORTED_MULTISAMPLE_FORMATS, "B8G8R8A8_UNORM")));
  const bool srgb_write = (c.u(CapsOffset::CAPABILITY_BITS) & VirglCap::SRGB_WRITE_CONTROL) ||
                          c.u(CapsOffset::HOST_FEATURE_CHECK_VERSION) == 0;
  bool ok = true;
  ok &= c.need(c.u(CapsOffset::MAX_RENDER_TARGETS) >= 4, "max_render_targets >= 4");
  ok &= c.need(samples == 1 || real_msaa,
               "multisampling: max_samples 1 (fake), or >= 4 with texture_multisample");
  ok &= c.need(c.sampler("Z32_FLOAT") && c.sampler("Z32_FLOAT_S8X24_UINT"),
               "ARB_depth_buffer_float: Z32_FLOAT, Z32_FLOAT_S8X24_UINT sampled");
  ok &= c.need(c.both("R32G32B32A32_FLOAT") && c.both("R16G16B16A16_FLOAT"),
               "ARB_texture_float: RGBA32F, RGBA16F rendered and sampled");
  ok &= c.need(c.both("R8_UNORM") && c.both("R8G8_UNORM"),
               "ARB_texture_rg: R8, RG8 rendered and sampled");
  ok &= c.need(c.sampler("R8_UNORM") && c.sampler("R8_SNORM") && c.sampler("R8G8_UNORM") &&
                   c.sampler("R8G8_SNORM"),
               "ARB_texture_compression_rgtc (fallback): R8, R8_SNORM, RG8, RG8_SNORM sampled");
  ok &= c.need(c.both("R11G11B10_FLOAT"), "EXT_packed_float: R11G11B10_FLOAT");
  ok &= c.need(c.sampler("R9G9B9E5_FLOAT"), "EXT_texture_shared_exponent: R9G9B9E5_FLOAT");
  ok &= c.need(
      srgb_write && (c.both("A8B8G8R8_SRGB") || c.both("B8G8R8A8_SRGB") || c.both("R8G8B8A8_SRGB")),
      "EXT_framebuffer_sRGB: SRGB_WRITE_CONTROL and a renderable sRGB format");
  ok &= c.need(c.both("R32G32B32A32_UINT") && c.both("R32G32B32A32_SINT") &&
                   c.both("R8G8B8A8_UINT") && c.both("R8G8B8A8_SINT"),
               "EXT_texture_integer: integer RGBA formats rendered and sampled");
  ok &= c.need(c.bset(Bset::INDEP_BLEND_ENABLE), "EXT_draw_buffers2: bset.indep_blend_enable");
  ok &= c.need(c.u(CapsOffset::MAX_TEXTURE_ARRAY_LAYERS) > 0, "EXT_texture_array");
  ok &= c.need(c.u(CapsOffset::MAX_STREAMOUT_BUFFERS) > 0, "EXT_transform_feedback");
  ok &= c.need(c.bset(Bset::CONDITIONAL_RENDER), "NV_conditional_render");
  return ok;
}

bool gl31(Checker& c) {
  const uint32_t hfcv = c.u(CapsOffset::HOST_FEATURE_CHECK_VERSION);
  // Constant buffer size per stage: only read from the blob at these versions (doc 5.2).
  uint32_t ubo_size = 65536;
  if (hfcv >= 13)
    ubo_size = c.u(CapsOffset::MAX_UNIFORM_BLOCK_SIZE);
  else if (hfcv >= 12)
    ubo_size = c.u(CapsOffset::MAX_CONST_BUFFER_SIZE + 4 * VirglStage::FRAGMENT);
  bool ok = true;
  ok &= c.need(c.u(CapsOffset::MAX_TBO_SIZE) > 0, "ARB_texture_buffer_object: max_tbo_size > 0");
  ok &= c.need(c.u(CapsOffset::MAX_UNIFORM_BLOCKS) >= 13 && ubo_size >= 16384,
               "ARB_uniform_buffer_object: max_uniform_blocks >= 13, blocks >= 16 KiB");
  ok &= c.need(c.sampler("R8G8B8A8_SNORM"), "EXT_texture_snorm: R8G8B8A8_SNORM sampled");
  ok &= c.need(c.bset(Bset::PRIMITIVE_RESTART), "NV_primitive_restart");
  ok &= c.need(c.u(CapsOffset::MAX_SHADER_SAMPLER_VIEWS) >= 16,
               "16 texture units per stage: max_shader_sampler_views >= 16");
  return ok;
}

bool gl32(Checker& c) {
  bool ok = true;
  ok &= c.need(c.bset(Bset::DEPTH_CLIP_DISABLE), "ARB_depth_clamp: bset.depth_clip_disable");
  ok &= c.need(c.bset(Bset::SEAMLESS_CUBE_MAP), "ARB_seamless_cube_map");
  ok &= c.need(c.bset(Bset::TEXTURE_MULTISAMPLE) || c.u(CapsOffset::MAX_SAMPLES) == 1,
               "ARB_texture_multisample: real or fake (max_samples 1)");
  return ok;
}

bool gl33(Checker& c) {
  bool ok = true;
  ok &= c.need(c.u(CapsOffset::MAX_DUAL_SOURCE_RENDER_TARGETS) > 0, "ARB_blend_func_extended");
  ok &= c.need(c.bset(Bset::OCCLUSION_QUERY), "ARB_occlusion_query2: bset.occlusion_query");
  ok &= c.need(c.both("R10G10B10A2_UINT") || c.both("B10G10R10A2_UINT"),
               "ARB_texture_rgb10_a2ui: R10G10B10A2_UINT rendered and sampled");
  return ok;
}

}  // namespace

unsigned glsl_level_for_gl(unsigned gl) {
  if (gl >= 33) return 330;
  if (gl >= 32) return 150;
  if (gl >= 31) return 140;
  if (gl >= 30) return 130;
  if (gl >= 21) return 120;
  return 110;
}

unsigned gl_version_for_glsl(unsigned glsl) {
  if (glsl >= 330) return 33;
  if (glsl >= 150) return 32;
  if (glsl >= 140) return 31;
  if (glsl >= 130) return 30;
  if (glsl >= 120) return 21;
  return 20;
}

GlVersion mesa_gl_version(const CapsBlob& blob) {
  Checker c(blob);
  GlVersion v;
  v.feature_level = 20;
  bool (*const levels[])(Checker&) = {gl21, gl30, gl31, gl32, gl33};
  const unsigned numbers[] = {21, 30, 31, 32, 33};
  for (size_t i = 0; i < 5; ++i) {
    if (!levels[i](c)) break;
    v.feature_level = numbers[i];
  }
  v.missing = std::move(c.missing);
  const unsigned version =
      std::min(v.feature_level, gl_version_for_glsl(c.u(CapsOffset::GLSL_LEVEL)));
  // Without host_feature_check_version 6 the compatibility profile stops at 3.1.
  v.compat = c.u(CapsOffset::HOST_FEATURE_CHECK_VERSION) >= 6 ? version : std::min(version, 31u);
  v.core = version >= 32 ? version : 0;
  return v;
}

}  // namespace clpipe::frontend::vtest
