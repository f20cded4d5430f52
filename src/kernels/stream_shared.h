// Structures shared by the host (src/frontend/draw) and the geometry-shader and
// stream-output passes (gs.cl, stream.cl), compiled both as C++ and as OpenCL C, and the
// layout of the device counters that queries read.
//
// Data flow of a draw with a geometry shader and stream output:
//   vertex pass       -> VS vertices (ClpVertexParams.num_outputs float4 each)
//   gs_input_count    -> per draw position, the GS input primitives it completes
//   (scan)            -> their offsets: the input primitives in API order
//   gs_input_write    -> CLP_GS_PRIM_WORDS words per input primitive (vertex indices, id)
//   gs_pass (count)   -> per GS invocation, the output positions it needs
//   (scan)            -> each invocation's range of the output stream
//   gs_pass (write)   -> the output stream: vertices, restart holes after every strip,
//                        strip starts and the input primitive id of every position
//   so_count / (scan) -> per position of the last stage's stream, its basic primitives
//   so_write          -> the captured vertices, in primitive order, into the targets
//   so_finalize       -> the targets' filled sizes and the query counters
#ifndef CLPIPE_STREAM_SHARED_H
#define CLPIPE_STREAM_SHARED_H

#include "draw_shared.h"
#include "raster_shared.h"

// ---------------------------------------------------------------------------------
// Device counters of one draw (and of each query): 64-bit values as (low, high) 32-bit
// words. Words 0..3 are the tile pass's (CLP_COUNTER_* in raster_shared.h).
#define CLP_COUNTER_PRIMS_GENERATED 4  // primitives out of the last vertex stage (stream 0)
#define CLP_COUNTER_SO_WRITTEN 6       // primitives written to the stream-output targets
#define CLP_COUNTER_SO_NEEDED 8        // primitives stream output had to write (room or not)
#define CLP_COUNTER_IA_PRIMITIVES 10   // primitives assembled from the draw's vertices
#define CLP_COUNTER_GS_INVOCATIONS 12
#define CLP_COUNTER_GS_PRIMITIVES 14  // primitives the geometry shader emitted
#define CLP_QUERY_WORDS 16

// ---------------------------------------------------------------------------------
// Geometry shader pass.

// Input registers the GS input map covers (PIPE_MAX_SHADER_INPUTS).
#define CLP_GS_MAX_INPUTS 80
// ClpGsParams.in_map values besides a VS output register.
#define CLP_GS_IN_NONE (-1)    // no VS output matches: reads 0
#define CLP_GS_IN_PRIMID (-2)  // the per-primitive PRIM_ID input
// Words per input primitive of the GS input list: vertex indices [0..6) into the VS
// vertices (unused ones repeat the last), the primitive id, one pad word.
#define CLP_GS_PRIM_WORDS 8

typedef struct {
  CLP_U32 invocations;       // GS_INVOCATIONS, >= 1: invocation g runs primitive g / invocations
  CLP_U32 verts_per_prim;    // vertices of an input primitive: 1, 2, 3, 4 or 6
  CLP_U32 max_vertices;      // GS_MAX_OUTPUT_VERTICES: later EMITs of an invocation are dropped
  CLP_U32 vs_num_outputs;    // float4 registers per VS vertex
  CLP_U32 vs_positions;      // VS vertices (bounds the vertex indices of the input list)
  CLP_U32 num_outputs;       // float4 registers per output vertex
  CLP_U32 invocation_count;  // invocations the launch covers (entries of the count array)
  CLP_U32 write;             // 0: count the positions of each invocation; 1: write them
  CLP_I32 in_map[CLP_GS_MAX_INPUTS];  // GS IN register -> VS OUT register or CLP_GS_IN_*
  CLP_U32 ri_index;                   // the geometry shader's entry in its ClpResourceInfo table
  CLP_U32 output_prim;                // GS_OUTPUT_PRIM (PIPE_PRIM_*: 0 = points)
} ClpGsParams;

// ---------------------------------------------------------------------------------
// Stream output.

#define CLP_SO_BUFFERS 4
#define CLP_SO_MAX_OUTPUTS 64

// One captured register range (pipe_stream_output).
typedef struct {
  CLP_U32 reg;         // OUT register of the last vertex stage
  CLP_U32 start;       // first channel, 0..3
  CLP_U32 count;       // channels, 1..4 (start + count <= 4)
  CLP_U32 buffer;      // target 0..3
  CLP_U32 dst_offset;  // dwords into the vertex record
  CLP_U32 pad;
} ClpSoOutput;

typedef struct {
  CLP_U32 num_outputs;     // entries of out[]
  CLP_U32 num_regs;        // float4 registers per vertex of the captured stream
  CLP_U32 verts_per_prim;  // 1, 2 or 3: the basic primitive type written
  CLP_U32 bound;           // bit b: target b is bound (writes and room checks)
  CLP_U32 count_queries;   // 1: so_finalize adds to the draw's counters
  CLP_U32 pad[3];
  CLP_U32 stride[CLP_SO_BUFFERS];  // bytes per vertex record (0: nothing goes to the buffer)
  CLP_U32 size[CLP_SO_BUFFERS];    // bytes of the target (buffer_size)
  CLP_I64 base[CLP_SO_BUFFERS];    // byte offset of the target in its buffer (buffer_offset)
  ClpSoOutput out[CLP_SO_MAX_OUTPUTS];
} ClpSoParams;

#if !defined(__OPENCL_C_VERSION__) && !defined(__OPENCL_VERSION__)
static_assert(CLP_NUM_COUNTER_WORDS == CLP_COUNTER_PRIMS_GENERATED,
              "the stream counters follow the tile pass's");
static_assert(sizeof(ClpGsParams) == 10 * 4 + CLP_GS_MAX_INPUTS * 4, "ClpGsParams layout");
static_assert(sizeof(ClpSoParams) == 8 * 4 + 8 * 4 + 4 * 8 + CLP_SO_MAX_OUTPUTS * 6 * 4,
              "ClpSoParams layout");
#endif

#endif  // CLPIPE_STREAM_SHARED_H
