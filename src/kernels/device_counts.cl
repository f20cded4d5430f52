// Counts of draws that live on the device (draw_vbo's indirect draws and draw_auto, and
// the output stream of a geometry shader), read when the scene runs instead of on the
// host.
//
// Producer of the input: whatever wrote the argument buffer (the application, a compute
// shader, stream output's filled size). The host planned `planned` positions for each
// draw (DrawPipeline::DeviceCount): its vertex and setup launches cover that many, and
// the passes read the real count and instances from the parameter blocks written here,
// so they skip the rest (vertex.cl, prim.cl, stream.cl). A draw of more positions than
// planned draws nothing now and sets status[2]: the tile pass writes nothing (tile.cl),
// and the host replays the scene with the real counts (count, grow, re-run).
#include "vertex_shared.h"

// Work-item i: entries[first + i], whose arguments are in `src`. Writes the counts into
// its ClpVertexParams and ClpDrawParams, or, when alone_unit is not CLP_NO_PARAMS, into
// dps[alone_unit] only (the copy a geometry shader or stream output pass reads); and the
// positions found, in the host's terms (per instance for CLP_COUNT_AUTO, else count x
// instances, saturated), into status[CLP_STATUS_WORDS + first + i], which the host reads
// with the status words: so it plans the next draws from the same arguments exactly.
__kernel void device_counts(global const ClpDeviceCount* entries, uint first, uint n,
                            global const uint* src, global ClpVertexParams* vps,
                            global ClpDrawParams* dps, uint alone_unit, global uint* status) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  global const ClpDeviceCount* e = entries + first + i;
  const ulong w = (ulong)e->word;
  uint count, instances, start = 0, start_instance;
  int bias = 0;
  if (e->kind == CLP_COUNT_AUTO) {
    count = e->stride ? src[w] / e->stride : 0u;
    instances = e->auto_instances;
    start_instance = e->auto_start_instance;
  } else {
    count = src[w];
    instances = src[w + 1];
    start = src[w + 2];
    if (e->kind == CLP_COUNT_INDEXED) bias = (int)src[w + 3];
    start_instance = src[w + (e->kind == CLP_COUNT_INDEXED ? 4 : 3)];
  }
  const ulong found = e->kind == CLP_COUNT_AUTO ? (ulong)count : (ulong)count * instances;
  status[CLP_STATUS_WORDS + first + i] = (uint)min(found, (ulong)0xffffffffu);
  if ((ulong)count * instances > e->planned) {
    if (e->report) status[2] = 1u;
    count = 0;
  }
  if (alone_unit != CLP_NO_PARAMS) {
    dps[alone_unit].count = count;
    dps[alone_unit].instance_count = instances;
    return;
  }
  if (e->vp_index != CLP_NO_PARAMS) {
    global ClpVertexParams* vp = vps + e->vp_index;
    vp->count = count;
    vp->instance_count = instances;
    vp->start = start;
    if (vp->index_size) vp->index_bias = bias;
    vp->start_instance = start_instance;
  }
  for (uint u = 0; u < e->units; ++u) {
    dps[e->first_unit + u].count = count;
    dps[e->first_unit + u].instance_count = instances;
  }
}
