// assemble_program() (program_text.h).
#include "compiler/emit/program_text.h"

#include <utility>

#include "base/embedded_sources.h"

namespace clpipe::compiler {

std::string assemble_program(const ProgramText& t) {
  std::string text = t.prelude;
  if (!t.prelude.empty() || !t.bodies.empty())
    text += "\n#include \"shader_abi.h\"\n#include \"format.h\"\n";
  for (const std::string& body : t.bodies)
    text += body;
  for (const std::string& file : t.files)
    text += "\n#include \"" + file + "\"\n";
  return kernels::expand_includes(text);
}

std::string assemble_kernel_files(std::vector<std::string> files) {
  ProgramText t;
  t.files = std::move(files);
  return assemble_program(t);
}

}  // namespace clpipe::compiler
