// The interpreted form of a shader (emit_interpreted, emit.h): its instructions as the
// words of kernels/shader_interp_abi.h, and a body that runs them with
// kernels/shader_interp.h. The body is the same text for every shader with the same
// prelude and temporary class: the program cache builds it once for all of them.
//
// The arithmetic is not written twice: each opcode's case of the body is what emit_alu()
// emits for that opcode in a one-instruction shader reading TEMP[0..3] and writing
// TEMP[4] (alu_cases below). The interpreter loads the sources into those names with the
// modifiers Emitter::src() applies, and stores TEMP[4] the way write_channel() does.
// Nor is the texture operands' layout: a texture instruction's words are its TexPlan
// (tex_plan, emit_tex.cpp), which the compiled code is emitted from too, and the
// interpreter makes the compiled code's sampling calls with the descriptors' state.
#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

#include "base/error.h"
#include "compiler/emit/emitter.h"
#include "kernels/shader_interp_abi.h"

namespace clpipe::compiler::emit_detail {

static_assert(unsigned(TexCall::kSample) == CLP_ITC_SAMPLE &&
                  unsigned(TexCall::kGather) == CLP_ITC_GATHER &&
                  unsigned(TexCall::kQueryLod) == CLP_ITC_QUERY_LOD &&
                  unsigned(TexCall::kFetch) == CLP_ITC_FETCH &&
                  unsigned(TexCall::kSize) == CLP_ITC_SIZE,
              "the interpreter's texture calls");
static_assert(kOpcodeCount <= 256, "an ALU word holds the opcode in 8 bits");

namespace {

// Opcodes emit_alu() may translate one channel-wise 32-bit result of: what the
// interpreter can take from it.
bool alu_candidate(Opcode op) {
  if (!opcode_is_valid(op)) return false;
  const OpcodeInfo& info = opcode_info(op);
  if (info.cf != CfRole::NONE || info.is_tex || opcode_is_memory(op)) return false;
  if (info.num_dst != 1 || info.num_src > 4) return false;
  if (info.mode != ChannelMode::COMP && info.mode != ChannelMode::REPL &&
      info.mode != ChannelMode::CHAN) {
    return false;
  }
  if (op == Opcode::NOP) return false;
  auto plain = [](OperandType t) {
    return t == OperandType::F32 || t == OperandType::I32 || t == OperandType::U32 ||
           t == OperandType::B32 || t == OperandType::ANY;
  };
  // ARL / UARL / ARR write an address register: their case computes its bits.
  const bool address = op == Opcode::ARL || op == Opcode::UARL || op == Opcode::ARR;
  if (!plain(info.dst[0]) && !address) return false;
  for (unsigned s = 0; s < info.num_src; ++s) {
    if (!plain(info.src[s])) return false;
  }
  return true;
}

struct AluCase {
  Opcode op;
  std::string text;  // statements assigning t4_0..t4_3 from t0_0..t3_3
  bool reads_quads;  // derivatives: reads the other lanes of the quad
  // Whether the text multiplies: only then can it contract (OpenCL C's FP_CONTRACT is on
  // by default), since contraction fuses a multiply and an add of one expression, and a
  // library function the text calls contracts as its own definition says, in either
  // form of the shader (shader_lib*.h define no macro that multiplies).
  bool contracts;
  // How the compiled code applies each source's modifiers (Emitter::src_modifiers_): the
  // interpreter applies them the same way when it loads the source.
  std::array<uint8_t, 4> modifiers;
};

struct AluCaseKey {
  ShaderType stage;
  bool legacy_math;
  uint32_t lanes;
  bool operator<(const AluCaseKey& o) const {
    return std::tie(stage, legacy_math, lanes) < std::tie(o.stage, o.legacy_math, o.lanes);
  }
};

}  // namespace

// The cases of one stage and math rule, computed once per process (~150 small emits).
static const std::vector<AluCase>& alu_cases(ShaderType stage, bool legacy_math,
                                             const EmitOptions& options) {
  static std::mutex mutex;
  static std::map<AluCaseKey, std::vector<AluCase>> cache;
  const AluCaseKey key{stage, legacy_math, options.fragment_lanes};
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  std::vector<AluCase> cases;
  for (unsigned o = 0; o < kOpcodeCount; ++o) {
    const Opcode op = Opcode(o);
    if (!alu_candidate(op)) continue;
    const OpcodeInfo& info = opcode_info(op);
    Shader s;
    s.stage = stage;
    if (legacy_math) s.properties.push_back(PropertyDecl{Property::LEGACY_MATH_RULES, 1, {}});
    Declaration temps;
    temps.file = RegFile::TEMP;
    temps.first = 0;
    temps.last = 4;
    s.declarations.push_back(temps);
    Instruction inst;
    inst.opcode = op;
    inst.num_dst = 1;
    inst.num_src = info.num_src;
    inst.dst[0].reg.file = RegFile::TEMP;
    inst.dst[0].reg.index = 4;
    for (unsigned k = 0; k < info.num_src; ++k) {
      inst.src[k].reg.file = RegFile::TEMP;
      inst.src[k].reg.index = int32_t(k);
    }
    s.instructions.push_back(inst);
    Instruction end;
    end.opcode = Opcode::END;
    s.instructions.push_back(end);
    const ShaderInfo si = analyze(s);
    Emitter e(s, si, options);
    e.plan();
    e.plan_params();
    e.indent_ = 3;
    bool ok = false;
    try {
      ok = e.emit_alu(s.instructions[0]);
    } catch (const CompileError&) {
      ok = false;
    }
    // The case must need nothing but its sources: no constant words, no 64-bit code, and
    // derivatives only where lanes form quads.
    if (!ok || !e.cb_words_.empty() || e.uses_fp64_code_ || e.uses_int64_code_ ||
        e.uses_sampling_ || e.uses_images_ || e.uses_clock_) {
      continue;
    }
    if (e.uses_quad_ops_ && (stage != ShaderType::FRAGMENT || e.lanes_ < 4)) continue;
    cases.push_back(AluCase{
        op,
        e.body_,
        e.uses_quad_ops_,
        e.body_.find('*') != std::string::npos,
        {e.src_modifiers_[0], e.src_modifiers_[1], e.src_modifiers_[2], e.src_modifiers_[3]}});
  }
  return cache.emplace(key, std::move(cases)).first->second;
}

std::vector<uint32_t> Emitter::interp_encode() {
  auto refuse = [](const SourceLoc& loc, const std::string& what) {
    throw CompileError(loc, "the interpreter does not run " + what);
  };
  const bool gs = s_.stage == ShaderType::GEOMETRY;
  if (s_.stage != ShaderType::VERTEX && s_.stage != ShaderType::FRAGMENT && !gs) {
    refuse({}, std::string(stage_name(s_.stage)) + " shaders");
  }
  if (!cf_.subroutines.empty()) refuse({}, "subroutines");
  if (info_.num_temps > 256) refuse({}, "more than 256 temporaries");
  const std::vector<AluCase>& cases = alu_cases(s_.stage, info_.props.legacy_math_rules, opt_);

  std::vector<uint32_t> w(CLP_INTERP_HEADER, 0u);
  w[CLP_INTERP_H_MAGIC] = CLP_INTERP_MAGIC;
  w[CLP_INTERP_H_FLAGS] = uses_ret_ ? CLP_INTERP_MASKED_TOP : 0u;
  w[CLP_INTERP_H_TEMPS] = info_.num_temps;
  for (const SystemValueInfo& sv : info_.system_values) {
    switch (sv.semantic) {
      case Semantic::SUBGROUP_SIZE:
      case Semantic::SUBGROUP_INVOCATION:
      case Semantic::SUBGROUP_EQ_MASK:
      case Semantic::SUBGROUP_GE_MASK:
      case Semantic::SUBGROUP_GT_MASK:
      case Semantic::SUBGROUP_LE_MASK:
      case Semantic::SUBGROUP_LT_MASK:
        refuse({}, "subgroup system values");
      default:
        break;
    }
  }
  if (s_.stage == ShaderType::FRAGMENT) {
    for (unsigned i = 0; i < kMaxColorBufs; ++i) {
      const int reg = info_.fs_outputs.color[i];
      if (reg >= 0xff) refuse({}, "this colour output");
      w[CLP_INTERP_H_COLOR + i / 4] |= uint32_t(reg + 1) << (8 * (i % 4));
    }
    // The compiled prologue's reads (fs_input_prologue), in its order.
    uint32_t entries = 0;
    for (const IoInfo& in : info_.inputs) {
      for (unsigned c = 0; c < 4; ++c) {
        if (!(in.read_mask & (1u << c))) continue;
        if (in.reg > 0xffffu || in.semantic_index > 0xffffu) refuse({}, "this input");
        w.push_back(in.reg | c << 16);
        w.push_back(unsigned(in.semantic) | unsigned(in.interp) << 8 | unsigned(in.location) << 12 |
                    in.semantic_index << 16);
        ++entries;
      }
    }
    w[CLP_INTERP_H_INPUTS] = entries;
    // What the compiled code's prelude defines for the tile pass (prelude()), and tile.cl's
    // rule for when depth and stencil may run before the shader (CLP_FS_EARLY_*), which
    // the compiled code applies to those defines: both must stay the same.
    const FsOutputs& o = info_.fs_outputs;
    uint32_t fs = 0;
    unsigned byte = 0;
    for (const int reg : {o.depth, o.stencil, o.sample_mask}) {
      if (reg >= 0xff) refuse({}, "this depth, stencil or sample mask output");
      fs |= uint32_t(reg + 1) << (8 * byte++);
    }
    const bool early = info_.props.fs_early_depth_stencil;
    const bool kill = info_.uses_kill || info_.uses_demote;
    if (early) fs |= CLP_INTERP_FS_EARLY_FORCED;
    if (early ||
        (!kill && o.depth < 0 && o.stencil < 0 && o.sample_mask < 0 && !info_.writes_memory)) {
      fs |= CLP_INTERP_FS_EARLY_ALLOWED;
    }
    if (info_.per_sample_shading) fs |= CLP_INTERP_FS_PER_SAMPLE;
    w[CLP_INTERP_H_FS] = fs;
  }
  w[CLP_INTERP_H_IMM] = uint32_t(w.size());
  for (const Immediate& imm : s_.immediates) {
    if (imm.type == ImmType::FLT64 || imm.type == ImmType::INT64 || imm.type == ImmType::UINT64) {
      refuse(imm.loc, "64-bit immediates");
    }
    for (unsigned c = 0; c < 4; ++c)
      w.push_back(imm.words[c]);
  }
  w[CLP_INTERP_H_CODE] = uint32_t(w.size());

  // An indirect operand's address register and the registers the compiled code bounds
  // its access by (read_channel, write_channel): [first, end).
  struct Indirect {
    uint32_t bits = 0;  // address register | its channel << 2
    uint32_t first = 0, end = 0;
  };
  auto indirect = [&](const SourceLoc& loc, const RegisterRef& r) {
    Indirect ind;
    if (r.indirect.file != RegFile::ADDR || r.indirect.index > 3) {
      refuse(loc, "this indirect register");
    }
    ind.bits = r.indirect.index | uint32_t(r.indirect.component & 3) << 2;
    switch (r.file) {
      case RegFile::TEMP:
        if (temp_file_array_) {
          ind.end = num_temps_;
          break;
        }
        for (const TempArray& a : temp_arrays_) {
          if (a.id != r.indirect.array_id) continue;
          ind.first = a.first;
          ind.end = a.last + 1;
        }
        if (ind.end == 0) refuse(loc, "indirect TEMP access through an unknown array");
        break;
      case RegFile::IN:
        ind.end = info_.num_inputs;  // the compiled program's CLP_NUM_INPUTS
        break;
      case RegFile::OUT:
        ind.end = info_.num_outputs;
        break;
      case RegFile::CONST:
        break;
      default:
        refuse(loc, std::string("indirect ") + file_name(r.file) + " operands");
    }
    if (ind.end > 0xffffu) refuse(loc, "this indirect register");
    return ind;
  };

  // `modifiers`: how the compiled code applies the source's negate and absolute.
  auto operand = [&](const SrcOperand& o, uint8_t modifiers) {
    const RegisterRef& r = o.reg;
    const bool ind = r.indirect.is_indirect();
    // A geometry shader's per-vertex input: IN[vertex][register], the vertex direct or
    // through an address register (read_channel, vertex_index).
    const bool per_vertex = gs && r.file == RegFile::IN && r.has_dimension;
    if ((r.dim_indirect.is_indirect() && !per_vertex) || (!ind && r.index < 0)) {
      refuse(o.loc, "this operand");
    }
    const uint32_t idx = uint32_t(r.index);
    uint32_t file = 0, reg = idx, buffer = 0;
    switch (r.file) {
      case RegFile::TEMP:
        if (!ind && idx >= info_.num_temps) refuse(o.loc, "this register");
        file = CLP_IF_TEMP;
        break;
      case RegFile::IN:
        if ((r.has_dimension && !per_vertex) || (!ind && idx >= info_.num_inputs)) {
          refuse(o.loc, "this input");
        }
        file = CLP_IF_IN;
        break;
      case RegFile::OUT:
        if (r.has_dimension || (!ind && idx >= info_.num_outputs)) refuse(o.loc, "this output");
        file = CLP_IF_OUT;
        break;
      case RegFile::CONST:
        buffer = r.has_dimension ? uint32_t(r.dimension) : 0u;
        if (r.dimension < 0 || buffer > 0xffu || !has_param(ParamKind::kConstBuffer, buffer)) {
          refuse(o.loc, "this constant buffer");
        }
        file = CLP_IF_CONST;
        break;
      case RegFile::IMM:
        if (ind || idx >= s_.immediates.size()) refuse(o.loc, "this immediate");
        file = CLP_IF_IMM;
        break;
      case RegFile::SV: {
        const SystemValueInfo* found = nullptr;
        for (const SystemValueInfo& sv : info_.system_values)
          if (sv.reg == idx) found = &sv;
        if (ind || !found) refuse(o.loc, "this system value");
        file = CLP_IF_SV;
        reg = uint32_t(found->semantic);
        break;
      }
      default:
        refuse(o.loc, std::string(file_name(r.file)) + " operands");
    }
    const bool modified = o.negate || o.absolute;
    if (modified && modifiers != kFloatModifiers && modifiers != kIntModifiers) {
      refuse(o.loc, "this source modifier");
    }
    const bool integer = modifiers == kIntModifiers;
    uint32_t w0 = file | (o.negate ? 1u << 12 : 0u) | (o.absolute ? 1u << 13 : 0u) |
                  (integer ? uint32_t(CLP_IT_INT) << 14 : 0u) | buffer << 16;
    for (unsigned c = 0; c < 4; ++c)
      w0 |= uint32_t(o.swizzle[c] & 3) << (4 + 2 * c);
    uint32_t range = 0;
    if (ind) {
      const Indirect in = indirect(o.loc, r);
      w0 |= 1u << 24 | in.bits << 25;
      range = in.first | in.end << 16;
    }
    if (per_vertex) {
      // Word 2 holds the vertex (its offset when indirect): the register's bounds are
      // CLP_NUM_INPUTS (clp_vin_gather).
      w0 |= CLP_INTERP_PER_VERTEX;
      if (r.dim_indirect.is_indirect()) {
        if (r.dim_indirect.file != RegFile::ADDR || r.dim_indirect.index > 3) {
          refuse(o.loc, "this indirect vertex");
        }
        w0 |= CLP_INTERP_VERTEX_INDIRECT | uint32_t(r.dim_indirect.index) << 16 |
              uint32_t(r.dim_indirect.component & 3) << 18;
      }
      range = uint32_t(r.dimension);
    }
    w.push_back(w0);
    w.push_back(reg);
    w.push_back(range);
  };
  auto source = [&](const Instruction& inst, unsigned s, uint8_t modifiers) {
    operand(inst.src[s], modifiers);
  };
  // The destination's three words (write_channel's rules).
  auto destination = [&](const Instruction& inst) {
    const DstOperand& d = inst.dst[0];
    const bool ind = d.reg.indirect.is_indirect();
    if (d.reg.has_dimension || (!ind && d.reg.index < 0)) refuse(d.loc, "this destination");
    const uint32_t idx = uint32_t(d.reg.index);
    uint32_t file = 0;
    if (d.reg.file == RegFile::TEMP && (ind || idx < info_.num_temps)) {
      file = CLP_IF_TEMP;
    } else if (d.reg.file == RegFile::OUT && (ind || idx < info_.num_outputs)) {
      file = CLP_IF_OUT;
    } else if (d.reg.file == RegFile::ADDR && !ind && idx < 4) {
      file = CLP_IF_ADDR;
    } else {
      refuse(d.loc, "this destination");
    }
    // ARL / UARL / ARR write address registers, and only they.
    if ((file == CLP_IF_ADDR) !=
        (inst.opcode == Opcode::ARL || inst.opcode == Opcode::UARL || inst.opcode == Opcode::ARR)) {
      refuse(d.loc, "this destination");
    }
    uint32_t d0 = file | uint32_t(d.write_mask & 15) << 4, range = 0;
    if (ind) {
      const Indirect in = indirect(d.loc, d.reg);
      d0 |= 1u << 8 | in.bits << 9;
      range = in.first | in.end << 16;
    }
    w.push_back(d0);
    w.push_back(idx);
    w.push_back(range);
  };
  // write_channel() saturates float results only.
  auto saturates = [](const Instruction& inst) {
    const OperandType dt = inst.info().dst[0];
    return inst.saturate && (dt == OperandType::F32 || dt == OperandType::ANY);
  };

  // A texture instruction: its plan (tex_plan) as the words of shader_interp_abi.h.
  auto texture = [&](const Instruction& inst, const TexPlan& p) {
    const RegisterRef& view = inst.src[p.view_src].reg;
    if (view.indirect.is_indirect() ||
        (p.sampler_src >= 0 && inst.src[p.sampler_src].reg.indirect.is_indirect())) {
      refuse(inst.loc, "indirect texture units");
    }
    const uint32_t vu = uint32_t(view.index);
    const uint32_t su = p.sampler_src >= 0 ? uint32_t(inst.src[p.sampler_src].reg.index) : 0xffffu;
    // The compiled code reads 0 from a view it has no parameter for (tex_dispatch); the
    // samplers' parameter counts the units up to the highest declared.
    bool sampler_ok = p.sampler_src < 0;
    for (const ResourceParam& rp : params_)
      sampler_ok |= rp.kind == ParamKind::kSamplers && su < rp.index;
    if (!has_param(ParamKind::kTexture, vu) || vu > 0xfffeu || !sampler_ok) {
      refuse(inst.loc, "this texture unit");
    }
    if (inst.num_tex_offsets > 1) refuse(inst.loc, "more than one texture offset");
    const bool integer = p.call == TexCall::kFetch || p.call == TexCall::kSize;
    // The slots, in CLP_ITS_* order, and whether each reads its source as an integer.
    const std::pair<TexSlot, bool> slots[CLP_ITS_COUNT] = {
        {p.coord[0], integer}, {p.coord[1], integer}, {p.coord[2], integer}, {p.layer, false},
        {p.ref, false},        {p.lod, integer},      {p.divisor, false},    {p.ddx[0], false},
        {p.ddx[1], false},     {p.ddx[2], false},     {p.ddy[0], false},     {p.ddy[1], false},
        {p.ddy[2], false},     {p.comp, true}};
    std::vector<std::pair<unsigned, bool>> sources;  // (operand, integer), in list order
    uint32_t slot_words[4] = {0, 0, 0, 0};
    for (unsigned k = 0; k < CLP_ITS_COUNT; ++k) {
      const auto& [slot, as_int] = slots[k];
      if (!slot.some()) continue;
      size_t n = 0;
      while (n < sources.size() && sources[n].first != unsigned(slot.src))
        ++n;
      if (n == sources.size()) sources.emplace_back(unsigned(slot.src), as_int);
      // A source read both ways would need both modifiers.
      if (sources[n].second != as_int) refuse(inst.loc, "this source");
      slot_words[k / 4] |= (0x80u | uint32_t(n) << 2 | slot.chan) << (8 * (k % 4));
    }
    // Gradients across the quad need its four pixels in the invocation's lanes, as the
    // ALU cases of derivatives do (alu_cases); emit_interpreted retries at 4 lanes.
    if (p.implicit_gradients && lanes_ < 4) refuse(inst.loc, "implicit derivatives on 1 lane");
    if (p.implicit_gradients) uses_quad_ops_ = true;
    const bool offset = inst.num_tex_offsets > 0;
    w.push_back(CLP_IK_TEX | (saturates(inst) ? 1u << 8 : 0u) | uint32_t(sources.size()) << 9 |
                uint32_t(p.call) << 12 | uint32_t(p.target) << 16 | uint32_t(p.lod_mode) << 24 |
                (p.implicit_gradients ? 1u << 26 : 0u) | (offset ? 1u << 27 : 0u) |
                (p.divide_ref ? 1u << 28 : 0u) | uint32_t(p.comp_const & 3) << 29);
    destination(inst);
    w.push_back(vu | su << 16);
    for (uint32_t sw : slot_words)
      w.push_back(sw);
    for (const auto& [src, as_int] : sources)
      source(inst, src, as_int ? kIntModifiers : kFloatModifiers);
    if (offset) {
      const TexOffset& t = inst.tex_offsets[0];
      SrcOperand o;
      o.reg.file = t.file;
      o.reg.index = int32_t(t.index);
      o.swizzle = {t.swizzle[0], t.swizzle[1], t.swizzle[2], t.swizzle[2]};
      o.loc = t.loc;
      operand(o, kIntModifiers);
    }
  };

  std::vector<uint32_t> word_of(s_.instructions.size(), 0);
  std::vector<std::pair<size_t, uint32_t>> targets;  // (word, instruction it names)
  uint32_t depth = 0;
  for (uint32_t i = 0; i <= cf_.main_end; ++i) {
    const Instruction& inst = s_.instructions[i];
    word_of[i] = uint32_t(w.size());
    auto op_word = [&](uint32_t kind) { w.push_back(kind); };
    switch (inst.info().cf) {
      case CfRole::IF:
        if (++depth > CLP_INTERP_DEPTH) refuse(inst.loc, "constructs nested this deep");
        op_word(inst.opcode == Opcode::IF ? CLP_IK_IF : CLP_IK_UIF);
        source(inst, 0, inst.opcode == Opcode::IF ? kFloatModifiers : kIntModifiers);
        targets.emplace_back(w.size(), uint32_t(cf_.partner[i]));
        w.push_back(0);
        continue;
      case CfRole::ELSE:
        op_word(CLP_IK_ELSE);
        targets.emplace_back(w.size(), uint32_t(cf_.partner[i]));
        w.push_back(0);
        continue;
      case CfRole::ENDIF:
        --depth;
        op_word(CLP_IK_ENDIF);
        continue;
      case CfRole::LOOP:
        if (++depth > CLP_INTERP_DEPTH) refuse(inst.loc, "constructs nested this deep");
        op_word(CLP_IK_LOOP);
        continue;
      case CfRole::ENDLOOP:
        --depth;
        op_word(CLP_IK_ENDLOOP);
        continue;
      case CfRole::BRK:  // of a loop: SWITCH was refused before its BRKs
        op_word(CLP_IK_BRK);
        continue;
      case CfRole::CONT:
        op_word(CLP_IK_CONT);
        continue;
      case CfRole::RET:
        op_word(CLP_IK_RET);
        continue;
      case CfRole::END:
        op_word(i == cf_.main_end ? CLP_IK_END : CLP_IK_RET);
        continue;
      case CfRole::NONE:
        break;
      default:
        refuse(inst.loc, std::string(inst.info().name) + " (switches and subroutines)");
    }
    if (inst.opcode == Opcode::NOP) continue;
    if ((inst.opcode == Opcode::EMIT || inst.opcode == Opcode::ENDPRIM) && gs) {
      op_word(inst.opcode == Opcode::EMIT ? CLP_IK_EMIT : CLP_IK_ENDPRIM);
      source(inst, 0, kIntModifiers);  // the stream (src_u)
      continue;
    }
    if ((inst.opcode == Opcode::KILL || inst.opcode == Opcode::KILL_IF) &&
        s_.stage == ShaderType::FRAGMENT) {
      op_word(inst.opcode == Opcode::KILL ? CLP_IK_KILL : CLP_IK_KILL_IF);
      if (inst.opcode == Opcode::KILL_IF) source(inst, 0, kFloatModifiers);
      continue;
    }
    if (TexPlan plan; tex_plan(inst, &plan)) {
      if (inst.precise) refuse(inst.loc, "precise texture instructions");
      texture(inst, plan);
      continue;
    }
    const AluCase* c = nullptr;
    for (const AluCase& k : cases)
      if (k.op == inst.opcode) c = &k;
    if (!c) refuse(inst.loc, inst.info().name);
    uses_quad_ops_ |= c->reads_quads;
    // A channel-wise opcode's result channel c reads channel c of its sources only, and
    // only the written channels are stored: the interpreter loads no others.
    const uint32_t reads =
        inst.info().mode == ChannelMode::COMP ? uint32_t(inst.dst[0].write_mask & 15) : 15u;
    // The compiled code turns contraction off in a precise instruction's block.
    const bool precise = inst.precise && c->contracts;
    w.push_back(CLP_IK_ALU | (saturates(inst) ? 1u << 8 : 0u) | uint32_t(inst.num_src) << 9 |
                reads << 12 | uint32_t(inst.opcode) << 16 | (precise ? CLP_INTERP_PRECISE : 0u));
    destination(inst);
    for (unsigned s = 0; s < inst.num_src; ++s)
      source(inst, s, c->modifiers[s]);
  }
  for (const auto& [word, inst] : targets)
    w[word] = word_of[inst];
  return w;
}

std::string Emitter::interp_body(uint32_t temps) {
  const std::vector<AluCase>& cases = alu_cases(s_.stage, info_.props.legacy_math_rules, opt_);
  uint32_t cbs = 1;
  for (const ResourceParam& p : params_)
    if (p.kind == ParamKind::kConstBuffer) cbs = std::max(cbs, p.index + 1);
  std::string b;
  b += "#define CLP_INTERP_TEMPS " + std::to_string(temps) + "\n";
  b += "#define CLP_INTERP_CBS " + std::to_string(cbs) + "\n";
  b += "#include \"shader_lib.h\"\n";
  // The texture units of the parameters (plan_params: from 0, placeholders included).
  uint32_t units = 0;
  for (const ResourceParam& p : params_)
    if (p.kind == ParamKind::kTexture) units = std::max(units, p.index + 1);
  if (uses_sampling_) {
    b += "#include \"sampling_abi.h\"\n#include \"sampling.h\"\n";
    b += "#define CLP_INTERP_VIEWS " + std::to_string(std::max(units, 1u)) + "\n";
  }
  b += "\n";
  // `m`, `io` and `stage` are the compiled code's names: votes, READ_* and helper tests
  // read the running lanes and the invocation's masks.
  // The precise function holds only the cases that may contract (interp_encode sets
  // CLP_INTERP_PRECISE for no other).
  for (const bool precise : {false, true}) {
    b += std::string("static void ") + (precise ? "clp_interp_alu_precise" : "clp_interp_alu") +
         "(uint op, vi m, ClpShaderIo* io, ClpStageCtx* stage, const vf* s, vf* r) {\n";
    if (precise) b += "#pragma OPENCL FP_CONTRACT OFF\n";
    for (unsigned k = 0; k < 4; ++k) {
      const std::string t = "t" + std::to_string(k) + "_";
      b += "  const vf " + t + "0 = s[" + std::to_string(4 * k) + "], " + t + "1 = s[" +
           std::to_string(4 * k + 1) + "], " + t + "2 = s[" + std::to_string(4 * k + 2) + "], " +
           t + "3 = s[" + std::to_string(4 * k + 3) + "];\n";
    }
    b += "  vf t4_0 = (vf)(0.0f), t4_1 = (vf)(0.0f), t4_2 = (vf)(0.0f), t4_3 = (vf)(0.0f);\n";
    b += "  switch (op) {\n";
    for (const AluCase& c : cases) {
      if (precise && !c.contracts) continue;
      b +=
          "    case " + std::to_string(unsigned(c.op)) + ": {  // " + opcode_info(c.op).name + "\n";
      b += c.text;
      b += "      break;\n    }\n";
    }
    b += "  }\n  r[0] = t4_0;\n  r[1] = t4_1;\n  r[2] = t4_2;\n  r[3] = t4_3;\n}\n\n";
  }
  b += "#include \"shader_interp.h\"\n\n";
  b += "void clp_shader_main(ClpShaderIo* io, ClpStageCtx* stage CLP_RESOURCE_PARAMS) {\n";
  body_.clear();
  indent_ = 1;
  param_prologue();
  b += body_;
  body_.clear();
  // Buffers the shader does not bind read 0 (size 0).
  b += "  global const uint* cbs[CLP_INTERP_CBS];\n  uint cbsz[CLP_INTERP_CBS];\n";
  b += "  for (int i = 0; i < CLP_INTERP_CBS; ++i) {\n";
  b += "    cbs[i] = clp_icode;\n";
  b += "    cbsz[i] = 0u;\n";
  b += "  }\n";
  for (const ResourceParam& p : params_) {
    if (p.kind != ParamKind::kConstBuffer) continue;
    const std::string i = std::to_string(p.index);
    b += "  cbs[" + i + "] = clp_cb" + i + ";\n  cbsz[" + i + "] = cbsz" + i + ";\n";
  }
  std::string tex;
  if (uses_sampling_) {
    tex = ", &tex";
    b += "  ClpInterpTex tex;\n";
    // An interpreted shader that samples has both descriptor arrays (plan_params).
    b += "  tex.views = clp_views;\n";
    b += "  tex.samplers = clp_samplers;\n";
    b += "  for (int i = 0; i < CLP_INTERP_VIEWS; ++i)\n    tex.data[i] = 0;\n";
    for (const ResourceParam& p : params_) {
      if (p.kind == ParamKind::kTexture) {
        b += "  tex.data[" + std::to_string(p.index) + "] = " + p.name + ";\n";
      }
    }
  }
  b += "  clp_interp_run(io, stage, clp_icode, cbs, cbsz" + tex + ");\n}\n";
  return b;
}

EmittedShader Emitter::run_interpreted() {
  plan();
  plan_params();
  const std::vector<uint32_t> code = interp_encode();
  // Temporaries by size class too: fewer classes mean fewer programs, each a cold build of
  // seconds. The interpreter zeroes only the shader's own (CLP_INTERP_H_TEMPS), so a
  // larger class costs private memory, not time: at least 128 registers of 4 lanes (8 KB),
  // or 64 of a fragment shader's 16 (16 KB), which hold all but the largest shaders.
  const uint32_t temps = size_class(info_.num_temps, lanes_ >= 8 ? 64 : 128);
  EmittedShader out;
  out.stage = s_.stage;
  out.lanes = lanes_;
  out.reads_quads = uses_quad_ops_;  // set by interp_encode for derivative opcodes
  out.params = params_;
  interpreting_ = true;
  out.num_inputs = prelude_inputs();
  out.num_outputs = prelude_outputs();
  out.prelude = prelude();
  out.body = interp_body(temps);
  out.interp_code = code;
  return out;
}

}  // namespace clpipe::compiler::emit_detail

namespace clpipe::compiler {

EmittedShader emit_interpreted(const Shader& shader, const ShaderInfo& info,
                               const EmitOptions& options) {
  const uint32_t fl = options.fragment_lanes;
  if (fl != 1 && fl != 4 && fl != 8 && fl != 16) {
    invalid("fragment_lanes must be 1, 4, 8 or 16, not ", fl);
  }
  EmitOptions interp = options;
  interp.interp_params = true;
  if (shader.stage == ShaderType::FRAGMENT && fl == 1) {
    // As emit_opencl: a fragment shader that reads the other pixels of its quad
    // (derivatives, implicit texture LOD) shades 2x2 per invocation, so that its
    // interpreted form matches its compiled one.
    try {
      EmittedShader out = emit_detail::Emitter(shader, info, interp).run_interpreted();
      if (!out.reads_quads) return out;
    } catch (const CompileError&) {
      // Derivatives on 1 lane, or something the interpreter does not run at all.
    }
    interp.fragment_lanes = 4;
  }
  return emit_detail::Emitter(shader, info, interp).run_interpreted();
}

}  // namespace clpipe::compiler
