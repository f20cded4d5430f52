// The OpenCL C emitter's internal class: one Emitter translates one shader. Its methods
// are spread over the emit_*.cpp files by responsibility:
//   emit_main.cpp      planning (registers, parameters), prelude, prologue, the
//                      instruction walk and dispatch
//   emit_operands.cpp  register reads and writes, indirect addressing, typed sources
//   emit_cf.cpp        structured control flow with per-lane masks, subroutines, KILL
//   emit_alu.cpp       32-bit float / integer / bit / packing opcodes, derivatives
//   emit_alu64.cpp     doubles and 64-bit integers (channel pairs)
//   emit_tex.cpp       texture opcodes -> sampling_abi.h calls
//   emit_mem.cpp       LOAD / STORE / RESQ / atomics / barriers on every memory file
//   emit_stage.cpp     stage I/O: fragment inputs and interpolation, system values,
//                      GS emission, subgroup operations, CLOCK
//   emit_interp.cpp    the interpreted form of a shader (emit_interpreted)
//
// Invariants the generated code keeps (see emit_cf.cpp for the mask rules):
//  * `m` (vi) is the set of lanes executing the current instruction; writes inside any
//    control-flow construct or subroutine are merged under it, writes at the top level
//    of main are unmasked unless main returns early (see masked());
//  * memory side effects and GS emission only ever happen for m & io->exec_mask &
//    ~io->helper_mask;
//  * every register variable is initialised (reading an uninitialised one would be
//    undefined in C), every index is bounds-checked.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "compiler/control_flow.h"
#include "compiler/decl_map.h"
#include "compiler/emit/emit.h"

namespace clpipe::compiler::emit_detail {

// One open structured construct of the generated code.
struct Construct {
  CfRole kind = CfRole::IF;             // IF (also after ELSE), LOOP, SWITCH, SUB (an inlined call)
  std::string save;                     // mask variable holding `m` at entry
  std::string cond;                     // IF: the condition mask
  std::string brk;                      // LOOP / SWITCH: lanes that left with BRK
  std::string cont;                     // LOOP: lanes that took CONT in this iteration
  std::string ret;                      // SUB: lanes that returned
  std::vector<std::string> case_masks;  // SWITCH: per CASE / DEFAULT label, in order
  size_t next_case = 0;                 // SWITCH: next label to open
  bool open_any = false;                // an `if (CLP_ANY(m)) {` is open inside
};

// Where a texture instruction's operands go (Emitter::tex_plan): the compiled code
// (tex_emit) and the interpreter's words (interp_encode) both follow it, so the operand
// layout of each opcode and target (tgsi.md §11.2, §11.3) is written once.
struct TexSlot {
  int8_t src = -1;   // source operand; -1: none
  uint8_t chan = 0;  // its channel, before the swizzle
  bool some() const { return src >= 0; }
};

enum class TexCall : uint8_t { kSample, kGather, kQueryLod, kFetch, kSize };

struct TexPlan {
  TexCall call = TexCall::kSample;
  TexTarget target = TexTarget::T2D;
  uint8_t lod_mode = 2;             // CLP_LOD_*: 0 gradients, 1 bias, 2 explicit (lod)
  bool implicit_gradients = false;  // ddx / ddy of the coordinates across the quad
  uint8_t view_src = 1;             // the SAMP or SVIEW operand
  int8_t sampler_src = -1;          // the SAMP operand; -1: none (fetch, size)
  // kSample, kGather, kQueryLod: floats; s, t, r and (divide_ref) ref divided by
  // `divisor` when there is one (TXP). kFetch: x, y, z and `lod` (the level, or the
  // sample index) as integers. kSize: `lod`, the level, an integer.
  TexSlot coord[3], layer, ref, lod, divisor, ddx[3], ddy[3];
  bool divide_ref = false;
  TexSlot comp;  // kGather: the component, an integer; none: comp_const
  uint8_t comp_const = 0;
};

// A typed value expression: `text` has C type vf, vi, vu, vd, vl or vul.
enum class ValType : uint8_t { F, I, U, D, L, UL };

class Emitter {
 public:
  Emitter(const Shader& shader, const ShaderInfo& info, const EmitOptions& options);
  EmittedShader run();

  // --- emit_main.cpp
  // (planning is public for emit_interp.cpp, which emits single instructions)
  void plan();
  void plan_params();

 private:
  void add_param(ParamKind kind, uint32_t index, const std::string& name, const std::string& decl);
  std::string prelude() const;
  uint32_t prelude_inputs() const;   // CLP_NUM_INPUTS
  uint32_t prelude_outputs() const;  // CLP_NUM_OUTPUTS
  void prologue();
  // The prologue's parts: resource parameters (clp_ri entry, buffer offsets and sizes);
  // temporaries, address registers, system values and fragment inputs.
  void param_prologue();
  void temp_prologue();
  void emit_range(uint32_t begin, uint32_t end);
  void emit_instruction(uint32_t i);
  [[noreturn]] void fail(const Instruction& inst, const std::string& message) const;
  void line(const std::string& text);
  std::string fresh(const char* prefix);

