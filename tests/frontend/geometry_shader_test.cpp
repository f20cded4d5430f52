// Geometry shaders in draw_vbo through the public API: input primitives of every kind in
// GL's vertex order (strips, fans, adjacency, restart, instances), pass-through and
// amplification checked in pixels, ENDPRIM cutting strips, GS_MAX_OUTPUT_VERTICES
// clamping, GS_INVOCATIONS, PRIMID (read by the GS, passed on or written by it), the GS
// linkage by semantic, stream output and queries of GS output, and bad input.
#include <catch2/catch.hpp>

#include <string>

#include "frontend/stream_reference.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

// Colour.x = the fragment's PRIMID.
const char* kPrimIdFs =
    "FRAG\n"
    "DCL IN[0].x, PRIM_ID, CONSTANT\n"
    "DCL OUT[0], COLOR\n"
    "IMM[0] FLT32 {0.0, 0.0, 0.0, 1.0}\n"
    "  0: U2F OUT[0].x, IN[0].xxxx\n"
    "  1: MOV OUT[0].yzw, IMM[0].xxxw\n"
    "  2: END\n";

// A geometry shader: the header with its properties, the declarations, then the body.
// Inputs are declared in the opposite register order of the VS outputs (GENERIC[0] in
// IN[][0], POSITION in IN[][1]) and outputs likewise, so that only linkage by semantic
// gets the values right.
std::string gs_text(const char* in_prim, const char* out_prim, int max_vertices, int invocations,
                    const std::string& body, const std::string& extra_decls = "") {
  std::string t = "GEOM\n";
  t += std::string("PROPERTY GS_INPUT_PRIMITIVE ") + in_prim + "\n";
  t += std::string("PROPERTY GS_OUTPUT_PRIMITIVE ") + out_prim + "\n";
  t += "PROPERTY GS_MAX_OUTPUT_VERTICES " + std::to_string(max_vertices) + "\n";
  t += "PROPERTY GS_INVOCATIONS " + std::to_string(invocations) + "\n";
  t += "DCL IN[][0], GENERIC[0]\nDCL IN[][1], POSITION\n";
  t += "DCL OUT[0], GENERIC[0]\nDCL OUT[1], POSITION\n";
  t += "DCL TEMP[0]\n";
  t += "IMM[0] UINT32 {0, 0, 0, 0}\n";
  t += extra_decls;
  t += body;
  t += "END\n";
  return t;
}

// Emits input vertex v unchanged.
std::string emit_input(int v) {
  const std::string s = std::to_string(v);
  return "MOV OUT[0], IN[" + s + "][0]\nMOV OUT[1], IN[" + s + "][1]\nEMIT IMM[0].xxxx\n";
}

std::string passthrough_body(int vertices) {
  std::string b;
  for (int v = 0; v < vertices; ++v)
    b += emit_input(v);
  return b + "ENDPRIM IMM[0].xxxx\n";
}

std::vector<float> id_vertices(uint32_t n) {
  std::vector<float> v;
  for (uint32_t i = 0; i < n; ++i) {
    const float a = 0.7f * float(i);
    v.insert(v.end(), {0.5f * std::cos(a), 0.5f * std::sin(a), 0.0f, 1.0f, float(i), 1000.0f + i,
                       2000.0f + i, 3000.0f + i});
  }
  return v;
}

// Stream output of GS OUT[0] (GENERIC[0]), 4 dwords per vertex, into a 4 KiB target.
StreamOutputInfo capture_generic() {
  StreamOutputInfo so;
  so.stride[0] = 4;
  StreamOutput o;
  o.register_index = 0;
  o.num_components = 4;
  so.output.push_back(o);
  return so;
}

RasterizerState discard_state(bool first = false) {
  RasterizerState rs;
  rs.rasterizer_discard = true;
  rs.flatshade_first = first;
  return rs;
}

