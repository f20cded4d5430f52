// Build-time syntax check only (cmake/ClpipeKernels.cmake -include's it before tile.cl):
// stands in for a generated prelude and declares the generated entry point, so that the
// template can be checked on its own. Never embedded or run.
#define CLP_STAGE_FRAGMENT 1
#define CLP_LANES 16
#define CLP_NUM_INPUTS 4
#define CLP_NUM_OUTPUTS 4
#define CLP_RESOURCE_PARAMS
#define CLP_RESOURCE_ARGS
#define CLP_FS_COLOR_REG_0 0
#define CLP_FS_COLOR_REG_1 1
#define CLP_FS_COLOR_REG_2 -1
#define CLP_FS_COLOR_REG_3 -1
#define CLP_FS_COLOR_REG_4 -1
#define CLP_FS_COLOR_REG_5 -1
#define CLP_FS_COLOR_REG_6 -1
#define CLP_FS_COLOR_REG_7 -1
#define CLP_FS_DEPTH_REG 2
#define CLP_FS_STENCIL_REG 3
#define CLP_FS_SAMPLEMASK_REG -1
#define CLP_FS_EARLY_DEPTH 0
#define CLP_FS_USES_KILL 1
#include "format.h"
#include "shader_abi.h"
#include "shader_lib.h"
void clp_shader_main(ClpShaderIo* io, ClpStageCtx* stage);
