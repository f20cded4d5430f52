// Setup passes of draw_vbo: primitive assembly, clipping, culling, unfilled polygons,
// points and lines, and triangle setup, in two runs over the draw positions:
//   prim_count  counts the ClpTri records each position produces, or the record slots
//               of its points and lines (clp_records_bound); and, for PRIMID with
//               primitive restart, the primitives it assembles
//   (host: exclusive prefix sums of the counts, see scan.cl)
//   prim_write  writes each position's records at its offset: the records are in API
//               order, ready for binning.
// Producer of the input: the vertex pass (post-transform vertices, restart flags).
// Consumer of the output: bin.cl.
#pragma OPENCL FP_CONTRACT OFF

#include "draw_shared.h"
#include "prim_assemble.h"
#include "prim_clip.h"
#include "prim_emit.h"

// Polygon offset for a polygon whose window vertices are v[0..n).
static float clp_polygon_offset(global const ClpDrawParams* dp, const ClpWinVert* v, uint n) {
  // Depth slope from the first fan triangle with area.
  float m = 0.0f;
  for (uint i = 1; i + 1 < n; ++i) {
    const float dx1 = v[i].x - v[0].x, dy1 = v[i].y - v[0].y;
    const float dx2 = v[i + 1].x - v[0].x, dy2 = v[i + 1].y - v[0].y;
    const float det = dx1 * dy2 - dx2 * dy1;
    if (det == 0.0f) continue;
    const float dz1 = v[i].z - v[0].z, dz2 = v[i + 1].z - v[0].z;
    const float a = (dz1 * dy2 - dz2 * dy1) / det, b = (dz2 * dx1 - dz1 * dx2) / det;
    m = max(fabs(a), fabs(b));
    break;
  }
  float r = dp->depth_mrd;
  if (dp->flags & CLP_DRAW_DEPTH_FLOAT) {
    // Float depth: 2^(e - 23) with e the exponent of the largest |z| of the polygon.
    float zmax = 0.0f;
    for (uint i = 0; i < n; ++i) zmax = max(zmax, fabs(v[i].z));
    int e;
    frexp(zmax, &e);
    r = ldexp(1.0f, e - 1 - 23);
  }
  float o = m * dp->offset_scale + r * dp->offset_units;
  if (dp->offset_clamp > 0.0f) o = min(o, dp->offset_clamp);
  if (dp->offset_clamp < 0.0f) o = max(o, dp->offset_clamp);
  return isfinite(o) ? o : 0.0f;
}

// Whether points keep their exact centre and size: sprites (quad rasterization) and
// multisampled points, which GL rasterizes as squares or circles around the centre.
// Other points are squares of whole pixels (clp_snap_point_centre).
static bool clp_point_exact(global const ClpDrawParams* dp) {
  return (dp->flags & (CLP_DRAW_POINT_QUAD_RAST | CLP_DRAW_MULTISAMPLE)) != 0;
}

static float clp_point_size(global const ClpDrawParams* dp, global const float4* verts,
                            const uint* vtx, const float* w) {
  float size = dp->point_size;
  if ((dp->flags & CLP_DRAW_POINT_SIZE_PER_VERTEX) && dp->psize_reg >= 0) {
    size = 0.0f;
    for (int i = 0; i < 3; ++i) {
      if (w[i] != 0.0f) size += w[i] * clp_load_reg(verts, dp->num_outputs, vtx[i], dp->psize_reg).x;
    }
  }
  size = clamp(size, 1.0f, 255.0f);
  if (!clp_point_exact(dp)) size = max(1.0f, rint(size));
  return size;
}

// Record slots of each primitive of a point or line draw (unless CLP_DRAW_EXACT_RECORDS):
// the most records it can make, which clipping cannot raise (a point's square 1, a
// point's quad 2, a line's quad 2: clp_emit_point, clp_emit_line). The count pass then
// counts the slots without the primitive's setup, and the write pass fills the slots
// the primitive leaves with empty records. 0 for triangles, whose clipping and
// unfilled modes vary their records: the count pass runs their setup.
static uint clp_records_bound(global const ClpDrawParams* dp) {
  if (dp->flags & CLP_DRAW_EXACT_RECORDS) return 0u;
  switch (dp->prim_mode) {
    case CLP_PRIM_POINTS:
      return clp_point_exact(dp) ? 2u : 1u;
    case CLP_PRIM_LINES:
    case CLP_PRIM_LINE_LOOP:
    case CLP_PRIM_LINE_STRIP:
    case CLP_PRIM_LINES_ADJACENCY:
    case CLP_PRIM_LINE_STRIP_ADJACENCY:
      return 2u;
    default:
      return 0u;
  }
}

