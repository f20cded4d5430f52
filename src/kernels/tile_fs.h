// The fragment-shader side of the tile pass: the stage context of one quad against one
// primitive, and the hooks of shader_abi.h that generated fragment shaders call
// (inputs, interpolation at offsets, system values). Included by tile.cl after the
// generated shader body and its CLP_KEYED_* state accessors.
#ifndef CLPIPE_TILE_FS_H
#define CLPIPE_TILE_FS_H

#include "draw_shared.h"
#include "raster_shared.h"

// TGSI semantic numbers (tgsi.md §6.3) the hooks handle.
#define CLP_SEM_POSITION 0
#define CLP_SEM_COLOR 1
#define CLP_SEM_BCOLOR 2
#define CLP_SEM_FACE 7
#define CLP_SEM_PRIMID 9
#define CLP_SEM_TEXCOORD 19
#define CLP_SEM_PCOORD 20
#define CLP_SEM_SAMPLEID 23
#define CLP_SEM_SAMPLEPOS 24
#define CLP_SEM_SAMPLEMASK 25
#define CLP_SEM_HELPER_INVOCATION 34

#ifndef CLP_FS_INTERP_MODES
#define CLP_FS_INTERP_MODES 0xf
#endif
// Whether clp_varying can use the perspective-correct weights (PERSPECTIVE, and COLOR
// unless flat-shaded) or the linear ones (LINEAR), from the modes the shader declares.
#define CLP_FS_NEEDS_LP ((CLP_FS_INTERP_MODES & 0xcu) != 0u)
#define CLP_FS_NEEDS_LL ((CLP_FS_INTERP_MODES & 0x2u) != 0u)

struct ClpStageCtx {
  global const ClpRasterParams* rp;
  global const ClpDrawParams* dp;
  // The output rows of the corners (0-2) and of the provoking vertex (3, flat values),
  // found once per block rather than once per varying channel.
  global const float4* vrow[4];
  uint flags;  // ClpTri.flags
  uint prim_id;
  float sprite[3];  // point centre and size (sprites)
  vf px, py;        // pixel coordinates of the lanes (integers)
  vf b[3];          // screen-space barycentrics of the corners at the sample
  vf lp[3], ll[3];  // perspective-correct and linear weights of the original vertices
                    // (each only where CLP_FS_NEEDS_LP / _LL or per-pixel clipping uses it)
  vf inv_w;         // interpolated 1 / w
  vf z;             // window depth of the fragment (after clamping)
  vi covered;       // lanes the invocation shades for (the others are helpers)
  // The sample a per-sample invocation shades (0 and the pixel centre otherwise), and its
  // position from the centre in pixels: b, lp, ll, inv_w and z above are evaluated there.
  uint sample;
  float sample_dx, sample_dy;
  // Bit s: the lane's sample s is covered and shaded by this invocation (SAMPLEMASK).
  vi sample_cov;
  // The framebuffer's samples when the invocation shades a whole multisampled pixel at
  // its centre: centroid inputs move to the first covered sample of a lane whose samples
  // are not all covered. 0: the centroid is the evaluation point above.
  uint centroid_samples;
  // Corner data and edge gradients, for interpolation elsewhere than at the sample:
  // w_c are the corners' clip-space weights over the original vertices, wl_c their
  // screen-space ones (noperspective; only where CLP_FS_NEEDS_LL).
  float inv_w_c[3], w_c[3][3], wl_c[3][3];
  float grad_x[3], grad_y[3];  // d b_k / d pixel
};

