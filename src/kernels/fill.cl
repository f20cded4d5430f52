// Masked byte-pattern fills of boxes in clpipe's resource layout: every clear
// (clear, clear_render_target, clear_depth_stencil, clear_texture, clear_buffer) and the
// zero-fill of new resources. Producer of the pattern: src/frontend/device_ops.cpp,
// which packs the clear value on the host (format_codec.h); consumers: any later pass.
//
// A box is `rows` x `layers` rows; row (y, z) starts at dst + base + z * layer_pitch +
// y * row_pitch, and the bytes [begin, end) of each row are filled. base, row_pitch and
// layer_pitch are multiples of 16 (frontend/layout.h), so 16-byte chunk k of a row is
// 16-byte aligned in the buffer.
//
// Pattern and mask have a period of 48 bytes counted from the row start: row byte j
// becomes (old & ~mask[j % 48]) | (pattern[j % 48] & mask[j % 48]). 48 is a multiple of
// every texel and clear-value size (1, 2, 3, 4, 6, 8, 12, 16 bytes), so chunk k uses the
// 16-byte part k % 3 of the period.

static uchar16 period_part(ulong k, uint4 a, uint4 b, uint4 c) {
  const uint phase = (uint)(k % 3);
  return as_uchar16(phase == 0 ? a : (phase == 1 ? b : c));
}

// One work-item per 16-byte chunk: global = (chunks rounded up to the work-group size,
// rows, layers); chunk index first_chunk + get_global_id(0) for ids below `chunks`.
// `masked` = 0 when every mask bit is set (plain store).
__kernel void fill_pattern(__global uchar* dst, ulong base, uint row_pitch, ulong layer_pitch,
                           ulong begin, ulong end, ulong first_chunk, ulong chunks, uint4 p0,
                           uint4 p1, uint4 p2, uint4 m0, uint4 m1, uint4 m2, uint masked) {
  if (get_global_id(0) >= chunks) return;
  const ulong k = first_chunk + get_global_id(0);
  __global uchar* row =
      dst + base + get_global_id(2) * layer_pitch + get_global_id(1) * (ulong)row_pitch;
  const ulong off = k * 16;
  const uchar16 pattern = period_part(k, p0, p1, p2);
  const uchar16 mask = period_part(k, m0, m1, m2);
  if (off >= begin && off + 16 <= end) {
    if (masked) {
      vstore16(bitselect(vload16(0, row + off), pattern, mask), 0, row + off);
    } else {
      vstore16(pattern, 0, row + off);
    }
    return;
  }
  // Edge chunk: its bytes outside [begin, end) belong to other texels and stay untouched.
  uchar p[16];
  uchar m[16];
  vstore16(pattern, 0, p);
  vstore16(mask, 0, m);
  const ulong lo = max(begin, off);
  const ulong hi = min(end, off + 16);
  for (ulong i = lo; i < hi; ++i) {
    const uchar bits = m[i - off];
    row[i] = (uchar)((row[i] & (uchar)~bits) | (p[i - off] & bits));
  }
}
