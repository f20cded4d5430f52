// Setup of rasterizable triangles (ClpTri) from window-space vertices: snapping, edge
// functions with the fill convention, bounding boxes, depth and attribute planes.
// Points and lines are expanded here into pairs of triangles. Used by prim.cl.
//
// The setup passes run this code twice per triangle, once counting (out == 0) and once
// writing. Both runs see identical inputs and the program is built with FP_CONTRACT
// off, so they make identical decisions: the write pass writes exactly the records the
// count pass promised. (Points and lines run it only when writing: the count pass counts
// their record slots, prim.cl's clp_records_bound.) The writer still carries the room
// left in its slot, so that no record can land outside the buffer whatever happens.
#ifndef CLPIPE_PRIM_EMIT_H
#define CLPIPE_PRIM_EMIT_H

#include "draw_shared.h"
#include "prim_clip.h"

// Where records go: the next slot and how many slots are left.
typedef struct {
  global ClpTri* next;
  uint room;
  uint draw;  // ClpTri.draw of the records
} ClpOut;

// A window-space vertex with its weights over the original vertices.
typedef struct {
  float x, y, z;  // window coordinates (z after the depth range mapping)
  float invw;     // 1 / clip w (1 for window-space positions)
  float w[3];
} ClpWinVert;

static void clp_to_window(global const ClpDrawParams* dp, const float4* pos, const float* w,
                          ClpWinVert* out) {
  const float4 p = w[0] * pos[0] + w[1] * pos[1] + w[2] * pos[2];
  if (dp->flags & CLP_DRAW_WINDOW_SPACE_POSITION) {
    out->x = p.x;
    out->y = p.y;
    out->z = p.z;
    out->invw = 1.0f;
  } else {
    const float iw = 1.0f / p.w;
    out->x = p.x * iw * dp->vp_scale[0] + dp->vp_translate[0];
    out->y = p.y * iw * dp->vp_scale[1] + dp->vp_translate[1];
    out->z = p.z * iw * dp->vp_scale[2] + dp->vp_translate[2];
    out->invw = iw;
  }
  for (int i = 0; i < 3; ++i)
    out->w[i] = w[i];
}

static long clp_snap(float v) {
  return (long)rint(v * (float)CLP_SUBPIXEL_ONE);
}

