// The tile pass's view of one primitive over a block of lanes: coverage (edges, round
// points), barycentric planes, fragment depth, per-pixel clipping and the fragment stage's
// context (ClpStageCtx, tile_fs.h). Included by tile.cl after tile_fs.h and its lane
// layout (CLP_LANE_DX/DY, vlong).
#ifndef CLPIPE_TILE_PRIM_H
#define CLPIPE_TILE_PRIM_H

// The lanes of a block inside an edge E(x, y) = a x + b y + c > 0, from e0 = E(X, Y) at the
// block's top-left pixel (exact in 64 bits: every term fits, draw_shared.h) and the edge's
// steps per pixel A, B: lane l has E = e0 + dx_l A + dy_l B. A block the edge leaves whole
// on one side is decided from its extreme lanes, without lane vectors. A block the edge
// crosses has every lane's E between those extremes, lo <= 0 < hi: when hi - lo < 2^31,
// every partial sum below lies in (-2^31, 2^31) and 32-bit lanes are exact; else 64-bit.
static vi clp_edge_cover(long e0, long A, long B) {
  const long lo = e0 + min(A, 0L) * (CLP_BLOCK_W - 1) + min(B, 0L) * (CLP_BLOCK_H - 1);
  const long hi = e0 + max(A, 0L) * (CLP_BLOCK_W - 1) + max(B, 0L) * (CLP_BLOCK_H - 1);
  if (lo > 0) return (vi)(-1);
  if (hi <= 0) return (vi)(0);
  if (hi - lo < 0x7fffffffL) {
    const vi E = (vi)((int)e0) + CLP_LANE_DX * (vi)((int)A) + CLP_LANE_DY * (vi)((int)B);
    return CLP_MASK(E > (vi)(0));
  }
  const vlong E =
      (vlong)(e0) + CLP_CONVERT_VLONG(CLP_LANE_DX) * A + CLP_CONVERT_VLONG(CLP_LANE_DY) * B;
  return CLP_MASK(CLP_CONVERT_VI(E > (vlong)(0)));
}

// The planes of the corner barycentrics over a block: b_k = base[k] + dx grad_x[k] +
// dy grad_y[k] at the lane (dx, dy) pixels from the block's top-left one.
typedef struct {
  float base[3], grad_x[3], grad_y[3];
} ClpBaryPlanes;

// p with its base moved from the pixel centres to the sample whose edge functions differ
// from the centre's by eo (edge e at the block's top-left pixel: corner[e]; fill bias
// bias[k] of corner k), evaluated from the exact sums like the centre's. Returns out.
static ClpBaryPlanes* clp_bary_at(const ClpBaryPlanes* p, global const ClpTri* t,
                                  const long* corner, const long* bias, const long* eo,
                                  ClpBaryPlanes* out) {
  *out = *p;
#pragma unroll
  for (int k = 0; k < 3; ++k) {
    const int e = k == 2 ? 0 : k + 1;
    out->base[k] = (float)(corner[e] + eo[e] - bias[k]) * t->inv_area;
  }
  return out;
}

// The corner barycentrics b of the lanes from their planes p.
static void clp_bary_lanes(const ClpBaryPlanes* p, vf* b) {
#pragma unroll
  for (int k = 0; k < 3; ++k) {
    b[k] = (vf)(p->base[k]) + CLP_CONVERT_VF(CLP_LANE_DX) * p->grad_x[k] +
           CLP_CONVERT_VF(CLP_LANE_DY) * p->grad_y[k];
  }
}

// Fragment depth of the lanes, a plane over the block, with depth clamp (or the [0, 1]
// clamp of fixed-point buffers).
static vf clp_fragment_z(global const ClpRasterParams* rp, global const ClpTri* t,
                         const ClpBaryPlanes* p) {
  // Relative to corner 0, so that a constant depth stays exactly constant (every term
  // but z[0] is then 0).
  const float dz1 = t->z[1] - t->z[0], dz2 = t->z[2] - t->z[0];
  const float z0 = t->z[0] + p->base[1] * dz1 + p->base[2] * dz2;
  const float zx = p->grad_x[1] * dz1 + p->grad_x[2] * dz2;
  const float zy = p->grad_y[1] * dz1 + p->grad_y[2] * dz2;
  vf z = (vf)(z0) + CLP_CONVERT_VF(CLP_LANE_DX) * zx + CLP_CONVERT_VF(CLP_LANE_DY) * zy;
  if (CLP_KEYED_FLAGS(rp) & CLP_RAST_DEPTH_CLAMP)
    z = clamp(z, rp->depth_clamp_min, rp->depth_clamp_max);
  return clamp(z, 0.0f, 1.0f);
}

// A round point (CLP_TRI_ROUND): the lanes whose sample s lies inside the circle of the
// point's size around its centre (window coordinates, t->point).
static vi clp_round_point_cover(global const ClpDrawParams* dp, global const ClpTri* t, vi lx,
                                vi ly, int s) {
  const float off = (dp->flags & CLP_DRAW_HALF_PIXEL_CENTER) ? 0.5f : 0.0f;
  const float r = 0.5f * t->point[2];
  const vf dx =
      CLP_CONVERT_VF(lx) + (off + (float)clp_sample_offset(s, 0) / CLP_SUBPIXEL_ONE - t->point[0]);
  const vf dy =
      CLP_CONVERT_VF(ly) + (off + (float)clp_sample_offset(s, 1) / CLP_SUBPIXEL_ONE - t->point[1]);
  return CLP_MASK(dx * dx + dy * dy < (vf)(r * r));
}

