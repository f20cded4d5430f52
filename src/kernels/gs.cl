// The geometry shader pass of draw_vbo. One work-item runs four GS invocations (one per
// lane); invocation g runs input primitive g / invocations as gl_InvocationID
// g % invocations. The pass runs twice with the same inputs:
//   write = 0  counts[g] = output positions invocation g needs
//   (host: exclusive scan of counts, total = positions of the output stream)
//   write = 1  invocation g writes its positions at offsets[g] .. offsets[g + 1]
// An output position is an emitted vertex or, after every strip (at ENDPRIM and at the
// end of the invocation), a restart hole, so that the setup passes (prim.cl) read the
// stream as an indexed strip with primitive restart. Points need no holes. EMITs past
// GS_MAX_OUTPUT_VERTICES are dropped, so an invocation's positions are bounded, and the
// write run also checks every position against its range. Both runs execute the same
// kernel with the same inputs, so they make the same decisions (the shader has no side
// effects: draw_vbo refuses a geometry shader that writes memory).
//
// Template: the program is
//   [generated prelude] [shader_abi.h, libraries] [generated body] [this file]
// Producer of the inputs: the vertex pass (VS vertices), stream.cl (the input list).
// Consumers of the outputs: stream.cl (stream output), prim.cl, tile.cl.

#include "draw_shared.h"
#include "shader_lib.h"
#include "stream_shared.h"

// TGSI semantics of geometry shader system values.
#define CLP_GS_SEM_PRIMID 9
#define CLP_GS_SEM_INVOCATIONID 26

struct ClpStageCtx {
  global const ClpGsParams* gp;
  global const uint* prims;  // the input list (CLP_GS_PRIM_WORDS per primitive)
  global const float4* vin;  // VS vertices
  int prim[4];               // input primitive of each lane, -1 = no invocation
  int inv[4];                // gl_InvocationID
  uint prim_id[4];           // gl_PrimitiveIDIn
  uint stored[4];            // vertices kept
  uint pos[4];               // next output position (write: absolute, count: relative)
  uint end[4];               // write: end of the lane's range
  uint strip_len[4];         // vertices of the open strip
  uint strip_start[4];       // position of its first vertex
  uint write;
  global float4* out_verts;
  global uint* out_restart;
  global uint* out_seg_index;
  global uint* out_seg_first;
  global uint* out_prim_id;
};

static float clp_gs_chan(float4 v, int c) {
  return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w;
}

static uint clp_resource_index(ClpStageCtx* s) {
  return s->gp->ri_index;
}

static vf clp_system_value(ClpStageCtx* s, ClpShaderIo* io, int semantic, int chan) {
  int v[4];
  for (int l = 0; l < 4; ++l) {
    v[l] = 0;
    if (chan != 0) continue;
    if (semantic == CLP_GS_SEM_PRIMID) v[l] = (int)s->prim_id[l];
    if (semantic == CLP_GS_SEM_INVOCATIONID) v[l] = s->inv[l] < 0 ? 0 : s->inv[l];
  }
  return CLP_AS_VF((vi)(v[0], v[1], v[2], v[3]));
}

static vf clp_vertex_input(ClpStageCtx* s, vi vertex, int reg, int chan) {
  CLP_UNPACK(int, vertex, vx);
  float r[4];
  const int src = (reg >= 0 && reg < CLP_GS_MAX_INPUTS) ? s->gp->in_map[reg] : CLP_GS_IN_NONE;
  const uint vs_no = s->gp->vs_num_outputs;
  for (int l = 0; l < 4; ++l) {
    r[l] = 0.0f;
    if (s->prim[l] < 0 || src < 0 || (uint)src >= vs_no) continue;
    if (vx[l] < 0 || (uint)vx[l] >= s->gp->verts_per_prim) continue;
    const uint v = s->prims[(size_t)s->prim[l] * CLP_GS_PRIM_WORDS + vx[l]];
    if (v >= s->gp->vs_positions) continue;
    r[l] = clp_gs_chan(s->vin[(size_t)v * vs_no + src], chan & 3);
  }
  return CLP_PACK(r);
}

// Takes output position pos of lane l: in the write run, only inside the lane's range.
static bool clp_gs_take(ClpStageCtx* s, int l, uint* at) {
  *at = s->pos[l]++;
  return s->write && *at < s->end[l];
}

// Whether the shader emits strips (not points), which a cut closes. An interpreted
// shader's program serves shaders of every output primitive: its parameters say.
#ifdef CLP_INTERP_TEMPS
#define CLP_GS_STRIPS(gp) ((gp)->output_prim != 0u)
#else
#define CLP_GS_STRIPS(gp) (CLP_GS_OUTPUT_PRIM != 0)
#endif

// Closes the open strip of lane l with a restart hole.
static void clp_gs_cut(ClpStageCtx* s, int l) {
  if (!CLP_GS_STRIPS(s->gp) || s->strip_len[l] == 0) return;
  s->strip_len[l] = 0;
  uint at;
  if (clp_gs_take(s, l, &at)) {
    s->out_restart[at] = 1u;
    s->out_seg_index[at] = at;
    s->out_seg_first[at] = at;
    s->out_prim_id[at] = s->prim_id[l];
  }
}

