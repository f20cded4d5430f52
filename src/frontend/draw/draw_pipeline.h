// draw_vbo as GPGPU passes over scenes (design.md, performance.md §5).
//
// Who builds what: the Context resolves its bound state into a DrawSetup (buffers,
// formats, compiled stage programs, linkage) and records draws with it; DrawPipeline
// collects them into a scene (record) and, when the Context flushes it (execute), runs
// the vertex pass (one launch per run of draws sharing its arguments), geometry shader
// pass (geometry_pass.cpp), stream output (stream_output_pass.cpp) and setup passes
// (count, scan, write; one sequence per batch of draws) into scene-wide vertex and
// record buffers, then one binning over all records of the scene (count, scan,
// scatter) and one tile pass per run of draws that share a fragment program. Nothing
// inside a scene waits for the device: buffers are sized from host bounds (for indirect
// draws and draw_auto, positions the host plans: DeviceCount), and a scene that outgrows
// them is replayed with larger ones (one read of the status words at its end).
// Scratch buffers are reused by later scenes (the queue is in order).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clpipe/state.h"
#include "frontend/draw/draw_split.h"
#include "frontend/draw/scan.h"
#include "frontend/draw/tile_variant.h"
#include "frontend/resource_tables.h"
#include "kernels/draw_shared.h"
#include "kernels/raster_shared.h"
#include "kernels/stream_shared.h"
#include "kernels/vertex_shared.h"
#include "runtime/program_cache.h"
#include "runtime/queue.h"

namespace clpipe::frontend::draw {

// A compiled shader stage ready to run: its program, kernel argument list beyond the
// template's fixed ones (tables resolved when the scene runs), its entry in the scene's
// resource tables, and the facts the passes need.
struct StageBinding {
  runtime::ProgramRef program;
  std::vector<StageArg> resources;  // CLP_RESOURCE_PARAMS, in order
  uint32_t info_index = 0;          // of the scene's ResourceTables::infos
  uint32_t num_inputs = 0;
  uint32_t num_outputs = 0;
  // Fragment stage: `program` (generic) and its specialised variants; null: `program` only.
  std::shared_ptr<TileVariants> tile_variants;
  // Vertex and geometry stages: the tiers `program` came from, which count the device time
  // of its launches while it is their quick or interpreted program; null: none counted.
  std::shared_ptr<TieredProgram> tiers;
};

// Where the last vertex stage put the values the fixed-function passes read.
struct VertexOutputLayout {
  uint32_t pos_reg = 0;
  int32_t psize_reg = -1;
  int32_t clipdist_reg[2] = {-1, -1};
  int32_t clipvertex_reg = -1;
  int32_t edgeflag_reg = -1;   // EDGEFLAG output of a vertex shader (not of a GS)
  uint32_t num_clip_dist = 0;  // from NUM_CLIPDIST_ENABLED (or 4 per written CLIPDIST)
  uint32_t num_cull_dist = 0;
  bool window_space_position = false;
};

struct ColorTarget {
  cl::Buffer buffer;
  Format format = Format::NONE;
  uint64_t offset = 0;       // byte offset of pixel (0, 0) of the bound level/layer
  uint32_t pitch = 0;        // bytes per row
  uint32_t layers = 1;       // layers of the surface (first_layer..last_layer)
  uint64_t layer_pitch = 0;  // bytes from one layer to the next
  uint32_t sample_rows = 0;  // rows from one sample plane to the next (layout.h)
  uint32_t samples = 1;      // sample planes per layer
};

struct VertexInput {
  cl::Buffer buffer;
  uint64_t offset = 0;  // buffer_offset
  uint64_t size = 0;    // bytes in the buffer
  uint32_t stride = 0;
};

// The geometry shader stage (gs.cl around the generated code), when one is bound.
struct GeometrySetup {
  StageBinding stage;  // stage.program null: no geometry shader
  // invocations, verts_per_prim, max_vertices, num_outputs and in_map; the pass fills
  // the rest per draw.
  ClpGsParams params{};
  PrimType output_prim = PrimType::POINTS;  // POINTS, LINE_STRIP or TRIANGLE_STRIP
};

// Stream output of the last vertex stage into the bound targets.
struct StreamOutputSetup {
  bool active = false;  // targets bound and the last stage declares outputs
  // num_outputs, out[], bound, stride, size, base; the pass fills the rest per draw.
  ClpSoParams params{};
  std::array<cl::Buffer, CLP_SO_BUFFERS> buffers;  // storage of the bound targets
  std::array<cl::Buffer, CLP_SO_BUFFERS> filled;   // their filled sizes (one uint each)
};

struct DrawSetup {
  StageBinding vs, fs;
  GeometrySetup gs;
  StreamOutputSetup so;
  VertexOutputLayout outputs;
  // Layered rendering (a GS LAYER output and layered attachments): the setup, binning
  // and tile passes run once per layer 0..layers-1, each keeping the primitives whose
  // provoking vertex has that layer in .x of register layer_reg, into the targets'
  // offset + layer * layer_pitch. layers == 1: not layered (layer_reg is ignored).
  int32_t layer_reg = -1;
  uint32_t layers = 1;
  // Vertex input: element i feeds VS input i and reads inputs[element.vertex_buffer_index].
  std::vector<VertexElement> elements;
  std::array<VertexInput, kMaxVertexBuffers> inputs;
  cl::Buffer index_buffer;  // indexed draws
  uint64_t index_offset = 0, index_size_bytes = 0;

