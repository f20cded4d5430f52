// Blend CSO: validation of BlendState, create and bind.
#include "frontend/api_guard.h"
#include "frontend/context_impl.h"
#include "frontend/cso.h"
#include "runtime/error.h"

namespace clpipe::frontend {

namespace {

bool uses_src1(BlendFactor f) {
  return f == BlendFactor::SRC1_COLOR || f == BlendFactor::SRC1_ALPHA ||
         f == BlendFactor::INV_SRC1_COLOR || f == BlendFactor::INV_SRC1_ALPHA;
}

void check_rt(const RtBlendState& rt, unsigned i) {
  auto func = [&](BlendFunc f, const char* field) {
    if (unsigned(f) > unsigned(BlendFunc::MAX)) {
      runtime::invalid("rt[", i, "].", field, ": invalid blend function ", unsigned(f));
    }
  };
  auto factor = [&](BlendFactor f, const char* field) {
    if (!is_valid(f))
      runtime::invalid("rt[", i, "].", field, ": invalid blend factor ", unsigned(f));
  };
  func(rt.rgb_func, "rgb_func");
  func(rt.alpha_func, "alpha_func");
  factor(rt.rgb_src_factor, "rgb_src_factor");
  factor(rt.rgb_dst_factor, "rgb_dst_factor");
  factor(rt.alpha_src_factor, "alpha_src_factor");
  factor(rt.alpha_dst_factor, "alpha_dst_factor");
  if (rt.colormask > Mask::RGBA)
    runtime::invalid("rt[", i, "].colormask: 0x", unsigned(rt.colormask), " has bits beyond RGBA");
}

}  // namespace

void validate_blend(const BlendState& s) {
  if (unsigned(s.logicop_func) > unsigned(LogicOp::SET)) {
    runtime::invalid("logicop_func: invalid logic op ", unsigned(s.logicop_func));
  }
  if (s.max_rt >= kMaxColorBufs)
    runtime::invalid("max_rt ", unsigned(s.max_rt), " is not below ", kMaxColorBufs);
  const unsigned n = s.independent_blend_enable ? kMaxColorBufs : 1;
  for (unsigned i = 0; i < n; ++i) {
    const RtBlendState& rt = s.rt[i];
    check_rt(rt, i);
    // Dual-source blending has one render target: the second source is COLOR[1].
    if (i > 0 && rt.blend_enable &&
        (uses_src1(rt.rgb_src_factor) || uses_src1(rt.rgb_dst_factor) ||
         uses_src1(rt.alpha_src_factor) || uses_src1(rt.alpha_dst_factor))) {
      runtime::invalid("rt[", i,
                       "]: dual-source (SRC1) factors are only valid for render target 0");
    }
  }
}

Result<BlendHandle> ContextImpl::create_blend_state(const BlendState& state) {
  return guard_result<BlendHandle>("create_blend_state", [&] {
    validate_blend(state);
    return std::make_shared<BlendCso>(state);
  });
}

void ContextImpl::bind_blend_state(const BlendHandle& cso) {
  state_.blend = cso;
  state_.dirty |= kDirtyBlend;
}

}  // namespace clpipe::frontend
