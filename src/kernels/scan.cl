// Exclusive prefix sums of uint arrays, for compaction in the draw passes (primitive
// counts -> record offsets, bin counts -> list offsets). Portable OpenCL 1.2: barriers
// only inside a work-group, no inter-group waiting.
//
// Host sequence for n elements (src/frontend/draw/scan.cpp): up to CLP_SCAN_SMALL
// elements, one launch of scan_small (one work-group, each item scanning a contiguous
// run); beyond,
//   scan_blocks   over ceil(n / CLP_SCAN_BLOCK) groups: in-block exclusive scan of `data`
//                 in place, block totals to `sums`
//   (recursively scan `sums` the same way while it has more than one block)
//   scan_add      adds the scanned block sums back to every element
// The grand total lands in `total[0]` (written by the last level).
//
// Sums saturate: an offset or total that would reach 2^32 - 1 (the counts of a huge scene,
// say a bin histogram of 2^20 tiles by thousands of records) reads CLP_SCAN_SATURATED, which
// the host treats as "too many" (no buffer capacity admits it), instead of wrapping to a
// small number that fits and sends the tile pass past the end of its lists. Every sum is
// min(its true value, CLP_SCAN_SATURATED), since add_sat(min(a, S), min(b, S)) is
// min(a + b, S): offsets stay exact up to the first one that saturates.

#define CLP_SCAN_WG 64
#define CLP_SCAN_PER_ITEM 16
#define CLP_SCAN_BLOCK (CLP_SCAN_WG * CLP_SCAN_PER_ITEM)
// The most elements scan_small takes: 256 per item keeps its serial runs short on GPUs,
// while most draws' scans (per-position counts, per-tile bins) fit in one launch.
#define CLP_SCAN_SMALL (CLP_SCAN_WG * 256)

#define CLP_SCAN_SATURATED 0xffffffffu

// Inclusive Hillis-Steele scan of partial[0..CLP_SCAN_WG) by the work-group.
static void clp_scan_partials(local uint* partial, uint lid) {
  for (uint off = 1; off < CLP_SCAN_WG; off <<= 1) {
    uint add = lid >= off ? partial[lid - off] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    partial[lid] = add_sat(partial[lid], add);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

__kernel __attribute__((reqd_work_group_size(CLP_SCAN_WG, 1, 1))) void scan_small(
    __global uint* data, uint n, __global uint* total) {
  __local uint partial[CLP_SCAN_WG];
  const uint lid = get_local_id(0);
  const uint per = (n + CLP_SCAN_WG - 1) / CLP_SCAN_WG;
  const uint b = min(n, lid * per), e = min(n, b + per);
  uint sum = 0;
  for (uint i = b; i < e; ++i)
    sum = add_sat(sum, data[i]);
  partial[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  clp_scan_partials(partial, lid);
  uint run = lid ? partial[lid - 1] : 0;  // exclusive prefix of this item's run
  for (uint i = b; i < e; ++i) {
    const uint v = data[i];
    data[i] = run;
    run = add_sat(run, v);
  }
  if (lid == CLP_SCAN_WG - 1) total[0] = partial[lid];
}

__kernel __attribute__((reqd_work_group_size(CLP_SCAN_WG, 1, 1))) void scan_blocks(
    __global uint* data, uint n, __global uint* sums, __global uint* total) {
  __local uint partial[CLP_SCAN_WG];
  const uint lid = get_local_id(0);
  const uint base = get_group_id(0) * CLP_SCAN_BLOCK + lid * CLP_SCAN_PER_ITEM;
  uint v[CLP_SCAN_PER_ITEM];
  uint sum = 0;
  for (int i = 0; i < CLP_SCAN_PER_ITEM; ++i) {
    v[i] = base + i < n ? data[base + i] : 0;
    sum = add_sat(sum, v[i]);
  }
  partial[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  clp_scan_partials(partial, lid);
  uint run = lid ? partial[lid - 1] : 0;  // exclusive prefix of this item
  for (int i = 0; i < CLP_SCAN_PER_ITEM; ++i) {
    if (base + i < n) data[base + i] = run;
    run = add_sat(run, v[i]);
  }
  if (lid == CLP_SCAN_WG - 1) {
    sums[get_group_id(0)] = partial[lid];
    if (get_num_groups(0) == 1) total[0] = partial[lid];
  }
}

__kernel void scan_add(__global uint* data, uint n, __global const uint* sums) {
  const uint i = get_global_id(0);
  if (i < n) data[i] = add_sat(data[i], sums[i / CLP_SCAN_BLOCK]);
}
