// TGSI text -> IR: the permissive grammar of Mesa 22.3's tgsi_text.c (tgsi.md §2-§8).
//
// Consumers: the frontend's create_*_state (shader text from the API or vtest), tools
// and tests. The result is syntactically complete but not yet checked for meaning: call
// validate() (validate.h) before analysing or translating it.
#pragma once

#include <string_view>

#include "compiler/ir.h"

namespace clpipe::compiler {

// Parses one shader. Throws CompileError (one diagnostic with line:column) at the first
// syntax error or at a value beyond the size limits of ir.h. Never reads past `text`;
// stops at a NUL byte.
Shader parse_tgsi(std::string_view text);

}  // namespace clpipe::compiler
