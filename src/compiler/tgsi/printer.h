// IR -> TGSI text in the layout of Mesa's tgsi_dump (tgsi.md): the header, properties,
// declarations, immediates, then numbered, indented instructions.
//
// Consumers: the clpipe-tgsi tool (--dump), tests (parse(print(x)) == x for every corpus
// shader), and error messages that quote an instruction. Output differs from tgsi_dump
// only where the dump would lose information: FLT32 immediates are printed as 0x bit
// patterns (as virgl's TGSI_DUMP_FLOAT_AS_HEX does) and FLT64 with 17 significant digits
// (exact for every finite double; NaN payloads print as "nan").
#pragma once

#include <string>

#include "compiler/ir.h"

namespace clpipe::compiler {

std::string print_tgsi(const Shader& shader);

// One statement without a trailing newline ("MOV TEMP[0].x, IN[0].yyyy", "DCL IN[0], ...",
// "IMM[2] UINT32 {1, 0, 0, 0}"); instructions without number and indentation.
std::string print_instruction(const Instruction& inst);
std::string print_declaration(ShaderType stage, const Declaration& decl);
std::string print_immediate(uint32_t index, const Immediate& imm);

}  // namespace clpipe::compiler
