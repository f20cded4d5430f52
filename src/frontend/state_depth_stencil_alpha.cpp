// Depth/stencil/alpha CSO: validation, create and bind.
#include <cmath>

#include "frontend/api_guard.h"
#include "frontend/context_impl.h"
#include "frontend/cso.h"
#include "runtime/error.h"

namespace clpipe::frontend {

namespace {

void check_func(CompareFunc f, const char* field) {
  if (unsigned(f) > unsigned(CompareFunc::ALWAYS))
    runtime::invalid(field, ": invalid compare function ", unsigned(f));
}

void check_op(StencilOp op, unsigned face, const char* field) {
  if (unsigned(op) > unsigned(StencilOp::INVERT)) {
    runtime::invalid("stencil[", face, "].", field, ": invalid stencil op ", unsigned(op));
  }
}

}  // namespace

void validate_depth_stencil_alpha(const DepthStencilAlphaState& s) {
  check_func(s.depth_func, "depth_func");
  check_func(s.alpha_func, "alpha_func");
  for (unsigned face = 0; face < 2; ++face) {
    const StencilState& st = s.stencil[face];
    check_func(st.func, face == 0 ? "stencil[0].func" : "stencil[1].func");
    check_op(st.fail_op, face, "fail_op");
    check_op(st.zpass_op, face, "zpass_op");
    check_op(st.zfail_op, face, "zfail_op");
  }
  if (std::isnan(s.alpha_ref_value)) runtime::invalid("alpha_ref_value is NaN");
  if (s.depth_bounds_test) {
    if (!(s.depth_bounds_min >= 0.0 && s.depth_bounds_max <= 1.0 &&
          s.depth_bounds_min <= s.depth_bounds_max)) {
      runtime::invalid("depth bounds [", s.depth_bounds_min, ", ", s.depth_bounds_max,
                       "] must satisfy 0 <= min <= max <= 1");
    }
  }
}

Result<DepthStencilAlphaHandle> ContextImpl::create_depth_stencil_alpha_state(
    const DepthStencilAlphaState& state) {
  return guard_result<DepthStencilAlphaHandle>("create_depth_stencil_alpha_state", [&] {
    validate_depth_stencil_alpha(state);
    return std::make_shared<DepthStencilAlphaCso>(state);
  });
}

void ContextImpl::bind_depth_stencil_alpha_state(const DepthStencilAlphaHandle& cso) {
  state_.depth_stencil_alpha = cso;
  state_.dirty |= kDirtyDepthStencilAlpha;
}

}  // namespace clpipe::frontend
