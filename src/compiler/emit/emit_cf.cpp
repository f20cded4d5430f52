// Structured control flow with per-lane execution masks (design.md "Shaders"; tgsi.md
// §10). The generated code keeps `m`, the lanes executing now, and opens C blocks at
// every marker:
//
//   UIF c        { const vi ms = m; const vi mc = CLP_MASK(c != 0); m &= mc;
//                  if (CLP_ANY(m)) {
//   ELSE         } m = ms & ~mc & <enabled>; if (CLP_ANY(m)) {
//   ENDIF        } m = ms & <enabled>; }
//   BGNLOOP      { const vi ms = m; vi mb = 0; for (;;) { vi mk = 0;
//   BRK / CONT   mb |= m; m = 0;   /   mk |= m; m = 0;
//   ENDLOOP      m = ms & ~mb & <alive, not returned>; if (!CLP_ANY(m)) break; }
//                m = ms & <alive, not returned>; }
//   SWITCH s     { const vi ms = m; per label: const vi mcN = ms & (s == value_N);
//                  default = ms & ~(every case); m = 0; vi mb = 0; if (CLP_ANY(m)) {
//   CASE / DEFAULT  } m = (m | mcN) & <enabled>; if (CLP_ANY(m)) {   (fall-through keeps m)
//   ENDSWITCH    } m = ms & <enabled without the switch's break>; }
//   CAL          { const vi ms = m; vi mr = 0; <subroutine body inlined> m = ms & alive; }
//   RET          in a subroutine: mr |= m; m = 0; in main: mret |= m; m = 0 (or `return`
//                at the top level, where every running lane returns)
//   KILL(_IF)    k = m (& cond); alive &= ~k; io->exec_mask &= ~k; m &= ~k
//
// <enabled> = the lanes a re-enable point may turn back on: not killed (alive), not
// returned from the current function, not gone through BRK of the innermost loop or
// switch nor CONT of the innermost loop. Lanes only ever leave `m` through these masks,
// so `m` at any point is a subset of the mask saved by every enclosing construct.
// Subroutines are inlined at each CAL (all registers are global in TGSI), with a
// recursion check; CASE values are read when the SWITCH starts.
#include "compiler/emit/emitter.h"