static float clp_line_width(global const ClpDrawParams* dp) {
  return max(1.0f, rint(dp->line_width));
}

// Points of whole pixels (not clp_point_exact): of odd size they centre on a pixel
// centre, of even size on a corner.
static void clp_snap_point_centre(global const ClpDrawParams* dp, float size, ClpWinVert* v) {
  if (clp_point_exact(dp)) return;
  const float off = (dp->flags & CLP_DRAW_HALF_PIXEL_CENTER) ? 0.5f : 0.0f;
  if (((int)size) & 1) {
    v->x = floor(v->x - off + 0.5f) + off;
    v->y = floor(v->y - off + 0.5f) + off;
  } else {
    v->x = floor(v->x - off) + off + 0.5f;
    v->y = floor(v->y - off) + off + 0.5f;
  }
}

// Records produced by one assembled primitive (written at out[0..) when out != 0).
static uint clp_process_prim(global const ClpDrawParams* dp, global const float4* verts,
                             const ClpPrim* prim, uint vbase, uint prim_id, ClpOut* out) {
  uint vtx[3];
  for (int i = 0; i < 3; ++i) vtx[i] = vbase + prim->v[i];
  const uint n_in = prim->n;
  if (dp->layer_reg >= 0) {
    const uint pv = vtx[prim->provoking];
    const float4 l = clp_load_reg(verts, dp->num_outputs, pv, (uint)dp->layer_reg);
    if (as_uint(l.x) != dp->layer) return 0;
  }
  ClpPlaneSet ps;
  clp_plane_distances(dp, verts, vtx, n_in, &ps);
  if (ps.cull) return 0;
  uint oc[3] = {0, 0, 0}, all_out = ~0u, any_out = 0;
  for (uint i = 0; i < n_in; ++i) {
    oc[i] = clp_outcode(&ps, i);
    all_out &= oc[i];
    any_out |= oc[i];
  }
  if (all_out) return 0;
  float4 pos[3];
  for (int i = 0; i < 3; ++i) pos[i] = clp_load_reg(verts, dp->num_outputs, vtx[i], dp->pos_reg);
  const uint provoking = prim->provoking << CLP_TRI_PROVOKING_SHIFT;

  // Planes applied per pixel when no geometric clipping is needed (prim_clip.h).
  const bool geometric = (any_out & ~ps.pixel_mask) != 0;
  const uint pixel_clip = (any_out && !geometric) ? CLP_TRI_PIXEL_CLIP : 0u;

  if (n_in == 1) {
    if (any_out) return 0;  // points are clipped by their centre
    const float w[3] = {1.0f, 0.0f, 0.0f};
    ClpWinVert v;
    clp_to_window(dp, pos, w, &v);
    const float size = clp_point_size(dp, verts, vtx, w);
    clp_snap_point_centre(dp, size, &v);
    return clp_emit_point(dp, &v, size, CLP_TRI_FRONT | (CLP_KIND_POINT << CLP_TRI_KIND_SHIFT),
                          0.0f, vtx, prim_id, out);
  }

  if (n_in == 2) {
    ClpClipVert a = {{1.0f, 0.0f, 0.0f}, 1}, b = {{0.0f, 1.0f, 0.0f}, 1};
    if (geometric && !clp_clip_segment(&ps, any_out, &a, &b)) return 0;
    ClpWinVert wa, wb;
    clp_to_window(dp, pos, a.w, &wa);
    clp_to_window(dp, pos, b.w, &wb);
    return clp_emit_line(dp, &wa, &wb, clp_line_width(dp),
                         CLP_TRI_FRONT | (CLP_KIND_LINE << CLP_TRI_KIND_SHIFT) | provoking | pixel_clip,
                         0.0f, vtx, prim_id, out);
  }

  ClpClipVert cv[CLP_MAX_CLIP_VERTS];
  for (int i = 0; i < 3; ++i) {
    cv[i].w[0] = i == 0 ? 1.0f : 0.0f;
    cv[i].w[1] = i == 1 ? 1.0f : 0.0f;
    cv[i].w[2] = i == 2 ? 1.0f : 0.0f;
    cv[i].edge = (prim->edges >> i) & 1u;
    if (dp->edgeflag_reg >= 0 &&
        clp_load_reg(verts, dp->num_outputs, vtx[i], (uint)dp->edgeflag_reg).x == 0.0f)
      cv[i].edge = 0u;
  }
  uint n = 3;
  if (geometric) n = clp_clip_polygon(&ps, any_out, cv, 3);
  if (n < 3) return 0;
  ClpWinVert wv[CLP_MAX_CLIP_VERTS];
  for (uint i = 0; i < n; ++i) clp_to_window(dp, pos, cv[i].w, &wv[i]);

  // Facing from the signed area of the (clipped) polygon; y grows downwards, so a
  // negative area is counter-clockwise on screen (Gallium's convention).
  float area = 0.0f;
  for (uint i = 1; i + 1 < n; ++i) {
    area += (wv[i].x - wv[0].x) * (wv[i + 1].y - wv[0].y) -
            (wv[i + 1].x - wv[0].x) * (wv[i].y - wv[0].y);
  }
  const bool ccw = area < 0.0f;
  const bool front = ccw == ((dp->flags & CLP_DRAW_FRONT_CCW) != 0);
  if (front && (dp->flags & CLP_DRAW_CULL_FRONT)) return 0;
  if (!front && (dp->flags & CLP_DRAW_CULL_BACK)) return 0;
  const uint mode = front ? dp->fill_front : dp->fill_back;
  const uint fflag = (front ? CLP_TRI_FRONT : 0u) | pixel_clip;
  uint count = 0;
  if (mode == 1) {  // PIPE_POLYGON_MODE_LINE: boundary edges as lines
    const float zo = (dp->flags & CLP_DRAW_OFFSET_LINE) ? clp_polygon_offset(dp, wv, n) : 0.0f;
    for (uint i = 0; i < n; ++i) {
      if (!cv[i].edge) continue;
      count += clp_emit_line(dp, &wv[i], &wv[(i + 1) % n], clp_line_width(dp),
                             fflag | (CLP_KIND_LINE << CLP_TRI_KIND_SHIFT) | provoking, zo, vtx,
                             prim_id, out);
    }
    return count;
  }
  if (mode == 2) {  // PIPE_POLYGON_MODE_POINT: vertices starting a boundary edge
    const float zo = (dp->flags & CLP_DRAW_OFFSET_POINT) ? clp_polygon_offset(dp, wv, n) : 0.0f;
    for (uint i = 0; i < n; ++i) {
      if (!cv[i].edge) continue;
      const float size = clp_point_size(dp, verts, vtx, cv[i].w);
      ClpWinVert v = wv[i];
      clp_snap_point_centre(dp, size, &v);
      count += clp_emit_point(dp, &v, size,
                              fflag | (CLP_KIND_POINT << CLP_TRI_KIND_SHIFT) | provoking, zo, vtx,
                              prim_id, out);
    }
    return count;
  }
  if (area == 0.0f) return 0;  // no area, no fragments
  const float zo = (dp->flags & CLP_DRAW_OFFSET_TRI) ? clp_polygon_offset(dp, wv, n) : 0.0f;
  for (uint i = 1; i + 1 < n; ++i) {
    count += clp_emit_tri(dp, &wv[0], &wv[i], &wv[i + 1],
                          fflag | (CLP_KIND_TRIANGLE << CLP_TRI_KIND_SHIFT) | provoking, zo, vtx,
                          prim_id, out);
  }
  return count;
}

