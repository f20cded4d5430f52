// Facts about one shader, computed once from its IR: what the OpenCL C emitter, the
// linkage (linkage.h) and the draw-time front-end need without walking instructions.
//
// Produced by analyze() from a validated Shader (on an unvalidated one it does not fail
// or read out of bounds, but facts about undeclared registers are dropped). Consumed by
// the emitter (register file sizes, arrays, resources and their parameter order, fragment
// output registers for shader_abi.h), by link_fs_inputs() and by the front-end (early
// depth, colour broadcast, GS/TES/CS properties).
//
// Channel masks use bit c for channel c (x = 1 ... w = 8). "Read" masks are a safe
// over-approximation: every channel an instruction may read, through its swizzle.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir.h"

namespace clpipe::compiler {

// One declared IN or OUT register (a range declaration gives one entry per register).
struct IoInfo {
  uint32_t reg = 0;
  bool has_semantic = false;
  Semantic semantic = Semantic::GENERIC;
  uint32_t semantic_index = 0;
  bool has_interp = false;  // FS inputs: an interpolation mode was declared
  InterpMode interp = InterpMode::PERSPECTIVE;
  InterpLoc location = InterpLoc::CENTER;
  uint8_t usage_mask = kMaskXYZW;  // declared
  uint8_t read_mask = 0;           // channels instructions may read
  uint8_t written_mask = 0;        // channels instructions may write (outputs)
  bool per_vertex = false;         // is_per_vertex(): addressed [vertex][reg]
  bool interp_at = false;          // FS input re-interpolated by INTERP_* opcodes
  bool invariant = false;
  std::array<uint8_t, 4> stream = {0, 0, 0, 0};  // GS outputs
  uint32_t array_id = 0;
};

struct SystemValueInfo {
  uint32_t reg = 0;
  Semantic semantic = Semantic::VERTEXID;
  uint32_t semantic_index = 0;
  uint8_t usage_mask = kMaskXYZW;
  uint8_t read_mask = 0;
};

// A TEMP (or IN/OUT) array: ARRAY(id) over registers [first, last].
struct ArrayInfo {
  RegFile file = RegFile::TEMP;
  uint32_t id = 0;
  uint32_t first = 0;
  uint32_t last = 0;
  bool indirect = false;  // addressed indirectly through its ArrayID
};

// SAMP[index]: classic texture opcodes use it as both the sampler state and the view.
struct SamplerInfo {
  uint32_t index = 0;
  bool used = false;         // by an instruction (directly, or indirectly: all of them)
  uint32_t target_mask = 0;  // bit t = TexTarget t named by instructions on this unit
  bool shadow = false;       // a shadow target was used
};

struct SamplerViewInfo {
  uint32_t index = 0;
  TexTarget target = TexTarget::UNKNOWN;
  std::array<ReturnType, 4> return_type = {ReturnType::FLOAT, ReturnType::FLOAT, ReturnType::FLOAT,
                                           ReturnType::FLOAT};
};

// CONST[index][...]: buffer 0 is the default uniform block ("CONST[n]").
struct ConstBufferInfo {
  uint32_t index = 0;
  uint32_t declared_size = 0;  // vec4 slots: highest declared slot + 1
  uint32_t used_size = 0;      // highest directly read slot + 1
  bool indirect = false;       // a slot index (or the buffer index) is indirect
  bool loaded = false;         // read as raw memory with LOAD
};

// Use of a memory resource by instructions.
struct ResourceUse {
  bool read = false;     // LOAD
  bool written = false;  // STORE
  bool atomic = false;   // ATOM*
  bool queried = false;  // RESQ
  bool any() const { return read || written || atomic || queried; }
};

struct ImageInfo {
  uint32_t index = 0;
  TexTarget target = TexTarget::UNKNOWN;
  ImageFormat format;  // declared; Format::NONE = from the bound view (or unknown name)
  bool writable = false;
  bool raw = false;
  ResourceUse use;
};

struct BufferInfo {
  uint32_t index = 0;
  bool atomic = false;  // declared ATOMIC
  ResourceUse use;
};

struct MemoryInfo {
  uint32_t index = 0;
  MemoryType type = MemoryType::GLOBAL;
  ResourceUse use;
};

// HWATOMIC[buffer][first..last]: atomic counters (dword slots) of a counter buffer.
struct HwAtomicInfo {
  uint32_t buffer = 0;
  uint32_t first = 0;
  uint32_t last = 0;
  ResourceUse use;
};

// Where fragment shader results are: OUT register numbers, -1 when not written.
struct FsOutputs {
  std::array<int32_t, kMaxColorBufs> color = {-1, -1, -1, -1, -1, -1, -1, -1};
  int32_t depth = -1;        // POSITION (.z)
  int32_t stencil = -1;      // STENCIL (.y)
  int32_t sample_mask = -1;  // SAMPLEMASK (.x)
};

// Properties with their defaults applied (tables.def).
struct ShaderProperties {
  // FRAG
  bool fs_coord_origin_lower_left = false;  // else upper left
  bool fs_pixel_center_integer = false;     // else half-integer
  bool fs_color0_writes_all_cbufs = false;
  bool fs_early_depth_stencil = false;
  bool fs_post_depth_coverage = false;
  uint32_t fs_depth_layout = 0;
  // GEOM
  PrimType gs_input_prim = PrimType::TRIANGLES;
  PrimType gs_output_prim = PrimType::TRIANGLE_STRIP;
  uint32_t gs_input_vertices = 0;  // vertices per input primitive (0 outside GS)
  uint32_t gs_max_output_vertices = 0;
  uint32_t gs_invocations = 1;
  // TESS
  uint32_t tcs_vertices_out = 0;
  uint32_t tes_prim_mode = 4;  // PrimType value: LINES (isolines), TRIANGLES, QUADS
  uint32_t tes_spacing = 0;    // 0 fractional odd, 1 fractional even, 2 equal
  bool tes_vertex_order_cw = false;
  bool tes_point_mode = false;
  // COMP: 0 = given at launch
  std::array<uint32_t, 3> cs_block = {0, 0, 0};
  // Vertex stages: clip and cull distances in CLIPDIST outputs (the property when given,
  // else the channels the CLIPDIST output declarations cover).
  uint32_t num_clip_distances = 0;
  uint32_t num_cull_distances = 0;
  bool vs_window_space_position = false;
  bool vs_prohibit_ucps = false;
  bool legacy_math_rules = false;
  bool layer_viewport_relative = false;
  bool separable_program = false;
};

struct ShaderInfo {
  ShaderType stage = ShaderType::VERTEX;
  ShaderProperties props;

