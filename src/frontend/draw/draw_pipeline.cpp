#include "frontend/draw/draw_pipeline.h"

#include <algorithm>

#include "runtime/embedded_sources.h"
#include "runtime/error.h"

namespace clpipe::frontend::draw {

namespace {

// The fixed passes share one program: fewer builds, one cache entry.
std::string core_source() {
  return kernels::expand_includes(
      "#include \"scan.cl\"\n#include \"prim.cl\"\n#include \"bin.cl\"\n");
}

// Chunks of the binning pass: enough work-items to spread the records, few enough that
// the per-(tile, chunk) histogram stays small.
uint32_t bin_chunks(uint32_t records) {
  return std::clamp<uint32_t>(records / 64, 1, 256);
}

// The setup of layer `layer` of a layered draw: its targets moved to that layer.
DrawSetup layer_setup(const DrawSetup& s, uint32_t layer) {
  DrawSetup l = s;
  for (uint32_t i = 0; i < l.nr_cbufs; ++i)
    l.cbufs[i].offset += uint64_t(layer) * l.cbufs[i].layer_pitch;
  l.zsbuf.offset += uint64_t(layer) * l.zsbuf.layer_pitch;
  return l;
}

}  // namespace

DrawPipeline::DrawPipeline(runtime::Queue& queue, runtime::ProgramCache& cache)
    : queue_(queue), cache_(cache), core_(cache.get(core_source())), scanner_(queue, core_) {
  total_ = queue_.create_buffer(sizeof(uint32_t));
  tile_bounds_ = queue_.create_buffer(4 * sizeof(int32_t));
  dummy_ = queue_.create_buffer(16);
  gs_prim_total_ = queue_.create_buffer(sizeof(uint32_t));
  gs_out_total_ = queue_.create_buffer(sizeof(uint32_t));
  so_total_ = queue_.create_buffer(sizeof(uint32_t));
}

const runtime::ProgramRef& DrawPipeline::stream_program() {
  if (!stream_) stream_ = cache_.get(kernels::expand_includes("#include \"stream.cl\"\n"));
  return stream_;
}

void DrawPipeline::add_counter(const cl::Buffer& counters, uint32_t word, const cl::Buffer& total,
                               uint32_t factor) {
  cl::Kernel& k = queue_.kernel(stream_program(), "counter_add");
  runtime::set_args(k, counters, word, total, factor);
  queue_.launch(k, {1}, {1}, "query");
}

void DrawPipeline::ensure(cl::Buffer& buf, size_t& capacity, size_t bytes) {
  if (bytes <= capacity && buf()) return;
  // Grow geometrically so that a sequence of growing draws reallocates rarely.
  size_t cap = std::max<size_t>(bytes, capacity + capacity / 2);
  cap = std::max<size_t>(cap, 256);
  buf = queue_.create_buffer(cap);
  capacity = cap;
}

uint32_t DrawPipeline::read_total() {
  uint32_t v = 0;
  queue_.read(total_, 0, sizeof(v), &v);
  return v;
}

std::vector<ClpTri> DrawPipeline::read_records() {
  std::vector<ClpTri> out(stats_.records);
  if (!out.empty()) queue_.read(tris_, 0, out.size() * sizeof(ClpTri), out.data());
  return out;
}

std::vector<std::array<uint32_t, 4>> DrawPipeline::read_vertices() {
  const uint32_t n = stats_.gs_positions ? stats_.gs_positions : stats_.positions;
  std::vector<std::array<uint32_t, 4>> out(size_t(n) * last_num_outputs_);
  if (!out.empty() && last_verts_) queue_.read(*last_verts_, 0, out.size() * 16, out.data());
  return out;
}

void DrawPipeline::draw(const DrawSetup& s, const DrawInfo& info, const DrawStartCountBias& range,
                        uint32_t draw_id) {
  stats_ = DrawStats();
  last_verts_ = nullptr;
  const uint64_t total64 = uint64_t(range.count) * info.instance_count;
  if (total64 == 0) return;
  const size_t no = std::max<uint32_t>(s.vs.num_outputs, 1);
  const uint64_t vert_bytes = total64 * no * 16;
  const uint64_t limit = queue_.device().limits().max_mem_alloc_size;
  if (total64 > 0xffffffffu || vert_bytes > limit) {
    runtime::fail(ErrorCode::kOutOfMemory, "draw_vbo: ", range.count, " vertices x ",
                  info.instance_count, " instances need ", vert_bytes,
                  " bytes of vertex data; the device allows ", limit);
  }
  const uint32_t total = uint32_t(total64);
  stats_.positions = total;
  last_num_outputs_ = uint32_t(no);
  last_verts_ = &verts_;
  const bool restart = info.index_size && info.primitive_restart;

  // 1. Vertex pass.
  std::array<int, kMaxVertexBuffers> slot_of_buffer;
  const ClpVertexParams vp = make_vertex_params(s, info, range, draw_id, &slot_of_buffer);
  ensure(verts_, verts_cap_, vert_bytes);
  if (restart) ensure(restart_, restart_cap_, size_t(range.count) * 4);
  {
    // clSetKernelArg does not retain buffers: keep them until the launch (which does).
    const cl::Buffer vp_buf = queue_.create_buffer_from(&vp, sizeof(vp));
    cl::Kernel& k = queue_.kernel(s.vs.program, "vertex_pass");
    runtime::KernelArgs args(k);
    args << vp_buf << (info.index_size && s.index_buffer() ? s.index_buffer : dummy_);
    std::array<cl::Buffer, CLP_MAX_VERTEX_BUFFERS> vbs;
    vbs.fill(dummy_);
    for (size_t b = 0; b < kMaxVertexBuffers; ++b) {
      if (slot_of_buffer[b] >= 0 && s.inputs[b].buffer())
        vbs[slot_of_buffer[b]] = s.inputs[b].buffer;
    }
    for (const cl::Buffer& vb : vbs)
      args << vb;
    args << verts_ << (restart ? restart_ : dummy_);
    for (const cl::Buffer& r : s.vs.resources)
      args << r;
    queue_.launch_1d(k, (size_t(total) + 3) / 4, "vertex");
  }
  // Without rasterization only stream output and the primitive counts of queries are
  // left to compute.
  const bool discard = s.rasterizer.rasterizer_discard;
  if (discard && !s.count_primitives && !s.so.active) return;

  ClpDrawParams dp = make_draw_params(s, info, range.count);

  // 2. Restart segments.
  if (restart) {
    ensure(seg_index_, seg_index_cap_, size_t(range.count) * 4);
    ensure(seg_first_, seg_first_cap_, size_t(range.count + 1) * 4);
    queue_.copy(restart_, 0, seg_index_, 0, size_t(range.count) * 4);
    scanner_.exclusive_scan(seg_index_, range.count, total_);
    cl::Kernel& k = queue_.kernel(core_, "restart_segments");
    runtime::set_args(k, restart_, seg_index_, range.count, seg_first_);
    queue_.launch_1d(k, range.count, "setup");
  }
  VertexStream vs{&verts_,
                  restart ? &restart_ : &dummy_,
                  restart ? &seg_index_ : &dummy_,
                  restart ? &seg_first_ : &dummy_,
                  nullptr,
                  total,
                  uint32_t(no)};

  // 3. Geometry shader and stream output (geometry_pass.cpp, stream_output_pass.cpp).
  if (s.gs.stage.program) {
    vs = run_geometry(s, vs, &dp);
    stats_.gs_positions = vs.positions;
    last_num_outputs_ = vs.num_outputs;
    last_verts_ = vs.verts;
  }
  if (vs.positions == 0) return;
  if (s.so.active) run_stream_output(s, vs, dp);
  if (discard && !s.count_primitives) return;
  if (s.layers <= 1 || discard) {
    rasterize(s, vs, dp, s.count_primitives);
    return;
  }
  // Layered: the vertex stream is shared, the setup passes keep one layer at a time; the
  // primitive counters count the draw once (with layer 0).
  dp.layer_reg = s.layer_reg;
  for (uint32_t layer = 0; layer < s.layers; ++layer) {
    dp.layer = layer;
    rasterize(layer_setup(s, layer), vs, dp, layer == 0 && s.count_primitives);
  }
}

void DrawPipeline::rasterize(const DrawSetup& s, const VertexStream& vs, const ClpDrawParams& dp,
                             bool count_primitives) {
  const bool discard = s.rasterizer.rasterizer_discard;
  const bool restart = (dp.flags & CLP_DRAW_RESTART) != 0;
  const cl::Buffer dp_buf = queue_.create_buffer_from(&dp, sizeof(dp));
  const uint32_t positions = vs.positions;

  // 4. Setup: count, scan, write.
  ensure(counts_, counts_cap_, size_t(positions) * 4);
  ensure(assembled_, assembled_cap_, size_t(positions) * 4);
  {
    cl::Kernel& k = queue_.kernel(core_, "prim_count");
    runtime::set_args(k, dp_buf, *vs.verts, *vs.restart, *vs.seg_index, *vs.seg_first, counts_,
                      assembled_);
    queue_.launch_1d(k, positions, "setup");
  }
  const bool count = count_primitives && s.counters();
  if ((restart && !vs.prim_ids && s.fs_reads_prim_id) || count) {
    scanner_.exclusive_scan(assembled_, positions, total_);
    if (count) {
      // Primitives out of the last vertex stage: the draw's own, or the GS's.
      add_counter(s.counters, CLP_COUNTER_PRIMS_GENERATED, total_, 1);
      add_counter(s.counters,
                  s.gs.stage.program ? CLP_COUNTER_GS_PRIMITIVES : CLP_COUNTER_IA_PRIMITIVES,
                  total_, 1);
    }
  }
  if (discard) return;
  scanner_.exclusive_scan(counts_, positions, total_);
  const uint32_t records = read_total();
  stats_.records += records;
  if (records == 0) return;
  ensure(tris_, tris_cap_, size_t(records) * sizeof(ClpTri));
  {
    cl::Kernel& k = queue_.kernel(core_, "prim_write");
    runtime::set_args(k, dp_buf, *vs.verts, *vs.restart, *vs.seg_index, *vs.seg_first, counts_,
                      vs.prim_ids ? *vs.prim_ids : assembled_, tris_, records);
    queue_.launch_1d(k, positions, "setup");
  }

  // 5. Binning: count, scan, scatter.
  const uint32_t nchunks = bin_chunks(records);
  const uint32_t ntiles = dp.tiles_x * dp.tiles_y;
  const uint32_t hist_n = ntiles * nchunks;
  ensure(hist_, hist_cap_, size_t(hist_n) * 4);
  {
    // Reset value of bin_count's tile bounds: an empty rectangle (static: the write does
    // not wait, so the source must outlive it).
    static const int32_t kEmptyBounds[4] = {INT32_MAX, INT32_MAX, -1, -1};
    queue_.write(tile_bounds_, 0, sizeof(kEmptyBounds), kEmptyBounds, false);
    cl::Kernel& k = queue_.kernel(core_, "bin_count");
    runtime::set_args(k, tris_, records, nchunks, dp.tiles_x, dp.tiles_y, hist_, tile_bounds_);
    queue_.launch_1d(k, nchunks, "bin");
  }
  scanner_.exclusive_scan(hist_, hist_n, total_);
  const uint32_t entries = read_total();
  stats_.bin_entries += entries;
  if (entries == 0) return;
  int32_t b[4];  // the queue is idle after read_total: this read does not wait
  queue_.read(tile_bounds_, 0, sizeof(b), b);
  ensure(list_, list_cap_, size_t(entries) * 4);
  {
    cl::Kernel& k = queue_.kernel(core_, "bin_scatter");
    runtime::set_args(k, tris_, records, nchunks, dp.tiles_x, hist_, list_, entries);
    queue_.launch_1d(k, nchunks, "bin");
  }

  // 6. Tile pass, over the tiles the draw's primitives can reach.
  const uint32_t tx0 = uint32_t(std::clamp<int32_t>(b[0], 0, int32_t(dp.tiles_x) - 1));
  const uint32_t ty0 = uint32_t(std::clamp<int32_t>(b[1], 0, int32_t(dp.tiles_y) - 1));
  const uint32_t tx1 = uint32_t(std::clamp<int32_t>(b[2], int32_t(tx0), int32_t(dp.tiles_x) - 1));
  const uint32_t ty1 = uint32_t(std::clamp<int32_t>(b[3], int32_t(ty0), int32_t(dp.tiles_y) - 1));
  ClpRasterParams rp = make_raster_params(s);
  rp.bin_chunks = nchunks;
  rp.tile_x0 = tx0;
  rp.tile_y0 = ty0;
  rp.tiles_w = tx1 - tx0 + 1;
  if (s.counters() && s.count_fragments) rp.flags |= CLP_RAST_COUNT;
  if (s.predicate()) {
    rp.flags |= CLP_RAST_PREDICATE;
    if (s.skip_when_true) rp.flags |= CLP_RAST_PREDICATE_WHEN_TRUE;
  }
  {
    const cl::Buffer rp_buf = queue_.create_buffer_from(&rp, sizeof(rp));
    cl::Kernel& k = queue_.kernel(s.fs.program, "tile_pass");
    runtime::KernelArgs args(k);
    args << rp_buf << dp_buf << tris_ << list_ << hist_ << *vs.verts;
    for (uint32_t i = 0; i < CLP_MAX_RTS; ++i) {
      const bool bound = i < s.nr_cbufs && s.cbufs[i].format != Format::NONE && s.cbufs[i].buffer();
      args << (bound ? s.cbufs[i].buffer : dummy_);
    }
    const bool zs = s.zsbuf.format != Format::NONE && s.zsbuf.buffer();
    args << (zs ? s.zsbuf.buffer : dummy_) << (s.counters() ? s.counters : dummy_)
         << (s.predicate() ? s.predicate : dummy_);
    for (const cl::Buffer& r : s.fs.resources)
      args << r;
    const size_t groups = size_t(rp.tiles_w) * (ty1 - ty0 + 1);
    queue_.launch(k, {groups * CLP_TILE_QUADS}, {CLP_TILE_QUADS}, "tile");
  }
}

}  // namespace clpipe::frontend::draw
