// The virgl decoder on hand-built command streams: state objects, views and surfaces,
// shaders (chunks, stream output), handle and length checks.
#include <catch2/catch.hpp>

#include "vtest/vtest_test_util.h"

using namespace clpipe;
using namespace clpipe::vtest_test;

TEST_CASE("vtest decoder: blend, rasterizer and DSA fields", "[vtest][decoder]") {
  Harness h;
  const uint32_t rt0 = 1u | (1u << 1) | (3u << 4) | (0x13u << 9) | (4u << 14) | (1u << 17) |
                       (0x11u << 22) | (0x5u << 27);
  Stream s;
  s.cmd(Ccmd::CREATE_OBJECT, ObjType::BLEND, {10, 1u | 2u | 8u, 6, rt0, 0, 0, 0, 0, 0, 0, 0});
  s.cmd(Ccmd::BIND_OBJECT, ObjType::BLEND, {10});
  s.cmd(Ccmd::CREATE_OBJECT, ObjType::RASTERIZER,
        {11, 0x20000002u | 1u | (2u << 8) | (1u << 10) | (2u << 12) | (1u << 15), fbits(4.5f), 0x3,
         0xff00abcdu | (3u << 16), fbits(2.0f), fbits(1.5f), fbits(0.25f), fbits(8.0f)});
  s.cmd(Ccmd::CREATE_OBJECT, ObjType::DSA,
        {12, 1u | 2u | (3u << 2) | (1u << 8) | (6u << 9),
         1u | (2u << 1) | (2u << 4) | (3u << 7) | (7u << 10) | (0xf0u << 13) | (0x0fu << 21), 0,
         fbits(0.5f)});
  h.submit(s);
  REQUIRE(h.log->blends.size() == 1);
  const BlendState& b = h.log->blends[0];
  CHECK(b.independent_blend_enable);
  CHECK(b.logicop_enable);
  CHECK(b.alpha_to_coverage);
  CHECK(b.logicop_func == LogicOp::XOR);
  CHECK(b.rt[0].blend_enable);
  CHECK(b.rt[0].rgb_func == BlendFunc::SUBTRACT);
  CHECK(b.rt[0].rgb_src_factor == BlendFactor::SRC_ALPHA);
  CHECK(b.rt[0].rgb_dst_factor == BlendFactor::INV_SRC_ALPHA);
  CHECK(b.rt[0].alpha_func == BlendFunc::MAX);
  CHECK(b.rt[0].alpha_src_factor == BlendFactor::ONE);
  CHECK(b.rt[0].alpha_dst_factor == BlendFactor::ZERO);
  CHECK(b.rt[0].colormask == 0x5);
  CHECK(b.max_rt == 7);
  CHECK(h.log->count("bind_blend #") == 1);

  REQUIRE(h.log->rasterizers.size() == 1);
  const RasterizerState& r = h.log->rasterizers[0];
  CHECK(r.flatshade);
  CHECK(r.depth_clip_near);
  CHECK_FALSE(r.depth_clamp);
  CHECK(r.half_pixel_center);
  CHECK(r.cull_face == Face::BACK);
  CHECK(r.fill_front == PolygonMode::LINE);
  CHECK(r.fill_back == PolygonMode::POINT);
  CHECK(r.front_ccw);
  CHECK(r.point_size == 4.5f);
  CHECK(r.sprite_coord_enable == 0x3);
  CHECK(r.line_stipple_pattern == 0xabcd);
  CHECK(r.line_stipple_factor == 3);
  CHECK(r.clip_plane_enable == 0xff);
  CHECK(r.line_width == 2.0f);
  CHECK(r.offset_clamp == 8.0f);

  REQUIRE(h.log->dsas.size() == 1);
  const DepthStencilAlphaState& d = h.log->dsas[0];
  CHECK(d.depth_enabled);
  CHECK(d.depth_writemask);
  CHECK(d.depth_func == CompareFunc::LEQUAL);
  CHECK(d.alpha_enabled);
  CHECK(d.alpha_func == CompareFunc::GEQUAL);
  CHECK(d.alpha_ref_value == 0.5f);
  CHECK(d.stencil[0].enabled);
  CHECK(d.stencil[0].func == CompareFunc::EQUAL);
  CHECK(d.stencil[0].fail_op == StencilOp::REPLACE);
  CHECK(d.stencil[0].zpass_op == StencilOp::INCR);
  CHECK(d.stencil[0].zfail_op == StencilOp::INVERT);
  CHECK(d.stencil[0].valuemask == 0xf0);
  CHECK(d.stencil[0].writemask == 0x0f);
  CHECK_FALSE(d.stencil[1].enabled);

  // A blend factor of 0 is fine on a disabled render target (Mesa sends that), not on an
  // enabled one.
  Stream bad;
  bad.cmd(Ccmd::CREATE_OBJECT, ObjType::BLEND, {13, 0, 0, 1u, 0, 0, 0, 0, 0, 0, 0});
  CHECK_THAT(h.submit_error(bad), Catch::Contains("blend factor"));
  CHECK(h.log->violations.empty());
}

