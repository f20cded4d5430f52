// Replays every recorded capture through the server's connection code with a fake
// Screen: no protocol error, replies framed like the reference server's, memfds of the
// recorded sizes, TGSI reassembled exactly, the expected API calls with the decoded
// values, uploads and readbacks through the right strides, and nothing leaked.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "vtest/caps.h"
#include "vtest/capture.h"
#include "vtest/replay.h"
#include "vtest/vtest_test_util.h"

using namespace clpipe;
using namespace clpipe::vtest_test;

namespace {

struct TgsiEntry {
  int virgl_stage;
  std::string text;  // as printed (possibly truncated)
  size_t full_size;  // bytes of the whole text
};

// Parses a .tgsi.txt written by vtest_decode.py: "---- shader handle=H stage=S ... ----",
// then the text and the newline print() added; long texts end in "... [N more bytes not
// shown]".
std::vector<TgsiEntry> load_tgsi(const std::string& name) {
  std::ifstream f(capture_dir() + "/" + name + ".tgsi.txt");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string all = ss.str();
  const std::regex header("---- shader handle=\\d+ stage=(\\w+) num_tokens=\\d+ ----\n");
  std::vector<TgsiEntry> out;
  auto it = std::sregex_iterator(all.begin(), all.end(), header);
  std::vector<std::smatch> m(it, std::sregex_iterator());
  for (size_t i = 0; i < m.size(); ++i) {
    const size_t begin = size_t(m[i].position(0) + m[i].length(0));
    const size_t end = i + 1 < m.size() ? size_t(m[i + 1].position(0)) : all.size();
    std::string text = all.substr(begin, end - begin);
    if (!text.empty() && text.back() == '\n') text.pop_back();  // print()'s newline
    const std::string stage = m[i][1];
    TgsiEntry e{stage == "VERTEX"     ? 0
                : stage == "FRAGMENT" ? 1
                : stage == "GEOMETRY" ? 2
                                      : 9,
                text, text.size()};
    std::smatch more;
    if (std::regex_search(e.text, more,
                          std::regex("\n\\.\\.\\. \\[(\\d+) more bytes not shown\\]$"))) {
      const size_t hidden = std::stoul(more[1]);  // before e.text changes under `more`
      e.text = e.text.substr(0, size_t(more.position(0)));
      e.full_size = e.text.size() + hidden;
    }
    out.push_back(e);
  }
  return out;
}

int clpipe_stage(int virgl_stage) {
  return int(shader_type_from_wire(uint32_t(virgl_stage)));
}

// Everything a replay of one capture produced.
struct Replayed {
  ReplayResult result;
  FakeLogRef log;
  int factory_calls = 0;
  // The last host resource and layout seen under each handle (kept for readback checks).
  std::map<uint32_t, std::pair<ResourceRef, GuestLayout>> resources;

  Replayed() = default;
  Replayed(Replayed&&) = default;
  // The log's records and the kept resources reference the log: break the cycle.
  ~Replayed() {
    resources.clear();
    if (log) log->release_records();
  }
};

Replayed replay(const std::string& name,
                std::function<void(uint32_t, const Connection&, FakeLog&)> hook = {}) {
  LogRecorder quiet;
  auto capture = read_capture(capture_dir() + "/" + name + ".vtcap.gz");
  REQUIRE(capture);
  Replayed r;
  r.log = std::make_shared<FakeLog>();
  ReplayOptions opts;
  // Like the server: caps computed once, so a caps-only client never opens a screen.
  FakeScreen probe(gl33_config());
  opts.connection.caps_blob = std::make_shared<CapsBlob>(build_caps(probe));
  opts.after_message = [&](uint16_t, uint32_t cmd, const Connection& c) {
    for (uint32_t h = 1; h < 64; ++h)
      if (const VtestResource* v = c.resources().find(h)) r.resources[h] = {v->host, v->layout};
    if (hook) hook(cmd, c, *r.log);
  };
  const FakeLogRef log = r.log;
  int* calls = &r.factory_calls;
  r.result = replay_capture(
      capture.value(),
      [log, calls]() -> Result<std::shared_ptr<Screen>> {
        ++*calls;
        return std::shared_ptr<Screen>(std::make_shared<FakeScreen>(gl33_config(), log));
      },
      opts);
  return r;
}

// The texel bytes the client uploaded to a resource, from the capture: the shared-memory
// snapshot of a TRANSFER3D / TRANSFER_PUT2, or the inline data of a TRANSFER_PUT.
std::vector<uint8_t> uploaded_texture(const std::string& name, uint32_t handle) {
  auto capture = read_capture(capture_dir() + "/" + name + ".vtcap.gz");
  REQUIRE(capture);
  for (const CaptureRecord& r : capture.value().records) {
    if (r.dir != 0 || r.payload.size() < 12) continue;
    if (r.kind == RecordKind::SHM && load_u32(r.payload.data()) == handle)
      return std::vector<uint8_t>(r.payload.begin() + 12, r.payload.end());
    if (r.kind == RecordKind::DATA && r.payload.size() >= 52 &&
        load_u32(r.payload.data() + 4) == VtestCmd::TRANSFER_PUT &&
        load_u32(r.payload.data() + 8) == handle)
      return std::vector<uint8_t>(r.payload.begin() + 52, r.payload.end());
  }
  return {};
}

// The calls starting with each prefix appear in this order (others may come between).
void check_subsequence(const std::vector<std::string>& calls,
                       const std::vector<std::string>& want) {
  size_t i = 0;
  for (const std::string& c : calls)
    if (i < want.size() && c.rfind(want[i], 0) == 0) ++i;
  INFO("first missing call: " << (i < want.size() ? want[i] : std::string("none")));
  CHECK(i == want.size());
}

void check_no_leaks(Replayed& r) {
  r.resources.clear();
  r.log->release_records();
  CHECK(r.log->live_resources == 0);
  CHECK(r.log->live_contexts == 0);
  CHECK(r.log->live_objects == 0);
}

}  // namespace

