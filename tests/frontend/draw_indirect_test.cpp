// Draws whose counts the device reads (draw_vbo.cpp, draw/device_counts.cpp,
// kernels/device_counts.cl): indirect draws, multi-draws and draw_auto render what the
// same draws with host counts render, recording them waits for nothing, a count larger
// than the host planned replays the scene with the same pixels (plain, indexed,
// instanced, with primitive restart, a geometry shader and stream output), and bad
// arguments are refused or reported while the rest keeps rendering.
#include <catch2/catch.hpp>

#include <functional>
#include <string>

#include "frontend/stream_reference.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

// kPassVs, with instance i moved right by i / 4 of the window.
const char* kInstanceVs =
    "VERT\n"
    "DCL IN[0]\n"
    "DCL IN[1]\n"
    "DCL SV[0], INSTANCEID\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "DCL TEMP[0..1]\n"
    "IMM[0] FLT32 {0.5, 0.0, 0.0, 0.0}\n"
    "  0: MOV TEMP[0], IN[0]\n"
    "  1: I2F TEMP[1].x, SV[0].xxxx\n"
    "  2: MAD TEMP[0].x, TEMP[1].xxxx, IMM[0].xxxx, TEMP[0].xxxx\n"
    "  3: MOV OUT[0], TEMP[0]\n"
    "  4: MOV OUT[1], IN[1]\n"
    "  5: END\n";

// A pass-through geometry shader of triangles.
const char* kPassGs =
    "GEOM\n"
    "PROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n"
    "PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
    "PROPERTY GS_MAX_OUTPUT_VERTICES 3\n"
    "PROPERTY GS_INVOCATIONS 1\n"
    "DCL IN[][0], POSITION\n"
    "DCL IN[][1], GENERIC[0]\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "IMM[0] UINT32 {0, 0, 0, 0}\n"
    "  0: MOV OUT[0], IN[0][0]\n"
    "  1: MOV OUT[1], IN[0][1]\n"
    "  2: EMIT IMM[0].xxxx\n"
    "  3: MOV OUT[0], IN[1][0]\n"
    "  4: MOV OUT[1], IN[1][1]\n"
    "  5: EMIT IMM[0].xxxx\n"
    "  6: MOV OUT[0], IN[2][0]\n"
    "  7: MOV OUT[1], IN[2][1]\n"
    "  8: EMIT IMM[0].xxxx\n"
    "  9: ENDPRIM IMM[0].xxxx\n"
    " 10: END\n";

// n overlapping triangles (3 vertices each) of distinct colours: every pixel depends on
// which draws ran and in what order.
std::vector<float> triangles(uint32_t n) {
  std::vector<float> v;
  for (uint32_t i = 0; i < n; ++i) {
    const float s = float(i) / float(n);
    const float col[4] = {s, 1.0f - s, float(i % 3) / 2.0f, 1.0f};
    const float xy[3][2] = {{-1.0f + s, -1.0f}, {0.6f + 0.4f * s, -0.7f + s}, {-0.8f + s, 0.9f}};
    for (const auto& p : xy)
      v.insert(v.end(), {p[0], p[1], 0.0f, 1.0f, col[0], col[1], col[2], col[3]});
  }
  return v;
}

// A buffer resource holding `words` (indirect arguments, indices).
ResourceRef words_buffer(Context& ctx, const std::vector<uint32_t>& words) {
  ResourceRef r =
      create(make_templ(TextureTarget::BUFFER, Format::R8_UNORM, uint32_t(words.size() * 4), 1, 1,
                        1, 0, Bind::INDEX_BUFFER | Bind::VERTEX_BUFFER));
  REQUIRE(ctx.buffer_subdata(r, Map::WRITE, 0, uint32_t(words.size() * 4), words.data()).is_ok());
  return r;
}

std::vector<uint8_t> image(StreamScene& s) {
  return read_box(*s.ctx, s.rt, 0, make_box_2d(0, 0, int(s.w), int(s.h)));
}

frontend::ContextImpl& impl(StreamScene& s) {
  return dynamic_cast<frontend::ContextImpl&>(*s.ctx);
}

