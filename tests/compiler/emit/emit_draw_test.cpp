// Emitted shaders inside the real draw passes: a vertex shader with a constant buffer in
// vertex.cl and a texturing fragment shader (implicit LOD from the quad) with KILL in
// tile.cl, bound mechanically from the emitter's parameter list, drawing a textured
// quad; the pixels are checked against the texture.
#include <catch2/catch.hpp>

#include "compiler/emit/compile.h"
#include "compiler/emit/harness.h"
#include "draw/draw_fixture.h"

using namespace clpipe;
using namespace clpipe::test;
using namespace clpipe::frontend::draw;
using clpipe::test::emit::fbits;

namespace {

// Binds every parameter of `code` from the given buffers (by kind and index), each a
// buffer of its own (table entry 0, offsets 0).
std::vector<frontend::StageArg> bind(DrawFixture& fx, const compiler::EmittedShader& code,
                                     const ClpResourceInfo& ri, const std::vector<uint32_t>& cb0,
                                     const std::vector<ClpTexView>& views,
                                     const std::vector<ClpSamplerState>& samplers,
                                     const std::vector<uint8_t>& tex0) {
  std::vector<frontend::StageArg> out;
  for (const compiler::ResourceParam& p : code.params) {
    switch (p.kind) {
      case compiler::ParamKind::kResourceInfo:
        out.push_back({frontend::ResourceTable::kNone, fx.buffer(&ri, sizeof ri)});
        break;
      case compiler::ParamKind::kConstBuffer:
        out.push_back({frontend::ResourceTable::kNone, fx.buffer(cb0.data(), cb0.size() * 4)});
        break;
      case compiler::ParamKind::kSamplerViews:
        out.push_back({frontend::ResourceTable::kNone,
                       fx.buffer(views.data(), views.size() * sizeof(ClpTexView))});
        break;
      case compiler::ParamKind::kSamplers:
        out.push_back({frontend::ResourceTable::kNone,
                       fx.buffer(samplers.data(), samplers.size() * sizeof(ClpSamplerState))});
        break;
      case compiler::ParamKind::kTexture:
        out.push_back({frontend::ResourceTable::kNone, fx.buffer(tex0.data(), tex0.size())});
        break;
      default:
        FAIL("unexpected parameter " << p.name);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("emit: emitted VS and FS draw through vertex.cl and tile.cl", "[emit][draw]") {
  DrawFixture fx;
  compiler::EmitOptions opt;  // the tile pass runs this device's fragment lanes
  opt.fragment_lanes = fx.queue().device().limits().fragment_lanes;
  opt.fragment_whole_tile = fx.queue().device().limits().whole_tile_items;
  const auto vs = compiler::compile_tgsi(R"(VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL CONST[0][0]
  0: MOV OUT[0], IN[0]
  1: MUL OUT[1], IN[1], CONST[0].xxxx
  2: END
)");
  // Texels with a negative alpha are discarded.
  const auto fs = compiler::compile_tgsi(R"(FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL TEMP[0]
DCL CONST[0][0]
  0: TEX TEMP[0], IN[0], SAMP[0], 2D
  1: KILL_IF TEMP[0].wwww
  2: MUL OUT[0], TEMP[0], CONST[0].yyyy
  3: END
)",
                                         opt);
  REQUIRE(fs.code.prelude.find("#define CLP_FS_USES_KILL 1") != std::string::npos);

  const uint32_t W = 16, H = 16;
  DrawSetup s = fx.basic_setup(W, H);
  GeneratedCode vcode{vs.code.prelude, vs.code.body}, fcode{fs.code.prelude, fs.code.body};
  s.vs = fx.stage(vcode, "vertex.cl", vs.info.num_inputs, vs.info.num_outputs);
  s.fs = fx.stage(fcode, "tile.cl", fs.info.num_inputs, fs.info.num_outputs);
  s.fs_color_reg.fill(-1);
  s.fs_color_reg[0] = fs.info.fs_outputs.color[0];
  s.outputs.pos_reg = 0;
  s.fs_links = {ClpFsLink{1, -1, CLP_LINK_ALL_CHANNELS, {0, 0, 0, 1}}};
  s.cbufs[0] = fx.target(Format::R32G32B32A32_FLOAT, W, H);

  // A 2x2 RGBA32F texture, nearest: texel (i, j) = (i, j, 0.5, 1), but texel (1, 1) has
  // alpha -1.
  std::vector<uint8_t> tex(4 * 16);
  for (int j = 0; j < 2; ++j) {
    for (int i = 0; i < 2; ++i) {
      const float t[4] = {float(i), float(j), 0.5f, (i == 1 && j == 1) ? -1.0f : 1.0f};
      std::memcpy(&tex[size_t(j * 2 + i) * 16], t, 16);
    }
  }
  ClpTexView view{};
  view.format = uint32_t(Format::R32G32B32A32_FLOAT);
  view.target = CLP_TEXTARGET_2D;
  view.width = view.height = 2;
  view.depth = view.layers = 1;
  for (int c = 0; c < 4; ++c)
    view.swizzle[c] = uint32_t(c);
  view.data_size = uint32_t(tex.size());
  view.row_pitch[0] = 32;
  view.layer_pitch[0] = 64;
  ClpSamplerState smp{};
  smp.wrap[0] = smp.wrap[1] = CLP_WRAP_CLAMP_TO_EDGE;
  smp.min_mip_filter = CLP_MIP_NONE;
  smp.max_lod = 1000.0f;
  ClpResourceInfo ri{};
  ri.const_size[0] = 16;
  // CONST[0].x = 1 scales the texture coordinates; .y = 2 scales the colour.
  const std::vector<uint32_t> cb0 = {fbits(1.0f), fbits(2.0f), 0, 0};
  s.vs.resources = bind(fx, vs.code, ri, cb0, {view}, {smp}, tex);
  s.fs.resources = bind(fx, fs.code, ri, cb0, {view}, {smp}, tex);

  // A full-window quad; the viewport puts NDC y = 1 at window row H, so t = (1 + y) / 2
  // grows with the row.
  fx.set_vertices(s, {-1, 1,  0, 1, 0, 1, 0, 0,  //
                      1,  1,  0, 1, 1, 1, 0, 0,  //
                      -1, -1, 0, 1, 0, 0, 0, 0,  //
                      1,  -1, 0, 1, 1, 0, 0, 0},
                  8, {Format::R32G32B32A32_FLOAT, Format::R32G32B32A32_FLOAT});
  DrawInfo info;
  info.mode = PrimType::TRIANGLE_STRIP;
  fx.pipeline().draw(s, info, DrawStartCountBias{0, 4, 0}, 0);
  Image img = fx.read(s.cbufs[0], W, H);
  for (uint32_t y = 0; y < H; ++y) {
    for (uint32_t x = 0; x < W; ++x) {
      const int i = x < W / 2 ? 0 : 1, j = y < H / 2 ? 0 : 1;
      const auto c = img.rgba(x, y);
      INFO("pixel " << x << "," << y);
      if (i == 1 && j == 1) {  // killed: the target keeps its clear value
        CHECK(c[3] == 0.0f);
        continue;
      }
      CHECK(c[0] == 2.0f * float(i));
      CHECK(c[1] == 2.0f * float(j));
      CHECK(c[2] == 1.0f);
      CHECK(c[3] == 2.0f);
    }
  }
}
