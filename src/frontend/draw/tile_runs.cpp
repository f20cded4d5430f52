// The binning of a scene's records and its tile-pass runs (DrawPipeline::bin_and_shade):
// which consecutive units share a launch, and whether the first run can apply the clear
// the scene begins with (SceneClear) as it loads its pixels.
#include <algorithm>
#include <cmath>

#include "frontend/draw/draw_pipeline.h"
#include "frontend/draw/stage_program.h"
#include "runtime/error.h"

namespace clpipe::frontend::draw {

namespace {

// Chunks of the binning pass: enough work-items to spread the records, few enough that
// the per-(tile, chunk) histogram stays small: at most 256, and at most 2^22 entries
// in all once there is more than one chunk (a 16384x16384 framebuffer has 2^20 tiles).
// Within that, chunks x bands = `items` trades the histogram (zeroed, scanned: tiles x
// chunks entries) against the records' reads (each band's work-item reads its chunk's
// records: records x bands); chunks = sqrt(items x records / tiles) makes both equal. A
// scene of 100k points over 2166 tiles took 256 chunks, a histogram of 5.5 entries per
// record; now 108 (256 items).
uint32_t bin_chunks(uint32_t records, uint64_t tiles, uint32_t items) {
  tiles = std::max<uint64_t>(tiles, 1);
  const uint64_t most = std::clamp<uint64_t>((uint64_t(1) << 22) / tiles, 1, 256);
  const auto balanced = uint64_t(std::sqrt(double(items) * double(records) / double(tiles)));
  return uint32_t(std::clamp<uint64_t>(std::min<uint64_t>(records / 64, balanced), 1, most));
}

// Bands of tiles of the binning pass: about `items` work-items in all, so that few
// chunks still spread over the device (each work-item reads its chunk's records once and
// tests them against its band's tiles).
uint32_t bin_bands(uint32_t chunks, uint64_t tiles, uint32_t items) {
  return uint32_t(std::clamp<uint64_t>(items / chunks, 1, std::max<uint64_t>(tiles, 1)));
}

// Whether the tile pass must round colour buffer `rt`'s working value to the format
// after every fragment. Blending, logic ops and colour masks read the pixel's value,
// which the buffer holds at the format's precision. Otherwise a fragment's colour
// replaces the pixel outright, and rounding once when the tile is stored gives the same
// bits, for formats whose encode(decode(encode(x))) == encode(x): the exactly rounded
// 8-bit UNORM and the half and single float fast paths of format.h (not sRGB, whose
// tables need not round trip, nor 32-bit UNORM, which does not fit a float).
bool rt_rounds_each(const ClpRtState& rt) {
  if ((rt.flags & (CLP_RT_BLEND | CLP_RT_LOGICOP)) || (rt.colormask & 0xfu) != 0xfu) return true;
  switch (Format(rt.format)) {
    case Format::R8G8B8A8_UNORM:
    case Format::B8G8R8A8_UNORM:
    case Format::R8G8B8X8_UNORM:
    case Format::B8G8R8X8_UNORM:
    case Format::R16G16B16A16_FLOAT:
    case Format::R32G32B32A32_FLOAT:
      return false;
    default:
      return true;
  }
}

// The draw reaches the tile pass: it has a fragment stage and is not discarded.
bool shades(const DrawSetup& s) {
  return s.fs.program && !s.rasterizer.rasterizer_discard;
}

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

void DrawPipeline::bin_and_shade(const SceneTables& t) {
  const uint32_t units = uint32_t(dps_.size());
  // The scene's draws share the framebuffer, hence the tile grid.
  const uint64_t tiles = uint64_t(dps_[0].tiles_x) * dps_[0].tiles_y;
  // Chunks from this scene's estimate, not the capacity a larger scene left: the
  // histogram (tiles x chunks) is scanned whole.
  const uint32_t nchunks = bin_chunks(
      uint32_t(std::min<uint64_t>(record_estimate_, record_capacity_)), tiles, bin_items_);
  const uint64_t hist_n = tiles * nchunks;
  if (hist_n > 0xffffffffu || hist_n * 4 > queue_.device().limits().max_mem_alloc_size) {
    runtime::fail(ErrorCode::kOutOfMemory, "draw_vbo: ", tiles, " tiles x ", nchunks,
                  " binning chunks exceed the device's limits");
  }
  // 5. Binning of every record of the scene: count, scan, scatter.
  ensure(hist_, hist_cap_, size_t(hist_n) * 4);
  const uint32_t bands = bin_bands(nchunks, tiles, bin_items_);
  {
    cl::Kernel& k = queue_.kernel(core_, "bin_count");
    runtime::set_args(k, tris_, status_, record_capacity_, nchunks, bands, dps_[0].tiles_x,
                      dps_[0].tiles_y, hist_);
    queue_.launch_1d(k, size_t(nchunks) * bands, "bin");
  }
  scanner_.exclusive_scan(hist_, uint32_t(hist_n), total_);
  {
    cl::Kernel& k = queue_.kernel(core_, "bin_scatter");
    runtime::set_args(k, tris_, status_, record_capacity_, nchunks, bands, dps_[0].tiles_x,
                      dps_[0].tiles_y, hist_, total_, list_, list_capacity_);
    queue_.launch_1d(k, size_t(nchunks) * bands, "bin");
  }

  // 6. Tile pass of each run of units that share a fragment program, its resources, the
  // vertices and the targets: each tile's pixels are loaded and stored once per run. The
  // first run applies the scene's clear (or the clear's fill passes run before it).
  bool clear_due = clear_.has_value();
  for (uint32_t first = 0; first < units;) {
    const DrawSetup& s = *draws_[unit_draw_[first]].setup;
    if (!shades(s)) {
      ++first;
      continue;
    }
    uint32_t end = first + 1;
    while (end < units && shades(*draws_[unit_draw_[end]].setup) && same_run(first, end))
      ++end;
    ClpRunParams run{};
    int32_t x0 = INT32_MAX, y0 = INT32_MAX, x1 = 0, y1 = 0;
    for (uint32_t u = first; u < end; ++u) {
      const ClpDrawParams& d = dps_[u];
      x0 = std::min(x0, d.scissor[0]);
      y0 = std::min(y0, d.scissor[1]);
      x1 = std::max(x1, d.scissor[2]);
      y1 = std::max(y1, d.scissor[3]);
      const ClpRasterParams& rp = rps_[d.raster_index];
      for (uint32_t i = 0; i < rp.nr_cbufs && i < CLP_MAX_RTS; ++i) {
        if ((rp.rt[i].flags & CLP_RT_ENABLED) && rt_rounds_each(rp.rt[i]))
          run.round_each |= 1u << i;
      }
      if ((rp.flags & CLP_RAST_ZS_PRESENT) &&
          (rp.flags & (CLP_RAST_DEPTH_TEST | CLP_RAST_STENCIL_FRONT | CLP_RAST_DEPTH_BOUNDS))) {
        run.zs_load = 1;
      }
    }
    const uint32_t run_first = first;
    first = end;
    if (clear_due) {
      clear_due = false;
      if (take_clear(s, &run)) {
        x0 = std::min(x0, run.clear_rect[0]);
        y0 = std::min(y0, run.clear_rect[1]);
        x1 = std::max(x1, run.clear_rect[2]);
        y1 = std::max(y1, run.clear_rect[3]);
      } else {
        clear_->fill();
      }
    }
    if (x0 >= x1 || y0 >= y1) continue;  // every scissor rectangle is empty
    run.tile_x0 = uint32_t(x0) >> CLP_TILE_SIZE_LOG2;
    run.tile_y0 = uint32_t(y0) >> CLP_TILE_SIZE_LOG2;
    run.tiles_w = ((uint32_t(x1) - 1) >> CLP_TILE_SIZE_LOG2) - run.tile_x0 + 1;
    const uint32_t tiles_h = ((uint32_t(y1) - 1) >> CLP_TILE_SIZE_LOG2) - run.tile_y0 + 1;
    run.bin_chunks = nchunks;
    run.first_draw = run_first;
    run.end_draw = end;
    run.record_capacity = record_capacity_;
    run.list_capacity = list_capacity_;

    cl::Kernel& k = queue_.kernel(unit_tile_[run_first], "tile_pass");
    runtime::KernelArgs args(k);
    args << run << t.rps << t.dps << tris_ << list_ << hist_ << draw_base_ << status_
         << *unit_verts_[run_first];
    for (uint32_t i = 0; i < CLP_MAX_RTS; ++i) {
      const bool bound = i < s.nr_cbufs && s.cbufs[i].format != Format::NONE && s.cbufs[i].buffer();
      args << (bound ? s.cbufs[i].buffer : dummy_);
    }
    const bool zs = s.zsbuf.format != Format::NONE && s.zsbuf.buffer();
    args << (zs ? s.zsbuf.buffer : dummy_) << (s.counters() ? s.counters : dummy_)
         << (s.predicate() ? s.predicate : dummy_) << t.clear;
    for (const StageArg& a : s.fs.resources)
      args << resolve(a, t.resources);
    const size_t groups = size_t(run.tiles_w) * tiles_h;
    // The program says its work-group (tile_pass_items of its lanes): a shader's lanes
    // may differ from the device's (compiler/emit/emit.h).
    const size_t items = queue_.required_group_size(k);
    cl::Event ev = queue_.launch(k, {groups * items}, {items}, "tile");
    TileVariants* variants = s.fs.tile_variants.get();
    if (variants && variants->counts_device_time(unit_tile_[run_first]))
      timed_launches_.push_back({std::move(ev), variants, nullptr, unit_tile_[run_first]});
  }
  if (clear_due) clear_->fill();  // no draw reached the tile pass
}

}  // namespace clpipe::frontend::draw
