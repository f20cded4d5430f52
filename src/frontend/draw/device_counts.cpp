// Draws whose counts the device reads (draw_pipeline.h, DeviceCount; the kernel is
// device_counts.cl): draw_vbo's indirect draws and draw_auto record without waiting for
// the device. The host plans positions for such a draw; when the scene runs, the device
// writes the real counts into the draw's parameter blocks, and the passes skip the
// planned positions past them. The scene's last read (its status words) brings back the
// counts found, from which the next draws with the same arguments are planned. A draw
// with more positions than planned draws nothing and marks the scene, which the host then
// replays with those draws planned from the counts found (execute()).
#include <algorithm>
#include <sstream>

#include "frontend/draw/draw_pipeline.h"

namespace clpipe::frontend::draw {

uint64_t DrawPipeline::device_count_positions(const DrawSetup& s, PrimType mode,
                                              const DeviceCount& d) const {
  const auto seen = device_seen_.find({d.buffer(), d.offset});
  const uint64_t want = std::clamp<uint64_t>(
      seen != device_seen_.end() ? seen->second : device_positions_, 1, kSceneMaxPositions);
  return std::min(want, chunk_positions(s, mode, uint32_t(want)));
}

void DrawPipeline::make_device_counts() {
  device_counts_.clear();
  for (Recorded& r : draws_) {
    if (!r.device) continue;
    const DeviceCount& d = *r.device;
    r.device_entry = uint32_t(device_counts_.size());
    ClpDeviceCount e{};
    e.word = int64_t(d.offset / 4);
    e.kind = d.kind;
    e.stride = d.stride;
    e.auto_instances = d.instance_count;
    e.auto_start_instance = d.start_instance;
    e.planned = r.positions;
    e.report = r.dropped ? 0 : 1;
    e.vp_index = r.vp_index;
    e.first_unit = r.first_unit;
    e.units = r.units;
    device_counts_.push_back(e);
  }
  // A geometry shader's output stream: one instance of the scan's total (word 0 of
  // gs_out_total_) positions.
  for (Recorded& r : draws_) {
    if (!r.setup->gs.stage.program) continue;
    r.gs_entry = uint32_t(device_counts_.size());
    ClpDeviceCount e{};
    e.kind = CLP_COUNT_AUTO;
    e.stride = 1;
    e.auto_instances = 1;
    e.planned = r.gs_capacity;
    e.report = r.gs_dropped ? 0 : 1;
    e.vp_index = CLP_NO_PARAMS;
    e.first_unit = r.first_unit;
    e.units = r.units;
    device_counts_.push_back(e);
  }
}

void DrawPipeline::apply_device_counts(const SceneTables& t) {
  cl::Kernel* k = nullptr;
  for (size_t i = 0; i < draws_.size();) {
    if (!draws_[i].device) {
      ++i;
      continue;
    }
    // A run of draws whose arguments are in one buffer.
    const cl::Buffer& src = draws_[i].device->buffer;
    const uint32_t first = draws_[i].device_entry;
    size_t end = i + 1;
    while (end < draws_.size() && draws_[end].device && draws_[end].device->buffer() == src())
      ++end;
    if (!k) k = &queue_.kernel(core_, "device_counts");
    runtime::set_args(*k, t.counts, first, uint32_t(end - i), src, t.vps, t.dps, CLP_NO_PARAMS,
                      status_);
    queue_.launch_1d(*k, end - i, "setup");
    i = end;
  }
}

void DrawPipeline::apply_device_count(const SceneTables& t, uint32_t entry, const cl::Buffer& src,
                                      const cl::Buffer& dp) {
  cl::Kernel& k = queue_.kernel(core_, "device_counts");
  runtime::set_args(k, t.counts, entry, 1u, src, dummy_, dp, 0u, status_);
  queue_.launch_1d(k, 1, "setup");
}

void DrawPipeline::apply_gs_count(const SceneTables& t, const Recorded& r) {
  cl::Kernel& k = queue_.kernel(core_, "device_counts");
  runtime::set_args(k, t.counts, r.gs_entry, 1u, gs_out_total_, dummy_, t.dps, CLP_NO_PARAMS,
                    status_);
  queue_.launch_1d(k, 1, "setup");
}

void DrawPipeline::learn_device_counts() {
  device_input_overflow_ = false;
  stats_.device_vertices = 0;
  for (const Recorded& r : draws_) {
    if (r.device) {
      const uint64_t instances = r.device->kind == CLP_COUNT_AUTO ? r.device->instance_count : 1;
      const uint64_t found = device_found_.at(r.device_entry) * instances;
      stats_.device_vertices += found;
      if (!r.dropped) device_input_overflow_ |= found > r.positions;
    }
    if (r.setup->gs.stage.program) {
      gs_found_ = device_found_.at(r.gs_entry);
      // What read_vertices() reads: the stream's real positions.
      if (&r == &draws_.back()) last_positions_ = std::min(gs_found_, r.gs_capacity);
    }
    if (!r.device || r.device->kind == CLP_COUNT_AUTO) continue;
    if (device_seen_.size() >= kDeviceSeenMax) device_seen_.clear();
    device_seen_[{r.device->buffer(), r.device->offset}] =
        std::max<uint32_t>(device_found_.at(r.device_entry), 1);
  }
}

std::string DrawPipeline::measure_device_counts(const SceneTables& t) {
  std::ostringstream error;
  const uint64_t limit = queue_.device().limits().max_mem_alloc_size;
  uint64_t positions = 0, regs = 0;  // of the draws before r, as now planned
  for (Recorded& r : draws_) {
    const uint64_t no = std::max<uint32_t>(r.setup->vs.num_outputs, 1);
    if (r.device && !r.dropped) {
      // Positions per instance and instances as the host plans them: draw_auto keeps its
      // instances, an indirect draw is planned as one instance of all its positions.
      const uint64_t count = device_found_.at(r.device_entry);
      const uint64_t instances = r.device->kind == CLP_COUNT_AUTO ? r.device->instance_count : 1;
      const uint64_t total = count * instances;
      if (total > r.positions) {
        if (total >= 0xffffffffu || positions + total > kSceneMaxPositions ||
            (regs + total * no) * 16 > limit) {
          r.dropped = true;
          error << "draw_vbo: a draw whose counts the device read (" << total
                << " vertices in all) is larger than a scene can hold; it was not drawn";
        } else {
          r.range.count = uint32_t(count);
          r.positions = uint32_t(total);
          vps_[r.vp_index].count = r.range.count;
          for (uint32_t u = 0; u < r.units; ++u)
            dps_[r.first_unit + u].count = r.range.count;
          if (r.setup->gs.stage.program) r.gs_capacity = plan_gs_positions(r);
        }
      }
    }
    if (r.setup->gs.stage.program && !r.gs_dropped) {
      const uint32_t found = device_found_.at(r.gs_entry);
      const uint64_t no = std::max<uint32_t>(r.setup->gs.stage.num_outputs, 1);
      if (found > r.gs_capacity) {
        if (found >= Scanner::kSaturated || uint64_t(found) * no * 16 > limit) {
          r.gs_dropped = true;
          error << "draw_vbo: the geometry shader emits " << found << " vertices of " << no
                << " registers, more than the device can allocate; the draw was not drawn";
        } else {
          r.gs_capacity = found;
        }
      }
    }
    positions += r.positions;
    regs += r.positions * no;
  }
  lay_out_scene();
  plan_scene();
  make_device_counts();
  queue_.write(t.vps, 0, vps_.size() * sizeof(ClpVertexParams), vps_.data(), true);
  queue_.write(t.dps, 0, dps_.size() * sizeof(ClpDrawParams), dps_.data(), true);
  queue_.write(t.counts, 0, device_counts_.size() * sizeof(ClpDeviceCount), device_counts_.data(),
               true);
  return error.str();
}

}  // namespace clpipe::frontend::draw
