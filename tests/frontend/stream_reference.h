// Host references for the stream-output and geometry-shader tests: the basic primitives
// a draw decomposes into, in GL's order, written as sequential loops over each restart
// segment (the device computes them per position in parallel: prim_decompose.h), and a
// scene with a colour buffer, shaders from TGSI text and vertex data.
// Header-only: the test build compiles *_test.cpp files only.
#pragma once

#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <vector>

#include "frontend/frontend_util.h"

namespace clpipe::test {

// The pass-through shader pair of the stream-output, query and GS tests.
// OUT[0] = IN[0]: the position; OUT[1] = IN[1]: the vertex's id record (GENERIC[0]).
inline const char* const kPassVs =
    "VERT\n"
    "DCL IN[0]\n"
    "DCL IN[1]\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "  0: MOV OUT[0], IN[0]\n"
    "  1: MOV OUT[1], IN[1]\n"
    "  2: END\n";

// Colour = the GENERIC[0] varying of the provoking vertex.
inline const char* const kFlatColorFs =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], CONSTANT\n"
    "DCL OUT[0], COLOR\n"
    "  0: MOV OUT[0], IN[0]\n"
    "  1: END\n";

// Vertex indices of one basic primitive (adjacency included when `adjacency`).
using RefPrim = std::vector<uint32_t>;

// Primitives of one strip/list of n vertices whose indices are seg[0..n).
inline void ref_segment(PrimType mode, const std::vector<uint32_t>& seg, bool first, bool adjacency,
                        std::vector<RefPrim>* out) {
  const size_t n = seg.size();
  auto e = [&](size_t i) { return seg[i]; };
  switch (mode) {
    case PrimType::POINTS:
      for (size_t i = 0; i < n; ++i)
        out->push_back({e(i)});
      break;
    case PrimType::LINES:
      for (size_t i = 0; i + 1 < n; i += 2)
        out->push_back({e(i), e(i + 1)});
      break;
    case PrimType::LINE_STRIP:
    case PrimType::LINE_LOOP:
      for (size_t i = 1; i < n; ++i)
        out->push_back({e(i - 1), e(i)});
      if (mode == PrimType::LINE_LOOP && n >= 2) out->push_back({e(n - 1), e(0)});
      break;
    case PrimType::TRIANGLES:
      for (size_t i = 0; i + 2 < n; i += 3)
        out->push_back({e(i), e(i + 1), e(i + 2)});
      break;
    case PrimType::TRIANGLE_STRIP:
      for (size_t i = 0; i + 2 < n; ++i) {
        if (i % 2 == 0) {
          out->push_back({e(i), e(i + 1), e(i + 2)});
        } else if (first) {
          out->push_back({e(i), e(i + 2), e(i + 1)});  // the first vertex stays first
        } else {
          out->push_back({e(i + 1), e(i), e(i + 2)});  // the last vertex stays last
        }
      }
      break;
    case PrimType::TRIANGLE_FAN:
      for (size_t i = 1; i + 1 < n; ++i) {
        if (first) {
          out->push_back({e(i), e(i + 1), e(0)});
        } else {
          out->push_back({e(0), e(i), e(i + 1)});
        }
      }
      break;
    case PrimType::POLYGON:
      for (size_t i = 1; i + 1 < n; ++i) {
        if (first) {
          out->push_back({e(0), e(i), e(i + 1)});
        } else {
          out->push_back({e(i), e(i + 1), e(0)});
        }
      }
      break;
    case PrimType::QUADS:
      for (size_t i = 0; i + 3 < n; i += 4) {
        if (first) {
          out->push_back({e(i), e(i + 1), e(i + 2)});
          out->push_back({e(i), e(i + 2), e(i + 3)});
        } else {
          out->push_back({e(i), e(i + 1), e(i + 3)});
          out->push_back({e(i + 1), e(i + 2), e(i + 3)});
        }
      }
      break;
    case PrimType::QUAD_STRIP:
      for (size_t i = 0; i + 3 < n; i += 2) {
        if (first) {
          out->push_back({e(i), e(i + 3), e(i + 2)});
        } else {
          out->push_back({e(i + 2), e(i), e(i + 3)});
        }
        out->push_back({e(i), e(i + 1), e(i + 3)});
      }
      break;
    case PrimType::LINES_ADJACENCY:
      for (size_t i = 0; i + 3 < n; i += 4) {
        if (adjacency) {
          out->push_back({e(i), e(i + 1), e(i + 2), e(i + 3)});
        } else {
          out->push_back({e(i + 1), e(i + 2)});
        }
      }
      break;
    case PrimType::LINE_STRIP_ADJACENCY:
      for (size_t i = 1; i + 2 < n; ++i) {
        if (adjacency) {
          out->push_back({e(i - 1), e(i), e(i + 1), e(i + 2)});
        } else {
          out->push_back({e(i), e(i + 1)});
        }
      }
      break;
    case PrimType::TRIANGLES_ADJACENCY:
      for (size_t i = 0; i + 5 < n; i += 6) {
        if (adjacency) {
          out->push_back({e(i), e(i + 1), e(i + 2), e(i + 3), e(i + 4), e(i + 5)});
        } else {
          out->push_back({e(i), e(i + 2), e(i + 4)});
        }
      }
      break;
    case PrimType::TRIANGLE_STRIP_ADJACENCY:
      // GL's table: triangle t has the vertices 2t, 2t+2, 2t+4 and the adjacent ones
      // 2t-2 (1 for t = 0), 2t+6 (2t+5 for the last triangle) and 2t+3; odd triangles
      // swap to keep the winding (and the provoking vertex) in place.
      for (size_t t = 0; 2 * t + 5 < n; ++t) {
        const size_t v0 = 2 * t, v2 = v0 + 2, v4 = v0 + 4, a5 = v0 + 3;
        const size_t a1 = t == 0 ? 1 : v0 - 2;
        const size_t a3 = 2 * t + 7 < n ? v0 + 6 : v0 + 5;
        RefPrim p;
        if (t % 2 == 0) {
          p = {e(v0), e(a1), e(v2), e(a3), e(v4), e(a5)};
        } else if (first) {
          p = {e(v0), e(a5), e(v4), e(a3), e(v2), e(a1)};
        } else {
          p = {e(v2), e(a1), e(v0), e(a5), e(v4), e(a3)};
        }
        if (!adjacency) p = {p[0], p[2], p[4]};
        out->push_back(p);
      }
      break;
    default:
      FAIL("no reference for this primitive type");
  }
}

