// Cube map geometry of the sampling library: face selection from a direction, face
// coordinates, and the texels of seamless filtering (pipe_sampler_state::
// seamless_cube_map) that lie across an edge or a corner of the face being filtered.
//
// Consumers: sampling_filter.h (linear filtering and gather across faces) and sampling.h
// (face selection). Faces are the layers +X -X +Y -Y +Z -Z (sampling_abi.h), with the
// major-axis table of the GL specification (table 8.19 of GL 4.6).
#ifndef CLPIPE_SAMPLING_CUBE_H
#define CLPIPE_SAMPLING_CUBE_H

#include "shader_lib_image.h"

// Cube face of direction (x, y, z). Ties go to x, then y: the same rule on every device.
static int clp_cube_face(float x, float y, float z) {
  const float ax = fabs(x), ay = fabs(y), az = fabs(z);
  if (ax >= ay && ax >= az) return x >= 0.0f ? 0 : 1;
  if (ay >= az) return y >= 0.0f ? 2 : 3;
  return z >= 0.0f ? 4 : 5;
}

// (sc, tc, ma) of direction (x, y, z) on `face` (GL's table).
static float3 clp_cube_sc_tc_ma(int face, float x, float y, float z) {
  switch (face) {
    case 0:
      return (float3)(-z, -y, x);
    case 1:
      return (float3)(z, -y, -x);
    case 2:
      return (float3)(x, z, y);
    case 3:
      return (float3)(x, -z, -y);
    case 4:
      return (float3)(x, -y, z);
    default:
      return (float3)(-x, -y, -z);
  }
}

// Face coordinates (s, t) in [0, 1] of direction (x, y, z) on `face`.
static float2 clp_cube_st(int face, float x, float y, float z) {
  const float3 m = clp_cube_sc_tc_ma(face, x, y, z);
  const float inv = 1.0f / fabs(m.z);
  return (float2)(0.5f * (m.x * inv + 1.0f), 0.5f * (m.y * inv + 1.0f));
}

// The direction whose (sc, tc) on `face` are the given values with ma = 1: the inverse of
// clp_cube_sc_tc_ma.
static float3 clp_cube_dir(int face, float sc, float tc) {
  switch (face) {
    case 0:
      return (float3)(1.0f, -tc, -sc);
    case 1:
      return (float3)(-1.0f, -tc, sc);
    case 2:
      return (float3)(sc, 1.0f, tc);
    case 3:
      return (float3)(sc, -1.0f, -tc);
    case 4:
      return (float3)(sc, -tc, 1.0f);
    default:
      return (float3)(-sc, -tc, -1.0f);
  }
}

// Texel (i, j) of a size x size face where exactly one of i, j lies one texel outside
// [0, size): the texel of the adjacent face that touches it. Its centre, seen as a
// direction, has |sc| or |tc| = 1 + 1/size > |ma| = 1, so the neighbour face is chosen
// without ties; projected there, the along-edge coordinate (k + 1) * size / (size + 1)
// keeps its texel index k (its fraction stays >= 1 / (size + 1) away from an integer).
// Returns the face in .z, the texel in .x, .y.
static int3 clp_cube_neighbor(int face, int i, int j, int size) {
  const float n = (float)size;
  const float sc = (2.0f * (float)i + 1.0f) / n - 1.0f;
  const float tc = (2.0f * (float)j + 1.0f) / n - 1.0f;
  const float3 d = clp_cube_dir(face, sc, tc);
  const int f = clp_cube_face(d.x, d.y, d.z);
  const float2 st = clp_cube_st(f, d.x, d.y, d.z);
  const int ni = clamp(convert_int_sat_rtn(st.x * n), 0, size - 1);
  const int nj = clamp(convert_int_sat_rtn(st.y * n), 0, size - 1);
  return (int3)(ni, nj, f);
}

#endif  // CLPIPE_SAMPLING_CUBE_H