  RasterizerState rasterizer;
  DepthStencilAlphaState dsa;
  BlendState blend;
  BlendColor blend_color;
  StencilRef stencil_ref;
  ClipState clip;
  PolyStipple stipple;
  ViewportState viewport;
  ScissorState scissor;
  uint32_t sample_mask = ~0u;

  uint32_t fb_width = 0, fb_height = 0;
  // Samples of the framebuffer's attachments (set_framebuffer_state makes them agree),
  // and the samples each pixel must shade at least (set_min_samples): the tile pass
  // shades every sample on its own when that is more than one.
  uint32_t samples = 1;
  uint32_t min_samples = 1;
  uint32_t nr_cbufs = 0;
  std::array<ColorTarget, kMaxColorBufs> cbufs;  // format NONE = hole
  ColorTarget zsbuf;                             // format NONE = none
  // FS facts.
  std::array<int32_t, kMaxColorBufs> fs_color_reg{};  // -1 = not written
  bool fs_color0_broadcast = false;
  bool fs_coord_lower_left = false, fs_coord_pixel_center_integer = false;
  bool fs_reads_prim_id = false;
  std::vector<ClpFsLink> fs_links;  // per FS input register

  // Device counters of the draw for queries, when set: the tile pass adds the fragment
  // counters (words 0..3) when count_fragments is set; with count_primitives or stream
  // output the buffer must hold CLP_QUERY_WORDS words (stream_shared.h) for the
  // primitive counters and stream output's own.
  cl::Buffer counters;
  bool count_fragments = true;
  // Conditional rendering on the device: when set, the draw is skipped if the 64-bit
  // value at its first 8 bytes is non-zero == skip_when_true.
  cl::Buffer predicate;
  bool skip_when_true = false;
  // Count primitives (generated, input assembly, geometry shader) into counters.
  bool count_primitives = false;
  // The scene's record count is the primitives rasterized (a pipeline statistics query
  // reads it, draw_vbo.cpp): no empty record slots (CLP_DRAW_EXACT_RECORDS).
  bool exact_records = false;
};

// Counts of a draw that the device reads when the scene runs (indirect draws,
// draw_auto): the host records the draw with `planned` positions of its own choosing, the
// device writes the real counts into the draw's parameter blocks before the passes read
// them (device_counts.cl), and a scene in which a draw has more positions than planned
// is replayed with the real counts (DrawPipeline::measure_device_counts). So recording
// such a draw waits for nothing.
struct DeviceCount {
  uint32_t kind = CLP_COUNT_DIRECT;  // CLP_COUNT_*
  cl::Buffer buffer;                 // the arguments, or a target's filled size (one uint)
  uint64_t offset = 0;               // bytes, a multiple of 4
  uint32_t stride = 0;               // CLP_COUNT_AUTO: bytes per vertex (not 0)
  // CLP_COUNT_AUTO: the draw's instances (the host's); the others read theirs.
  uint32_t instance_count = 1, start_instance = 0;
};

// A clear of the framebuffer that a scene begins with (ContextImpl::clear). The scene's
// first tile-pass run applies it as it loads its pixels (clear-on-load:
// ClpRunParams::clear_mask), so that the clear costs no pass of its own. A scene without
// such a run (no draw reaches the tile pass, or the first run cannot take the clear:
// take_clear) calls `fill`, the same clear as fill passes, before its first tile pass.
struct SceneClear {
  uint32_t mask = 0;     // ClpRunParams::clear_mask
  int32_t rect[4] = {};  // x0, y0, x1, y1: inside the framebuffer and every cleared target
  ClpClearTexels texels{};
  std::array<ColorTarget, CLP_MAX_RTS> cbufs;  // the cleared targets, as draws see them
  ColorTarget zsbuf;
  std::function<void()> fill;
};

// Counters of the last executed scene (for tests, queries and the profile report).
struct DrawStats {
  uint32_t positions = 0;
  // Rasterizable triangles after setup (read when asked), with the empty slots of point
  // and line draws unless the draw asks for exact records (DrawSetup::exact_records).
  uint32_t records = 0;
  uint32_t gs_positions = 0;  // positions of the last geometry shader's output stream
  // Vertices (positions x instances) of the draws whose counts the device read, as it
  // found them (they come back with the scene's status).
  uint64_t device_vertices = 0;
};

// Scenes run, draws in them, replays of scenes that outgrew their buffers and the kernel
// launches of running them, since the pipeline was made (the queue counts all launches,
// reads and uploads: runtime::QueueCounters).
struct SceneCounters {
  uint64_t scenes = 0, draws = 0, replays = 0, launches = 0;
};

// The limits that end a scene: the Context flushes it before a draw would pass them, so
// that a scene never grows without bound. Records and vertices are kept for the whole
// scene, so these bound its memory: 2^16 draws (their parameter blocks, ~0.5 KB each),
// 2^24 positions (whose vertex data must also fit one device allocation: fits()), 64 MiB
// of resource tables and 64 MiB of scratch (scratch_bytes: vertices, records and bin
// lists; $CLPIPE_SCENE_SCRATCH_MB), which a single draw's chunks (draw_split.h) stay
// within. 64 MiB holds ~300k small triangles: glbench's tiny-tris (1M triangles) and
// shaded-mesh (4 x 200k) ran as fast in scenes of 64 MiB as of 256 MiB, and a client
// process peaks lower.
constexpr uint32_t kSceneMaxDraws = 1u << 16;
constexpr uint64_t kSceneMaxPositions = 1u << 24;
constexpr uint64_t kSceneMaxTableBytes = uint64_t(64) << 20;
constexpr uint64_t kSceneScratchBytes = uint64_t(64) << 20;

class DrawPipeline {
 public:
  DrawPipeline(runtime::Queue& queue, runtime::ProgramCache& cache);

