// The shader interpreter (compile latency, issue 15): runs the words of an interpreted
// shader (shader_interp_abi.h) with the execution model of compiled shaders, so that a
// new shader draws from a program built once for all shaders of its prelude instead of
// a program of its own.
//
// The generated body (compiler/emit/emit_interp.cpp) defines, before including this file,
//   CLP_INTERP_TEMPS    the temporaries the interpreter keeps (>= the shader's)
//   CLP_INTERP_CBS      constant buffers: a size class of the highest the shader binds + 1
//   CLP_INTERP_VIEWS    for a shader that samples: its texture units, a size class of the
//                       highest + 1; clp_interp_run then takes their ClpInterpTex
//   clp_interp_alu()    the arithmetic of every opcode it interprets: for each, the
//                       compiled code's own statements for sources t0..t3 and result t4,
//                       with the running lanes `m`, `io` and `stage` as the compiled code
//                       names them
//   clp_interp_alu_precise()  the same for the opcodes whose statements may contract,
//                       with contraction off (CLP_INTERP_PRECISE)
// and calls clp_interp_run() from clp_shader_main with its constant buffers (and
// textures).
//
// Invariants it keeps, each the compiled code's (compiler/emit/emit_cf.cpp):
//  * `m` is the set of running lanes; writes inside an IF or loop are merged under it,
//    writes outside every construct are not (unless main returns early), so lanes that
//    do not run still compute what a derivative of a running lane reads;
//  * an IF or ELSE whose lanes are all off skips its body; a loop runs its body until no
//    lane goes round again;
//  * operands were checked by the compiler: registers within their files, constructs
//    nested at most CLP_INTERP_DEPTH deep, jump targets inside the code.
#ifndef CLPIPE_SHADER_INTERP_H
#define CLPIPE_SHADER_INTERP_H

#include "shader_interp_abi.h"

// The register index of an indirect operand: address register channel + offset, with
// wrapping arithmetic (Emitter::index_expr).
static vi clp_interp_index(vf (*ar)[4], uint w0, uint offset, int shift) {
  const vf a = ar[(w0 >> shift) & 3u][(w0 >> (shift + 2)) & 3u];
  return CLP_AS_VI(CLP_AS_VU(a) + (vu)(offset));
}

// Channel `c` (after swizzle) of a source with its modifiers.
static vf clp_interp_src(ClpShaderIo* io, ClpStageCtx* stage, global const uint* code, uint imm,
                         vf (*tr)[4], vf (*ar)[4], global const uint** cbs, const uint* cbsz,
                         uint pc, int c) {
  const uint w0 = code[pc], w1 = code[pc + 1u];
  const int ch = (int)((w0 >> (4 + 2 * c)) & 3u);
  const bool indirect = ((w0 >> 24) & 1u) != 0u;
  vf x;
#ifdef CLP_STAGE_GEOMETRY
  if (w0 & CLP_INTERP_PER_VERTEX) {
    const uint at = code[pc + 2u];
    const vi vertex =
        (w0 & CLP_INTERP_VERTEX_INDIRECT) ? clp_interp_index(ar, w0, at, 16) : (vi)((int)at);
    x = indirect
            ? clp_vin_gather(stage, vertex, clp_interp_index(ar, w0, w1, 25), ch, CLP_NUM_INPUTS)
            : clp_vertex_input(stage, vertex, (int)w1, ch);
  } else
#endif
      if (indirect) {
    // Per lane, within the registers the compiled code bounds the access by.
    const vi idx = clp_interp_index(ar, w0, w1, 25);
    const uint range = code[pc + 2u];
    const int first = (int)(range & 0xffffu), end = (int)(range >> 16);
    switch (w0 & 15u) {
      case CLP_IF_TEMP:
        x = clp_reg_gather(&tr[first][0], end - first, idx - (vi)(first), ch);
        break;
      case CLP_IF_IN:
        x = clp_reg_gather(&io->in[0][0], end, idx, ch);
        break;
      case CLP_IF_OUT:
        x = clp_reg_gather(&io->out[0][0], end, idx, ch);
        break;
      default: {  // CLP_IF_CONST
        const uint b = (w0 >> 16) & 0xffu;
        x = clp_cb_gather(cbs[b], cbsz[b], idx, ch);
        break;
      }
    }
  } else {
    switch (w0 & 15u) {
      case CLP_IF_TEMP:
        x = tr[w1][ch];
        break;
      case CLP_IF_IN:
        x = io->in[w1][ch];
        break;
      case CLP_IF_OUT:
        x = io->out[w1][ch];
        break;
      case CLP_IF_CONST: {
        const uint b = (w0 >> 16) & 0xffu;
        x = clp_cb_load(cbs[b], cbsz[b], (int)(w1 * 4u + (uint)ch));
        break;
      }
      case CLP_IF_IMM:
        x = (vf)(as_float(code[imm + 4u * w1 + (uint)ch]));
        break;
      default:
        x = clp_system_value(stage, io, (int)w1, ch);
        break;
    }
  }
  const bool negate = ((w0 >> 12) & 1u) != 0u;
  if (((w0 >> 14) & 3u) == CLP_IT_INT) return negate ? CLP_AS_VF((vu)(0u) - CLP_AS_VU(x)) : x;
  if ((w0 >> 13) & 1u) x = fabs(x);
  return negate ? -x : x;
}