TEST_CASE("vtest replay: every capture replays without a protocol error", "[vtest][replay]") {
  for (const std::string& name : capture_names()) {
    INFO(name);
    Replayed r = replay(name);
    INFO(r.result.summary());
    CHECK(r.result.ok());
    for (const ConnectionReplay& c : r.result.connections) {
      CHECK(c.error.empty());
      CHECK(c.api_failures == 0);
      CHECK(c.expected_replies > 0);
      // Capture 11 ends with a BUSY_WAIT the reference server never answered (it dropped
      // the client); this server answers it.
      CHECK(c.actual_replies == c.expected_replies + (name == "11-huge-shader-chunked" ? 1 : 0));
      for (const auto& fd : c.fds)
        CHECK(fd.size == fd.recorded_size);
    }
    CHECK(r.log->violations.empty());
    if (!r.log->violations.empty()) WARN(r.log->violations.front());
    check_no_leaks(r);
  }
}

TEST_CASE("vtest replay: TGSI reassembled from chunks equals the capture's text",
          "[vtest][replay]") {
  for (const std::string& name : capture_names()) {
    INFO(name);
    Replayed r = replay(name);
    const std::vector<TgsiEntry> want = load_tgsi(name);
    REQUIRE(!want.empty());
    REQUIRE(r.log->shader_texts.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      INFO("shader " << i);
      CHECK(r.log->shader_texts[i].first == clpipe_stage(want[i].virgl_stage));
      const std::string& got = r.log->shader_texts[i].second;
      CHECK(got.size() == want[i].full_size);
      CHECK(got.compare(0, want[i].text.size(), want[i].text) == 0);
    }
    check_no_leaks(r);
  }
  // Capture 11's fragment shader arrived in two chunks in two submits.
  Replayed huge = replay("11-huge-shader-chunked");
  REQUIRE(huge.log->shader_texts.size() == 2);
  CHECK(huge.log->shader_texts[1].second.size() == 298250);
  CHECK(huge.log->shader_texts[1].second.rfind("END") != std::string::npos);
}

