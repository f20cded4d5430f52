// Counts of draws that live on the device (draw_vbo's indirect draws and draw_auto),
// read when the scene runs instead of on the host when the draw is recorded.
//
// Producer of the input: whatever wrote the argument buffer (the application, a compute
// shader, stream output's filled size). The host planned `planned` positions for the draw
// (DrawPipeline::DeviceCount): its vertex and setup launches cover that many, and the
// passes read the real count and instances from the parameter blocks written here, so
// they skip the rest (vertex.cl, prim.cl, stream.cl). A draw of more positions than
// planned draws nothing now and sets status[2]: the tile pass writes nothing (tile.cl),
// and the host replays the scene with the real counts (count, grow, re-run).
#include "vertex_shared.h"

// ClpVertexParams / ClpDrawParams of a draw from its arguments at src[word...]:
// CLP_COUNT_DIRECT {count, instance_count, start, start_instance}, CLP_COUNT_INDEXED
// {count, instance_count, start, index_bias, start_instance}, CLP_COUNT_AUTO: count =
// src[word] (the filled bytes of a stream output target) / stride, the instances given.
// vp_index == CLP_NO_PARAMS leaves the vertex parameters alone. One work-item.
__kernel void device_counts(global const uint* src, ulong word, uint kind, uint stride,
                            uint auto_instances, uint auto_start_instance, uint planned,
                            uint report, global ClpVertexParams* vps, uint vp_index,
                            global ClpDrawParams* dps, uint first_unit, uint units,
                            global uint* status) {
  uint count, instances, start = 0, start_instance;
  int bias = 0;
  if (kind == CLP_COUNT_AUTO) {
    count = stride ? src[word] / stride : 0u;
    instances = auto_instances;
    start_instance = auto_start_instance;
  } else {
    count = src[word];
    instances = src[word + 1];
    start = src[word + 2];
    if (kind == CLP_COUNT_INDEXED) bias = (int)src[word + 3];
    start_instance = src[word + (kind == CLP_COUNT_INDEXED ? 4 : 3)];
  }
  if ((ulong)count * instances > planned) {
    if (report) status[2] = 1u;
    count = 0;
  }
  if (vp_index != CLP_NO_PARAMS) {
    global ClpVertexParams* vp = vps + vp_index;
    vp->count = count;
    vp->instance_count = instances;
    vp->start = start;
    if (vp->index_size) vp->index_bias = bias;
    vp->start_instance = start_instance;
  }
  for (uint u = 0; u < units; ++u) {
    dps[first_unit + u].count = count;
    dps[first_unit + u].instance_count = instances;
  }
}