uint64_t blocking_reads(StreamScene& s) {
  return impl(s).queue_for_tests().counters().blocking_reads;
}

// Clears the target to black.
void clear(StreamScene& s) {
  ColorUnion black{};
  REQUIRE(s.ctx->clear(Clear::COLOR0, nullptr, black, 0, 0).is_ok());
}

Status indirect_draw(StreamScene& s, DrawInfo info, const ResourceRef& args, uint32_t offset,
                     uint32_t draw_count = 1, uint32_t stride = 0) {
  DrawIndirectInfo ind;
  ind.buffer = args;
  ind.offset = offset;
  ind.draw_count = draw_count;
  ind.stride = stride;
  return s.ctx->draw_vbo(info, 0, &ind, {DrawStartCountBias{}});
}

// The argument and index buffers of draw_all.
std::pair<ResourceRef, ResourceRef> make_args(StreamScene& s) {
  // Padding words between the multi-draw's arguments: stride 24.
  const std::vector<uint32_t> args = {7, 7, 9, 1,  0, 0, 0, 0, 6, 2, 9, 0, 0,
                                      0, 3, 1, 15, 0, 0, 0, 6, 1, 2, 3, 0};
  // Indices into triangles 5..6 (with the bias of 3 vertices), reversed.
  return {words_buffer(*s.ctx, args), words_buffer(*s.ctx, {99, 99, 14, 13, 12, 17, 16, 15})};
}

// The draws every case makes, with host counts (indirect false) or from arguments:
// three draws of one multi-draw call (one instanced), then an indexed draw with a bias.
// `args` (made by make_args) holds their arguments and indices.
void draw_all(StreamScene& s, bool indirect, const std::pair<ResourceRef, ResourceRef>& args) {
  const ResourceRef& a = args.first;
  const ResourceRef& idx = args.second;
  DrawInfo info;
  info.mode = PrimType::TRIANGLES;
  if (indirect) {
    REQUIRE(indirect_draw(s, info, a, 8, 3, 24).is_ok());
  } else {
    REQUIRE(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, 9, 0}}).is_ok());
    info.instance_count = 2;
    REQUIRE(s.ctx->draw_vbo(info, 1, nullptr, {DrawStartCountBias{9, 6, 0}}).is_ok());
    info.instance_count = 1;
    REQUIRE(s.ctx->draw_vbo(info, 2, nullptr, {DrawStartCountBias{15, 3, 0}}).is_ok());
  }
  info.index_size = 4;
  info.index_resource = idx;
  if (indirect) {
    REQUIRE(indirect_draw(s, info, a, 80).is_ok());
  } else {
    REQUIRE(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{2, 6, 3}}).is_ok());
  }
}

StreamScene& instance_scene(StreamScene& s) {
  s.vs(kInstanceVs);
  s.fs(kFlatColorFs);
  s.vertices(triangles(8));
  clear(s);
  return s;
}

}  // namespace

TEST_CASE("draw_vbo indirect: the device reads the arguments, with the pixels of host counts",
          "[frontend][draw][indirect]") {
  StreamScene direct;
  draw_all(instance_scene(direct), false, make_args(direct));
  const std::vector<uint8_t> expected = image(direct);

  StreamScene s;
  instance_scene(s);
  const auto args = make_args(s);
  const uint64_t reads_before = blocking_reads(s);
  draw_all(s, true, args);
  // Recording the draws read nothing back: the scene runs at the read-back below.
  CHECK(blocking_reads(s) == reads_before);
  const std::vector<uint8_t> got = image(s);
  CHECK(got == expected);
  // The draws drew (the image is not the clear's).
  StreamScene blank;
  CHECK(image(instance_scene(blank)) != expected);
}

