// Build-time syntax check only (cmake/ClpipeKernels.cmake -include's it before
// compute.cl): stands in for a generated compute-shader prelude and declares the
// generated entry point. Never embedded or run.
#define CLP_STAGE_COMPUTE 1
#define CLP_LANES 1
#define CLP_NUM_INPUTS 0
#define CLP_NUM_OUTPUTS 0
#define CLP_RESOURCE_PARAMS
#define CLP_RESOURCE_ARGS
#define CLP_CS_BLOCK_X 8
#define CLP_CS_BLOCK_Y 1
#define CLP_CS_BLOCK_Z 1
#include "shader_abi.h"
#include "format.h"
void clp_shader_main(ClpShaderIo* io, ClpStageCtx* stage);