TEST_CASE("vtest replay: capture 01 makes the expected API calls with the decoded values",
          "[vtest][replay]") {
  Replayed r = replay("01-fs-sign-neg");
  REQUIRE(r.result.ok());
  const auto calls = r.log->find("");
  check_subsequence(
      calls, {
                 "resource_create #1 target=2 format=B5G6R5_UNORM 250x250x1",
                 "resource_create #2 target=2 format=R8G8B8A8_UNORM 250x250x1",
                 "resource_create #3 target=0 format=R8_UNORM 96x1x1",
                 "context_create",
                 "buffer_subdata res=#3 offset=0 size=64",  // TRANSFER3D in the transfer area
                 "create_surface",
                 "create_surface",
                 "create_shader stage=0",
                 "create_shader stage=4",
                 "create_dsa",
                 "bind_dsa",
                 "bind_shader stage=4",
                 "bind_shader stage=0",
                 "set_polygon_stipple",
                 "set_blend_color",
                 "set_sampler_views stage=0",
                 "set_sampler_views stage=4",
                 "set_framebuffer_state 250x250 zs=null cbufs=[",
                 "create_blend",
                 "bind_blend",
                 "create_rasterizer",
                 "bind_rasterizer",
                 "set_min_samples 1",
                 "set_viewport_states start=0 n=1 scale=125,125",
                 "set_constant_buffer stage=4 index=0 user size=48",
                 "set_tess_state",
                 "create_vertex_elements",
                 "bind_vertex_elements",
                 "set_vertex_buffers start=0 {16,0,#3} unbind=0",
                 "draw_vbo mode=5 start=0 count=4 index_size=0 instances=1",
                 "flush",
                 "transfer_map res=#2 level=0 usage=1 box=1,1,0 1x1x1",  // TRANSFER_GET2
                 "bind_shader stage=4 null",
                 "bind_blend null",
                 "bind_rasterizer null",
                 "set_constant_buffer stage=0 index=14 null",
                 "bind_dsa null",
                 "set_stream_output_targets n=0",
                 "set_sample_mask 0xffffffff",
             });
  // Decoded values.
  REQUIRE(r.log->rasterizers.size() == 1);
  const RasterizerState& rs = r.log->rasterizers[0];
  CHECK(rs.depth_clip_near);
  CHECK(rs.half_pixel_center);
  CHECK_FALSE(rs.flatshade);
  CHECK(rs.cull_face == Face::NONE);
  CHECK(rs.point_size == 1.0f);
  CHECK(rs.line_width == 1.0f);
  CHECK(rs.line_stipple_pattern == 0xffff);
  REQUIRE(r.log->blends.size() == 1);
  CHECK(r.log->blends[0].dither);
  CHECK(r.log->blends[0].rt[0].colormask == 0xf);
  CHECK(r.log->blends[0].rt[1].colormask == 0);
  CHECK_FALSE(r.log->blends[0].rt[0].blend_enable);
  REQUIRE(r.log->vertex_elements.size() == 1);
  REQUIRE(r.log->vertex_elements[0].size() == 1);
  CHECK(r.log->vertex_elements[0][0].src_format == Format::R32G32B32A32_FLOAT);
  REQUIRE(r.log->draws.size() == 1);
  CHECK(r.log->draws[0].first.mode == PrimType::TRIANGLE_STRIP);
  CHECK(r.log->draws[0].second.count == 4);
  REQUIRE(r.log->framebuffers.size() >= 2);  // SET_FRAMEBUFFER_STATE, then NO_ATTACH
  CHECK(r.log->framebuffers[0].nr_cbufs == 1);
  CHECK(r.log->framebuffers[0].cbufs[0] != nullptr);
  check_no_leaks(r);
}

TEST_CASE("vtest replay: uniforms, indexed draws and integer attributes (captures 01, 04, 09)",
          "[vtest][replay]") {
  // The fragment uniforms as the first submit left them (teardown unbinds them later).
  std::vector<uint8_t> constants;
  Replayed u = replay("01-fs-sign-neg", [&](uint32_t cmd, const Connection&, FakeLog& log) {
    if (cmd == VtestCmd::SUBMIT_CMD && constants.empty()) constants = log.last_constants;
  });
  REQUIRE(constants.size() == 48);
  float f[12];
  std::memcpy(f, constants.data(), sizeof f);
  CHECK(f[0] == -5.0f);
  CHECK(f[1] == 5.0f);
  CHECK(f[4] == -2.0f);
  CHECK(f[9] == -1.0f);
  check_no_leaks(u);

  for (const char* name : {"04-vs-attrib-ivec4", "09-vs-attrib-ivec4-gl33caps"}) {
    INFO(name);
    Replayed r = replay(name);
    REQUIRE(r.result.ok());
    bool indexed = false;
    for (const auto& [info, draw] : r.log->draws)
      if (info.index_size == 2) {
        indexed = true;
        CHECK(info.mode == PrimType::TRIANGLES);
        CHECK(draw.count == 6);  // GL_QUADS converted by Mesa
        CHECK(info.index_resource != nullptr);
      }
    CHECK(indexed);
    bool sint = false;
    for (const auto& ve : r.log->vertex_elements)
      for (const VertexElement& e : ve)
        sint |= e.src_format == Format::R32G32B32A32_SINT;
    CHECK(sint);
    check_no_leaks(r);
  }
}

