// Helpers for the compute tests (tests/frontend/compute_*_test.cpp): compute CSOs from TGSI
// text, grids, shader-buffer resources filled with words, and readback of words.
// Everything goes through the public API, as a Gallium state tracker would drive it.
// Header-only: the test build compiles *_test.cpp files only.
#pragma once

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "frontend_util.h"

namespace clpipe::test {

// Creates and binds a compute CSO; fails the test with the status message otherwise.
inline ComputeHandle bind_compute(Context& ctx, const std::string& tgsi,
                                  uint32_t req_local_mem = 0) {
  ComputeState cs;
  cs.tgsi = tgsi;
  cs.req_local_mem = req_local_mem;
  auto c = ctx.create_compute_state(cs);
  REQUIRE(c.status().to_string() == "Ok");
  ctx.bind_compute_state(c.value());
  return c.value();
}

inline GridInfo make_grid(std::array<uint32_t, 3> block, std::array<uint32_t, 3> grid) {
  GridInfo g;
  for (int d = 0; d < 3; ++d) {
    g.block[d] = block[d];
    g.grid[d] = grid[d];
  }
  return g;
}

inline void launch(Context& ctx, const GridInfo& g) {
  const Status s = ctx.launch_grid(g);
  REQUIRE(s.to_string() == "Ok");
}

// A buffer resource usable as shader buffer, constant buffer and indirect argument buffer,
// holding `words` (or `bytes` zero bytes when words is empty).
inline ResourceRef words_resource(Context& ctx, const std::vector<uint32_t>& words,
                                  uint32_t bytes = 0) {
  const uint32_t size = words.empty() ? bytes : uint32_t(words.size() * 4);
  ResourceRef r =
      create(make_templ(TextureTarget::BUFFER, Format::R8_UNORM, size, 1, 1, 1, 0,
                        Bind::SHADER_BUFFER | Bind::CONSTANT_BUFFER | Bind::COMMAND_ARGS_BUFFER));
  if (!words.empty()) {
    REQUIRE(ctx.buffer_subdata(r, Map::WRITE, 0, size, words.data()).is_ok());
  }
  return r;
}

// Words [first, first + count) of a buffer, read through a transfer (which waits for the
// commands that write the buffer: the test of ResourceImpl::note_use by launch_grid).
inline std::vector<uint32_t> read_words(Context& ctx, const ResourceRef& r, uint32_t first,
                                        uint32_t count) {
  if (count == 0) return {};
  const std::vector<uint8_t> bytes =
      read_box(ctx, r, 0, make_box_1d(int(first * 4), int(count * 4)));
  std::vector<uint32_t> w(count);
  std::memcpy(w.data(), bytes.data(), bytes.size());
  return w;
}

inline std::vector<uint32_t> read_words(Context& ctx, const ResourceRef& r) {
  return read_words(ctx, r, 0, uint32_t(r->info().width0 / 4));
}

// Binds whole buffers to shader buffer slots 0..n-1 of the compute stage, all writable.
inline void bind_buffers(Context& ctx, const std::vector<ResourceRef>& buffers) {
  std::vector<ShaderBuffer> sb(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    sb[i].buffer = buffers[i];
    sb[i].buffer_size = buffers[i] ? buffers[i]->info().width0 : 0;
  }
  const uint32_t mask = buffers.size() >= 32 ? ~0u : (1u << buffers.size()) - 1;
  REQUIRE(ctx.set_shader_buffers(ShaderType::COMPUTE, 0, sb, mask).is_ok());
}

inline uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bitsf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace clpipe::test