  std::vector<IoInfo> inputs;                  // sorted by register
  std::vector<IoInfo> outputs;                 // sorted by register
  uint32_t num_inputs = 0;                     // highest IN register + 1 (CLP_NUM_INPUTS)
  uint32_t num_outputs = 0;                    // highest OUT register + 1 (CLP_NUM_OUTPUTS)
  std::vector<SystemValueInfo> system_values;  // sorted by register
  uint64_t system_values_read = 0;             // bit s = Semantic s read through SV

  uint32_t num_temps = 0;  // highest TEMP + 1
  uint32_t num_addrs = 0;  // highest ADDR + 1
  uint32_t num_immediates = 0;
  std::vector<ArrayInfo> arrays;

  std::vector<SamplerInfo> samplers;           // declared SAMP, sorted by index
  std::vector<SamplerViewInfo> sampler_views;  // declared SVIEW
  std::vector<ConstBufferInfo> const_buffers;  // declared or used, sorted by index
  std::vector<ImageInfo> images;
  std::vector<BufferInfo> buffers;
  std::vector<MemoryInfo> memories;
  std::vector<HwAtomicInfo> hw_atomics;

  FsOutputs fs_outputs;

  // Register files addressed indirectly (bit f = RegFile f): by register index, and by
  // dimension (CONST buffer, IN/OUT vertex, HWATOMIC buffer).
  uint32_t indirect_files = 0;
  uint32_t dim_indirect_files = 0;

  uint32_t num_instructions = 0;
  bool uses_derivatives = false;     // DDX/DDY (_FINE) or implicit-LOD texturing in FRAG
  bool uses_implicit_lod = false;    // TEX, TXB, TXP, TEX2, TXB2, LODQ, SAMPLE(_B/_C), LOD
  bool uses_kill = false;            // KILL or KILL_IF
  bool uses_demote = false;          // DEMOTE (or READ_HELPER)
  bool uses_barrier = false;         // BARRIER
  bool uses_memory_barrier = false;  // MEMBAR
  bool writes_memory = false;        // STORE or ATOM* (side effects a killed lane must skip)
  bool uses_fp64 = false;            // double operands or FLT64 immediates
  bool uses_int64 = false;           // 64-bit integer operands or (U)INT64 immediates
  bool uses_interp_at = false;       // INTERP_CENTROID / _SAMPLE / _OFFSET
  bool uses_fbfetch = false;
  bool uses_clock = false;
  bool uses_subgroup_ops = false;  // VOTE_*, BALLOT, READ_INVOC, READ_FIRST
  bool uses_tex_offsets = false;
  bool emits_vertices = false;  // EMIT
  bool has_loops = false;
  bool has_switch = false;
  bool has_subroutines = false;  // BGNSUB / CAL
  // The shader must run once per sample: it reads SAMPLEID or SAMPLEPOS, or has an input
  // interpolated at SAMPLE.
  bool per_sample_shading = false;

  const IoInfo* find_input(Semantic s, uint32_t index) const;
  const IoInfo* find_output(Semantic s, uint32_t index) const;
};

ShaderInfo analyze(const Shader& shader);

// A readable multi-line summary (clpipe-tgsi --info, test failure messages).
std::string describe_shader_info(const ShaderInfo& info);

}  // namespace clpipe::compiler