// The captured records (4 words each) of a target until the first untouched word.
std::vector<std::array<float, 4>> records(StreamScene& s, const ResourceRef& buf) {
  std::vector<uint32_t> w = s.words(buf);
  std::vector<std::array<float, 4>> out;
  for (size_t i = 0; i + 4 <= w.size() && w[i] != 0xdeadbeefu; i += 4) {
    std::array<float, 4> r;
    std::memcpy(r.data(), &w[i], 16);
    out.push_back(r);
  }
  return out;
}

// The records of the input vertices of `prims`, in order (channel 0 = the vertex id).
std::vector<std::array<float, 4>> expected_records(const std::vector<RefPrim>& prims) {
  std::vector<std::array<float, 4>> out;
  for (const RefPrim& p : prims) {
    for (uint32_t v : p)
      out.push_back({float(v), 1000.0f + v, 2000.0f + v, 3000.0f + v});
  }
  return out;
}

ResourceRef bind_capture(StreamScene& s) {
  ResourceRef buf = s.so_buffer(8192);
  REQUIRE(s.ctx->set_stream_output_targets({s.target(buf, 0, 8192)}, {0}).is_ok());
  return buf;
}

}  // namespace

TEST_CASE("geometry shader: input primitives arrive in GL vertex order", "[frontend][gs]") {
  StreamScene s;
  s.vs(kPassVs);
  s.vertices(id_vertices(14));
  struct Case {
    const char* gs_input;
    int vertices;
    std::vector<PrimType> modes;
  };
  const Case cases[] = {
      {"POINTS", 1, {PrimType::POINTS}},
      {"LINES", 2, {PrimType::LINES, PrimType::LINE_STRIP, PrimType::LINE_LOOP}},
      {"TRIANGLES",
       3,
       {PrimType::TRIANGLES, PrimType::TRIANGLE_STRIP, PrimType::TRIANGLE_FAN, PrimType::QUADS,
        PrimType::QUAD_STRIP, PrimType::POLYGON}},
      {"LINES_ADJACENCY", 4, {PrimType::LINES_ADJACENCY, PrimType::LINE_STRIP_ADJACENCY}},
      {"TRIANGLES_ADJACENCY",
       6,
       {PrimType::TRIANGLES_ADJACENCY, PrimType::TRIANGLE_STRIP_ADJACENCY}},
  };
  for (const Case& c : cases) {
    // Every input vertex becomes a point, in input order: the capture shows the order.
    s.gs(gs_text(c.gs_input, "POINTS", c.vertices, 1, passthrough_body(c.vertices)).c_str(),
         capture_generic());
    for (PrimType mode : c.modes) {
      for (bool first : {false, true}) {
        INFO(prim_name(mode) << (first ? " (first provoking)" : ""));
        s.rasterizer(discard_state(first));
        ResourceRef buf = bind_capture(s);
        REQUIRE(s.draw(mode, 14).is_ok());
        CHECK(records(s, buf) == expected_records(ref_prims(mode, iota_u32(14), first, true)));
      }
    }
  }
}

TEST_CASE("geometry shader: restart, instances and triangle strips out", "[frontend][gs]") {
  StreamScene s;
  s.vs(kPassVs);
  s.vertices(id_vertices(12));
  // Triangles in, one triangle strip of three vertices out per input.
  s.gs(gs_text("TRIANGLES", "TRIANGLE_STRIP", 3, 1, passthrough_body(3)).c_str(),
       capture_generic());
  const std::vector<uint32_t> idx = {0, 1, 2, 3, 4, 99, 5, 6, 7, 99, 8, 9, 10, 11};
  ResourceRef ib = create_buffer(uint32_t(idx.size() * 4));
  REQUIRE(s.ctx->buffer_subdata(ib, Map::WRITE, 0, uint32_t(idx.size() * 4), idx.data()).is_ok());
  for (PrimType mode : {PrimType::TRIANGLE_STRIP, PrimType::TRIANGLE_FAN}) {
    for (bool first : {false, true}) {
      INFO(prim_name(mode) << (first ? " (first provoking)" : ""));
      s.rasterizer(discard_state(first));
      ResourceRef buf = bind_capture(s);
      DrawInfo info;
      info.mode = mode;
      info.index_size = 4;
      info.index_resource = ib;
      info.primitive_restart = true;
      info.restart_index = 99;
      info.instance_count = 2;
      REQUIRE(s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, uint32_t(idx.size()), 0}})
                  .is_ok());
      std::vector<RefPrim> prims = ref_prims(mode, idx, first, false, true, 99);
      const std::vector<RefPrim> once = prims;
      prims.insert(prims.end(), once.begin(), once.end());
      CHECK(records(s, buf) == expected_records(prims));
    }
  }
}

