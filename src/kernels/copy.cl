// Raw copies of boxes between resources in clpipe's layout: resource_copy_region for
// buffers and textures (formats of equal block size). Producer: src/frontend/copy.cpp;
// consumers: any later pass.
//
// Row (y, z) of the destination starts at dst + dst_base + z * dst_layer_pitch +
// y * dst_row_pitch (a 16-byte aligned address, frontend/layout.h) and receives the bytes
// [dst_begin, dst_end); its first byte comes from src + src_base + z * src_layer_pitch +
// y * src_row_pitch + src_begin. Source and destination may be the same buffer when the
// regions do not overlap (checked on the host).

// One work-item per 16-byte destination chunk: global = (chunks rounded up to the
// work-group size, rows, layers); chunk index first_chunk + get_global_id(0) for ids below
// `chunks`.
__kernel void copy_rows(__global const uchar* src, ulong src_base, uint src_row_pitch,
                        ulong src_layer_pitch, ulong src_begin, __global uchar* dst,
                        ulong dst_base, uint dst_row_pitch, ulong dst_layer_pitch,
                        ulong dst_begin, ulong dst_end, ulong first_chunk, ulong chunks) {
  if (get_global_id(0) >= chunks) return;
  const ulong y = get_global_id(1);
  const ulong z = get_global_id(2);
  const __global uchar* from =
      src + src_base + z * src_layer_pitch + y * (ulong)src_row_pitch + src_begin;
  __global uchar* row = dst + dst_base + z * dst_layer_pitch + y * (ulong)dst_row_pitch;
  const ulong off = (first_chunk + get_global_id(0)) * 16;
  if (off >= dst_begin && off + 16 <= dst_end) {
    // The store is aligned; the load may not be (vload16 needs byte alignment only).
    vstore16(vload16(0, from + (off - dst_begin)), 0, row + off);
    return;
  }
  // Edge chunk: only the bytes inside the box, never a neighbour's.
  const ulong lo = max(dst_begin, off);
  const ulong hi = min(dst_end, off + 16);
  for (ulong i = lo; i < hi; ++i) row[i] = from[i - dst_begin];
}