TEST_CASE("vtest decoder: samplers, vertex elements, views and surfaces", "[vtest][decoder]") {
  Harness h;
  h.resource(1, TextureTarget::TEXTURE_2D_ARRAY, Format::R8G8B8A8_UNORM, 16, 16, 1, 4, 3);
  h.resource(2, TextureTarget::BUFFER, Format::R8_UNORM, 256);
  Stream s;
  s.cmd(Ccmd::CREATE_OBJECT, ObjType::SAMPLER_STATE,
        {20,
         2u | (3u << 3) | (4u << 6) | (1u << 9) | (1u << 11) | (1u << 13) | (1u << 15) |
             (3u << 16) | (1u << 19) | (8u << 20),
         fbits(-1.0f), fbits(0.5f), fbits(1000.0f), 1, 2, 3, 4});
  s.cmd(Ccmd::CREATE_OBJECT, ObjType::VERTEX_ELEMENTS, {21, 0, 0, 0, 31, 16, 1, 1, 200});
  s.cmd(Ccmd::CREATE_OBJECT, ObjType::SAMPLER_VIEW,
        {22, 1, 67u | (uint32_t(TextureTarget::TEXTURE_2D_ARRAY) << 24), 1u | (3u << 16),
         1u | (2u << 8), 0u | (1u << 3) | (4u << 6) | (5u << 9)});
  // Buffer view: elements 4..11 of R32G32B32A32_FLOAT = bytes 64..191.
  s.cmd(Ccmd::CREATE_OBJECT, ObjType::SAMPLER_VIEW, {23, 2, 31, 4, 11, 0x688});
  s.cmd(Ccmd::CREATE_OBJECT, ObjType::SURFACE, {24, 1, 67, 2, 0u | (3u << 16)});
  h.submit(s);
  REQUIRE(h.log->samplers.size() == 1);
  const SamplerState& ss = h.log->samplers[0];
  CHECK(ss.wrap_s == TexWrap::CLAMP_TO_EDGE);
  CHECK(ss.wrap_t == TexWrap::CLAMP_TO_BORDER);
  CHECK(ss.wrap_r == TexWrap::MIRROR_REPEAT);
  CHECK(ss.min_img_filter == TexFilter::LINEAR);
  CHECK(ss.min_mip_filter == TexMipFilter::LINEAR);
  CHECK(ss.mag_img_filter == TexFilter::LINEAR);
  CHECK(ss.compare_mode == TexCompare::R_TO_TEXTURE);
  CHECK(ss.compare_func == CompareFunc::LEQUAL);
  CHECK(ss.seamless_cube_map);
  CHECK(ss.max_anisotropy == 8);
  CHECK(ss.lod_bias == -1.0f);
  CHECK(ss.border_color.ui[3] == 4);
  // The words are integers or floats by the texture they are used with.
  CHECK(ss.border_color_in_view_format);
  REQUIRE(h.log->vertex_elements.size() == 1);
  REQUIRE(h.log->vertex_elements[0].size() == 2);
  CHECK(h.log->vertex_elements[0][1].src_offset == 16);
  CHECK(h.log->vertex_elements[0][1].instance_divisor == 1);
  CHECK(h.log->vertex_elements[0][1].vertex_buffer_index == 1);
  CHECK(h.log->vertex_elements[0][1].src_format == Format::R32G32B32A32_SINT);
  REQUIRE(h.log->views.size() == 2);
  const SamplerViewTemplate& v = h.log->views[0];
  CHECK(v.target == TextureTarget::TEXTURE_2D_ARRAY);
  CHECK(v.first_layer == 1);
  CHECK(v.last_layer == 3);
  CHECK(v.first_level == 1);
  CHECK(v.last_level == 2);
  CHECK(v.swizzle_g == Swizzle::Y);
  CHECK(v.swizzle_b == Swizzle::ZERO);
  CHECK(v.swizzle_a == Swizzle::ONE);
  CHECK(h.log->views[1].buf_offset == 64);
  CHECK(h.log->views[1].buf_size == 128);
  REQUIRE(h.log->surfaces.size() == 1);
  CHECK(h.log->surfaces[0].level == 2);
  CHECK(h.log->surfaces[0].last_layer == 3);

  const std::pair<const char*, Stream> kBad[] = {
      {"layers",
       Stream().cmd(Ccmd::CREATE_OBJECT, ObjType::SAMPLER_VIEW, {30, 1, 67, 4u << 16, 0, 0})},
      {"levels",
       Stream().cmd(Ccmd::CREATE_OBJECT, ObjType::SAMPLER_VIEW, {30, 1, 67, 0, 4u << 8, 0})},
      {"exceed the buffer",
       Stream().cmd(Ccmd::CREATE_OBJECT, ObjType::SAMPLER_VIEW, {30, 2, 31, 0, 16, 0})},
      {"view target", Stream().cmd(Ccmd::CREATE_OBJECT, ObjType::SAMPLER_VIEW,
                                   {30, 2, 64u | (2u << 24), 0, 0, 0})},
      {"swizzle", Stream().cmd(Ccmd::CREATE_OBJECT, ObjType::SAMPLER_VIEW, {30, 1, 67, 0, 0, 7})},
      {"unknown resource 9",
       Stream().cmd(Ccmd::CREATE_OBJECT, ObjType::SURFACE, {30, 9, 67, 0, 0})},
      {"surface level", Stream().cmd(Ccmd::CREATE_OBJECT, ObjType::SURFACE, {30, 1, 67, 4, 0})},
      {"filters", Stream().cmd(Ccmd::CREATE_OBJECT, ObjType::SAMPLER_STATE,
                               {30, 3u << 9, 0, 0, 0, 0, 0, 0, 0})},
      {"src_offset",
       Stream().cmd(Ccmd::CREATE_OBJECT, ObjType::VERTEX_ELEMENTS, {30, 0x10000, 0, 0, 31})},
      {"vertex buffer",
       Stream().cmd(Ccmd::CREATE_OBJECT, ObjType::VERTEX_ELEMENTS, {30, 0, 0, 32, 31})},
      {"1 + 4 x elements",
       Stream().cmd(Ccmd::CREATE_OBJECT, ObjType::VERTEX_ELEMENTS, {30, 0, 0, 0})},
      {"not supported", Stream().cmd(Ccmd::CREATE_OBJECT, ObjType::SURFACE, {30, 1, 105, 0, 0})},
      {"invalid object type", Stream().cmd(Ccmd::CREATE_OBJECT, 12, {30})},
  };
  for (const auto& [what, stream] : kBad) {
    INFO(what);
    CHECK_THAT(h.submit_error(stream), Catch::Contains(what));
  }
  CHECK(h.log->violations.empty());
}