TEST_CASE("geometry shader: pass-through and amplification draw the expected pixels",
          "[frontend][gs]") {
  StreamScene s;
  s.fs(kFlatColorFs);
  s.vs(kPassVs);
  SECTION("pass-through triangles") {
    s.gs(gs_text("TRIANGLES", "TRIANGLE_STRIP", 3, 1, passthrough_body(3)).c_str());
    // A window-filling quad as a strip; the provoking (last) vertices are 2 and 3.
    s.vertices({-1, -1, 0, 1, 0.1f, 0, 0, 1, 1, -1, 0, 1, 0.2f, 0, 0, 1,
                -1, 1,  0, 1, 0.3f, 0, 0, 1, 1, 1,  0, 1, 0.4f, 0, 0, 1});
    REQUIRE(s.draw(PrimType::TRIANGLE_STRIP, 4).is_ok());
    CHECK(s.pixel(2, 2)[0] == 0.3f);
    CHECK(s.pixel(29, 29)[0] == 0.4f);
    CHECK(s.pixel(20, 10)[0] != 0.0f);
  }
  SECTION("a point becomes a square") {
    // Squares of half-size 0.25 (8 pixels) around each point.
    const std::string body =
        "MOV OUT[0], IN[0][0]\nADD OUT[1], IN[0][1], IMM[1].xxzz\nEMIT IMM[0].xxxx\n"
        "MOV OUT[0], IN[0][0]\nADD OUT[1], IN[0][1], IMM[1].yxzz\nEMIT IMM[0].xxxx\n"
        "MOV OUT[0], IN[0][0]\nADD OUT[1], IN[0][1], IMM[1].xyzz\nEMIT IMM[0].xxxx\n"
        "MOV OUT[0], IN[0][0]\nADD OUT[1], IN[0][1], IMM[1].yyzz\nEMIT IMM[0].xxxx\n";
    s.gs(gs_text("POINTS", "TRIANGLE_STRIP", 4, 1, body, "IMM[1] FLT32 {-0.25, 0.25, 0.0, 0.0}\n")
             .c_str());
    s.vertices({-0.5f, -0.5f, 0, 1, 0.25f, 0, 0, 1, 0.5f, 0.5f, 0, 1, 0.75f, 0, 0, 1});
    auto q = s.ctx->create_query(QueryType::PRIMITIVES_GENERATED, 0).value();
    REQUIRE(s.ctx->begin_query(q).is_ok());
    REQUIRE(s.draw(PrimType::POINTS, 2).is_ok());
    REQUIRE(s.ctx->end_query(q).is_ok());
    for (uint32_t y = 0; y < s.h; ++y) {
      for (uint32_t x = 0; x < s.w; ++x) {
        const bool a = x >= 4 && x < 12 && y >= 4 && y < 12;
        const bool b = x >= 20 && x < 28 && y >= 20 && y < 28;
        INFO("pixel " << x << "," << y);
        CHECK(s.pixel(x, y)[0] == (a ? 0.25f : b ? 0.75f : 0.0f));
      }
    }
    QueryResult r;
    REQUIRE(s.ctx->get_query_result(q, true, &r).is_ok());
    CHECK(r.u64 == 4);  // two strips of two triangles
  }
}

