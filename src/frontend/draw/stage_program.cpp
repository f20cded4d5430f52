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

runtime::ProgramRef build_stage_program(runtime::ProgramCache& cache, const GeneratedCode& code,
                                        const char* template_name) {
  return cache.get(stage_program_source(code, template_name));
}

}  // namespace clpipe::frontend::draw
