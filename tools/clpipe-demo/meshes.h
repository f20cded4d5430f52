// Host-built meshes of the demo scene: indexed triangle lists with positions, normals
// and vertex colours, counter-clockwise when seen from outside (GL's front faces).
// Producer of the vertex and index data demo_scene.cpp uploads.
#pragma once

#include <cstdint>
#include <vector>

#include "demo_math.h"

namespace clpipe::demo {

// The vertex layout of every mesh: 28 bytes, read by the vertex elements of
// demo_scene.cpp as R32G32B32_FLOAT, R32G32B32_FLOAT, R8G8B8A8_UNORM.
struct Vertex {
  float pos[3];
  float normal[3];
  uint8_t color[4];
};
static_assert(sizeof(Vertex) == 28, "the vertex elements assume a packed 28-byte vertex");

struct Rgba8 {
  uint8_t r, g, b, a;
};

struct Mesh {
  std::vector<Vertex> vertices;
  std::vector<uint32_t> indices;  // triangles
};

// A torus around the y axis: ring radius `major`, tube radius `minor`; the colour runs
// through the hues around the ring.
Mesh make_torus(float major, float minor, int rings, int sides);
// A sphere of radius r centred at the origin, one colour.
Mesh make_sphere(float r, int slices, int stacks, Rgba8 color);
// A checkerboard in the y = 0 plane, [-half, half]^2, cells x cells squares, facing +y.
Mesh make_ground(float half, int cells, Rgba8 a, Rgba8 b);
// A rectangle centred at c spanning c +- u +- v, facing along cross(u, v).
Mesh make_quad(Vec3 c, Vec3 u, Vec3 v, Rgba8 color);

}  // namespace clpipe::demo