// Primitive index (PRIMID) of the first primitive completed at position k, when there
// is no primitive restart: the number of primitives completed before k.
static uint clp_prims_before(uint mode, uint k) {
  switch (mode) {
    case CLP_PRIM_POINTS: return k;
    case CLP_PRIM_LINES: return k / 2;
    case CLP_PRIM_LINE_STRIP:
    case CLP_PRIM_LINE_LOOP: return k >= 1 ? k - 1 : 0;
    case CLP_PRIM_TRIANGLES: return k / 3;
    case CLP_PRIM_TRIANGLE_STRIP:
    case CLP_PRIM_TRIANGLE_FAN:
    case CLP_PRIM_POLYGON: return k >= 2 ? k - 2 : 0;
    case CLP_PRIM_QUADS: return k / 4;
    case CLP_PRIM_QUAD_STRIP: return k >= 3 ? (k - 2) / 2 : 0;
    case CLP_PRIM_LINES_ADJACENCY: return k / 4;
    case CLP_PRIM_LINE_STRIP_ADJACENCY: return k >= 3 ? k - 3 : 0;
    case CLP_PRIM_TRIANGLES_ADJACENCY: return k / 6;
    case CLP_PRIM_TRIANGLE_STRIP_ADJACENCY: return k >= 5 ? (k - 4) / 2 : 0;
    default: return 0;
  }
}