TEST_CASE("geometry shader: ENDPRIM cuts strips, emission stops at the maximum", "[frontend][gs]") {
  StreamScene s;
  s.rasterizer(discard_state());
  s.vs(kPassVs);
  s.vertices(id_vertices(3));
  // Six vertices per input point; vertex k's record is (k, input id, 0, 0).
  auto body = [](bool cut) {
    std::string b;
    for (int k = 0; k < 6; ++k) {
      b += "MOV OUT[1], IN[0][1]\n";
      b += "MOV OUT[0].x, IMM[1]." + std::string(4, "xyzw"[k % 4]) + "\n";
      if (k >= 4) b += "ADD OUT[0].x, IMM[1].wwww, IMM[2]." + std::string(4, "xy"[k - 4]) + "\n";
      b += "MOV OUT[0].y, IN[0][0].xxxx\nMOV OUT[0].zw, IMM[0].xxxx\nEMIT IMM[0].xxxx\n";
      if (cut && k == 2) b += "ENDPRIM IMM[0].xxxx\n";
    }
    return b;
  };
  const std::string imms = "IMM[1] FLT32 {0.0, 1.0, 2.0, 3.0}\nIMM[2] FLT32 {1.0, 2.0, 0.0, 0.0}\n";
  struct Case {
    bool cut;
    int max_vertices;
    std::vector<std::array<uint32_t, 3>> tris;  // triangles of one point's output
  };
  const Case cases[] = {
      {true, 6, {{0, 1, 2}, {3, 4, 5}}},                         // two strips
      {false, 6, {{0, 1, 2}, {2, 1, 3}, {2, 3, 4}, {4, 3, 5}}},  // one strip of six
      {false, 4, {{0, 1, 2}, {2, 1, 3}}},                        // clamped to four vertices
      {true, 2, {}},                                             // a strip of two: nothing
  };
  for (const Case& c : cases) {
    INFO("cut " << c.cut << ", max " << c.max_vertices);
    s.gs(gs_text("POINTS", "TRIANGLE_STRIP", c.max_vertices, 1, body(c.cut), imms).c_str(),
         capture_generic());
    ResourceRef buf = bind_capture(s);
    auto gen = s.ctx->create_query(QueryType::PRIMITIVES_GENERATED, 0).value();
    auto stats = s.ctx->create_query(QueryType::PIPELINE_STATISTICS, 0).value();
    REQUIRE(s.ctx->begin_query(gen).is_ok());
    REQUIRE(s.ctx->begin_query(stats).is_ok());
    REQUIRE(s.draw(PrimType::POINTS, 3).is_ok());
    REQUIRE(s.ctx->end_query(stats).is_ok());
    REQUIRE(s.ctx->end_query(gen).is_ok());
    std::vector<std::array<float, 4>> expect;
    for (uint32_t p = 0; p < 3; ++p) {
      for (const auto& t : c.tris) {
        for (uint32_t k : t)
          expect.push_back({float(k), float(p), 0.0f, 0.0f});
      }
    }
    CHECK(records(s, buf) == expect);
    QueryResult r;
    REQUIRE(s.ctx->get_query_result(gen, true, &r).is_ok());
    CHECK(r.u64 == 3 * c.tris.size());
    REQUIRE(s.ctx->get_query_result(stats, true, &r).is_ok());
    CHECK(r.pipeline_statistics.ia_vertices == 3);
    CHECK(r.pipeline_statistics.ia_primitives == 3);
    CHECK(r.pipeline_statistics.gs_invocations == 3);
    CHECK(r.pipeline_statistics.gs_primitives == 3 * c.tris.size());
    CHECK(r.pipeline_statistics.c_invocations == 3 * c.tris.size());
  }
}

