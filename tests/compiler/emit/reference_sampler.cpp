// Host reference sampler (reference_sampler.h): GL's sampling rules in double precision,
// with the discontinuous decisions checked against their boundaries.
#include "compiler/emit/reference_sampler.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "clpipe/format.h"
#include "frontend/format_codec.h"

namespace clpipe::test::ref {

namespace {

// Distance (texels, LOD units, compare units) under which a decision is ambiguous.
constexpr double kCoordEps = 2e-3;
constexpr double kLodEps = 2e-3;
constexpr double kCompareEps = 1e-5;

using Vec4 = std::array<double, 4>;

float as_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint32_t as_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

int dims_of(int target) {
  switch (target) {
    case CLP_TGSI_TEX_BUFFER:
    case CLP_TGSI_TEX_1D:
    case CLP_TGSI_TEX_SHADOW1D:
    case CLP_TGSI_TEX_1D_ARRAY:
    case CLP_TGSI_TEX_SHADOW1D_ARRAY:
      return 1;
    case CLP_TGSI_TEX_3D:
      return 3;
    default:
      return 2;
  }
}
bool is_cube(int t) {
  return t == CLP_TGSI_TEX_CUBE || t == CLP_TGSI_TEX_SHADOWCUBE || t == CLP_TGSI_TEX_CUBE_ARRAY ||
         t == CLP_TGSI_TEX_SHADOWCUBE_ARRAY;
}
bool is_array(int t) {
  return t == CLP_TGSI_TEX_1D_ARRAY || t == CLP_TGSI_TEX_2D_ARRAY ||
         t == CLP_TGSI_TEX_SHADOW1D_ARRAY || t == CLP_TGSI_TEX_SHADOW2D_ARRAY ||
         t == CLP_TGSI_TEX_CUBE_ARRAY || t == CLP_TGSI_TEX_SHADOWCUBE_ARRAY;
}
bool is_shadow(int t) {
  return t == CLP_TGSI_TEX_SHADOW1D || t == CLP_TGSI_TEX_SHADOW2D || t == CLP_TGSI_TEX_SHADOWRECT ||
         t == CLP_TGSI_TEX_SHADOW1D_ARRAY || t == CLP_TGSI_TEX_SHADOW2D_ARRAY ||
         t == CLP_TGSI_TEX_SHADOWCUBE || t == CLP_TGSI_TEX_SHADOWCUBE_ARRAY;
}
bool is_rect(int t) {
  return t == CLP_TGSI_TEX_RECT || t == CLP_TGSI_TEX_SHADOWRECT;
}

uint32_t level_size(uint32_t s0, uint32_t level) {
  return std::max(s0 >> std::min(level, 31u), 1u);
}

struct Sampler {
  const Texture& t;
  Format fmt;
  bool integer, sint;
  bool ambiguous = false;

  explicit Sampler(const Texture& tex)
      : t(tex),
        fmt(Format(tex.view.format)),
        integer(format_is_valid(Format(tex.view.format)) &&
                format_is_pure_integer(Format(tex.view.format))),
        sint(format_is_valid(Format(tex.view.format)) &&
             format_is_pure_sint(Format(tex.view.format))) {}

  uint32_t view_layers() const {
    return t.view.last_layer >= t.view.first_layer ? t.view.last_layer - t.view.first_layer + 1 : 0;
  }

  // Type of the channel behind RGBA component k (VOID for a constant component).
  ChannelType component_type(int k) const {
    const FormatDesc& d = format_desc(fmt);
    const unsigned s = unsigned(d.swizzle[k]);
    return s < 4 ? d.channel[s].type : ChannelType::VOID;
  }

