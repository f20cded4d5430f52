// The compute pass (launch_grid): a native NDRange dispatch of a generated compute shader,
// one invocation per work-item (CLP_LANES 1, so BARRIER is barrier()), one TGSI block per
// work-group. Also the harness of compute shaders (tests, clpipe-tgsi --build).
//
// Template: the program is
//   [generated prelude] [shader_abi.h, libraries] [generated body] [this file]
// Producer of its arguments: the front-end's launch_grid (or the test runner) from
// pipe_grid_info: the NDRange is grid * block work-items with local size block; the
// kernel adds grid_base to the group id (BLOCK_ID), reports `grid` as GRID_SIZE and
// disables (exec_mask 0) the threads of the last block at or past last_block (0 = no
// partial block). Disabled threads still reach every barrier at the top level of the
// shader; a barrier inside divergent control flow with a partial block is undefined, as
// in GL. System values: THREAD_ID, BLOCK_ID, BLOCK_SIZE, GRID_SIZE, WORK_DIM.

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

vf clp_system_value(ClpStageCtx* s, ClpShaderIo* io, int semantic, int chan) {
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

#if CLP_CS_BLOCK_X > 0 && CLP_CS_BLOCK_Y > 0 && CLP_CS_BLOCK_Z > 0
__attribute__((reqd_work_group_size(CLP_CS_BLOCK_X, CLP_CS_BLOCK_Y, CLP_CS_BLOCK_Z)))
#endif
kernel void compute_main(uint4 grid, uint4 grid_base, uint4 last_block,
                         uint work_dim CLP_RESOURCE_PARAMS) {
  ClpStageCtx ctx;
  int enabled = -1;
  for (uint d = 0; d < 3u; ++d) {
    ctx.thread_id[d] = (uint)get_local_id(d);
    ctx.block_size[d] = (uint)get_local_size(d);
    const uint group = (uint)get_group_id(d);
    const uint g = d == 0u ? grid.x : d == 1u ? grid.y : grid.z;
    const uint base = d == 0u ? grid_base.x : d == 1u ? grid_base.y : grid_base.z;
    const uint last = d == 0u ? last_block.x : d == 1u ? last_block.y : last_block.z;
    ctx.block_id[d] = group + base;
    ctx.grid_size[d] = g;
    if (last != 0u && group + 1u == (uint)get_num_groups(d) && ctx.thread_id[d] >= last) enabled = 0;
  }
  ctx.work_dim = work_dim;
  ClpShaderIo io;
  io.exec_mask = enabled;
  io.helper_mask = 0;
  clp_shader_main(&io, &ctx CLP_RESOURCE_ARGS);
}