TEST_CASE("geometry shader: the capped output maximum, emitted from a loop", "[frontend][gs]") {
  // GL 3.2 needs 256 output vertices and 1024 output components: the caps claim exactly
  // what this test runs (256 vertices of POSITION + GENERIC[0] = 2048 components).
  const int max_vertices = shared_screen()->get_param(Cap::MAX_GEOMETRY_OUTPUT_VERTICES);
  REQUIRE(max_vertices >= 256);
  CHECK(shared_screen()->get_param(Cap::MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS) >= 1024);
  StreamScene s;
  s.rasterizer(discard_state());
  s.vs(kPassVs);
  s.vertices(id_vertices(2));
  // Emits 300 vertices (k, input id, 0, 0) per point; only the first 256 are kept.
  const std::string body =
      "MOV TEMP[0].x, IMM[0].xxxx\n"
      "BGNLOOP\n"
      "  USGE TEMP[0].y, TEMP[0].xxxx, IMM[1].xxxx\n"
      "  UIF TEMP[0].yyyy\n"
      "    BRK\n"
      "  ENDIF\n"
      "  MOV OUT[1], IN[0][1]\n"
      "  U2F OUT[0].x, TEMP[0].xxxx\n"
      "  MOV OUT[0].y, IN[0][0].xxxx\n"
      "  MOV OUT[0].zw, IMM[0].xxxx\n"
      "  EMIT IMM[0].xxxx\n"
      "  UADD TEMP[0].x, TEMP[0].xxxx, IMM[1].yyyy\n"
      "ENDLOOP\n";
  s.gs(gs_text("POINTS", "POINTS", 256, 1, body, "IMM[1] UINT32 {300, 1, 0, 0}\n").c_str(),
       capture_generic());
  ResourceRef buf = s.so_buffer(16384);
  REQUIRE(s.ctx->set_stream_output_targets({s.target(buf, 0, 16384)}, {0}).is_ok());
  auto gen = s.ctx->create_query(QueryType::PRIMITIVES_GENERATED, 0).value();
  REQUIRE(s.ctx->begin_query(gen).is_ok());
  REQUIRE(s.draw(PrimType::POINTS, 2).is_ok());
  REQUIRE(s.ctx->end_query(gen).is_ok());
  std::vector<std::array<float, 4>> expect;
  for (uint32_t p = 0; p < 2; ++p) {
    for (uint32_t k = 0; k < 256; ++k)
      expect.push_back({float(k), float(p), 0.0f, 0.0f});
  }
  CHECK(records(s, buf) == expect);
  QueryResult r;
  REQUIRE(s.ctx->get_query_result(gen, true, &r).is_ok());
  CHECK(r.u64 == 512);
}

TEST_CASE("geometry shader: invocations and PRIMID", "[frontend][gs]") {
  StreamScene s;
  s.rasterizer(discard_state());
  s.vs(kPassVs);
  s.vertices(id_vertices(4));
  // Three invocations per point; record = (input id, PRIMID, INVOCATIONID, 0).
  const std::string body =
      "MOV OUT[1], IN[0][1]\nMOV OUT[0].x, IN[0][0].xxxx\nU2F OUT[0].y, SV[0].xxxx\n"
      "U2F OUT[0].z, SV[1].xxxx\nMOV OUT[0].w, IMM[0].xxxx\nEMIT IMM[0].xxxx\n";
  s.gs(gs_text("POINTS", "POINTS", 1, 3, body, "DCL SV[0], PRIM_ID\nDCL SV[1], INVOCATIONID\n")
           .c_str(),
       capture_generic());
  ResourceRef buf = bind_capture(s);
  auto stats = s.ctx->create_query(QueryType::PIPELINE_STATISTICS, 0).value();
  REQUIRE(s.ctx->begin_query(stats).is_ok());
  REQUIRE(s.draw(PrimType::POINTS, 4, 2).is_ok());
  REQUIRE(s.ctx->end_query(stats).is_ok());
  std::vector<std::array<float, 4>> expect;
  for (uint32_t inst = 0; inst < 2; ++inst) {
    for (uint32_t p = 0; p < 4; ++p) {
      for (uint32_t i = 0; i < 3; ++i)
        expect.push_back({float(p), float(p), float(i), 0.0f});  // PRIMID restarts per instance
    }
  }
  CHECK(records(s, buf) == expect);
  QueryResult r;
  REQUIRE(s.ctx->get_query_result(stats, true, &r).is_ok());
  CHECK(r.pipeline_statistics.gs_invocations == 24);
  CHECK(r.pipeline_statistics.gs_primitives == 24);
  CHECK(r.pipeline_statistics.ia_primitives == 8);
}