// The lanes a re-enable point may turn back on: not killed, not returned, and (as asked)
// not gone through BRK or CONT of the innermost loop (Emitter::enabled_terms).
static vi clp_interp_enabled(vi alive, vi mret, int depth, const uint* kind, const vi* brk,
                             const vi* cont, bool with_break, bool with_cont) {
  vi e = alive & ~mret;
  for (int t = depth - 1; t >= 0; --t) {
    if (kind[t] != CLP_IK_LOOP) continue;
    if (with_break) e &= ~brk[t];
    if (with_cont) e &= ~cont[t];
    break;
  }
  return e;
}

// Writes result `r` to the destination of the instruction at `pc` (its words at pc + 1)
// the way write_channel() does: saturated when bit 8 of its word 0 says so, merged under
// the running lanes inside a construct (or everywhere when main returns early), indirect
// writes always under them.
static void clp_interp_write(ClpShaderIo* io, global const uint* code, uint pc, vf (*tr)[4],
                             vf (*ar)[4], vi m, bool merge, const vf* r) {
  const uint w = code[pc];
  const uint d0 = code[pc + 1u], d1 = code[pc + 2u];
  const uint file = d0 & 15u;
  for (int c = 0; c < 4; ++c) {
    if (!((d0 >> (4 + c)) & 1u)) continue;
    const vf v = ((w >> 8) & 1u) ? clp_sat(r[c]) : r[c];
    if ((d0 >> 8) & 1u) {
      const vi idx = clp_interp_index(ar, d0, d1, 9);
      const uint range = code[pc + 3u];
      const int first = (int)(range & 0xffffu), end = (int)(range >> 16);
      if (file == CLP_IF_OUT)
        clp_reg_scatter(&io->out[0][0], end, idx, c, v, m);
      else
        clp_reg_scatter(&tr[first][0], end - first, idx - (vi)(first), c, v, m);
      continue;
    }
    vf* d = file == CLP_IF_OUT ? &io->out[d1][c] : file == CLP_IF_ADDR ? &ar[d1][c] : &tr[d1][c];
    *d = merge ? select(*d, v, m) : v;
  }
}

#ifdef CLP_INTERP_VIEWS
// The shader's texture units (clp_shader_main of the interpreted body fills it): the
// views and samplers of its draw, and the data of each view unit it has a parameter for.
typedef struct {
  global const ClpTexView* views;
  global const ClpSamplerState* samplers;
  global const uchar* data[CLP_INTERP_VIEWS];
} ClpInterpTex;
#define CLP_INTERP_TEX_PARAM , const ClpInterpTex* tex

