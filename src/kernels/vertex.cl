// The vertex pass of draw_vbo: fetches the vertex attributes of four draw positions per
// work-item (one per lane), runs the vertex shader, and writes the post-transform
// vertices (num_outputs float4 registers each, indexed by position) and, for indexed
// draws with primitive restart, the restart flag of each index position.
//
// Template: the program is
//   [generated prelude] [shader_abi.h, libraries] [generated body] [this file]
// Consumers of its output: prim.cl, tile.cl.

#include "draw_shared.h"
#include "format.h"
#include "vertex_shared.h"

// TGSI semantics of vertex shader system values.
#define CLP_SEM_INSTANCEID 10
#define CLP_SEM_VERTEXID 11
#define CLP_SEM_VERTEXID_NOBASE 27
#define CLP_SEM_BASEVERTEX 28
#define CLP_SEM_BASEINSTANCE 35
#define CLP_SEM_DRAWID 36

struct ClpStageCtx {
  vi vertex_id, vertex_id_nobase, instance_id;
  int base_vertex, base_instance, draw_id;
  uint ri_index;
};

static uint clp_resource_index(ClpStageCtx* s) {
  return s->ri_index;
}

static vf clp_system_value(ClpStageCtx* s, ClpShaderIo* io, int semantic, int chan) {
  vi v = (vi)(0);
  if (chan == 0) {
    switch (semantic) {
      case CLP_SEM_VERTEXID: v = s->vertex_id; break;
      case CLP_SEM_VERTEXID_NOBASE: v = s->vertex_id_nobase; break;
      case CLP_SEM_INSTANCEID: v = s->instance_id; break;
      case CLP_SEM_BASEVERTEX: v = (vi)(s->base_vertex); break;
      case CLP_SEM_BASEINSTANCE: v = (vi)(s->base_instance); break;
      case CLP_SEM_DRAWID: v = (vi)(s->draw_id); break;
      default: break;
    }
  }
  return CLP_AS_VF(v);
}

// The raw index at index position k, or 0 when it lies outside the index buffer.
static uint clp_fetch_index(global const ClpVertexParams* vp, global const uchar* ib, uint k) {
  const long at = vp->index_offset + (long)(vp->start + (ulong)k) * vp->index_size;
  if (at < 0 || at + vp->index_size > vp->index_limit) return 0;
  global const uchar* p = ib + at;
  switch (vp->index_size) {
    case 1: return p[0];
    case 2: return p[0] | ((uint)p[1] << 8);
    default: return p[0] | ((uint)p[1] << 8) | ((uint)p[2] << 16) | ((uint)p[3] << 24);
  }
}

// One attribute of one vertex as four 32-bit values; zeros when out of range.
static uint4 clp_fetch_attrib(global const ClpVertexParams* vp, global const ClpVertexElement* e,
                              global const uchar* buf, long index) {
  global const ClpVertexBuffer* b = &vp->vb[e->buffer];
  const long at = b->offset + index * (long)b->stride + e->offset;
  if (index < 0 || at < 0 || at + e->block_bytes > b->size) return (uint4)(0);
  switch (e->kind) {
    case CLP_VE_UINT: return clp_fetch_uint(e->format, buf + at);
    case CLP_VE_SINT: return as_uint4(clp_fetch_sint(e->format, buf + at));
    default: return as_uint4(clp_fetch_float(e->format, buf + at));
  }
}

// A launch covers the scene draws vps[first..first+draws-1], which share the program,
// its resources, the index and the vertex buffers: work-item g belongs to the last draw
// whose item_base <= g (item_base ascends; the host plans launches before the upload).
static global const ClpVertexParams* clp_vertex_draw(global const ClpVertexParams* vps, uint first,
                                                     uint draws, uint g) {
  uint lo = first, hi = first + draws;  // vps[lo].item_base <= g < vps[hi].item_base
  while (hi - lo > 1) {
    const uint mid = lo + (hi - lo) / 2;
    if (vps[mid].item_base <= g)
      lo = mid;
    else
      hi = mid;
  }
  return vps + lo;
}

