// Texture opcodes -> calls of the sampling library (sampling_abi.h). The operand layout
// of each opcode and target (tgsi.md §11.2, §11.3) is unpacked here into ClpTexCoords:
// spatial coordinates, array layer, shadow reference, LOD / bias, gradients and offsets.
// Implicit LOD in the fragment stage takes its gradients from the 2x2 quad (coarse
// derivatives of the coordinates); outside it, TEX / TXB sample at LOD 0 (+ bias).
//
// Units: classic opcodes name one SAMP for both the sampler state and the view; the
// SAMPLE_* family names an SVIEW and a SAMP. An indirect unit (SAMP[ADDR[2].x + k]) runs
// the call once per declared candidate with the lanes that name it, others read 0.
#include "compiler/emit/emitter.h"

namespace clpipe::compiler::emit_detail {

namespace {

struct Layout {
  unsigned ncoord = 2;  // spatial coordinates in src0 x.. (cube: 3, the direction)
  int layer = -1;       // src0 channel of the array layer
  int ref = -1;         // src0 channel of the shadow reference
};

Layout layout_of(TexTarget t) {
  Layout l;
  switch (t) {
    case TexTarget::BUFFER:
    case TexTarget::T1D:
      l.ncoord = 1;
      break;
    case TexTarget::T2D:
    case TexTarget::RECT:
    case TexTarget::T2D_MSAA:
      l.ncoord = 2;
      break;
    case TexTarget::T3D:
    case TexTarget::CUBE:
      l.ncoord = 3;
      break;
    case TexTarget::SHADOW1D:
      l.ncoord = 1;
      l.ref = 2;
      break;
    case TexTarget::SHADOW2D:
    case TexTarget::SHADOWRECT:
      l.ncoord = 2;
      l.ref = 2;
      break;
    case TexTarget::T1D_ARRAY:
      l.ncoord = 1;
      l.layer = 1;
      break;
    case TexTarget::T2D_ARRAY:
    case TexTarget::T2D_ARRAY_MSAA:
      l.ncoord = 2;
      l.layer = 2;
      break;
    case TexTarget::SHADOW1D_ARRAY:
      l.ncoord = 1;
      l.layer = 1;
      l.ref = 2;
      break;
    case TexTarget::SHADOW2D_ARRAY:
      l.ncoord = 2;
      l.layer = 2;
      l.ref = 3;
      break;
    case TexTarget::SHADOWCUBE:
      l.ncoord = 3;
      l.ref = 3;
      break;
    case TexTarget::CUBE_ARRAY:
      l.ncoord = 3;
      l.layer = 3;
      break;
    case TexTarget::SHADOWCUBE_ARRAY:
      l.ncoord = 3;
      l.layer = 3;
      break;  // ref in src1
    default:
      break;
  }
  return l;
}

TexTarget shadow_of(TexTarget t) {
  switch (t) {
    case TexTarget::T1D:
      return TexTarget::SHADOW1D;
    case TexTarget::T2D:
      return TexTarget::SHADOW2D;
    case TexTarget::RECT:
      return TexTarget::SHADOWRECT;
    case TexTarget::T1D_ARRAY:
      return TexTarget::SHADOW1D_ARRAY;
    case TexTarget::T2D_ARRAY:
      return TexTarget::SHADOW2D_ARRAY;
    case TexTarget::CUBE:
      return TexTarget::SHADOWCUBE;
    case TexTarget::CUBE_ARRAY:
      return TexTarget::SHADOWCUBE_ARRAY;
    default:
      return t;
  }
}

std::string tgt(TexTarget t) {
  return std::to_string(unsigned(t));
}

}  // namespace

std::vector<uint32_t> Emitter::units(const Instruction& inst, unsigned s, RegFile file,
                                     std::string* lane) {
  const RegisterRef& reg = inst.src[s].reg;
  std::vector<uint32_t> out;
  if (!reg.indirect.is_indirect()) {
    *lane = "";
    out.push_back(uint32_t(reg.index));
    return out;
  }
  *lane = let("vi", index_expr(inst, reg.indirect, reg.index));
  if (file == RegFile::SAMP) {
    for (const SamplerInfo& smp : info_.samplers)
      out.push_back(smp.index);
  } else {
    for (const SamplerViewInfo& v : info_.sampler_views)
      out.push_back(v.index);
  }
  return out;
}

// Runs `call_fmt` once per (view, sampler) candidate and merges the results into the
// four result channels, then writes the destination. In call_fmt, $V is the view
// descriptor, $D the texel data, $S the sampler descriptor, $U the view and sampler unit
// numbers (for CLP_TEX_SAMPLE, sampling.h), $M the lane mask, $R the result array.
void Emitter::tex_dispatch(const Instruction& inst, unsigned view_src, int sampler_src,
                           const std::string& call_fmt) {
  const RegFile view_file = inst.src[view_src].reg.file;
  std::string vlane, slane;
  const std::vector<uint32_t> views = units(inst, view_src, view_file, &vlane);
  std::vector<uint32_t> samplers{0};
  if (sampler_src >= 0) samplers = units(inst, unsigned(sampler_src), RegFile::SAMP, &slane);
  const std::string acc = fresh("tex");
  line("vf " + acc + "[4] = {(vf)(0.0f), (vf)(0.0f), (vf)(0.0f), (vf)(0.0f)};");
  const bool classic = view_file == RegFile::SAMP;
  for (uint32_t v : views) {
    if (!has_param(ParamKind::kTexture, v)) continue;
    for (uint32_t smp : samplers) {
      // Classic opcodes: one unit is both the view and the sampler.
      if (classic && sampler_src >= 0 && smp != v) continue;
      std::string mask = "m";
      if (!vlane.empty()) mask += " & CLP_MASK(" + vlane + " == (vi)(" + std::to_string(v) + "))";
      if (!classic && !slane.empty()) {
        mask += " & CLP_MASK(" + slane + " == (vi)(" + std::to_string(smp) + "))";
      }
      const std::string mk = let("vi", mask);
      const std::string res = fresh("tex");
      std::string call = call_fmt;
      auto subst = [&](const std::string& key, const std::string& val) {
        for (size_t p = call.find(key); p != std::string::npos;
             p = call.find(key, p + val.size())) {
          call.replace(p, key.size(), val);
        }
      };
      subst("$V", "&clp_views[" + std::to_string(v) + "]");
      subst("$D", "clp_tx" + std::to_string(v));
      const uint32_t sampler = classic ? v : smp;
      if (call.find("$U") != std::string::npos) ++sample_calls_;
      subst("$U", std::to_string(v) + ", " + std::to_string(sampler));
      subst("$S", "&clp_samplers[" + std::to_string(sampler) + "]");
      subst("$M", mk);
      subst("$R", res);
      line("if (CLP_ANY(" + mk + ")) {");
      ++indent_;
      line("vf " + res + "[4];");
      line(call + ";");
      for (unsigned c = 0; c < 4; ++c) {
        const std::string cs = "[" + std::to_string(c) + "]";
        line(acc + cs + " = select(" + acc + cs + ", " + res + cs + ", " + mk + ");");
      }
      --indent_;
      line("}");
    }
  }
  const std::string v[4] = {acc + "[0]", acc + "[1]", acc + "[2]", acc + "[3]"};
  write_results(inst, 0, v);
}

// Declares a ClpTexCoords `name` with the offsets of the instruction; the rest zero.
std::string Emitter::tex_offsets(const Instruction& inst, const std::string& coords) {
  line("ClpTexCoords " + coords + ";");
  for (const char* f : {".s", ".t", ".r", ".layer", ".ref", ".lod"}) {
    line(coords + f + " = (vf)(0.0f);");
  }
  for (unsigned k = 0; k < 3; ++k) {
    const std::string ks = "[" + std::to_string(k) + "]";
    line(coords + ".ddx" + ks + " = " + coords + ".ddy" + ks + " = (vf)(0.0f);");
    std::string off = "(vi)(0)";
    if (inst.num_tex_offsets > 0) {
      const TexOffset& o = inst.tex_offsets[0];
      RegisterRef r;
      r.file = o.file;
      r.index = int32_t(o.index);
      off = "CLP_AS_VI(" + read_channel(inst, r, o.swizzle[k] & 3) + ")";
    }
    line(coords + ".offset" + ks + " = " + off + ";");
  }
  line(coords + ".mask = m;");
  return coords;
}

bool Emitter::tex_plan(const Instruction& inst, TexPlan* plan) const {
  const Opcode op = inst.opcode;
  const bool fs = s_.stage == ShaderType::FRAGMENT;
  TexPlan p;
  auto slot = [](unsigned s, unsigned c) { return TexSlot{int8_t(s), uint8_t(c)}; };
  // Integer texel coordinates in src0 (TXF, SAMPLE_I): x, then y or the 1D layer, then
  // z or the 2D layer; the level in .w unless `lz`; a sample index in `sample_src`.x.
  auto fetch = [&](TexTarget target, unsigned view_src, bool lz, int sample_src) {
    const Layout lay = layout_of(target);
    p.call = TexCall::kFetch;
    p.target = target;
    p.view_src = uint8_t(view_src);
    p.coord[0] = slot(0, 0);
    if (lay.ncoord >= 2 || lay.layer == 1) p.coord[1] = slot(0, 1);
    if (lay.ncoord >= 3 || lay.layer == 2) p.coord[2] = slot(0, 2);
    if (!lz && target != TexTarget::BUFFER) p.lod = slot(0, 3);
    if (sample_src >= 0) p.lod = slot(unsigned(sample_src), 0);
  };
  auto size = [&](TexTarget target) {
    p.call = TexCall::kSize;
    p.target = target;
    p.lod = slot(0, 0);
  };
  // Implicit LOD: gradients from the quad in the fragment stage; elsewhere level 0 (+
  // the bias, as an explicit LOD).
  auto implicit = [&](bool bias) {
    if (!fs) return;
    p.implicit_gradients = true;
    p.lod_mode = bias ? 1 : 0;
  };
  auto spatial = [&](const Layout& lay) {
    for (unsigned c = 0; c < lay.ncoord; ++c)
      p.coord[c] = slot(0, c);
  };
  switch (op) {
    case Opcode::TXF:
    case Opcode::TXF_LZ:
      fetch(inst.texture, 1, op == Opcode::TXF_LZ, -1);
      break;
    case Opcode::TXQ:
      size(inst.texture);
      break;
    case Opcode::TEX:
    case Opcode::TXP:
    case Opcode::TXB:
    case Opcode::TXL:
    case Opcode::TXD:
    case Opcode::TEX2:
    case Opcode::TXB2:
    case Opcode::TXL2:
    case Opcode::TEX_LZ:
    case Opcode::TG4:
    case Opcode::LODQ: {
      // Classic opcodes: one SAMP names both the view and the sampler.
      p.target = inst.texture;
      const Layout lay = layout_of(p.target);
      unsigned samp = 1;
      if (op == Opcode::TXD) samp = 3;
      if (op == Opcode::TEX2 || op == Opcode::TXB2 || op == Opcode::TXL2 || op == Opcode::TG4)
        samp = 2;
      p.view_src = uint8_t(samp);
      p.sampler_src = int8_t(samp);
      spatial(lay);
      if (op == Opcode::TXP) p.divisor = slot(0, 3);
      if (lay.layer >= 0) p.layer = slot(0, unsigned(lay.layer));
      if (p.target == TexTarget::SHADOWCUBE_ARRAY) {
        if (op == Opcode::TEX2 || op == Opcode::TG4) p.ref = slot(1, 0);
        if (op == Opcode::TXB2 || op == Opcode::TXL2) p.ref = slot(1, 1);
      } else if (lay.ref >= 0) {
        p.ref = slot(0, unsigned(lay.ref));
        p.divide_ref = true;
      }
      switch (op) {
        case Opcode::TEX:
        case Opcode::TXP:
        case Opcode::TEX2:
        case Opcode::LODQ:
          implicit(false);
          break;
        case Opcode::TXB:
          p.lod = slot(0, 3);
          implicit(true);
          break;
        case Opcode::TXB2:
          p.lod = slot(1, 0);
          implicit(true);
          break;
        case Opcode::TXL:
          p.lod = slot(0, 3);
          break;
        case Opcode::TXL2:
          p.lod = slot(1, 0);
          break;
        case Opcode::TXD:
          for (unsigned c = 0; c < lay.ncoord; ++c) {
            p.ddx[c] = slot(1, c);
            p.ddy[c] = slot(2, c);
          }
          p.lod_mode = 0;
          break;
        default:  // TEX_LZ, TG4: level 0
          break;
      }
      if (op == Opcode::LODQ) p.call = TexCall::kQueryLod;
      if (op == Opcode::TG4) {
        p.call = TexCall::kGather;
        if (p.target != TexTarget::SHADOWCUBE_ARRAY) p.comp = slot(1, 0);
      }
      break;
    }
    case Opcode::SAMPLE:
    case Opcode::SAMPLE_I:
    case Opcode::SAMPLE_I_MS:
    case Opcode::SAMPLE_B:
    case Opcode::SAMPLE_C:
    case Opcode::SAMPLE_C_LZ:
    case Opcode::SAMPLE_D:
    case Opcode::SAMPLE_L:
    case Opcode::GATHER4:
    case Opcode::SVIEWINFO:
    case Opcode::LOD: {
      // SAMPLE_*: src0 coords, src1 SVIEW, src2 SAMP, then the extra operands. The
      // target is the view declaration's; a compare makes it the shadow target.
      const RegisterRef& view = inst.src[1].reg;
      TexTarget target = TexTarget::T2D;
      for (const SamplerViewInfo& v : info_.sampler_views) {
        if (view.indirect.is_indirect() || int32_t(v.index) == view.index) target = v.target;
      }
      if (op == Opcode::SAMPLE_I || op == Opcode::SAMPLE_I_MS) {
        fetch(target, 1, false, op == Opcode::SAMPLE_I_MS ? 2 : -1);
        break;
      }
      if (op == Opcode::SVIEWINFO) {
        size(target);
        break;
      }
      const bool compare = op == Opcode::SAMPLE_C || op == Opcode::SAMPLE_C_LZ;
      p.target = compare ? shadow_of(target) : target;
      const Layout lay = layout_of(p.target);
      p.view_src = 1;
      p.sampler_src = 2;
      spatial(lay);
      // D3D10 layout: the layer follows the spatial coordinates.
      if (texture_is_array(p.target)) p.layer = slot(0, lay.ncoord);
      if (compare) p.ref = slot(3, 0);
      switch (op) {
        case Opcode::SAMPLE:
        case Opcode::SAMPLE_C:
        case Opcode::GATHER4:
        case Opcode::LOD:
          implicit(false);
          break;
        case Opcode::SAMPLE_B:
          p.lod = slot(3, 0);
          implicit(true);
          break;
        case Opcode::SAMPLE_L:
          p.lod = slot(3, 0);
          break;
        case Opcode::SAMPLE_D:
          for (unsigned c = 0; c < lay.ncoord; ++c) {
            p.ddx[c] = slot(3, c);
            p.ddy[c] = slot(4, c);
          }
          p.lod_mode = 0;
          break;
        default:  // SAMPLE_C_LZ: level 0
          break;
      }
      if (op == Opcode::LOD) p.call = TexCall::kQueryLod;
      if (op == Opcode::GATHER4) {
        p.call = TexCall::kGather;
        p.comp_const = uint8_t(inst.src[2].swizzle[0] & 3);
      }
      break;
    }
    default:
      return false;
  }
  *plan = p;
  return true;
}

void Emitter::tex_emit(const Instruction& inst, const TexPlan& p) {
  const std::string target = tgt(p.target);
  auto ival = [&](const TexSlot& s) {
    return s.some() ? let("vi", src_i(inst, unsigned(s.src), s.chan)) : std::string("(vi)(0)");
  };
  auto fval = [&](const TexSlot& s) { return let("vf", src_f(inst, unsigned(s.src), s.chan)); };
  if (p.call == TexCall::kSize) {
    const std::string lod = ival(p.lod);
    tex_dispatch(inst, p.view_src, -1, "clp_tex_size($V, " + target + ", " + lod + ", $R)");
    return;
  }
  if (p.call == TexCall::kFetch) {
    const std::string x = ival(p.coord[0]), y = ival(p.coord[1]), z = ival(p.coord[2]);
    const std::string level = ival(p.lod);
    const std::string off = fresh("off");
    line("vi " + off + "[3];");
    for (unsigned k = 0; k < 3; ++k) {
      std::string o = "(vi)(0)";
      if (inst.num_tex_offsets > 0) {
        const TexOffset& t = inst.tex_offsets[0];
        RegisterRef r;
        r.file = t.file;
        r.index = int32_t(t.index);
        o = "CLP_AS_VI(" + read_channel(inst, r, t.swizzle[k] & 3) + ")";
      }
      line(off + "[" + std::to_string(k) + "] = " + o + ";");
    }
    tex_dispatch(inst, p.view_src, -1,
                 "clp_tex_fetch($V, $D, " + target + ", " + x + ", " + y + ", " + z + ", " + level +
                     ", " + off + ", $M, $R)");
    return;
  }
  const std::string tc = tex_offsets(inst, fresh("tc"));
  const std::string q = p.divisor.some() ? fval(p.divisor) : std::string();
  auto divided = [&](const TexSlot& s) {
    if (q.empty()) return fval(s);
    return let("vf", "(" + src_f(inst, unsigned(s.src), s.chan) + ") / " + q);
  };
  const char* axes[3] = {".s", ".t", ".r"};
  std::string xs[3];
  for (unsigned c = 0; c < 3; ++c) {
    if (!p.coord[c].some()) continue;
    xs[c] = divided(p.coord[c]);
    line(tc + axes[c] + " = " + xs[c] + ";");
  }
  if (p.layer.some()) line(tc + ".layer = " + fval(p.layer) + ";");
  if (p.ref.some()) line(tc + ".ref = " + (p.divide_ref ? divided(p.ref) : fval(p.ref)) + ";");
  if (p.lod.some()) line(tc + ".lod = " + fval(p.lod) + ";");
  for (unsigned c = 0; c < 3; ++c) {
    const std::string ks = "[" + std::to_string(c) + "]";
    if (p.implicit_gradients && !xs[c].empty()) {
      line(tc + ".ddx" + ks + " = " + quad_op("clp_ddx", xs[c]) + ";");
      line(tc + ".ddy" + ks + " = " + quad_op("clp_ddy", xs[c]) + ";");
    }
    if (p.ddx[c].some()) line(tc + ".ddx" + ks + " = " + fval(p.ddx[c]) + ";");
    if (p.ddy[c].some()) line(tc + ".ddy" + ks + " = " + fval(p.ddy[c]) + ";");
  }
  const int samp = p.sampler_src;
  if (p.call == TexCall::kQueryLod) {
    tex_dispatch(inst, p.view_src, samp,
                 tc + ".mask = $M; clp_tex_query_lod($V, $S, " + target + ", &" + tc + ", $R)");
    return;
  }
  if (p.call == TexCall::kGather) {
    const std::string comp =
        p.comp.some() ? ival(p.comp) : "(vi)(" + std::to_string(p.comp_const) + ")";
    std::string offs = "0";
    if (inst.opcode == Opcode::TG4 && inst.num_tex_offsets == 4) {
      offs = fresh("o4");
      line("vi " + offs + "[8];");
      for (unsigned k = 0; k < 4; ++k) {
        const TexOffset& o = inst.tex_offsets[k];
        RegisterRef r;
        r.file = o.file;
        r.index = int32_t(o.index);
        for (unsigned c = 0; c < 2; ++c) {
          line(offs + "[" + std::to_string(2 * k + c) + "] = CLP_AS_VI(" +
               read_channel(inst, r, o.swizzle[c] & 3) + ");");
        }
      }
    }
    tex_dispatch(inst, p.view_src, samp,
                 tc + ".mask = $M; clp_tex_gather($V, $D, $S, " + target + ", &" + tc + ", " +
                     comp + ", " + offs + ", $R)");
    return;
  }
  tex_dispatch(inst, p.view_src, samp,
               tc + ".mask = $M; CLP_TEX_SAMPLE($U, $V, $D, $S, " + target + ", " +
                   std::to_string(p.lod_mode) + ", &" + tc + ", $R)");
}

bool Emitter::emit_tex(const Instruction& inst) {
  TexPlan plan;
  if (tex_plan(inst, &plan)) {
    tex_emit(inst, plan);
    return true;
  }
  switch (inst.opcode) {
    case Opcode::TXQS: {
      const std::string v[4] = {
          "CLP_AS_VF(clp_tex_samples(&clp_views[" + std::to_string(inst.src[0].reg.index) + "]))",
          "(vf)(0.0f)", "(vf)(0.0f)", "(vf)(0.0f)"};
      if (inst.src[0].reg.indirect.is_indirect()) fail(inst, "indirect TXQS is not supported");
      write_results(inst, 0, v);
      return true;
    }
    case Opcode::SAMPLE_INFO: {
      // Sample count of the view operand (or of the single-sampled rasterizer).
      std::string x = "CLP_AS_VF((vu)(1u))";
      const RegisterRef& r = inst.src[0].reg;
      if (r.file == RegFile::SVIEW && !r.indirect.is_indirect() &&
          has_param(ParamKind::kTexture, uint32_t(r.index))) {
        x = "clp_tex_samples(&clp_views[" + std::to_string(r.index) + "])";
      }
      const std::string v[4] = {x, "(vf)(0.0f)", "(vf)(0.0f)", "(vf)(0.0f)"};
      write_results(inst, 0, v);
      return true;
    }
    case Opcode::SAMPLE_POS: {
      // Single-sampled storage: sample 0 sits at the pixel centre.
      const std::string v[4] = {"(vf)(0.5f)", "(vf)(0.5f)", "(vf)(0.0f)", "(vf)(0.0f)"};
      write_results(inst, 0, v);
      return true;
    }
    default:
      return false;
  }
}

}  // namespace clpipe::compiler::emit_detail