// The result of the CLP_IK_TEX instruction at `pc` (shader_interp_abi.h): its plan's
// operands in the ClpTexCoords fields the compiled code (Emitter::tex_emit) fills, the
// same sampling call, and zeros in the lanes that do not run (tex_dispatch).
static void clp_interp_tex(ClpShaderIo* io, ClpStageCtx* stage, global const uint* code, uint imm,
                           vf (*tr)[4], vf (*ar)[4], global const uint** cbs, const uint* cbsz,
                           uint pc, vi m, const ClpInterpTex* tex, vf* r) {
  const uint w = code[pc];
  for (int c = 0; c < 4; ++c)
    r[c] = (vf)(0.0f);
  if (!CLP_ANY(m)) return;
  const uint call = (w >> 12) & 7u;
  const int target = (int)((w >> 16) & 0xffu);
  const uint units = code[pc + 4u];
  const uint vu = units & 0xffffu, su = units >> 16;
  const uint slots = pc + 5u, sources = slots + CLP_INTERP_TEX_SLOT_WORDS;
  vf x[CLP_ITS_COUNT];
  bool has[CLP_ITS_COUNT];
  for (int k = 0; k < CLP_ITS_COUNT; ++k) {
    const uint b = (code[slots + (uint)k / 4u] >> (8 * (k % 4))) & 0xffu;
    has[k] = b != 0u;
    x[k] = has[k] ? clp_interp_src(io, stage, code, imm, tr, ar, cbs, cbsz,
                                   sources + 3u * ((b >> 2) & 7u), (int)(b & 3u))
                  : (vf)(0.0f);
  }
  vi off[3] = {(vi)(0), (vi)(0), (vi)(0)};
  if ((w >> 27) & 1u) {
    const uint o = sources + 3u * ((w >> 9) & 7u);
    for (int k = 0; k < 3; ++k)
      off[k] = CLP_AS_VI(clp_interp_src(io, stage, code, imm, tr, ar, cbs, cbsz, o, k));
  }
  global const ClpTexView* view = tex->views + vu;
  global const uchar* data = tex->data[vu];
  global const ClpSamplerState* smp = su == 0xffffu ? tex->samplers : tex->samplers + su;
  vf res[4];
  if (call == CLP_ITC_SIZE) {
    clp_tex_size(view, target, CLP_AS_VI(x[CLP_ITS_LOD]), res);
  } else if (call == CLP_ITC_FETCH) {
    clp_tex_fetch(view, data, target, CLP_AS_VI(x[CLP_ITS_COORD]), CLP_AS_VI(x[CLP_ITS_COORD + 1]),
                  CLP_AS_VI(x[CLP_ITS_COORD + 2]), CLP_AS_VI(x[CLP_ITS_LOD]), off, m, res);
  } else {
    ClpTexCoords tc;
    if (has[CLP_ITS_DIVISOR]) {
      for (int c = 0; c < 3; ++c)
        x[CLP_ITS_COORD + c] = x[CLP_ITS_COORD + c] / x[CLP_ITS_DIVISOR];
      if ((w >> 28) & 1u) x[CLP_ITS_REF] = x[CLP_ITS_REF] / x[CLP_ITS_DIVISOR];
    }
    tc.s = x[CLP_ITS_COORD];
    tc.t = x[CLP_ITS_COORD + 1];
    tc.r = x[CLP_ITS_COORD + 2];
    tc.layer = x[CLP_ITS_LAYER];
    tc.ref = x[CLP_ITS_REF];
    tc.lod = x[CLP_ITS_LOD];
    for (int c = 0; c < 3; ++c) {
      tc.ddx[c] = x[CLP_ITS_DDX + c];
      tc.ddy[c] = x[CLP_ITS_DDY + c];
#if defined(CLP_STAGE_FRAGMENT) && CLP_LANES >= 4
      // (On 1 lane the compiler encodes no implicit gradients: emit_interpreted.)
      if (((w >> 26) & 1u) && has[CLP_ITS_COORD + c]) {
        tc.ddx[c] = clp_ddx(x[CLP_ITS_COORD + c]);
        tc.ddy[c] = clp_ddy(x[CLP_ITS_COORD + c]);
      }
#endif
      tc.offset[c] = off[c];
    }
    tc.mask = m;
    if (call == CLP_ITC_GATHER) {
      const vi comp = has[CLP_ITS_COMP] ? CLP_AS_VI(x[CLP_ITS_COMP]) : (vi)((int)((w >> 29) & 3u));
      clp_tex_gather(view, data, smp, target, &tc, comp, 0, res);
    } else if (call == CLP_ITC_QUERY_LOD) {
      clp_tex_query_lod(view, smp, target, &tc, res);
    } else {
      clp_tex_sample(view, data, smp, target, (int)((w >> 24) & 3u), &tc, res);
    }
  }
  for (int c = 0; c < 4; ++c)
    r[c] = select((vf)(0.0f), res[c], m);
}
#else
#define CLP_INTERP_TEX_PARAM
#endif