TEST_CASE("geometry shader: PRIMID reaches the fragment shader", "[frontend][gs]") {
  StreamScene s;
  s.fs(kPrimIdFs);
  s.vs(kPassVs);
  s.vertices({-1, -1, 0, 1, 0, 0, 0, 1, 1, -1, 0, 1, 0, 0, 0, 1,
              -1, 1,  0, 1, 0, 0, 0, 1, 1, 1,  0, 1, 0, 0, 0, 1});
  SECTION("the input primitive's id when the GS does not write one") {
    s.gs(gs_text("TRIANGLES", "TRIANGLE_STRIP", 3, 1, passthrough_body(3)).c_str());
    REQUIRE(s.draw(PrimType::TRIANGLE_STRIP, 4).is_ok());
    CHECK(s.pixel(2, 2)[0] == 0.0f);
    CHECK(s.pixel(29, 29)[0] == 1.0f);
  }
  SECTION("the GS's PRIM_ID output, from its PRIM_ID input") {
    std::string body = "UADD TEMP[0].x, IN[2].xxxx, IMM[1].xxxx\n";
    for (int v = 0; v < 3; ++v) {
      body += "MOV OUT[1], IN[" + std::to_string(v) + "][1]\nMOV OUT[2], TEMP[0].xxxx\n";
      body += "EMIT IMM[0].xxxx\n";
    }
    s.gs(gs_text("TRIANGLES", "TRIANGLE_STRIP", 3, 1, body,
                 "DCL IN[][2], PRIM_ID\nDCL OUT[2], PRIM_ID\nIMM[1] UINT32 {10, 0, 0, 0}\n")
             .c_str());
    REQUIRE(s.draw(PrimType::TRIANGLE_STRIP, 4).is_ok());
    CHECK(s.pixel(2, 2)[0] == 10.0f);
    CHECK(s.pixel(29, 29)[0] == 11.0f);
  }
}

TEST_CASE("geometry shader: bad input", "[frontend][gs]") {
  StreamScene s;
  s.fs(kFlatColorFs);
  s.vs(kPassVs);
  s.vertices(id_vertices(6));
  s.gs(gs_text("TRIANGLES", "TRIANGLE_STRIP", 3, 1, passthrough_body(3)).c_str());
  // Points cannot feed a GS that takes triangles.
  CHECK(s.draw(PrimType::POINTS, 6).code() == ErrorCode::kInvalidArgument);
  CHECK(s.draw(PrimType::LINES_ADJACENCY, 6).code() == ErrorCode::kInvalidArgument);
  // A GS that emits nothing (max 0) draws nothing and fails nothing.
  s.gs(gs_text("TRIANGLES", "TRIANGLE_STRIP", 0, 1, passthrough_body(3)).c_str());
  CHECK(s.draw(PrimType::TRIANGLES, 6).is_ok());
  CHECK(s.pixel(16, 16)[0] == 0.0f);
  // Unbinding the GS restores the plain pipeline.
  REQUIRE(s.ctx->bind_gs_state(nullptr).is_ok());
  CHECK(s.draw(PrimType::TRIANGLES, 6).is_ok());
}

