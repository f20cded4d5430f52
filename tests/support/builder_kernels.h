// Kernels for the tests of builder children and pools (program_builder_test,
// builder_pool_test): a quick one that runs, and one whose build takes tens of seconds.
#pragma once

#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include "runtime/program_cache.h"
#include "runtime/queue.h"
#include "support/test_device.h"

namespace clpipe::test {

// A kernel that multiplies a[i] by v; `tag` makes its source (and so its build) new.
inline std::string scale_kernel(const std::string& tag) {
  return "// " + tag +
         "\n__kernel void scale(__global int* a, int v) { a[get_global_id(0)] *= v; }\n";
}

// A source whose build takes PoCL ~40 s on this machine: each guarded load of a constant
// buffer becomes a branch, and LLVM's memory dependence walks over them are quadratic.
// It is new in every process, so no compiler's own cache (PoCL's kcache) knows it.
inline std::string slow_kernel() {
  std::string s = "// " + std::to_string(::getpid()) + " " +
                  std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) +
                  "\n__kernel void slow(__global float* o, __constant float* cb, int c) {\n"
                  "  float x = 0.0f;\n";
  for (int i = 0; i < 3000; ++i) {
    const std::string w = std::to_string(i % 8);
    s += "  x = x * (c > " + w + " ? cb[" + w + "] : 0.0f) + (c > " + w + " ? cb[" + w +
         "] : 1.0f);\n";
  }
  return s + "  o[get_global_id(0)] = x;\n}\n";
}

// {1, 2, 3, 4} scaled by v with scale_kernel's program `p`.
inline std::vector<int> run_scale(const runtime::ProgramRef& p, int v) {
  runtime::Queue q(test_device());
  std::vector<int> data = {1, 2, 3, 4};
  cl::Buffer b = q.create_buffer(sizeof(int) * data.size());
  q.write(b, 0, sizeof(int) * data.size(), data.data(), true);
  cl::Kernel& k = q.kernel(p, "scale");
  runtime::set_args(k, b, v);
  q.launch(k, {data.size()}, {}, "scale");
  q.read(b, 0, sizeof(int) * data.size(), data.data());
  return data;
}

}  // namespace clpipe::test