__kernel void vertex_pass(global const ClpVertexParams* vps, uint first_draw, uint draws,
                          global const uchar* ib, global const uchar* vb0, global const uchar* vb1,
                          global const uchar* vb2, global const uchar* vb3, global const uchar* vb4,
                          global const uchar* vb5, global const uchar* vb6, global const uchar* vb7,
                          global const uchar* vb8, global const uchar* vb9,
                          global const uchar* vb10, global const uchar* vb11,
                          global const uchar* vb12, global const uchar* vb13,
                          global const uchar* vb14, global const uchar* vb15,
                          global float4* out_verts,
                          global uint* restart_flags CLP_RESOURCE_PARAMS) {
  global const uchar* vbs[CLP_MAX_VERTEX_BUFFERS] = {vb0, vb1, vb2,  vb3,  vb4,  vb5,  vb6,  vb7,
                                                     vb8, vb9, vb10, vb11, vb12, vb13, vb14, vb15};
  const uint g = get_global_id(0);
  global const ClpVertexParams* vp = clp_vertex_draw(vps, first_draw, draws, g);
  const uint total = vp->count * vp->instance_count;
  const uint first = (g - vp->item_base) * 4;
  if (first >= total) return;

  ClpStageCtx ctx;
  ctx.base_vertex = vp->index_size ? vp->index_bias : (int)vp->start;
  ctx.base_instance = (int)vp->start_instance;
  ctx.draw_id = (int)vp->draw_id;
  ctx.ri_index = vp->ri_index;
  ClpShaderIo io;
  int vid[4], vid_nobase[4], iid[4], live[4];
  for (int l = 0; l < 4; ++l) {
    const uint p = first + l;
    live[l] = p < total ? -1 : 0;
    const uint pp = p < total ? p : total - 1;
    const uint inst = pp / vp->count, kc = pp % vp->count;
    const bool hub = (vp->hub == 1 && kc == 0) || (vp->hub == 2 && kc + 1 == vp->count);
    const uint k = hub ? 0 : vp->position_base + kc - (vp->hub == 1 ? 1 : 0);
    if (vp->index_size) {
      const uint raw = clp_fetch_index(vp, ib, k);
      if (inst == 0 && live[l] && vp->restart_enabled) {
        restart_flags[kc] = raw == vp->restart_index ? 1u : 0u;
      }
      vid_nobase[l] = (int)raw;
      vid[l] = (int)raw + vp->index_bias;
    } else {
      vid_nobase[l] = (int)(vp->start + k);
      vid[l] = vid_nobase[l];
    }
    iid[l] = (int)(vp->instance_base + inst);
  }
  ctx.vertex_id = (vi)(vid[0], vid[1], vid[2], vid[3]);
  ctx.vertex_id_nobase = (vi)(vid_nobase[0], vid_nobase[1], vid_nobase[2], vid_nobase[3]);
  ctx.instance_id = (vi)(iid[0], iid[1], iid[2], iid[3]);
  io.exec_mask = (vi)(live[0], live[1], live[2], live[3]);
  io.helper_mask = (vi)(0);

  const uint ne = min(vp->num_elements, (uint)CLP_NUM_INPUTS);
  for (uint e = 0; e < ne; ++e) {
    global const ClpVertexElement* el = &vp->elem[e];
    uint4 v[4];
    for (int l = 0; l < 4; ++l) {
      const long index = el->divisor ? (long)vp->start_instance + iid[l] / (long)el->divisor
                                     : (long)vid[l];
      v[l] = clp_fetch_attrib(vp, el, vbs[el->buffer], index);
    }
    io.in[e][0] = as_float4((uint4)(v[0].x, v[1].x, v[2].x, v[3].x));
    io.in[e][1] = as_float4((uint4)(v[0].y, v[1].y, v[2].y, v[3].y));
    io.in[e][2] = as_float4((uint4)(v[0].z, v[1].z, v[2].z, v[3].z));
    io.in[e][3] = as_float4((uint4)(v[0].w, v[1].w, v[2].w, v[3].w));
  }
  // Inputs without a vertex element read (0, 0, 0, 1).
  for (uint e = ne; e < CLP_NUM_INPUTS; ++e) {
    io.in[e][0] = io.in[e][1] = io.in[e][2] = (vf)(0.0f);
    io.in[e][3] = (vf)(1.0f);
  }
  for (uint r = 0; r < CLP_NUM_OUTPUTS; ++r) {
    for (int c = 0; c < 4; ++c) io.out[r][c] = (vf)(0.0f);
  }

  clp_shader_main(&io, &ctx CLP_RESOURCE_ARGS);

  const uint no = vp->num_outputs;
  for (int l = 0; l < 4; ++l) {
    if (!live[l]) continue;
    global float4* dst = out_verts + vp->out_base + (size_t)(first + l) * no;
    for (uint r = 0; r < no && r < CLP_NUM_OUTPUTS; ++r) {
      dst[r] = (float4)(CLP_LANE(io.out[r][0], l), CLP_LANE(io.out[r][1], l),
                        CLP_LANE(io.out[r][2], l), CLP_LANE(io.out[r][3], l));
    }
  }
}
