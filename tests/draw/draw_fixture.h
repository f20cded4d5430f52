// Test fixture for the draw passes: a queue, a DrawPipeline, render targets in plain
// device buffers, and hand-written stage programs that follow shader_abi.h the way the
// compiler's output does (so the passes can be tested apart from the compiler).
#pragma once

#include <string>
#include <vector>

#include "frontend/draw/draw_pipeline.h"
#include "frontend/draw/stage_program.h"
#include "support/test_device.h"

namespace clpipe::test {

struct Image {
  Format format = Format::NONE;
  uint32_t width = 0, height = 0, pitch = 0;
  std::vector<uint8_t> bytes;
  const uint8_t* pixel(uint32_t x, uint32_t y) const {
    return bytes.data() + size_t(y) * pitch + size_t(x) * format_desc(format).block_bytes;
  }
  // RGBA of a pixel, decoded with the host codec.
  std::array<float, 4> rgba(uint32_t x, uint32_t y) const;
};

// The blend factors without a second source (fac(0, 14) picks one).
inline constexpr BlendFactor kBlendFactors[] = {
    BlendFactor::ONE,           BlendFactor::SRC_COLOR,       BlendFactor::SRC_ALPHA,
    BlendFactor::DST_ALPHA,     BlendFactor::DST_COLOR,       BlendFactor::SRC_ALPHA_SATURATE,
    BlendFactor::CONST_COLOR,   BlendFactor::CONST_ALPHA,     BlendFactor::ZERO,
    BlendFactor::INV_SRC_COLOR, BlendFactor::INV_SRC_ALPHA,   BlendFactor::INV_DST_ALPHA,
    BlendFactor::INV_DST_COLOR, BlendFactor::INV_CONST_COLOR, BlendFactor::INV_CONST_ALPHA};

class DrawFixture {
 public:
  DrawFixture();

  runtime::Queue& queue() { return queue_; }
  frontend::draw::DrawPipeline& pipeline() { return pipeline_; }

  cl::Buffer buffer(const void* data, size_t size);
  // A colour (or depth) target of w x h pixels, every byte `fill`.
  frontend::draw::ColorTarget target(Format f, uint32_t w, uint32_t h, uint8_t fill = 0);
  Image read(const frontend::draw::ColorTarget& t, uint32_t w, uint32_t h);

  // VS: OUT[i] = IN[i] for i < n (OUT[0] is the position).
  frontend::draw::StageBinding passthrough_vs(uint32_t n);
  // FS: OUT[0] = input register 0 with TGSI interpolation `interp`; the input's link
  // is set by the test in DrawSetup::fs_links.
  // location: TGSI's interpolate location (0 centre, 1 centroid, 2 sample: the shader
  // then runs once per sample).
  frontend::draw::StageBinding varying_fs(int interp = 2, int location = 0);
  frontend::draw::GeneratedCode varying_fs_code(int interp = 2, int location = 0);  // its text
  // A fragment stage from a hand-written body of clp_shader_main (the register file and
  // the facts the compiler would give): colour_regs[i] = OUT register of COLOR[i].
  struct FsSpec {
    uint32_t inputs = 1, outputs = 1;
    std::array<int, 8> color_regs = {0, -1, -1, -1, -1, -1, -1, -1};
    int depth_reg = -1, stencil_reg = -1, samplemask_reg = -1;
    bool uses_kill = false, early_depth = false;
    bool per_sample = false;  // runs once per sample (reads SAMPLEID, SAMPLEPOS, ...)
  };
  frontend::draw::StageBinding custom_fs(const FsSpec& spec, const std::string& body);
  // A setup for w x h targets: viewport mapping NDC to the window, no scissor, default
  // rasterizer (half-pixel centres), blending off, depth off, one colour buffer.
  frontend::draw::DrawSetup basic_setup(uint32_t w, uint32_t h);
  // Vertex input: one buffer of interleaved float attributes.
  void set_vertices(frontend::draw::DrawSetup& s, const std::vector<float>& data,
                    uint32_t floats_per_vertex, const std::vector<Format>& attrib_formats);

  frontend::draw::StageBinding stage(const frontend::draw::GeneratedCode& code,
                                     const char* template_name, uint32_t in, uint32_t out);

 private:
  runtime::Queue queue_;
  frontend::draw::DrawPipeline pipeline_;
};

}  // namespace clpipe::test
