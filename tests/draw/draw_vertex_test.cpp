// The vertex pass: attribute fetch of every vertex format, offsets, strides (0 too),
// instancing with divisors and start_instance, 8/16/32-bit indices with a bias, robust
// out-of-range fetches, system values. Checked through the post-transform vertices:
// a pass-through vertex shader writes its inputs to its outputs.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include "draw/draw_fixture.h"
#include "frontend/format_codec.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::frontend::draw;

namespace {

// Runs a point draw whose vertex shader copies IN[i] to OUT[i] and returns the
// post-transform vertices (outputs x positions x instances), read from the pipeline.
struct VertexRun {
  DrawFixture fx;
  DrawSetup s;
  uint32_t outputs = 0;
  explicit VertexRun(uint32_t n) : outputs(n) {
    s = fx.basic_setup(16, 16);
    s.vs = fx.passthrough_vs(n);
    s.fs = fx.varying_fs(0);
    s.fs_links = {ClpFsLink{-1, -1, 0, {0, 0, 0, 1}}};
    s.cbufs[0] = fx.target(Format::R32G32B32A32_FLOAT, 16, 16);
  }
  std::vector<std::array<uint32_t, 4>> run(const DrawInfo& info, const DrawStartCountBias& range) {
    fx.pipeline().draw(s, info, range, 0);
    return fx.pipeline().read_vertices();
  }
};

std::array<uint32_t, 4> bits(const float v[4]) {
  std::array<uint32_t, 4> b;
  std::memcpy(b.data(), v, 16);
  return b;
}

}  // namespace

TEST_CASE("every vertex format is fetched as the host codec decodes it", "[draw][vertex]") {
  VertexRun r(2);
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> byte(0, 255);
  int tested = 0;
  for (int f = 1; f < int(Format::COUNT); ++f) {
    const Format fmt = Format(f);
    const FormatDesc& d = format_desc(fmt);
    if (format_is_depth_or_stencil(fmt) || d.block_bytes > 16) continue;
    // Eight vertices of random bytes at a stride that is not a multiple of the block.
    const uint32_t stride = d.block_bytes + 3, n = 8;
    std::vector<uint8_t> data(stride * n + 5);
    for (auto& b : data)
      b = uint8_t(byte(rng));
    VertexInput in;
    in.buffer = r.fx.buffer(data.data(), data.size());
    in.size = data.size();
    in.offset = 2;  // buffer_offset
    in.stride = stride;
    r.s.inputs[0] = in;
    VertexElement pos, attr;
    pos.src_format = Format::R8_UNORM;  // any position: only the vertex data is checked
    attr.src_format = fmt;
    attr.src_offset = 1;
    r.s.elements = {pos, attr};
    DrawInfo info;
    info.mode = PrimType::POINTS;
    auto verts = r.run(info, DrawStartCountBias{0, n, 0});
    REQUIRE(verts.size() == size_t(n) * 2);
    for (uint32_t v = 0; v < n; ++v) {
      const uint8_t* src = data.data() + 2 + v * stride + 1;
      std::array<uint32_t, 4> want;
      if (format_is_pure_uint(fmt)) {
        frontend::unpack_rgba_uint(fmt, src, want.data());
      } else if (format_is_pure_sint(fmt)) {
        frontend::unpack_rgba_sint(fmt, src, reinterpret_cast<int32_t*>(want.data()));
      } else {
        float fv[4];
        frontend::unpack_rgba_float(fmt, src, fv);
        want = bits(fv);
      }
      INFO(format_name(fmt) << " vertex " << v);
      // NaN payloads may differ; compare NaNs as NaNs.
      for (int c = 0; c < 4; ++c) {
        const uint32_t got = verts[v * 2 + 1][c];
        float gf, wf;
        std::memcpy(&gf, &got, 4);
        std::memcpy(&wf, &want[c], 4);
        if (!(std::isnan(gf) && std::isnan(wf))) CHECK(got == want[c]);
      }
    }
    ++tested;
  }
  CHECK(tested > 150);
}

