// The tile-pass runs of a scene (DrawPipeline::bin_and_shade): which consecutive units
// share a launch, and whether the first run can apply the clear the scene begins with
// (SceneClear) as it loads its pixels.
#include "frontend/draw/draw_pipeline.h"

namespace clpipe::frontend::draw {

namespace {

// Whether a draw writing t writes the pixels the clear of c wrote.
bool same_target(const ColorTarget& t, const ColorTarget& c) {
  return t.buffer() == c.buffer() && t.offset == c.offset && t.pitch == c.pitch &&
         t.format == c.format;
}

}  // namespace

bool DrawPipeline::same_run(uint32_t a, uint32_t b) const {
  if (unit_tile_[a] != unit_tile_[b]) return false;
  const DrawSetup& sa = *draws_[unit_draw_[a]].setup;
  const DrawSetup& sb = *draws_[unit_draw_[b]].setup;
  if (&sa != &sb) {
    if (!(sa.fs.resources == sb.fs.resources)) return false;
    if (sa.nr_cbufs != sb.nr_cbufs || sa.counters() != sb.counters() ||
        sa.predicate() != sb.predicate() || sa.zsbuf.buffer() != sb.zsbuf.buffer()) {
      return false;
    }
    for (uint32_t i = 0; i < sa.nr_cbufs; ++i) {
      if (sa.cbufs[i].buffer() != sb.cbufs[i].buffer()) return false;
    }
  }
  if (unit_verts_[a] != unit_verts_[b]) return false;
  // Where the targets are and what the launch counts or tests once.
  const ClpRasterParams& ra = rps_[dps_[a].raster_index];
  const ClpRasterParams& rb = rps_[dps_[b].raster_index];
  constexpr uint32_t kRunFlags =
      CLP_RAST_ZS_PRESENT | CLP_RAST_COUNT | CLP_RAST_PREDICATE | CLP_RAST_PREDICATE_WHEN_TRUE;
  if ((ra.flags & kRunFlags) != (rb.flags & kRunFlags) || ra.nr_cbufs != rb.nr_cbufs ||
      ra.zs_offset != rb.zs_offset || ra.zs_format != rb.zs_format || ra.zs_pitch != rb.zs_pitch ||
      ra.fb_width != rb.fb_width || ra.fb_height != rb.fb_height) {
    return false;
  }
  for (uint32_t i = 0; i < ra.nr_cbufs && i < CLP_MAX_RTS; ++i) {
    const ClpRtState &x = ra.rt[i], &y = rb.rt[i];
    if (x.offset != y.offset || x.pitch != y.pitch || x.format != y.format ||
        (x.flags & CLP_RT_ENABLED) != (y.flags & CLP_RT_ENABLED)) {
      return false;
    }
  }
  return true;
}

void DrawPipeline::set_clear(SceneClear c) {
  clear_ = std::move(c);
}

bool DrawPipeline::take_clear(const DrawSetup& s, ClpRunParams* run) const {
  const SceneClear& c = *clear_;
  // Layered draws write their primitives' layers, the clear those of the targets; a run
  // skipped by its predicate would skip the clear too (tile.cl).
  if (s.layers != 1 || s.predicate() || uint32_t(c.rect[2]) > s.fb_width ||
      uint32_t(c.rect[3]) > s.fb_height) {
    return false;
  }
  for (uint32_t r = 0; r < CLP_MAX_RTS; ++r) {
    if (!((c.mask >> r) & 1u)) continue;
    if (r >= s.nr_cbufs || !same_target(s.cbufs[r], c.cbufs[r])) return false;
  }
  if (((c.mask >> CLP_CLEAR_ZS_BIT) & 1u) && !same_target(s.zsbuf, c.zsbuf)) return false;
  run->clear_mask = c.mask;
  for (int i = 0; i < 4; ++i)
    run->clear_rect[i] = c.rect[i];
  return true;
}

}  // namespace clpipe::frontend::draw
