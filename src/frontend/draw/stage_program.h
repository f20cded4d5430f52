// The program source of a shader stage: the compiler's generated code wrapped around a
// pass template of src/kernels (vertex.cl, tile.cl, ...), as shader_abi.h describes.
#pragma once

#include <string>

namespace clpipe::frontend::draw {

// Generated code of one shader, in the two parts shader_abi.h names.
struct GeneratedCode {
  std::string prelude;  // #defines: stage, lanes, register counts, resources, FS outputs
  std::string body;     // functions, ending with clp_shader_main
};

// The full source (compiler::assemble_program): [prelude] [shader_abi.h and libraries]
// [body] [template].
std::string stage_program_source(const GeneratedCode& code, const char* template_name);

}  // namespace clpipe::frontend::draw
