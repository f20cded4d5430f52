#include "draw/reference_raster.h"

#include <algorithm>
#include <cmath>

namespace clpipe::test {

namespace {

struct Win {
  float x, y, z, inv_w;
  int64_t X, Y;
};

Win to_window(const RefState& s, const RefVertex& v) {
  // The same float operations, in the same order, as the device (prim_emit.h).
  Win w;
  const float iw = 1.0f / v.pos[3];
  w.x = v.pos[0] * iw * s.vp_scale[0] + s.vp_translate[0];
  w.y = v.pos[1] * iw * s.vp_scale[1] + s.vp_translate[1];
  w.z = v.pos[2] * iw * s.vp_scale[2] + s.vp_translate[2];
  w.inv_w = iw;
  w.X = int64_t(std::nearbyint(w.x * 256.0f));
  w.Y = int64_t(std::nearbyint(w.y * 256.0f));
  return w;
}

}  // namespace

std::array<int, 2> ref_sample_offset(unsigned n, unsigned i) {
  // In 1/16 pixel from the centre.
  static const int k2[2][2] = {{4, 4}, {-4, -4}};
  static const int k4[4][2] = {{-2, -6}, {6, -2}, {-6, 2}, {2, 6}};
  static const int k8[8][2] = {{1, -3}, {-1, 3},  {5, 1}, {-3, -5},
                               {-5, 5}, {-7, -1}, {3, 7}, {7, -7}};
  const int* p = n == 2 ? k2[i % 2] : n == 4 ? k4[i % 4] : n == 8 ? k8[i % 8] : nullptr;
  if (!p) return {0, 0};
  return {p[0] * 16, p[1] * 16};
}

RefState ref_state(uint32_t w, uint32_t h) {
  RefState s;
  s.width = w;
  s.height = h;
  s.vp_scale[0] = w * 0.5f;
  s.vp_scale[1] = h * 0.5f;
  s.vp_scale[2] = 0.5f;
  s.vp_translate[0] = w * 0.5f;
  s.vp_translate[1] = h * 0.5f;
  s.vp_translate[2] = 0.5f;
  return s;
}

std::vector<RefFragment> ref_triangle(const RefState& s, const RefVertex& a, const RefVertex& b,
                                      const RefVertex& c) {
  const RefVertex* v[3] = {&a, &b, &c};
  Win w[3] = {to_window(s, a), to_window(s, b), to_window(s, c)};
  // Facing from the float window area; a negative area is counter-clockwise (y down).
  const float area_f =
      (w[1].x - w[0].x) * (w[2].y - w[0].y) - (w[2].x - w[0].x) * (w[1].y - w[0].y);
  if (area_f == 0.0f) return {};
  const bool front = (area_f < 0.0f) == s.front_ccw;
  if ((front && s.cull_front) || (!front && s.cull_back)) return {};
  int64_t area = (w[1].X - w[0].X) * (w[2].Y - w[0].Y) - (w[2].X - w[0].X) * (w[1].Y - w[0].Y);
  if (area == 0) return {};
  if (area < 0) {
    std::swap(w[1], w[2]);
    std::swap(v[1], v[2]);
    area = -area;
  }
  const int64_t off = s.half_pixel_center ? 128 : 0;
  const int x0 = std::max(s.scissor[0], 0), y0 = std::max(s.scissor[1], 0);
  const int x1 = std::min<int>(s.scissor[2], int(s.width)),
            y1 = std::min<int>(s.scissor[3], int(s.height));
  std::vector<RefFragment> out;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      const int64_t X = int64_t(x) * 256 + off + s.sample_dx;
      const int64_t Y = int64_t(y) * 256 + off + s.sample_dy;
      int64_t e[3];
      bool inside = true;
      for (int k = 0; k < 3 && inside; ++k) {
        const Win& p = w[k];
        const Win& q = w[(k + 1) % 3];
        const int64_t A = p.Y - q.Y, B = q.X - p.X;
        e[k] = A * (X - p.X) + B * (Y - p.Y);
        const bool incl = A > 0 || (A == 0 && (s.bottom_edge_rule ? B < 0 : B > 0));
        inside = e[k] > 0 || (e[k] == 0 && incl);
      }
      if (!inside) continue;
      // Screen barycentric of vertex i = edge function of the opposite edge / area.
      double bary[3] = {double(e[1]) / double(area), double(e[2]) / double(area),
                        double(e[0]) / double(area)};
      RefFragment f;
      f.x = x;
      f.y = y;
      f.front = front;
      f.z = bary[0] * w[0].z + bary[1] * w[1].z + bary[2] * w[2].z;
      double pw[3], sum = 0;
      for (int i = 0; i < 3; ++i) {
        pw[i] = bary[i] * w[i].inv_w;
        sum += pw[i];
      }
      const size_t n = v[0]->attr.size();
      f.persp.resize(n);
      f.linear.resize(n);
      for (size_t k = 0; k < n; ++k) {
        double p = 0, l = 0;
        for (int i = 0; i < 3; ++i) {
          p += pw[i] / sum * v[i]->attr[k];
          l += bary[i] * v[i]->attr[k];
        }
        f.persp[k] = p;
        f.linear[k] = l;
      }
      out.push_back(std::move(f));
    }
  }
  return out;
}

RefState ref_sample_state(uint32_t w, uint32_t h, unsigned n, unsigned i) {
  RefState s = ref_state(w, h);
  const std::array<int, 2> d = ref_sample_offset(n, i);
  s.sample_dx = d[0];
  s.sample_dy = d[1];
  return s;
}

}  // namespace clpipe::test
