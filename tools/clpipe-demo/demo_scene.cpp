// The demo scene (see demo_scene.h): resources, TGSI shaders, state objects and the draw
// sequence of one frame.
#include "demo_scene.h"

#include <cstring>

namespace clpipe::demo {

namespace {

// VS: clip position = MVP * p, world position = M * p, world normal = M * n (the models
// are rotations and translations, so M's upper 3x3 maps normals too), colour passed on.
// CONST[0..3] = MVP columns, CONST[4..7] = model columns.
const char* kVertexShader =
    "VERT\n"
    "DCL IN[0]\n"
    "DCL IN[1]\n"
    "DCL IN[2]\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "DCL OUT[2], GENERIC[1]\n"
    "DCL OUT[3], GENERIC[2]\n"
    "DCL CONST[0..7]\n"
    "DCL TEMP[0..1]\n"
    "  0: MUL TEMP[0], CONST[0], IN[0].xxxx\n"
    "  1: MAD TEMP[0], CONST[1], IN[0].yyyy, TEMP[0]\n"
    "  2: MAD TEMP[0], CONST[2], IN[0].zzzz, TEMP[0]\n"
    "  3: ADD OUT[0], CONST[3], TEMP[0]\n"
    "  4: MUL TEMP[1], CONST[4], IN[0].xxxx\n"
    "  5: MAD TEMP[1], CONST[5], IN[0].yyyy, TEMP[1]\n"
    "  6: MAD TEMP[1], CONST[6], IN[0].zzzz, TEMP[1]\n"
    "  7: ADD OUT[3], CONST[7], TEMP[1]\n"
    "  8: MUL TEMP[1], CONST[4], IN[1].xxxx\n"
    "  9: MAD TEMP[1], CONST[5], IN[1].yyyy, TEMP[1]\n"
    " 10: MAD OUT[1], CONST[6], IN[1].zzzz, TEMP[1]\n"
    " 11: MOV OUT[2], IN[2]\n"
    " 12: END\n";

// FS: per-pixel Blinn-Phong. IN[0] world normal, IN[1] albedo (alpha = opacity),
// IN[2] world position. CONST[0] = direction to the light (unit), CONST[1] = eye,
// CONST[2] = (ambient, shininess, specular strength, diffuse strength).
const char* kFragmentShader =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
    "DCL IN[1], GENERIC[1], PERSPECTIVE\n"
    "DCL IN[2], GENERIC[2], PERSPECTIVE\n"
    "DCL OUT[0], COLOR\n"
    "DCL CONST[0..2]\n"
    "DCL TEMP[0..3]\n"
    "IMM[0] FLT32 {0.0, 1.0, 0.0, 0.0}\n"
    "  0: DP3 TEMP[0].x, IN[0], IN[0]\n"
    "  1: RSQ TEMP[0].x, TEMP[0].xxxx\n"
    "  2: MUL TEMP[0].xyz, IN[0], TEMP[0].xxxx\n"
    "  3: DP3 TEMP[1].x, TEMP[0], CONST[0]\n"
    "  4: MAX TEMP[1].x, TEMP[1].xxxx, IMM[0].xxxx\n"
    "  5: ADD TEMP[2].xyz, CONST[1], -IN[2]\n"
    "  6: DP3 TEMP[3].x, TEMP[2], TEMP[2]\n"
    "  7: RSQ TEMP[3].x, TEMP[3].xxxx\n"
    "  8: MAD TEMP[2].xyz, TEMP[2], TEMP[3].xxxx, CONST[0]\n"
    "  9: DP3 TEMP[3].x, TEMP[2], TEMP[2]\n"
    " 10: RSQ TEMP[3].x, TEMP[3].xxxx\n"
    " 11: MUL TEMP[2].xyz, TEMP[2], TEMP[3].xxxx\n"
    " 12: DP3 TEMP[3].x, TEMP[0], TEMP[2]\n"
    " 13: MAX TEMP[3].x, TEMP[3].xxxx, IMM[0].xxxx\n"
    " 14: POW TEMP[3].x, TEMP[3].xxxx, CONST[2].yyyy\n"
    " 15: MUL TEMP[3].x, TEMP[3].xxxx, CONST[2].zzzz\n"
    " 16: MAD TEMP[1].x, TEMP[1].xxxx, CONST[2].wwww, CONST[2].xxxx\n"
    " 17: MAD OUT[0].xyz, IN[1], TEMP[1].xxxx, TEMP[3].xxxx\n"
    " 18: MOV OUT[0].w, IN[1].wwww\n"
    " 19: END\n";

void check(const Status& s, const char* what) {
  if (!s.is_ok()) throw DemoError(std::string(what) + ": " + s.to_string());
}

template <typename T>
T take(Result<T> r, const char* what) {
  check(r.status(), what);
  return std::move(r).value();
}

ResourceTemplate texture_2d(Format f, uint32_t w, uint32_t h, uint32_t bind) {
  ResourceTemplate t;
  t.format = f;
  t.width0 = w;
  t.height0 = uint16_t(h);
  t.bind = bind;
  return t;
}

// The world position of the torus and its turn per frame.
constexpr Vec3 kTorusCentre{-1.4f, 1.25f, 0.5f};
constexpr float kTorusTurn = 0.35f;  // radians per frame

}  // namespace

Mat4 view_projection(uint32_t width, uint32_t height) {
  const float aspect = float(width) / float(height);
  return perspective(0.8f, aspect, 0.5f, 40.0f) * look_at(kEye, kLookAt, {0, 1, 0});
}

void project_to_pixel(Vec3 p, uint32_t width, uint32_t height, float* x, float* y) {
  float c[4];
  transform(view_projection(width, height), p, c);
  // The viewport of DemoScene: NDC x -> [0, width), NDC y = +1 at row 0.
  *x = (c[0] / c[3] + 1.0f) * 0.5f * float(width);
  *y = (1.0f - c[1] / c[3]) * 0.5f * float(height);
}

DemoScene::DemoScene(Screen& screen, Context& ctx, uint32_t width, uint32_t height)
    : screen_(screen), ctx_(ctx), width_(width), height_(height) {
  color_ = take(screen_.resource_create(
                    texture_2d(Format::R8G8B8A8_UNORM, width, height, Bind::RENDER_TARGET)),
                "colour buffer");
  depth_ = take(screen_.resource_create(
                    texture_2d(Format::Z24_UNORM_S8_UINT, width, height, Bind::DEPTH_STENCIL)),
                "depth buffer");
  SurfaceTemplate st;
  st.format = Format::R8G8B8A8_UNORM;
  color_surf_ = take(ctx_.create_surface(color_, st), "colour surface");
  st.format = Format::Z24_UNORM_S8_UINT;
  depth_surf_ = take(ctx_.create_surface(depth_, st), "depth surface");
  FramebufferState fb;
  fb.width = uint16_t(width);
  fb.height = uint16_t(height);
  fb.nr_cbufs = 1;
  fb.cbufs[0] = color_surf_;
  fb.zsbuf = depth_surf_;
  check(ctx_.set_framebuffer_state(fb), "set_framebuffer_state");
  // Row 0 is the top of the image: NDC y = +1 maps there (scale y < 0).
  ViewportState vp;
  vp.scale[0] = float(width) / 2;
  vp.scale[1] = -float(height) / 2;
  vp.scale[2] = 0.5f;
  vp.translate[0] = float(width) / 2;
  vp.translate[1] = float(height) / 2;
  vp.translate[2] = 0.5f;
  check(ctx_.set_viewport_states(0, {vp}), "set_viewport_states");

  ShaderState ss;
  ss.tgsi = kVertexShader;
  vs_ = take(ctx_.create_vs_state(ss), "vertex shader");
  ss.tgsi = kFragmentShader;
  fs_ = take(ctx_.create_fs_state(ss), "fragment shader");
  check(ctx_.bind_vs_state(vs_), "bind_vs_state");
  check(ctx_.bind_fs_state(fs_), "bind_fs_state");
  VertexElement pos, normal, color;
  pos.src_format = Format::R32G32B32_FLOAT;
  normal.src_format = Format::R32G32B32_FLOAT;
  normal.src_offset = offsetof(Vertex, normal);
  color.src_format = Format::R8G8B8A8_UNORM;
  color.src_offset = offsetof(Vertex, color);
  elements_ = take(ctx_.create_vertex_elements_state({pos, normal, color}), "vertex elements");
  ctx_.bind_vertex_elements_state(elements_);

  // Faces are counter-clockwise on screen as seen (the viewport flip keeps that).
  RasterizerState rs;
  rs.front_ccw = true;
  rs.cull_face = Face::BACK;
  opaque_.rasterizer = take(ctx_.create_rasterizer_state(rs), "rasterizer state");
  rs.cull_face = Face::NONE;
  two_sided_.rasterizer = take(ctx_.create_rasterizer_state(rs), "rasterizer state");
  translucent_.rasterizer = two_sided_.rasterizer;
  DepthStencilAlphaState dsa;
  dsa.depth_enabled = true;
  dsa.depth_writemask = true;
  dsa.depth_func = CompareFunc::LESS;
  opaque_.depth_stencil = take(ctx_.create_depth_stencil_alpha_state(dsa), "depth state");
  two_sided_.depth_stencil = opaque_.depth_stencil;
  // Translucent surfaces are tested against the opaque ones but do not hide each other.
  dsa.depth_writemask = false;
  translucent_.depth_stencil = take(ctx_.create_depth_stencil_alpha_state(dsa), "depth state");
  opaque_.blend = take(ctx_.create_blend_state(BlendState()), "blend state");
  two_sided_.blend = opaque_.blend;
  BlendState blend;
  blend.rt[0].blend_enable = true;
  blend.rt[0].rgb_src_factor = BlendFactor::SRC_ALPHA;
  blend.rt[0].rgb_dst_factor = BlendFactor::INV_SRC_ALPHA;
  blend.rt[0].alpha_src_factor = BlendFactor::ONE;
  blend.rt[0].alpha_dst_factor = BlendFactor::INV_SRC_ALPHA;
  translucent_.blend = take(ctx_.create_blend_state(blend), "blend state");

  // Draw order: the sphere before the ground behind it (the depth test must keep the
  // sphere), translucent panes last and back to front.
  objects_.push_back({upload(make_sphere(kSphereRadius, 48, 24, kSphereColor)), &opaque_,
                      translate(kSphereCentre)});
  objects_.push_back(
      {upload(make_torus(0.9f, 0.32f, 64, 32)), &opaque_, translate(kTorusCentre), true});
  objects_.push_back(
      {upload(make_ground(7.0f, 14, Rgba8{205, 205, 200, 255}, Rgba8{70, 74, 86, 255})),
       &two_sided_, Mat4()});
  objects_.push_back({upload(make_quad({-0.6f, 0.9f, -2.4f}, {0.9f, 0, 0}, {0, 0.9f, 0},
                                       Rgba8{250, 210, 40, 140})),
                      &translucent_, Mat4()});
  objects_.push_back({upload(make_quad({2.3f, 1.0f, 0.6f}, {0.6f, 0, 0.35f}, {0, 0.7f, 0},
                                       Rgba8{40, 220, 90, 110})),
                      &translucent_, Mat4()});
  objects_.push_back({upload(make_quad(kRedPaneCentre, {kRedPaneHalfSize, 0, 0},
                                       {0, kRedPaneHalfSize, 0}, kRedPaneColor)),
                      &translucent_, Mat4()});
}

DemoScene::~DemoScene() = default;

DemoScene::GpuMesh DemoScene::upload(const Mesh& mesh) {
  GpuMesh g;
  const uint32_t vbytes = uint32_t(mesh.vertices.size() * sizeof(Vertex));
  const uint32_t ibytes = uint32_t(mesh.indices.size() * sizeof(uint32_t));
  ResourceTemplate t;
  t.target = TextureTarget::BUFFER;
  t.format = Format::R8_UNORM;
  t.width0 = vbytes;
  t.bind = Bind::VERTEX_BUFFER;
  g.vertices = take(screen_.resource_create(t), "vertex buffer");
  t.width0 = ibytes;
  t.bind = Bind::INDEX_BUFFER;
  g.indices = take(screen_.resource_create(t), "index buffer");
  check(ctx_.buffer_subdata(g.vertices, Map::WRITE, 0, vbytes, mesh.vertices.data()),
        "vertex upload");
  check(ctx_.buffer_subdata(g.indices, Map::WRITE, 0, ibytes, mesh.indices.data()), "index upload");
  g.index_count = uint32_t(mesh.indices.size());
  return g;
}

void DemoScene::draw(const Object& o, const Mat4& model) {
  const Mat4 mvp = view_projection(width_, height_) * model;
  float k[32];
  std::memcpy(k, mvp.m, 64);
  std::memcpy(k + 16, model.m, 64);
  ConstantBuffer cb;
  cb.user_buffer = k;
  cb.buffer_size = sizeof(k);
  check(ctx_.set_constant_buffer(ShaderType::VERTEX, 0, &cb), "set_constant_buffer");
  ctx_.bind_rasterizer_state(o.material->rasterizer);
  ctx_.bind_blend_state(o.material->blend);
  ctx_.bind_depth_stencil_alpha_state(o.material->depth_stencil);
  VertexBuffer vb;
  vb.stride = sizeof(Vertex);
  vb.buffer = o.mesh.vertices;
  check(ctx_.set_vertex_buffers(0, {vb}), "set_vertex_buffers");
  DrawInfo info;
  info.mode = PrimType::TRIANGLES;
  info.index_size = 4;
  info.index_resource = o.mesh.indices;
  check(ctx_.draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, o.mesh.index_count, 0}}),
        "draw_vbo");
}

