// draw_vbo as GPGPU passes (design.md): vertex pass, geometry shader pass (when one is
// bound; geometry_pass.cpp), stream output (when targets are bound;
// stream_output_pass.cpp), setup passes (count, scan, write), binning passes (count,
// scan, scatter), tile pass.
//
// Who builds what: the Context resolves its bound state into a DrawSetup (buffers,
// formats, compiled stage programs, linkage); DrawPipeline turns a DrawSetup and one
// draw into OpenCL launches on the context's queue. Scratch buffers grow as needed and
// are reused by later draws (the queue is in order, so a later draw cannot overwrite
// what an earlier one still reads).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "clpipe/state.h"
#include "frontend/draw/scan.h"
#include "kernels/draw_shared.h"
#include "kernels/raster_shared.h"
#include "kernels/stream_shared.h"
#include "kernels/vertex_shared.h"
#include "runtime/program_cache.h"
#include "runtime/queue.h"

namespace clpipe::frontend::draw {

// A compiled shader stage ready to run: its program, kernel argument list beyond the
// template's fixed ones, and the facts the passes need.
struct StageBinding {
  runtime::ProgramRef program;
  std::vector<cl::Buffer> resources;  // CLP_RESOURCE_PARAMS, in order
  uint32_t num_inputs = 0;
  uint32_t num_outputs = 0;
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
  uint32_t nr_cbufs = 0;
  std::array<ColorTarget, kMaxColorBufs> cbufs;  // format NONE = hole
  ColorTarget zsbuf;                             // format NONE = none
  // FS facts.
  std::array<int32_t, kMaxColorBufs> fs_color_reg{};  // -1 = not written
  bool fs_color0_broadcast = false;
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
};

// Counters of the last draw (for tests and the profile report).
struct DrawStats {
  uint32_t positions = 0;
  uint32_t records = 0;       // rasterizable triangles after setup
  uint32_t bin_entries = 0;   // (tile, record) pairs
  uint32_t gs_positions = 0;  // positions of the geometry shader's output stream
};

class DrawPipeline {
 public:
  DrawPipeline(runtime::Queue& queue, runtime::ProgramCache& cache);

  // Runs one draw (one entry of draw_vbo's draws[]). The setup must be validated.
  void draw(const DrawSetup& setup, const DrawInfo& info, const DrawStartCountBias& range,
            uint32_t draw_id);

  const DrawStats& last_stats() const { return stats_; }
  // The setup records of the last draw, in API order (waits for the device; for tests).
  std::vector<ClpTri> read_records();
  // The post-transform vertices of the last draw: positions x num_outputs registers of
  // four 32-bit words; with a geometry shader, its output stream (restart holes hold
  // undefined values). Waits for the device; for tests.
  std::vector<std::array<uint32_t, 4>> read_vertices();
  // The program with the fixed passes (setup, binning, scan).
  const runtime::ProgramRef& core_program() const { return core_; }

 private:
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
  // The program of stream.cl (built at the first draw that needs it).
  const runtime::ProgramRef& stream_program();
  // Geometry shader (geometry_pass.cpp): runs the GS over the input primitives of `in`
  // and returns its output stream; dp becomes the parameters of that stream.
  VertexStream run_geometry(const DrawSetup& s, const VertexStream& in, ClpDrawParams* dp);
  // Stream output (stream_output_pass.cpp) of the primitives of `in` (described by dp).
  void run_stream_output(const DrawSetup& s, const VertexStream& in, const ClpDrawParams& dp);
  // Setup, binning and tile passes of `vs` (described by dp) into the targets of s; with
  // count_primitives, adds the assembled primitives to the query counters. Adds the
  // records it rasterizes to stats_.records.
  void rasterize(const DrawSetup& s, const VertexStream& vs, const ClpDrawParams& dp,
                 bool count_primitives);
  // counters[word] += total[0] * factor on the device.
  void add_counter(const cl::Buffer& counters, uint32_t word, const cl::Buffer& total,
                   uint32_t factor);

  // Grows `buf` (of `*capacity` bytes) to hold at least `bytes`.
  void ensure(cl::Buffer& buf, size_t& capacity, size_t bytes);
  uint32_t read_total();

  runtime::Queue& queue_;
  runtime::ProgramCache& cache_;
  runtime::ProgramRef core_, stream_;
  Scanner scanner_;
  DrawStats stats_;
  uint32_t last_num_outputs_ = 0;

  cl::Buffer total_;        // 4 bytes: totals of scans
  cl::Buffer tile_bounds_;  // 4 ints: bin_count's tile rectangle (see bin.cl)
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
  const cl::Buffer* last_verts_ = nullptr;              // what read_vertices() reads
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
