// Semantic checks of a parsed shader: everything the OpenCL C emitter may rely on.
//
// Input: a Shader from parse_tgsi(). validate() throws CompileError listing every
// problem (up to kMaxDiagnostics), each at the line:column of the offending token:
//  * control flow: balanced IF/ELSE/ENDIF, loops, switches, subroutines; BRK/CONT inside
//    a loop (BRK also in a switch); IF/ELSE/CAL labels pointing at the matching
//    instruction; END closing main (control_flow.h);
//  * registers: every operand's register declared (TEMP, IN, OUT, CONST per buffer,
//    SAMP, SVIEW, IMAGE, BUFFER, MEMORY, ADDR, SV, HWATOMIC), IMM within the immediates,
//    indirect addressing through a declared ADDR, ArrayIDs that exist, dimension
//    brackets only on files that have them, GS/TCS/TES vertex indices in range;
//  * operand forms: register files legal for each operand of the opcode (destinations
//    TEMP/OUT, ADDR only for ARL/UARL/ARR, resources where the opcode takes one), source
//    modifiers only on float / integer value operands (never on 64-bit or resource
//    operands; |x| only on float), _SAT only on float results, write masks of 64-bit
//    results on whole channel pairs (.xy, .zw, .xyzw), of 64-bit compares within .xz and
//    of 64->32-bit conversions within .xy;
//  * declarations: files that can be declared, semantics only on IN/OUT/SV (and required
//    there, except VS inputs), FS output semantics, interpolation only on FS inputs,
//    STREAM only on GS outputs, unique ArrayIDs, no register declared twice;
//  * stage rules: KILL/KILL_IF/DEMOTE/derivatives/INTERP_*/FBFETCH/LODQ only in FRAG,
//    EMIT/ENDPRIM only in GEOM, BARRIER only in COMP/TESS_CTRL, shared memory and compute
//    system values only in COMP, properties only in their stage and with legal values.
#pragma once

#include "compiler/ir.h"

namespace clpipe::compiler {

void validate(const Shader& shader);

}  // namespace clpipe::compiler
