#include "draw/draw_fixture.h"

#include <cstring>

#include "frontend/format_codec.h"

namespace clpipe::test {

using namespace frontend::draw;

std::array<float, 4> Image::rgba(uint32_t x, uint32_t y) const {
  std::array<float, 4> out{};
  frontend::unpack_rgba_float(format, pixel(x, y), out.data());
  return out;
}

DrawFixture::DrawFixture() : queue_(test_device()), pipeline_(queue_, test_program_cache()) {}

cl::Buffer DrawFixture::buffer(const void* data, size_t size) {
  cl::Buffer b = queue_.create_buffer(size);
  queue_.write(b, 0, size, data, true);
  return b;
}

ColorTarget DrawFixture::target(Format f, uint32_t w, uint32_t h, uint8_t fill) {
  ColorTarget t;
  t.format = f;
  t.pitch = w * format_desc(f).block_bytes;
  std::vector<uint8_t> init(size_t(t.pitch) * h, fill);
  t.buffer = buffer(init.data(), init.size());
  return t;
}

Image DrawFixture::read(const ColorTarget& t, uint32_t w, uint32_t h) {
  Image img;
  img.format = t.format;
  img.width = w;
  img.height = h;
  img.pitch = t.pitch;
  img.bytes.resize(size_t(t.pitch) * h);
  queue_.read(t.buffer, t.offset, img.bytes.size(), img.bytes.data());
  return img;
}

StageBinding DrawFixture::stage(const GeneratedCode& code, const char* template_name, uint32_t in,
                                uint32_t out) {
  StageBinding b;
  if (std::string(template_name) == "tile.cl") {
    // The code's own lanes: the emitter may give a shader more than the device's.
    const size_t at = code.prelude.find("#define CLP_LANES ");
    const uint32_t lanes = at == std::string::npos
                               ? queue_.device().limits().fragment_lanes
                               : uint32_t(std::stoul(code.prelude.substr(at + 18)));
    b.tile_variants = std::make_shared<TileVariants>(
        test_program_cache(), code, FsSampling{}, program_tier_mode(queue_.device()),
        tile_pass_items(queue_.device().limits(), lanes));
    b.program = b.tile_variants->generic();
  } else {
    b.program = test_program_cache().get(stage_program_source(code, template_name));
  }
  b.num_inputs = in;
  b.num_outputs = out;
  return b;
}

StageBinding DrawFixture::passthrough_vs(uint32_t n) {
  GeneratedCode c;
  c.prelude = "#define CLP_STAGE_VERTEX 1\n#define CLP_LANES 4\n#define CLP_NUM_INPUTS " +
              std::to_string(n) + "\n#define CLP_NUM_OUTPUTS " + std::to_string(n) +
              "\n#define CLP_RESOURCE_PARAMS\n#define CLP_RESOURCE_ARGS\n";
  c.body =
      "void clp_shader_main(ClpShaderIo* io, ClpStageCtx* stage) {\n"
      "  for (int r = 0; r < CLP_NUM_INPUTS; ++r)\n"
      "    for (int c = 0; c < 4; ++c) io->out[r][c] = io->in[r][c];\n"
      "}\n";
  return stage(c, "vertex.cl", n, n);
}

StageBinding DrawFixture::varying_fs(int interp, int location) {
  return stage(varying_fs_code(interp, location), "tile.cl", 1, 1);
}

GeneratedCode DrawFixture::varying_fs_code(int interp, int location) {
  GeneratedCode c;
  c.prelude =
      "#define CLP_STAGE_FRAGMENT 1\n#define CLP_LANES " +
      std::to_string(queue_.device().limits().fragment_lanes) + "\n#define CLP_TILE_WHOLE " +
      std::to_string(int(queue_.device().limits().whole_tile_items)) +
      "\n#define CLP_NUM_INPUTS 1\n"
      "#define CLP_NUM_OUTPUTS 1\n#define CLP_RESOURCE_PARAMS\n#define CLP_RESOURCE_ARGS\n"
      "#define CLP_FS_COLOR_REG_0 0\n#define CLP_FS_COLOR_REG_1 -1\n#define CLP_FS_COLOR_REG_2 -1\n"
      "#define CLP_FS_COLOR_REG_3 -1\n#define CLP_FS_COLOR_REG_4 -1\n#define CLP_FS_COLOR_REG_5 "
      "-1\n"
      "#define CLP_FS_COLOR_REG_6 -1\n#define CLP_FS_COLOR_REG_7 -1\n#define CLP_FS_DEPTH_REG -1\n"
      "#define CLP_FS_STENCIL_REG -1\n#define CLP_FS_SAMPLEMASK_REG -1\n"
      "#define CLP_FS_EARLY_DEPTH 0\n#define CLP_FS_USES_KILL 0\n"
      // Only the weights of this mode, as the emitter declares them.
      "#define CLP_FS_INTERP_MODES " +
      std::to_string(1u << interp) + "\n#define CLP_FS_PER_SAMPLE " +
      std::to_string(int(location == 2)) + "\n";
  c.body =
      "void clp_shader_main(ClpShaderIo* io, ClpStageCtx* stage) {\n"
      "  for (int ch = 0; ch < 4; ++ch) {\n"
      "    io->in[0][ch] = clp_fs_input(stage, 0, ch, 5, 0, " +
      std::to_string(interp) + ", " + std::to_string(location) +
      ");\n"
      "    io->out[0][ch] = io->in[0][ch];\n"
      "  }\n"
      "}\n";
  return c;
}

StageBinding DrawFixture::custom_fs(const FsSpec& spec, const std::string& body) {
  GeneratedCode c;
  auto def = [&](const std::string& name, int v) {
    c.prelude += "#define " + name + " " + std::to_string(v) + "\n";
  };
  c.prelude =
      "#define CLP_STAGE_FRAGMENT 1\n#define CLP_RESOURCE_PARAMS\n#define CLP_RESOURCE_ARGS\n";
  def("CLP_LANES", int(queue_.device().limits().fragment_lanes));
  def("CLP_TILE_WHOLE", int(queue_.device().limits().whole_tile_items));
  def("CLP_NUM_INPUTS", int(spec.inputs));
  def("CLP_NUM_OUTPUTS", int(spec.outputs));
  for (int i = 0; i < 8; ++i)
    def("CLP_FS_COLOR_REG_" + std::to_string(i), spec.color_regs[i]);
  def("CLP_FS_DEPTH_REG", spec.depth_reg);
  def("CLP_FS_STENCIL_REG", spec.stencil_reg);
  def("CLP_FS_SAMPLEMASK_REG", spec.samplemask_reg);
  def("CLP_FS_EARLY_DEPTH", spec.early_depth);
  def("CLP_FS_USES_KILL", spec.uses_kill);
  def("CLP_FS_PER_SAMPLE", spec.per_sample);
  // Like a generated body: the shader library first.
  c.body =
      "#include \"shader_lib.h\"\nvoid clp_shader_main(ClpShaderIo* io, ClpStageCtx* stage) {\n" +
      body + "\n}\n";
  return stage(c, "tile.cl", spec.inputs, spec.outputs);
}

DrawSetup DrawFixture::basic_setup(uint32_t w, uint32_t h) {
  DrawSetup s;
  s.fb_width = w;
  s.fb_height = h;
  s.viewport.scale[0] = w * 0.5f;
  s.viewport.scale[1] = h * 0.5f;
  s.viewport.scale[2] = 0.5f;
  s.viewport.translate[0] = w * 0.5f;
  s.viewport.translate[1] = h * 0.5f;
  s.viewport.translate[2] = 0.5f;
  s.rasterizer.half_pixel_center = true;
  s.nr_cbufs = 1;
  s.fs_color_reg.fill(-1);
  s.fs_color_reg[0] = 0;
  s.outputs.pos_reg = 0;
  return s;
}

void DrawFixture::set_vertices(DrawSetup& s, const std::vector<float>& data,
                               uint32_t floats_per_vertex, const std::vector<Format>& formats) {
  VertexInput in;
  in.buffer = buffer(data.data(), data.size() * sizeof(float));
  in.size = data.size() * sizeof(float);
  in.stride = floats_per_vertex * sizeof(float);
  s.inputs[0] = in;
  s.elements.clear();
  uint32_t offset = 0;
  for (Format f : formats) {
    VertexElement e;
    e.src_format = f;
    e.src_offset = uint16_t(offset);
    e.vertex_buffer_index = 0;
    s.elements.push_back(e);
    offset += format_desc(f).block_bytes;
  }
}

}  // namespace clpipe::test