TEST_CASE("instancing, divisors, stride 0 and system values", "[draw][vertex]") {
  // VS inputs: IN[0] per vertex, IN[1] per instance (divisor 2), IN[2] stride 0.
  VertexRun r(3);
  std::vector<float> per_vertex = {10, 11, 12, 13, 14, 15};
  std::vector<float> per_instance = {100, 101, 102, 103, 104, 105};
  std::vector<float> constant = {7};
  auto input = [&](const std::vector<float>& d, uint32_t stride) {
    VertexInput in;
    in.buffer = r.fx.buffer(d.data(), d.size() * 4);
    in.size = d.size() * 4;
    in.stride = stride;
    return in;
  };
  r.s.inputs[0] = input(per_vertex, 4);
  r.s.inputs[1] = input(per_instance, 4);
  r.s.inputs[2] = input(constant, 0);
  VertexElement a, b, c;
  a.src_format = b.src_format = c.src_format = Format::R32_FLOAT;
  b.vertex_buffer_index = 1;
  b.instance_divisor = 2;
  c.vertex_buffer_index = 2;
  r.s.elements = {a, b, c};
  DrawInfo info;
  info.mode = PrimType::POINTS;
  info.instance_count = 4;
  info.start_instance = 1;
  auto v = r.run(info, DrawStartCountBias{2, 3, 0});  // vertices 2, 3, 4
  REQUIRE(v.size() == 3u * 4 * 3);
  for (uint32_t inst = 0; inst < 4; ++inst) {
    for (uint32_t k = 0; k < 3; ++k) {
      const size_t base = (size_t(inst) * 3 + k) * 3;
      float x0, x1, x2;
      std::memcpy(&x0, &v[base][0], 4);
      std::memcpy(&x1, &v[base + 1][0], 4);
      std::memcpy(&x2, &v[base + 2][0], 4);
      INFO("instance " << inst << " vertex " << k);
      CHECK(x0 == per_vertex[2 + k]);
      CHECK(x1 == per_instance[1 + inst / 2]);  // start_instance + instance / divisor
      CHECK(x2 == 7.0f);
    }
  }
}

TEST_CASE("indices of every size, with bias, and out-of-range fetches read zeros",
          "[draw][vertex]") {
  VertexRun r(2);
  std::vector<float> data;
  for (int i = 0; i < 10; ++i)
    data.insert(data.end(), {float(i), 0, 0, 1});
  VertexInput in;
  in.buffer = r.fx.buffer(data.data(), data.size() * 4);
  in.size = data.size() * 4;
  in.stride = 16;
  r.s.inputs[0] = in;
  VertexElement e;
  e.src_format = Format::R32G32B32A32_FLOAT;
  r.s.elements = {e, e};
  for (uint32_t size : {1u, 2u, 4u}) {
    const std::vector<uint32_t> idx = {0, 3, 5, 2, 200, 1};
    std::vector<uint8_t> bytes(idx.size() * size + 8);
    for (size_t i = 0; i < idx.size(); ++i)
      std::memcpy(&bytes[4 + i * size], &idx[i], size);
    r.s.index_buffer = r.fx.buffer(bytes.data(), bytes.size());
    r.s.index_offset = 4;
    r.s.index_size_bytes = bytes.size();
    DrawInfo info;
    info.mode = PrimType::POINTS;
    info.index_size = uint8_t(size);
    // start 1: indices 3, 5, 2, 200, 1 (and one past the end of the buffer), bias 2.
    const uint32_t count = size == 4 ? 5 : 6;
    auto v = r.run(info, DrawStartCountBias{1, count, 2});
    INFO("index size " << size);
    auto x = [&](size_t k) {
      float f;
      std::memcpy(&f, &v[k * 2][0], 4);
      return f;
    };
    CHECK(x(0) == 5.0f);
    CHECK(x(1) == 7.0f);
    CHECK(x(2) == 4.0f);
    // Index 200 + 2 is past the vertex buffer: zeros, never a read outside the buffer.
    CHECK(v[3 * 2] == std::array<uint32_t, 4>{0, 0, 0, 0});
    CHECK(x(4) == 3.0f);
    if (count == 6) CHECK(x(5) == 2.0f);  // index 0 past the index buffer's end
  }
}
