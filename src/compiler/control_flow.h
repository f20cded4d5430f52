// Structured control flow of a shader: which instructions pair up.
//
// TGSI keeps control flow as a flat list of structured markers (IF/UIF ... ELSE ...
// ENDIF, BGNLOOP ... ENDLOOP, SWITCH/CASE/DEFAULT/ENDSWITCH, BGNSUB ... ENDSUB after the
// END of main). control_flow() checks the nesting and records, per instruction, its
// partner and nesting depth, so the OpenCL C emitter can walk the list once and open or
// close C blocks (if/else, for(;;), switch, functions) at each marker.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/ir.h"

namespace clpipe::compiler {

struct ControlFlow {
  // partner[i], or -1:
  //   IF/UIF  -> its ELSE if it has one, else its ENDIF     ELSE  -> the ENDIF
  //   ENDIF   -> the IF/UIF
  //   BGNLOOP -> ENDLOOP, ENDLOOP -> BGNLOOP
  //   BRK     -> the innermost enclosing BGNLOOP or SWITCH (C `break` semantics)
  //   CONT    -> the innermost enclosing BGNLOOP
  //   SWITCH  -> ENDSWITCH; ENDSWITCH, CASE, DEFAULT -> the SWITCH
  //   BGNSUB  -> ENDSUB, ENDSUB -> BGNSUB; CAL -> the BGNSUB it calls
  //   RET     -> the enclosing BGNSUB (-1 in main: return from the shader)
  std::vector<int32_t> partner;
  // Number of constructs enclosing instruction i; markers that close or continue a
  // construct (ELSE, ENDIF, ENDLOOP, CASE, DEFAULT, ENDSWITCH, ENDSUB) count at the depth
  // of the instruction that opened it.
  std::vector<uint32_t> depth;
  // The END of the main program: main is instructions [0, main_end].
  uint32_t main_end = 0;
  struct Subroutine {
    uint32_t begin;  // BGNSUB
    uint32_t end;    // ENDSUB
  };
  std::vector<Subroutine> subroutines;  // in text order, all after main_end
  // IF/UIF/ELSE instructions whose label is not the partner above. Mesa + virgl output
  // has such stale labels (virgl inserts instructions after NTT numbered the labels, e.g.
  // corpus 0648.tgsi), so they are not errors: the nesting decides, labels are hints.
  std::vector<uint32_t> stale_labels;
};

// Throws CompileError when the nesting is broken, a branch label is beyond the last
// instruction, a CAL label does not point at a BGNSUB, END is missing, or something other
// than a subroutine follows main's END.
ControlFlow control_flow(const Shader& shader);

// As control_flow(), but appends the problems to `diagnostics` and returns what it could
// pair (partners of broken constructs stay -1). Used by validate().
ControlFlow check_control_flow(const Shader& shader, std::vector<Diagnostic>* diagnostics);

}  // namespace clpipe::compiler
