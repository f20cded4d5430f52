// draw_vbo as GPGPU passes (design.md): vertex pass, setup passes (count, scan, write),
// binning passes (count, scan, scatter), tile pass.
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
  uint32_t num_clip_dist = 0;  // from NUM_CLIPDIST_ENABLED (or 4 per written CLIPDIST)
  uint32_t num_cull_dist = 0;
  bool window_space_position = false;
};

struct ColorTarget {
  cl::Buffer buffer;
  Format format = Format::NONE;
  uint64_t offset = 0;  // byte offset of pixel (0, 0) of the bound level/layer
  uint32_t pitch = 0;   // bytes per row
};

struct VertexInput {
  cl::Buffer buffer;
  uint64_t offset = 0;  // buffer_offset
  uint64_t size = 0;    // bytes in the buffer
  uint32_t stride = 0;
};

struct DrawSetup {
  StageBinding vs, fs;
  VertexOutputLayout outputs;
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

  // Fragment counters (CLP_COUNTER_*, CLP_NUM_COUNTER_WORDS words) the tile pass adds to,
  // when set: occlusion queries and pipeline statistics.
  cl::Buffer counters;
  // Conditional rendering on the device: when set, the draw is skipped if the 64-bit
  // value at its first 8 bytes is non-zero == skip_when_true.
  cl::Buffer predicate;
  bool skip_when_true = false;
  // Count assembled primitives (DrawStats::assembled) for queries.
  bool count_primitives = false;
};

// Counters of the last draw (for tests and the profile report).
struct DrawStats {
  uint32_t positions = 0;
  uint32_t records = 0;      // rasterizable triangles after setup
  uint32_t bin_entries = 0;  // (tile, record) pairs
  uint32_t assembled = 0;    // primitives assembled (when DrawSetup::count_primitives)
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
  // four 32-bit words (waits for the device; for tests).
  std::vector<std::array<uint32_t, 4>> read_vertices();
  // The program with the fixed passes (setup, binning, scan).
  const runtime::ProgramRef& core_program() const { return core_; }

 private:
  // Grows `buf` (of `*capacity` bytes) to hold at least `bytes`.
  void ensure(cl::Buffer& buf, size_t& capacity, size_t bytes);
  uint32_t read_total();

  runtime::Queue& queue_;
  runtime::ProgramRef core_;
  Scanner scanner_;
  DrawStats stats_;
  uint32_t last_num_outputs_ = 0;

  cl::Buffer total_;        // 4 bytes: totals of scans
  cl::Buffer tile_bounds_;  // 4 ints: bin_count's tile rectangle (see bin.cl)
  cl::Buffer verts_, restart_, seg_index_, seg_first_, counts_, assembled_, tris_, hist_, list_;
  size_t verts_cap_ = 0, restart_cap_ = 0, seg_index_cap_ = 0, seg_first_cap_ = 0, counts_cap_ = 0,
         assembled_cap_ = 0, tris_cap_ = 0, hist_cap_ = 0, list_cap_ = 0;
  cl::Buffer dummy_;  // bound to unused buffer parameters
};

// Fills the device parameter blocks from a setup (pure functions, unit-tested).
ClpVertexParams make_vertex_params(const DrawSetup& s, const DrawInfo& info,
                                   const DrawStartCountBias& range, uint32_t draw_id,
                                   std::array<int, kMaxVertexBuffers>* kernel_slot_of_buffer);
ClpDrawParams make_draw_params(const DrawSetup& s, const DrawInfo& info, uint32_t count);
ClpRasterParams make_raster_params(const DrawSetup& s);

}  // namespace clpipe::frontend::draw
