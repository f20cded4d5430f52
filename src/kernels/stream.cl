// Fixed-function kernels around the geometry shader and stream output (the "stream"
// program, built once, the first time a draw needs it): decomposition of a draw into
// basic primitives, the GS input list, stream-output writes with their room checks, and
// the query counters these stages feed. See stream_shared.h for the data flow.
//
// Producers of the inputs: the vertex pass (vertices), gs.cl (the GS output stream),
// prim.cl's restart_segments (restart segments), scan.cl (offsets). Consumers of the
// outputs: gs.cl (input list), the targets' buffers (vertex data, later vertex input of
// draw_auto), query.cl (counters).
#include "draw_shared.h"
#include "prim_decompose.h"
#include "stream_shared.h"

static void clp_counter_add(global uint* counters, uint word, ulong v) {
  const ulong x = ((ulong)counters[word] | ((ulong)counters[word + 1] << 32)) + v;
  counters[word] = (uint)x;
  counters[word + 1] = (uint)(x >> 32);
}

// counts[p] = basic primitives position p completes (GS input primitives, or primitives
// stream output writes); 0 past the draw's positions, up to the `positions` the host
// planned (a device count may be smaller: device_counts.cl).
__kernel void stream_count(global const ClpDrawParams* dp, global const uint* restart,
                           global const uint* seg_index, global const uint* seg_first,
                           uint positions, global uint* counts) {
  const uint p = get_global_id(0);
  if (p >= positions) return;
  if (p >= dp->count * dp->instance_count) {
    counts[p] = 0;
    return;
  }
  ClpFullPrim prims[2];
  uint vbase;
  counts[p] = clp_stream_prims(dp, restart, seg_index, seg_first, p, prims, &vbase);
}

// The GS input list: primitive offsets[p] + i is the i-th primitive of position p.
// Vertex indices are absolute (into the VS vertices); the id counts the instance's
// primitives (gl_PrimitiveIDIn restarts with every instance, not at restart indices)
// from prim_id_base (a chunk of a larger draw: the primitives of the chunks before).
__kernel void gs_input_write(global const ClpDrawParams* dp, global const uint* restart,
                             global const uint* seg_index, global const uint* seg_first,
                             global const uint* offsets, global uint* list, uint capacity) {
  const uint p = get_global_id(0);
  if (p >= dp->count * dp->instance_count) return;
  ClpFullPrim prims[2];
  uint vbase;
  const uint n = clp_stream_prims(dp, restart, seg_index, seg_first, p, prims, &vbase);
  for (uint i = 0; i < n; ++i) {
    const uint at = offsets[p] + i;
    if (at >= capacity) return;
    global uint* w = list + (size_t)at * CLP_GS_PRIM_WORDS;
    for (int v = 0; v < 6; ++v) w[v] = vbase + prims[i].v[v];
    w[6] = at - offsets[vbase] + dp->prim_id_base;
    w[7] = 0;
  }
}

// Whole primitives that still fit in every bound target with a non-zero stride.
static uint clp_so_room(global const ClpSoParams* sp, const uint* filled) {
  uint room = 0xffffffffu;
  for (uint b = 0; b < CLP_SO_BUFFERS; ++b) {
    if (!((sp->bound >> b) & 1u) || sp->stride[b] == 0) continue;
    const uint avail = filled[b] <= sp->size[b] ? sp->size[b] - filled[b] : 0u;
    room = min(room, avail / (sp->verts_per_prim * sp->stride[b]));
  }
  return room;
}

static float clp_chan(float4 v, uint c) {
  return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w;
}

