// The geometry shader stage of a scene's draw (DrawPipeline::run_draw; kernels: stream.cl
// for the input list, gs.cl around the generated shader for the pass itself; data flow
// in kernels/stream_shared.h).
//
// Input: the vertex pass's vertices and the draw's primitives. Output: an indexed strip
// stream (vertices, restart holes after every strip, the PRIMID of every position) that
// the setup passes read with primitive restart, and stream output captures. The GS runs
// twice, counting then writing, so that its output lands compacted in API order with
// exactly the memory it needs; one host read (the output size) sizes the stream.
#include <algorithm>

#include "frontend/draw/draw_pipeline.h"
#include "kernels/prim_assemble.h"
#include "runtime/error.h"

namespace clpipe::frontend::draw {

uint32_t basic_prim_count(PrimType mode, uint32_t n) {
  switch (mode) {
    case PrimType::POINTS:
      return n;
    case PrimType::LINES:
      return n / 2;
    case PrimType::LINE_STRIP:
      return n >= 2 ? n - 1 : 0;
    case PrimType::LINE_LOOP:
      return n >= 2 ? n : 0;
    case PrimType::TRIANGLES:
      return n / 3;
    case PrimType::TRIANGLE_STRIP:
    case PrimType::TRIANGLE_FAN:
    case PrimType::POLYGON:
      return n >= 3 ? n - 2 : 0;
    case PrimType::QUADS:
      return n / 4 * 2;
    case PrimType::QUAD_STRIP:
      return n >= 4 ? (n - 2) / 2 * 2 : 0;
    case PrimType::LINES_ADJACENCY:
      return n / 4;
    case PrimType::LINE_STRIP_ADJACENCY:
      return n >= 4 ? n - 3 : 0;
    case PrimType::TRIANGLES_ADJACENCY:
      return n / 6;
    case PrimType::TRIANGLE_STRIP_ADJACENCY:
      return n >= 6 ? (n - 4) / 2 : 0;
    case PrimType::PATCHES:
      return 0;
  }
  return 0;
}

namespace {

// Input primitives of a geometry shader's draw of `positions` positions, or a bound on
// them: without restart or a device count the host knows the count; with one, the
// launches cover the bound and the kernels read the real count (no host round trip).
uint64_t gs_input_prims(const ClpDrawParams& dp, uint32_t positions, bool device_count) {
  if ((dp.flags & CLP_DRAW_RESTART) || device_count) return positions;
  return uint64_t(basic_prim_count(PrimType(dp.prim_mode), dp.count)) * dp.instance_count;
}

}  // namespace

uint32_t DrawPipeline::plan_gs_positions(const Recorded& r) const {
  const GeometrySetup& g = r.setup->gs;
  // No invocation emits more than max_vertices (gs.cl drops the rest), each followed by
  // at most one restart hole (strips end with one).
  const uint64_t emits = gs_input_prims(dps_[r.first_unit], r.positions, r.device.has_value()) *
                         std::max<uint32_t>(g.params.invocations, 1) * g.params.max_vertices * 2;
  const uint64_t no = std::max<uint32_t>(g.stage.num_outputs, 1);
  const uint64_t most = std::min<uint64_t>(queue_.device().limits().max_mem_alloc_size / (no * 16),
                                           Scanner::kSaturated - 1);
  return uint32_t(std::min<uint64_t>({emits, std::max<uint64_t>(gs_positions_, gs_found_), most}));
}

DrawPipeline::VertexStream DrawPipeline::run_geometry(const Recorded& r, const VertexStream& in,
                                                      ClpDrawParams* dp, const SceneTables& t,
                                                      bool counted) {
  const DrawSetup& s = *r.setup;
  const GeometrySetup& g = s.gs;
  const Recorded* device = r.device ? &r : nullptr;
  const uint32_t positions = in.positions;
  const runtime::ProgramRef& program = stream_program();
  const uint64_t limit = queue_.device().limits().max_mem_alloc_size;

  // 1. The input primitives in API order: count per position, scan, list.
  {
    const cl::Buffer dp_buf =
        queue_.create_buffer_from(dp, sizeof(*dp), device ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY);
    if (device) apply_device_count(t, r.device_entry, r.device->buffer, dp_buf);
    ensure(stream_counts_, stream_counts_cap_, size_t(positions) * 4);
    cl::Kernel& kc = queue_.kernel(program, "stream_count");
    runtime::set_args(kc, dp_buf, *in.restart, *in.seg_index, *in.seg_first, positions,
                      stream_counts_);
    queue_.launch_1d(kc, positions, "geometry");
    scanner_.exclusive_scan(stream_counts_, positions, gs_prim_total_);
    // No position completes more primitives than it has vertices up to it, so the list
    // holds at most `positions` entries.
    ensure(gs_prims_, gs_prims_cap_, size_t(positions) * CLP_GS_PRIM_WORDS * 4);
    cl::Kernel& kw = queue_.kernel(program, "gs_input_write");
    runtime::set_args(kw, dp_buf, *in.restart, *in.seg_index, *in.seg_first, stream_counts_,
                      gs_prims_, positions);
    queue_.launch_1d(kw, positions, "geometry");
  }
  const uint64_t prims = gs_input_prims(*dp, positions, device != nullptr);
  const uint32_t ninv = std::max<uint32_t>(g.params.invocations, 1);
  const uint64_t invocations64 = prims * ninv;
  if (invocations64 > 0xffffffffu || invocations64 * 4 > limit) {
    runtime::fail(ErrorCode::kOutOfMemory, "draw_vbo: ", prims, " primitives x ", ninv,
                  " geometry shader invocations exceed the device's limits");
  }
  const uint32_t invocations = uint32_t(invocations64);
  if (s.counters() && s.count_primitives && !counted) {
    add_counter(s.counters, CLP_COUNTER_IA_PRIMITIVES, gs_prim_total_, 1);
    add_counter(s.counters, CLP_COUNTER_GS_INVOCATIONS, gs_prim_total_, ninv);
  }
  const uint32_t no = std::max<uint32_t>(g.stage.num_outputs, 1);
  VertexStream out{&gs_verts_, &gs_restart_, &gs_seg_index_, &gs_seg_first_, &gs_prim_id_, 0, no};
  if (invocations == 0) return out;

  ClpGsParams gp = g.params;
  gp.invocations = ninv;
  gp.vs_num_outputs = in.num_outputs;
  gp.vs_positions = positions;
  gp.num_outputs = no;
  gp.invocation_count = invocations;
  gp.ri_index = g.stage.info_index;
  cl::Kernel& k = queue_.kernel(g.stage.program, "gs_pass");
  const size_t items = (size_t(invocations) + 3) / 4;
  auto launch = [&](const cl::Buffer& gp_buf, uint32_t capacity, bool write) {
    runtime::KernelArgs args(k);
    args << gp_buf << gs_prims_ << gs_prim_total_ << *in.verts << gs_counts_
         << (write ? gs_counts_ : dummy_) << capacity;
    for (const cl::Buffer* b :
         {&gs_verts_, &gs_restart_, &gs_seg_index_, &gs_seg_first_, &gs_prim_id_})
      args << (write ? *b : dummy_);
    for (const StageArg& r : g.stage.resources)
      args << resolve(r, t.resources);
    count_stage_launch(g.stage, queue_.launch_1d(k, items, "geometry"));
  };

  // 2. Count run, scan: each invocation's range of the output stream. Its size (the scan's
  // total) stays on the device: the write run stops at the planned capacity, the passes
  // after it cover that many positions and read the real number from the stream's
  // ClpDrawParams (apply_gs_count), and a larger stream replays the scene
  // (device_counts.cpp), so nothing here waits for the device.
  ensure(gs_counts_, gs_counts_cap_, size_t(invocations) * 4);
  gp.write = 0;
  launch(queue_.create_buffer_from(&gp, sizeof(gp)), 0, false);
  scanner_.exclusive_scan(gs_counts_, invocations, gs_out_total_);
  const uint32_t total = r.gs_capacity;  // planned within the device's limits
  if (total == 0) return out;
  const uint64_t bytes = uint64_t(total) * no * 16;

  // 3. Write run.
  ensure(gs_verts_, gs_verts_cap_, bytes);
  ensure(gs_restart_, gs_restart_cap_, size_t(total) * 4);
  ensure(gs_seg_index_, gs_seg_index_cap_, size_t(total) * 4);
  ensure(gs_seg_first_, gs_seg_first_cap_, size_t(total) * 4);
  ensure(gs_prim_id_, gs_prim_id_cap_, size_t(total) * 4);
  gp.write = 1;
  launch(queue_.create_buffer_from(&gp, sizeof(gp)), total, true);

  // The setup passes read the stream as one instance of an indexed strip with restart.
  dp->prim_mode = uint32_t(g.output_prim);
  dp->count = total;
  dp->instance_count = 1;
  dp->flags |= CLP_DRAW_RESTART | CLP_DRAW_PRIM_ID_TABLE;
  dp->prim_id_base = 0;  // the table holds the input primitives' ids, chunk base included
  out.positions = total;
  return out;
}

}  // namespace clpipe::frontend::draw