// Weights of the original vertices from corner barycentrics b: the perspective-correct
// ones when need_lp, the linear ones when need_ll (the others are left unset).
static void clp_weights(const ClpStageCtx* c, const vf* b, vf* lp, vf* ll, vf* inv_w, bool need_lp,
                        bool need_ll) {
  vf q[3];
#pragma unroll
  for (int k = 0; k < 3; ++k)
    q[k] = b[k] * c->inv_w_c[k];
  const vf sum = q[0] + q[1] + q[2];
  *inv_w = sum;
  if (need_lp) {
    const vf r = (vf)(1.0f) / sum;
#pragma unroll
    for (int i = 0; i < 3; ++i)
      lp[i] = (q[0] * c->w_c[0][i] + q[1] * c->w_c[1][i] + q[2] * c->w_c[2][i]) * r;
  }
  if (need_ll) {
#pragma unroll
    for (int i = 0; i < 3; ++i)
      ll[i] = b[0] * c->wl_c[0][i] + b[1] * c->wl_c[1][i] + b[2] * c->wl_c[2][i];
  }
}

// Sample position of the lanes (pixel centre per half_pixel_center).
static vf clp_sample_x(const ClpStageCtx* c) {
  return c->px + ((CLP_KEYED_FLAGS(c->rp) & CLP_RAST_HALF_PIXEL_CENTER) ? 0.5f : 0.0f);
}
static vf clp_sample_y(const ClpStageCtx* c) {
  return c->py + ((CLP_KEYED_FLAGS(c->rp) & CLP_RAST_HALF_PIXEL_CENTER) ? 0.5f : 0.0f);
}

// Channel `chan` of output `reg` of vertex row `row` (ClpStageCtx::vrow).
static float clp_vertex_value(const ClpStageCtx* c, int row, int reg, int chan, bool clamp01) {
  const float4 r = c->vrow[row][reg];
  float x = chan == 0 ? r.x : chan == 1 ? r.y : chan == 2 ? r.z : r.w;
  if (clamp01) x = clamp(x, 0.0f, 1.0f);
  return x;
}

// Point sprite coordinate (s, t, 0, 1) of the lanes.
static vf clp_sprite_coord(const ClpStageCtx* c, int chan) {
  if (chan >= 2) return (vf)(chan == 3 ? 1.0f : 0.0f);
  if (!(c->flags & CLP_TRI_SPRITE)) return (vf)(0.0f);
  const float size = c->sprite[2];
  if (chan == 0) return (clp_sample_x(c) - (c->sprite[0] - 0.5f * size)) / size;
  vf t = (clp_sample_y(c) - (c->sprite[1] - 0.5f * size)) / size;
  return (CLP_KEYED_FLAGS(c->rp) & CLP_RAST_SPRITE_LOWER_LEFT) ? (vf)(1.0f) - t : t;
}

// gl_FragCoord channel `chan` per the shader's FS_COORD_* properties (raster flags).
static vf clp_frag_coord(const ClpStageCtx* c, int chan) {
  const uint rflags = CLP_KEYED_FLAGS(c->rp);
  const float centre = (rflags & CLP_RAST_FS_COORD_PIXEL_CENTER_INTEGER) ? 0.0f : 0.5f;
  switch (chan) {
    case 0:
      return c->px + centre;
    case 1:
      return (rflags & CLP_RAST_FS_COORD_LOWER_LEFT)
                 ? (vf)((float)c->rp->fb_height) - c->py - 1.0f + centre
                 : c->py + centre;
    case 2:
      return c->z;
    default:
      return c->inv_w;
  }
}

