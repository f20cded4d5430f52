// Float opcodes on the device against host expectations: arithmetic, compares, rounding,
// conversions, transcendental functions, modifiers, _SAT, LEGACY_MATH_RULES, dot
// products, channel-dependent opcodes and packing — with NaN, infinities, signed zeros,
// denormals and out-of-range values.
#include <cfenv>
#include <climits>
#include <cmath>

#include "compiler/emit/op_table.h"

using namespace clpipe::test::emit;

namespace {

float F(uint32_t b) {
  return bitsf(b);
}
uint32_t B(float f) {
  return fbits(f);
}

std::vector<float> edge_floats() {
  return {0.0f,          -0.0f,     1.0f,   -1.0f,         0.5f,           -0.5f,
          1.5f,          2.5f,      -2.5f,  3.5f,          -3.7f,          0.1f,
          123.456f,      -1e-3f,    1e-40f, -1e-40f,       3.4e38f,        -3.4e38f,
          INFINITY,      -INFINITY, NAN,    2147483648.0f, -2147483648.0f, 2147483520.0f,
          4294967296.0f, 3e9f,      -3e9f,  1e10f,         65535.5f,       0.49999997f};
}

OpInputs pairs(const std::vector<float>& v) {
  OpInputs out;
  for (size_t i = 0; i < v.size(); ++i) {
    for (size_t j = 0; j < v.size(); ++j) {
      out.push_back({B(v[i]), B(v[j]), B(v[(i + 2 * j + 1) % v.size()]), B(v[(j + 3) % v.size()])});
    }
  }
  return out;
}

int32_t f2i_sat(float x) {
  if (std::isnan(x)) return 0;
  if (x >= 2147483648.0f) return INT32_MAX;
  if (x <= -2147483904.0f) return INT32_MIN;
  return int32_t(std::trunc(x));
}
uint32_t f2u_sat(float x) {
  if (std::isnan(x) || x <= -1.0f) return 0;
  if (x >= 4294967296.0f) return UINT32_MAX;
  return x < 0.0f ? 0u : uint32_t(std::trunc(x));
}
uint32_t mask_f(bool b) {
  return b ? B(1.0f) : 0u;
}
uint32_t mask_u(bool b) {
  return b ? ~0u : 0u;
}
uint32_t sat(float x) {
  return B(std::fmin(std::fmax(x, 0.0f), 1.0f));
}

}  // namespace