namespace clpipe::compiler::emit_detail {

const Construct* Emitter::innermost(CfRole kind, bool loop_or_switch) const {
  for (auto it = constructs_.rbegin(); it != constructs_.rend(); ++it) {
    if (it->kind == CfRole::SUB) return nullptr;  // constructs of the caller do not count
    if (it->kind == kind) return &*it;
    if (loop_or_switch && (it->kind == CfRole::LOOP || it->kind == CfRole::SWITCH)) return &*it;
  }
  return nullptr;
}

const Construct* Emitter::current_sub() const {
  for (auto it = constructs_.rbegin(); it != constructs_.rend(); ++it) {
    if (it->kind == CfRole::SUB) return &*it;
  }
  return nullptr;
}

std::string Emitter::enabled_terms(bool include_break, bool include_cont) const {
  std::string t;
  if (uses_alive_) t += " & alive";
  if (const Construct* sub = current_sub()) {
    t += " & ~" + sub->ret;
  } else if (uses_ret_) {
    t += " & ~mret";
  }
  if (include_break) {
    if (const Construct* k = innermost(CfRole::LOOP, true)) t += " & ~" + k->brk;
  }
  if (include_cont) {
    if (const Construct* k = innermost(CfRole::LOOP, false)) t += " & ~" + k->cont;
  }
  return t;
}

void Emitter::open_any() {
  line("if (CLP_ANY(m)) {");
  ++indent_;
  constructs_.back().open_any = true;
}

void Emitter::close_any() {
  if (!constructs_.back().open_any) return;
  --indent_;
  line("}");
  constructs_.back().open_any = false;
}

void Emitter::cf_if(const Instruction& inst, bool float_test) {
  const std::string cond = float_test ? "CLP_MASK(" + src_f(inst, 0, 0) + " != (vf)(0.0f))"
                                      : "CLP_MASK(" + src_u(inst, 0, 0) + " != (vu)(0u))";
  line("{");
  ++indent_;
  Construct k;
  k.kind = CfRole::IF;
  k.save = fresh("ms");
  k.cond = fresh("mc");
  line("const vi " + k.save + " = m;");
  line("const vi " + k.cond + " = " + cond + ";");
  line("m &= " + k.cond + ";");
  constructs_.push_back(k);
  open_any();
}

void Emitter::cf_else(const Instruction& inst) {
  if (constructs_.empty() || constructs_.back().kind != CfRole::IF) fail(inst, "ELSE without IF");
  close_any();
  const Construct& k = constructs_.back();
  line("m = " + k.save + " & ~" + k.cond + enabled_terms(true, true) + ";");
  open_any();
}

void Emitter::cf_endif(const Instruction& inst) {
  if (constructs_.empty() || constructs_.back().kind != CfRole::IF) fail(inst, "ENDIF without IF");
  close_any();
  const std::string save = constructs_.back().save;
  constructs_.pop_back();
  line("m = " + save + enabled_terms(true, true) + ";");
  --indent_;
  line("}");
}

void Emitter::cf_loop(const Instruction& inst) {
  Construct k;
  k.kind = CfRole::LOOP;
  k.save = fresh("ms");
  k.brk = fresh("mb");
  k.cont = fresh("mk");
  line("{");
  ++indent_;
  line("const vi " + k.save + " = m;");
  line("vi " + k.brk + " = (vi)(0);");
  line("for (;;) {");
  ++indent_;
  line("vi " + k.cont + " = (vi)(0);");
  constructs_.push_back(k);
}

void Emitter::cf_endloop(const Instruction& inst) {
  if (constructs_.empty() || constructs_.back().kind != CfRole::LOOP) {
    fail(inst, "ENDLOOP without BGNLOOP");
  }
  close_any();
  const Construct k = constructs_.back();
  constructs_.pop_back();
  // Lanes go round again unless they left through BRK, were killed or returned; lanes
  // that took CONT come back.
  const std::string outer = enabled_terms(false, false);
  line("m = " + k.save + " & ~" + k.brk + outer + ";");
  line("if (!CLP_ANY(m)) break;");
  --indent_;
  line("}");
  line("m = " + k.save + outer + ";");
  --indent_;
  line("}");
}

void Emitter::cf_brk(const Instruction& inst) {
  const Construct* k = innermost(CfRole::LOOP, true);
  if (!k) fail(inst, "BRK outside a loop or switch");
  line(k->brk + " |= m;");
  line("m = (vi)(0);");
}

void Emitter::cf_cont(const Instruction& inst) {
  const Construct* k = innermost(CfRole::LOOP, false);
  if (!k) fail(inst, "CONT outside a loop");
  line(k->cont + " |= m;");
  line("m = (vi)(0);");
}

void Emitter::cf_switch(uint32_t i) {
  const Instruction& inst = s_.instructions[i];
  Construct k;
  k.kind = CfRole::SWITCH;
  k.save = fresh("ms");
  k.brk = fresh("mb");
  const std::string sel = fresh("sel");
  line("{");
  ++indent_;
  line("const vi " + k.save + " = m;");
  line("const vu " + sel + " = " + src_u(inst, 0, 0) + ";");
  line("vi " + k.brk + " = (vi)(0);");
  // The labels of this switch, in order; CASE values are read now.
  const int32_t end = cf_.partner[i];
  std::string any_case = "(vi)(0)";
  std::vector<std::pair<std::string, bool>> labels;  // (mask name, is default)
  for (int32_t j = int32_t(i) + 1; j < end; ++j) {
    const Instruction& l = s_.instructions[size_t(j)];
    if (cf_.partner[size_t(j)] != int32_t(i)) continue;
    if (l.opcode == Opcode::CASE) {
      const std::string n = fresh("mc");
      line("const vi " + n + " = " + k.save + " & CLP_MASK(" + sel + " == " + src_u(l, 0, 0) +
           ");");
      any_case += " | " + n;
      labels.emplace_back(n, false);
    } else if (l.opcode == Opcode::DEFAULT) {
      labels.emplace_back(fresh("mc"), true);
    }
  }
  for (const auto& lab : labels) {
    if (lab.second) line("const vi " + lab.first + " = " + k.save + " & ~(" + any_case + ");");
    k.case_masks.push_back(lab.first);
  }
  line("m = (vi)(0);");
  constructs_.push_back(k);
  open_any();
}

void Emitter::cf_case(const Instruction& inst) {
  if (constructs_.empty() || constructs_.back().kind != CfRole::SWITCH) {
    fail(inst, "CASE or DEFAULT outside a switch");
  }
  close_any();
  Construct& k = constructs_.back();
  if (k.next_case >= k.case_masks.size()) fail(inst, "unexpected switch label");
  const std::string mask = k.case_masks[k.next_case++];
  line("m = (m | " + mask + ")" + enabled_terms(true, true) + ";");
  open_any();
}

void Emitter::cf_endswitch(const Instruction& inst) {
  if (constructs_.empty() || constructs_.back().kind != CfRole::SWITCH) {
    fail(inst, "ENDSWITCH without SWITCH");
  }
  close_any();
  const std::string save = constructs_.back().save;
  constructs_.pop_back();
  line("m = " + save + enabled_terms(false, true) + ";");
  --indent_;
  line("}");
}

void Emitter::cf_call(uint32_t i) {
  const Instruction& inst = s_.instructions[i];
  const int32_t begin = cf_.partner[i];
  if (begin < 0) fail(inst, "CAL to an unknown subroutine");
  const int32_t end = cf_.partner[size_t(begin)];
  if (end < begin) fail(inst, "subroutine without ENDSUB");
  for (uint32_t open : call_stack_) {
    if (open == uint32_t(begin)) fail(inst, "recursive subroutine calls cannot be translated");
  }
  Construct k;
  k.kind = CfRole::SUB;
  k.save = fresh("ms");
  k.ret = fresh("mr");
  line("{  // subroutine at " + std::to_string(begin));
  ++indent_;
  line("const vi " + k.save + " = m;");
  line("vi " + k.ret + " = (vi)(0);");
  constructs_.push_back(k);
  call_stack_.push_back(uint32_t(begin));
  emit_range(uint32_t(begin) + 1, uint32_t(end));
  call_stack_.pop_back();
  if (constructs_.empty() || constructs_.back().kind != CfRole::SUB) {
    fail(inst, "unbalanced control flow in the subroutine");
  }
  constructs_.pop_back();
  line("m = " + k.save + (uses_alive_ ? " & alive" : "") + ";");
  --indent_;
  line("}");
}

void Emitter::cf_ret(const Instruction& inst) {
  if (const Construct* sub = current_sub()) {
    line(sub->ret + " |= m;");
    line("m = (vi)(0);");
    return;
  }
  if (constructs_.empty()) {
    line("return;");  // top level of main: every running lane returns
    return;
  }
  line("mret |= m;");
  line("m = (vi)(0);");
}

void Emitter::cf_kill(const Instruction& inst) {
  std::string k = "m";
  if (inst.opcode == Opcode::KILL_IF) {
    std::string any;
    for (unsigned c = 0; c < 4; ++c) {
      any += (c ? " | " : "") + std::string("CLP_MASK(") + src_f(inst, 0, c) + " < (vf)(0.0f))";
    }
    k = "m & (" + any + ")";
  }
  line("const vi kill = " + k + ";");
  line("alive &= ~kill;");
  line("io->exec_mask &= ~kill;");
  line("m &= ~kill;");
  // Nothing is left to compute for a quad whose lanes are all gone.
  line("if (!CLP_ANY(alive)) return;");
}

void Emitter::cf_demote(const Instruction& inst) {
  // The lanes keep running as helpers (their values feed derivatives) but write nothing.
  line("io->exec_mask &= ~m;");
}

}  // namespace clpipe::compiler::emit_detail
