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

void Emitter::tex_classic(const Instruction& inst) {
  const Opcode op = inst.opcode;
  const TexTarget target = inst.texture;
  const Layout lay = layout_of(target);
  const bool fs = s_.stage == ShaderType::FRAGMENT;
  // Operand positions.
  unsigned samp = 1;
  switch (op) {
    case Opcode::TXD:
      samp = 3;
      break;
    case Opcode::TEX2:
    case Opcode::TXB2:
    case Opcode::TXL2:
    case Opcode::TG4:
      samp = 2;
      break;
    default:
      break;
  }
  const std::string tc = tex_offsets(inst, fresh("tc"));
  // Coordinates (TXP: divided by .w).
  std::string q;
  if (op == Opcode::TXP) q = let("vf", src_f(inst, 0, 3));
  auto coord = [&](unsigned c) {
    std::string e = src_f(inst, 0, c);
    if (!q.empty()) e = "(" + e + ") / " + q;
    return let("vf", e);
  };
  const char* axes[3] = {".s", ".t", ".r"};
  std::string xs[3];
  for (unsigned c = 0; c < lay.ncoord; ++c) {
    xs[c] = coord(c);
    line(tc + axes[c] + " = " + xs[c] + ";");
  }
  if (lay.layer >= 0) line(tc + ".layer = " + let("vf", src_f(inst, 0, unsigned(lay.layer))) + ";");
  if (target == TexTarget::SHADOWCUBE_ARRAY) {
    const unsigned ch = (op == Opcode::TXB2 || op == Opcode::TXL2) ? 1 : 0;
    if (op == Opcode::TEX2 || op == Opcode::TXB2 || op == Opcode::TXL2 || op == Opcode::TG4) {
      line(tc + ".ref = " + let("vf", src_f(inst, 1, ch)) + ";");
    }
  } else if (lay.ref >= 0) {
    line(tc + ".ref = " + coord(unsigned(lay.ref)) + ";");
  }
  // Level of detail.
  int mode = 2;  // CLP_LOD_EXPLICIT, lod 0
  auto implicit = [&](bool bias) {
    if (fs) {
      for (unsigned c = 0; c < lay.ncoord; ++c) {
        const std::string ks = "[" + std::to_string(c) + "]";
        line(tc + ".ddx" + ks + " = " + quad_op("clp_ddx", xs[c]) + ";");
        line(tc + ".ddy" + ks + " = " + quad_op("clp_ddy", xs[c]) + ";");
      }
      mode = bias ? 1 : 0;
    }
  };
  switch (op) {
    case Opcode::TEX:
    case Opcode::TXP:
    case Opcode::TEX2:
      implicit(false);
      break;
    case Opcode::TXB:
      line(tc + ".lod = " + let("vf", src_f(inst, 0, 3)) + ";");
      implicit(true);
      break;
    case Opcode::TXB2:
      line(tc + ".lod = " + let("vf", src_f(inst, 1, 0)) + ";");
      implicit(true);
      break;
    case Opcode::TXL:
      line(tc + ".lod = " + let("vf", src_f(inst, 0, 3)) + ";");
      break;
    case Opcode::TXL2:
      line(tc + ".lod = " + let("vf", src_f(inst, 1, 0)) + ";");
      break;
    case Opcode::TXD:
      for (unsigned c = 0; c < lay.ncoord; ++c) {
        const std::string ks = "[" + std::to_string(c) + "]";
        line(tc + ".ddx" + ks + " = " + let("vf", src_f(inst, 1, c)) + ";");
        line(tc + ".ddy" + ks + " = " + let("vf", src_f(inst, 2, c)) + ";");
      }
      mode = 0;
      break;
    case Opcode::LODQ:
      implicit(false);
      break;
    default:  // TEX_LZ, TG4: level 0
      break;
  }
  if (op == Opcode::LODQ) {
    tex_dispatch(
        inst, samp, int(samp),
        tc + ".mask = $M; clp_tex_query_lod($V, $S, " + tgt(target) + ", &" + tc + ", $R)");
    return;
  }
  if (op == Opcode::TG4) {
    std::string comp = "(vi)(0)";
    if (target != TexTarget::SHADOWCUBE_ARRAY) comp = let("vi", src_i(inst, 1, 0));
    std::string offs = "0";
    if (inst.num_tex_offsets == 4) {
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
    tex_dispatch(inst, samp, int(samp),
                 tc + ".mask = $M; clp_tex_gather($V, $D, $S, " + tgt(target) + ", &" + tc + ", " +
                     comp + ", " + offs + ", $R)");
    return;
  }
  tex_dispatch(inst, samp, int(samp),
               tc + ".mask = $M; CLP_TEX_SAMPLE($U, $V, $D, $S, " + tgt(target) + ", " +
                   std::to_string(mode) + ", &" + tc + ", $R)");
}

void Emitter::tex_fetch(const Instruction& inst, TexTarget target, unsigned view_src, bool lz,
                        int sample_src) {
  const Layout lay = layout_of(target);
  auto ch = [&](unsigned c) { return let("vi", src_i(inst, 0, c)); };
  const std::string x = ch(0);
  std::string y = "(vi)(0)", z = "(vi)(0)";
  if (lay.ncoord >= 2) y = ch(1);
  if (lay.ncoord >= 3) z = ch(2);
  if (lay.layer == 1) y = ch(1);
  if (lay.layer == 2) z = ch(2);
  std::string level = lz ? "(vi)(0)" : ch(3);
  if (target == TexTarget::BUFFER) level = "(vi)(0)";
  if (sample_src >= 0) level = let("vi", src_i(inst, unsigned(sample_src), 0));
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
  tex_dispatch(inst, view_src, -1,
               "clp_tex_fetch($V, $D, " + tgt(target) + ", " + x + ", " + y + ", " + z + ", " +
                   level + ", " + off + ", $M, $R)");
}

void Emitter::tex_query(const Instruction& inst, TexTarget target, unsigned view_src, int lod_src) {
  const std::string lod = lod_src >= 0 ? let("vi", src_i(inst, unsigned(lod_src), 0)) : "(vi)(0)";
  tex_dispatch(inst, view_src, -1, "clp_tex_size($V, " + tgt(target) + ", " + lod + ", $R)");
}

void Emitter::tex_sample_family(const Instruction& inst) {
  const Opcode op = inst.opcode;
  // SAMPLE_*: src0 coords, src1 SVIEW, src2 SAMP, then the extra operands. The target is
  // the view declaration's; a compare makes it the shadow target.
  const RegisterRef& view = inst.src[1].reg;
  TexTarget target = TexTarget::T2D;
  for (const SamplerViewInfo& v : info_.sampler_views) {
    if (!view.indirect.is_indirect() && int32_t(v.index) == view.index) target = v.target;
    if (view.indirect.is_indirect()) target = v.target;
  }
  switch (op) {
    case Opcode::SAMPLE_I:
      tex_fetch(inst, target, 1, false, -1);
      return;
    case Opcode::SAMPLE_I_MS:
      tex_fetch(inst, target, 1, false, 2);
      return;
    case Opcode::SVIEWINFO:
      tex_query(inst, target, 1, 0);
      return;
    default:
      break;
  }
  const bool compare = op == Opcode::SAMPLE_C || op == Opcode::SAMPLE_C_LZ;
  if (compare) target = shadow_of(target);
  const Layout lay = layout_of(target);
  const bool fs = s_.stage == ShaderType::FRAGMENT;
  const std::string tc = tex_offsets(inst, fresh("tc"));
  const char* axes[3] = {".s", ".t", ".r"};
  std::string xs[3];
  for (unsigned c = 0; c < lay.ncoord; ++c) {
    xs[c] = let("vf", src_f(inst, 0, c));
    line(tc + axes[c] + " = " + xs[c] + ";");
  }
  // D3D10 layout: the layer follows the spatial coordinates.
  if (texture_is_array(target)) {
    line(tc + ".layer = " + let("vf", src_f(inst, 0, lay.ncoord)) + ";");
  }
  if (compare) line(tc + ".ref = " + let("vf", src_f(inst, 3, 0)) + ";");
  int mode = 2;
  auto implicit = [&](bool bias) {
    if (!fs) return;
    for (unsigned c = 0; c < lay.ncoord; ++c) {
      const std::string ks = "[" + std::to_string(c) + "]";
      line(tc + ".ddx" + ks + " = " + quad_op("clp_ddx", xs[c]) + ";");
      line(tc + ".ddy" + ks + " = " + quad_op("clp_ddy", xs[c]) + ";");
    }
    mode = bias ? 1 : 0;
  };
  switch (op) {
    case Opcode::SAMPLE:
    case Opcode::SAMPLE_C:
    case Opcode::GATHER4:
    case Opcode::LOD:
      implicit(false);
      break;
    case Opcode::SAMPLE_B:
      line(tc + ".lod = " + let("vf", src_f(inst, 3, 0)) + ";");
      implicit(true);
      break;
    case Opcode::SAMPLE_L:
      line(tc + ".lod = " + let("vf", src_f(inst, 3, 0)) + ";");
      break;
    case Opcode::SAMPLE_D:
      for (unsigned c = 0; c < lay.ncoord; ++c) {
        const std::string ks = "[" + std::to_string(c) + "]";
        line(tc + ".ddx" + ks + " = " + let("vf", src_f(inst, 3, c)) + ";");
        line(tc + ".ddy" + ks + " = " + let("vf", src_f(inst, 4, c)) + ";");
      }
      mode = 0;
      break;
    default:  // SAMPLE_C_LZ: level 0
      break;
  }
  if (op == Opcode::LOD) {
    tex_dispatch(
        inst, 1, 2,
        tc + ".mask = $M; clp_tex_query_lod($V, $S, " + tgt(target) + ", &" + tc + ", $R)");
    return;
  }
  if (op == Opcode::GATHER4) {
    const std::string comp = "(vi)(" + std::to_string(inst.src[2].swizzle[0] & 3) + ")";
    tex_dispatch(inst, 1, 2,
                 tc + ".mask = $M; clp_tex_gather($V, $D, $S, " + tgt(target) + ", &" + tc + ", " +
                     comp + ", 0, $R)");
    return;
  }
  tex_dispatch(inst, 1, 2,
               tc + ".mask = $M; CLP_TEX_SAMPLE($U, $V, $D, $S, " + tgt(target) + ", " +
                   std::to_string(mode) + ", &" + tc + ", $R)");
}

bool Emitter::emit_tex(const Instruction& inst) {
  switch (inst.opcode) {
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
    case Opcode::LODQ:
      tex_classic(inst);
      return true;
    case Opcode::TXF:
    case Opcode::TXF_LZ:
      tex_fetch(inst, inst.texture, 1, inst.opcode == Opcode::TXF_LZ, -1);
      return true;
    case Opcode::TXQ:
      tex_query(inst, inst.texture, 1, 0);
      return true;
    case Opcode::TXQS: {
      const std::string v[4] = {
          "CLP_AS_VF(clp_tex_samples(&clp_views[" + std::to_string(inst.src[0].reg.index) + "]))",
          "(vf)(0.0f)", "(vf)(0.0f)", "(vf)(0.0f)"};
      if (inst.src[0].reg.indirect.is_indirect()) fail(inst, "indirect TXQS is not supported");
      write_results(inst, 0, v);
      return true;
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
    case Opcode::LOD:
      tex_sample_family(inst);
      return true;
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
