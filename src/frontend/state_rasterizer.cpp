// Rasterizer CSO: validation, create and bind.
#include <cmath>

#include "frontend/api_guard.h"
#include "frontend/context_impl.h"
#include "frontend/cso.h"
#include "runtime/error.h"

namespace clpipe::frontend {

namespace {

void check_fill(PolygonMode m, const char* field) {
  if (unsigned(m) > unsigned(PolygonMode::FILL_RECTANGLE)) {
    runtime::invalid(field, ": invalid polygon mode ", unsigned(m));
  }
  if (m == PolygonMode::FILL_RECTANGLE) {
    runtime::unsupported(field,
                         ": FILL_RECTANGLE is not supported (POLYGON_MODE_FILL_RECTANGLE = 0)");
  }
}

void check_finite(float v, const char* field) {
  if (!std::isfinite(v)) runtime::invalid(field, " is not finite");
}

// Widths and sizes of 0 are valid state (Mesa's state tracker sends line_width 0 when it
// does not draw lines); the draw passes clamp them to the 1-pixel minimum.
void check_non_negative(float v, const char* field) {
  if (!(std::isfinite(v) && v >= 0.0f))
    runtime::invalid(field, " ", v, " must be finite and not negative");
}

}  // namespace

void validate_rasterizer(const RasterizerState& s) {
  if (s.cull_face > Face::FRONT_AND_BACK)
    runtime::invalid("cull_face: invalid face mask ", unsigned(s.cull_face));
  check_fill(s.fill_front, "fill_front");
  check_fill(s.fill_back, "fill_back");
  if (unsigned(s.sprite_coord_mode) > unsigned(SpriteCoordMode::LOWER_LEFT)) {
    runtime::invalid("sprite_coord_mode: invalid mode ", unsigned(s.sprite_coord_mode));
  }
  // Bits 0-7: TEXCOORD[i] inputs, bit 8: PCOORD (gallium.md §5).
  if (s.sprite_coord_enable > 0x1ff) {
    runtime::invalid("sprite_coord_enable 0x", std::hex, s.sprite_coord_enable,
                     " has bits above bit 8");
  }
  if (s.sprite_coord_enable != 0 && !s.point_quad_rasterization) {
    runtime::invalid("sprite_coord_enable needs point_quad_rasterization");
  }
  check_non_negative(s.line_width, "line_width");
  check_non_negative(s.point_size, "point_size");
  check_finite(s.offset_units, "offset_units");
  check_finite(s.offset_scale, "offset_scale");
  check_finite(s.offset_clamp, "offset_clamp");
}

Result<RasterizerHandle> ContextImpl::create_rasterizer_state(const RasterizerState& state) {
  return guard_result<RasterizerHandle>("create_rasterizer_state", [&] {
    validate_rasterizer(state);
    return std::make_shared<RasterizerCso>(state);
  });
}

void ContextImpl::bind_rasterizer_state(const RasterizerHandle& cso) {
  state_.rasterizer = cso;
  state_.dirty |= kDirtyRasterizer;
}

}  // namespace clpipe::frontend
