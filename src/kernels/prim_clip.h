// Clipping of assembled primitives in clip space (used by prim.cl).
//
// Near and far planes are applied per pixel by the tile pass whenever that gives the
// same result: all vertices in front of the eye (w > 0) and inside the guard band. Then
// the primitive keeps its original vertices, so its edges and attributes are exactly
// those of the unclipped primitive. Primitives that cross w = 0, the guard band or a
// user plane (or clip distance) are clipped geometrically, against every plane they
// cross: a user plane's cut is an edge the fill convention then rasterises (pixel_mask).
//
// Every clip half-space is an affine function of the clip position (or a clip distance
// written by the shader), so a point of the primitive is described by its weights
// (w0, w1, w2) over the original vertices, and its distance to plane p is
// sum_i w_i * D[i][p] with D the original vertices' distances. Clipping therefore only
// ever interpolates weights; positions and attributes follow from them.
//
// Watertightness: an edge crossing a plane is always cut starting from its inside
// vertex, so two primitives sharing the edge compute the same intersection bits.
#ifndef CLPIPE_PRIM_CLIP_H
#define CLPIPE_PRIM_CLIP_H

#include "draw_shared.h"

// Smallest clip w kept: avoids dividing by zero (or by negative w) when depth clipping
// is off and nothing else bounds w.
#define CLP_MIN_W 1e-6f

typedef struct {
  float w[3];  // weights over the original vertices; they sum to 1
  uint edge;   // 1 if the edge from this vertex to the next one is a boundary edge
} ClpClipVert;

// Distances of the (up to 3) original vertices to every active plane.
typedef struct {
  float d[3][CLP_MAX_CLIP_PLANES];
  uint nplanes;
  uint cull;  // 1 if a cull distance culls the whole primitive
  // Planes the tile pass can apply per pixel: near and far. User planes and clip
  // distances cut geometrically, as GL defines: a cut edge is then rasterised with the
  // fill convention like any edge, so a quad clipped to a polygon covers the pixels that
  // polygon covers (a distance interpolated to a pixel centre on the edge may come out on
  // either side; piglit gl-1.0-user-clip-all-planes).
  uint pixel_mask;
} ClpPlaneSet;

static float4 clp_load_reg(global const float4* verts, uint num_outputs, uint vtx, uint reg) {
  return verts[(size_t)vtx * num_outputs + reg];
}

static float clp_reg_comp(float4 v, uint c) {
  return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w;
}