  // The resource tables of the scene being recorded: bind_stage_resources appends the
  // stages of the next draw to them, and its StageBinding::info_index points into them.
  ResourceTables& tables() { return tables_; }
  // Appends one draw (one entry of draw_vbo's draws[]) to the scene. The setup must be
  // validated; several draws may share it. Throws (leaving the scene as it was) for a
  // draw the device cannot hold.
  // A chunk (draw_split.h) replaces the draw's mode, count and instances with its own.
  // A draw with a device count (not chunked) plans range.count x info.instance_count
  // positions for it.
  void record(std::shared_ptr<const DrawSetup> setup, const DrawInfo& info,
              const DrawStartCountBias& range, uint32_t draw_id, const DrawChunk* chunk = nullptr,
              const DeviceCount* device = nullptr);
  // Whether a recorded draw may read bytes [begin, end) of `buffer` as vertex input: the
  // context need not run the scene before a write elsewhere in the buffer.
  bool reads_vertex_bytes(const cl::Buffer& buffer, uint64_t begin, uint64_t end) const;
  // Whether the scene has nothing to run: no draw and no clear.
  bool empty() const { return draws_.empty() && !clear_; }
  bool has_draws() const { return !draws_.empty(); }
  // The clear the scene begins with, or null.
  const SceneClear* scene_clear() const { return clear_ ? &*clear_ : nullptr; }
  // Makes c (single-layer targets) the clear the scene begins with, replacing the one it
  // had; the scene must have no draws yet.
  void set_clear(SceneClear c);
  // Whether a draw of `count` positions x `instances` of `mode` with setup s still fits
  // this scene (kSceneMax*, the scratch budget); an empty scene takes any draw.
  bool fits(const DrawSetup& s, PrimType mode, uint32_t count, uint64_t instances) const;
  // Scratch bytes a scene needs for such a draw (an estimate: the record count is a first
  // guess that clipping may pass, see execute()).
  static uint64_t scratch_bytes(const DrawSetup& s, PrimType mode, uint32_t count,
                                uint64_t instances);
  // The most positions of one chunk of a draw of `count` positions per instance, so that
  // the chunk alone stays within the scratch budget.
  uint64_t chunk_positions(const DrawSetup& s, PrimType mode, uint32_t count) const;
  // Test knob: when draws get specialised tile programs (default: from the environment).
  void set_tile_mode(TileVariantMode mode) { tile_mode_ = mode; }
  // Positions draw_vbo plans for draw d whose count the device reads: what the last
  // scene found at its arguments' place (buffer and offset), else kDevicePositions,
  // within the scratch budget.
  uint64_t device_count_positions(const DrawSetup& s, PrimType mode, const DeviceCount& d) const;
  static constexpr uint64_t kDevicePositions = 64;
  // Test knob: the positions planned for counts the device finds (indirect draws, the
  // output of geometry shaders) where no scene found them yet.
  void set_device_count_positions(uint64_t positions) {
    device_positions_ = positions;
    gs_positions_ = uint32_t(std::min<uint64_t>(positions, UINT32_MAX));
  }
  // Test knob: the scratch budget of a scene (default: scratch_budget_from_env()).
  void set_scratch_budget(uint64_t bytes) { scratch_budget_ = bytes; }
  // Bytes of the scratch buffers the pipeline holds (kept from scene to scene).
  uint64_t scratch_capacity() const;
  // Draws whose passes use per-draw scratch the scene does not multiply (the geometry
  // shader's output stream, stream output): the scene must hold them alone.
  static bool runs_alone(const DrawSetup& s) { return s.gs.stage.program || s.so.active; }
  // Runs the recorded scene and starts an empty one, also when a pass throws. Waits for
  // the scene's end to read how many records and bin entries it needed (replaying it
  // when they exceeded the buffers), which also gives last_stats().records.
  void execute();