TEST_CASE("emit: float arithmetic, compares, rounding and conversions", "[emit][alu]") {
  std::fesetround(FE_TONEAREST);
  using U = uint32_t;
  std::vector<OpCase> cases = {
      {"ADD",
       "ADD $D, $S0, $S1",
       false,
       [](U a, U b, U) { return B(F(a) + F(b)); },
       {},
       Check::kFloat},
      {"ADD -b (fsub)",
       "ADD $D, $S0, -$S1",
       false,
       [](U a, U b, U) { return B(F(a) - F(b)); },
       {},
       Check::kFloat},
      {"MUL",
       "MUL $D, $S0, $S1",
       false,
       [](U a, U b, U) { return B(F(a) * F(b)); },
       {},
       Check::kFloat},
      {"MAD", "MAD $D, $S0, $S1, $S2", false, [](U a, U b, U c) { return B(F(a) * F(b) + F(c)); },
       [](U a, U b, U c) { return B(std::fma(F(a), F(b), F(c))); }, Check::kFloat},
      {"FMA",
       "FMA $D, $S0, $S1, $S2",
       false,
       [](U a, U b, U c) { return B(std::fma(F(a), F(b), F(c))); },
       {},
       Check::kFloat},
      {"DIV",
       "DIV $D, $S0, $S1",
       false,
       [](U a, U b, U) { return B(F(a) / F(b)); },
       {},
       Check::kUlp,
       3},
      {"MIN",
       "MIN $D, $S0, $S1",
       false,
       [](U a, U b, U) { return B(std::fmin(F(a), F(b))); },
       {},
       Check::kFloat},
      {"MAX",
       "MAX $D, $S0, $S1",
       false,
       [](U a, U b, U) { return B(std::fmax(F(a), F(b))); },
       {},
       Check::kFloat},
      // GLSL abs(x) = MAX(x, -x) and -abs(x) = -MAX(x, -x): +-0 must give +0 (and -0), so
      // MIN/MAX order -0 below +0; the bits are compared, NaN excepted.
      {"MAX x, -x (abs of signed zeros)",
       "MAX $D, $S0, -$S0",
       false,
       [](U a, U, U) { return std::isnan(F(a)) ? a : B(std::fabs(F(a))); },
       {},
       Check::kBits},
      {"MIN x, -x (-abs of signed zeros)",
       "MIN $D, $S0, -$S0",
       false,
       [](U a, U, U) { return std::isnan(F(a)) ? a : B(-std::fabs(F(a))); },
       {},
       Check::kBits},
      {"MAX -|x|",
       "MAX $D, -|$S0|, $S1",
       false,
       [](U a, U b, U) { return B(std::fmax(-std::fabs(F(a)), F(b))); },
       {},
       Check::kFloat},
      {"SLT", "SLT $D, $S0, $S1", false, [](U a, U b, U) { return mask_f(F(a) < F(b)); }},
      {"SGE", "SGE $D, $S0, $S1", false, [](U a, U b, U) { return mask_f(F(a) >= F(b)); }},
      {"SEQ", "SEQ $D, $S0, $S1", false, [](U a, U b, U) { return mask_f(F(a) == F(b)); }},
      {"SNE", "SNE $D, $S0, $S1", false, [](U a, U b, U) { return mask_f(F(a) != F(b)); }},
      {"SGT", "SGT $D, $S0, $S1", false, [](U a, U b, U) { return mask_f(F(a) > F(b)); }},
      {"SLE", "SLE $D, $S0, $S1", false, [](U a, U b, U) { return mask_f(F(a) <= F(b)); }},
      {"FSEQ", "FSEQ $D, $S0, $S1", false, [](U a, U b, U) { return mask_u(F(a) == F(b)); }},
      {"FSNE", "FSNE $D, $S0, $S1", false, [](U a, U b, U) { return mask_u(F(a) != F(b)); }},
      {"FSGE", "FSGE $D, $S0, $S1", false, [](U a, U b, U) { return mask_u(F(a) >= F(b)); }},
      {"FSLT", "FSLT $D, $S0, $S1", false, [](U a, U b, U) { return mask_u(F(a) < F(b)); }},
      {"CMP", "CMP $D, $S0, $S1, $S2", false, [](U a, U b, U c) { return F(a) < 0.0f ? b : c; }},
      {"FRC",
       "FRC $D, $S0",
       false,
       [](U a, U, U) { return B(F(a) - std::floor(F(a))); },
       {},
       Check::kFloat},
      {"FLR",
       "FLR $D, $S0",
       false,
       [](U a, U, U) { return B(std::floor(F(a))); },
       {},
       Check::kFloat},
      {"CEIL",
       "CEIL $D, $S0",
       false,
       [](U a, U, U) { return B(std::ceil(F(a))); },
       {},
       Check::kFloat},
      {"TRUNC",
       "TRUNC $D, $S0",
       false,
       [](U a, U, U) { return B(std::trunc(F(a))); },
       {},
       Check::kFloat},
      {"ROUND (ties to even)",
       "ROUND $D, $S0",
       false,
       [](U a, U, U) { return B(std::nearbyint(F(a))); },
       {},
       Check::kFloat},
      {"SSG",
       "SSG $D, $S0",
       false,
       [](U a, U, U) {
         const float x = F(a);
         return B(x > 0 ? 1.0f : x < 0 ? -1.0f : 0.0f);
       },
       {},
       Check::kFloat},
      {"F2I (saturating, NaN -> 0)", "F2I $D, $S0", false,
       [](U a, U, U) { return U(f2i_sat(F(a))); }},
      {"F2U (saturating, NaN -> 0)", "F2U $D, $S0", false, [](U a, U, U) { return f2u_sat(F(a)); }},
      {"I2F", "I2F $D, $S0", false, [](U a, U, U) { return B(float(int32_t(a))); }},
      {"U2F", "U2F $D, $S0", false, [](U a, U, U) { return B(float(a)); }},
      {"I2F -x (integer negate)", "I2F $D, -$S0", false,
       [](U a, U, U) { return B(float(int32_t(0u - a))); }},
      {"MOV (bit copy)", "MOV $D, $S0", false, [](U a, U, U) { return a; }},
      {"MOV -|x|", "MOV $D, -|$S0|", false, [](U a, U, U) { return a | 0x80000000u; }},
      {"MOV -x", "MOV $D, -$S0", false, [](U a, U, U) { return a ^ 0x80000000u; }},
      {"MOV_SAT (NaN -> 0)",
       "MOV_SAT $D, $S0",
       false,
       [](U a, U, U) { return sat(F(a)); },
       {},
       Check::kFloat},
      {"ADD_SAT",
       "ADD_SAT $D, $S0, $S1",
       false,
       [](U a, U b, U) { return sat(F(a) + F(b)); },
       {},
       Check::kFloat},
      {"LDEXP",
       "LDEXP $D, $S0, $S1",
       false,
       [](U a, U b, U) { return B(std::ldexp(F(a), int32_t(b))); },
       {},
       Check::kFloat},
      {"UCMP", "UCMP $D, $S0, $S1, -$S2", false,
       [](U a, U b, U c) { return a ? b : c ^ 0x80000000u; }},
      {"LRP", "LRP $D, $S0, $S1, $S2", false,
       [](U a, U b, U c) { return B(F(a) * F(b) + (1.0f - F(a)) * F(c)); },
       [](U a, U b, U c) { return B(std::fma(F(a), F(b), (1.0f - F(a)) * F(c))); }, Check::kUlp, 2},
      {"RCP", "RCP $D, $S0", true, [](U a, U, U) { return B(1.0f / F(a)); }, {}, Check::kUlp, 3},
      {"SQRT",
       "SQRT $D, $S0",
       true,
       [](U a, U, U) { return B(std::sqrt(F(a))); },
       {},
       Check::kUlp,
       3},
      {"RSQ",
       "RSQ $D, |$S0|",
       true,
       [](U a, U, U) { return B(float(1.0 / std::sqrt(double(std::fabs(F(a)))))); },
       {},
       Check::kUlp,
       3},
  };
  // LRP with cancellation is not meaningful in ulps: keep it to well-scaled inputs.
  std::vector<float> v = edge_floats();
  run_op_table(cases, pairs(v));
}

