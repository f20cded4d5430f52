// Draws whose counts the device reads (draw_pipeline.h, DeviceCount; the kernel is
// device_counts.cl): draw_vbo's indirect draws and draw_auto record without waiting for
// the device. The host plans positions for such a draw; when the scene runs, the device
// writes the real counts into the draw's parameter blocks, and the passes skip the
// planned positions past them. A draw with more positions than planned draws nothing and
// marks the scene; the host then reads the counts (the scene has run, so this waits for
// nothing more), plans those draws with them and replays the scene (execute()).
#include <algorithm>
#include <sstream>

#include "frontend/draw/draw_pipeline.h"

namespace clpipe::frontend::draw {

uint64_t DrawPipeline::device_count_positions(const DrawSetup& s, PrimType mode) const {
  const uint64_t want = std::clamp<uint64_t>(device_positions_, 1, kSceneMaxPositions);
  return std::min(want, chunk_positions(s, mode, uint32_t(want)));
}

void DrawPipeline::apply_device_count(const Recorded& r, const cl::Buffer& vps, uint32_t vp_index,
                                      const cl::Buffer& dps, uint32_t first_unit, uint32_t units) {
  const DeviceCount& d = *r.device;
  cl::Kernel& k = queue_.kernel(core_, "device_counts");
  runtime::set_args(k, d.buffer, cl_ulong(d.offset / 4), d.kind, d.stride, d.instance_count,
                    d.start_instance, r.positions, uint32_t(r.dropped ? 0 : 1), vps, vp_index, dps,
                    first_unit, units, status_);
  queue_.launch(k, {1}, {1}, "setup");
}

std::string DrawPipeline::measure_device_counts(const SceneTables& t) {
  std::ostringstream error;
  const uint64_t limit = queue_.device().limits().max_mem_alloc_size;
  uint64_t positions = 0, regs = 0;  // of the draws before r, as now planned
  for (Recorded& r : draws_) {
    const uint64_t no = std::max<uint32_t>(r.setup->vs.num_outputs, 1);
    if (r.device && !r.dropped) {
      const DeviceCount& d = *r.device;
      const bool automatic = d.kind == CLP_COUNT_AUTO;
      uint32_t a[5] = {};
      const uint32_t words = automatic ? 1 : d.kind == CLP_COUNT_INDEXED ? 5 : 4;
      queue_.read(d.buffer, d.offset, words * 4, a);
      // Positions per instance and instances as the host plans them: draw_auto keeps its
      // instances, an indirect draw is planned as one instance of all its positions.
      const uint64_t count = automatic ? (d.stride ? a[0] / d.stride : 0) : uint64_t(a[0]) * a[1];
      const uint64_t instances = automatic ? d.instance_count : 1;
      const uint64_t total = count * instances;
      if (total > r.positions) {
        if (total > 0xffffffffu || positions + total > kSceneMaxPositions ||
            (regs + total * no) * 16 > limit) {
          r.dropped = true;
          error << "draw_vbo: a draw whose counts the device read (" << (automatic ? count : a[0])
                << " vertices x " << (automatic ? instances : a[1])
                << " instances) is larger than a scene can hold; it was not drawn";
        } else {
          r.range.count = uint32_t(count);
          r.positions = uint32_t(total);
          vps_[r.vp_index].count = r.range.count;
          for (uint32_t u = 0; u < r.units; ++u)
            dps_[r.first_unit + u].count = r.range.count;
          device_positions_ = std::max(device_positions_, total);
        }
      }
    }
    positions += r.positions;
    regs += r.positions * no;
  }
  lay_out_scene();
  plan_scene();
  queue_.write(t.vps, 0, vps_.size() * sizeof(ClpVertexParams), vps_.data(), true);
  queue_.write(t.dps, 0, dps_.size() * sizeof(ClpDrawParams), dps_.data(), true);
  return error.str();
}

}  // namespace clpipe::frontend::draw