  // One draw as a scene of its own, executed at once (tests; reads the stats).
  void draw(const DrawSetup& setup, const DrawInfo& info, const DrawStartCountBias& range,
            uint32_t draw_id);

  const DrawStats& last_stats() const { return stats_; }
  // Changes whenever the scene being recorded is emptied (it ran or failed): stage
  // bindings added to tables() belong to the scene of one serial.
  uint64_t scene_serial() const { return scene_serial_; }
  const SceneCounters& counters() const { return counters_; }
  // Test knob: caps the record and bin-list capacities at these many entries (0 = no
  // cap) until the next replay, so that a scene overflows and replays.
  void set_capacity_cap(uint32_t records, uint32_t list) {
    record_cap_limit_ = records;
    list_cap_limit_ = list;
  }
  // The setup records of the last scene that can draw (not the empty slots of point and
  // line draws), in API order (waits for the device; for tests).
  std::vector<ClpTri> read_records();
  // The post-transform vertices of the last scene's last draw: positions x num_outputs
  // registers of four 32-bit words; with a geometry shader, its output stream (restart
  // holes hold undefined values). Waits for the device; for tests.
  std::vector<std::array<uint32_t, 4>> read_vertices();
  // The program with the fixed passes (setup, binning, scan).
  const runtime::ProgramRef& core_program() const { return core_; }