// Fills ps for n original vertices at post-transform indices vtx[0..n).
static void clp_plane_distances(global const ClpDrawParams* dp, global const float4* verts,
                                const uint* vtx, uint n, ClpPlaneSet* ps) {
  const uint no = dp->num_outputs;
  const bool halfz = (dp->flags & CLP_DRAW_CLIP_HALFZ) != 0;
  const float gx0 = -CLP_GUARD_BAND, gy0 = -CLP_GUARD_BAND;
  const float gx1 = (float)dp->fb_width + CLP_GUARD_BAND;
  const float gy1 = (float)dp->fb_height + CLP_GUARD_BAND;
  ps->cull = 0;
  ps->pixel_mask = 0;
  uint ncull_neg[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  uint np = 0;
  for (uint i = 0; i < n; ++i) {
    const float4 p = clp_load_reg(verts, no, vtx[i], dp->pos_reg);
    np = 0;
    // w > 0, then depth planes, then the guard band (x_win, y_win within bounds).
    ps->d[i][np++] = p.w - CLP_MIN_W;
    if (dp->flags & CLP_DRAW_DEPTH_CLIP_NEAR) {
      ps->pixel_mask |= 1u << np;
      ps->d[i][np++] = halfz ? p.z : p.z + p.w;
    }
    if (dp->flags & CLP_DRAW_DEPTH_CLIP_FAR) {
      ps->pixel_mask |= 1u << np;
      ps->d[i][np++] = p.w - p.z;
    }
    ps->d[i][np++] = p.x * dp->vp_scale[0] + (dp->vp_translate[0] - gx0) * p.w;
    ps->d[i][np++] = -p.x * dp->vp_scale[0] + (gx1 - dp->vp_translate[0]) * p.w;
    ps->d[i][np++] = p.y * dp->vp_scale[1] + (dp->vp_translate[1] - gy0) * p.w;
    ps->d[i][np++] = -p.y * dp->vp_scale[1] + (gy1 - dp->vp_translate[1]) * p.w;
    // User clip half-spaces: shader clip distances, else planes dotted with the clip
    // vertex (or the position).
    const bool have_dist = dp->clipdist_reg[0] >= 0;
    float4 cv = dp->clipvertex_reg >= 0 ? clp_load_reg(verts, no, vtx[i], dp->clipvertex_reg) : p;
    for (uint k = 0; k < 8; ++k) {
      if (!(dp->clip_plane_enable & (1u << k))) continue;
      if (have_dist && k >= dp->num_clip_dist) continue;
      if (have_dist) {
        int reg = dp->clipdist_reg[k >> 2];
        ps->d[i][np++] =
            reg >= 0 ? clp_reg_comp(clp_load_reg(verts, no, vtx[i], reg), k & 3) : 0.0f;
      } else {
        ps->d[i][np++] = cv.x * dp->ucp[k][0] + cv.y * dp->ucp[k][1] + cv.z * dp->ucp[k][2] +
                         cv.w * dp->ucp[k][3];
      }
    }
    // Cull distances follow the clip distances in CLIPDIST.
    for (uint c = 0; c < dp->num_cull_dist && c + dp->num_clip_dist < 8; ++c) {
      uint k = dp->num_clip_dist + c;
      int reg = dp->clipdist_reg[k >> 2];
      float d = reg >= 0 ? clp_reg_comp(clp_load_reg(verts, no, vtx[i], reg), k & 3) : 0.0f;
      if (d < 0.0f || isnan(d)) ncull_neg[c]++;
    }
  }
  ps->nplanes = np;
  // Unused original vertices get zero distances: their weights are zero, and 0 * 0 keeps
  // clp_dist free of garbage (0 * NaN would not be).
  for (uint i = n; i < 3; ++i) {
    for (uint p = 0; p < np; ++p)
      ps->d[i][p] = 0.0f;
  }
  for (uint c = 0; c < dp->num_cull_dist && c < 8; ++c) {
    if (ncull_neg[c] == n) ps->cull = 1;
  }
}

static float clp_dist(const ClpPlaneSet* ps, const float* w, uint p) {
  return w[0] * ps->d[0][p] + w[1] * ps->d[1][p] + w[2] * ps->d[2][p];
}

// Outcodes: bit p set when original vertex i is outside plane p.
static uint clp_outcode(const ClpPlaneSet* ps, uint i) {
  uint code = 0;
  for (uint p = 0; p < ps->nplanes; ++p) {
    if (!(ps->d[i][p] >= 0.0f)) code |= 1u << p;  // NaN counts as outside
  }
  return code;
}

// The point at the crossing of plane p on the edge from inside vertex a to outside b.
static void clp_cut(const ClpPlaneSet* ps, const ClpClipVert* in, const ClpClipVert* out, uint p,
                    ClpClipVert* r) {
  const float da = clp_dist(ps, in->w, p), db = clp_dist(ps, out->w, p);
  const float t = da / (da - db);
  for (int i = 0; i < 3; ++i)
    r->w[i] = in->w[i] + t * (out->w[i] - in->w[i]);
}

// Sutherland-Hodgman clipping of polygon v[0..n) against the planes in `mask`.
// Edge flags: an edge created along a clip plane is not a boundary edge.
// Returns the new vertex count (0 when clipped away); v holds the result.
static uint clp_clip_polygon(const ClpPlaneSet* ps, uint mask, ClpClipVert* v, uint n) {
  ClpClipVert tmp[CLP_MAX_CLIP_VERTS];
  for (uint p = 0; p < ps->nplanes && n > 0; ++p) {
    if (!(mask & (1u << p))) continue;
    uint m = 0;
    for (uint i = 0; i < n; ++i) {
      const ClpClipVert* a = &v[i];
      const ClpClipVert* b = &v[(i + 1) % n];
      const bool ain = clp_dist(ps, a->w, p) >= 0.0f;
      const bool bin = clp_dist(ps, b->w, p) >= 0.0f;
      if (ain) tmp[m++] = *a;
      if (ain != bin && m < CLP_MAX_CLIP_VERTS) {
        ClpClipVert c;
        if (ain) {
          clp_cut(ps, a, b, p, &c);
          c.edge = 0;  // leaving: the next edge runs along the plane
        } else {
          clp_cut(ps, b, a, p, &c);
          c.edge = a->edge;  // entering: continues the original edge
        }
        tmp[m++] = c;
      }
    }
    for (uint i = 0; i < m; ++i)
      v[i] = tmp[i];
    n = m >= 3 ? m : 0;
  }
  return n;
}

// Clips the segment between weights a and b; returns false when nothing is left.
static bool clp_clip_segment(const ClpPlaneSet* ps, uint mask, ClpClipVert* a, ClpClipVert* b) {
  for (uint p = 0; p < ps->nplanes; ++p) {
    if (!(mask & (1u << p))) continue;
    const float da = clp_dist(ps, a->w, p), db = clp_dist(ps, b->w, p);
    const bool ain = da >= 0.0f, bin = db >= 0.0f;
    if (!ain && !bin) return false;
    if (ain && bin) continue;
    ClpClipVert c;
    if (ain) {
      clp_cut(ps, a, b, p, &c);
      *b = c;
    } else {
      clp_cut(ps, b, a, p, &c);
      *a = c;
    }
  }
  return true;
}

#endif  // CLPIPE_PRIM_CLIP_H