TEST_CASE("vtest decoder: handles are checked for existence and type", "[vtest][decoder]") {
  Harness h;
  Stream setup;
  setup.cmd(Ccmd::CREATE_OBJECT, ObjType::DSA, {5, 0, 0, 0, 0});
  h.submit(setup);
  const std::pair<const char*, Stream> kBad[] = {
      {"unknown object 6", Stream().cmd(Ccmd::BIND_OBJECT, ObjType::DSA, {6})},
      {"is a DSA, not a BLEND", Stream().cmd(Ccmd::BIND_OBJECT, ObjType::BLEND, {5})},
      {"cannot be bound", Stream().cmd(Ccmd::BIND_OBJECT, ObjType::SURFACE, {5})},
      {"is a DSA", Stream().cmd(Ccmd::DESTROY_OBJECT, ObjType::QUERY, {5})},
      {"is a DSA", Stream().cmd(Ccmd::SET_SAMPLER_VIEWS, 0, {1, 0, 5})},
      {"handle 0", Stream().cmd(Ccmd::CREATE_OBJECT, ObjType::DSA, {0, 0, 0, 0, 0})},
      {"unknown resource", Stream().cmd(Ccmd::SET_VERTEX_BUFFERS, 0, {16, 0, 77})},
      {"invalid shader stage", Stream().cmd(Ccmd::SET_CONSTANT_BUFFER, 0, {6, 0})},
      {"unknown sub-context", Stream().cmd(Ccmd::SET_SUB_CTX, 0, {3})},
  };
  for (const auto& [what, stream] : kBad) {
    INFO(what);
    CHECK_THAT(h.submit_error(stream), Catch::Contains(what));
  }
  // Unbinding (handle 0) and destroying the right type work.
  Stream ok;
  ok.cmd(Ccmd::BIND_OBJECT, ObjType::DSA, {0}).cmd(Ccmd::DESTROY_OBJECT, ObjType::DSA, {5});
  CHECK(h.submit_error(ok).empty());
  CHECK(h.log->count("bind_dsa null") == 1);
  CHECK_THAT(h.submit_error(Stream().cmd(Ccmd::BIND_OBJECT, ObjType::DSA, {5})),
             Catch::Contains("unknown object 5"));
}