TEST_CASE("emit: transcendental float opcodes", "[emit][alu]") {
  using U = uint32_t;
  std::vector<OpCase> cases = {
      {"EX2",
       "EX2 $D, $S0",
       true,
       [](U a, U, U) { return B(std::exp2(F(a))); },
       {},
       Check::kUlp,
       4},
      {"LG2",
       "LG2 $D, $S0",
       true,
       [](U a, U, U) { return B(std::log2(F(a))); },
       {},
       Check::kUlp,
       4},
      {"SIN",
       "SIN $D, $S0",
       true,
       [](U a, U, U) { return B(float(std::sin(double(F(a))))); },
       {},
       Check::kUlp,
       4},
      {"COS",
       "COS $D, $S0",
       true,
       [](U a, U, U) { return B(float(std::cos(double(F(a))))); },
       {},
       Check::kUlp,
       4},
      {"POW",
       "POW $D, $S0, $S1",
       true,
       [](U a, U b, U) { return B(float(std::pow(double(F(a)), double(F(b))))); },
       {},
       Check::kUlp,
       16},
  };
  const std::vector<float> v = {0.0f,   -0.0f,  0.25f,    0.5f,      1.0f,  1.5f,
                                2.0f,   3.0f,   -2.0f,    -3.0f,     10.0f, 100.5f,
                                -7.25f, 0.001f, INFINITY, -INFINITY, NAN,   31.0f};
  run_op_table(cases, pairs(v));
}

