// The one assembler of program text: every OpenCL program clpipe builds is
//   [prelude] [shader_abi.h, format.h] [bodies] [files]
// with the #includes of embedded files expanded (kernels::expand_includes), so the device
// compiler needs no file system. A shader program (a prelude or a body) gets the shader
// ABI and the format library before its bodies, as shader_abi.h describes; the files are
// its pass template (vertex.cl, tile.cl, a test harness), or, for the fixed passes, the
// kernel files themselves (fill.cl; scan.cl + prim.cl + bin.cl).
#pragma once

#include <string>
#include <vector>

namespace clpipe::compiler {

struct ProgramText {
  std::string prelude;              // #defines: the compiler's (and a tile variant's key)
  std::vector<std::string> bodies;  // generated shader code, in this order
  std::vector<std::string> files;   // embedded files included last, in this order
};

std::string assemble_program(const ProgramText& text);

// A program of embedded kernel files alone.
std::string assemble_kernel_files(std::vector<std::string> files);

}  // namespace clpipe::compiler
