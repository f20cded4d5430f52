#include "frontend/draw/stage_program.h"

#include <cstring>

#include "compiler/emit/program_text.h"
#include "kernels/draw_shared.h"
#include "runtime/queue.h"

namespace clpipe::frontend::draw {

std::string stage_program_source(const GeneratedCode& code, const char* template_name) {
  compiler::ProgramText t;
  t.prelude = code.prelude;
  t.bodies = {code.body};
  t.files = {template_name};
  return compiler::assemble_program(t);
}

size_t tile_pass_items(const runtime::DeviceLimits& limits) {
  return limits.whole_tile_items ? 1
                                 : size_t(CLP_TILE_SIZE) * CLP_TILE_SIZE / limits.fragment_lanes;
}

std::vector<size_t> stage_launch_sizes(const char* template_name,
                                       const runtime::DeviceLimits& limits) {
  if (std::strcmp(template_name, "tile.cl") == 0) return {tile_pass_items(limits)};
  return {runtime::Queue::kGroup1d};
}

}  // namespace clpipe::frontend::draw