// Writes the primitives of position p that fit (offsets: exclusive scan of stream_count).
// Primitive i of the draw goes to vertex records i * verts_per_prim ... of every target,
// after the target's filled bytes; primitives from the first one that does not fit on
// are dropped (all later ones would not fit either: every primitive has the same size).
__kernel void so_write(global const ClpDrawParams* dp, global const float4* verts,
                       global const uint* restart, global const uint* seg_index,
                       global const uint* seg_first, global const uint* offsets,
                       global const ClpSoParams* sp, global const uint* filled0,
                       global const uint* filled1, global const uint* filled2,
                       global const uint* filled3, global uint* buf0, global uint* buf1,
                       global uint* buf2, global uint* buf3) {
  const uint positions = dp->count * dp->instance_count;
  const uint p = get_global_id(0);
  if (p >= positions) return;
  ClpFullPrim prims[2];
  uint vbase;
  const uint n = clp_stream_prims(dp, restart, seg_index, seg_first, p, prims, &vbase);
  if (n == 0) return;
  const uint filled[CLP_SO_BUFFERS] = {filled0[0], filled1[0], filled2[0], filled3[0]};
  global uint* bufs[CLP_SO_BUFFERS] = {buf0, buf1, buf2, buf3};
  const uint room = clp_so_room(sp, filled);
  const uint vpp = sp->verts_per_prim, nregs = sp->num_regs;
  const uint nout = min(sp->num_outputs, (uint)CLP_SO_MAX_OUTPUTS);
  for (uint i = 0; i < n; ++i) {
    const uint prim = offsets[p] + i;
    if (prim >= room) return;
    for (uint v = 0; v < vpp; ++v) {
      const uint vtx = vbase + clp_basic_vertex(&prims[i], v);
      if (vtx >= positions) continue;
      const ulong record = (ulong)prim * vpp + v;
      for (uint o = 0; o < nout; ++o) {
        global const ClpSoOutput* out = &sp->out[o];
        const uint b = out->buffer;
        if (b >= CLP_SO_BUFFERS || !((sp->bound >> b) & 1u)) continue;
        const float4 value = out->reg < nregs ? verts[(size_t)vtx * nregs + out->reg] : (float4)(0.0f);
        // Byte offset within the target; the room check keeps the record inside it, and
        // the test per word keeps every write inside even for inconsistent parameters.
        const ulong at = (ulong)filled[b] + record * sp->stride[b] + (ulong)out->dst_offset * 4;
        for (uint c = 0; c < out->count && out->start + c < 4; ++c) {
          const ulong byte = at + (ulong)c * 4;
          if (byte + 4 > sp->size[b]) break;
          bufs[b][(sp->base[b] + byte) / 4] = as_uint(clp_chan(value, out->start + c));
        }
      }
    }
  }
}

// After so_write: total[0] primitives were to be written; the targets' filled sizes grow
// by those that fit, and the counters of the draw record both numbers. One work-item.
__kernel void so_finalize(global const ClpSoParams* sp, global const uint* total,
                          global uint* filled0, global uint* filled1, global uint* filled2,
                          global uint* filled3, global uint* counters) {
  if (get_global_id(0) != 0) return;
  global uint* fb[CLP_SO_BUFFERS] = {filled0, filled1, filled2, filled3};
  const uint filled[CLP_SO_BUFFERS] = {filled0[0], filled1[0], filled2[0], filled3[0]};
  const uint needed = total[0];
  const uint written = min(needed, clp_so_room(sp, filled));
  for (uint b = 0; b < CLP_SO_BUFFERS; ++b) {
    if (!((sp->bound >> b) & 1u) || sp->stride[b] == 0) continue;
    fb[b][0] = filled[b] + written * sp->verts_per_prim * sp->stride[b];
  }
  if (sp->count_queries) {
    clp_counter_add(counters, CLP_COUNTER_SO_WRITTEN, written);
    clp_counter_add(counters, CLP_COUNTER_SO_NEEDED, needed);
  }
}

// counters[word..word+1] += total[0] * factor. One work-item.
__kernel void counter_add(global uint* counters, uint word, global const uint* total,
                          uint factor) {
  if (get_global_id(0) != 0) return;
  clp_counter_add(counters, word, (ulong)total[0] * factor);
}