TEST_CASE("draw_vbo indirect: writes to the arguments after a draw do not change what it drew",
          "[frontend][draw][indirect]") {
  StreamScene direct;
  instance_scene(direct);
  DrawInfo info;
  info.mode = PrimType::TRIANGLES;
  REQUIRE(direct.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, 9, 0}}).is_ok());
  const std::vector<uint8_t> expected = image(direct);

  StreamScene s;
  instance_scene(s);
  const ResourceRef args = words_buffer(*s.ctx, {9, 1, 0, 0});
  REQUIRE(indirect_draw(s, info, args, 0).is_ok());
  // The same state again: the draw reuses the derived state and still holds the buffer.
  const uint64_t derivations = impl(s).draw_derivations();
  REQUIRE(indirect_draw(s, info, args, 0).is_ok());
  CHECK(impl(s).draw_derivations() == derivations);
  const uint32_t none[4] = {0, 0, 0, 0};
  REQUIRE(s.ctx->buffer_subdata(args, Map::WRITE, 0, sizeof(none), none).is_ok());
  CHECK(image(s) == expected);
  clear(s);
  REQUIRE(indirect_draw(s, info, args, 0).is_ok());  // now draws nothing
  StreamScene blank;
  CHECK(image(s) == image(instance_scene(blank)));
}

TEST_CASE("draw_vbo indirect: counts above the plan replay the scene with the same pixels",
          "[frontend][draw][indirect]") {
  StreamScene direct;
  draw_all(instance_scene(direct), false, make_args(direct));
  const std::vector<uint8_t> expected = image(direct);

  StreamScene s;
  instance_scene(s);
  impl(s).set_device_count_positions(4);  // every draw has more
  const auto args = make_args(s);
  const uint64_t replays = impl(s).scene_counters().replays;
  draw_all(s, true, args);
  CHECK(image(s) == expected);
  CHECK(impl(s).scene_counters().replays == replays + 1);
  // The same draws again plan what the replay found at their arguments: no replay.
  clear(s);
  draw_all(s, true, args);
  CHECK(image(s) == expected);
  CHECK(impl(s).scene_counters().replays == replays + 1);
}

TEST_CASE("draw_vbo indirect: restart, a geometry shader and stream output read device counts",
          "[frontend][draw][indirect]") {
  // A case draws with host counts, then from arguments with the default plan and with a
  // plan of 2 positions (a replay), and returns what it made.
  using Case = std::function<std::vector<uint32_t>(StreamScene&, bool)>;
  auto run = [](const Case& draw_and_read) {
    StreamScene direct;
    const std::vector<uint32_t> expected = draw_and_read(direct, false);
    for (uint64_t plan : {uint64_t(0), uint64_t(2)}) {
      INFO("plan " << plan);
      StreamScene s;
      if (plan) impl(s).set_device_count_positions(plan);
      CHECK(draw_and_read(s, true) == expected);
    }
  };

  SECTION("primitive restart") {
    run([](StreamScene& s, bool indirect) {
      s.vs(kPassVs);
      s.fs(kFlatColorFs);
      s.vertices(triangles(4));
      clear(s);
      const ResourceRef idx =
          words_buffer(*s.ctx, {0, 1, 2, 0xffffffffu, 3, 4, 5, 6, 7, 8, 0xffffffffu, 9, 10, 11});
      DrawInfo info;
      info.mode = PrimType::TRIANGLE_STRIP;
      info.index_size = 4;
      info.index_resource = idx;
      info.primitive_restart = true;
      info.restart_index = 0xffffffffu;
      if (indirect) {
        REQUIRE(indirect_draw(s, info, words_buffer(*s.ctx, {14, 1, 0, 0, 0}), 0).is_ok());
      } else {
        REQUIRE(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, 14, 0}}).is_ok());
      }
      return words_of(image(s));
    });
  }
  SECTION("a geometry shader") {
    run([](StreamScene& s, bool indirect) {
      s.vs(kPassVs);
      s.gs(kPassGs);
      s.fs(kFlatColorFs);
      s.vertices(triangles(6));
      clear(s);
      DrawInfo info;
      info.mode = PrimType::TRIANGLES;
      info.instance_count = 2;
      if (indirect) {
        REQUIRE(indirect_draw(s, info, words_buffer(*s.ctx, {12, 2, 3, 0}), 0).is_ok());
      } else {
        REQUIRE(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{3, 12, 0}}).is_ok());
      }
      return words_of(image(s));
    });
  }
  SECTION("stream output, captured once") {
    run([](StreamScene& s, bool indirect) {
      StreamOutputInfo so;
      so.stride[0] = 4;
      StreamOutput o;
      o.register_index = 1;
      o.num_components = 4;
      so.output.push_back(o);
      s.vs(kPassVs, so);
      s.fs(kFlatColorFs);
      s.vertices(triangles(5));
      const ResourceRef buf = s.so_buffer(512);
      REQUIRE(s.ctx->set_stream_output_targets({s.target(buf, 0, 512)}, {0}).is_ok());
      DrawInfo info;
      info.mode = PrimType::TRIANGLES;
      if (indirect) {
        REQUIRE(indirect_draw(s, info, words_buffer(*s.ctx, {9, 1, 3, 0}), 0).is_ok());
      } else {
        REQUIRE(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{3, 9, 0}}).is_ok());
      }
      // 9 records of 4 words, then the buffer's fill; and the pixels.
      std::vector<uint32_t> out = s.words(buf);
      CHECK(out[35] != 0xdeadbeefu);
      CHECK(out[36] == 0xdeadbeefu);
      const std::vector<uint32_t> px = words_of(image(s));
      out.insert(out.end(), px.begin(), px.end());
      return out;
    });
  }
}