TEST_CASE("vtest decoder: lengths are checked and errors name the command", "[vtest][decoder]") {
  Harness h;
  Stream overrun;
  overrun.raw({ccmd_header(Ccmd::SET_SAMPLE_MASK, 0, 5), 1});
  CHECK_THAT(h.submit_error(overrun),
             Catch::Contains("SET_SAMPLE_MASK") && Catch::Contains("overruns"));
  const std::pair<const char*, Stream> kBad[] = {
      {"SET_BLEND_COLOR: bad length 3", Stream().cmd(Ccmd::SET_BLEND_COLOR, 0, {1, 2, 3})},
      {"CREATE_OBJECT/DSA: bad length", Stream().cmd(Ccmd::CREATE_OBJECT, ObjType::DSA, {1, 0})},
      {"DRAW_VBO: bad length 13",
       Stream().cmd(Ccmd::DRAW_VBO, 0, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})},
      {"unknown virgl command 200", Stream().cmd(200, 0, {})},
      {"CREATE_VIDEO_CODEC: not supported", Stream().cmd(53, 0, {1, 2})},
      {"PIPE_RESOURCE_CREATE: not supported", Stream().cmd(Ccmd::PIPE_RESOURCE_CREATE, 0, {})},
      {"SET_FRAMEBUFFER_STATE: 9 colour buffers",
       Stream().cmd(Ccmd::SET_FRAMEBUFFER_STATE, 0, {9, 0})},
      {"viewport slots",
       Stream().cmd(Ccmd::SET_VIEWPORT_STATE, 0, {15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})},
      {"sampler view slots", Stream().cmd(Ccmd::SET_SAMPLER_VIEWS, 0, {1, 128, 0})},
      {"index size 3", Stream()
                           .cmd(Ccmd::SET_INDEX_BUFFER, 0, {0, 0, 0})
                           .cmd(Ccmd::SET_INDEX_BUFFER, 0, {1, 3, 0})},
      {"clear bits", Stream().cmd(Ccmd::CLEAR, 0, {1u << 12, 0, 0, 0, 0, 0, 0, 0})},
      {"EMIT_STRING_MARKER: string of 9 bytes",
       Stream().cmd(Ccmd::EMIT_STRING_MARKER, 0, {9, 0, 0})},
  };
  for (const auto& [what, stream] : kBad) {
    INFO(what);
    CHECK_THAT(h.submit_error(stream), Catch::Contains(what));
  }
  // SUBMIT_CMD dword offsets point at the failing command.
  Stream second;
  second.cmd(Ccmd::SET_SAMPLE_MASK, 0, {1}).cmd(Ccmd::SET_SAMPLE_MASK, 0, {});
  CHECK_THAT(h.submit_error(second), Catch::StartsWith("SUBMIT_CMD dword 2: SET_SAMPLE_MASK"));
  CHECK(h.log->violations.empty());
}