  // Texel bits (floats or integers) at a byte offset, or zeros where none may be read.
  Vec4 decode_at(int64_t off) const {
    Vec4 r{0, 0, 0, 0};
    const uint32_t bb = format_is_valid(fmt) ? format_desc(fmt).block_bytes : 0;
    if (off < 0 || bb == 0 || uint64_t(off) + bb > t.view.data_size ||
        uint64_t(off) + bb > t.data->size()) {
      return r;
    }
    const uint8_t* p = t.data->data() + off;
    if (integer) {
      uint32_t u[4];
      if (sint) {
        int32_t s[4];
        frontend::unpack_rgba_sint(fmt, p, s);
        for (int k = 0; k < 4; ++k)
          u[k] = uint32_t(s[k]);
      } else {
        frontend::unpack_rgba_uint(fmt, p, u);
      }
      for (int k = 0; k < 4; ++k)
        r[k] = double(u[k]);  // exact: bit patterns below 2^32
    } else {
      float f[4];
      frontend::unpack_rgba_float(fmt, p, f);
      for (int k = 0; k < 4; ++k)
        r[k] = f[k];
    }
    return r;
  }

  // Texel (x, y) of `layer` (or 3D slice) at absolute `level`; -1 anywhere: the border.
  Vec4 texel(uint32_t level, int x, int y, int layer) const {
    if (x < 0 || y < 0 || layer < 0) return border();
    const ClpTexView& v = t.view;
    const uint32_t bb = format_desc(fmt).block_bytes;
    const uint32_t w = level_size(v.width, level);
    const bool one_d = v.target == CLP_TEXTARGET_1D || v.target == CLP_TEXTARGET_1D_ARRAY;
    const uint32_t h = one_d ? 1 : level_size(v.height, level);
    if (level >= CLP_TEX_MAX_LEVELS || uint32_t(x) >= w || uint32_t(y) >= h) return Vec4{};
    return decode_at(int64_t(v.level_offset[level]) + int64_t(layer) * v.layer_pitch[level] +
                     int64_t(y) * v.row_pitch[level] + int64_t(x) * bb);
  }

  // GL 4.6 8.14.2: the border colour, clamped to the range of normalized components;
  // integer formats take it as integers (a float border converted toward zero). A border
  // kind of "view format" holds integers for integer formats and floats otherwise.
  Vec4 border() const {
    const ClpSamplerState& s = t.sampler;
    Vec4 r;
    for (int k = 0; k < 4; ++k) {
      const uint32_t b = s.border_color[k];
      if (integer) {
        if (s.border_color_kind != CLP_BORDER_FLOAT) {
          r[k] = double(b);
        } else {
          const double f = std::trunc(double(as_float(b)));
          const double c = std::min(std::max(f, -2147483648.0), 2147483647.0);
          r[k] = double(uint32_t(int32_t(c)));
        }
        continue;
      }
      double f =
          s.border_color_kind == CLP_BORDER_INTEGER ? double(int32_t(b)) : double(as_float(b));
      if (component_type(k) == ChannelType::UNORM) f = std::min(std::max(f, 0.0), 1.0);
      if (component_type(k) == ChannelType::SNORM) f = std::min(std::max(f, -1.0), 1.0);
      r[k] = f;
    }
    return r;
  }

  // Shadow compare (GL 4.6 8.20.1): fixed-point depth clamps the reference to [0, 1].
  double compare(float ref, double texel) {
    double r = ref;
    const ChannelType ty = component_type(0);
    if (ty != ChannelType::FLOAT) r = std::min(std::max(r, 0.0), 1.0);
    const unsigned func = t.sampler.compare_func & 7u;
    if (func != 0 && func != 7 && std::fabs(r - texel) < kCompareEps) ambiguous = true;
    switch (func) {
      case 0:
        return 0;
      case 1:
        return r < texel;
      case 2:
        return r == texel;
      case 3:
        return r <= texel;
      case 4:
        return r > texel;
      case 5:
        return r != texel;
      case 6:
        return r >= texel;
      default:
        return 1;
    }
  }

  void near_integer(double x) {
    if (std::fabs(x - std::round(x)) < kCoordEps) ambiguous = true;
  }