 private:
  // One recorded draw: its setup, call and parameter blocks. A layered draw rasterizes
  // once per layer: `units` consecutive entries of dps_ from `first_unit`.
  struct Recorded {
    std::shared_ptr<const DrawSetup> setup;
    DrawInfo info;
    DrawStartCountBias range;
    uint32_t positions = 0;
    uint32_t vp_index = 0;
    uint32_t first_unit = 0, units = 0;
    uint32_t verts_base = 0;                              // float4 of the scene's vertex buffer
    std::array<int, kMaxVertexBuffers> slot_of_buffer{};  // vertex buffer -> kernel vbN
    std::optional<DeviceCount> device;  // counts read on the device; positions is planned
    uint32_t device_entry = 0;          // its entry of device_counts_
    // With a geometry shader: the positions of its output stream the passes after it
    // cover (the device writes the real number into the draw's ClpDrawParams), and the
    // entry of device_counts_ that does it.
    uint32_t gs_capacity = 0, gs_entry = 0;
    bool gs_dropped = false;  // its output stream is larger than the device can hold
    bool dropped = false;     // its device count is larger than a scene can hold: draws nothing
  };
  // One step of a scene's execution plan (plan_scene), in API order. Draws that need
  // per-draw scratch or counting (batched() is false) run alone (kDraw); the others
  // share vertex launches (kVertex: `count` draws from `first`, `items` work-items) and
  // setup sequences (kSetup: `count` units from `first`, `items` positions). A kSetup
  // step follows the kVertex steps of all its draws.
  struct Step {
    enum Kind { kVertex, kSetup, kDraw } kind;
    uint32_t first = 0, count = 0, items = 0;
  };
  // The vertices the fixed-function passes read: the vertex pass's, or the geometry
  // shader's output stream (an indexed strip with restart holes).
  struct VertexStream {
    const cl::Buffer* verts;
    const cl::Buffer* restart;    // restart flag per position (dummy without restart)
    const cl::Buffer* seg_index;  // restart segment of a position
    const cl::Buffer* seg_first;  // first position of a segment
    const cl::Buffer* prim_ids;   // CLP_DRAW_PRIM_ID_TABLE: PRIMID per position, else null
    uint32_t positions;
    uint32_t num_outputs;
  };
  // The scene's parameter blocks and resource tables on the device.
  struct SceneTables {
    cl::Buffer vps, dps, rps;
    cl::Buffer clear;   // the scene clear's ClpClearTexels (dummy_ without one)
    cl::Buffer counts;  // device_counts_ (dummy_ without draws that have device counts)
    DeviceTables resources;
  };
  // Whether draw r can share vertex and setup launches with its neighbours: no
  // primitive restart (its flags go to per-draw scratch), no geometry shader or stream
  // output, no rasterizer discard and no primitive counting for queries.
  static bool batched(const Recorded& r);
  // Whether draws a and b pass the vertex pass the same arguments but their index.
  bool same_vertex_launch(const Recorded& a, const Recorded& b) const;
  // Fills plan_ and the item_base / pos_base of the scene's parameter blocks.
  void plan_scene();
  // The vertex pass of `draws` draws from r (a kVertex step, or one draw).
  void run_vertex(const SceneTables& t, const Recorded& r, uint32_t draws, uint32_t items);
  // Setup passes of `units` units from `first` (`positions` positions in all) over `vs`:
  // count_records counts each position's records (and assembled primitives), then
  // write_records scans the counts and writes the records after the previous unit's.
  void count_records(const SceneTables& t, uint32_t first, uint32_t units, uint32_t positions,
                     const VertexStream& vs);
  void write_records(const SceneTables& t, uint32_t first, uint32_t units, uint32_t positions,
                     const VertexStream& vs);
  // The program of stream.cl (built at the first draw that needs it).
  const runtime::ProgramRef& stream_program();
  // One pass over the scene; `replay` skips what must happen once (stream output and
  // the primitive counters of queries), `gs_input_counted` the counters of a geometry
  // shader's input (counted by an earlier run that only its output outgrew). Returns
  // whether the scene fitted its buffers.
  bool run_scene(const SceneTables& t, bool replay, bool gs_input_counted);
  // Vertex, geometry, stream output and setup passes of one recorded draw.
  void run_draw(const SceneTables& t, const Recorded& r, bool replay, bool gs_input_counted);
  // Geometry shader (geometry_pass.cpp): runs draw r's GS over the input primitives of
  // `in` and returns its output stream of r.gs_capacity positions, of which the device
  // knows how many are real (apply_gs_count); dp becomes the host's parameters of that
  // stream. `counted`: an earlier run counted its input primitives for queries.
  VertexStream run_geometry(const Recorded& r, const VertexStream& in, ClpDrawParams* dp,
                            const SceneTables& t, bool counted);
  // Stream output (stream_output_pass.cpp) of the primitives of `in` (described by dp;
  // when count_src is set, the device writes the real count into its copy of dp from
  // entry count_entry of device_counts_).
  void run_stream_output(const DrawSetup& s, const VertexStream& in, const ClpDrawParams& dp,
                         const SceneTables& t, const cl::Buffer* count_src, uint32_t count_entry);
  // Setup passes of scene draw `unit` alone over `vs`. With count_primitives, adds the
  // assembled primitives to the query counters.
  void setup_unit(const SceneTables& t, const DrawSetup& s, uint32_t unit, const VertexStream& vs,
                  bool count_primitives);
  // Marks scene draw `unit` as producing no records.
  void skip_unit(const SceneTables& t, uint32_t unit);
  // Binning of every record of the scene, then the tile pass of each run of units
  // (tile_runs.cpp).
  void bin_and_shade(const SceneTables& t);
  // Sets run's clear-on-load from the scene's clear when the run's targets (those of s)
  // are the cleared ones; false otherwise (tile_runs.cpp).
  bool take_clear(const DrawSetup& s, ClpRunParams* run) const;
  // Whether units a and b can share a tile-pass launch.
  bool same_run(uint32_t a, uint32_t b) const;
  // The views and samplers of s's fragment stage in the tables (bound by bind_stages):
  // what its tile program may compile in.
  FsTextures fs_textures(const DrawSetup& s) const;
  // Device counts (device_counts.cpp). Fills device_counts_ from the recorded draws
  // (their plans) and numbers their entries: the draws' counts in draw order, then the
  // geometry shaders' output streams.
  void make_device_counts();
  // The positions planned for the output stream of draw r's geometry shader: at most
  // what its input primitives can emit, what the last such stream had (at least
  // gs_positions_), within the device's largest allocation.
  uint32_t plan_gs_positions(const Recorded& r) const;
  static constexpr uint32_t kGsPositions = 4096;
  // Writes the counts of the scene's draws into their parameter blocks in t (one launch
  // per run of draws whose arguments share a buffer); a count above a draw's plan draws
  // nothing and, unless the draw is dropped, marks the scene for a replay.
  void apply_device_counts(const SceneTables& t);
  // The same for entry `entry` (its arguments in src) into `dp`, one writable
  // ClpDrawParams: the copy a geometry shader or stream output pass reads.
  void apply_device_count(const SceneTables& t, uint32_t entry, const cl::Buffer& src,
                          const cl::Buffer& dp);
  // The count of draw r's geometry shader output (in gs_out_total_) into its
  // ClpDrawParams in t.
  void apply_gs_count(const SceneTables& t, const Recorded& r);
  // After a run that found more positions than planned: plans each such draw with what
  // the run found (device_found_), lays the scene's vertices out again and rewrites its
  // parameter blocks in t. Returns the error of draws too large for a scene (dropped),
  // or an empty string.
  std::string measure_device_counts(const SceneTables& t);
  // Notes in device_seen_ what the last run found at each indirect draw's arguments, and
  // whether a draw's count (not a GS output's) outgrew its plan.
  void learn_device_counts();
  // Records, vertex registers, positions and the record estimate of the scene recomputed
  // from its draws' positions (after measure_device_counts changed some).
  void lay_out_scene();
  // Adds the bytes a recorded draw (its whole range and instances, before any chunking)
  // reads from each vertex buffer to vertex_reads_.
  void note_vertex_reads(const DrawSetup& s, const DrawInfo& info, const DrawStartCountBias& range,
                         bool device);
  // Forgets the recorded scene.
  void clear_scene();
  // counters[word] += total[0] * factor on the device.
  void add_counter(const cl::Buffer& counters, uint32_t word, const cl::Buffer& total,
                   uint32_t factor);

