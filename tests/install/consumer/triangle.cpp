// A program that uses an installed clpipe the way a user's would: only <clpipe/clpipe.h>.
// It draws one red triangle over the lower-left half of a 32x32 target cleared to blue,
// reads the pixels back and checks one inside and one outside the triangle.
// Exit status 0 when both are right, 1 otherwise (with the reason on stderr).
#include <clpipe/clpipe.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

namespace {

using namespace clpipe;

const char* kVertexShader =
    "VERT\n"
    "DCL IN[0]\n"
    "DCL OUT[0], POSITION\n"
    "  0: MOV OUT[0], IN[0]\n"
    "  1: END\n";
const char* kFragmentShader =
    "FRAG\n"
    "DCL OUT[0], COLOR\n"
    "IMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}\n"
    "  0: MOV OUT[0], IMM[0]\n"
    "  1: END\n";

bool failed(const char* what, const Status& s) {
  if (s.is_ok()) return false;
  std::fprintf(stderr, "triangle: %s: %s\n", what, s.to_string().c_str());
  return true;
}

template <typename T>
bool failed(const char* what, const Result<T>& r) {
  return failed(what, r.status());
}

}  // namespace

int main() {
  constexpr int kSize = 32;
  auto screen_r = Screen::create();
  if (failed("Screen::create", screen_r)) return 1;
  Screen& screen = *screen_r.value();
  auto ctx_r = screen.context_create();
  if (failed("context_create", ctx_r)) return 1;
  Context& ctx = *ctx_r.value();

  ResourceTemplate rt;
  rt.format = Format::R8G8B8A8_UNORM;
  rt.width0 = kSize;
  rt.height0 = kSize;
  rt.bind = Bind::RENDER_TARGET;
  auto color_r = screen.resource_create(rt);
  if (failed("colour buffer", color_r)) return 1;
  SurfaceTemplate st;
  st.format = Format::R8G8B8A8_UNORM;
  auto surf_r = ctx.create_surface(color_r.value(), st);
  if (failed("create_surface", surf_r)) return 1;
  FramebufferState fb;
  fb.width = kSize;
  fb.height = kSize;
  fb.nr_cbufs = 1;
  fb.cbufs[0] = surf_r.value();
  if (failed("set_framebuffer_state", ctx.set_framebuffer_state(fb))) return 1;
  // NDC y = +1 at row 0.
  ViewportState vp;
  vp.scale[0] = kSize / 2.0f;
  vp.scale[1] = -kSize / 2.0f;
  vp.scale[2] = 0.5f;
  vp.translate[0] = kSize / 2.0f;
  vp.translate[1] = kSize / 2.0f;
  vp.translate[2] = 0.5f;
  if (failed("set_viewport_states", ctx.set_viewport_states(0, {vp}))) return 1;

  ShaderState ss;
  ss.tgsi = kVertexShader;
  auto vs_r = ctx.create_vs_state(ss);
  if (failed("create_vs_state", vs_r)) return 1;
  ss.tgsi = kFragmentShader;
  auto fs_r = ctx.create_fs_state(ss);
  if (failed("create_fs_state", fs_r)) return 1;
  if (failed("bind_vs_state", ctx.bind_vs_state(vs_r.value()))) return 1;
  if (failed("bind_fs_state", ctx.bind_fs_state(fs_r.value()))) return 1;
  VertexElement pos;
  pos.src_format = Format::R32G32B32_FLOAT;
  auto ve_r = ctx.create_vertex_elements_state({pos});
  if (failed("create_vertex_elements_state", ve_r)) return 1;
  ctx.bind_vertex_elements_state(ve_r.value());
  auto rs_r = ctx.create_rasterizer_state(RasterizerState());
  if (failed("create_rasterizer_state", rs_r)) return 1;
  ctx.bind_rasterizer_state(rs_r.value());
  auto blend_r = ctx.create_blend_state(BlendState());
  if (failed("create_blend_state", blend_r)) return 1;
  ctx.bind_blend_state(blend_r.value());
  auto dsa_r = ctx.create_depth_stencil_alpha_state(DepthStencilAlphaState());
  if (failed("create_depth_stencil_alpha_state", dsa_r)) return 1;
  ctx.bind_depth_stencil_alpha_state(dsa_r.value());

  // Lower-left half: (-1,-1), (1,-1), (-1,1).
  const float vertices[9] = {-1, -1, 0, 1, -1, 0, -1, 1, 0};
  ResourceTemplate bt;
  bt.target = TextureTarget::BUFFER;
  bt.format = Format::R8_UNORM;
  bt.width0 = sizeof(vertices);
  bt.bind = Bind::VERTEX_BUFFER;
  auto vbuf_r = screen.resource_create(bt);
  if (failed("vertex buffer", vbuf_r)) return 1;
  if (failed("buffer_subdata",
             ctx.buffer_subdata(vbuf_r.value(), Map::WRITE, 0, sizeof(vertices), vertices)))
    return 1;
  VertexBuffer vb;
  vb.stride = 12;
  vb.buffer = vbuf_r.value();
  if (failed("set_vertex_buffers", ctx.set_vertex_buffers(0, {vb}))) return 1;

  ColorUnion blue;
  blue.f[0] = 0;
  blue.f[1] = 0;
  blue.f[2] = 1;
  blue.f[3] = 1;
  if (failed("clear", ctx.clear(Clear::COLOR0, nullptr, blue, 1.0, 0))) return 1;
  DrawInfo info;
  info.mode = PrimType::TRIANGLES;
  if (failed("draw_vbo", ctx.draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, 3, 0}}))) return 1;

  auto map_r = ctx.transfer_map(color_r.value(), 0, Map::READ, make_box_2d(0, 0, kSize, kSize));
  if (failed("transfer_map", map_r)) return 1;
  const auto* pixels = static_cast<const uint8_t*>(map_r.value()->data());
  const size_t stride = map_r.value()->stride();
  uint8_t inside[4], outside[4];
  std::memcpy(inside, pixels + 24 * stride + 8 * 4, 4);   // row 24 (bottom), column 8 (left)
  std::memcpy(outside, pixels + 8 * stride + 24 * 4, 4);  // row 8 (top), column 24 (right)
  if (failed("transfer_unmap", ctx.transfer_unmap(map_r.value()))) return 1;
  const bool ok = inside[0] == 255 && inside[1] == 0 && inside[2] == 0 && outside[0] == 0 &&
                  outside[1] == 0 && outside[2] == 255;
  std::printf("device: %s\ninside (%u,%u,%u) outside (%u,%u,%u): %s\n", screen.get_name().c_str(),
              inside[0], inside[1], inside[2], outside[0], outside[1], outside[2],
              ok ? "red triangle on blue, as drawn" : "WRONG");
  return ok ? 0 : 1;
}