  static int mod(int a, int n) { return ((a % n) + n) % n; }
  // GL's mirrored-repeat of an integer texel index: (size-1) - mirror((i mod 2size) - size).
  static int mirror_index(int i, int size) {
    const int a = mod(i, 2 * size) - size;
    const int m = a >= 0 ? a : -(1 + a);
    return size - 1 - m;
  }
  // EXT_texture_mirror_clamp's modes mirror the coordinate, then clamp it.
  static bool mirror_clamp(uint32_t w) {
    return w == CLP_WRAP_MIRROR_CLAMP || w == CLP_WRAP_MIRROR_CLAMP_TO_BORDER;
  }
  // GL 4.6 table 8.20, MIRROR_CLAMP_TO_EDGE: clamp(mirror(i), 0, size - 1).
  static int mirror_edge(int i, int size) {
    const int m = i >= 0 ? i : -(1 + i);
    return std::min(std::max(m, 0), size - 1);
  }

  int wrap_nearest(uint32_t wrap, double x, int size) {
    if (mirror_clamp(wrap)) x = std::fabs(x);
    near_integer(x);
    const int i = int(std::floor(std::min(std::max(x, -1e9), 1e9)));
    switch (wrap) {
      case CLP_WRAP_REPEAT:
        return mod(i, size);
      case CLP_WRAP_MIRROR_REPEAT:
        return mirror_index(i, size);
      case CLP_WRAP_MIRROR_CLAMP_TO_EDGE:
        return mirror_edge(i, size);
      case CLP_WRAP_CLAMP_TO_BORDER:
      case CLP_WRAP_MIRROR_CLAMP_TO_BORDER:
        return i < 0 || i >= size ? -1 : i;
      default:
        return std::min(std::max(i, 0), size - 1);
    }
  }

  void wrap_linear(uint32_t wrap, double x, int size, int* i0, int* i1, double* a) const {
    if (mirror_clamp(wrap)) x = std::fabs(x);
    if (wrap == CLP_WRAP_CLAMP || wrap == CLP_WRAP_MIRROR_CLAMP)
      x = std::min(std::max(x, 0.0), double(size));  // GL_CLAMP clamps s to [0, 1]
    x = std::min(std::max(x, -1e9), 1e9) - 0.5;
    const double fl = std::floor(x);
    *a = x - fl;
    const int j = int(fl);
    switch (wrap) {
      case CLP_WRAP_REPEAT:
        *i0 = mod(j, size);
        *i1 = mod(j + 1, size);
        break;
      case CLP_WRAP_MIRROR_REPEAT:
        *i0 = mirror_index(j, size);
        *i1 = mirror_index(j + 1, size);
        break;
      case CLP_WRAP_CLAMP_TO_EDGE:
        *i0 = std::min(std::max(j, 0), size - 1);
        *i1 = std::min(std::max(j + 1, 0), size - 1);
        break;
      case CLP_WRAP_MIRROR_CLAMP_TO_EDGE:
        *i0 = mirror_edge(j, size);
        *i1 = mirror_edge(j + 1, size);
        break;
      default:
        *i0 = j < 0 || j >= size ? -1 : j;
        *i1 = j + 1 < 0 || j + 1 >= size ? -1 : j + 1;
        break;
    }
  }

  // A texel of the footprint, compared when shadow.
  Vec4 value(uint32_t level, int x, int y, int layer, bool shadow, float ref) {
    const Vec4 v = texel(level, x, y, layer);
    if (!shadow) return v;
    const double c = compare(ref, v[0]);
    return Vec4{c, c, c, c};
  }