TEST_CASE("geometry shader: a GS that writes no POSITION feeds stream output",
          "[frontend][gs][so]") {
  // piglit's primitive-id-restart: a vertex shader without outputs, a GS whose only
  // output is its PRIMID (the position is undefined: GL allows it), captured with the
  // rasterizer discarded, over indexed points with restarts that do not reset PRIMID.
  StreamScene s;
  s.rasterizer(discard_state());
  s.vs("VERT\nEND\n");
  const char* gs =
      "GEOM\n"
      "PROPERTY GS_INPUT_PRIMITIVE POINTS\n"
      "PROPERTY GS_OUTPUT_PRIMITIVE POINTS\n"
      "PROPERTY GS_MAX_OUTPUT_VERTICES 1\n"
      "PROPERTY GS_INVOCATIONS 1\n"
      "DCL SV[0], PRIM_ID\n"
      "DCL OUT[0], GENERIC[0]\n"
      "IMM[0] UINT32 {0, 0, 0, 0}\n"
      "  0: MOV OUT[0], SV[0].xxxx\n"
      "  1: EMIT IMM[0].xxxx\n"
      "  2: END\n";
  StreamOutputInfo so;
  so.stride[0] = 1;
  StreamOutput o;
  o.num_components = 1;
  so.output.push_back(o);
  s.gs(gs, so);
  ResourceRef buf = bind_capture(s);
  const std::vector<uint8_t> idx = {0, 0xff, 0, 1, 0xff, 0, 1, 2, 0xff};
  ResourceRef ib = create_buffer(uint32_t(idx.size()));
  REQUIRE(s.ctx->buffer_subdata(ib, Map::WRITE, 0, uint32_t(idx.size()), idx.data()).is_ok());
  auto gen = s.ctx->create_query(QueryType::PRIMITIVES_GENERATED, 0).value();
  REQUIRE(s.ctx->begin_query(gen).is_ok());
  DrawInfo info;
  info.mode = PrimType::POINTS;
  info.index_size = 1;
  info.index_resource = ib;
  info.primitive_restart = true;
  info.restart_index = 0xff;
  REQUIRE(
      s.ctx->draw_vbo(info, 0, nullptr, {DrawStartCountBias{0, uint32_t(idx.size()), 0}}).is_ok());
  REQUIRE(s.ctx->end_query(gen).is_ok());
  QueryResult r;
  REQUIRE(s.ctx->get_query_result(gen, true, &r).is_ok());
  CHECK(r.u64 == 6);
  const std::vector<uint32_t> words = s.words(buf);
  REQUIRE(words.size() >= 7);
  for (uint32_t i = 0; i < 6; ++i)
    CHECK(words[i] == i);
  CHECK(words[6] == 0xdeadbeefu);
}