void DemoScene::render(int frame) {
  ColorUnion clear_color;
  clear_color.f[0] = kClearColor.r / 255.0f;
  clear_color.f[1] = kClearColor.g / 255.0f;
  clear_color.f[2] = kClearColor.b / 255.0f;
  clear_color.f[3] = 1.0f;
  check(ctx_.clear(Clear::COLOR0 | Clear::DEPTHSTENCIL, nullptr, clear_color, 1.0, 0), "clear");
  const Vec3 light = normalize(kLightDir);
  const float fk[12] = {light.x, light.y, light.z, 0,     kEye.x, kEye.y,
                        kEye.z,  1,       0.22f,   40.0f, 0.55f,  0.85f};
  ConstantBuffer cb;
  cb.user_buffer = fk;
  cb.buffer_size = sizeof(fk);
  check(ctx_.set_constant_buffer(ShaderType::FRAGMENT, 0, &cb), "set_constant_buffer");
  const Mat4 spin =
      rotate(kTorusTurn * float(frame), normalize({0.8f, 0.3f, 0.5f})) * rotate(1.1f, {1, 0, 0});
  for (const Object& o : objects_)
    draw(o, o.spins ? o.model * spin : o.model);
}

std::vector<uint8_t> DemoScene::read_rgb() {
  TransferHandle t =
      take(ctx_.transfer_map(color_, 0, Map::READ, make_box_2d(0, 0, int(width_), int(height_))),
           "transfer_map");
  std::vector<uint8_t> rgb(size_t(width_) * height_ * 3);
  const auto* base = static_cast<const uint8_t*>(t->data());
  for (uint32_t y = 0; y < height_; ++y) {
    const uint8_t* row = base + size_t(y) * t->stride();
    for (uint32_t x = 0; x < width_; ++x)
      std::memcpy(&rgb[(size_t(y) * width_ + x) * 3], row + x * 4, 3);
  }
  check(ctx_.transfer_unmap(t), "transfer_unmap");
  return rgb;
}

uint64_t DemoScene::triangles_per_frame() const {
  uint64_t n = 0;
  for (const Object& o : objects_)
    n += o.mesh.index_count / 3;
  return n;
}

}  // namespace clpipe::demo