  // --- Cube maps (GL 4.6 table 8.19) ---------------------------------------------------
  // Face of a direction; near-ties of the two largest magnitudes are ambiguous.
  int cube_face(double x, double y, double z) {
    const double ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
    double m[3] = {ax, ay, az};
    std::sort(m, m + 3);
    if (m[2] - m[1] < 1e-5 * m[2]) ambiguous = true;
    if (ax >= ay && ax >= az) return x >= 0 ? 0 : 1;
    if (ay >= az) return y >= 0 ? 2 : 3;
    return z >= 0 ? 4 : 5;
  }
  // (sc, tc, ma) per face.
  static std::array<double, 3> sc_tc_ma(int face, double x, double y, double z) {
    switch (face) {
      case 0:
        return {-z, -y, x};
      case 1:
        return {z, -y, -x};
      case 2:
        return {x, z, y};
      case 3:
        return {x, -z, -y};
      case 4:
        return {x, -y, z};
      default:
        return {-x, -y, -z};
    }
  }
  static std::array<double, 2> face_st(int face, double x, double y, double z) {
    const auto m = sc_tc_ma(face, x, y, z);
    return {0.5 * (m[0] / std::fabs(m[2]) + 1.0), 0.5 * (m[1] / std::fabs(m[2]) + 1.0)};
  }
  // A point on the plane of `face` (ma = 1) with the given sc, tc.
  static std::array<double, 3> face_point(int face, double sc, double tc) {
    switch (face) {
      case 0:
        return {1, -tc, -sc};
      case 1:
        return {-1, -tc, sc};
      case 2:
        return {sc, 1, tc};
      case 3:
        return {sc, -1, -tc};
      case 4:
        return {sc, -tc, 1};
      default:
        return {-sc, -tc, -1};
    }
  }
  // The texel across an edge: fold the face plane over the cube's edge by the distance
  // the texel centre lies beyond it, then read the face the folded point lies on.
  void fold(int face, int i, int j, int n, int* of, int* oi, int* oj) const {
    const double sc = (2.0 * i + 1.0) / n - 1.0, tc = (2.0 * j + 1.0) / n - 1.0;
    std::array<double, 3> p = face_point(face, sc, tc);
    const int major = face / 2;
    int across = -1;
    for (int k = 0; k < 3; ++k) {
      if (k != major && std::fabs(p[k]) > 1.0) across = k;
    }
    const double excess = std::fabs(p[across]) - 1.0;
    p[major] = (p[major] > 0 ? 1.0 : -1.0) * (1.0 - excess);
    p[across] = p[across] > 0 ? 1.0 : -1.0;
    *of = 2 * across + (p[across] > 0 ? 0 : 1);
    const auto st = face_st(*of, p[0], p[1], p[2]);
    *oi = std::min(std::max(int(std::floor(st[0] * n)), 0), n - 1);
    *oj = std::min(std::max(int(std::floor(st[1] * n)), 0), n - 1);
  }
  Vec4 cube_texel(uint32_t level, int face0, int face, int i, int j, int n, bool shadow,
                  float ref) {
    const bool oi = i < 0 || i >= n, oj = j < 0 || j >= n;
    if (!oi && !oj) return value(level, i, j, face0 + face, shadow, ref);
    const int ci = std::min(std::max(i, 0), n - 1), cj = std::min(std::max(j, 0), n - 1);
    int f, x, y;
    if (oi != oj) {
      fold(face, i, j, n, &f, &x, &y);
      return value(level, x, y, face0 + f, shadow, ref);
    }
    Vec4 r = value(level, ci, cj, face0 + face, shadow, ref);
    if (integer && !shadow) return r;  // integers are not averaged: the face's corner
    fold(face, i, cj, n, &f, &x, &y);
    const Vec4 a = value(level, x, y, face0 + f, shadow, ref);
    fold(face, ci, j, n, &f, &x, &y);
    const Vec4 b = value(level, x, y, face0 + f, shadow, ref);
    for (int k = 0; k < 4; ++k)
      r[k] = (r[k] + a[k] + b[k]) / 3.0;
    return r;
  }

