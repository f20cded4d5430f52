#include "frontend/draw/stage_program.h"

#include "compiler/emit/program_text.h"
#include "kernels/draw_shared.h"

namespace clpipe::frontend::draw {

std::string stage_program_source(const GeneratedCode& code, const char* template_name) {
  compiler::ProgramText t;
  t.prelude = code.prelude;
  t.bodies = {code.body};
  t.files = {template_name};
  return compiler::assemble_program(t);
}

size_t tile_pass_items(const runtime::DeviceLimits& limits, uint32_t lanes) {
  return limits.whole_tile_items ? 1 : size_t(CLP_TILE_SIZE) * CLP_TILE_SIZE / lanes;
}

}  // namespace clpipe::frontend::draw
