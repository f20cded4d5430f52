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

// Work-items of a tile-pass work-group on this device, as tile.cl's CLP_TILE_ITEMS for the
// code emitted for it: one per tile, or one per block of fragment_lanes pixels.
size_t tile_pass_items(const runtime::DeviceLimits& limits);

// The local sizes with which the passes launch a stage program's kernels once its draws
// are large (ProgramCache::get's launch_sizes, for programs built in the background):
// tile.cl the tile pass's items, the 1-D passes (vertex, geometry) launch_1d's full group.
std::vector<size_t> stage_launch_sizes(const char* template_name,
                                       const runtime::DeviceLimits& limits);

}  // namespace clpipe::frontend::draw