// The primitives position p completes. Returns their number; *vbase is the first
// post-transform vertex of p's instance, *k its position within the instance.
static uint clp_position_prims(global const ClpDrawParams* dp, global const uint* restart,
                               global const uint* seg_index, global const uint* seg_first, uint p,
                               ClpPrim* prims, uint* vbase, uint* k_out) {
  const uint inst = p / dp->count, k = p % dp->count;
  *vbase = inst * dp->count;
  *k_out = k;
  uint s = 0;
  bool last = k + 1 == dp->count;
  if (dp->flags & CLP_DRAW_RESTART) {
    if (restart[k]) return 0;
    s = seg_first[seg_index[k]];
    last = last || restart[k + 1];
  }
  return clp_assemble(dp->prim_mode, k, s, last, (dp->flags & CLP_DRAW_FLATSHADE_FIRST) != 0,
                      (dp->flags & CLP_DRAW_QUADS_FOLLOW_PROVOKING) != 0, prims);
}

// Primitives that count as one for PRIMID (the two halves of a quad share one).
static uint clp_assembled_units(uint mode, uint nprims) {
  return (mode == CLP_PRIM_QUADS || mode == CLP_PRIM_QUAD_STRIP) ? (nprims > 0 ? 1 : 0) : nprims;
}

// With primitive restart: seg_first[s] = first position of restart segment s, where
// seg_index[k] (the exclusive prefix sum of the restart flags) is the segment of k.
__kernel void restart_segments(global const uint* restart, global const uint* seg_index,
                               uint count, global uint* seg_first) {
  const uint k = get_global_id(0);
  if (k >= count) return;
  if (k == 0) seg_first[0] = 0;
  if (restart[k]) seg_first[seg_index[k] + 1] = k + 1;
}

