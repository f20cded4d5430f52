// Batched opcode tests (emit_alu*_test.cpp): many opcodes in one vertex shader, each
// writing its own OUT register from IN[0..2], run over a table of inputs (one program per
// opcode family, since every PoCL build costs 0.3-1 s), and compared channel by channel
// with a host-computed expectation.
#pragma once

// Op tables list cases positionally and leave trailing members at their defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "compiler/emit/harness.h"

namespace clpipe::test::emit {

// How a result is compared with the expectation.
enum class Check {
  kBits,   // identical bits
  kFloat,  // same float value (NaN matches any NaN; -0 == +0), denormals may flush
  kUlp,    // within `ulps` units in the last place (NaN matches NaN)
};

struct OpCase {
  std::string name;
  // The instruction, with $D for the destination register (OUT[k]); $S0..$S2 are the
  // sources IN[0..2]. When `per_channel`, it is emitted once per channel with $D.c and
  // scalar swizzles $S0.cccc (replicating opcodes).
  std::string inst;
  bool per_channel = false;
  // Expected result bits of channel c from the input bits of that channel.
  std::function<uint32_t(uint32_t a, uint32_t b, uint32_t c)> expect;
  // Another acceptable result (e.g. MAD fused or not), or empty.
  std::function<uint32_t(uint32_t a, uint32_t b, uint32_t c)> alt;
  Check check = Check::kBits;
  uint32_t ulps = 0;
  uint8_t mask = 0xf;  // channels to compare
  // Four-source opcodes ($S3 = IN[3]): used instead of `expect` when set.
  std::function<uint32_t(uint32_t a, uint32_t b, uint32_t c, uint32_t d)> expect4;
};

using OpInputs = std::vector<std::array<uint32_t, 4>>;

inline bool is_denormal(uint32_t bits) {
  return (bits & 0x7f800000u) == 0 && (bits & 0x7fffffu) != 0;
}

inline bool float_close(uint32_t want, uint32_t got, Check check, uint32_t ulps) {
  const float w = bitsf(want), g = bitsf(got);
  // GL leaves NaN payloads open (NVIDIA's MAX of two NaNs is 0x7fffffff): any NaN will do.
  if (check == Check::kBits) return want == got || (std::isnan(w) && std::isnan(g));
  if (std::isnan(w) || std::isnan(g)) return std::isnan(w) && std::isnan(g);
  if (w == g) return true;
  // Flushed denormals (OpenCL devices may flush).
  if (is_denormal(want) && g == 0.0f) return true;
  if (check == Check::kFloat) return false;
  if (std::isinf(w) || std::isinf(g)) return false;
  if ((want ^ got) & 0x80000000u) return std::fabs(w - g) <= std::ldexp(1.0f, -126) * float(ulps);
  const uint32_t a = want & 0x7fffffffu, b = got & 0x7fffffffu;
  return (a > b ? a - b : b - a) <= ulps;
}

inline std::string replace_all(std::string s, const std::string& key, const std::string& value) {
  for (size_t p = s.find(key); p != std::string::npos; p = s.find(key, p + value.size())) {
    s.replace(p, key.size(), value);
  }
  return s;
}

// Runs every case over `inputs` (each entry: the source words IN[0..3] of one channel) in
// one vertex shader and checks every result. `header` adds properties or declarations.
inline void run_op_table(const std::vector<OpCase>& cases, const OpInputs& inputs,
                         const std::string& header = "") {
  std::string text = "VERT\n" + header + "DCL IN[0..3]\n";
  text += "DCL OUT[0.." + std::to_string(cases.size() - 1) + "], GENERIC[0]\n";
  unsigned n = 0;
  for (size_t k = 0; k < cases.size(); ++k) {
    const OpCase& oc = cases[k];
    const std::string d = "OUT[" + std::to_string(k) + "]";
    if (!oc.per_channel) {
      std::string s = replace_all(oc.inst, "$D", d);
      for (int i = 0; i < 4; ++i) {
        s = replace_all(s, "$S" + std::to_string(i), "IN[" + std::to_string(i) + "]");
      }
      text += "  " + std::to_string(n++) + ": " + s + "\n";
      continue;
    }
    for (int c = 0; c < 4; ++c) {
      const std::string ch(1, "xyzw"[c]);
      std::string s = replace_all(oc.inst, "$D", d + "." + ch);
      for (int i = 0; i < 4; ++i) {
        s = replace_all(s, "$S" + std::to_string(i),
                        "IN[" + std::to_string(i) + "]." + ch + ch + ch + ch);
      }
      text += "  " + std::to_string(n++) + ": " + s + "\n";
    }
  }
  text += "  " + std::to_string(n) + ": END\n";

  HarnessInput in;
  in.tgsi = text;
  in.count = uint32_t((inputs.size() + 3) / 4);
  in.in.assign(size_t(in.count) * 4 * 4, 0);
  for (size_t j = 0; j < inputs.size(); ++j) {
    const size_t inv = j / 4, c = j % 4;
    for (int s = 0; s < 4; ++s)
      in.in[(inv * 4 + s) * 4 + c] = inputs[j][s];
  }
  HarnessResult r = run_shader(in);
  for (size_t k = 0; k < cases.size(); ++k) {
    const OpCase& oc = cases[k];
    size_t failures = 0;
    for (size_t j = 0; j < inputs.size(); ++j) {
      const uint32_t c = uint32_t(j % 4);
      if (!(oc.mask & (1u << c))) continue;
      const auto& x = inputs[j];
      const uint32_t want =
          oc.expect4 ? oc.expect4(x[0], x[1], x[2], x[3]) : oc.expect(x[0], x[1], x[2]);
      const uint32_t got = r.u(uint32_t(j / 4), uint32_t(k), c);
      if (float_close(want, got, oc.check, oc.ulps)) continue;
      if (oc.alt && float_close(oc.alt(x[0], x[1], x[2]), got, oc.check, oc.ulps)) continue;
      if (++failures > 4) continue;  // a few examples per opcode are enough
      char buf[256];
      std::snprintf(buf, sizeof buf,
                    "%s: inputs 0x%08x 0x%08x 0x%08x 0x%08x (%g %g %g): want 0x%08x (%g), got "
                    "0x%08x (%g)",
                    oc.name.c_str(), x[0], x[1], x[2], x[3], double(bitsf(x[0])),
                    double(bitsf(x[1])), double(bitsf(x[2])), want, double(bitsf(want)), got,
                    double(bitsf(got)));
      FAIL_CHECK(buf);
    }
    CHECK(failures == 0);
  }
}

}  // namespace clpipe::test::emit