  // --- Where a lane samples --------------------------------------------------------------
  struct Point {
    float u = 0, v = 0, w = 0;
    int layer = 0, face = -1;
    double lambda_raw = 0;
    bool normalized = true;
  };

  Point point(int target, const Coords& c) {
    Point p;
    const int dims = dims_of(target);
    double du[2] = {c.ddx[0], c.ddy[0]}, dv[2] = {c.ddx[1], c.ddy[1]}, dw[2] = {c.ddx[2], c.ddy[2]};
    int layer = 0;
    if (is_cube(target)) {
      const int face = cube_face(c.s, c.t, c.r);
      // The device computes the face coordinates in float: use the same values.
      const auto m = sc_tc_ma(face, c.s, c.t, c.r);
      const float inv = 1.0f / std::fabs(float(m[2]));
      p.u = 0.5f * (float(m[0]) * inv + 1.0f);
      p.v = 0.5f * (float(m[1]) * inv + 1.0f);
      for (int k = 0; k < 2; ++k) {
        const float* g = k == 0 ? c.ddx : c.ddy;
        const auto n = face_st(face, double(c.s + g[0]), double(c.t + g[1]), double(c.r + g[2]));
        du[k] = n[0] - p.u;
        dv[k] = n[1] - p.v;
        dw[k] = 0;
      }
      layer = face;
      p.face = face;
      if (is_array(target)) {
        const int cubes = int(view_layers() / 6);
        layer += 6 * std::min(std::max(int(std::floor(c.layer + 0.5f)), 0), std::max(cubes - 1, 0));
      }
    } else {
      p.u = c.s;
      p.v = dims >= 2 ? c.t : 0.0f;
      p.w = dims >= 3 ? c.r : 0.0f;
      if (is_array(target)) {
        layer = std::min(std::max(int(std::floor(c.layer + 0.5f)), 0),
                         std::max(int(view_layers()) - 1, 0));
      }
    }
    p.layer = int(t.view.first_layer) + layer;
    p.normalized = !is_rect(target) && !t.sampler.unnormalized_coords;
    const uint32_t base = t.view.first_level;
    const double sx = p.normalized ? level_size(t.view.width, base) : 1.0;
    const double sy = p.normalized ? level_size(t.view.height, base) : 1.0;
    const double sz = p.normalized ? level_size(t.view.depth, base) : 1.0;
    // GL 4.6 (8.7): rho = max over x and y of the length of the scaled gradient.
    double rho2 = 0;
    for (int k = 0; k < 2; ++k) {
      double q = du[k] * sx * du[k] * sx;
      if (dims >= 2 || is_cube(target)) q += dv[k] * sy * dv[k] * sy;
      if (dims >= 3) q += dw[k] * sz * dw[k] * sz;
      rho2 = std::max(rho2, q);
    }
    p.lambda_raw = rho2 > 0 ? 0.5 * std::log2(rho2) : -std::numeric_limits<double>::infinity();
    return p;
  }

  // Texel-space coordinates of a point at absolute level L (float, as the device does).
  std::array<float, 3> texel_coords(const Point& p, const int off[3], uint32_t level) const {
    std::array<float, 3> x = {p.u, p.v, p.w};
    if (p.normalized) {
      x[0] *= float(level_size(t.view.width, level));
      x[1] *= float(level_size(t.view.height, level));
      x[2] *= float(level_size(t.view.depth, level));
    }
    for (int k = 0; k < 3; ++k)
      x[k] += float(off[k]);
    return x;
  }

