// Mesh generation for the demo scene (see meshes.h).
#include "meshes.h"

#include <algorithm>
#include <cmath>

namespace clpipe::demo {

namespace {

constexpr float kPi = 3.14159265358979f;

Vertex vertex(Vec3 p, Vec3 n, Rgba8 c) {
  return Vertex{{p.x, p.y, p.z}, {n.x, n.y, n.z}, {c.r, c.g, c.b, c.a}};
}

// Fully saturated colour of hue h in [0, 1).
Rgba8 hue(float h) {
  auto channel = [h](float offset) {
    const float t = std::fabs(std::fmod(h * 6.0f + offset, 6.0f) - 3.0f) - 1.0f;
    return uint8_t(std::clamp(t, 0.0f, 1.0f) * 255.0f + 0.5f);
  };
  return Rgba8{channel(0.0f), channel(4.0f), channel(2.0f), 255};
}

// Triangles of a (cols + 1) x (rows + 1) vertex grid starting at `base`, row-major; the
// caller orders the grid so that (i, j), (i + 1, j), (i, j + 1) is counter-clockwise
// seen from outside.
void grid_indices(uint32_t base, int cols, int rows, std::vector<uint32_t>& out) {
  for (int j = 0; j < rows; ++j) {
    for (int i = 0; i < cols; ++i) {
      const uint32_t a = base + uint32_t(j * (cols + 1) + i), b = a + 1;
      const uint32_t c = a + uint32_t(cols + 1), d = c + 1;
      out.insert(out.end(), {a, b, c, b, d, c});
    }
  }
}

}  // namespace

Mesh make_torus(float major, float minor, int rings, int sides) {
  Mesh m;
  // u runs around the y axis (clockwise seen from +y), v around the tube, so that
  // d/du x d/dv points out of the surface.
  for (int j = 0; j <= sides; ++j) {
    const float v = 2 * kPi * float(j) / float(sides);
    for (int i = 0; i <= rings; ++i) {
      const float u = -2 * kPi * float(i) / float(rings);
      const Vec3 ring{std::cos(u), 0, std::sin(u)};
      const Vec3 n = ring * std::cos(v) + Vec3{0, std::sin(v), 0};
      m.vertices.push_back(vertex(ring * major + n * minor, n, hue(float(i % rings) / rings)));
    }
  }
  grid_indices(0, rings, sides, m.indices);
  return m;
}

Mesh make_sphere(float r, int slices, int stacks, Rgba8 color) {
  Mesh m;
  // From the south pole up; longitude runs counter-clockwise seen from +y.
  for (int j = 0; j <= stacks; ++j) {
    const float lat = -kPi / 2 + kPi * float(j) / float(stacks);
    for (int i = 0; i <= slices; ++i) {
      const float lon = -2 * kPi * float(i) / float(slices);
      const Vec3 n{std::cos(lat) * std::cos(lon), std::sin(lat), std::cos(lat) * std::sin(lon)};
      m.vertices.push_back(vertex(n * r, n, color));
    }
  }
  grid_indices(0, slices, stacks, m.indices);
  return m;
}

Mesh make_ground(float half, int cells, Rgba8 a, Rgba8 b) {
  Mesh m;
  const float step = 2 * half / float(cells);
  const Vec3 up{0, 1, 0};
  for (int j = 0; j < cells; ++j) {
    for (int i = 0; i < cells; ++i) {
      // Cells have their own vertices so that each is one flat colour. Going +x then +z
      // from above the plane (looking down -y) is counter-clockwise.
      const float x0 = -half + step * float(i), z1 = half - step * float(j);
      const Rgba8 c = ((i + j) & 1) ? a : b;
      const uint32_t base = uint32_t(m.vertices.size());
      m.vertices.push_back(vertex({x0, 0, z1}, up, c));
      m.vertices.push_back(vertex({x0 + step, 0, z1}, up, c));
      m.vertices.push_back(vertex({x0, 0, z1 - step}, up, c));
      m.vertices.push_back(vertex({x0 + step, 0, z1 - step}, up, c));
      grid_indices(base, 1, 1, m.indices);
    }
  }
  return m;
}

Mesh make_quad(Vec3 c, Vec3 u, Vec3 v, Rgba8 color) {
  Mesh m;
  const Vec3 n = normalize(cross(u, v));
  m.vertices.push_back(vertex(c - u - v, n, color));
  m.vertices.push_back(vertex(c + u - v, n, color));
  m.vertices.push_back(vertex(c - u + v, n, color));
  m.vertices.push_back(vertex(c + u + v, n, color));
  grid_indices(0, 1, 1, m.indices);
  return m;
}

}  // namespace clpipe::demo
