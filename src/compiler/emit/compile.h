// compile_tgsi(): what the front-end calls when a shader CSO is created — parse,
// validate, analyse and emit OpenCL C in one step (emit.h).
#pragma once

#include <string_view>

#include "compiler/emit/emit.h"

namespace clpipe::compiler {

struct CompiledShader {
  Shader ir;
  ShaderInfo info;
  EmittedShader code;
};

// Throws CompileError (diagnostics with line:column) for text that does not parse,
// validate or translate.
CompiledShader compile_tgsi(std::string_view text, const EmitOptions& options = {});

}  // namespace clpipe::compiler
