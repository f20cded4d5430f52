// Build checks of many shaders at once. PoCL spends about a second on every program
// whatever its size, so the corpus tests and `clpipe-tgsi --build --batch N` build
// several emitted shaders of one stage in one program: every body under its own name
// (clp_shader_main_<k>), a dispatcher clp_shader_main over the union of their resource
// parameters (parameter names are fixed per kind and unit, so equal names are equal
// declarations) that picks a body from a run-time value (nothing is dead code), register
// files sized for the largest shader, and the stage's harness template
// (harness_template_name). Programs that run shaders are built one shader each.
#pragma once

#include <string>
#include <vector>

#include "compiler/emit/emit.h"

namespace clpipe::compiler {

// The expanded program text. Throws clpipe::Error(kInvalidArgument) for an empty list or
// shaders of different stages or lane counts (EmittedShader::lanes).
std::string batch_program_source(const std::vector<const EmittedShader*>& shaders);

}  // namespace clpipe::compiler