TEST_CASE("draw_auto: the device reads the filled size, and a plan too small replays",
          "[frontend][draw][indirect][so]") {
  StreamScene s;
  s.fs(kFlatColorFs);
  // Capture positions and records interleaved, the layout of the vertex input.
  StreamOutputInfo so;
  so.stride[0] = 8;
  StreamOutput pos, rec;
  pos.num_components = 4;
  rec.register_index = 1;
  rec.num_components = 4;
  rec.dst_offset = 4;
  so.output = {pos, rec};
  s.vs(kPassVs, so);
  s.vertices(triangles(4));
  const ResourceRef captured = s.so_buffer(1024);
  const StreamOutputTargetHandle t = s.target(captured, 0, 1024);
  REQUIRE(s.ctx->set_stream_output_targets({t}, {0}).is_ok());
  clear(s);
  REQUIRE(s.draw(PrimType::TRIANGLES, 12).is_ok());  // rendered and captured
  const std::vector<uint8_t> expected = image(s);
  REQUIRE(s.ctx->set_stream_output_targets({}, {}).is_ok());
  VertexBuffer vb;
  vb.stride = 32;
  vb.buffer = captured;
  REQUIRE(s.ctx->set_vertex_buffers(0, {vb}).is_ok());
  DrawInfo info;
  info.mode = PrimType::TRIANGLES;
  DrawIndirectInfo auto_draw;
  auto_draw.count_from_stream_output = t;
  for (bool small : {false, true}) {
    INFO("small plan " << small);
    // A scratch budget of a few bytes plans one vertex per instance.
    if (small) impl(s).set_scene_scratch_budget(64);
    const uint64_t replays = impl(s).scene_counters().replays;
    clear(s);
    const uint64_t reads_before = blocking_reads(s);
    REQUIRE(s.ctx->draw_vbo(info, 0, &auto_draw, {DrawStartCountBias{}}).is_ok());
    CHECK(blocking_reads(s) == reads_before);
    CHECK(image(s) == expected);
    CHECK(impl(s).scene_counters().replays == replays + (small ? 1 : 0));
  }
}