TEST_CASE("emit: LEGACY_MATH_RULES makes 0 * anything 0", "[emit][alu]") {
  using U = uint32_t;
  auto lmul = [](float a, float b) { return (a == 0.0f || b == 0.0f) ? 0.0f : a * b; };
  std::vector<OpCase> cases = {
      {"MUL",
       "MUL $D, $S0, $S1",
       false,
       [&](U a, U b, U) { return B(lmul(F(a), F(b))); },
       {},
       Check::kFloat},
      {"MAD",
       "MAD $D, $S0, $S1, $S2",
       false,
       [&](U a, U b, U c) { return B(lmul(F(a), F(b)) + F(c)); },
       {},
       Check::kFloat},
      {"ADD (unchanged)",
       "ADD $D, $S0, $S1",
       false,
       [](U a, U b, U) { return B(F(a) + F(b)); },
       {},
       Check::kFloat},
  };
  const std::vector<float> v = {0.0f, -0.0f, 1.0f, -2.0f, INFINITY, -INFINITY, NAN, 3.0f};
  run_op_table(cases, pairs(v), "PROPERTY LEGACY_MATH_RULES 1\n");
}

// Opcodes that combine channels: dot products, LIT/EXP/LOG/DST, packing.
TEST_CASE("emit: dot products, channel-dependent and packing opcodes", "[emit][alu]") {
  HarnessInput in;
  in.tgsi = R"(VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0..11], GENERIC[0]
  0: DP2 OUT[0], IN[0], IN[1]
  1: DP3 OUT[1], IN[0], IN[1]
  2: DP4 OUT[2], IN[0], IN[1]
  3: DP4_SAT OUT[3].yw, IN[0].wzyx, -IN[1]
  4: LIT OUT[4], IN[0]
  5: EXP OUT[5], IN[0]
  6: LOG OUT[6], IN[0]
  7: DST OUT[7], IN[0], IN[1]
  8: PK2H OUT[8].x, IN[0]
  9: UP2H OUT[9], OUT[8].xxxx
 10: PK4UB OUT[10].x, IN[0]
 11: PK2US OUT[10].y, IN[0]
 12: PK4B OUT[10].z, IN[0]
 13: MOV OUT[11], IN[0].wzyx
 14: END
)";
  const std::vector<std::array<float, 4>> a = {
      {1.0f, 2.0f, 3.0f, 4.0f},  {0.5f, -0.25f, 2.0f, 8.0f},     {-1.0f, 0.0f, -3.5f, 200.0f},
      {0.3f, 0.7f, 1.5f, -0.5f}, {65504.0f, -2.0f, 1e-5f, 0.0f}, {1.5f, 0.0f, 0.0f, -200.0f}};
  const std::vector<std::array<float, 4>> b = {
      {4.0f, 3.0f, 2.0f, 1.0f},    {2.0f, 4.0f, -1.0f, 0.5f}, {0.0f, 9.0f, 2.0f, -1.0f},
      {10.0f, -10.0f, 0.5f, 2.0f}, {1.0f, 1.0f, 1.0f, 1.0f},  {-1.0f, 0.0f, 3.0f, 0.25f}};
  in.count = uint32_t(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    for (int c = 0; c < 4; ++c)
      in.in.push_back(B(a[i][c]));
    for (int c = 0; c < 4; ++c)
      in.in.push_back(B(b[i][c]));
  }
  HarnessResult r = run_shader(in);
  auto close = [](float want, float got, float tol) {
    if (want == got) return true;  // infinities too
    return std::fabs(want - got) <= tol * std::fmax(1.0f, std::fabs(want));
  };
  for (uint32_t i = 0; i < in.count; ++i) {
    const auto& x = a[i];
    const auto& y = b[i];
    const float dp2 = x[0] * y[0] + x[1] * y[1], dp3 = dp2 + x[2] * y[2], dp4 = dp3 + x[3] * y[3];
    for (int c = 0; c < 4; ++c) {
      CHECK(close(dp2, r.f(i, 0, c), 1e-6f));
      CHECK(close(dp3, r.f(i, 1, c), 1e-6f));
      CHECK(close(dp4, r.f(i, 2, c), 1e-6f));
    }
    const float rev = -(x[3] * y[0] + x[2] * y[1] + x[1] * y[2] + x[0] * y[3]);
    CHECK(close(std::fmin(std::fmax(rev, 0.0f), 1.0f), r.f(i, 3, 1), 1e-6f));
    CHECK(r.u(i, 3, 0) == 0u);  // not written
    // LIT
    CHECK(r.f(i, 4, 0) == 1.0f);
    CHECK(r.f(i, 4, 1) == std::fmax(x[0], 0.0f));
    const float lz =
        x[0] > 0 ? std::pow(std::fmax(x[1], 0.0f), std::fmin(std::fmax(x[3], -128.0f), 128.0f))
                 : 0.0f;
    CHECK(close(lz, r.f(i, 4, 2), 1e-5f));
    CHECK(r.f(i, 4, 3) == 1.0f);
    // EXP
    CHECK(r.f(i, 5, 0) == std::exp2(std::floor(x[0])));
    CHECK(r.f(i, 5, 1) == x[0] - std::floor(x[0]));
    CHECK(close(std::exp2(x[0]), r.f(i, 5, 2), 1e-6f));
    // LOG
    const float l2 = std::log2(std::fabs(x[0]));
    if (std::isfinite(l2)) {
      CHECK(r.f(i, 6, 0) == std::floor(l2));
      CHECK(close(std::fabs(x[0]) / std::exp2(std::floor(l2)), r.f(i, 6, 1), 1e-6f));
      CHECK(close(l2, r.f(i, 6, 2), 1e-6f));
    }
    // DST
    CHECK(r.f(i, 7, 0) == 1.0f);
    CHECK(r.f(i, 7, 1) == x[1] * y[1]);
    CHECK(r.f(i, 7, 2) == x[2]);
    CHECK(r.f(i, 7, 3) == y[3]);
    // PK2H / UP2H: halves of x and y, exact for these values up to rounding to half.
    CHECK(r.f(i, 9, 0) == r.f(i, 9, 2));
    CHECK(r.f(i, 9, 1) == r.f(i, 9, 3));
    CHECK(close(x[0], r.f(i, 9, 0), 1e-3f));
    CHECK(close(x[1], r.f(i, 9, 1), 1e-3f));
    // PK4UB / PK2US / PK4B: normalised packing with clamping.
    // Rounded from the exact product (done in double), as format.h does.
    auto unorm = [](float v, double m) {
      return uint32_t(std::floor(double(std::fmin(std::fmax(v, 0.0f), 1.0f)) * m + 0.5));
    };
    auto snorm = [](float v) {
      return uint32_t(int32_t(std::round(double(std::fmin(std::fmax(v, -1.0f), 1.0f)) * 127.0))) &
             0xffu;
    };
    CHECK(r.u(i, 10, 0) == (unorm(x[0], 255) | unorm(x[1], 255) << 8 | unorm(x[2], 255) << 16 |
                            unorm(x[3], 255) << 24));
    CHECK(r.u(i, 10, 1) == (unorm(x[0], 65535) | unorm(x[1], 65535) << 16));
    CHECK(r.u(i, 10, 2) ==
          (snorm(x[0]) | snorm(x[1]) << 8 | snorm(x[2]) << 16 | snorm(x[3]) << 24));
    for (int c = 0; c < 4; ++c)
      CHECK(r.f(i, 11, c) == x[3 - c]);
  }
  // PK2H of values with an exact half form gives their half bits.
  CHECK((r.u(0, 8, 0) & 0xffff) == 0x3c00u);  // 1.0
  CHECK((r.u(0, 8, 0) >> 16) == 0x4000u);     // 2.0
  CHECK((r.u(4, 8, 0) & 0xffff) == 0x7bffu);  // 65504
  CHECK((r.u(4, 8, 0) >> 16) == 0xc000u);     // -2.0
}

