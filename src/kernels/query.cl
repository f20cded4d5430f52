// Query kernels: accumulation of a draw's counters into active queries, and results
// written into buffers (get_query_result_resource). 64-bit values are (low, high) pairs
// of 32-bit words. Producers of the counters: tile.cl, stream.cl and the setup passes'
// totals (CLP_COUNTER_*, stream_shared.h); consumer of the
// results: the query's client (the host, or a buffer read by later commands).

static ulong clp_pair(global const uint* w) {
  return (ulong)w[0] | ((ulong)w[1] << 32);
}

// dst[i] += src[i] for `pairs` 64-bit counters. One work-item.
__kernel void query_accumulate(global uint* dst, global const uint* src, uint pairs) {
  if (get_global_id(0) != 0) return;
  for (uint i = 0; i < pairs; ++i) {
    const ulong v = clp_pair(dst + 2 * i) + clp_pair(src + 2 * i);
    dst[2 * i] = (uint)v;
    dst[2 * i + 1] = (uint)(v >> 32);
  }
}

// Writes one query result into dst at byte `offset`: host_value plus, when word_pair >= 0,
// the 64-bit counter at words[2 * word_pair], minus (saturating at 0), when sub_pair >= 0,
// the counter at words[2 * sub_pair]; as_bool turns it into 0 / 1; `available` (index -1
// of get_query_result_resource) writes 1 instead. value_type is clpipe::QueryValueType:
// 0 I32, 1 U32, 2 I64, 3 U64, saturating.
__kernel void query_store_result(global const uint* words, int word_pair, int sub_pair,
                                 ulong host_value, uint as_bool, uint available,
                                 uint value_type, global uchar* dst, ulong offset) {
  if (get_global_id(0) != 0) return;
  ulong v = host_value;
  if (word_pair >= 0) v += clp_pair(words + 2 * word_pair);
  if (sub_pair >= 0) {
    const ulong sub = clp_pair(words + 2 * sub_pair);
    v = v > sub ? v - sub : 0;
  }
  if (as_bool) v = v != 0;
  if (available) v = 1;
  global uchar* p = dst + offset;
  switch (value_type) {
    case 0: {
      const uint x = (uint)min(v, (ulong)0x7fffffff);
      for (int i = 0; i < 4; ++i) p[i] = (uchar)(x >> (8 * i));
      break;
    }
    case 1: {
      const uint x = (uint)min(v, (ulong)0xffffffff);
      for (int i = 0; i < 4; ++i) p[i] = (uchar)(x >> (8 * i));
      break;
    }
    case 2: {
      const ulong x = min(v, (ulong)0x7fffffffffffffffUL);
      for (int i = 0; i < 8; ++i) p[i] = (uchar)(x >> (8 * i));
      break;
    }
    default:
      for (int i = 0; i < 8; ++i) p[i] = (uchar)(v >> (8 * i));
      break;
  }
}