 public:
  // Emits `const <type> vN = expr;` and returns vN (sources are bound once, then used).
  std::string let(const char* type, const std::string& expr);
  // A call of `fn` (clp_ddx, ...), which reads other lanes of each quad, on lane vector `v`.
  std::string quad_op(const char* fn, const std::string& v);

 private:
  bool has_param(ParamKind kind, uint32_t index) const;
  std::string param_name(ParamKind kind, uint32_t index) const;

  // --- emit_operands.cpp
 public:
  // Raw value of channel `chan` (0..3, after swizzle) of a register, as a vf expression.
  std::string read_channel(const Instruction& inst, const RegisterRef& reg, unsigned chan);
  // Typed value of source `s`, result channel `c` (swizzle, modifiers per `type`).
  std::string src(const Instruction& inst, unsigned s, unsigned c, OperandType type);
  // Source `s` channel `c` read as type F/I/U with the opcode's modifiers.
  std::string src_f(const Instruction& inst, unsigned s, unsigned c) {
    return src(inst, s, c, OperandType::F32);
  }
  std::string src_i(const Instruction& inst, unsigned s, unsigned c) {
    return src(inst, s, c, OperandType::I32);
  }
  std::string src_u(const Instruction& inst, unsigned s, unsigned c) {
    return src(inst, s, c, OperandType::U32);
  }
  // Writes vf expression `value` to channel `chan` of destination `d` (masking,
  // saturation of float results when `saturate_ok`).
  void write_channel(const Instruction& inst, unsigned d, unsigned chan, const std::string& value);
  // Computes the listed channel values first (into block locals), then writes them: TGSI
  // reads every source before writing. values[c] is ignored for channels outside the
  // destination's write mask.
  void write_results(const Instruction& inst, unsigned d, const std::string values[4]);
  // The vi expression of an indirect bracket: value of its register + offset.
  std::string index_expr(const Instruction& inst, const IndirectRef& ind, int32_t offset);
  std::string imm_bits(uint32_t index, unsigned chan) const;
  std::string temp_name(uint32_t reg, unsigned chan) const;
  std::string write_mask_expr() const;  // the mask under which writes happen now
  // Writes at the top level of main need no mask: lanes outside `m` there have not taken
  // part from the start or were killed, and nobody reads their values. After a divergent
  // RET in main, returned lanes must keep their values: then every write is masked.
  bool masked() const { return !constructs_.empty() || uses_ret_; }

 private:
  std::string vertex_index(const Instruction& inst, const RegisterRef& reg);
  const Declaration* io_decl(RegFile file, uint32_t index) const;
  bool tcs_per_vertex_out(const RegisterRef& reg) const;

  // --- emit_cf.cpp
 public:
  void cf_if(const Instruction& inst, bool float_test);
  void cf_else(const Instruction& inst);
  void cf_endif(const Instruction& inst);
  void cf_loop(const Instruction& inst);
  void cf_endloop(const Instruction& inst);
  void cf_brk(const Instruction& inst);
  void cf_cont(const Instruction& inst);
  void cf_switch(uint32_t i);
  void cf_case(const Instruction& inst);
  void cf_endswitch(const Instruction& inst);
  void cf_call(uint32_t i);
  void cf_ret(const Instruction& inst);
  void cf_kill(const Instruction& inst);
  void cf_demote(const Instruction& inst);

 private:
  // Lanes still allowed to run at a re-enable point (kill, return, the innermost
  // loop's / switch's exits), as " & ..." terms.
  std::string enabled_terms(bool include_break, bool include_cont) const;
  const Construct* innermost(CfRole kind, bool loop_or_switch) const;
  const Construct* current_sub() const;
  void open_any();
  void close_any();

  // --- emit_alu.cpp
 public:
  bool emit_alu(const Instruction& inst);

 private:
  std::string comp_expr(const Instruction& inst, unsigned c);
  std::string legacy_mul(const std::string& a, const std::string& b) const;
  void emit_repl(const Instruction& inst);
  void emit_chan(const Instruction& inst);
  void emit_address(const Instruction& inst);

  // --- emit_alu64.cpp
 public:
  bool emit_alu64(const Instruction& inst);

 private:
  std::string pair64(const Instruction& inst, unsigned s, unsigned pair, ValType type);
  void write_pair(const Instruction& inst, unsigned d, unsigned pair, const std::string& value,
                  ValType type);

  // --- emit_tex.cpp
 public:
  bool emit_tex(const Instruction& inst);

