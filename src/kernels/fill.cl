// Byte-pattern fills of device buffers: Context::clear_buffer and the zero-fill of new
// resources. Producer: src/frontend (clear_buffer); consumer: any later pass.

// Fills dst[offset, offset + size) with `pattern` (pattern_size bytes, 1..16) repeated
// from `offset`. One work-item writes 16 consecutive bytes.
__kernel void fill_pattern(__global uchar* dst, ulong offset, ulong size,
                           uint16 pattern_words, uint pattern_size) {
  const ulong first = (ulong)get_global_id(0) * 16;
  if (first >= size) return;
  uchar pattern[16];
  uint words[16];
  vstore16(pattern_words, 0, words);
  for (int i = 0; i < 16; ++i) pattern[i] = (uchar)words[i];
  const ulong end = min(first + 16, size);
  for (ulong i = first; i < end; ++i) dst[offset + i] = pattern[i % pattern_size];
}