TEST_CASE("draw_vbo indirect: bad arguments are refused or reported, the rest renders",
          "[frontend][draw][indirect]") {
  StreamScene s;
  s.vs(kPassVs);
  s.fs(kFlatColorFs);
  s.vertices(triangles(4));
  DrawInfo info;
  info.mode = PrimType::TRIANGLES;
  const ResourceRef args = words_buffer(*s.ctx, {3, 1, 0, 0});
  // Arguments past the end of the buffer, unaligned, in a texture.
  CHECK(indirect_draw(s, info, args, 4).code() == ErrorCode::kInvalidArgument);
  CHECK(indirect_draw(s, info, args, 0, 2, 16).code() == ErrorCode::kInvalidArgument);
  CHECK(indirect_draw(s, info, args, 2).code() == ErrorCode::kInvalidArgument);
  CHECK(indirect_draw(s, info, args, 0, 1, 6).is_ok());  // one draw: the stride is unused
  CHECK(indirect_draw(s, info, args, 0, 2, 6).code() == ErrorCode::kInvalidArgument);
  const ResourceRef tex = create(make_templ(TextureTarget::TEXTURE_2D, Format::R32_UINT, 4, 4));
  CHECK(indirect_draw(s, info, tex, 0).code() == ErrorCode::kInvalidArgument);
  // User indices, and a draw count from a buffer (not offered).
  const uint32_t idx[3] = {0, 1, 2};
  DrawInfo user = info;
  user.index_size = 4;
  user.has_user_indices = true;
  user.index_user = idx;
  CHECK(indirect_draw(s, user, words_buffer(*s.ctx, {3, 1, 0, 0, 0}), 0).code() ==
        ErrorCode::kInvalidArgument);
  DrawIndirectInfo counted;
  counted.buffer = args;
  counted.indirect_draw_count = args;
  CHECK(s.ctx->draw_vbo(info, 0, &counted, {DrawStartCountBias{}}).code() ==
        ErrorCode::kUnsupported);

  // A draw of 2^32 - 1 vertices between two drawable ones: the scene renders those and
  // reports the error; the context keeps drawing.
  StreamScene direct;
  direct.vs(kPassVs);
  direct.fs(kFlatColorFs);
  direct.vertices(triangles(4));
  clear(direct);
  REQUIRE(direct.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{3, 3, 0}}).is_ok());
  REQUIRE(direct.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{9, 3, 0}}).is_ok());
  const std::vector<uint8_t> expected = image(direct);
  clear(s);
  const ResourceRef huge = words_buffer(*s.ctx, {3, 1, 3, 0, 0xffffffffu, 1, 0, 0, 3, 1, 9, 0});
  REQUIRE(indirect_draw(s, info, huge, 0, 3, 16).is_ok());
  const Status st = s.ctx->flush(nullptr, 0);
  CHECK(st.code() == ErrorCode::kOutOfMemory);
  CHECK(st.message().find("larger than a scene can hold") != std::string::npos);
  CHECK(image(s) == expected);
  clear(s);
  REQUIRE(s.draw(PrimType::TRIANGLES, 12).is_ok());
  CHECK(image(s) != expected);
}

TEST_CASE("geometry shader output: its size stays on the device, a larger stream replays",
          "[frontend][draw][indirect][gs]") {
  auto setup = [](StreamScene& s) {
    s.vs(kPassVs);
    s.gs(kPassGs);
    s.fs(kFlatColorFs);
    s.vertices(triangles(6));
    clear(s);
  };
  StreamScene direct;
  setup(direct);
  REQUIRE(direct.draw(PrimType::TRIANGLES, 18).is_ok());
  const std::vector<uint8_t> expected = image(direct);

  // A plan of 2 output positions for 18: one replay, the same pixels, and the scene's
  // only blocking read is its status (the GS's output size came back with it).
  StreamScene s;
  setup(s);
  impl(s).set_device_count_positions(2);
  const uint64_t replays = impl(s).scene_counters().replays;
  const uint64_t reads = blocking_reads(s);
  REQUIRE(s.draw(PrimType::TRIANGLES, 18).is_ok());
  REQUIRE(s.ctx->flush(nullptr, 0).is_ok());
  CHECK(blocking_reads(s) == reads + 2);  // the first run's status and the replay's
  CHECK(impl(s).scene_counters().replays == replays + 1);
  CHECK(image(s) == expected);
  // The next stream plans the size found: no replay, one read.
  clear(s);
  const uint64_t reads2 = blocking_reads(s);
  REQUIRE(s.draw(PrimType::TRIANGLES, 18).is_ok());
  REQUIRE(s.ctx->flush(nullptr, 0).is_ok());
  CHECK(blocking_reads(s) == reads2 + 1);
  CHECK(impl(s).scene_counters().replays == replays + 1);
  CHECK(image(s) == expected);
}

