// Small vector and matrix helpers for clpipe-demo's host side (meshes, camera). Matrices
// are column-major like GL: m[c][r], and a point p maps to M * (p, 1). Consumers:
// meshes.cpp, demo_scene.cpp and the demo test (to project scene points to pixels).
#pragma once

#include <cmath>

namespace clpipe::demo {

struct Vec3 {
  float x = 0, y = 0, z = 0;
};

inline Vec3 operator+(Vec3 a, Vec3 b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
inline Vec3 operator-(Vec3 a, Vec3 b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
inline Vec3 operator*(Vec3 a, float s) {
  return {a.x * s, a.y * s, a.z * s};
}
inline float dot(Vec3 a, Vec3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline Vec3 normalize(Vec3 a) {
  const float l = std::sqrt(dot(a, a));
  return l > 0 ? a * (1.0f / l) : a;
}

struct Mat4 {
  float m[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};  // m[column][row]
};

inline Mat4 operator*(const Mat4& a, const Mat4& b) {
  Mat4 r;
  for (int c = 0; c < 4; ++c) {
    for (int row = 0; row < 4; ++row) {
      float s = 0;
      for (int k = 0; k < 4; ++k)
        s += a.m[k][row] * b.m[c][k];
      r.m[c][row] = s;
    }
  }
  return r;
}

inline Mat4 translate(Vec3 t) {
  Mat4 r;
  r.m[3][0] = t.x;
  r.m[3][1] = t.y;
  r.m[3][2] = t.z;
  return r;
}

inline Mat4 scale(float s) {
  Mat4 r;
  r.m[0][0] = r.m[1][1] = r.m[2][2] = s;
  return r;
}

// Rotation by `angle` radians about a unit axis (right-handed).
inline Mat4 rotate(float angle, Vec3 axis) {
  const float c = std::cos(angle), s = std::sin(angle), t = 1 - c;
  const float x = axis.x, y = axis.y, z = axis.z;
  Mat4 r;
  r.m[0][0] = t * x * x + c;
  r.m[0][1] = t * x * y + s * z;
  r.m[0][2] = t * x * z - s * y;
  r.m[1][0] = t * x * y - s * z;
  r.m[1][1] = t * y * y + c;
  r.m[1][2] = t * y * z + s * x;
  r.m[2][0] = t * x * z + s * y;
  r.m[2][1] = t * y * z - s * x;
  r.m[2][2] = t * z * z + c;
  return r;
}

// GL's gluLookAt and gluPerspective (clip z in [-w, w], camera looking down -z).
inline Mat4 look_at(Vec3 eye, Vec3 target, Vec3 up) {
  const Vec3 f = normalize(target - eye), s = normalize(cross(f, up)), u = cross(s, f);
  Mat4 r;
  r.m[0][0] = s.x;
  r.m[1][0] = s.y;
  r.m[2][0] = s.z;
  r.m[0][1] = u.x;
  r.m[1][1] = u.y;
  r.m[2][1] = u.z;
  r.m[0][2] = -f.x;
  r.m[1][2] = -f.y;
  r.m[2][2] = -f.z;
  r.m[3][0] = -dot(s, eye);
  r.m[3][1] = -dot(u, eye);
  r.m[3][2] = dot(f, eye);
  return r;
}

inline Mat4 perspective(float fovy, float aspect, float znear, float zfar) {
  const float f = 1.0f / std::tan(fovy / 2);
  Mat4 r;
  r.m[0][0] = f / aspect;
  r.m[1][1] = f;
  r.m[2][2] = (zfar + znear) / (znear - zfar);
  r.m[2][3] = -1;
  r.m[3][2] = 2 * zfar * znear / (znear - zfar);
  r.m[3][3] = 0;
  return r;
}

// M * (p, 1) as (x, y, z, w).
inline void transform(const Mat4& m, Vec3 p, float out[4]) {
  for (int row = 0; row < 4; ++row)
    out[row] = m.m[0][row] * p.x + m.m[1][row] * p.y + m.m[2][row] * p.z + m.m[3][row];
}

}  // namespace clpipe::demo
