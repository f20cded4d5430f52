// The program source of a shader stage: the compiler's generated code wrapped around a
// pass template of src/kernels (vertex.cl, tile.cl, ...), as shader_abi.h describes.
#pragma once

#include <string>
#include <vector>

#include "runtime/device.h"

namespace clpipe::frontend::draw {

// Generated code of one shader, in the two parts shader_abi.h names.
struct GeneratedCode {
  std::string prelude;  // #defines: stage, lanes, register counts, resources, FS outputs
  std::string body;     // functions, ending with clp_shader_main
};

// The full source (compiler::assemble_program): [prelude] [shader_abi.h and libraries]
// [body] [template].
std::string stage_program_source(const GeneratedCode& code, const char* template_name);

// Work-items of a tile-pass work-group on this device, as tile.cl's CLP_TILE_ITEMS for
// code emitted with `lanes` fragment lanes (EmittedShader::lanes): one per tile, or one
// per block of `lanes` pixels.
size_t tile_pass_items(const runtime::DeviceLimits& limits, uint32_t lanes);

}  // namespace clpipe::frontend::draw