TEST_CASE("geometry shader output: a replay captures and counts the draw once",
          "[frontend][draw][indirect][gs][so]") {
  // Stream output of the GS's output, a statistics and a generated-primitives query
  // around the draw: what a host-sized run makes, whatever the plan.
  auto run = [](uint64_t plan) {
    StreamScene s;
    if (plan) impl(s).set_device_count_positions(plan);
    StreamOutputInfo so;
    so.stride[0] = 4;
    StreamOutput o;
    o.register_index = 1;
    o.num_components = 4;
    so.output.push_back(o);
    s.vs(kPassVs);
    s.gs(kPassGs, so);
    s.fs(kFlatColorFs);
    s.vertices(triangles(6));
    clear(s);
    const ResourceRef buf = s.so_buffer(1024);
    REQUIRE(s.ctx->set_stream_output_targets({s.target(buf, 0, 1024)}, {0}).is_ok());
    auto stats = s.ctx->create_query(QueryType::PIPELINE_STATISTICS, 0).value();
    auto generated = s.ctx->create_query(QueryType::PRIMITIVES_GENERATED, 0).value();
    REQUIRE(s.ctx->begin_query(stats).is_ok());
    REQUIRE(s.ctx->begin_query(generated).is_ok());
    const uint64_t replays = impl(s).scene_counters().replays;
    REQUIRE(s.draw(PrimType::TRIANGLES, 18).is_ok());
    REQUIRE(s.ctx->end_query(stats).is_ok());
    REQUIRE(s.ctx->end_query(generated).is_ok());
    std::vector<uint64_t> out = {impl(s).scene_counters().replays - replays};
    QueryResult r;
    REQUIRE(s.ctx->get_query_result(stats, true, &r).is_ok());
    out.insert(out.end(),
               {r.pipeline_statistics.ia_primitives, r.pipeline_statistics.gs_invocations,
                r.pipeline_statistics.gs_primitives, r.pipeline_statistics.c_primitives});
    REQUIRE(s.ctx->get_query_result(generated, true, &r).is_ok());
    out.push_back(r.u64);
    for (uint32_t w : s.words(buf))
      out.push_back(w);
    for (uint32_t w : words_of(image(s)))
      out.push_back(w);
    return out;
  };
  std::vector<uint64_t> expected = run(0);
  CHECK(expected[0] == 0);  // no replay
  CHECK(expected[1] == 6);  // input primitives
  CHECK(expected[5] == 6);  // generated
  std::vector<uint64_t> replayed = run(2);
  CHECK(replayed[0] == 1);
  replayed[0] = 0;
  CHECK(replayed == expected);
}

TEST_CASE("draw_vbo indirect: a statistics query counts the vertices the device found",
          "[frontend][draw][indirect][query]") {
  for (uint64_t plan : {uint64_t(0), uint64_t(4)}) {
    INFO("plan " << plan);
    StreamScene s;
    instance_scene(s);
    if (plan) impl(s).set_device_count_positions(plan);
    auto stats = s.ctx->create_query(QueryType::PIPELINE_STATISTICS, 0).value();
    REQUIRE(s.ctx->begin_query(stats).is_ok());
    DrawInfo info;
    info.mode = PrimType::TRIANGLES;
    REQUIRE(indirect_draw(s, info, words_buffer(*s.ctx, {6, 2, 3, 0}), 0).is_ok());
    REQUIRE(s.ctx->end_query(stats).is_ok());
    QueryResult r;
    REQUIRE(s.ctx->get_query_result(stats, true, &r).is_ok());
    CHECK(r.pipeline_statistics.ia_vertices == 12);
    CHECK(r.pipeline_statistics.vs_invocations == 12);
    CHECK(r.pipeline_statistics.ia_primitives == 4);
  }
}
