// Build-time syntax check only (cmake/ClpipeKernels.cmake -include's it before
// harness.cl): stands in for a generated geometry-shader prelude and declares the
// generated entry point. Never embedded or run; the tests build every stage for real.
#define CLP_STAGE_GEOMETRY 1
#define CLP_LANES 4
#define CLP_NUM_INPUTS 2
#define CLP_NUM_OUTPUTS 2
#define CLP_RESOURCE_PARAMS
#define CLP_RESOURCE_ARGS
#define CLP_GS_INPUT_VERTICES 3
#define CLP_GS_MAX_OUTPUT_VERTICES 4
#include "shader_abi.h"
#include "format.h"
void clp_shader_main(ClpShaderIo* io, ClpStageCtx* stage);