TEST_CASE("vtest replay: texture uploads land in the resource through the guest strides",
          "[vtest][replay]") {
  // The 8x8 RGBA8 texture of captures 05 (TRANSFER3D), 07 (protocol 0, TRANSFER_PUT)
  // and 08 (TRANSFER_PUT2): red/green stripes in the guest layout, 32-byte rows; the
  // fake's rows are 48 bytes apart, so a stride mix-up shows.
  for (const char* name :
       {"05-texture2D", "07-texture2D-proto-v0", "08-texture2D-gl33caps-no-cap-transfer"}) {
    INFO(name);
    Replayed r = replay(name);
    REQUIRE(r.result.ok());
    auto it = r.resources.find(3);
    REQUIRE(it != r.resources.end());
    FakeResource* tex = fake(it->second.first);
    REQUIRE(tex->info().width0 == 8);
    const std::vector<uint8_t> uploaded = uploaded_texture(name, 3);
    REQUIRE(uploaded.size() == 256);
    for (uint32_t y = 0; y < 8; ++y) {
      INFO("row " << y);
      CHECK(std::memcmp(tex->at(0, 0, y, 0), uploaded.data() + 32 * y, 32) == 0);
    }
    CHECK(r.log->count("texture_subdata res=#3 level=0 box=0,0,0 8x8x1") == 1);
    // Views of a resource take its target (no VIRGL_CAP_TEXTURE_VIEW target on the wire).
    bool view = false;
    for (const SamplerViewTemplate& v : r.log->views)
      view |= v.target == TextureTarget::TEXTURE_2D;
    CHECK(view);
    check_no_leaks(r);
  }
}

TEST_CASE("vtest replay: readbacks copy the resource into the guest layout", "[vtest][replay]") {
  for (const char* name : {"01-fs-sign-neg", "03-cmod-clear-probe-all", "06-sampler2dshadow",
                           "10-cmod-glx-window", "07-texture2D-proto-v0"}) {
    INFO(name);
    Replayed r = replay(name);
    REQUIRE(r.result.ok());
    size_t checked = 0;
    for (const ConnectionReplay& c : r.result.connections)
      for (const ReplayReadback& rb : c.readbacks) {
        auto it = r.resources.find(rb.resource);
        REQUIRE(it != r.resources.end());
        FakeResource* res = fake(it->second.first);
        const GuestLayout& layout = it->second.second;
        const uint32_t bpp = res->bpp();
        const uint64_t stride = layout.level(0).stride;
        CHECK(rb.actual.size() == rb.expected.size());
        // TRANSFER_GET (v0) replies with the box at its own row pitch: a 1x1 box here.
        const uint64_t base = c.protocol_version == 0 ? 125 * stride + 125 * bpp : rb.offset;
        for (size_t k = 0; k < rb.actual.size(); ++k) {
          const uint64_t o = base + k;
          const uint32_t y = uint32_t(o / stride), x = uint32_t(o % stride / bpp);
          const uint8_t want = res->at(0, x, y, 0)[o % stride % bpp];
          if (rb.actual[k] != want) {
            FAIL("byte " << k << " of the readback of resource " << rb.resource << ": "
                         << int(rb.actual[k]) << " != " << int(want));
          }
        }
        ++checked;
      }
    CHECK(checked > 0);
    check_no_leaks(r);
  }
}

TEST_CASE("vtest replay: depth textures, shadow samplers and the protocol-0 path",
          "[vtest][replay]") {
  Replayed r = replay("06-sampler2dshadow");
  REQUIRE(r.result.ok());
  bool depth_view = false;
  for (const SamplerViewTemplate& v : r.log->views)
    if (v.format == Format::Z24X8_UNORM)
      depth_view = v.swizzle_r == Swizzle::X && v.swizzle_g == Swizzle::ZERO &&
                   v.swizzle_b == Swizzle::ZERO && v.swizzle_a == Swizzle::ONE;
  CHECK(depth_view);
  bool shadow = false;
  for (const SamplerState& s : r.log->samplers)
    shadow |= s.compare_mode == TexCompare::R_TO_TEXTURE;
  CHECK(shadow);
  check_no_leaks(r);

  Replayed v0 = replay("07-texture2D-proto-v0");
  REQUIRE(v0.result.connections.size() == 1);
  CHECK(v0.result.connections[0].protocol_version == 0);
  CHECK(v0.result.connections[0].fds.empty());
  check_no_leaks(v0);
}

TEST_CASE("vtest replay: a caps-only client (Xvfb, capture 10) never opens a screen",
          "[vtest][replay]") {
  Replayed r = replay("10-cmod-glx-window");
  REQUIRE(r.result.connections.size() == 2);
  CHECK(r.result.connections[0].client_name == "Xvfb");
  CHECK(r.result.connections[0].fds.empty());
  CHECK(r.factory_calls == 1);  // only shader_runner's connection
  // Sub-context 0 for the transfer area of the first submit (it precedes CREATE_SUB_CTX),
  // and sub-context 1 for the GL context.
  CHECK(r.log->count("context_create") == 2);
  // The GLX back buffer is drawn with a Y-flipped viewport (doc 4.4).
  CHECK(r.log->count("set_viewport_states start=0 n=1 scale=125,-125") == 1);
  check_no_leaks(r);
}
