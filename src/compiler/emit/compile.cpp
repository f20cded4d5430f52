// compile_tgsi() (compile.h).
#include "compiler/emit/compile.h"

#include "compiler/tgsi/parser.h"
#include "compiler/validate.h"

namespace clpipe::compiler {

CompiledShader compile_tgsi(std::string_view text, const EmitOptions& options) {
  CompiledShader out;
  out.ir = parse_tgsi(text);
  validate(out.ir);
  out.info = analyze(out.ir);
  out.code = emit_opencl(out.ir, out.info, options);
  return out;
}

}  // namespace clpipe::compiler
