// The execution harness: a pass template that runs a generated shader of any graphics
// stage (vertex, tessellation control / evaluation, geometry, fragment) over plain
// buffers, for tests and for `clpipe-tgsi --build`. Compute shaders use compute.cl.
//
// Template: the program is
//   [generated prelude] [shader_abi.h, libraries] [generated body] [this file]
// Producer of its inputs and consumer of its outputs: the C++ runner
// (tests/compiler/emit/harness.*). Buffers (32-bit words, invocation i, register r,
// channel c; R_IN = CLP_NUM_INPUTS, R_OUT = CLP_NUM_OUTPUTS):
//   in[(i * R_IN + r) * 4 + c]        io->in before the shader (fragment: what
//                                     clp_fs_input returns)
//   out[(i * R_OUT + r) * 4 + c]      io->out after the shader (every invocation < count)
//   sv[(i * 64 + semantic) * 4 + c]   what clp_system_value returns (semantic < 64)
//   lane_state[2 * i], [2 * i + 1]    initial exec_mask and helper_mask of the lane (~0 / 0)
//   exec_out[i]                       exec_mask after the shader (KILL / DEMOTE report)
//   vin[((p * verts_per_prim + v) * R_IN + r) * 4 + c]
//                                     per-vertex inputs of primitive / patch p (GS, TCS, TES)
//   vout                              TCS: per-vertex outputs, [((p * CLP_TCS_VERTICES_OUT +
//                                     v) * R_OUT + r) * 4 + c]; GS: emitted vertices,
//                                     [((i * max_vertices + k) * R_OUT + r) * 4 + c]
//   gs_meta[i * max_vertices + k]     GS: stream of emitted vertex k | 0x100 if an ENDPRIM
//                                     followed it
//   gs_count[i]                       GS: vertices EMIT asked for (may exceed max_vertices:
//                                     the extra ones are counted, not stored)
// Lanes: the work-item's CLP_LANES (L) lanes are invocations Lg .. Lg + L - 1; fragment
// lanes form 2x2 quads (lane = 4q + x + 2 * y), so derivatives see the inputs of four
// consecutive invocations. TCS: one work-group per patch, invocation k of patch p is
// lane k % L of work-item k / L, so BARRIER synchronises a patch. Invocation i belongs to primitive
// i / inv_per_prim (GS, TES) — for the TCS, to its patch.

#include "shader_lib.h"

#define CLP_HARNESS_SEMANTICS 64

struct ClpStageCtx {
  global const uint* sv;
  global const uint* in;
  global const uint* vin;
  global uint* vout;
  global uint* gs_meta;
  global uint* gs_count;
  int inv[CLP_LANES];   // invocation of each lane
  int prim[CLP_LANES];  // primitive / patch of each lane
  uint verts_per_prim;
  uint max_vertices;
};

// One word per lane from a table, indexed per lane.
static vf clp_harness_gather(global const uint* table, const int* index) {
  uint r[CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l) r[l] = index[l] >= 0 ? table[index[l]] : 0u;
  return CLP_AS_VF(CLP_PACK(r));
}

// The harness binds one table entry.
static uint clp_resource_index(ClpStageCtx* s) {
  return 0u;
}

static vf clp_system_value(ClpStageCtx* s, ClpShaderIo* io, int semantic, int chan) {
  int idx[CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l) {
    idx[l] = (semantic >= 0 && semantic < CLP_HARNESS_SEMANTICS && s->inv[l] >= 0)
                 ? (s->inv[l] * CLP_HARNESS_SEMANTICS + semantic) * 4 + (chan & 3)
                 : -1;
  }
  return clp_harness_gather(s->sv, idx);
}

