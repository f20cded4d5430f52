#include "frontend/draw/stage_program.h"

#include "compiler/emit/program_text.h"

namespace clpipe::frontend::draw {

std::string stage_program_source(const GeneratedCode& code, const char* template_name) {
  compiler::ProgramText t;
  t.prelude = code.prelude;
  t.bodies = {code.body};
  t.files = {template_name};
  return compiler::assemble_program(t);
}

}  // namespace clpipe::frontend::draw