  // Grows `buf` (of `*capacity` bytes) to hold at least `bytes`.
  void ensure(cl::Buffer& buf, size_t& capacity, size_t bytes);

  runtime::Queue& queue_;
  runtime::ProgramCache& cache_;
  runtime::ProgramRef core_, stream_;
  Scanner scanner_;
  TileVariantMode tile_mode_;
  // Work-items the binning pass aims at (bin_bands): 64 per compute unit, at least 256.
  const uint32_t bin_items_;
  DrawStats stats_;
  SceneCounters counters_;

  // The scene being recorded.
  ResourceTables tables_;
  std::vector<Recorded> draws_;
  // Per buffer, the hull of the bytes the draws read as vertex input (note_vertex_reads).
  struct VertexRead {
    cl_mem buffer;
    uint64_t begin, end;
  };
  std::vector<VertexRead> vertex_reads_;
  std::vector<Step> plan_;
  std::optional<SceneClear> clear_;
  std::vector<ClpVertexParams> vps_;
  std::vector<ClpDrawParams> dps_;             // one per scene draw ("unit")
  std::vector<ClpRasterParams> rps_;           // shared by consecutive units with equal state
  std::vector<uint32_t> unit_draw_;            // the recorded draw of each unit
  std::vector<const cl::Buffer*> unit_verts_;  // the vertices each unit rasterizes
  // The tile program of each unit: its fragment shader's generic program or the variant
  // of its state (TileVariants::select, when its ClpRasterParams is made).
  std::vector<runtime::ProgramRef> unit_tile_;
  runtime::ProgramRef last_tile_;  // of last_raster_
  // The launches of the running scene whose device time counts towards optimised builds,
  // added once run_scene's status read has waited for them: through `variants` for a
  // tile pass of a generic program (TileVariants::add_device_time) or `tiers` for a
  // vertex or geometry pass of a quick or interpreted one (TieredProgram::
  // add_device_time). A draw of the scene holds both until the scene ends.
  struct TimedLaunch {
    cl::Event event;
    TileVariants* variants;
    TieredProgram* tiers;
    runtime::ProgramRef program;
  };
  std::vector<TimedLaunch> timed_launches_;
  // Counts `ev`, a launch of `stage`'s program, where its tiers count it.
  void count_stage_launch(const StageBinding& stage, cl::Event ev);
  const DrawSetup* last_setup_ = nullptr;  // of the last record(): its raster_index is reused
  uint32_t last_raster_ = 0;
  uint64_t scene_serial_ = 0;
  uint64_t scene_positions_ = 0;
  uint64_t scene_vert_regs_ = 0;  // float4 registers of the scene's vertex buffer
  uint64_t record_estimate_ = 0;  // records the scene's draws likely make
  uint64_t scene_scratch_ = 0;    // scratch_bytes of the scene's draws
  uint64_t scratch_budget_;