namespace {

// A fragment shader writing SIN and COS of input x (lane i = x[i]) to OUT[0].x and .y.
HarnessResult run_sin_cos(const std::vector<float>& x) {
  HarnessInput in;
  in.tgsi =
      "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
      "  0: SIN OUT[0].x, IN[0].xxxx\n  1: COS OUT[0].y, IN[0].xxxx\n  2: END\n";
  in.count = uint32_t(x.size());
  for (float v : x)
    in.in.insert(in.in.end(), {B(v), 0, 0, 0});
  return run_shader(in);
}

}  // namespace

TEST_CASE("emit: SIN / COS of a fragment block, moderate lanes and a huge lane among them",
          "[emit][alu][fragment]") {
  // Blocks whose lanes are all moderate take the vector sin/cos (shader_lib.h); a block with
  // one lane at 1e10 or infinity goes lane by lane and must keep its small lanes right.
  std::vector<float> x;
  for (int k = 0; k < 96; ++k)
    x.push_back(-1000.0f + 21.37f * float(k));
  for (int k = 0; k < 32; ++k)
    x.push_back(0.001f * float(k + 1));
  x[100] = 1e10f;
  x[120] = INFINITY;
  const HarnessResult r = run_sin_cos(x);
  for (uint32_t i = 0; i < x.size(); ++i) {
    CAPTURE(i, x[i]);
    CHECK(float_close(B(float(std::sin(double(x[i])))), r.u(i, 0, 0), Check::kUlp, 4));
    CHECK(float_close(B(float(std::cos(double(x[i])))), r.u(i, 0, 1), Check::kUlp, 4));
  }
}

