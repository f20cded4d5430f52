// The compute pass (launch_grid): a native NDRange dispatch of a generated compute shader,
// one invocation per work-item (CLP_LANES 1, so BARRIER is barrier()), one TGSI block per
// work-group. Also the harness of compute shaders (tests, clpipe-tgsi --build).
//
// Template: the program is
//   [generated prelude] [shader_abi.h, libraries] [generated body] [this file]
// Producer of its arguments: the front-end's launch_grid (compute_launch.cpp, from the plan
// of frontend/compute_grid.h) or the emitter's test runner:
//   grid        GRID_SIZE: work-groups of the whole dispatch
//   block_base  added to get_group_id() to give BLOCK_ID (grid_base plus the first group
//               of this launch: a dispatch with a partial last block is several launches)
//   block       BLOCK_SIZE: threads per full block; a 0 component means "this launch's
//               local size" (the emitter's runner passes zeros)
//   work_dim    WORK_DIM
// then the shader's resource parameters (CLP_RESOURCE_PARAMS). Every work-item of a launch
// is a live thread: partial blocks are launched with a smaller local size rather than with
// disabled threads, so every thread of a group reaches the same barriers.
//
// CS_FIXED_BLOCK_* is deliberately not turned into reqd_work_group_size: the launch of a
// partial last block runs the same program with a smaller local size. The front-end checks
// that full blocks match the fixed size.

#include "shader_lib.h"

#define CLP_SEM_GRID_SIZE 15
#define CLP_SEM_BLOCK_ID 16
#define CLP_SEM_BLOCK_SIZE 17
#define CLP_SEM_THREAD_ID 18
#define CLP_SEM_WORK_DIM 37

struct ClpStageCtx {
  uint thread_id[3], block_id[3], block_size[3], grid_size[3];
  uint work_dim;
};

// One launch, one table entry.
static uint clp_resource_index(ClpStageCtx* s) {
  return 0u;
}

static vf clp_system_value(ClpStageCtx* s, ClpShaderIo* io, int semantic, int chan) {
  const int c = chan & 3;
  uint v = 0u;
  if (c < 3) {
    switch (semantic) {
      case CLP_SEM_THREAD_ID: v = s->thread_id[c]; break;
      case CLP_SEM_BLOCK_ID: v = s->block_id[c]; break;
      case CLP_SEM_BLOCK_SIZE: v = s->block_size[c]; break;
      case CLP_SEM_GRID_SIZE: v = s->grid_size[c]; break;
      default: break;
    }
  }
  if (semantic == CLP_SEM_WORK_DIM && c == 0) v = s->work_dim;
  return as_float(v);
}

kernel void compute_main(uint4 grid, uint4 block_base, uint4 block,
                         uint work_dim CLP_RESOURCE_PARAMS) {
  ClpStageCtx ctx;
  const uint g[3] = {grid.x, grid.y, grid.z};
  const uint base[3] = {block_base.x, block_base.y, block_base.z};
  const uint bs[3] = {block.x, block.y, block.z};
  for (uint d = 0; d < 3u; ++d) {
    ctx.thread_id[d] = (uint)get_local_id(d);
    ctx.block_size[d] = bs[d] != 0u ? bs[d] : (uint)get_local_size(d);
    ctx.block_id[d] = (uint)get_group_id(d) + base[d];
    ctx.grid_size[d] = g[d];
  }
  ctx.work_dim = work_dim;
  ClpShaderIo io;
  io.exec_mask = -1;
  io.helper_mask = 0;
  clp_shader_main(&io, &ctx CLP_RESOURCE_ARGS);
}
