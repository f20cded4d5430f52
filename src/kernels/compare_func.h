// pipe_compare_func for every consumer: the depth, stencil and alpha tests (raster_zs.h)
// and the shadow compare of texture sampling (sampling_filter.h, sampling_vec.h).
#ifndef CLPIPE_KERNELS_COMPARE_FUNC_H
#define CLPIPE_KERNELS_COMPARE_FUNC_H

// clpipe::CompareFunc (NEVER, LESS, EQUAL, LEQUAL, GREATER, NOTEQUAL, GEQUAL, ALWAYS) of a
// and b, one body for scalars and lane vectors: `never` / `always` are the type's
// false / true (vector comparisons give -1 where they hold).
#define CLP_COMPARE_BODY(func, a, b, never, always) \
  switch (func) {                                   \
    case 0:                                         \
      return never;                                 \
    case 1:                                         \
      return a < b;                                 \
    case 2:                                         \
      return a == b;                                \
    case 3:                                         \
      return a <= b;                                \
    case 4:                                         \
      return a > b;                                 \
    case 5:                                         \
      return a != b;                                \
    case 6:                                         \
      return a >= b;                                \
    default:                                        \
      return always;                                \
  }

#endif  // CLPIPE_KERNELS_COMPARE_FUNC_H
