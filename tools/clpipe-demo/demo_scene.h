// The demo scene of clpipe-demo, drawn through the public API only: a lit rotating torus,
// a lit sphere, a checkerboard ground plane and translucent panes, with a depth buffer,
// back-face culling and alpha blending. Lighting (ambient, diffuse, Blinn-Phong
// specular) is evaluated per pixel in a TGSI fragment shader; vertex colours carry the
// albedo and the alpha of the panes.
//
// Producer: DemoScene enqueues each frame's clears and draws on the caller's Context;
// consumers: demo_app.cpp (frames, PNG) and the demo test (which projects the scene
// constants below to find known pixels).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <clpipe/clpipe.h>

#include "demo_math.h"
#include "meshes.h"

namespace clpipe::demo {

// A failed API call of the demo, with the call and the status message.
class DemoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Scene constants (world space, y up). The sphere is drawn before the ground behind it,
// so its pixels show the depth test at work; the translucent red pane covers part of the
// sphere (not its centre), so its pixels mix both colours.
constexpr Vec3 kEye{0.0f, 3.2f, 7.5f};
constexpr Vec3 kLookAt{0.0f, 0.7f, 0.0f};
constexpr Vec3 kSphereCentre{1.7f, 0.9f, -0.8f};
constexpr float kSphereRadius = 0.9f;
constexpr Vec3 kRedPaneCentre{0.94f, 1.02f, 0.71f};
constexpr float kRedPaneHalfSize = 0.3f;  // a square facing +z
// Direction towards the light (normalised at use).
constexpr Vec3 kLightDir{-0.45f, 0.8f, 0.5f};
// Colours (RGBA8): clear colour, sphere albedo, red pane (alpha 50 %).
constexpr Rgba8 kClearColor{20, 24, 38, 255};
constexpr Rgba8 kSphereColor{40, 90, 235, 255};
constexpr Rgba8 kRedPaneColor{235, 30, 30, 128};

// World -> clip transform of the camera for a width x height image.
Mat4 view_projection(uint32_t width, uint32_t height);
// Pixel (column, row; row 0 at the top of the image) where world point p lands.
void project_to_pixel(Vec3 p, uint32_t width, uint32_t height, float* x, float* y);

class DemoScene {
 public:
  // Creates the render targets, meshes, shaders and state objects. Throws DemoError.
  DemoScene(Screen& screen, Context& ctx, uint32_t width, uint32_t height);
  ~DemoScene();

  // Enqueues frame `frame` (the torus turns with it): clear, then every object.
  void render(int frame);
  // The colour buffer as RGB8, rows top first (waits for the queued frames).
  std::vector<uint8_t> read_rgb();

  // Triangles one frame draws.
  uint64_t triangles_per_frame() const;

 private:
  struct GpuMesh {
    ResourceRef vertices, indices;
    uint32_t index_count = 0;
  };
  // How an object's fragments combine with the framebuffer.
  // TODO(issue 5): a textured material (sampler view + sampler state, a shader pair
  // passing TEXCOORD to a TEX instruction) for a textured mesh once textures work.
  struct Material {
    RasterizerHandle rasterizer;
    BlendHandle blend;
    DepthStencilAlphaHandle depth_stencil;
  };
  struct Object {
    GpuMesh mesh;
    const Material* material = nullptr;
    Mat4 model;          // placement
    bool spins = false;  // turned by the frame number before placement
  };

  GpuMesh upload(const Mesh& mesh);
  void draw(const Object& object, const Mat4& model);

  Screen& screen_;
  Context& ctx_;
  uint32_t width_, height_;
  ResourceRef color_, depth_;
  SurfaceHandle color_surf_, depth_surf_;
  ShaderHandle vs_, fs_;
  VertexElementsHandle elements_;
  Material opaque_, two_sided_, translucent_;
  std::vector<Object> objects_;
};

}  // namespace clpipe::demo
