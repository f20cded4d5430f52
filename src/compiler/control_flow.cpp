// Control-flow pairing (control_flow.h): one pass with a stack of open constructs.
#include "compiler/control_flow.h"

#include <string>

namespace clpipe::compiler {

namespace {

std::string name_of(const Instruction& inst) {
  const char* n = inst.info().name;
  return n ? n : "?";
}

}  // namespace

ControlFlow check_control_flow(const Shader& shader, std::vector<Diagnostic>* diags) {
  const auto& insts = shader.instructions;
  const size_t n = insts.size();
  ControlFlow cf;
  cf.partner.assign(n, -1);
  cf.depth.assign(n, 0);
  auto error = [&](SourceLoc loc, std::string message) {
    diags->push_back(Diagnostic{loc, std::move(message)});
  };

  struct Open {
    uint32_t index;    // the opening instruction
    CfRole role;       // IF, ELSE (an IF past its ELSE), LOOP, SWITCH, SUB
    bool has_default;  // SWITCH: a DEFAULT was seen
  };
  std::vector<Open> stack;
  bool main_ended = false;
  std::vector<uint32_t> calls;

  for (size_t i = 0; i < n; ++i) {
    const Instruction& inst = insts[i];
    const CfRole role = inst.info().cf;
    const uint32_t here = uint32_t(i);
    cf.depth[i] = uint32_t(stack.size());
    // Outside main and outside subroutines, only BGNSUB may appear.
    if (main_ended && stack.empty() && role != CfRole::SUB) {
      error(inst.loc,
            "only subroutines (BGNSUB ... ENDSUB) may follow the END of the main "
            "program, found " +
                name_of(inst));
      continue;
    }
    switch (role) {
      case CfRole::IF:
      case CfRole::LOOP:
      case CfRole::SWITCH:
        stack.push_back(Open{here, role, false});
        break;
      case CfRole::ELSE:
        if (stack.empty() || stack.back().role != CfRole::IF) {
          error(inst.loc, "ELSE without a matching IF/UIF");
          break;
        }
        cf.depth[i] = uint32_t(stack.size() - 1);
        cf.partner[stack.back().index] = int32_t(here);
        stack.back() = Open{stack.back().index, CfRole::ELSE, false};
        // Remember the IF of this ELSE through the ELSE's own slot until ENDIF.
        cf.partner[i] = int32_t(stack.back().index);
        break;
      case CfRole::ENDIF: {
        if (stack.empty() ||
            (stack.back().role != CfRole::IF && stack.back().role != CfRole::ELSE)) {
          error(inst.loc, "ENDIF without a matching IF/UIF");
          break;
        }
        Open open = stack.back();
        stack.pop_back();
        cf.depth[i] = uint32_t(stack.size());
        if (open.role == CfRole::ELSE) {
          int32_t else_index = cf.partner[open.index];
          cf.partner[size_t(else_index)] = int32_t(here);
        } else {
          cf.partner[open.index] = int32_t(here);
        }
        cf.partner[i] = int32_t(open.index);
        break;
      }
      case CfRole::ENDLOOP:
        if (stack.empty() || stack.back().role != CfRole::LOOP) {
          error(inst.loc, "ENDLOOP without a matching BGNLOOP");
          break;
        }
        cf.partner[stack.back().index] = int32_t(here);
        cf.partner[i] = int32_t(stack.back().index);
        stack.pop_back();
        cf.depth[i] = uint32_t(stack.size());
        break;
      case CfRole::BRK:
      case CfRole::CONT: {
        bool found = false;
        for (size_t k = stack.size(); k-- > 0;) {
          CfRole r = stack[k].role;
          if (r == CfRole::SUB) break;
          if (r == CfRole::LOOP || (r == CfRole::SWITCH && role == CfRole::BRK)) {
            cf.partner[i] = int32_t(stack[k].index);
            found = true;
            break;
          }
        }
        if (!found) {
          error(inst.loc,
                role == CfRole::BRK ? "BRK outside a loop or switch" : "CONT outside a loop");
        }
        break;
      }
      case CfRole::CASE:
      case CfRole::DEFAULT:
        if (stack.empty() || stack.back().role != CfRole::SWITCH) {
          error(inst.loc, name_of(inst) + " outside a SWITCH (or inside a nested block)");
          break;
        }
        if (role == CfRole::DEFAULT) {
          if (stack.back().has_default) error(inst.loc, "second DEFAULT in one SWITCH");
          stack.back().has_default = true;
        }
        cf.depth[i] = uint32_t(stack.size() - 1);
        cf.partner[i] = int32_t(stack.back().index);
        break;
      case CfRole::ENDSWITCH:
        if (stack.empty() || stack.back().role != CfRole::SWITCH) {
          error(inst.loc, "ENDSWITCH without a matching SWITCH");
          break;
        }
        cf.partner[stack.back().index] = int32_t(here);
        cf.partner[i] = int32_t(stack.back().index);
        stack.pop_back();
        cf.depth[i] = uint32_t(stack.size());
        break;
      case CfRole::SUB:
        if (!main_ended || !stack.empty()) {
          error(inst.loc,
                "BGNSUB must come after the END of the main program, outside any "
                "block");
          break;
        }
        stack.push_back(Open{here, role, false});
        break;
      case CfRole::ENDSUB:
        if (stack.empty() || stack.back().role != CfRole::SUB) {
          error(inst.loc, "ENDSUB without a matching BGNSUB");
          break;
        }
        cf.partner[stack.back().index] = int32_t(here);
        cf.partner[i] = int32_t(stack.back().index);
        cf.subroutines.push_back(ControlFlow::Subroutine{stack.back().index, here});
        stack.pop_back();
        cf.depth[i] = uint32_t(stack.size());
        break;
      case CfRole::RET:
        for (size_t k = stack.size(); k-- > 0;) {
          if (stack[k].role == CfRole::SUB) {
            cf.partner[i] = int32_t(stack[k].index);
            break;
          }
        }
        break;
      case CfRole::CAL:
        calls.push_back(here);
        break;
      case CfRole::END:
        if (!main_ended && stack.empty()) {
          main_ended = true;
          cf.main_end = here;
        }
        break;
      case CfRole::NONE:
        break;
    }
  }
  for (const Open& open : stack) {
    const Instruction& inst = insts[open.index];
    const char* closer = open.role == CfRole::LOOP     ? "ENDLOOP"
                         : open.role == CfRole::SWITCH ? "ENDSWITCH"
                         : open.role == CfRole::SUB    ? "ENDSUB"
                                                       : "ENDIF";
    error(inst.loc, name_of(inst) + " is never closed (missing " + closer + ")");
  }
  if (!main_ended) {
    error(n ? insts[n - 1].loc : SourceLoc{1, 1},
          "the main program does not end with END at the top level");
  }
  // Labels. CAL labels decide which subroutine runs: they must point at a BGNSUB.
  // IF/UIF -> ELSE or ENDIF and ELSE -> ENDIF labels only have to exist; a label that
  // disagrees with the nesting is recorded as stale (see ControlFlow). Loop and BGNSUB
  // labels are dummies in Mesa output (":0") and are not checked.
  for (size_t i = 0; i < n; ++i) {
    const Instruction& inst = insts[i];
    const CfRole role = inst.info().cf;
    if (role == CfRole::CAL) {
      if (!inst.has_label) {
        error(inst.loc, "CAL needs a label (the instruction number of its BGNSUB)");
      } else if (inst.label >= n || insts[inst.label].opcode != Opcode::BGNSUB) {
        error(inst.label_loc,
              "CAL label " + std::to_string(inst.label) + " does not point at a BGNSUB");
      } else {
        cf.partner[i] = int32_t(inst.label);
      }
      continue;
    }
    if (!inst.has_label || (role != CfRole::IF && role != CfRole::ELSE)) continue;
    if (inst.label >= n) {
      error(inst.label_loc, name_of(inst) + " label " + std::to_string(inst.label) +
                                " is beyond the last instruction (" + std::to_string(n - 1) + ")");
      continue;
    }
    if (cf.partner[i] >= 0 && inst.label != uint32_t(cf.partner[i])) {
      cf.stale_labels.push_back(uint32_t(i));
    }
  }
  return cf;
}

ControlFlow control_flow(const Shader& shader) {
  std::vector<Diagnostic> diags;
  ControlFlow cf = check_control_flow(shader, &diags);
  if (!diags.empty()) throw CompileError(std::move(diags));
  return cf;
}

}  // namespace clpipe::compiler