TEST_CASE("geometry shader: LAYER selects the layer of a layered framebuffer", "[frontend][gs]") {
  StreamScene s;
  const Format f = Format::R32G32B32A32_FLOAT;
  ResourceRef arr = create(make_templ(TextureTarget::TEXTURE_2D_ARRAY, f, 16, 16, 1, 4));
  const float zero[4] = {0, 0, 0, 0};
  REQUIRE(s.ctx->clear_texture(arr, 0, Box{0, 0, 0, 16, 16, 4}, zero).is_ok());
  const ViewportState vp = window_viewport(16, 16);
  REQUIRE(s.ctx->set_viewport_states(0, {vp}).is_ok());
  s.fs(kFlatColorFs);
  s.vs(kPassVs);
  // Four invocations; invocation i sends the triangle to layer i with colour (i + 1) / 4.
  std::string body = "U2F TEMP[0].x, SV[0].xxxx\n";
  for (int v = 0; v < 3; ++v) {
    body += "MOV OUT[1], IN[" + std::to_string(v) + "][1]\n";
    body += "MAD OUT[0], TEMP[0].xxxx, IMM[1].xxxx, IMM[1].xxxx\n";
    body += "MOV OUT[2].x, SV[0].xxxx\nEMIT IMM[0].xxxx\n";
  }
  s.gs(gs_text("TRIANGLES", "TRIANGLE_STRIP", 3, 4, body,
               "DCL SV[0], INVOCATIONID\nDCL OUT[2].x, LAYER\nIMM[1] FLT32 {0.25, 0.0, 0.0, 0.0}\n")
           .c_str());
  s.vertices({-1, -1, 0, 1, 0, 0, 0, 0, 3, -1, 0, 1, 0, 0, 0, 0, -1, 3, 0, 1, 0, 0, 0, 0});
  auto layer_pixel = [&](int layer) {
    auto bytes = read_box(*s.ctx, arr, 0, Box{5, 7, layer, 1, 1, 1});
    float c[4];
    std::memcpy(c, bytes.data(), 16);
    return c[0];
  };
  auto bind = [&](unsigned first, unsigned last) {
    FramebufferState fb;
    fb.width = fb.height = 16;
    fb.nr_cbufs = 1;
    fb.cbufs[0] = make_surface(*s.ctx, arr, f, 0, first, last);
    REQUIRE(s.ctx->set_framebuffer_state(fb).is_ok());
  };
  SECTION("layers 0..2 bound: layer 3 (out of range) is not drawn") {
    bind(0, 2);
    REQUIRE(s.draw(PrimType::TRIANGLES, 3).is_ok());
    CHECK(layer_pixel(0) == 0.25f);
    CHECK(layer_pixel(1) == 0.5f);
    CHECK(layer_pixel(2) == 0.75f);
    CHECK(layer_pixel(3) == 0.0f);
  }
  SECTION("layers 1..3 bound: the layer counts from the first bound one") {
    bind(1, 3);
    REQUIRE(s.draw(PrimType::TRIANGLES, 3).is_ok());
    CHECK(layer_pixel(0) == 0.0f);
    CHECK(layer_pixel(1) == 0.25f);
    CHECK(layer_pixel(2) == 0.5f);
    CHECK(layer_pixel(3) == 0.75f);
  }
  SECTION("a layered depth buffer is tested per layer; queries count the draw once") {
    const Format zf = Format::Z32_FLOAT;
    ResourceRef z = create(
        make_templ(TextureTarget::TEXTURE_2D_ARRAY, zf, 16, 16, 1, 4, 0, Bind::DEPTH_STENCIL));
    const float far = 1.0f, near = 0.25f;
    REQUIRE(s.ctx->clear_texture(z, 0, Box{0, 0, 0, 16, 16, 4}, &far).is_ok());
    REQUIRE(s.ctx->clear_texture(z, 0, Box{0, 0, 1, 16, 16, 1}, &near).is_ok());
    FramebufferState fb;
    fb.width = fb.height = 16;
    fb.nr_cbufs = 1;
    fb.cbufs[0] = make_surface(*s.ctx, arr, f, 0, 0, 3);
    fb.zsbuf = make_surface(*s.ctx, z, zf, 0, 0, 3);
    REQUIRE(s.ctx->set_framebuffer_state(fb).is_ok());
    DepthStencilAlphaState dsa;
    dsa.depth_enabled = dsa.depth_writemask = true;
    s.ctx->bind_depth_stencil_alpha_state(s.ctx->create_depth_stencil_alpha_state(dsa).value());
    auto occlusion = s.ctx->create_query(QueryType::OCCLUSION_COUNTER, 0).value();
    auto generated = s.ctx->create_query(QueryType::PRIMITIVES_GENERATED, 0).value();
    REQUIRE(s.ctx->begin_query(occlusion).is_ok());
    REQUIRE(s.ctx->begin_query(generated).is_ok());
    REQUIRE(s.draw(PrimType::TRIANGLES, 3).is_ok());
    REQUIRE(s.ctx->end_query(generated).is_ok());
    REQUIRE(s.ctx->end_query(occlusion).is_ok());
    auto depth = [&](int layer) {
      auto bytes = read_box(*s.ctx, z, 0, Box{5, 7, layer, 1, 1, 1});
      float d;
      std::memcpy(&d, bytes.data(), 4);
      return d;
    };
    // Layer 1 holds a nearer depth: its triangle fails the test there.
    CHECK(layer_pixel(0) == 0.25f);
    CHECK(layer_pixel(1) == 0.0f);
    CHECK(layer_pixel(2) == 0.75f);
    CHECK(layer_pixel(3) == 1.0f);
    CHECK(depth(0) == 0.5f);
    CHECK(depth(1) == 0.25f);
    CHECK(depth(2) == 0.5f);
    CHECK(depth(3) == 0.5f);
    QueryResult r;
    REQUIRE(s.ctx->get_query_result(occlusion, true, &r).is_ok());
    CHECK(r.u64 == 3 * 16 * 16);
    REQUIRE(s.ctx->get_query_result(generated, true, &r).is_ok());
    CHECK(r.u64 == 4);
  }
  SECTION("a single layer: LAYER is ignored") {
    bind(2, 2);
    REQUIRE(s.draw(PrimType::TRIANGLES, 3).is_ok());
    CHECK(layer_pixel(1) == 0.0f);
    CHECK(layer_pixel(2) == 1.0f);  // the last invocation's triangle is drawn last
    CHECK(layer_pixel(3) == 0.0f);
  }
}