 private:
  // The plan of a texture opcode that samples, gathers, queries the LOD, fetches or
  // queries the size; false for the others (TXQS, SAMPLE_INFO, SAMPLE_POS).
  bool tex_plan(const Instruction& inst, TexPlan* plan) const;
  void tex_emit(const Instruction& inst, const TexPlan& plan);
  // Units a SAMP / SVIEW operand may name: the one unit, or every declared one when
  // indirect. `lane` gets the vi expression of the per-lane unit.
  std::vector<uint32_t> units(const Instruction& inst, unsigned s, RegFile file, std::string* lane);
  void tex_dispatch(const Instruction& inst, unsigned view_src, int sampler_src,
                    const std::string& call_fmt);
  std::string tex_offsets(const Instruction& inst, const std::string& coords);

  // --- emit_mem.cpp
 public:
  bool emit_mem(const Instruction& inst);

 private:
  void mem_load(const Instruction& inst);
  void mem_store(const Instruction& inst);
  void mem_atomic(const Instruction& inst);
  void mem_resq(const Instruction& inst);
  std::string side_effect_mask() const;
  // The per-candidate expansion of a resource operand (indirect BUFFER / IMAGE / CONST).
  std::vector<uint32_t> resource_units(const Instruction& inst, const RegisterRef& reg,
                                       RegFile file, std::string* lane);
  std::string image_call_prefix(uint32_t unit) const;
  std::string image_format_expr(const Instruction& inst, uint32_t unit) const;

  // --- emit_stage.cpp
 public:
  bool emit_stage_op(const Instruction& inst);
  void fs_input_prologue();
  unsigned fs_interp_modes() const;
  void system_value_prologue();

 private:
  void interp_at(const Instruction& inst);

  // --- emit_interp.cpp
 public:
  // emit_interpreted(): the prelude and parameters of run(), the interpreter's body and
  // the shader's code words.
  EmittedShader run_interpreted();

 private:
  std::vector<uint32_t> interp_encode();
  std::string interp_body(uint32_t temps);

  // --- state
 public:
  const Shader& s_;
  const ShaderInfo& info_;
  const EmitOptions& opt_;
  const uint32_t lanes_;
  DeclMap decls_;
  ControlFlow cf_;

  // Registers.
  struct TempArray {
    uint32_t id, first, last;
  };
  std::vector<TempArray> temp_arrays_;  // indirectly addressed TEMP arrays
  bool temp_file_array_ = false;        // all temps in one array (indirect without ARRAY)
  uint32_t num_temps_ = 0;

  // Output.
  std::vector<ResourceParam> params_;
  std::string body_;
  // Words of constant buffers read by direct address: (buffer, word) -> n of the value
  // `cbwN` that the prologue loads once. One guarded load per read instead made LLVM's
  // build time grow with the square of the reads (a 5,500-instruction shader with 38k
  // reads of 8 words built for over 20 CPU-minutes; loaded once, in seconds).
  std::map<std::pair<uint32_t, int64_t>, uint32_t> cb_words_;
  int indent_ = 1;
  uint32_t fresh_ = 0;
  bool interpreting_ = false;  // run_interpreted(): the prelude of the shared program
  bool uses_alive_ = false;    // KILL: the `alive` mask exists
  bool uses_ret_ = false;      // RET / early END in main: `mret` exists
  bool uses_clock_ = false;
  bool uses_quad_ops_ = false;  // the body reads other lanes of its quads (EmittedShader)
  bool uses_fp64_code_ = false;
  bool uses_int64_code_ = false;
  bool uses_sampling_ = false;
  bool uses_images_ = false;
  uint32_t sample_calls_ = 0;  // CLP_TEX_SAMPLE calls emitted

  // How src() applied the modifiers of each source so far (emit_interp.cpp reads them
  // for one instruction): none read yet, as a float, as an integer, or both.
  static constexpr uint8_t kNoModifiers = 0, kFloatModifiers = 1, kIntModifiers = 2,
                           kMixedModifiers = 3;
  std::array<uint8_t, kMaxSrc> src_modifiers_{};

  std::vector<Construct> constructs_;
  std::vector<uint32_t> call_stack_;  // BGNSUB instructions being inlined
  // Instructions emitted so far, subroutine bodies once per call: at most
  // kMaxEmittedInstructions (emit_instruction).
  uint64_t emitted_instructions_ = 0;
};

// Helpers shared by the emit_*.cpp files.
std::string u32_lit(uint32_t v);
std::string i32_lit(int32_t v);
std::string vf_cast(ValType t, const std::string& expr);  // typed expr -> vf expression
const char* lane_vec_type(ValType t);
// The size class of a register count: `least`, or the next power of two.
uint32_t size_class(uint32_t n, uint32_t least);

}  // namespace clpipe::compiler::emit_detail
