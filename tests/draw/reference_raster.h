// A small scalar host rasterizer: the oracle of the draw tests. It implements the rules
// clpipe promises (GL/Gallium): float window transform, snapping to 1/256 pixel, exact
// integer edge functions with the top-left (or bottom-left) fill convention, sample at
// the pixel centre (or corner), perspective-correct and linear barycentrics computed
// from the edge functions in double precision. No clipping: tests keep their vertices
// inside the clip volume (the device clips x and y only at a guard band, and cuts
// triangles to the viewport's pixels instead).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace clpipe::test {

struct RefState {
  uint32_t width = 0, height = 0;
  float vp_scale[3] = {1, 1, 1}, vp_translate[3] = {0, 0, 0};
  bool half_pixel_center = true;
  bool bottom_edge_rule = false;
  int scissor[4] = {0, 0, 1 << 30, 1 << 30};  // [x0, y0, x1, y1)
  bool cull_front = false, cull_back = false, front_ccw = false;
  // Multisampling: the sample tested and interpolated at, in 1/256 pixel from the pixel
  // centre (ref_sample_offset).
  int sample_dx = 0, sample_dy = 0;
};

// The standard position of sample i of n (2, 4, 8; GL / D3D patterns), in 1/256 pixel
// from the pixel centre, as {dx, dy}. Written out here, not taken from clpipe's table.
std::array<int, 2> ref_sample_offset(unsigned n, unsigned i);

// ref_state(w, h) tested and interpolated at sample i of n.
RefState ref_sample_state(uint32_t w, uint32_t h, unsigned n, unsigned i);

struct RefVertex {
  std::array<float, 4> pos;  // clip space
  std::vector<float> attr;
};

struct RefFragment {
  int x = 0, y = 0;
  double z = 0;
  bool front = false;
  std::vector<double> persp;   // perspective-correct attributes
  std::vector<double> linear;  // screen-linear attributes
};

// The fragments of one triangle (none if culled or degenerate), in raster order.
std::vector<RefFragment> ref_triangle(const RefState& s, const RefVertex& a, const RefVertex& b,
                                      const RefVertex& c);

// A state mapping NDC onto a w x h window like basic_setup().
RefState ref_state(uint32_t w, uint32_t h);

}  // namespace clpipe::test