// The value of a linked varying with barycentrics (lp, ll).
static vf clp_varying(const ClpStageCtx* c, int reg, int chan, int interp, const vf* lp,
                      const vf* ll) {
  global const ClpFsLink* link = &c->rp->link[reg];
  int src = link->src_reg;
  int chan_shift = CLP_LINK_CHAN_SHIFT;
  const bool color = (link->flags & CLP_LINK_COLOR) != 0;
  if (color && (CLP_KEYED_FLAGS(c->rp) & CLP_RAST_LIGHT_TWOSIDE) && !(c->flags & CLP_TRI_FRONT) &&
      link->bcolor_reg >= 0) {
    src = link->bcolor_reg;
    chan_shift = CLP_LINK_BCOLOR_CHAN_SHIFT;
  }
  if (src < 0 || !(link->flags & (1u << (chan_shift + chan)))) {
    return (vf)(link->def[chan]);
  }
  const bool clamp01 = color && (CLP_KEYED_FLAGS(c->rp) & CLP_RAST_CLAMP_VERTEX_COLOR);
  // TGSI interpolate modes: 0 CONSTANT, 1 LINEAR, 2 PERSPECTIVE, 3 COLOR.
  const bool flat = interp == 0 || (interp == 3 && (CLP_KEYED_FLAGS(c->rp) & CLP_RAST_FLATSHADE));
  if (flat) return (vf)(clp_vertex_value(c, 3, src, chan, clamp01));
  const float v0 = clp_vertex_value(c, 0, src, chan, clamp01);
  const float v1 = clp_vertex_value(c, 1, src, chan, clamp01);
  const float v2 = clp_vertex_value(c, 2, src, chan, clamp01);
  const vf* l = interp == 1 ? ll : lp;
  // Relative to vertex 0, so that a value equal at all vertices is reproduced exactly.
  return v0 + l[1] * (v1 - v0) + l[2] * (v2 - v0);
}

// clp_sample_pos16 of every lane's sample index.
static vu clp_sample_pos16_v(uint samples, vu i) {
  vu word = (vu)(0x88u);
  if (samples == 2) word = (vu)(CLP_SAMPLE_POS16_2) >> ((i & (vu)(1u)) * 8u);
  if (samples == 4) word = (vu)(CLP_SAMPLE_POS16_4) >> ((i & (vu)(3u)) * 8u);
  if (samples == 8) {
    word = select((vu)(CLP_SAMPLE_POS16_8_LO), (vu)(CLP_SAMPLE_POS16_8_HI),
                  CLP_AS_VU(CLP_MASK((i & (vu)(4u)) != (vu)(0u)))) >>
           ((i & (vu)(3u)) * 8u);
  }
  return word & (vu)(0xffu);
}

// clp_varying at (dx, dy) pixels from the invocation's evaluation point.
static vf clp_varying_at(const ClpStageCtx* c, int reg, int chan, int interp, vf dx, vf dy) {
  vf b[3], lp[3], ll[3], inv_w;
#pragma unroll
  for (int k = 0; k < 3; ++k)
    b[k] = c->b[k] + c->grad_x[k] * dx + c->grad_y[k] * dy;
  clp_weights(c, b, lp, ll, &inv_w, CLP_FS_NEEDS_LP, CLP_FS_NEEDS_LL);
  return clp_varying(c, reg, chan, interp, lp, ll);
}

// clp_varying at the centroid of a pixel shaded whole (c->centroid_samples): the centre
// where every sample is covered (or none: a helper lane), else the lowest covered sample.
static vf clp_varying_centroid(const ClpStageCtx* c, int reg, int chan, int interp) {
  const uint n = c->centroid_samples;
  const vu cov = CLP_AS_VU(c->sample_cov);
  vu first = (vu)(0u);
  for (int s = (int)n - 1; s >= 0; --s)
    first =
        select(first, (vu)((uint)s), CLP_AS_VU(CLP_MASK((cov >> (uint)s & (vu)(1u)) != (vu)(0u))));
  const vu pos = clp_sample_pos16_v(n, first);
  const vi whole = CLP_MASK(cov == (vu)((1u << n) - 1u)) | CLP_MASK(cov == (vu)(0u));
  const vf dx = select(CLP_CONVERT_VF(pos & (vu)(15u)) * (1.0f / 16.0f) - 0.5f, (vf)(0.0f), whole);
  const vf dy = select(CLP_CONVERT_VF(pos >> 4) * (1.0f / 16.0f) - 0.5f, (vf)(0.0f), whole);
  return clp_varying_at(c, reg, chan, interp, dx, dy);
}