// dps[u]: a unit's parameters among the scene's; its vertices start at float4
// dps[u].verts_base of verts.
// A setup launch covers a batch of consecutive scene draws ("units") first..first+units-1:
// work-item g is position g - pos_base of the last unit whose pos_base <= g (pos_base
// ascends within the batch; the host plans batches before the scene is uploaded).
static uint clp_batch_unit(global const ClpDrawParams* dps, uint first, uint units, uint g) {
  uint lo = first, hi = first + units;  // dps[lo].pos_base <= g < dps[hi].pos_base
  while (hi - lo > 1) {
    const uint mid = lo + (hi - lo) / 2;
    if (dps[mid].pos_base <= g)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// counts[g]: records position g of the batch makes; assembled[g]: its assembled
// primitives (for queries and PRIMID with restart, which run in batches of one unit).
// A draw whose count the device read (device_counts.cl) may have fewer positions than
// the host planned for it: the rest count 0, so the scan over the batch stays exact.
__kernel void prim_count(global const ClpDrawParams* dps, uint first, uint units, uint positions,
                         global const float4* verts, global const uint* restart,
                         global const uint* seg_index, global const uint* seg_first,
                         global uint* counts, global uint* assembled) {
  const uint g = get_global_id(0);
  if (g >= positions) return;
  global const ClpDrawParams* dp = dps + clp_batch_unit(dps, first, units, g);
  const uint p = g - dp->pos_base;
  if (p >= dp->count * dp->instance_count) {
    counts[g] = 0;
    assembled[g] = 0;
    return;
  }
  verts += dp->verts_base;
  ClpPrim prims[2];
  uint vbase, k;
  const uint n = clp_position_prims(dp, restart, seg_index, seg_first, p, prims, &vbase, &k);
  const uint slots = clp_records_bound(dp);
  uint total = 0;
  for (uint i = 0; i < n; ++i)
    total += slots ? slots : clp_process_prim(dp, verts, &prims[i], vbase, 0, 0);
  counts[g] = total;
  assembled[g] = clp_assembled_units(dp->prim_mode, n);
}

// After the scan of a batch's counts (offsets, total[0] their sum): each unit's records
// start at draw_base[u] = draw_base[first] + offsets[its pos_base], the next batch's
// at draw_base[first + units]; status[0] (records the scene needs) follows it. One
// work-item per unit; none writes draw_base[first], which they all read, but for the
// scene's first batch: its base is 0, which work-item 0 writes (the scene needs no fill
// of its own for it; every scene's units pass here in order, from unit 0).
__kernel void records_advance(global uint* draw_base, uint first, uint units,
                              global const ClpDrawParams* dps, global const uint* offsets,
                              global const uint* total, global uint* status) {
  const uint i = get_global_id(0);
  if (i >= units) return;
  // Saturating, as the scan is (scan.cl): a scene of 2^32 - 1 records or more reads as
  // 0xffffffff, which no capacity admits.
  const uint base = first == 0 ? 0u : draw_base[first];
  if (first == 0 && i == 0) draw_base[0] = 0;
  if (i + 1 < units) {
    draw_base[first + i + 1] = add_sat(base, offsets[dps[first + i + 1].pos_base]);
  } else {
    draw_base[first + units] = add_sat(base, total[0]);
    status[0] = add_sat(base, total[0]);
  }
}

// offsets: exclusive prefix sums of prim_count's counts. prim_base (with restart and
// PRIMID): exclusive prefix sums of `assembled` within an instance is not what a scan
// over all positions gives, so the host passes the scan over all positions and the
// per-instance base is subtracted here.
// With CLP_DRAW_PRIM_ID_TABLE, prim_base holds the PRIMID of every position instead.
// Draws with restart or a PRIMID table (and their restart arrays) run in batches of one
// unit, where g == p. The batch's records go to out[draw_base[first] + offsets[g] ...],
// below capacity.
__kernel void prim_write(global const ClpDrawParams* dps, uint first, uint units, uint positions,
                         global const float4* verts, global const uint* restart,
                         global const uint* seg_index, global const uint* seg_first,
                         global const uint* offsets, global const uint* prim_base,
                         global ClpTri* out, uint capacity, global const uint* draw_base) {
  const uint g = get_global_id(0);
  if (g >= positions) return;
  const uint draw = clp_batch_unit(dps, first, units, g);
  global const ClpDrawParams* dp = dps + draw;
  const uint p = g - dp->pos_base;
  if (p >= dp->count * dp->instance_count) return;
  verts += dp->verts_base;
  ClpPrim prims[2];
  uint vbase, k;
  const uint n = clp_position_prims(dp, restart, seg_index, seg_first, p, prims, &vbase, &k);
  uint id = 0;
  if (dp->flags & CLP_DRAW_NEED_PRIM_ID) {
    if (dp->flags & CLP_DRAW_PRIM_ID_TABLE) {
      id = prim_base[p];
    } else if (dp->flags & CLP_DRAW_RESTART) {
      id = prim_base[p] - prim_base[vbase];
    } else {
      id = clp_prims_before(dp->prim_mode, k);
    }
    id += dp->prim_id_base;
  }
  // This position's slot: base + offsets[g] .. base + offsets[g + 1] (the batch's end for
  // its last position), clipped to the buffer.
  const uint base = draw_base[first];
  const uint at = base + offsets[g];
  const uint end = g + 1 < positions ? base + offsets[g + 1] : draw_base[first + units];
  ClpOut o;
  o.next = out + at;
  o.room = at <= end && at < capacity ? min(end, capacity) - at : 0;
  o.draw = draw;
  const bool quads = dp->prim_mode == CLP_PRIM_QUADS || dp->prim_mode == CLP_PRIM_QUAD_STRIP;
  const uint slots = clp_records_bound(dp);
  for (uint i = 0; i < n; ++i) {
    const uint made = clp_process_prim(dp, verts, &prims[i], vbase, id, &o);
    for (uint e = made; e < slots; ++e)
      clp_empty_record(&o);
    if (!quads) ++id;
  }
}