  // Capacities (entries) kept from scene to scene; grown when a scene needs more.
  uint32_t record_capacity_ = 0, list_capacity_ = 0;
  uint32_t record_cap_limit_ = 0, list_cap_limit_ = 0;
  uint32_t needed_records_ = 0, needed_list_ = 0;  // what the last run of a scene needed
  // Draws whose counts the device reads (device_counts.cpp).
  std::vector<ClpDeviceCount> device_counts_;  // the scene's, in draw order
  std::vector<uint32_t> device_found_;         // per entry: what the last run found
  bool device_overflow_ = false;               // the last run found a count above its plan
  bool device_input_overflow_ = false;         // ... a draw's count, not a GS output's
  uint64_t device_positions_ = kDevicePositions;
  uint32_t gs_found_ = 0;  // positions of the last geometry shader output stream
  uint32_t gs_positions_ = kGsPositions;
  // Positions found per place of indirect arguments (a plan, not a promise: a buffer may
  // be freed and its handle reused). Cleared when it holds kDeviceSeenMax places.
  std::map<std::pair<cl_mem, uint64_t>, uint64_t> device_seen_;
  static constexpr size_t kDeviceSeenMax = 4096;
  const cl::Buffer* last_verts_ = nullptr;  // what read_vertices() reads
  uint32_t last_verts_base_ = 0, last_num_outputs_ = 0, last_positions_ = 0;

