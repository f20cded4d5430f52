// Sampler CSO: validation, create, and binding per stage and slot.
#include <cmath>

#include "frontend/api_guard.h"
#include "frontend/context_impl.h"
#include "frontend/cso.h"
#include "runtime/error.h"

namespace clpipe::frontend {

namespace {

void check_wrap(TexWrap w, bool unnormalized, const char* field) {
  if (unsigned(w) > unsigned(TexWrap::MIRROR_CLAMP_TO_BORDER)) {
    runtime::invalid(field, ": invalid wrap mode ", unsigned(w));
  }
  // Texel coordinates (RECT) only clamp (gallium.md §6).
  if (unnormalized && w != TexWrap::CLAMP && w != TexWrap::CLAMP_TO_EDGE &&
      w != TexWrap::CLAMP_TO_BORDER) {
    runtime::invalid(field,
                     ": unnormalized coordinates allow only CLAMP, CLAMP_TO_EDGE and "
                     "CLAMP_TO_BORDER");
  }
}

}  // namespace

void validate_sampler(const SamplerState& s) {
  check_wrap(s.wrap_s, s.unnormalized_coords, "wrap_s");
  check_wrap(s.wrap_t, s.unnormalized_coords, "wrap_t");
  check_wrap(s.wrap_r, s.unnormalized_coords, "wrap_r");
  if (unsigned(s.min_img_filter) > unsigned(TexFilter::LINEAR))
    runtime::invalid("min_img_filter: invalid filter ", unsigned(s.min_img_filter));
  if (unsigned(s.mag_img_filter) > unsigned(TexFilter::LINEAR))
    runtime::invalid("mag_img_filter: invalid filter ", unsigned(s.mag_img_filter));
  if (unsigned(s.min_mip_filter) > unsigned(TexMipFilter::NONE))
    runtime::invalid("min_mip_filter: invalid filter ", unsigned(s.min_mip_filter));
  if (unsigned(s.compare_mode) > unsigned(TexCompare::R_TO_TEXTURE))
    runtime::invalid("compare_mode: invalid mode ", unsigned(s.compare_mode));
  if (unsigned(s.compare_func) > unsigned(CompareFunc::ALWAYS))
    runtime::invalid("compare_func: invalid function ", unsigned(s.compare_func));
  if (unsigned(s.reduction_mode) > unsigned(TexReductionMode::MAX))
    runtime::invalid("reduction_mode: invalid mode ", unsigned(s.reduction_mode));
  if (s.reduction_mode != TexReductionMode::WEIGHTED_AVERAGE) {
    runtime::unsupported("reduction_mode MIN/MAX is not supported (SAMPLER_REDUCTION_MINMAX = 0)");
  }
  if (s.max_anisotropy > 16)
    runtime::invalid("max_anisotropy ", unsigned(s.max_anisotropy), " exceeds 16");
  if (s.unnormalized_coords && s.min_mip_filter != TexMipFilter::NONE) {
    runtime::invalid("unnormalized coordinates need min_mip_filter NONE");
  }
  if (std::isnan(s.lod_bias) || std::isnan(s.min_lod) || std::isnan(s.max_lod)) {
    runtime::invalid("lod_bias, min_lod and max_lod must not be NaN");
  }
}

Result<SamplerHandle> ContextImpl::create_sampler_state(const SamplerState& state) {
  return guard_result<SamplerHandle>("create_sampler_state", [&] {
    validate_sampler(state);
    return std::make_shared<SamplerCso>(state);
  });
}

Status ContextImpl::bind_sampler_states(ShaderType shader, unsigned start,
                                        const std::vector<SamplerHandle>& samplers) {
  return guard("bind_sampler_states", [&] {
    if (unsigned(shader) >= kShaderTypes)
      runtime::invalid("invalid shader stage ", unsigned(shader));
    if (uint64_t(start) + samplers.size() > kMaxSamplers) {
      runtime::invalid("slots ", start, "..", uint64_t(start) + samplers.size(), " exceed the ",
                       kMaxSamplers, " sampler slots");
    }
    auto& slots = state_.samplers[unsigned(shader)];
    for (size_t i = 0; i < samplers.size(); ++i)
      slots[start + i] = samplers[i];
    state_.dirty |= kDirtySamplers;
  });
}

}  // namespace clpipe::frontend
