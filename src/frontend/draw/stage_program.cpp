#include "frontend/draw/stage_program.h"

#include "base/embedded_sources.h"

namespace clpipe::frontend::draw {

std::string stage_program_source(const GeneratedCode& code, const char* template_name) {
  std::string text;
  text += code.prelude;
  text += "\n#include \"shader_abi.h\"\n#include \"format.h\"\n";
  text += code.body;
  text += "\n#include \"";
  text += template_name;
  text += "\"\n";
  return kernels::expand_includes(text);
}

runtime::ProgramRef build_stage_program(runtime::ProgramCache& cache, const GeneratedCode& code,
                                        const char* template_name) {
  return cache.get(stage_program_source(code, template_name));
}

}  // namespace clpipe::frontend::draw
