// Build-time syntax check only (cmake/ClpipeKernels.cmake -include's it before
// vertex.cl): stands in for a generated prelude and declares the generated entry point,
// so that the template can be checked on its own. Never embedded or run.
#define CLP_STAGE_VERTEX 1
#define CLP_LANES 4
#define CLP_NUM_INPUTS 4
#define CLP_NUM_OUTPUTS 4
#define CLP_RESOURCE_PARAMS
#define CLP_RESOURCE_ARGS
#include "shader_abi.h"
void clp_shader_main(ClpShaderIo* io, ClpStageCtx* stage);