// The OUT register of COLOR[i] (-1: none) of the fragment shader `code` (tile_rt.h).
static int clp_interp_color_reg(global const uint* code, int i) {
  return (int)((code[CLP_INTERP_H_COLOR + (i >> 2)] >> (8 * (i & 3))) & 0xffu) - 1;
}

// The OUT register (-1: none) in byte `byte` of the fragment shader's CLP_INTERP_H_FS.
static int clp_interp_fs_reg(global const uint* code, int byte) {
  return (int)((code[CLP_INTERP_H_FS] >> (8 * byte)) & 0xffu) - 1;
}

static void clp_interp_run(ClpShaderIo* io, ClpStageCtx* stage, global const uint* code,
                           global const uint** cbs, const uint* cbsz CLP_INTERP_TEX_PARAM) {
  // The program serves shaders of up to CLP_INTERP_TEMPS temporaries: only this one's are
  // used (the compiler bounds every access by the shader's count), so only they are zeroed.
  vf tr[CLP_INTERP_TEMPS][4];
  const uint temps = min(code[CLP_INTERP_H_TEMPS], (uint)CLP_INTERP_TEMPS);
  for (uint i = 0; i < temps; ++i)
    tr[i][0] = tr[i][1] = tr[i][2] = tr[i][3] = (vf)(0.0f);
  vf ar[4][4];  // ADDR registers (integers, as bits)
  for (int i = 0; i < 4; ++i)
    ar[i][0] = ar[i][1] = ar[i][2] = ar[i][3] = (vf)(0.0f);
  vi m = io->exec_mask;
  vi alive = io->exec_mask;
  vi mret = (vi)(0);
#ifdef CLP_STAGE_FRAGMENT
  const uint inputs = code[CLP_INTERP_H_INPUTS];
  for (uint k = 0; k < inputs; ++k) {
    const uint a = code[CLP_INTERP_HEADER + 2u * k];
    const uint b = code[CLP_INTERP_HEADER + 2u * k + 1u];
    const int reg = (int)(a & 0xffffu);
    const int chan = (int)(a >> 16);
    io->in[reg][chan] = clp_fs_input(stage, reg, chan, (int)(b & 0xffu), (int)(b >> 16),
                                     (int)((b >> 8) & 0xfu), (int)((b >> 12) & 0xfu));
  }
#endif
  const uint imm = code[CLP_INTERP_H_IMM];
  const bool masked_top = (code[CLP_INTERP_H_FLAGS] & CLP_INTERP_MASKED_TOP) != 0u;
  // Open constructs: IF (save, condition) and loops (save, break, continue, body start).
  uint kind[CLP_INTERP_DEPTH];
  vi save[CLP_INTERP_DEPTH], fa[CLP_INTERP_DEPTH], fb[CLP_INTERP_DEPTH];
  uint body[CLP_INTERP_DEPTH];
  int depth = 0;
  uint pc = code[CLP_INTERP_H_CODE];
  for (;;) {
    const uint w = code[pc];
    const uint k = w & 0xffu;
    if (k == CLP_IK_ALU) {
      const uint ns = (w >> 9) & 7u, reads = (w >> 12) & 15u;
      vf s[16];  // source k, channel c at 4k + c; zero where not read (no result uses it)
      for (uint i = 0; i < 4u; ++i) {
        for (int c = 0; c < 4; ++c) {
          s[4u * i + (uint)c] =
              i < ns && ((reads >> c) & 1u)
                  ? clp_interp_src(io, stage, code, imm, tr, ar, cbs, cbsz, pc + 4u + 3u * i, c)
                  : (vf)(0.0f);
        }
      }
      vf r[4];
      if (w & CLP_INTERP_PRECISE)
        clp_interp_alu_precise((w >> 16) & 0xffu, m, io, stage, s, r);
      else
        clp_interp_alu((w >> 16) & 0xffu, m, io, stage, s, r);
      clp_interp_write(io, code, pc, tr, ar, m, depth > 0 || masked_top, r);
      pc += 4u + 3u * ns;
      continue;
    }
    switch (k) {
#ifdef CLP_INTERP_VIEWS
      case CLP_IK_TEX: {
        vf r[4];
        clp_interp_tex(io, stage, code, imm, tr, ar, cbs, cbsz, pc, m, tex, r);
        clp_interp_write(io, code, pc, tr, ar, m, depth > 0 || masked_top, r);
        pc += 5u + CLP_INTERP_TEX_SLOT_WORDS + 3u * (((w >> 9) & 7u) + ((w >> 27) & 1u));
        break;
      }
#endif
#ifdef CLP_STAGE_GEOMETRY
      case CLP_IK_EMIT:
      case CLP_IK_ENDPRIM: {
        const vu stream =
            CLP_AS_VU(clp_interp_src(io, stage, code, imm, tr, ar, cbs, cbsz, pc + 1u, 0));
        if (k == CLP_IK_EMIT)
          clp_gs_emit(stage, io, m & io->exec_mask, stream);
        else
          clp_gs_end_primitive(stage, io, m & io->exec_mask, stream);
        pc += 4u;
        break;
      }
#endif
      case CLP_IK_IF:
      case CLP_IK_UIF: {
        const vf x = clp_interp_src(io, stage, code, imm, tr, ar, cbs, cbsz, pc + 1u, 0);
        const vi cond =
            k == CLP_IK_IF ? CLP_MASK(x != (vf)(0.0f)) : CLP_MASK(CLP_AS_VU(x) != (vu)(0u));
        kind[depth] = CLP_IK_IF;
        save[depth] = m;
        fa[depth] = cond;
        ++depth;
        m &= cond;
        pc = CLP_ANY(m) ? pc + 5u : code[pc + 4u];
        break;
      }
      case CLP_IK_ELSE: {
        const int t = depth - 1;
        m = save[t] & ~fa[t] & clp_interp_enabled(alive, mret, depth, kind, fa, fb, true, true);
        pc = CLP_ANY(m) ? pc + 2u : code[pc + 1u];
        break;
      }
      case CLP_IK_ENDIF:
        --depth;
        m = save[depth] & clp_interp_enabled(alive, mret, depth, kind, fa, fb, true, true);
        pc += 1u;
        break;
      case CLP_IK_LOOP:
        kind[depth] = CLP_IK_LOOP;
        save[depth] = m;
        fa[depth] = (vi)(0);
        fb[depth] = (vi)(0);
        body[depth] = pc + 1u;
        ++depth;
        pc += 1u;
        break;
      case CLP_IK_ENDLOOP: {
        // Lanes go round again unless they left through BRK, were killed or returned;
        // lanes that took CONT come back.
        const int t = depth - 1;
        const vi outer = alive & ~mret;
        m = save[t] & ~fa[t] & outer;
        if (CLP_ANY(m)) {
          fb[t] = (vi)(0);
          pc = body[t];
        } else {
          m = save[t] & outer;
          --depth;
          pc += 1u;
        }
        break;
      }
      case CLP_IK_BRK:
      case CLP_IK_CONT: {
        int t = depth - 1;
        while (kind[t] != CLP_IK_LOOP)
          --t;
        if (k == CLP_IK_BRK)
          fa[t] |= m;
        else
          fb[t] |= m;
        m = (vi)(0);
        pc += 1u;
        break;
      }
      case CLP_IK_KILL:
      case CLP_IK_KILL_IF: {
        vi kill = m;
        if (k == CLP_IK_KILL_IF) {
          vi any = (vi)(0);
          for (int c = 0; c < 4; ++c) {
            any |= CLP_MASK(clp_interp_src(io, stage, code, imm, tr, ar, cbs, cbsz, pc + 1u, c) <
                            (vf)(0.0f));
          }
          kill = m & any;
        }
        alive &= ~kill;
        io->exec_mask &= ~kill;
        m &= ~kill;
        if (!CLP_ANY(alive)) return;
        pc += k == CLP_IK_KILL_IF ? 4u : 1u;
        break;
      }
      case CLP_IK_RET:
        if (depth == 0) return;
        mret |= m;
        m = (vi)(0);
        pc += 1u;
        break;
      default:  // CLP_IK_END
        return;
    }
  }
}

#endif  // CLPIPE_SHADER_INTERP_H
