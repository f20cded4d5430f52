#include "frontend/draw/draw_pipeline.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "compiler/emit/program_text.h"
#include "runtime/error.h"

namespace clpipe::frontend::draw {

namespace {

// The scratch budget of a scene: $CLPIPE_SCENE_SCRATCH_MB (at least 1) or the default.
uint64_t scratch_budget_from_env() {
  const char* v = std::getenv("CLPIPE_SCENE_SCRATCH_MB");
  const unsigned long long mb = v ? std::strtoull(v, nullptr, 10) : 0;
  return mb ? std::min<unsigned long long>(mb, 1ull << 20) << 20 : kSceneScratchBytes;
}

// The fixed passes share one program: fewer builds, one cache entry.
std::string core_source() {
  return compiler::assemble_kernel_files({"scan.cl", "prim.cl", "bin.cl", "device_counts.cl"});
}

// The setup of layer `layer` of a layered draw: its targets moved to that layer.
DrawSetup layer_setup(const DrawSetup& s, uint32_t layer) {
  DrawSetup l = s;
  for (uint32_t i = 0; i < l.nr_cbufs; ++i)
    l.cbufs[i].offset += uint64_t(layer) * l.cbufs[i].layer_pitch;
  l.zsbuf.offset += uint64_t(layer) * l.zsbuf.layer_pitch;
  return l;
}

// Records a draw is likely to make per primitive: lines and sprites become two
// triangles (points of whole pixels one record), unfilled triangles up to three lines.
// Only a first guess for the record buffer's size: a scene that needs more is replayed
// with the exact size.
uint64_t records_per_prim(const DrawSetup& s, PrimType mode) {
  switch (mode) {
    case PrimType::POINTS:
      return s.rasterizer.point_quad_rasterization || s.rasterizer.multisample ? 2 : 1;
    case PrimType::LINES:
    case PrimType::LINE_STRIP:
    case PrimType::LINE_LOOP:
    case PrimType::LINES_ADJACENCY:
    case PrimType::LINE_STRIP_ADJACENCY:
      return 2;
    default:
      return s.rasterizer.fill_front != PolygonMode::FILL ||
                     s.rasterizer.fill_back != PolygonMode::FILL
                 ? 6
                 : 1;
  }
}

}  // namespace

DrawPipeline::DrawPipeline(runtime::Queue& queue, runtime::ProgramCache& cache)
    : queue_(queue),
      cache_(cache),
      core_(cache.get(core_source())),
      scanner_(queue, core_),
      tile_mode_(tile_variant_mode_from_env()),
      bin_items_(std::clamp<uint32_t>(queue.device().limits().max_compute_units * 64, 256, 16384)),
      scratch_budget_(scratch_budget_from_env()) {
  total_ = queue_.create_buffer(sizeof(uint32_t));
  static const uint32_t kZero = 0;
  zero_ = queue_.create_buffer_from(&kZero, sizeof(kZero));
  dummy_ = queue_.create_buffer(16);
  gs_prim_total_ = queue_.create_buffer(sizeof(uint32_t));
  gs_out_total_ = queue_.create_buffer(sizeof(uint32_t));
  so_total_ = queue_.create_buffer(sizeof(uint32_t));
}

const runtime::ProgramRef& DrawPipeline::stream_program() {
  if (!stream_) stream_ = cache_.get(compiler::assemble_kernel_files({"stream.cl"}));
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
  // Grow geometrically so that a sequence of growing scenes reallocates rarely.
  size_t cap = std::max<size_t>(bytes, capacity + capacity / 2);
  cap = std::max<size_t>(cap, 256);
  buf = queue_.create_buffer(cap);
  capacity = cap;
}

uint64_t DrawPipeline::scratch_bytes(const DrawSetup& s, PrimType mode, uint32_t count,
                                     uint64_t instances) {
  const uint64_t units = s.layers > 1 && !s.rasterizer.rasterizer_discard ? s.layers : 1;
  const uint64_t records =
      uint64_t(basic_prim_count(mode, count)) * instances * units * records_per_prim(s, mode);
  // Per position: its vertex registers, counts and assembled-primitive words; per record:
  // the record and its two bin-list entries.
  const uint64_t per_position = uint64_t(std::max<uint32_t>(s.vs.num_outputs, 1)) * 16 + 8;
  return uint64_t(count) * instances * per_position + records * (sizeof(ClpTri) + 8);
}

uint64_t DrawPipeline::chunk_positions(const DrawSetup& s, PrimType mode, uint32_t count) const {
  const uint64_t per_instance = std::max<uint64_t>(scratch_bytes(s, mode, count, 1), 1);
  // budget x count passes 2^64 only for a budget of 4 GiB or more: then in floating point.
  const uint64_t fit =
      scratch_budget_ <= UINT64_MAX / std::max<uint32_t>(count, 1)
          ? scratch_budget_ * count / per_instance
          : uint64_t(std::min(double(scratch_budget_) * count / double(per_instance),
                              double(kSceneMaxPositions)));
  return std::max<uint64_t>(std::min(fit, kSceneMaxPositions), 1);
}

uint64_t DrawPipeline::scratch_capacity() const {
  return uint64_t(draw_base_cap_) + verts_cap_ + restart_cap_ + seg_index_cap_ + seg_first_cap_ +
         counts_cap_ + assembled_cap_ + tris_cap_ + hist_cap_ + list_cap_ + stream_counts_cap_ +
         gs_prims_cap_ + gs_counts_cap_ + gs_verts_cap_ + gs_restart_cap_ + gs_seg_index_cap_ +
         gs_seg_first_cap_ + gs_prim_id_cap_;
}

bool DrawPipeline::fits(const DrawSetup& s, PrimType mode, uint32_t count,
                        uint64_t instances) const {
  if (draws_.empty()) return true;
  const uint64_t table_bytes =
      tables_.infos.size() * sizeof(ClpResourceInfo) + tables_.words.size() * 4 +
      tables_.views.size() * sizeof(ClpTexView) + tables_.samplers.size() * sizeof(ClpSamplerState);
  const uint64_t positions = uint64_t(count) * instances;
  const uint64_t regs = scene_vert_regs_ + positions * std::max<uint32_t>(s.vs.num_outputs, 1);
  return draws_.size() < kSceneMaxDraws && scene_positions_ + positions <= kSceneMaxPositions &&
         table_bytes <= kSceneMaxTableBytes &&
         scene_scratch_ + scratch_bytes(s, mode, count, instances) <= scratch_budget_ &&
         regs * 16 <= queue_.device().limits().max_mem_alloc_size;
}

void DrawPipeline::record(std::shared_ptr<const DrawSetup> sp, const DrawInfo& info_in,
                          const DrawStartCountBias& range_in, uint32_t draw_id,
                          const DrawChunk* chunk, const DeviceCount* device) {
  const DrawSetup& s = *sp;
  DrawInfo info = info_in;
  DrawStartCountBias range = range_in;
  if (chunk) {
    info.mode = chunk->mode;
    info.instance_count = chunk->instance_count;
    range.count = chunk->count;
  }
  const uint64_t total64 = uint64_t(range.count) * info.instance_count;
  if (total64 == 0) return;
  const uint32_t no = std::max<uint32_t>(s.vs.num_outputs, 1);
  const uint64_t vert_bytes = total64 * no * 16;
  const uint64_t limit = queue_.device().limits().max_mem_alloc_size;
  if (total64 > 0xffffffffu || vert_bytes > limit) {
    runtime::fail(ErrorCode::kOutOfMemory, "draw_vbo: ", range.count, " vertices x ",
                  info.instance_count, " instances need ", vert_bytes,
                  " bytes of vertex data; the device allows ", limit);
  }
  if (!draws_.empty() && (runs_alone(s) || runs_alone(*draws_.back().setup))) {
    runtime::invalid(
        "internal: a draw with a geometry shader or stream output must be alone "
        "in its scene");
  }
  if (!fits(s, info.mode, range.count, info.instance_count))
    runtime::invalid("internal: the draw does not fit the scene");

  Recorded r;
  r.setup = std::move(sp);
  r.info = info;
  r.range = range;
  r.positions = uint32_t(total64);
  r.verts_base = uint32_t(scene_vert_regs_);
  if (device) r.device = *device;
  ClpVertexParams vp = make_vertex_params(s, info, range, draw_id, &r.slot_of_buffer);
  vp.ri_index = s.vs.info_index;
  vp.out_base = r.verts_base;
  if (chunk) {
    vp.instance_base = chunk->instance_base;
    vp.position_base = chunk->position_base;
    vp.hub = chunk->hub;
  }
  r.vp_index = uint32_t(vps_.size());

  // One unit per layer rendered; units of equal state share one ClpRasterParams.
  const bool discard = s.rasterizer.rasterizer_discard;
  const uint32_t units = s.layers > 1 && !discard ? s.layers : 1;
  ClpDrawParams dp = make_draw_params(s, info, range.count);
  dp.verts_base = r.verts_base;
  dp.fs_ri_index = s.fs.info_index;
  if (chunk) dp.prim_id_base = chunk->prim_id_base;
  r.first_unit = uint32_t(dps_.size());
  r.units = units;
  for (uint32_t u = 0; u < units; ++u) {
    if (units > 1) {
      dp.layer_reg = s.layer_reg;
      dp.layer = u;
    }
    if (units == 1 && r.setup.get() == last_setup_ && !rps_.empty()) {
      dp.raster_index = last_raster_;
    } else {
      const ClpRasterParams rp = make_raster_params(units > 1 ? layer_setup(s, u) : s);
      if (rps_.empty() || std::memcmp(&rps_.back(), &rp, sizeof(rp)) != 0) rps_.push_back(rp);
      dp.raster_index = uint32_t(rps_.size() - 1);
      last_tile_ = s.fs.tile_variants
                       ? s.fs.tile_variants->select(rp, fs_textures(s), scene_serial_, tile_mode_)
                       : s.fs.program;
    }
    dps_.push_back(dp);
    unit_tile_.push_back(last_tile_);
  }
  last_setup_ = units == 1 ? r.setup.get() : nullptr;
  last_raster_ = dps_.back().raster_index;
  vps_.push_back(vp);
  unit_draw_.insert(unit_draw_.end(), units, uint32_t(draws_.size()));
  scene_positions_ += total64;
  scene_vert_regs_ += total64 * no;
  record_estimate_ += uint64_t(basic_prim_count(info.mode, range.count)) * info.instance_count *
                      units * records_per_prim(s, info.mode);
  scene_scratch_ += scratch_bytes(s, info.mode, range.count, info.instance_count);
  if (s.gs.stage.program) r.gs_capacity = plan_gs_positions(r);
  draws_.push_back(std::move(r));
  note_vertex_reads(s, info_in, range_in, device != nullptr);
}

void DrawPipeline::note_vertex_reads(const DrawSetup& s, const DrawInfo& info,
                                     const DrawStartCountBias& range, bool device) {
  // The indices vertex.cl fetches at: start + [0, count) per vertex, start_instance +
  // [0, instance_count) / divisor per instance (count and instance_count >= 1: record
  // returned before for an empty draw). Indices from an index buffer and counts on the
  // device are unknown here: such a draw may read all of its buffers.
  const bool known = !info.index_size && !device;
  for (const VertexElement& e : s.elements) {
    const VertexInput& in = s.inputs[e.vertex_buffer_index];  // checked by record
    if (!in.buffer()) continue;
    uint64_t begin = 0, end = UINT64_MAX;
    const uint64_t lo = e.instance_divisor ? info.start_instance : range.start;
    const uint64_t hi = e.instance_divisor
                            ? lo + (uint64_t(info.instance_count) - 1) / e.instance_divisor
                            : lo + range.count - 1;
    // lo and hi are sums of two 32-bit fields and the offsets below 2^33: with
    // hi * stride <= 2^62 no sum below reaches 2^64 (else: the whole buffer).
    if (known && (in.stride == 0 || hi <= (uint64_t(1) << 62) / in.stride)) {
      begin = in.offset + lo * in.stride + e.src_offset;
      end = in.offset + hi * in.stride + e.src_offset + format_desc(e.src_format).block_bytes;
    }
    auto it = std::find_if(vertex_reads_.begin(), vertex_reads_.end(),
                           [&](const VertexRead& v) { return v.buffer == in.buffer(); });
    if (it == vertex_reads_.end()) {
      vertex_reads_.push_back(VertexRead{in.buffer(), begin, end});
    } else {
      it->begin = std::min(it->begin, begin);
      it->end = std::max(it->end, end);
    }
  }
}

bool DrawPipeline::reads_vertex_bytes(const cl::Buffer& buffer, uint64_t begin,
                                      uint64_t end) const {
  for (const VertexRead& v : vertex_reads_) {
    if (v.buffer == buffer() && begin < v.end && v.begin < end) return true;
  }
  return false;
}

void DrawPipeline::lay_out_scene() {
  scene_positions_ = scene_vert_regs_ = record_estimate_ = scene_scratch_ = 0;
  for (Recorded& r : draws_) {
    const DrawSetup& s = *r.setup;
    r.verts_base = uint32_t(scene_vert_regs_);
    vps_[r.vp_index].out_base = r.verts_base;
    for (uint32_t u = 0; u < r.units; ++u)
      dps_[r.first_unit + u].verts_base = r.verts_base;
    scene_positions_ += r.positions;
    scene_vert_regs_ += uint64_t(r.positions) * std::max<uint32_t>(s.vs.num_outputs, 1);
    record_estimate_ += uint64_t(basic_prim_count(r.info.mode, r.range.count)) *
                        r.info.instance_count * r.units * records_per_prim(s, r.info.mode);
    scene_scratch_ += scratch_bytes(s, r.info.mode, r.range.count, r.info.instance_count);
  }
}

FsTextures DrawPipeline::fs_textures(const DrawSetup& s) const {
  FsTextures t;
  if (s.fs.info_index >= tables_.infos.size()) return t;
  // The counts are what the tables hold from the bases on; TileVariants looks at the
  // shader's own units only.
  const ClpResourceInfo& ri = tables_.infos[s.fs.info_index];
  if (ri.view_base < tables_.views.size()) {
    t.views = &tables_.views[ri.view_base];
    t.num_views = uint32_t(tables_.views.size() - ri.view_base);
  }
  if (ri.sampler_base < tables_.samplers.size()) {
    t.samplers = &tables_.samplers[ri.sampler_base];
    t.num_samplers = uint32_t(tables_.samplers.size() - ri.sampler_base);
  }
  return t;
}

void DrawPipeline::clear_scene() {
  ++scene_serial_;
  tables_ = ResourceTables();
  draws_.clear();
  vertex_reads_.clear();
  vps_.clear();
  dps_.clear();
  rps_.clear();
  unit_draw_.clear();
  unit_verts_.clear();
  unit_tile_.clear();
  clear_.reset();
  last_setup_ = nullptr;
  scene_positions_ = scene_vert_regs_ = record_estimate_ = scene_scratch_ = 0;
}

void DrawPipeline::execute() {
  struct Forget {
    DrawPipeline* p;
    ~Forget() { p->clear_scene(); }
  } forget{this};
  if (draws_.empty()) {
    if (clear_) clear_->fill();  // a clear alone: no tile pass to take it
    return;
  }

  const runtime::QueueCounters calls_before = queue_.counters();
  const uint64_t replays_before = counters_.replays;
  const size_t profile_mark = queue_.profile_mark();

  plan_scene();
  make_device_counts();
  // One upload for the scene: resource tables and parameter blocks (which the device
  // writes the counts of draws into, when it reads some).
  std::vector<HostArray> arrays = table_arrays(tables_);
  arrays.push_back({vps_.data(), vps_.size() * sizeof(ClpVertexParams)});
  arrays.push_back({dps_.data(), dps_.size() * sizeof(ClpDrawParams)});
  arrays.push_back({rps_.data(), rps_.size() * sizeof(ClpRasterParams)});
  if (clear_) arrays.push_back({&clear_->texels, sizeof(ClpClearTexels)});
  const size_t counts_at = arrays.size();
  if (!device_counts_.empty())
    arrays.push_back({device_counts_.data(), device_counts_.size() * sizeof(ClpDeviceCount)});
  const std::vector<cl::Buffer> up = upload_arrays(queue_, arrays, !device_counts_.empty());
  SceneTables t;
  t.resources = device_tables(up, 0, dummy_);
  t.vps = up[4];
  t.dps = up[5];
  t.rps = up[6];
  t.clear = clear_ ? up[7] : dummy_;
  t.counts = device_counts_.empty() ? dummy_ : up[counts_at];
  ++counters_.scenes;
  counters_.draws += draws_.size();

  // Capacities: kept from earlier scenes, at least this scene's estimate; each an
  // entry count below Scanner::kSaturated (so a saturated count never fits) and a buffer
  // the device can allocate.
  const uint64_t max_records = queue_.device().limits().max_mem_alloc_size / sizeof(ClpTri);
  auto clamp_cap = [&](uint64_t want, uint64_t most, uint32_t cap_limit) {
    uint64_t c = std::min<uint64_t>({want, most, Scanner::kSaturated - 1});
    if (cap_limit) c = std::min<uint64_t>(c, cap_limit);
    return uint32_t(std::max<uint64_t>(c, 1));
  };
  const uint64_t max_list = queue_.device().limits().max_mem_alloc_size / 4;
  record_capacity_ = clamp_cap(std::max<uint64_t>(record_capacity_, record_estimate_ + 64),
                               max_records, record_cap_limit_);
  list_capacity_ = clamp_cap(std::max<uint64_t>(list_capacity_, uint64_t(record_capacity_) * 2),
                             max_list, list_cap_limit_);
  stats_ = DrawStats();
  for (const Recorded& r : draws_)
    stats_.positions += r.positions;
  // A geometry shader's draw (alone in its scene) rewrites its host parameters into those
  // of its output stream (run_draw); a replay starts again from the recorded ones.
  std::vector<ClpDrawParams> recorded_dps;
  if (draws_.front().setup->gs.stage.program) recorded_dps = dps_;
  bool fitted = run_scene(t, false, false);
  // Stream output and the query counters of primitives happen in the first run that
  // finds no device count above its plan (in the others such a draw drew nothing, and
  // these draws are alone in their scenes); a geometry shader's input is counted in the
  // first run whose draw counts fitted (only its output may have outgrown the plan).
  bool counted = !device_overflow_;
  bool gs_input_counted = !device_input_overflow_;
  std::string dropped;
  // Count, grow, re-run: the first run counted exactly what the scene needs (a record
  // overflow under-counts bin entries, and device counts above their plan leave their
  // draws out, hence more than one try).
  for (int attempt = 0; !fitted && attempt < 4; ++attempt) {
    ++counters_.replays;
    if (!recorded_dps.empty()) dps_ = recorded_dps;
    if (device_overflow_) {
      const std::string d = measure_device_counts(t);
      if (!d.empty()) dropped = d;
      if (!recorded_dps.empty()) recorded_dps = dps_;
    }
    const uint64_t want_records = uint64_t(needed_records_) + needed_records_ / 4;
    const uint64_t want_list = uint64_t(needed_list_) + needed_list_ / 4;
    record_cap_limit_ = list_cap_limit_ = 0;  // a test's cap lasts until the first replay
    if (needed_records_ == Scanner::kSaturated || needed_list_ == Scanner::kSaturated) {
      runtime::fail(ErrorCode::kOutOfMemory, "draw_vbo: the scene needs 2^32 - 1 or more ",
                    needed_records_ == Scanner::kSaturated ? "primitive records" : "bin entries");
    }
    if (want_records > max_records || want_list > max_list) {
      runtime::fail(ErrorCode::kOutOfMemory, "draw_vbo: the scene needs ", needed_records_,
                    " primitive records and ", needed_list_,
                    " bin entries, more than the device can allocate");
    }
    record_capacity_ =
        clamp_cap(std::max<uint64_t>({record_capacity_, want_records, record_estimate_ + 64}),
                  max_records, 0);
    list_capacity_ =
        clamp_cap(std::max<uint64_t>({list_capacity_, want_list, uint64_t(record_capacity_) * 2}),
                  max_list, 0);
    fitted = run_scene(t, counted, gs_input_counted);
    counted = counted || !device_overflow_;
    gs_input_counted = gs_input_counted || !device_input_overflow_;
  }
  if (!fitted) {
    runtime::fail(ErrorCode::kOutOfMemory, "draw_vbo: the scene did not fit its buffers after ",
                  "growing them");
  }
  // The rest of the scene ran; the draws too large for it report now.
  if (!dropped.empty()) runtime::fail(ErrorCode::kOutOfMemory, dropped);
  stats_.records = needed_records_;
  counters_.launches += queue_.counters().launches - calls_before.launches;
  if (queue_.profiling()) {
    // CLPIPE_PROFILE=1: what the scene cost, in OpenCL calls and device time per pass.
    const runtime::QueueCounters& c = queue_.counters();
    std::fprintf(stderr,
                 "clpipe: scene %llu: %zu draws, %llu records, %llu launches, %llu blocking "
                 "reads, %llu uploads, %llu replays;",
                 (unsigned long long)counters_.scenes, draws_.size(),
                 (unsigned long long)needed_records_,
                 (unsigned long long)(c.launches - calls_before.launches),
                 (unsigned long long)(c.blocking_reads - calls_before.blocking_reads),
                 (unsigned long long)(c.uploads - calls_before.uploads),
                 (unsigned long long)(counters_.replays - replays_before));
    for (const runtime::ProfileEntry& e : queue_.profile_since(profile_mark))
      std::fprintf(stderr, " %s %.3f ms", e.label.c_str(), double(e.total_ns) * 1e-6);
    std::fprintf(stderr, "\n");
  }
  const Recorded& last = draws_.back();
  if (!last.setup->gs.stage.program) {
    last_verts_ = &verts_;
    last_verts_base_ = last.verts_base;
    last_num_outputs_ = std::max<uint32_t>(last.setup->vs.num_outputs, 1);
    last_positions_ = last.positions;
  }
}

void DrawPipeline::draw(const DrawSetup& setup, const DrawInfo& info,
                        const DrawStartCountBias& range, uint32_t draw_id) {
  execute();
  record(std::make_shared<const DrawSetup>(setup), info, range, draw_id);
  execute();
}

bool DrawPipeline::run_scene(const SceneTables& t, bool replay, bool gs_input_counted) {
  const uint32_t units = uint32_t(dps_.size());
  ensure(draw_base_, draw_base_cap_, (size_t(units) + 1) * 4);
  const size_t status_words = CLP_STATUS_WORDS + device_counts_.size();
  ensure(status_, status_cap_, status_words * 4);
  queue_.fill_zero(status_, 0, status_words * 4);
  ensure(verts_, verts_cap_, size_t(scene_vert_regs_) * 16);
  ensure(tris_, tris_cap_, size_t(record_capacity_) * sizeof(ClpTri));
  ensure(list_, list_cap_, size_t(list_capacity_) * 4);
  unit_verts_.assign(units, &verts_);
  const VertexStream scene_vs{&verts_, &dummy_, &dummy_, &dummy_, nullptr, 0, 0};
  apply_device_counts(t);
  timed_launches_.clear();  // (left by a run that threw)
  for (const Step& st : plan_) {
    switch (st.kind) {
      case Step::kVertex:
        run_vertex(t, draws_[st.first], st.count, st.items);
        break;
      case Step::kSetup:
        count_records(t, st.first, st.count, st.items, scene_vs);
        write_records(t, st.first, st.count, st.items, scene_vs);
        break;
      case Step::kDraw:
        run_draw(t, draws_[st.first], replay, gs_input_counted);
        break;
    }
  }
  bin_and_shade(t);
  std::vector<uint32_t> st(status_words);
  queue_.read(status_, 0, status_words * 4, st.data());
  // The read waited for every launch before it (one in-order queue).
  for (const TimedLaunch& q : timed_launches_) {
    cl_ulong start = 0, end = 0;
    if (q.event.getProfilingInfo(CL_PROFILING_COMMAND_START, &start) != CL_SUCCESS ||
        q.event.getProfilingInfo(CL_PROFILING_COMMAND_END, &end) != CL_SUCCESS || end <= start)
      continue;
    if (q.variants) q.variants->add_device_time(q.program, end - start);
    if (q.tiers) q.tiers->add_device_time(q.program, end - start);
  }
  timed_launches_.clear();
  needed_records_ = st[0];
  needed_list_ = st[1];
  device_overflow_ = st[2] != 0;
  device_found_.assign(st.begin() + CLP_STATUS_WORDS, st.end());
  learn_device_counts();
  return st[0] <= record_capacity_ && st[1] <= list_capacity_ && !device_overflow_;
}

void DrawPipeline::run_draw(const SceneTables& t, const Recorded& r, bool replay,
                            bool gs_input_counted) {
  const DrawSetup& s = *r.setup;
  const uint32_t total = r.positions;
  const uint32_t no = std::max<uint32_t>(s.vs.num_outputs, 1);
  const bool restart = r.info.index_size && r.info.primitive_restart;
  const uint32_t count = r.range.count;

  // 1. Vertex pass. The flags of a device count's positions past its real count stay 0
  // (the vertex pass writes those of the real ones), as the scans below read them all.
  if (restart) ensure(restart_, restart_cap_, size_t(count) * 4);
  if (restart && r.device) queue_.fill_zero(restart_, 0, size_t(count) * 4);
  run_vertex(t, r, 1, uint32_t((uint64_t(total) + 3) / 4));
  // Without rasterization only stream output and the primitive counts of queries are
  // left to compute.
  const bool discard = s.rasterizer.rasterizer_discard;
  auto skip_all = [&] {
    for (uint32_t u = 0; u < r.units; ++u)
      skip_unit(t, r.first_unit + u);
  };
  if (discard && !s.count_primitives && !s.so.active) return skip_all();

  // 2. Restart segments.
  if (restart) {
    ensure(seg_index_, seg_index_cap_, size_t(count) * 4);
    ensure(seg_first_, seg_first_cap_, (size_t(count) + 1) * 4);
    queue_.copy(restart_, 0, seg_index_, 0, size_t(count) * 4);
    scanner_.exclusive_scan(seg_index_, count, total_);
    cl::Kernel& k = queue_.kernel(core_, "restart_segments");
    runtime::set_args(k, restart_, seg_index_, count, seg_first_);
    queue_.launch_1d(k, count, "setup");
  }
  VertexStream vs{&verts_,
                  restart ? &restart_ : &dummy_,
                  restart ? &seg_index_ : &dummy_,
                  restart ? &seg_first_ : &dummy_,
                  nullptr,
                  total,
                  no};

  // 3. Geometry shader and stream output (geometry_pass.cpp, stream_output_pass.cpp).
  // Such a draw is alone in its scene (runs_alone): its vertices start at 0.
  ClpDrawParams dp = dps_[r.first_unit];
  if (s.gs.stage.program) {
    vs = run_geometry(r, vs, &dp, t, replay || gs_input_counted);
    stats_.gs_positions = vs.positions;
    last_verts_ = vs.verts;
    last_verts_base_ = 0;
    last_num_outputs_ = vs.num_outputs;
    last_positions_ = vs.positions;
    // The setup passes read the stream's parameters from the scene's table (dps_ stays
    // until the scene's end, which waits for these writes), then its real size.
    for (uint32_t u = 0; u < r.units; ++u) {
      ClpDrawParams& d = dps_[r.first_unit + u];
      d.prim_mode = dp.prim_mode;
      d.count = dp.count;
      d.instance_count = dp.instance_count;
      d.flags = dp.flags;
      d.verts_base = 0;
      queue_.write(t.dps, size_t(r.first_unit + u) * sizeof(ClpDrawParams), sizeof(ClpDrawParams),
                   &d, false);
      unit_verts_[r.first_unit + u] = vs.verts;
    }
    if (vs.positions) apply_gs_count(t, r);
  }
  if (vs.positions == 0) return skip_all();
  if (s.so.active && !replay) {
    // The stream's count, or the draw's, when the device holds it.
    if (s.gs.stage.program)
      run_stream_output(s, vs, dp, t, &gs_out_total_, r.gs_entry);
    else
      run_stream_output(s, vs, dp, t, r.device ? &r.device->buffer : nullptr, r.device_entry);
  }
  if (discard && !s.count_primitives) return skip_all();
  // 4. Setup of each unit (each layer of a layered draw); the primitive counters count
  // the draw once.
  for (uint32_t u = 0; u < r.units; ++u)
    setup_unit(t, s, r.first_unit + u, vs, u == 0 && s.count_primitives && !replay);
}

bool DrawPipeline::batched(const Recorded& r) {
  const DrawSetup& s = *r.setup;
  const bool restart = r.info.index_size && r.info.primitive_restart;
  return !restart && !runs_alone(s) && !s.rasterizer.rasterizer_discard &&
         !(s.count_primitives && s.counters());
}

bool DrawPipeline::same_vertex_launch(const Recorded& a, const Recorded& b) const {
  const DrawSetup& sa = *a.setup;
  const DrawSetup& sb = *b.setup;
  if (sa.vs.program != sb.vs.program || !(sa.vs.resources == sb.vs.resources)) return false;
  auto index_arg = [](const Recorded& r) {
    return r.info.index_size && r.setup->index_buffer() ? r.setup->index_buffer() : nullptr;
  };
  if (index_arg(a) != index_arg(b)) return false;
  // The same buffer in each kernel slot vbN (slots of unused vertex buffers are dummies).
  std::array<cl_mem, CLP_MAX_VERTEX_BUFFERS> va{}, vb{};
  for (size_t i = 0; i < kMaxVertexBuffers; ++i) {
    if (a.slot_of_buffer[i] >= 0) va[a.slot_of_buffer[i]] = sa.inputs[i].buffer();
    if (b.slot_of_buffer[i] >= 0) vb[b.slot_of_buffer[i]] = sb.inputs[i].buffer();
  }
  return va == vb;
}

void DrawPipeline::plan_scene() {
  plan_.clear();
  Step vertex{Step::kVertex}, setup{Step::kSetup};  // count 0: none open
  auto close_vertex = [&] {
    if (vertex.count) plan_.push_back(vertex);
    vertex.count = 0;
  };
  auto close_setup = [&] {
    close_vertex();
    if (setup.count) plan_.push_back(setup);
    setup.count = 0;
  };
  for (uint32_t d = 0; d < draws_.size(); ++d) {
    const Recorded& r = draws_[d];
    ClpVertexParams& vp = vps_[r.vp_index];
    if (!batched(r)) {
      close_setup();
      vp.item_base = 0;
      for (uint32_t u = 0; u < r.units; ++u)
        dps_[r.first_unit + u].pos_base = 0;
      plan_.push_back({Step::kDraw, d, 1, 0});
      continue;
    }
    if (vertex.count && !same_vertex_launch(draws_[vertex.first], r)) close_vertex();
    if (!vertex.count) {
      vertex.first = d;
      vertex.items = 0;
    }
    // Scene limits keep both sums below 2^32: at most 2^24 positions of 2^16 draws.
    vp.item_base = vertex.items;
    vertex.items += uint32_t((uint64_t(r.positions) + 3) / 4);
    ++vertex.count;
    if (!setup.count) {
      setup.first = r.first_unit;
      setup.items = 0;
    }
    for (uint32_t u = 0; u < r.units; ++u) {
      dps_[r.first_unit + u].pos_base = setup.items;
      setup.items += r.positions;
      ++setup.count;
    }
  }
  close_setup();
}

void DrawPipeline::run_vertex(const SceneTables& t, const Recorded& r, uint32_t draws,
                              uint32_t items) {
  const DrawSetup& s = *r.setup;
  const bool restart = r.info.index_size && r.info.primitive_restart;
  cl::Kernel& k = queue_.kernel(s.vs.program, "vertex_pass");
  runtime::KernelArgs args(k);
  args << t.vps << r.vp_index << draws
       << (r.info.index_size && s.index_buffer() ? s.index_buffer : dummy_);
  std::array<cl::Buffer, CLP_MAX_VERTEX_BUFFERS> vbs;
  vbs.fill(dummy_);
  for (size_t b = 0; b < kMaxVertexBuffers; ++b) {
    if (r.slot_of_buffer[b] >= 0 && s.inputs[b].buffer())
      vbs[r.slot_of_buffer[b]] = s.inputs[b].buffer;
  }
  for (const cl::Buffer& vb : vbs)
    args << vb;
  args << verts_ << (restart ? restart_ : dummy_);
  for (const StageArg& a : s.vs.resources)
    args << resolve(a, t.resources);
  count_stage_launch(s.vs, queue_.launch_1d(k, items, "vertex"));
}

void DrawPipeline::count_stage_launch(const StageBinding& stage, cl::Event ev) {
  if (stage.tiers && stage.tiers->counts_device_time(stage.program))
    timed_launches_.push_back({std::move(ev), nullptr, stage.tiers.get(), stage.program});
}

void DrawPipeline::skip_unit(const SceneTables& t, uint32_t unit) {
  cl::Kernel& k = queue_.kernel(core_, "records_advance");
  runtime::set_args(k, draw_base_, unit, 1u, t.dps, zero_, zero_, status_);
  queue_.launch(k, {1}, {1}, "setup");
}

void DrawPipeline::setup_unit(const SceneTables& t, const DrawSetup& s, uint32_t unit,
                              const VertexStream& vs, bool count_primitives) {
  const ClpDrawParams& dp = dps_[unit];
  const bool restart = (dp.flags & CLP_DRAW_RESTART) != 0;
  const uint32_t positions = vs.positions;
  count_records(t, unit, 1, positions, vs);
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
  if (s.rasterizer.rasterizer_discard) return skip_unit(t, unit);
  write_records(t, unit, 1, positions, vs);
}

void DrawPipeline::count_records(const SceneTables& t, uint32_t first, uint32_t units,
                                 uint32_t positions, const VertexStream& vs) {
  ensure(counts_, counts_cap_, size_t(positions) * 4);
  ensure(assembled_, assembled_cap_, size_t(positions) * 4);
  cl::Kernel& k = queue_.kernel(core_, "prim_count");
  runtime::set_args(k, t.dps, first, units, positions, *vs.verts, *vs.restart, *vs.seg_index,
                    *vs.seg_first, counts_, assembled_);
  queue_.launch_1d(k, positions, "setup");
}

void DrawPipeline::write_records(const SceneTables& t, uint32_t first, uint32_t units,
                                 uint32_t positions, const VertexStream& vs) {
  scanner_.exclusive_scan(counts_, positions, total_);
  {
    cl::Kernel& k = queue_.kernel(core_, "records_advance");
    runtime::set_args(k, draw_base_, first, units, t.dps, counts_, total_, status_);
    queue_.launch_1d(k, units, "setup");
  }
  {
    cl::Kernel& k = queue_.kernel(core_, "prim_write");
    runtime::set_args(k, t.dps, first, units, positions, *vs.verts, *vs.restart, *vs.seg_index,
                      *vs.seg_first, counts_, vs.prim_ids ? *vs.prim_ids : assembled_, tris_,
                      record_capacity_, draw_base_);
    queue_.launch_1d(k, positions, "setup");
  }
}

std::vector<ClpTri> DrawPipeline::read_records() {
  std::vector<ClpTri> out(std::min(stats_.records, record_capacity_));
  if (!out.empty()) queue_.read(tris_, 0, out.size() * sizeof(ClpTri), out.data());
  out.erase(std::remove_if(
                out.begin(), out.end(),
                [](const ClpTri& t) { return t.bbox[0] >= t.bbox[2] || t.bbox[1] >= t.bbox[3]; }),
            out.end());
  return out;
}

std::vector<std::array<uint32_t, 4>> DrawPipeline::read_vertices() {
  std::vector<std::array<uint32_t, 4>> out(size_t(last_positions_) * last_num_outputs_);
  if (!out.empty() && last_verts_) {
    queue_.read(*last_verts_, size_t(last_verts_base_) * 16, out.size() * 16, out.data());
  }
  return out;
}

}  // namespace clpipe::frontend::draw