#ifdef CLP_STAGE_FRAGMENT
static vf clp_fs_input(ClpStageCtx* s, int reg, int chan, int semantic, int semantic_index,
                       int interp, int location) {
  int idx[CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l) {
    idx[l] = (s->inv[l] >= 0 && reg >= 0 && reg < CLP_NUM_INPUTS)
                 ? (s->inv[l] * CLP_NUM_INPUTS + reg) * 4 + (chan & 3)
                 : -1;
  }
  return clp_harness_gather(s->in, idx);
}

// The inputs are treated as linear over the quad: an offset moves the value along the
// quad's fine derivatives; the centroid and every sample are the pixel centre.
static vf clp_fs_interp_at(ClpStageCtx* s, int reg, int chan, int semantic, int semantic_index,
                           int interp, int where, vi sample, vf off_x, vf off_y) {
  const vf v = clp_fs_input(s, reg, chan, semantic, semantic_index, interp, 0);
  if (where != 2) return v;
#if CLP_LANES > 1
  return v + off_x * clp_ddx_fine(v) + off_y * clp_ddy_fine(v);
#else
  return v;  // not reached: a shader that interpolates at an offset gets 4 lanes (emit.h)
#endif
}
#endif

#if defined(CLP_STAGE_GEOMETRY) || defined(CLP_STAGE_TESS_CTRL) || defined(CLP_STAGE_TESS_EVAL)
static vf clp_vertex_input(ClpStageCtx* s, vi vertex, int reg, int chan) {
  CLP_UNPACK(int, vertex, vx);
  int idx[CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l) {
    const bool ok = s->prim[l] >= 0 && vx[l] >= 0 && (uint)vx[l] < s->verts_per_prim && reg >= 0 &&
                    reg < CLP_NUM_INPUTS;
    idx[l] = ok ? ((s->prim[l] * (int)s->verts_per_prim + vx[l]) * CLP_NUM_INPUTS + reg) * 4 +
                      (chan & 3)
                : -1;
  }
  return clp_harness_gather(s->vin, idx);
}
#endif

#ifdef CLP_STAGE_TESS_CTRL
static int clp_harness_vout_index(ClpStageCtx* s, int l, int v, int reg, int chan) {
  if (s->prim[l] < 0 || v < 0 || v >= CLP_TCS_VERTICES_OUT || reg < 0 || reg >= CLP_NUM_OUTPUTS) {
    return -1;
  }
  return ((s->prim[l] * CLP_TCS_VERTICES_OUT + v) * CLP_NUM_OUTPUTS + reg) * 4 + (chan & 3);
}
static vf clp_vertex_output_load(ClpStageCtx* s, vi vertex, int reg, int chan) {
  CLP_UNPACK(int, vertex, vx);
  int idx[CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l) idx[l] = clp_harness_vout_index(s, l, vx[l], reg, chan);
  return clp_harness_gather(s->vout, idx);
}
static void clp_vertex_output_store(ClpStageCtx* s, vi vertex, int reg, int chan, vf value,
                                    vi lanes) {
  CLP_UNPACK(int, vertex, vx);
  CLP_UNPACK(int, lanes, mk);
  CLP_UNPACK(uint, CLP_AS_VU(value), val);
  for (int l = 0; l < CLP_LANES; ++l) {
    const int i = clp_harness_vout_index(s, l, vx[l], reg, chan);
    if (mk[l] && i >= 0) s->vout[i] = val[l];
  }
}
#endif