TEST_CASE("vtest decoder: shader text arrives in chunks, across submits", "[vtest][decoder]") {
  Harness h;
  const std::string text =
      "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}\n"
      "  0: MOV OUT[0], IMM[0]\n  1: END\n";
  std::string with_nul = text + '\0';
  auto dwords = [](const std::string& bytes) {
    std::vector<uint32_t> d((bytes.size() + 3) / 4, 0);
    std::memcpy(d.data(), bytes.data(), bytes.size());
    return d;
  };
  const uint32_t total = uint32_t(with_nul.size());
  const std::string first = with_nul.substr(0, 20), rest = with_nul.substr(20);
  std::vector<uint32_t> c1 = {
      ccmd_header(Ccmd::CREATE_OBJECT, ObjType::SHADER, 5 + 5), 7, 1, total, 30, 0};
  for (uint32_t d : dwords(first))
    c1.push_back(d);
  Stream s1;
  s1.raw(c1);
  h.submit(s1);
  CHECK(h.log->shader_texts.empty());  // incomplete: nothing compiled yet
  // Binding an incomplete shader is an error.
  CHECK_THAT(h.submit_error(Stream().cmd(Ccmd::BIND_SHADER, 0, {7, 1})),
             Catch::Contains("unknown object 7"));
  const std::vector<uint32_t> rd = dwords(rest);
  std::vector<uint32_t> c2 = {
      ccmd_header(Ccmd::CREATE_OBJECT, ObjType::SHADER, uint32_t(5 + rd.size())),
      7,
      1,
      0x80000000u | 20u,
      30,
      0};
  c2.insert(c2.end(), rd.begin(), rd.end());
  Stream s2;
  s2.raw(c2).cmd(Ccmd::BIND_SHADER, 0, {7, 1});
  h.submit(s2);
  REQUIRE(h.log->shader_texts.size() == 1);
  CHECK(h.log->shader_texts[0].first == int(ShaderType::FRAGMENT));
  CHECK(h.log->shader_texts[0].second == text);
  CHECK(h.log->count("bind_shader stage=4 #") == 1);
  CHECK_THAT(h.submit_error(Stream().cmd(Ccmd::BIND_SHADER, 0, {7, 0})),
             Catch::Contains("bound as VERTEX"));

  // Out-of-order chunks, continuations without a start, oversized texts.
  Stream start;
  start.raw({ccmd_header(Ccmd::CREATE_OBJECT, ObjType::SHADER, 6), 8, 0, 100, 10, 0, 0x54524556});
  h.submit(start);
  CHECK_THAT(h.submit_error(Stream().raw({ccmd_header(Ccmd::CREATE_OBJECT, ObjType::SHADER, 6), 8,
                                          0, 0x80000000u | 8u, 10, 0, 0})),
             Catch::Contains("chunk at byte 8, expected 4"));
  CHECK_THAT(h.submit_error(Stream().raw({ccmd_header(Ccmd::CREATE_OBJECT, ObjType::SHADER, 6), 8,
                                          1, 0x80000000u | 4u, 10, 0, 0})),
             Catch::Contains("changes its stage"));
  CHECK_THAT(h.submit_error(Stream().raw({ccmd_header(Ccmd::CREATE_OBJECT, ObjType::SHADER, 6), 9,
                                          0, 0x80000000u, 10, 0, 0})),
             Catch::Contains("no first chunk"));
  CHECK_THAT(h.submit_error(Stream().raw({ccmd_header(Ccmd::CREATE_OBJECT, ObjType::SHADER, 5), 10,
                                          0, 0x7fffffffu, 10, 0})),
             Catch::Contains("limit"));
  // Destroying a partial shader drops its text.
  h.submit(Stream().cmd(Ccmd::DESTROY_OBJECT, ObjType::SHADER, {8}));
  CHECK_THAT(h.submit_error(Stream().raw({ccmd_header(Ccmd::CREATE_OBJECT, ObjType::SHADER, 6), 8,
                                          0, 0x80000000u | 4u, 10, 0, 0})),
             Catch::Contains("no first chunk"));
}