  // Filters one level (nearest or linear, GL 4.6 8.14.2 / 8.15).
  Vec4 filter(int target, const Point& p, const int off[3], uint32_t level, bool linear,
              bool shadow, float ref) {
    const int dims = is_cube(target) ? 2 : dims_of(target);
    const auto x = texel_coords(p, off, level);
    const int w = int(level_size(t.view.width, level));
    const int h = dims >= 2 ? int(level_size(t.view.height, level)) : 1;
    const int d = dims >= 3 ? int(level_size(t.view.depth, level)) : 1;
    const ClpSamplerState& s = t.sampler;
    Vec4 r{0, 0, 0, 0};
    if (is_cube(target) && s.seamless_cube_map) {
      const int face0 = p.layer - p.face;
      if (!linear) {
        near_integer(x[0]);
        near_integer(x[1]);
        const int i = std::min(std::max(int(std::floor(x[0])), 0), w - 1);
        const int j = std::min(std::max(int(std::floor(x[1])), 0), w - 1);
        r = value(level, i, j, p.layer, shadow, ref);
      } else {
        const double xs = std::min(std::max(double(x[0]), -0.5), w + 0.5) - 0.5;
        const double ys = std::min(std::max(double(x[1]), -0.5), w + 0.5) - 0.5;
        const int i0 = int(std::floor(xs)), j0 = int(std::floor(ys));
        const double a = xs - i0, b = ys - j0;
        for (int jj = 0; jj < 2; ++jj) {
          for (int ii = 0; ii < 2; ++ii) {
            const double wt = (ii ? a : 1 - a) * (jj ? b : 1 - b);
            const Vec4 v = cube_texel(level, face0, p.face, i0 + ii, j0 + jj, w, shadow, ref);
            for (int k = 0; k < 4; ++k)
              r[k] += wt * v[k];
          }
        }
      }
    } else if (!linear) {
      const int i = wrap_nearest(s.wrap[0], x[0], w);
      const int j = dims >= 2 ? wrap_nearest(s.wrap[1], x[1], h) : 0;
      const int k = dims >= 3 ? wrap_nearest(s.wrap[2], x[2], d) : p.layer;
      r = value(level, i, j, k, shadow, ref);
    } else {
      int i[2], j[2] = {0, 0}, k[2] = {p.layer, p.layer};
      double a, b = 0, c = 0;
      wrap_linear(s.wrap[0], x[0], w, &i[0], &i[1], &a);
      if (dims >= 2) wrap_linear(s.wrap[1], x[1], h, &j[0], &j[1], &b);
      if (dims >= 3) wrap_linear(s.wrap[2], x[2], d, &k[0], &k[1], &c);
      for (int kk = 0; kk < (dims >= 3 ? 2 : 1); ++kk) {
        for (int jj = 0; jj < (dims >= 2 ? 2 : 1); ++jj) {
          for (int ii = 0; ii < 2; ++ii) {
            const double wt = (ii ? a : 1 - a) * (dims >= 2 ? (jj ? b : 1 - b) : 1.0) *
                              (dims >= 3 ? (kk ? c : 1 - c) : 1.0);
            const Vec4 v = value(level, i[ii], j[jj], k[kk], shadow, ref);
            for (int q = 0; q < 4; ++q)
              r[q] += wt * v[q];
          }
        }
      }
    }
    if (shadow) r = Vec4{r[0], r[0], r[0], 1.0};
    return r;
  }

  // Out of range for a texel fetch: all four results 0, whatever the swizzle
  // (sampling_abi.h).
  Result zero() const {
    Result out;
    out.integer = integer;
    return out;
  }

