// Stream output (transform feedback) of a scene's draw (DrawPipeline::run_draw; kernels
// in stream.cl; data flow in kernels/stream_shared.h).
//
// Input: the last vertex stage's stream (the vertex pass's vertices, or the geometry
// shader's output) and its primitives. Output: vertex records in the bound targets and
// their filled sizes, which live on the device (one uint per target), so that appends
// and draw_auto need no host round trip; the draw's query counters. Nothing here waits
// for the device.
#include <algorithm>

#include "frontend/draw/draw_pipeline.h"
#include "kernels/prim_assemble.h"
#include "runtime/error.h"

namespace clpipe::frontend::draw {

namespace {

// Vertices of the basic primitives stream output writes for `mode` (adjacency dropped).
uint32_t captured_verts(uint32_t mode) {
  switch (mode) {
    case CLP_PRIM_POINTS:
      return 1;
    case CLP_PRIM_LINES:
    case CLP_PRIM_LINE_LOOP:
    case CLP_PRIM_LINE_STRIP:
    case CLP_PRIM_LINES_ADJACENCY:
    case CLP_PRIM_LINE_STRIP_ADJACENCY:
      return 2;
    default:
      return 3;
  }
}

}  // namespace

void DrawPipeline::run_stream_output(const DrawSetup& s, const VertexStream& in,
                                     const ClpDrawParams& dp, const SceneTables& t,
                                     const cl::Buffer* count_src, uint32_t count_entry) {
  const StreamOutputSetup& so = s.so;
  const runtime::ProgramRef& program = stream_program();
  const uint32_t positions = in.positions;
  ClpSoParams sp = so.params;
  sp.num_regs = in.num_outputs;
  sp.verts_per_prim = captured_verts(dp.prim_mode);
  sp.count_queries = s.counters() ? 1 : 0;
  std::array<cl::Buffer, CLP_SO_BUFFERS> filled, bufs;
  for (uint32_t b = 0; b < CLP_SO_BUFFERS; ++b) {
    // A target the kernels may touch has both its buffers: the others are unbound.
    const bool bound = ((sp.bound >> b) & 1u) && so.buffers[b]() && so.filled[b]();
    if (!bound) sp.bound &= ~(1u << b);
    filled[b] = bound ? so.filled[b] : dummy_;
    bufs[b] = bound ? so.buffers[b] : dummy_;
  }
  const cl::Buffer sp_buf = queue_.create_buffer_from(&sp, sizeof(sp));
  const cl::Buffer dp_buf =
      queue_.create_buffer_from(&dp, sizeof(dp), count_src ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY);
  if (count_src) apply_device_count(t, count_entry, *count_src, dp_buf);

  // Primitives per position, scan: primitive i of the draw is written at record i.
  ensure(stream_counts_, stream_counts_cap_, size_t(positions) * 4);
  cl::Kernel& kc = queue_.kernel(program, "stream_count");
  runtime::set_args(kc, dp_buf, *in.restart, *in.seg_index, *in.seg_first, positions,
                    stream_counts_);
  queue_.launch_1d(kc, positions, "stream output");
  scanner_.exclusive_scan(stream_counts_, positions, so_total_);
  {
    cl::Kernel& k = queue_.kernel(program, "so_write");
    runtime::KernelArgs args(k);
    args << dp_buf << *in.verts << *in.restart << *in.seg_index << *in.seg_first << stream_counts_
         << sp_buf;
    for (const cl::Buffer& f : filled)
      args << f;
    for (const cl::Buffer& b : bufs)
      args << b;
    queue_.launch_1d(k, positions, "stream output");
  }
  {
    cl::Kernel& k = queue_.kernel(program, "so_finalize");
    runtime::KernelArgs args(k);
    args << sp_buf << so_total_;
    for (const cl::Buffer& f : filled)
      args << f;
    args << (s.counters() ? s.counters : dummy_);
    queue_.launch(k, {1}, {1}, "stream output");
  }
}

}  // namespace clpipe::frontend::draw