#ifdef CLP_STAGE_GEOMETRY
static void clp_gs_emit(ClpStageCtx* s, ClpShaderIo* io, vi lanes, vu stream) {
  CLP_UNPACK(int, lanes, mk);
  CLP_UNPACK(uint, stream, st);
  for (int l = 0; l < CLP_LANES; ++l) {
    if (!mk[l] || s->inv[l] < 0) continue;
    const uint k = s->gs_count[s->inv[l]]++;
    if (k >= s->max_vertices) continue;
    const uint base = (uint)s->inv[l] * s->max_vertices + k;
    s->gs_meta[base] = st[l] & 0xffu;
    for (int r = 0; r < CLP_NUM_OUTPUTS; ++r) {
      for (int c = 0; c < 4; ++c) s->vout[(base * CLP_NUM_OUTPUTS + r) * 4 + c] = as_uint(CLP_LANE(io->out[r][c], l));
    }
  }
}
static void clp_gs_end_primitive(ClpStageCtx* s, ClpShaderIo* io, vi lanes, vu stream) {
  CLP_UNPACK(int, lanes, mk);
  for (int l = 0; l < CLP_LANES; ++l) {
    if (!mk[l] || s->inv[l] < 0) continue;
    const uint k = s->gs_count[s->inv[l]];
    if (k == 0u || k > s->max_vertices) continue;
    s->gs_meta[(uint)s->inv[l] * s->max_vertices + k - 1u] |= 0x100u;
  }
}
#endif

kernel void harness_main(uint count, uint inv_per_prim, uint verts_per_prim, uint max_vertices,
                         global const uint* in, global uint* out, global const uint* sv,
                         global const int* lane_state, global int* exec_out,
                         global const uint* vin, global uint* vout, global uint* gs_meta,
                         global uint* gs_count CLP_RESOURCE_PARAMS) {
  ClpStageCtx ctx;
  ctx.sv = sv;
  ctx.in = in;
  ctx.vin = vin;
  ctx.vout = vout;
  ctx.gs_meta = gs_meta;
  ctx.gs_count = gs_count;
  ctx.verts_per_prim = verts_per_prim;
  ctx.max_vertices = max_vertices;
  int exec[CLP_LANES], helper[CLP_LANES];
  for (int l = 0; l < CLP_LANES; ++l) {
#ifdef CLP_STAGE_TESS_CTRL
    const int k = (int)get_local_id(0) * CLP_LANES + l;  // invocation within the patch
    const int p = (int)get_group_id(0);
    const bool live = k < CLP_TCS_VERTICES_OUT && (uint)(p * CLP_TCS_VERTICES_OUT + k) < count;
    ctx.inv[l] = live ? p * CLP_TCS_VERTICES_OUT + k : -1;
    ctx.prim[l] = live ? p : -1;
#else
    const uint i = (uint)get_global_id(0) * CLP_LANES + (uint)l;
    const bool live = i < count;
    ctx.inv[l] = live ? (int)i : -1;
    ctx.prim[l] = live ? (int)(i / max(inv_per_prim, 1u)) : -1;
#endif
    exec[l] = live ? lane_state[2 * ctx.inv[l]] : 0;
    helper[l] = live ? lane_state[2 * ctx.inv[l] + 1] : 0;
  }
  ClpShaderIo io;
  io.exec_mask = CLP_PACK(exec);
  io.helper_mask = CLP_PACK(helper);
  for (int r = 0; r < CLP_NUM_INPUTS; ++r) {
    for (int c = 0; c < 4; ++c) {
      int idx[CLP_LANES];
      for (int l = 0; l < CLP_LANES; ++l)
        idx[l] = ctx.inv[l] >= 0 ? (ctx.inv[l] * CLP_NUM_INPUTS + r) * 4 + c : -1;
      io.in[r][c] = clp_harness_gather(in, idx);
    }
  }
  for (int r = 0; r < CLP_NUM_OUTPUTS; ++r) {
    for (int c = 0; c < 4; ++c) io.out[r][c] = (vf)(0.0f);
  }

  clp_shader_main(&io, &ctx CLP_RESOURCE_ARGS);

  for (int l = 0; l < CLP_LANES; ++l) {
    if (ctx.inv[l] < 0) continue;
    const int i = ctx.inv[l];
    exec_out[i] = CLP_LANE(io.exec_mask, l);
    for (int r = 0; r < CLP_NUM_OUTPUTS; ++r) {
      for (int c = 0; c < 4; ++c) out[(i * CLP_NUM_OUTPUTS + r) * 4 + c] = as_uint(CLP_LANE(io.out[r][c], l));
    }
  }
}