  Result finish(const Vec4& v) const {
    Result out;
    out.integer = integer;
    for (int c = 0; c < 4; ++c) {
      const uint32_t sw = t.view.swizzle[c];
      double x = sw < 4 ? v[sw] : 0.0;
      if (sw == 5) x = 1.0;
      out.bits[c] = integer ? uint32_t(int64_t(x)) : as_bits(float(x));
    }
    out.ambiguous = ambiguous;
    return out;
  }
};

// Offsets apply along the target's spatial axes only (none for cube maps).
int offset_axes(int target) {
  return is_cube(target) ? 0 : dims_of(target);
}

}  // namespace

float Result::f(int c) const {
  return as_float(bits[size_t(c)]);
}

Result sample(const Texture& tex, int target, LodMode mode, const Coords& c) {
  Sampler s(tex);
  const ClpSamplerState& smp = tex.sampler;
  int off[3] = {0, 0, 0};
  for (int k = 0; k < offset_axes(target); ++k)
    off[k] = c.offset[k];
  const Sampler::Point p = s.point(target, c);
  // GL 4.6 (8.6): lambda' = lambda_base + biases, clamped to [min_lod, max_lod].
  double lambda = mode == LodMode::kExplicit ? double(c.lod) : p.lambda_raw;
  if (mode == LodMode::kBias) lambda += c.lod;
  lambda += smp.lod_bias;
  lambda = std::min(std::max(lambda, double(smp.min_lod)), double(smp.max_lod));
  const bool mag = !(lambda > 0);
  if (std::fabs(lambda) < kLodEps && smp.min_img_filter != smp.mag_img_filter) s.ambiguous = true;
  const bool linear =
      !s.integer && (mag ? smp.mag_img_filter : smp.min_img_filter) == CLP_FILTER_LINEAR;
  uint32_t mip = mag || is_rect(target) ? CLP_MIP_NONE : smp.min_mip_filter;
  if (s.integer && mip == CLP_MIP_LINEAR) mip = CLP_MIP_NEAREST;
  const uint32_t base = tex.view.first_level;
  const int top = tex.view.last_level > base ? int(tex.view.last_level - base) : 0;
  int l0 = 0, l1 = 0;
  double frac = 0;
  if (mip == CLP_MIP_NEAREST) {
    // GL: d = ceil(lambda + 1/2) - 1 for lambda > 1/2, else the base level.
    const double fr = lambda - 0.5 - std::floor(lambda - 0.5);
    if (lambda > 0.5 - kLodEps && (fr < kLodEps || fr > 1 - kLodEps)) s.ambiguous = true;
    l0 = lambda <= 0.5 ? 0 : std::min(int(std::ceil(lambda + 0.5)) - 1, top);
  } else if (mip == CLP_MIP_LINEAR) {
    const double fl = std::floor(lambda);
    l0 = std::min(int(fl), top);
    l1 = std::min(l0 + 1, top);
    frac = l0 == top ? 0 : lambda - fl;
  }
  const bool shadow = is_shadow(target) && smp.compare_mode != 0;
  Vec4 r = s.filter(target, p, off, base + uint32_t(l0), linear, shadow, c.ref);
  if (frac > 0) {
    const Vec4 r1 = s.filter(target, p, off, base + uint32_t(l1), linear, shadow, c.ref);
    for (int k = 0; k < 4; ++k)
      r[k] = r[k] * (1 - frac) + r1[k] * frac;
  }
  return s.finish(r);
}

Result fetch(const Texture& tex, int target, int x, int y, int z, int level, const int off[3]) {
  Sampler s(tex);
  const ClpTexView& v = tex.view;
  const int axes = offset_axes(target);
  x += off[0];
  if (axes >= 2) y += off[1];
  if (axes >= 3) z += off[2];
  if (target == CLP_TGSI_TEX_BUFFER) {
    const uint32_t bb = format_desc(s.fmt).block_bytes;
    if (x < 0 || uint64_t(x) * bb + bb > v.buffer_size) return s.zero();
    return s.finish(s.decode_at(int64_t(v.buffer_offset) + int64_t(x) * bb));
  }
  if (level < 0 || uint32_t(level) + v.first_level > v.last_level) return s.zero();
  const uint32_t L = v.first_level + uint32_t(level);
  int layer = int(v.first_layer);
  if (target == CLP_TGSI_TEX_1D_ARRAY || target == CLP_TGSI_TEX_SHADOW1D_ARRAY) {
    if (y < 0 || uint32_t(y) >= s.view_layers()) return s.zero();
    layer += y;
    y = 0;
  } else if (is_array(target)) {
    if (z < 0 || uint32_t(z) >= s.view_layers()) return s.zero();
    layer += z;
  } else if (target == CLP_TGSI_TEX_3D) {
    if (z < 0 || uint32_t(z) >= level_size(v.depth, L)) return s.zero();
    layer = z;
  }
  if (dims_of(target) == 1 && y != 0) return s.zero();
  const bool one_d = dims_of(target) == 1;
  const uint32_t w = level_size(v.width, L), h = one_d ? 1 : level_size(v.height, L);
  if (x < 0 || y < 0 || uint32_t(x) >= w || uint32_t(y) >= h) return s.zero();
  return s.finish(s.texel(L, x, y, layer));
}

Result gather(const Texture& tex, int target, const Coords& c, int comp, const int* offsets4) {
  Sampler s(tex);
  const ClpSamplerState& smp = tex.sampler;
  const Sampler::Point p = s.point(target, c);
  const uint32_t level = tex.view.first_level;
  const bool shadow = is_shadow(target) && smp.compare_mode != 0;
  const bool one_d = dims_of(target) == 1 && !is_cube(target);
  const int w = int(level_size(tex.view.width, level));
  const int h = one_d ? 1 : int(level_size(tex.view.height, level));
  // Footprint order of textureGather: (i0,j1) (i1,j1) (i1,j0) (i0,j0).
  const int pick_i[4] = {0, 1, 1, 0}, pick_j[4] = {1, 1, 0, 0};
  Result out;
  out.integer = false;
  for (int k = 0; k < 4; ++k) {
    int off[3] = {0, 0, 0};
    for (int a = 0; a < offset_axes(target); ++a)
      off[a] = c.offset[a];
    if (offsets4) {
      off[0] = offsets4[2 * k];
      off[1] = offsets4[2 * k + 1];
    }
    const auto x = s.texel_coords(p, off, level);
    // The footprint is a discontinuous function of the coordinates at texel centres.
    s.near_integer(double(x[0]) - 0.5);
    if (!one_d) s.near_integer(double(x[1]) - 0.5);
    Vec4 t;
    if (is_cube(target) && smp.seamless_cube_map) {
      const double xs = std::min(std::max(double(x[0]), -0.5), w + 0.5) - 0.5;
      const double ys = std::min(std::max(double(x[1]), -0.5), w + 0.5) - 0.5;
      const int i0 = int(std::floor(xs)), j0 = int(std::floor(ys));
      t = s.cube_texel(level, p.layer - p.face, p.face, i0 + pick_i[k], j0 + pick_j[k], w, shadow,
                       c.ref);
    } else {
      int i0, i1, j0 = 0, j1 = 0;
      double a, b;
      s.wrap_linear(smp.wrap[0], x[0], w, &i0, &i1, &a);
      if (!one_d) s.wrap_linear(smp.wrap[1], x[1], h, &j0, &j1, &b);
      t = s.value(level, pick_i[k] ? i1 : i0, one_d ? 0 : (pick_j[k] ? j1 : j0), p.layer, shadow,
                  c.ref);
    }
    double val;
    if (shadow) {
      val = t[0];
      out.bits[size_t(k)] = as_bits(float(val));
    } else {
      const uint32_t sw = tex.view.swizzle[comp & 3];
      val = sw < 4 ? t[sw] : (sw == 5 ? 1.0 : 0.0);
      if (s.integer) {
        out.bits[size_t(k)] = uint32_t(int64_t(val));
      } else {
        out.bits[size_t(k)] = as_bits(float(val));
      }
    }
  }
  out.integer = s.integer && !shadow;
  out.ambiguous = s.ambiguous;
  return out;
}

bool close(float got, float want, float abs_tol, float rel_tol) {
  if (std::isnan(want)) return std::isnan(got);
  return std::fabs(double(got) - double(want)) <= abs_tol + rel_tol * std::fabs(double(want));
}

}  // namespace clpipe::test::ref