TEST_CASE("vtest decoder: stream-output declarations", "[vtest][decoder]") {
  Harness h;
  const uint32_t o0 = 2u | (1u << 8) | (3u << 10) | (1u << 13) | (4u << 16);
  std::vector<uint32_t> c = {ccmd_header(Ccmd::CREATE_OBJECT, ObjType::SHADER, 5 + 4 + 2 + 2),
                             3,
                             0,
                             8,
                             10,
                             1,
                             4,
                             8,
                             0,
                             0,
                             o0,
                             1,
                             0x54524556,
                             0};
  h.submit(Stream().raw(c));
  REQUIRE(h.log->stream_outputs.size() == 1);
  const StreamOutputInfo& so = h.log->stream_outputs[0];
  CHECK(so.stride[0] == 4);
  CHECK(so.stride[1] == 8);
  REQUIRE(so.output.size() == 1);
  CHECK(so.output[0].register_index == 2);
  CHECK(so.output[0].start_component == 1);
  CHECK(so.output[0].num_components == 3);
  CHECK(so.output[0].output_buffer == 1);
  CHECK(so.output[0].dst_offset == 4);
  CHECK(so.output[0].stream == 1);
  CHECK(h.log->shader_texts[0].second == "VERT");
  const uint32_t bad = 0u | (3u << 8) | (2u << 10);  // components 3..4: past w
  CHECK_THAT(
      h.submit_error(Stream().raw({ccmd_header(Ccmd::CREATE_OBJECT, ObjType::SHADER, 5 + 4 + 2 + 1),
                                   4, 0, 4, 10, 1, 4, 0, 0, 0, bad, 0, 0x54524556})),
      Catch::Contains("stream output 0"));
  CHECK_THAT(h.submit_error(Stream().raw(
                 {ccmd_header(Ccmd::CREATE_OBJECT, ObjType::SHADER, 6), 4, 0, 4, 10, 200, 0})),
             Catch::Contains("stream outputs"));
}

TEST_CASE("vtest decoder: clpipe refusals are logged, counted and survivable", "[vtest][decoder]") {
  LogRecorder rec;
  Harness h;
  const std::string text = std::string("FRAG\nFAIL_COMPILE\n") + '\0' + '\0';
  std::vector<uint32_t> c = {ccmd_header(Ccmd::CREATE_OBJECT, ObjType::SHADER, 5 + 5),
                             4,
                             1,
                             uint32_t(text.size() - 1),
                             10,
                             0};
  std::vector<uint32_t> d(5, 0);
  std::memcpy(d.data(), text.data(), text.size());
  c.insert(c.end(), d.begin(), d.end());
  Stream s;
  s.raw(c).cmd(Ccmd::BIND_SHADER, 0, {4, 1}).cmd(Ccmd::DESTROY_OBJECT, ObjType::SHADER, {4});
  h.submit(s);
  CHECK(h.decoder->api_failures() == 1);
  CHECK(rec.count("CREATE_OBJECT: clpipe: CompileError: 1:1: fake compile error") == 1);
  CHECK(h.log->count("bind_shader stage=4 null") == 1);  // the refused shader binds as none

  // Strict mode turns the refusal into a protocol error.
  Harness strict(gl33_config(), DecoderOptions{true});
  CHECK_THAT(strict.submit_error(Stream().raw(c)), Catch::Contains("strict"));
}