static vf clp_fs_input(ClpStageCtx* c, int reg, int chan, int semantic, int semantic_index,
                       int interp, int location) {
  switch (semantic) {
    case CLP_SEM_POSITION:
      return clp_frag_coord(c, chan);
    case CLP_SEM_FACE:
      return chan == 0 ? (vf)((c->flags & CLP_TRI_FRONT) ? 1.0f : -1.0f)
                       : (vf)(chan == 3 ? 1.0f : 0.0f);
    case CLP_SEM_PCOORD:
      return clp_sprite_coord(c, chan);
    case CLP_SEM_PRIMID:
      if (c->rp->link[reg].src_reg < 0) {
        return chan == 0 ? CLP_AS_VF((vi)((int)c->prim_id)) : (vf)(0.0f);
      }
      break;
    default:
      break;
  }
  if ((c->rp->link[reg].flags & CLP_LINK_SPRITE) && (c->flags & CLP_TRI_SPRITE)) {
    return clp_sprite_coord(c, chan);
  }
  if (location == 1 && c->centroid_samples) return clp_varying_centroid(c, reg, chan, interp);
  // The centre, or the sample of a per-sample invocation.
  return clp_varying(c, reg, chan, interp, c->lp, c->ll);
}

static vf clp_fs_interp_at(ClpStageCtx* c, int reg, int chan, int semantic, int semantic_index,
                           int interp, int where, vi sample, vf off_x, vf off_y) {
  if (semantic == CLP_SEM_POSITION || semantic == CLP_SEM_FACE || semantic == CLP_SEM_PCOORD ||
      semantic == CLP_SEM_PRIMID) {
    return clp_fs_input(c, reg, chan, semantic, semantic_index, interp, 0);
  }
  // where: 0 centroid, 1 sample, 2 offset (from the pixel centre). A per-sample
  // invocation covers the one sample it is evaluated at, which is its centroid.
  if (where == 0) {
    if (c->centroid_samples) return clp_varying_centroid(c, reg, chan, interp);
    return clp_varying(c, reg, chan, interp, c->lp, c->ll);
  }
  vf dx = off_x, dy = off_y;
  if (where == 1) {
    const vu pos = clp_sample_pos16_v(c->rp->samples, CLP_AS_VU(sample));
    dx = CLP_CONVERT_VF(pos & (vu)(15u)) * (1.0f / 16.0f) - 0.5f;
    dy = CLP_CONVERT_VF(pos >> 4) * (1.0f / 16.0f) - 0.5f;
  }
  return clp_varying_at(c, reg, chan, interp, dx - c->sample_dx, dy - c->sample_dy);
}

static uint clp_resource_index(ClpStageCtx* s) {
  return s->dp->fs_ri_index;
}

static vf clp_system_value(ClpStageCtx* c, ClpShaderIo* io, int semantic, int chan) {
  switch (semantic) {
    case CLP_SEM_POSITION:
      return clp_frag_coord(c, chan);
    case CLP_SEM_FACE:  // the system-value form is an integer boolean
      return CLP_AS_VF((vi)((c->flags & CLP_TRI_FRONT) ? -1 : 0));
    case CLP_SEM_PRIMID:
      return CLP_AS_VF((vi)((int)c->prim_id));
    case CLP_SEM_SAMPLEID:
      return CLP_AS_VF((vi)((int)c->sample));
    case CLP_SEM_SAMPLEPOS:
      return (vf)(chan == 0 ? 0.5f + c->sample_dx : chan == 1 ? 0.5f + c->sample_dy : 0.0f);
    case CLP_SEM_SAMPLEMASK:
      return CLP_AS_VF(chan == 0 ? c->sample_cov : (vi)(0));
    case CLP_SEM_HELPER_INVOCATION:
      return CLP_AS_VF(~c->covered);
    default:
      return (vf)(0.0f);
  }
}

#endif  // CLPIPE_TILE_FS_H
