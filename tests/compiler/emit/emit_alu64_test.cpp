// 64-bit opcodes on the device: doubles and 64-bit integers in channel pairs (.xy, .zw),
// compares writing .x / .z, conversions to and from 32 bits, division by zero, shifts
// by 64 and more, saturating conversions — against host expectations. One vertex shader
// holds every opcode; each invocation feeds two values per register.
#include <catch2/catch.hpp>

#include <climits>
#include <cmath>
#include <cstring>
#include <functional>

#include "compiler/emit/harness.h"
#include "compiler/emit/op_table.h"

using namespace clpipe::test::emit;

namespace {

using Reg = std::array<uint32_t, 4>;

double D(uint32_t lo, uint32_t hi) {
  const uint64_t b = uint64_t(hi) << 32 | lo;
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
uint64_t Q(uint32_t lo, uint32_t hi) {
  return uint64_t(hi) << 32 | lo;
}
uint64_t bits_d(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
Reg pair_d(double a, double b) {
  return {uint32_t(bits_d(a)), uint32_t(bits_d(a) >> 32), uint32_t(bits_d(b)),
          uint32_t(bits_d(b) >> 32)};
}
Reg pair_q(uint64_t a, uint64_t b) {
  return {uint32_t(a), uint32_t(a >> 32), uint32_t(b), uint32_t(b >> 32)};
}
double d0(const Reg& r) {
  return D(r[0], r[1]);
}
double d1(const Reg& r) {
  return D(r[2], r[3]);
}
uint64_t q0(const Reg& r) {
  return Q(r[0], r[1]);
}
uint64_t q1(const Reg& r) {
  return Q(r[2], r[3]);
}

int32_t d2i(double x) {
  if (std::isnan(x)) return 0;
  if (x >= 2147483648.0) return INT32_MAX;
  if (x <= -2147483649.0) return INT32_MIN;
  return int32_t(std::trunc(x));
}
uint32_t d2u(double x) {
  if (std::isnan(x) || x <= -1.0) return 0;
  if (x >= 4294967296.0) return UINT32_MAX;
  return x < 0 ? 0 : uint32_t(std::trunc(x));
}
int64_t d2l(double x) {
  if (std::isnan(x)) return 0;
  if (x >= 9223372036854775808.0) return INT64_MAX;
  if (x < -9223372036854775808.0) return INT64_MIN;
  return int64_t(std::trunc(x));
}
uint64_t d2ul(double x) {
  if (std::isnan(x) || x <= -1.0) return 0;
  if (x >= 18446744073709551616.0) return UINT64_MAX;
  return x < 0 ? 0 : uint64_t(std::trunc(x));
}

struct Case {
  std::string name;
  std::string inst;  // $D, $S0.. as in op_table
  uint8_t mask;      // result channels compared
  std::function<Reg(const Reg&, const Reg&, const Reg&)> expect;
  uint32_t double_ulps = 0;  // compare .xy / .zw as doubles within this many ulps
  // Another acceptable result (DMAD: fused or not).
  std::function<Reg(const Reg&, const Reg&, const Reg&)> alt;
};

bool double_close(uint64_t want, uint64_t got, uint32_t ulps) {
  double w, g;
  std::memcpy(&w, &want, 8);
  std::memcpy(&g, &got, 8);
  if (std::isnan(w) || std::isnan(g)) return std::isnan(w) && std::isnan(g);
  if (w == g) return true;
  if (ulps == 0 || std::isinf(w) || std::isinf(g) || ((want ^ got) >> 63)) return false;
  const uint64_t a = want & ~(1ull << 63), b = got & ~(1ull << 63);
  return (a > b ? a - b : b - a) <= ulps;
}

void run_cases(const std::vector<Case>& cases, const std::vector<std::array<Reg, 3>>& inputs) {
  std::string text =
      "VERT\nDCL IN[0..2]\nDCL OUT[0.." + std::to_string(cases.size() - 1) + "], GENERIC[0]\n";
  unsigned n = 0;
  for (size_t k = 0; k < cases.size(); ++k) {
    std::string s = replace_all(cases[k].inst, "$D", "OUT[" + std::to_string(k) + "]");
    for (int i = 0; i < 3; ++i)
      s = replace_all(s, "$S" + std::to_string(i), "IN[" + std::to_string(i) + "]");
    text += "  " + std::to_string(n++) + ": " + s + "\n";
  }
  text += "  " + std::to_string(n) + ": END\n";
  HarnessInput in;
  in.tgsi = text;
  in.count = uint32_t(inputs.size());
  for (const auto& x : inputs) {
    for (const Reg& r : x)
      in.in.insert(in.in.end(), r.begin(), r.end());
  }
  HarnessResult r = run_shader(in);
  for (size_t k = 0; k < cases.size(); ++k) {
    const Case& c = cases[k];
    size_t failures = 0;
    for (uint32_t i = 0; i < in.count; ++i) {
      const Reg want = c.expect(inputs[i][0], inputs[i][1], inputs[i][2]);
      Reg got;
      for (int ch = 0; ch < 4; ++ch)
        got[ch] = r.u(i, uint32_t(k), uint32_t(ch));
      auto matches = [&](const Reg& w) {
        bool ok = true;
        if (c.double_ulps) {
          for (int p = 0; p < 2; ++p) {
            if (c.mask & (3u << (2 * p))) {
              ok &= double_close(Q(w[2 * p], w[2 * p + 1]), Q(got[2 * p], got[2 * p + 1]),
                                 c.double_ulps);
            }
          }
        } else {
          for (int ch = 0; ch < 4; ++ch) {
            if (c.mask & (1u << ch)) ok &= w[ch] == got[ch];
          }
        }
        return ok;
      };
      const bool ok =
          matches(want) || (c.alt && matches(c.alt(inputs[i][0], inputs[i][1], inputs[i][2])));
      if (ok || ++failures > 3) continue;
      char buf[320];
      std::snprintf(buf, sizeof buf,
                    "%s, invocation %u: inputs %08x:%08x %08x:%08x | %08x:%08x %08x:%08x: want "
                    "%08x %08x %08x %08x, got %08x %08x %08x %08x",
                    c.name.c_str(), i, inputs[i][0][1], inputs[i][0][0], inputs[i][0][3],
                    inputs[i][0][2], inputs[i][1][1], inputs[i][1][0], inputs[i][1][3],
                    inputs[i][1][2], want[0], want[1], want[2], want[3], got[0], got[1], got[2],
                    got[3]);
      FAIL_CHECK(buf);
    }
    CHECK(failures == 0);
  }
}

// Exact double results use ulps 1 (a bit-identical result passes too).
Reg d2(double a, double b) {
  return pair_d(a, b);
}

}  // namespace

TEST_CASE("emit: double opcodes", "[emit][alu64]") {
  const std::vector<double> v = {0.0, -0.0,  1.0,     -1.0,   0.5, 2.5,      -2.5,
                                 3.5, 1e300, -1e-300, 1e-310, NAN, INFINITY, -INFINITY,
                                 3e9, -3e9,  1e19,    -1e19,  0.1, 123.456,  4294967295.5};
  std::vector<std::array<Reg, 3>> inputs;
  for (size_t i = 0; i < v.size(); ++i) {
    for (size_t j = 0; j < v.size(); j += 2) {
      const double a = v[i], b = v[j], c = v[(i + j) % v.size()], e = v[(i * 3 + 1) % v.size()];
      // IN[2].xy: a double; IN[2].z / .w: 32-bit exponents and values for conversions.
      const Reg r2 = {uint32_t(bits_d(c)), uint32_t(bits_d(c) >> 32), uint32_t(int32_t(j) - 10),
                      fbits(float(e))};
      inputs.push_back({pair_d(a, b), pair_d(b, e), r2});
    }
  }
  std::vector<Case> cases = {
      {"DADD", "DADD $D, $S0, $S1", 0xf,
       [](const Reg& a, const Reg& b, const Reg&) { return d2(d0(a) + d0(b), d1(a) + d1(b)); }, 1},
      {"DMUL", "DMUL $D, $S0, $S1", 0xf,
       [](const Reg& a, const Reg& b, const Reg&) { return d2(d0(a) * d0(b), d1(a) * d1(b)); }, 1},
      {"DDIV", "DDIV $D, $S0, $S1", 0xf,
       [](const Reg& a, const Reg& b, const Reg&) { return d2(d0(a) / d0(b), d1(a) / d1(b)); }, 1},
      {"DMAD (fused or not)", "DMAD $D.xy, $S0, $S1, $S2", 0x3,
       [](const Reg& a, const Reg& b, const Reg& c) { return d2(d0(a) * d0(b) + d0(c), 0); }, 1,
       [](const Reg& a, const Reg& b, const Reg& c) {
         return d2(std::fma(d0(a), d0(b), d0(c)), 0);
       }},
      {"DFMA", "DFMA $D.xy, $S0, $S1, $S2", 0x3,
       [](const Reg& a, const Reg& b, const Reg& c) {
         return d2(std::fma(d0(a), d0(b), d0(c)), 0);
       },
       1},
      {"DMIN", "DMIN $D, $S0, $S1", 0xf,
       [](const Reg& a, const Reg& b, const Reg&) {
         return d2(std::fmin(d0(a), d0(b)), std::fmin(d1(a), d1(b)));
       },
       1},
      {"DMAX", "DMAX $D, $S0, $S1", 0xf,
       [](const Reg& a, const Reg& b, const Reg&) {
         return d2(std::fmax(d0(a), d0(b)), std::fmax(d1(a), d1(b)));
       },
       1},
      {"DABS", "DABS $D, $S0", 0xf,
       [](const Reg& a, const Reg&, const Reg&) { return d2(std::fabs(d0(a)), std::fabs(d1(a))); },
       1},
      {"DNEG", "DNEG $D, $S0", 0xf,
       [](const Reg& a, const Reg&, const Reg&) { return d2(-d0(a), -d1(a)); }, 1},
      {"DRCP", "DRCP $D, $S0", 0xf,
       [](const Reg& a, const Reg&, const Reg&) { return d2(1.0 / d0(a), 1.0 / d1(a)); }, 1},
      {"DSQRT", "DSQRT $D, $S0", 0xf,
       [](const Reg& a, const Reg&, const Reg&) { return d2(std::sqrt(d0(a)), std::sqrt(d1(a))); },
       1},
      {"DRSQ", "DRSQ $D, $S0", 0xf,
       [](const Reg& a, const Reg&, const Reg&) {
         return d2(1.0 / std::sqrt(d0(a)), 1.0 / std::sqrt(d1(a)));
       },
       4},
      {"DFRAC", "DFRAC $D, $S0", 0xf,
       [](const Reg& a, const Reg&, const Reg&) {
         return d2(d0(a) - std::floor(d0(a)), d1(a) - std::floor(d1(a)));
       },
       1},
      {"DTRUNC", "DTRUNC $D, $S0", 0xf,
       [](const Reg& a, const Reg&, const Reg&) {
         return d2(std::trunc(d0(a)), std::trunc(d1(a)));
       },
       1},
      {"DCEIL", "DCEIL $D, $S0", 0xf,
       [](const Reg& a, const Reg&, const Reg&) { return d2(std::ceil(d0(a)), std::ceil(d1(a))); },
       1},
      {"DFLR", "DFLR $D, $S0", 0xf,
       [](const Reg& a, const Reg&, const Reg&) {
         return d2(std::floor(d0(a)), std::floor(d1(a)));
       },
       1},
      {"DROUND", "DROUND $D, $S0", 0xf,
       [](const Reg& a, const Reg&, const Reg&) {
         return d2(std::nearbyint(d0(a)), std::nearbyint(d1(a)));
       },
       1},
      {"DSSG", "DSSG $D, $S0", 0xf,
       [](const Reg& a, const Reg&, const Reg&) {
         auto s = [](double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; };
         return d2(s(d0(a)), s(d1(a)));
       },
       1},
      {"DLDEXP", "DLDEXP $D.xy, $S0, $S2.zzzz", 0x3,
       [](const Reg& a, const Reg&, const Reg& c) {
         return d2(std::ldexp(d0(a), int32_t(c[2])), 0);
       },
       1},
      {"DSLT (.x/.z)", "DSLT $D.xz, $S0, $S1", 0x5,
       [](const Reg& a, const Reg& b, const Reg&) {
         return Reg{d0(a) < d0(b) ? ~0u : 0u, 0, d1(a) < d1(b) ? ~0u : 0u, 0};
       }},
      {"DSGE", "DSGE $D.xz, $S0, $S1", 0x5,
       [](const Reg& a, const Reg& b, const Reg&) {
         return Reg{d0(a) >= d0(b) ? ~0u : 0u, 0, d1(a) >= d1(b) ? ~0u : 0u, 0};
       }},
      {"DSEQ", "DSEQ $D.xz, $S0, $S1", 0x5,
       [](const Reg& a, const Reg& b, const Reg&) {
         return Reg{d0(a) == d0(b) ? ~0u : 0u, 0, d1(a) == d1(b) ? ~0u : 0u, 0};
       }},
      {"DSNE (unordered)", "DSNE $D.xz, $S0, $S1", 0x5,
       [](const Reg& a, const Reg& b, const Reg&) {
         return Reg{d0(a) != d0(b) ? ~0u : 0u, 0, d1(a) != d1(b) ? ~0u : 0u, 0};
       }},
      {"D2F (.x/.y)", "D2F $D.xy, $S0", 0x3,
       [](const Reg& a, const Reg&, const Reg&) {
         return Reg{fbits(float(d0(a))), fbits(float(d1(a))), 0, 0};
       }},
      {"D2I (saturating)", "D2I $D.xy, $S0", 0x3,
       [](const Reg& a, const Reg&, const Reg&) {
         return Reg{uint32_t(d2i(d0(a))), uint32_t(d2i(d1(a))), 0, 0};
       }},
      {"D2U (saturating)", "D2U $D.xy, $S0", 0x3,
       [](const Reg& a, const Reg&, const Reg&) {
         return Reg{d2u(d0(a)), d2u(d1(a)), 0, 0};
       }},
      {"F2D (from .x/.y)", "F2D $D, $S2.wzww", 0xf,
       [](const Reg&, const Reg&, const Reg& c) {
         return d2(double(bitsf(c[3])), double(bitsf(c[2])));
       },
       1},
      {"I2D", "I2D $D, $S2.zwzw", 0xf,
       [](const Reg&, const Reg&, const Reg& c) {
         return d2(double(int32_t(c[2])), double(int32_t(c[3])));
       },
       1},
      {"U2D", "U2D $D, $S2.zwzw", 0xf,
       [](const Reg&, const Reg&, const Reg& c) { return d2(double(c[2]), double(c[3])); }, 1},
      {"D2I64", "D2I64 $D, $S0", 0xf,
       [](const Reg& a, const Reg&, const Reg&) {
         return pair_q(uint64_t(d2l(d0(a))), uint64_t(d2l(d1(a))));
       }},
      {"D2U64", "D2U64 $D, $S0", 0xf,
       [](const Reg& a, const Reg&, const Reg&) { return pair_q(d2ul(d0(a)), d2ul(d1(a))); }},
      {"DFRACEXP",
       "DFRACEXP $D.xy, OUT["
       "@E].xz, $S0",
       0x3,
       [](const Reg& a, const Reg&, const Reg&) {
         int e;
         return d2(std::frexp(d0(a), &e), 0);
       },
       1},
  };
  // DFRACEXP's exponent goes to the register after the last case (checked below).
  const uint32_t e_reg = uint32_t(cases.size());
  for (Case& c : cases)
    c.inst = replace_all(c.inst, "@E", std::to_string(e_reg));
  cases.push_back(
      {"DFRACEXP exponent", "MOV $D.y, $D.xxxx", 0x5, [](const Reg& a, const Reg&, const Reg&) {
         int e = 0;
         if (std::isfinite(d0(a))) std::frexp(d0(a), &e);
         return Reg{uint32_t(e), 0, uint32_t(e), 0};
       }});
  run_cases(cases, inputs);
}

TEST_CASE("emit: 64-bit integer opcodes", "[emit][alu64]") {
  const std::vector<uint64_t> v = {0,
                                   1,
                                   2,
                                   7,
                                   63,
                                   64,
                                   65,
                                   0xffffffffull,
                                   0x100000000ull,
                                   0x8000000000000000ull,
                                   0x7fffffffffffffffull,
                                   0xffffffffffffffffull,
                                   0xfffffffffffffffeull,
                                   0x123456789abcdef0ull,
                                   0xdeadbeefcafef00dull};
  std::vector<std::array<Reg, 3>> inputs;
  for (size_t i = 0; i < v.size(); ++i) {
    for (size_t j = 0; j < v.size(); ++j) {
      const uint64_t a = v[i], b = v[j], c = v[(i + 2 * j) % v.size()];
      const float f = float(int64_t(a)) / 7.0f;
      inputs.push_back({pair_q(a, c), pair_q(b, a ^ b),
                        Reg{uint32_t(j * 9 + i), uint32_t(b), fbits(f), fbits(-f * 3e9f)}});
    }
  }
  using I64 = int64_t;
  auto mask = [](bool b0, bool b1) { return Reg{b0 ? ~0u : 0u, 0, b1 ? ~0u : 0u, 0}; };
  auto idiv = [](uint64_t a, uint64_t b) -> uint64_t {
    if (b == 0) return 0;
    if (I64(a) == INT64_MIN && I64(b) == -1) return a;
    return uint64_t(I64(a) / I64(b));
  };
  auto imod = [](uint64_t a, uint64_t b) -> uint64_t {
    if (b == 0) return ~0ull;
    if (I64(a) == INT64_MIN && I64(b) == -1) return 0;
    return uint64_t(I64(a) % I64(b));
  };
  auto f2l = [](float x) -> uint64_t {
    if (std::isnan(x)) return 0;
    if (x >= 9223372036854775808.0f) return uint64_t(INT64_MAX);
    if (x < -9223372036854775808.0f) return uint64_t(INT64_MIN);
    return uint64_t(int64_t(std::trunc(x)));
  };
  auto f2ul = [](float x) -> uint64_t {
    if (std::isnan(x) || x <= -1.0f) return 0;
    if (x >= 18446744073709551616.0f) return UINT64_MAX;
    return x < 0 ? 0 : uint64_t(std::trunc(x));
  };
  std::vector<Case> cases = {
      {"U64ADD", "U64ADD $D, $S0, $S1", 0xf,
       [](const Reg& a, const Reg& b, const Reg&) { return pair_q(q0(a) + q0(b), q1(a) + q1(b)); }},
      {"U64MUL", "U64MUL $D, $S0, $S1", 0xf,
       [](const Reg& a, const Reg& b, const Reg&) { return pair_q(q0(a) * q0(b), q1(a) * q1(b)); }},
      {"I64NEG", "I64NEG $D, $S0", 0xf,
       [](const Reg& a, const Reg&, const Reg&) { return pair_q(0 - q0(a), 0 - q1(a)); }},
      {"I64ABS", "I64ABS $D, $S0", 0xf,
       [](const Reg& a, const Reg&, const Reg&) {
         auto f = [](uint64_t x) { return I64(x) < 0 ? 0 - x : x; };
         return pair_q(f(q0(a)), f(q1(a)));
       }},
      {"I64SSG", "I64SSG $D, $S0", 0xf,
       [](const Reg& a, const Reg&, const Reg&) {
         auto f = [](uint64_t x) { return uint64_t(I64(x) > 0 ? 1 : I64(x) < 0 ? -1 : 0); };
         return pair_q(f(q0(a)), f(q1(a)));
       }},
      {"I64MIN", "I64MIN $D, $S0, $S1", 0xf,
       [](const Reg& a, const Reg& b, const Reg&) {
         return pair_q(uint64_t(std::min(I64(q0(a)), I64(q0(b)))),
                       uint64_t(std::min(I64(q1(a)), I64(q1(b)))));
       }},
      {"I64MAX", "I64MAX $D, $S0, $S1", 0xf,
       [](const Reg& a, const Reg& b, const Reg&) {
         return pair_q(uint64_t(std::max(I64(q0(a)), I64(q0(b)))),
                       uint64_t(std::max(I64(q1(a)), I64(q1(b)))));
       }},
      {"U64MIN", "U64MIN $D, $S0, $S1", 0xf,
       [](const Reg& a, const Reg& b, const Reg&) {
         return pair_q(std::min(q0(a), q0(b)), std::min(q1(a), q1(b)));
       }},
      {"U64MAX", "U64MAX $D, $S0, $S1", 0xf,
       [](const Reg& a, const Reg& b, const Reg&) {
         return pair_q(std::max(q0(a), q0(b)), std::max(q1(a), q1(b)));
       }},
      {"U64SEQ", "U64SEQ $D.xz, $S0, $S1", 0x5,
       [&](const Reg& a, const Reg& b, const Reg&) {
         return mask(q0(a) == q0(b), q1(a) == q1(b));
       }},
      {"U64SNE", "U64SNE $D.xz, $S0, $S1", 0x5,
       [&](const Reg& a, const Reg& b, const Reg&) {
         return mask(q0(a) != q0(b), q1(a) != q1(b));
       }},
      {"I64SLT", "I64SLT $D.xz, $S0, $S1", 0x5,
       [&](const Reg& a, const Reg& b, const Reg&) {
         return mask(I64(q0(a)) < I64(q0(b)), I64(q1(a)) < I64(q1(b)));
       }},
      {"U64SLT", "U64SLT $D.xz, $S0, $S1", 0x5,
       [&](const Reg& a, const Reg& b, const Reg&) { return mask(q0(a) < q0(b), q1(a) < q1(b)); }},
      {"I64SGE", "I64SGE $D.xz, $S0, $S1", 0x5,
       [&](const Reg& a, const Reg& b, const Reg&) {
         return mask(I64(q0(a)) >= I64(q0(b)), I64(q1(a)) >= I64(q1(b)));
       }},
      {"U64SGE", "U64SGE $D.xz, $S0, $S1", 0x5,
       [&](const Reg& a, const Reg& b, const Reg&) {
         return mask(q0(a) >= q0(b), q1(a) >= q1(b));
       }},
      {"U64SHL (counts .x/.y & 63)", "U64SHL $D, $S0, $S2", 0xf,
       [](const Reg& a, const Reg&, const Reg& c) {
         return pair_q(q0(a) << (c[0] & 63), q1(a) << (c[1] & 63));
       }},
      {"I64SHR", "I64SHR $D, $S0, $S2", 0xf,
       [](const Reg& a, const Reg&, const Reg& c) {
         return pair_q(uint64_t(I64(q0(a)) >> (c[0] & 63)), uint64_t(I64(q1(a)) >> (c[1] & 63)));
       }},
      {"U64SHR", "U64SHR $D, $S0, $S2", 0xf,
       [](const Reg& a, const Reg&, const Reg& c) {
         return pair_q(q0(a) >> (c[0] & 63), q1(a) >> (c[1] & 63));
       }},
      {"U64DIV (x/0 = ~0)", "U64DIV $D, $S0, $S1", 0xf,
       [](const Reg& a, const Reg& b, const Reg&) {
         auto f = [](uint64_t x, uint64_t y) { return y ? x / y : ~0ull; };
         return pair_q(f(q0(a), q0(b)), f(q1(a), q1(b)));
       }},
      {"U64MOD (x%0 = ~0)", "U64MOD $D, $S0, $S1", 0xf,
       [](const Reg& a, const Reg& b, const Reg&) {
         auto f = [](uint64_t x, uint64_t y) { return y ? x % y : ~0ull; };
         return pair_q(f(q0(a), q0(b)), f(q1(a), q1(b)));
       }},
      {"I64DIV (x/0 = 0, MIN/-1 = MIN)", "I64DIV $D, $S0, $S1", 0xf,
       [&](const Reg& a, const Reg& b, const Reg&) {
         return pair_q(idiv(q0(a), q0(b)), idiv(q1(a), q1(b)));
       }},
      {"I64MOD (x%0 = -1, MIN%-1 = 0)", "I64MOD $D, $S0, $S1", 0xf,
       [&](const Reg& a, const Reg& b, const Reg&) {
         return pair_q(imod(q0(a), q0(b)), imod(q1(a), q1(b)));
       }},
      {"I2I64 (sign extend .x/.y)", "I2I64 $D, $S2", 0xf,
       [](const Reg&, const Reg&, const Reg& c) {
         return pair_q(uint64_t(I64(int32_t(c[0]))), uint64_t(I64(int32_t(c[1]))));
       }},
      {"U2I64 (zero extend)", "U2I64 $D, $S2", 0xf,
       [](const Reg&, const Reg&, const Reg& c) { return pair_q(c[0], c[1]); }},
      {"F2I64 (saturating)", "F2I64 $D, $S2.zwzw", 0xf,
       [&](const Reg&, const Reg&, const Reg& c) {
         return pair_q(f2l(bitsf(c[2])), f2l(bitsf(c[3])));
       }},
      {"F2U64 (saturating)", "F2U64 $D, $S2.zwzw", 0xf,
       [&](const Reg&, const Reg&, const Reg& c) {
         return pair_q(f2ul(bitsf(c[2])), f2ul(bitsf(c[3])));
       }},
      {"U642F", "U642F $D.xy, $S0", 0x3,
       [](const Reg& a, const Reg&, const Reg&) {
         return Reg{fbits(float(q0(a))), fbits(float(q1(a))), 0, 0};
       }},
      {"I642F", "I642F $D.xy, $S0", 0x3,
       [](const Reg& a, const Reg&, const Reg&) {
         return Reg{fbits(float(I64(q0(a)))), fbits(float(I64(q1(a)))), 0, 0};
       }},
      {"U642D", "U642D $D, $S0", 0xf,
       [](const Reg& a, const Reg&, const Reg&) { return pair_d(double(q0(a)), double(q1(a))); }},
      {"I642D", "I642D $D, $S0", 0xf,
       [](const Reg& a, const Reg&, const Reg&) {
         return pair_d(double(I64(q0(a))), double(I64(q1(a))));
       }},
  };
  run_cases(cases, inputs);
}

TEST_CASE("emit: doubles without device support are a compile error", "[emit][alu64]") {
  clpipe::compiler::EmitOptions opt;
  opt.fp64 = false;
  try {
    clpipe::compiler::compile_tgsi(
        "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\n  0: DADD OUT[0], IN[0], IN[0]\n  1: END\n", opt);
    FAIL("no CompileError");
  } catch (const clpipe::compiler::CompileError& e) {
    CHECK(e.diagnostics()[0].loc.line == 4);
    CHECK(e.diagnostics()[0].loc.column == 6);
    CHECK(std::string(e.what()).find("double") != std::string::npos);
  }
  opt = {};
  opt.int64 = false;
  CHECK_THROWS_AS(
      clpipe::compiler::compile_tgsi(
          "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\n  0: U64ADD OUT[0], IN[0], IN[0]\n  1: END\n",
          opt),
      clpipe::compiler::CompileError);
}