  cl::Buffer total_;   // 4 bytes: totals of scans
  cl::Buffer zero_;    // 4 bytes: 0 (the record total of a unit without records)
  cl::Buffer status_;  // CLP_STATUS_WORDS and more: what the scene needs (draw_shared.h)
  size_t status_cap_ = 0;
  cl::Buffer draw_base_;  // first record of each unit, then the scene's end
  size_t draw_base_cap_ = 0;
  cl::Buffer verts_, restart_, seg_index_, seg_first_, counts_, assembled_, tris_, hist_, list_;
  size_t verts_cap_ = 0, restart_cap_ = 0, seg_index_cap_ = 0, seg_first_cap_ = 0, counts_cap_ = 0,
         assembled_cap_ = 0, tris_cap_ = 0, hist_cap_ = 0, list_cap_ = 0;
  cl::Buffer dummy_;  // bound to unused buffer parameters
  // Geometry shader and stream output scratch (geometry_pass.cpp, stream_output_pass.cpp).
  cl::Buffer stream_counts_, gs_prims_, gs_counts_, gs_verts_, gs_restart_, gs_seg_index_,
      gs_seg_first_, gs_prim_id_;
  size_t stream_counts_cap_ = 0, gs_prims_cap_ = 0, gs_counts_cap_ = 0, gs_verts_cap_ = 0,
         gs_restart_cap_ = 0, gs_seg_index_cap_ = 0, gs_seg_first_cap_ = 0, gs_prim_id_cap_ = 0;
  cl::Buffer gs_prim_total_, gs_out_total_, so_total_;  // 4 bytes each: scan totals
};

// Fills the device parameter blocks from a setup (pure functions, unit-tested).
ClpVertexParams make_vertex_params(const DrawSetup& s, const DrawInfo& info,
                                   const DrawStartCountBias& range, uint32_t draw_id,
                                   std::array<int, kMaxVertexBuffers>* kernel_slot_of_buffer);
ClpDrawParams make_draw_params(const DrawSetup& s, const DrawInfo& info, uint32_t count);
ClpRasterParams make_raster_params(const DrawSetup& s);
// Basic primitives (points, lines, triangles, with adjacency) `count` vertices of `mode`
// decompose into, per instance, without primitive restart (quads count two triangles).
uint32_t basic_prim_count(PrimType mode, uint32_t count);

}  // namespace clpipe::frontend::draw
