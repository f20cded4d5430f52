// Build-time syntax check only (cmake/ClpipeKernels.cmake -include's it before gs.cl):
// stands in for a generated geometry shader prelude and declares the generated entry
// point, so that the template can be checked on its own. Never embedded or run.
#define CLP_STAGE_GEOMETRY 1
#define CLP_LANES 4
#define CLP_NUM_INPUTS 4
#define CLP_NUM_OUTPUTS 4
#define CLP_GS_INPUT_VERTICES 3
#define CLP_GS_MAX_OUTPUT_VERTICES 4
#define CLP_GS_INVOCATIONS 1
#define CLP_GS_OUTPUT_PRIM 5
#define CLP_RESOURCE_PARAMS
#define CLP_RESOURCE_ARGS
#include "format.h"
#include "shader_abi.h"
void clp_shader_main(ClpShaderIo* io, ClpStageCtx* stage);