TEST_CASE("emit: SIN / COS within 4 ulp across the vector range and next to every multiple of pi/2",
          "[emit][alu][fragment]") {
  // The blocks' own sin/cos (shader_lib.h clp_sincos_v) reduce by pi/2 in three parts; the
  // hard inputs are the floats next to multiples of pi/2, where sin or cos is tiny and the
  // reduction's error is largest relative to it.
  std::vector<float> x;
  for (int k = -41721; k <= 41721; k += 1) {
    float v = float(double(k) * 1.5707963267948966);
    x.push_back(v);
    x.push_back(std::nextafter(v, INFINITY));
    x.push_back(std::nextafter(v, -INFINITY));
  }
  std::mt19937 rng(77);
  std::uniform_real_distribution<float> any(-65536.0f, 65536.0f), small(-8.0f, 8.0f);
  for (int i = 0; i < 32768; ++i) {
    x.push_back(any(rng));
    x.push_back(small(rng));
  }
  for (float v : {0.0f, -0.0f, 1e-30f, -1e-20f, 65536.0f, -65536.0f, 0.7853982f, 2.3561945f})
    x.push_back(v);
  const HarnessResult r = run_sin_cos(x);
  size_t bad = 0;
  for (uint32_t i = 0; i < x.size(); ++i) {
    const bool s_ok = float_close(B(float(std::sin(double(x[i])))), r.u(i, 0, 0), Check::kUlp, 4);
    const bool c_ok = float_close(B(float(std::cos(double(x[i])))), r.u(i, 0, 1), Check::kUlp, 4);
    if ((!s_ok || !c_ok) && bad++ < 8) {
      UNSCOPED_INFO("x = " << x[i] << " sin " << r.f(i, 0, 0) << " want " << std::sin(double(x[i]))
                           << ", cos " << r.f(i, 0, 1) << " want " << std::cos(double(x[i])));
    }
  }
  CHECK(bad == 0);
}