// The fragment stage's view of primitive t, first what holds for every block (p: the
// planes' gradients)...
static void clp_stage_ctx_prim(ClpStageCtx* ctx, global const ClpRasterParams* rp,
                               global const ClpDrawParams* dp, global const float4* verts,
                               global const ClpTri* t, const ClpBaryPlanes* p) {
  ctx->rp = rp;
  ctx->dp = dp;
  const uint no = dp->num_outputs;
#pragma unroll
  for (int v = 0; v < 3; ++v) {
    ctx->vrow[v] = verts + (size_t)t->vert[v] * no;
  }
  ctx->vrow[3] = verts + (size_t)t->vert[(t->flags >> CLP_TRI_PROVOKING_SHIFT) & 3u] * no;
  ctx->flags = t->flags;
  ctx->prim_id = t->prim_id;
#pragma unroll
  for (int k = 0; k < 3; ++k) {
    ctx->sprite[k] = t->point[k];
    ctx->inv_w_c[k] = t->inv_w[k];
#pragma unroll
    for (int i = 0; i < 3; ++i)
      ctx->w_c[k][i] = t->w[k][i];
    ctx->grad_x[k] = p->grad_x[k];
    ctx->grad_y[k] = p->grad_y[k];
  }
  if (CLP_FS_NEEDS_LL) {
    // A corner a clip plane made lies at clip-space weights W over the original vertices,
    // whose window positions are P_i / w_i: it is at screen-space weights W_i w_i / w
    // (w = sum W_i w_i, its own clip w). A corner that is an original vertex keeps its
    // weights exactly: 1 (w_i / w_i) and zeros.
    float wv[3];
#pragma unroll
    for (int i = 0; i < 3; ++i) {
      wv[i] = (dp->flags & CLP_DRAW_WINDOW_SPACE_POSITION) ? 1.0f : ctx->vrow[i][dp->pos_reg].w;
    }
#pragma unroll
    for (int k = 0; k < 3; ++k) {
      const float w = t->w[k][0] * wv[0] + t->w[k][1] * wv[1] + t->w[k][2] * wv[2];
#pragma unroll
      for (int i = 0; i < 3; ++i)
        ctx->wl_c[k][i] = t->w[k][i] * wv[i] / w;
    }
  }
}

// ... then at the block with pixels (lx, ly), evaluated at sample `sample` (-1: the
// pixel centre): corner barycentrics (planes p, at that point), fragment depth z, the
// interpolation weights derived from them, and the lanes' covered samples (bit s of
// sample_cov; centroid_samples: ClpStageCtx).
static void clp_stage_ctx_block(ClpStageCtx* ctx, const ClpBaryPlanes* p, vi lx, vi ly, vf z,
                                int sample, vi sample_cov, uint centroid_samples) {
  ctx->sample = sample < 0 ? 0u : (uint)sample;
  ctx->sample_dx =
      sample < 0 ? 0.0f : (float)clp_sample_offset(sample, 0) / (float)CLP_SUBPIXEL_ONE;
  ctx->sample_dy =
      sample < 0 ? 0.0f : (float)clp_sample_offset(sample, 1) / (float)CLP_SUBPIXEL_ONE;
  ctx->sample_cov = sample_cov;
  ctx->centroid_samples = centroid_samples;
  ctx->px = CLP_CONVERT_VF(lx);
  ctx->py = CLP_CONVERT_VF(ly);
  clp_bary_lanes(p, ctx->b);
  clp_weights(ctx, ctx->b, ctx->lp, ctx->ll, &ctx->inv_w, CLP_FS_NEEDS_LP, CLP_FS_NEEDS_LL);
  ctx->z = z;
}

// Per-pixel clipping (prim_clip.h): the lanes whose clip distances to the near and far
// planes, interpolated perspective-correct at the points of planes p (the pixel centres,
// or a sample of each pixel), are >= 0; user planes cut primitives geometrically. ctx
// holds the primitive (clp_stage_ctx_prim).
static vi clp_pixel_clip(const ClpStageCtx* ctx, const ClpBaryPlanes* p) {
  global const ClpDrawParams* dp = ctx->dp;
  vf b[3], lp[3], inv_w;
  clp_bary_lanes(p, b);
  clp_weights(ctx, b, lp, 0, &inv_w, true, false);
  float4 pos[3];
  for (int i = 0; i < 3; ++i)
    pos[i] = ctx->vrow[i][dp->pos_reg];
  vi keep = (vi)(-1);
  float d[3];
  if (dp->flags & CLP_DRAW_DEPTH_CLIP_NEAR) {
    const bool halfz = (dp->flags & CLP_DRAW_CLIP_HALFZ) != 0;
    for (int i = 0; i < 3; ++i)
      d[i] = halfz ? pos[i].z : pos[i].z + pos[i].w;
    keep &= CLP_MASK((lp[0] * d[0] + lp[1] * d[1] + lp[2] * d[2]) >= (vf)(0.0f));
  }
  if (dp->flags & CLP_DRAW_DEPTH_CLIP_FAR) {
    for (int i = 0; i < 3; ++i)
      d[i] = pos[i].w - pos[i].z;
    keep &= CLP_MASK((lp[0] * d[0] + lp[1] * d[1] + lp[2] * d[2]) >= (vf)(0.0f));
  }
  return keep;
}

#endif  // CLPIPE_TILE_PRIM_H