// The basic primitives of a draw: `indices` are the vertex ids in draw order (vertex
// numbers for non-indexed draws); entries equal to `restart` split segments when
// `use_restart`. Each instance repeats the primitives with its own vertices (offset by
// instance * indices.size() when `instance_offset`).
inline std::vector<RefPrim> ref_prims(PrimType mode, const std::vector<uint32_t>& indices,
                                      bool first, bool adjacency, bool use_restart = false,
                                      uint32_t restart = 0) {
  std::vector<RefPrim> out;
  std::vector<uint32_t> seg;
  for (uint32_t v : indices) {
    if (use_restart && v == restart) {
      ref_segment(mode, seg, first, adjacency, &out);
      seg.clear();
    } else {
      seg.push_back(v);
    }
  }
  ref_segment(mode, seg, first, adjacency, &out);
  return out;
}

inline std::vector<uint32_t> iota_u32(uint32_t n, uint32_t from = 0) {
  std::vector<uint32_t> v(n);
  for (uint32_t i = 0; i < n; ++i)
    v[i] = from + i;
  return v;
}

inline uint32_t f2u(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

inline std::vector<uint32_t> words_of(const std::vector<uint8_t>& bytes) {
  std::vector<uint32_t> w(bytes.size() / 4);
  std::memcpy(w.data(), bytes.data(), w.size() * 4);
  return w;
}

// A context with a float colour buffer of w x h, a viewport mapping NDC onto it, default
// CSOs, and helpers to bind shaders, vertices, stream-output targets and read results.
struct StreamScene {
  std::unique_ptr<Context> ctx = new_context();
  ResourceRef rt, vbuf;
  uint32_t w, h;

  explicit StreamScene(uint32_t width = 32, uint32_t height = 32) : w(width), h(height) {
    rt = create(make_templ(TextureTarget::TEXTURE_2D, Format::R32G32B32A32_FLOAT, w, uint16_t(h)));
    FramebufferState fb;
    fb.width = uint16_t(w);
    fb.height = uint16_t(h);
    fb.nr_cbufs = 1;
    fb.cbufs[0] = make_surface(*ctx, rt, Format::R32G32B32A32_FLOAT);
    REQUIRE(ctx->set_framebuffer_state(fb).is_ok());
    const ViewportState vp = window_viewport(w, h);
    REQUIRE(ctx->set_viewport_states(0, {vp}).is_ok());
    rasterizer(RasterizerState());
    ctx->bind_blend_state(ctx->create_blend_state(BlendState()).value());
    ctx->bind_depth_stencil_alpha_state(
        ctx->create_depth_stencil_alpha_state(DepthStencilAlphaState()).value());
    // Two float4 attributes per vertex from one buffer.
    VertexElement a, b;
    a.src_format = Format::R32G32B32A32_FLOAT;
    b.src_format = Format::R32G32B32A32_FLOAT;
    b.src_offset = 16;
    ctx->bind_vertex_elements_state(ctx->create_vertex_elements_state({a, b}).value());
  }

  void rasterizer(const RasterizerState& rs) {
    ctx->bind_rasterizer_state(ctx->create_rasterizer_state(rs).value());
  }
  ShaderHandle vs(const char* tgsi, const StreamOutputInfo& so = {}) {
    ShaderState s;
    s.tgsi = tgsi;
    s.stream_output = so;
    auto r = ctx->create_vs_state(s);
    REQUIRE(r.status().to_string() == "Ok");
    REQUIRE(ctx->bind_vs_state(r.value()).is_ok());
    return r.value();
  }
  ShaderHandle gs(const char* tgsi, const StreamOutputInfo& so = {}) {
    ShaderState s;
    s.tgsi = tgsi;
    s.stream_output = so;
    auto r = ctx->create_gs_state(s);
    REQUIRE(r.status().to_string() == "Ok");
    REQUIRE(ctx->bind_gs_state(r.value()).is_ok());
    return r.value();
  }
  ShaderHandle fs(const char* tgsi) {
    ShaderState s;
    s.tgsi = tgsi;
    auto r = ctx->create_fs_state(s);
    REQUIRE(r.status().to_string() == "Ok");
    REQUIRE(ctx->bind_fs_state(r.value()).is_ok());
    return r.value();
  }
  // Vertex data: 8 floats per vertex (two float4 attributes), stride 32.
  void vertices(const std::vector<float>& v) {
    vbuf = create_buffer(uint32_t(v.size() * 4));
    REQUIRE(ctx->buffer_subdata(vbuf, Map::WRITE, 0, uint32_t(v.size() * 4), v.data()).is_ok());
    VertexBuffer vb;
    vb.stride = 32;
    vb.buffer = vbuf;
    REQUIRE(ctx->set_vertex_buffers(0, {vb}).is_ok());
  }
  // A buffer of `bytes` filled with the word `fill`.
  ResourceRef so_buffer(uint32_t bytes, uint32_t fill = 0xdeadbeefu) {
    ResourceRef r = create(make_templ(TextureTarget::BUFFER, Format::R8_UNORM, bytes, 1, 1, 1, 0,
                                      Bind::STREAM_OUTPUT | Bind::VERTEX_BUFFER));
    std::vector<uint32_t> words(bytes / 4, fill);
    REQUIRE(ctx->buffer_subdata(r, Map::WRITE, 0, bytes, words.data()).is_ok());
    return r;
  }
  StreamOutputTargetHandle target(const ResourceRef& buf, uint32_t offset, uint32_t size) {
    auto t = ctx->create_stream_output_target(buf, offset, size);
    REQUIRE(t.status().to_string() == "Ok");
    return t.value();
  }
  Status draw(PrimType mode, uint32_t count, uint32_t instances = 1) {
    DrawInfo info;
    info.mode = mode;
    info.instance_count = instances;
    return ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, count, 0}});
  }
  // The words of a buffer after every command issued so far.
  std::vector<uint32_t> words(const ResourceRef& buf) {
    finish(*ctx);
    return words_of(read_raw(buf));
  }
  std::array<float, 4> pixel(uint32_t x, uint32_t y) {
    auto bytes = read_box(*ctx, rt, 0, make_box_2d(int(x), int(y), 1, 1));
    std::array<float, 4> c;
    std::memcpy(c.data(), bytes.data(), 16);
    return c;
  }
};

}  // namespace clpipe::test