static long clp_floor_div(long a, long b) {  // b > 0
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// The pixels [x0, y0, x1, y1) of the samples that can lie in the fixed-point rectangle
// [xmin, xmax] x [ymin, ymax], clipped to box; false when none.
static bool clp_pixel_box(global const ClpDrawParams* dp, global const int* box, long xmin,
                          long ymin, long xmax, long ymax, int* out) {
  const long off = (dp->flags & CLP_DRAW_HALF_PIXEL_CENTER) ? CLP_SUBPIXEL_ONE / 2 : 0;
  long bx0 = clp_floor_div(xmin - off + CLP_SUBPIXEL_ONE - 1, CLP_SUBPIXEL_ONE);
  long by0 = clp_floor_div(ymin - off + CLP_SUBPIXEL_ONE - 1, CLP_SUBPIXEL_ONE);
  long bx1 = clp_floor_div(xmax - off, CLP_SUBPIXEL_ONE) + 1;
  long by1 = clp_floor_div(ymax - off, CLP_SUBPIXEL_ONE) + 1;
  if (dp->flags & CLP_DRAW_MULTISAMPLE) {  // samples lie less than half a pixel from centres
    --bx0;
    --by0;
    ++bx1;
    ++by1;
  }
  bx0 = max(bx0, (long)box[0]);
  by0 = max(by0, (long)box[1]);
  bx1 = min(bx1, (long)box[2]);
  by1 = min(by1, (long)box[3]);
  out[0] = (int)bx0;
  out[1] = (int)by0;
  out[2] = (int)bx1;
  out[3] = (int)by1;
  return bx0 < bx1 && by0 < by1;
}

// The next record's slot with its pixel box written, or null when counting (o == 0) or
// when no room is left (no record lands outside the buffer, see above); either way the
// record counts.
static global ClpTri* clp_next_record(ClpOut* o, const int* bbox) {
  if (!o || o->room == 0) return 0;
  global ClpTri* out = o->next;
  o->next++;
  o->room--;
  for (int i = 0; i < 4; ++i)
    out->bbox[i] = bbox[i];
  return out;
}

// An empty record: an empty pixel box, which binning puts in no tile (a record slot the
// primitive left, prim.cl's clp_records_bound).
static void clp_empty_record(ClpOut* o) {
  const int none[4] = {0, 0, 0, 0};
  global ClpTri* out = clp_next_record(o, none);
  if (!out) return;
  out->flags = 0;
  out->draw = o->draw;
}

// Emits one triangle with fixed-point corners X, Y (any orientation). z, invw and the
// weights are per corner; sprite (points) is the centre and size, or 0. Returns 1 if the
// triangle has area and touches box, the [x0, y0, x1, y1) pixel bounds (then it is
// written through o when o != 0), else 0.
static uint clp_emit_fixed(global const ClpDrawParams* dp, global const int* box, long X[3],
                           long Y[3], float z[3], float invw[3], float W[3][3], uint flags,
                           float zoffset, const uint* vert, uint prim_id, const float* sprite,
                           ClpOut* o) {
  long area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
  if (area == 0) return 0;
  int order[3] = {0, 1, 2};
  if (area < 0) {  // make the orientation positive: swap corners 1 and 2
    order[1] = 2;
    order[2] = 1;
  }
  long xs[3], ys[3];
  for (int i = 0; i < 3; ++i) {
    xs[i] = X[order[i]];
    ys[i] = Y[order[i]];
  }
  const long off = (dp->flags & CLP_DRAW_HALF_PIXEL_CENTER) ? CLP_SUBPIXEL_ONE / 2 : 0;
  const long xmin = min(xs[0], min(xs[1], xs[2])), xmax = max(xs[0], max(xs[1], xs[2]));
  const long ymin = min(ys[0], min(ys[1], ys[2])), ymax = max(ys[0], max(ys[1], ys[2]));
  int bbox[4];
  if (!clp_pixel_box(dp, box, xmin, ymin, xmax, ymax, bbox)) return 0;
  global ClpTri* out = clp_next_record(o, bbox);
  if (!out) return 1;
  const bool bottom = (dp->flags & CLP_DRAW_BOTTOM_EDGE_RULE) != 0;
  uint bias = 0;
  for (int e = 0; e < 3; ++e) {
    const int a = e, b = (e + 1) % 3;
    // Inside is A*X + B*Y + C > 0 with (A, B) pointing into the triangle.
    const long A = ys[a] - ys[b], B = xs[b] - xs[a];
    long C = -(A * xs[a] + B * ys[a]);
    // Fill convention: samples exactly on a left edge, or on a top edge (bottom edge
    // with bottom_edge_rule; y grows downwards), are inside.
    const bool incl = A > 0 || (A == 0 && (bottom ? B < 0 : B > 0));
    if (incl) {
      C += 1;  // E >= 0  <=>  E + 1 > 0 for integer E
      bias |= 1u << e;
    }
    out->edge_a[e] = (int)A;
    out->edge_b[e] = (int)B;
    out->edge_c[e] = C + A * off + B * off;  // evaluated at the pixel's sample point
  }
  out->inv_area = 1.0f / (float)(area < 0 ? -area : area);
  for (int k = 0; k < 3; ++k) {
    const int src = order[k];
    out->z[k] = z[src] + zoffset;
    out->inv_w[k] = invw[src];
    for (int i = 0; i < 3; ++i)
      out->w[k][i] = W[src][i];
  }
  for (int i = 0; i < 3; ++i)
    out->vert[i] = vert[i];
  out->flags = flags | (bias << CLP_TRI_BIAS_SHIFT) |
               ((dp->flags & CLP_DRAW_MULTISAMPLE) ? CLP_TRI_SAMPLES : 0u);
  out->prim_id = prim_id;
  for (int i = 0; i < 3; ++i)
    out->point[i] = sprite ? sprite[i] : 0.0f;
  out->draw = o->draw;
  out->pad = 0;
  return 1;
}

// Emits a triangle from three window vertices. Caller decided facing and culling.
static uint clp_emit_tri(global const ClpDrawParams* dp, const ClpWinVert* v0, const ClpWinVert* v1,
                         const ClpWinVert* v2, uint flags, float zoffset, const uint* vert,
                         uint prim_id, ClpOut* o) {
  const ClpWinVert* v[3] = {v0, v1, v2};
  long X[3], Y[3];
  float z[3], iw[3], W[3][3];
  for (int i = 0; i < 3; ++i) {
    X[i] = clp_snap(v[i]->x);
    Y[i] = clp_snap(v[i]->y);
    z[i] = v[i]->z;
    iw[i] = v[i]->invw;
    for (int k = 0; k < 3; ++k)
      W[i][k] = v[i]->w[k];
  }
  return clp_emit_fixed(dp, dp->tri_box, X, Y, z, iw, W, flags, zoffset, vert, prim_id, 0, o);
}

// Emits the quad (c0, c1, c2, c3) as two triangles sharing the diagonal c0-c2. Corners
// 0 and 3 take the attributes of `a`, corners 1 and 2 those of `b` (points pass a == b).
static uint clp_emit_quad(global const ClpDrawParams* dp, long X[4], long Y[4], const ClpWinVert* a,
                          const ClpWinVert* b, uint flags, float zoffset, const uint* vert,
                          uint prim_id, const float* sprite, ClpOut* o) {
  const ClpWinVert* corner[4] = {a, b, b, a};
  uint n = 0;
  for (int t = 0; t < 2; ++t) {
    const int idx[3] = {0, t == 0 ? 1 : 2, t == 0 ? 2 : 3};
    long x[3], y[3];
    float z[3], iw[3], W[3][3];
    for (int i = 0; i < 3; ++i) {
      const ClpWinVert* c = corner[idx[i]];
      x[i] = X[idx[i]];
      y[i] = Y[idx[i]];
      z[i] = c->z;
      iw[i] = c->invw;
      for (int k = 0; k < 3; ++k)
        W[i][k] = c->w[k];
    }
    n += clp_emit_fixed(dp, dp->scissor, x, y, z, iw, W, flags, zoffset, vert, prim_id, sprite, o);
  }
  return n;
}

// A line from a to b, `width` pixels wide, as a parallelogram: columns (x-major) or rows
// (y-major) of `width` pixels. The start pixel is drawn and the end pixel is not, unless
// last_pixel (GL's diamond-exit rule for lines between pixel centres). With multisample
// rasterization, the rectangle GL asks for then: `width` wide across the segment, its
// ends at a and b.
static uint clp_emit_line(global const ClpDrawParams* dp, const ClpWinVert* a, const ClpWinVert* b,
                          float width, uint flags, float zoffset, const uint* vert, uint prim_id,
                          ClpOut* o) {
  long XA = clp_snap(a->x), YA = clp_snap(a->y), XB = clp_snap(b->x), YB = clp_snap(b->y);
  const long h = (long)rint(width * 0.5f * (float)CLP_SUBPIXEL_ONE);
  if (h <= 0 || (XA == XB && YA == YB)) return 0;
  if (dp->flags & CLP_DRAW_MULTISAMPLE) {
    const float dx = b->x - a->x, dy = b->y - a->y;
    const float s = 0.5f * width / sqrt(dx * dx + dy * dy);
    const float nx = -dy * s, ny = dx * s;  // half the width, across the segment
    long X[4] = {clp_snap(a->x + nx), clp_snap(b->x + nx), clp_snap(b->x - nx),
                 clp_snap(a->x - nx)};
    long Y[4] = {clp_snap(a->y + ny), clp_snap(b->y + ny), clp_snap(b->y - ny),
                 clp_snap(a->y - ny)};
    return clp_emit_quad(dp, X, Y, a, b, flags, zoffset, vert, prim_id, 0, o);
  }
  const bool last = (dp->flags & CLP_DRAW_LINE_LAST_PIXEL) != 0;
  long X[4], Y[4];
  if (abs(XB - XA) >= abs(YB - YA)) {
    // Samples x in [start, end): left edges are inside, right edges are not; a line
    // drawn leftwards shifts both ends by one subpixel to keep the start inclusive.
    long s = XA, e = XB;
    if (XA > XB) {
      s += 1;
      e += 1;
    }
    if (last) e += XA < XB ? CLP_SUBPIXEL_ONE : -CLP_SUBPIXEL_ONE;
    X[0] = s;
    Y[0] = YA - h;
    X[1] = e;
    Y[1] = YB - h;
    X[2] = e;
    Y[2] = YB + h;
    X[3] = s;
    Y[3] = YA + h;
  } else {
    // Rows: top edges are inside (bottom edges with bottom_edge_rule).
    const bool bottom = (dp->flags & CLP_DRAW_BOTTOM_EDGE_RULE) != 0;
    long s = YA, e = YB;
    if (YA > YB) {
      s += 1;
      e += 1;
    }
    if (bottom) {
      s -= 1;
      e -= 1;
    }
    if (last) e += YA < YB ? CLP_SUBPIXEL_ONE : -CLP_SUBPIXEL_ONE;
    X[0] = XA - h;
    Y[0] = s;
    X[1] = XB - h;
    Y[1] = e;
    X[2] = XB + h;
    Y[2] = e;
    X[3] = XA + h;
    Y[3] = s;
  }
  return clp_emit_quad(dp, X, Y, a, b, flags, zoffset, vert, prim_id, 0, o);
}

// A point of whole pixels (neither a sprite nor multisampled: prim.cl's clp_point_exact)
// from its corners X[0], Y[0] and X[2], Y[2]. clp_snap_point_centre put those on pixel
// edges, between sample points, so the samples inside the square are exactly those of
// its pixel box: one record whose edge functions are positive constants (every sample
// inside; bin.cl and the tile pass clip to the box) stands for the square's two
// triangles, with half their setup, binning and tile work. Its corners are the same
// vertex, and its barycentrics the exact constants 1/4, 1/4, 1/2 (corner k takes edge
// k + 1's constant, of 2, 1, 1, times inv_area 1/4), whose sum is exactly 1.
static uint clp_emit_square(global const ClpDrawParams* dp, const long X[4], const long Y[4],
                            const ClpWinVert* v, uint flags, float zoffset, const uint* vert,
                            uint prim_id, const float* sprite, ClpOut* o) {
  int bbox[4];
  if (!clp_pixel_box(dp, dp->scissor, X[0], Y[0], X[2], Y[2], bbox)) return 0;
  global ClpTri* out = clp_next_record(o, bbox);
  if (!out) return 1;
  for (int e = 0; e < 3; ++e) {
    out->edge_a[e] = 0;
    out->edge_b[e] = 0;
    out->edge_c[e] = e == 0 ? 2 : 1;
  }
  out->inv_area = 0.25f;
  for (int k = 0; k < 3; ++k) {
    out->z[k] = v->z + zoffset;
    out->inv_w[k] = v->invw;
    for (int i = 0; i < 3; ++i)
      out->w[k][i] = v->w[i];
    out->vert[k] = vert[k];
    out->point[k] = sprite[k];
  }
  out->flags = flags;
  out->prim_id = prim_id;
  out->draw = o->draw;
  out->pad = 0;
  return 1;
}

// A point sprite / square point of `size` pixels centred at v.
static uint clp_emit_point(global const ClpDrawParams* dp, const ClpWinVert* v, float size,
                           uint flags, float zoffset, const uint* vert, uint prim_id, ClpOut* o) {
  if (!(size > 0.0f)) return 0;
  const float r = size * 0.5f;
  long X[4], Y[4];
  X[0] = clp_snap(v->x - r);
  Y[0] = clp_snap(v->y - r);
  X[2] = clp_snap(v->x + r);
  Y[2] = clp_snap(v->y + r);
  X[1] = X[2];
  Y[1] = Y[0];
  X[3] = X[0];
  Y[3] = Y[2];
  const float sprite[3] = {v->x, v->y, size};
  if (!(dp->flags & (CLP_DRAW_POINT_QUAD_RAST | CLP_DRAW_MULTISAMPLE)))
    return clp_emit_square(dp, X, Y, v, flags | CLP_TRI_SPRITE, zoffset, vert, prim_id, sprite, o);
  // GL: with multisample rasterization a point that is not a sprite covers the samples
  // inside the circle of its size; the quad is its bounding square.
  if ((dp->flags & CLP_DRAW_MULTISAMPLE) && !(dp->flags & CLP_DRAW_POINT_QUAD_RAST))
    flags |= CLP_TRI_ROUND;
  return clp_emit_quad(dp, X, Y, v, v, flags | CLP_TRI_SPRITE, zoffset, vert, prim_id, sprite, o);
}

#endif  // CLPIPE_PRIM_EMIT_H