static void clp_gs_emit(ClpStageCtx* s, ClpShaderIo* io, vi lanes, vu stream) {
  CLP_UNPACK(int, lanes, mk);
  CLP_UNPACK(uint, stream, st);
  const uint no = s->gp->num_outputs;
  for (int l = 0; l < 4; ++l) {
    // Vertex stream 0 only (MAX_VERTEX_STREAMS = 1).
    if (!mk[l] || s->prim[l] < 0 || st[l] != 0u) continue;
    if (s->stored[l] >= s->gp->max_vertices) continue;
    s->stored[l]++;
    uint at;
    const bool write = clp_gs_take(s, l, &at);
    if (s->strip_len[l]++ == 0) s->strip_start[l] = at;
    if (!write) continue;
    global float4* dst = s->out_verts + (size_t)at * no;
    for (uint r = 0; r < no; ++r) {
      dst[r] = r < CLP_NUM_OUTPUTS
                   ? (float4)(CLP_LANE(io->out[r][0], l), CLP_LANE(io->out[r][1], l),
                              CLP_LANE(io->out[r][2], l), CLP_LANE(io->out[r][3], l))
                   : (float4)(0.0f);
    }
    s->out_restart[at] = 0u;
    s->out_seg_index[at] = at;
    s->out_seg_first[at] = s->strip_start[l];
    s->out_prim_id[at] = s->prim_id[l];
  }
}

static void clp_gs_end_primitive(ClpStageCtx* s, ClpShaderIo* io, vi lanes, vu stream) {
  CLP_UNPACK(int, lanes, mk);
  CLP_UNPACK(uint, stream, st);
  for (int l = 0; l < 4; ++l) {
    if (mk[l] && s->prim[l] >= 0 && st[l] == 0u) clp_gs_cut(s, l);
  }
}

__kernel void gs_pass(global const ClpGsParams* gp, global const uint* prims,
                      global const uint* prim_total, global const float4* vin,
                      global uint* counts, global const uint* offsets, uint capacity,
                      global float4* out_verts, global uint* out_restart,
                      global uint* out_seg_index, global uint* out_seg_first,
                      global uint* out_prim_id CLP_RESOURCE_PARAMS) {
  const uint ninv = max(gp->invocations, 1u);
  const uint total = gp->invocation_count;
  // Input primitives that exist (the list may be shorter than the launch covers).
  const uint live_inv = min(prim_total[0], total / ninv) * ninv;
  const uint first = get_global_id(0) * 4;
  if (first >= total) return;

  ClpStageCtx ctx;
  ctx.gp = gp;
  ctx.prims = prims;
  ctx.vin = vin;
  ctx.write = gp->write;
  ctx.out_verts = out_verts;
  ctx.out_restart = out_restart;
  ctx.out_seg_index = out_seg_index;
  ctx.out_seg_first = out_seg_first;
  ctx.out_prim_id = out_prim_id;
  int live[4];
  for (int l = 0; l < 4; ++l) {
    const uint g = first + l;
    live[l] = g < live_inv ? -1 : 0;
    ctx.prim[l] = live[l] ? (int)(g / ninv) : -1;
    ctx.inv[l] = live[l] ? (int)(g % ninv) : -1;
    ctx.prim_id[l] = live[l] ? prims[(size_t)(g / ninv) * CLP_GS_PRIM_WORDS + 6] : 0u;
    ctx.stored[l] = 0;
    ctx.strip_len[l] = 0;
    ctx.strip_start[l] = 0;
    ctx.pos[l] = 0;
    ctx.end[l] = 0;
    if (ctx.write && g < total) {
      ctx.pos[l] = offsets[g];
      ctx.end[l] = min(g + 1 < total ? offsets[g + 1] : capacity, capacity);
    }
  }

  ClpShaderIo io;
  io.exec_mask = (vi)(live[0], live[1], live[2], live[3]);
  io.helper_mask = (vi)(0);
  // Per-primitive inputs (PRIM_ID); per-vertex inputs come through clp_vertex_input.
  for (int r = 0; r < CLP_NUM_INPUTS; ++r) {
    const bool primid = r < CLP_GS_MAX_INPUTS && gp->in_map[r] == CLP_GS_IN_PRIMID;
    io.in[r][0] = primid ? CLP_AS_VF((vi)((int)ctx.prim_id[0], (int)ctx.prim_id[1],
                                          (int)ctx.prim_id[2], (int)ctx.prim_id[3]))
                         : (vf)(0.0f);
    for (int c = 1; c < 4; ++c) io.in[r][c] = (vf)(0.0f);
  }
  for (int r = 0; r < CLP_NUM_OUTPUTS; ++r) {
    for (int c = 0; c < 4; ++c) io.out[r][c] = (vf)(0.0f);
  }

  clp_shader_main(&io, &ctx CLP_RESOURCE_ARGS);

  for (int l = 0; l < 4; ++l) {
    if (ctx.prim[l] >= 0) clp_gs_cut(&ctx, l);
    const uint g = first + l;
    if (!ctx.write && g < total) counts[g] = ctx.pos[l];
  }
}
