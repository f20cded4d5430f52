// The virgl decoder on hand-built command streams: transfers, draws, clears, blits,
// queries, sub-contexts, framebuffers and limits.
#include <catch2/catch.hpp>

#include "vtest/layout.h"
#include "vtest/vtest_test_util.h"

using namespace clpipe;
using namespace clpipe::vtest_test;

TEST_CASE("vtest decoder: TRANSFER3D moves boxes between the guest and host layouts",
          "[vtest][decoder]") {
  Harness h;
  VtestResource& tex =
      h.resource(1, TextureTarget::TEXTURE_2D_ARRAY, Format::R8G8B8A8_UNORM, 8, 4, 1, 2, 1);
  uint8_t* shm = tex.shm->data();
  for (size_t i = 0; i < tex.shm->size(); ++i)
    shm[i] = uint8_t(i * 13 + 1);
  // Level 1 (4x2, 2 layers) starts after level 0 (2 layers of 8x4x4 bytes); box 2x2x2 at
  // (1, 0, 0), offset of its origin in the level image.
  const LevelLayout l1 = tex.layout.level(1);
  const uint32_t offset = uint32_t(l1.offset + 1 * 4);
  Stream up;
  up.cmd(Ccmd::TRANSFER3D, 0, {1, 1, 2, 0, 0, 1, 0, 0, 2, 2, 2, offset, kTransferToHost});
  h.submit(up);
  FakeResource* host = h.host(1);
  for (uint32_t z = 0; z < 2; ++z)
    for (uint32_t y = 0; y < 2; ++y) {
      INFO("layer " << z << " row " << y);
      CHECK(std::memcmp(host->at(1, 1, y, z), shm + offset + z * l1.layer_stride + y * l1.stride,
                        8) == 0);
    }
  CHECK(h.log->count("texture_subdata res=#") == 1);

  // Direction 2 reads the host box back into the guest layout (elsewhere in the level).
  for (uint32_t y = 0; y < 4; ++y)
    std::memset(host->at(0, 0, y, 1), int(0x40 + y), 32);
  std::memset(shm, 0, tex.shm->size());
  const uint32_t back = uint32_t(tex.layout.level(0).layer_stride + 1 * 32 + 2 * 4);
  h.submit(Stream().cmd(Ccmd::TRANSFER3D, 0,
                        {1, 0, 1, 0, 0, 2, 1, 1, 3, 2, 1, back, kTransferFromHost}));
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t b = 0; b < 12; ++b)
      CHECK(shm[back + y * 32 + b] == 0x41 + y);
  CHECK(shm[back - 1] == 0);
  CHECK(shm[back + 12] == 0);

  const std::pair<const char*, Stream> kBad[] = {
      {"exceeds level", Stream().cmd(Ccmd::TRANSFER3D, 0, {1, 0, 0, 0, 0, 7, 0, 0, 2, 1, 1, 0, 1})},
      {"backing store",
       Stream().cmd(Ccmd::TRANSFER3D, 0, {1, 0, 0, 0, 0, 0, 0, 0, 8, 4, 2, 200, 1})},
      {"direction", Stream().cmd(Ccmd::TRANSFER3D, 0, {1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 3})},
      {"stride", Stream().cmd(Ccmd::TRANSFER3D, 0, {1, 0, 0, 16, 0, 0, 0, 0, 8, 2, 1, 0, 1})},
      {"unknown resource",
       Stream().cmd(Ccmd::TRANSFER3D, 0, {9, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 1})},
  };
  for (const auto& [what, stream] : kBad) {
    INFO(what);
    CHECK_THAT(h.submit_error(stream), Catch::Contains(what));
  }
  // A resource without shared memory (protocol 0) cannot take TRANSFER3D.
  h.resource(2, TextureTarget::BUFFER, Format::R8_UNORM, 64, 1, 1, 1, 0, false);
  CHECK_THAT(
      h.submit_error(Stream().cmd(Ccmd::TRANSFER3D, 0, {2, 0, 0, 0, 0, 0, 0, 0, 4, 1, 1, 0, 1})),
      Catch::Contains("no backing store"));
  CHECK(h.log->violations.empty());
}

TEST_CASE("vtest decoder: END_TRANSFERS skips its stale payload unread", "[vtest][decoder]") {
  Harness h;
  h.resource(1, TextureTarget::BUFFER, Format::R8_UNORM, 16);
  std::vector<uint32_t> area = {
      ccmd_header(Ccmd::TRANSFER3D, 0, 13), 1, 0, 2, 0, 0, 0, 0, 0, 16, 1, 1, 0, 1};
  const uint32_t pad = 1023 - 14;
  area.push_back(ccmd_header(Ccmd::END_TRANSFERS, 0, pad));
  for (uint32_t i = 0; i < pad; ++i)
    area.push_back(i % 3 ? 0xdeadbeef : ccmd_header(200, 0, 0));
  Stream s;
  s.raw(area).cmd(Ccmd::SET_SAMPLE_MASK, 0, {0xf});
  REQUIRE(s.dw.size() == 1024 + 2);
  CHECK(h.submit_error(s).empty());
  CHECK(h.log->count("buffer_subdata res=#") == 1);
  CHECK(h.log->count("set_sample_mask 0xf") == 1);
}

TEST_CASE("vtest decoder: draws use the index binding and check their resources",
          "[vtest][decoder]") {
  LogRecorder rec;
  Harness h;
  h.resource(1, TextureTarget::BUFFER, Format::R8_UNORM, 1024);
  Stream s;
  s.cmd(Ccmd::SET_INDEX_BUFFER, 0, {1, 2, 12});
  s.cmd(Ccmd::DRAW_VBO, 0, {99, 6, 4, 1, 3, uint32_t(-2), 1, 1, 0xffff, 0, 0xffffffffu, 0});
  s.cmd(Ccmd::DRAW_VBO, 0, {5, 3, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0});
  h.submit(s);
  REQUIRE(h.log->draws.size() == 2);
  const auto& [idx, idraw] = h.log->draws[0];
  CHECK(idx.index_size == 2);
  CHECK(idraw.start == 6);  // byte offset 12 / 2; DRAW_VBO's own start is not added
  CHECK(idraw.count == 6);
  CHECK(idraw.index_bias == -2);
  CHECK(idx.instance_count == 3);
  CHECK(idx.start_instance == 1);
  CHECK(idx.primitive_restart);
  CHECK(idx.restart_index == 0xffff);
  CHECK_FALSE(idx.index_bounds_valid);
  const auto& [plain, pdraw] = h.log->draws[1];
  CHECK(plain.index_size == 0);
  CHECK(plain.mode == PrimType::POINTS);
  CHECK(pdraw.start == 5);

  // An index offset that is not a multiple of the index size cannot be expressed in the
  // API: logged and skipped, the connection goes on.
  h.submit(Stream()
               .cmd(Ccmd::SET_INDEX_BUFFER, 0, {1, 4, 6})
               .cmd(Ccmd::DRAW_VBO, 0, {0, 3, 4, 1, 1, 0, 0, 0, 0, 0, 0, 0}));
  CHECK(h.log->draws.size() == 2);
  CHECK(h.decoder->api_failures() == 1);
  CHECK(rec.count("not a multiple of the index size") == 1);

  const std::pair<const char*, Stream> kBad[] = {
      {"primitive type", Stream().cmd(Ccmd::DRAW_VBO, 0, {0, 3, 15, 0, 1, 0, 0, 0, 0, 0, 0, 0})},
      {"without an index buffer",
       Stream()
           .cmd(Ccmd::SET_INDEX_BUFFER, 0, {0})
           .cmd(Ccmd::DRAW_VBO, 0, {0, 3, 4, 1, 1, 0, 0, 0, 0, 0, 0, 0})},
      {"no target was bound",
       Stream().cmd(Ccmd::DRAW_VBO, 0, {0, 3, 4, 0, 1, 0, 0, 0, 0, 0, 0, 64})},
      {"vertices per patch",
       Stream().cmd(Ccmd::DRAW_VBO, 0, {0, 3, 14, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0})},
      {"indirect draw offset", Stream().cmd(Ccmd::DRAW_VBO, 0, {0, 3, 4, 0, 1, 0,    0, 0, 0, 0,
                                                                0, 0, 0, 0, 1, 2000, 0, 1, 0, 0})},
  };
  for (const auto& [what, stream] : kBad) {
    INFO(what);
    CHECK_THAT(h.submit_error(stream), Catch::Contains(what));
  }
  CHECK(h.log->violations.empty());
}

TEST_CASE("vtest decoder: framebuffers, clears, blits and copies", "[vtest][decoder]") {
  Harness h;
  h.resource(1, TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, 64, 32);
  h.resource(2, TextureTarget::TEXTURE_2D, Format::Z24X8_UNORM, 48, 40);
  h.resource(3, TextureTarget::BUFFER, Format::R8_UNORM, 256);
  Stream s;
  s.cmd(Ccmd::CREATE_OBJECT, ObjType::SURFACE, {10, 1, 67, 0, 0});
  s.cmd(Ccmd::CREATE_OBJECT, ObjType::SURFACE, {11, 2, 21, 0, 0});
  s.cmd(Ccmd::SET_FRAMEBUFFER_STATE, 0, {2, 11, 10, 0});
  s.cmd(Ccmd::SET_FRAMEBUFFER_STATE, 0, {0, 0});
  s.cmd(Ccmd::SET_FRAMEBUFFER_STATE_NO_ATTACH, 0, {100u | (50u << 16), 2u | (4u << 16)});
  const double depth = 0.75;
  uint32_t dd[2];
  std::memcpy(dd, &depth, 8);
  s.cmd(Ccmd::CLEAR, 0,
        {Clear::COLOR0 | Clear::DEPTH, fbits(1.0f), 0, 0, fbits(1.0f), dd[0], dd[1], 7});
  s.cmd(Ccmd::BLIT, 0,
        {0xfu | (1u << 8), 0, 0, 1, 0, 67, 0, 0, 0, 64, 32, 1, 1, 0, 67, 64, 32, 0, uint32_t(-64),
         uint32_t(-32),    1});
  // A scaled blit whose destination reaches past the level (st/mesa sends them unclipped).
  s.cmd(Ccmd::BLIT, 0, {0xfu, 0, 0, 1, 0, 67, 0, 0, 0, 64, 40, 1, 1, 0, 67, 0, 0, 0, 64, 32, 1});
  s.cmd(Ccmd::RESOURCE_COPY_REGION, 0, {3, 0, 16, 0, 0, 3, 0, 100, 0, 0, 50, 1, 1});
  h.submit(s);
  REQUIRE(h.log->framebuffers.size() == 3);
  CHECK(h.log->framebuffers[0].width == 48);  // the smallest attachment
  CHECK(h.log->framebuffers[0].height == 32);
  CHECK(h.log->framebuffers[0].nr_cbufs == 2);
  CHECK(h.log->framebuffers[0].cbufs[1] == nullptr);
  CHECK(h.log->framebuffers[2].width == 100);  // no attachments: NO_ATTACH's size
  CHECK(h.log->framebuffers[2].height == 50);
  CHECK(h.log->framebuffers[2].layers == 2);
  CHECK(h.log->framebuffers[2].samples == 4);
  CHECK(h.log->count("clear buffers=0x5 color0=0x3f800000 depth=0.75 stencil=7") == 1);
  REQUIRE(h.log->blits.size() == 2);
  CHECK(h.log->blits[0].filter == TexFilter::LINEAR);
  CHECK(h.log->blits[0].src.box.width == -64);  // mirrored source
  CHECK(h.log->blits[1].dst.box.height == 40);  // passed on, for the context to clip
  CHECK(h.log->count("resource_copy_region dst=") == 1);

  const std::pair<const char*, Stream> kBad[] = {
      {"blit source: level 9", Stream().cmd(Ccmd::BLIT, 0, {0xf, 0, 0, 1,  0, 67, 0, 0,  0,  64, 32,
                                                            1,   1, 9, 67, 0, 0,  0, 64, 32, 1})},
      {"negative size",
       Stream().cmd(Ccmd::BLIT, 0, {0xf, 0, 0,  1, 0, 67, 64, 0,  0, uint32_t(-64), 32, 1,
                                    1,   0, 67, 0, 0, 0,  64, 32, 1})},
      {"blit mask", Stream().cmd(Ccmd::BLIT, 0, {0x40, 0, 0, 1,  0, 67, 0, 0, 0, 1, 1,
                                                 1,    1, 0, 67, 0, 0,  0, 1, 1, 1})},
      {"copy destination",
       Stream().cmd(Ccmd::RESOURCE_COPY_REGION, 0, {3, 0, 250, 0, 0, 3, 0, 0, 0, 0, 10, 1, 1})},
      {"copy source",
       Stream().cmd(Ccmd::RESOURCE_COPY_REGION, 0, {1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 1})},
      {"not a surface", Stream()
                            .cmd(Ccmd::CREATE_OBJECT, ObjType::DSA, {12, 0, 0, 0, 0})
                            .cmd(Ccmd::SET_FRAMEBUFFER_STATE, 0, {1, 0, 12})},
  };
  for (const auto& [what, stream] : kBad) {
    INFO(what);
    CHECK_THAT(h.submit_error(stream), Catch::Contains(what));
  }
  CHECK(h.log->violations.empty());
}

TEST_CASE("vtest decoder: query results are written into the query buffer", "[vtest][decoder]") {
  Harness h;
  VtestResource& qbuf = h.resource(1, TextureTarget::BUFFER, Format::R8_UNORM, 32);
  Stream s;
  s.cmd(Ccmd::CREATE_OBJECT, ObjType::QUERY, {5, VirglQuery::OCCLUSION_COUNTER, 16, 1});
  s.cmd(Ccmd::CREATE_OBJECT, ObjType::QUERY, {6, VirglQuery::TIME_ELAPSED, 0, 1});
  s.cmd(Ccmd::BEGIN_QUERY, 0, {5}).cmd(Ccmd::END_QUERY, 0, {5});
  s.cmd(Ccmd::GET_QUERY_RESULT, 0, {5, 0});  // not ready at the first poll: pending
  s.cmd(Ccmd::SET_RENDER_CONDITION, 0, {5, 1, 2});
  s.cmd(Ccmd::GET_QUERY_RESULT, 0, {6, 1});  // waits: written at once
  h.submit(s);
  const uint8_t* m = qbuf.shm->data();
  CHECK(load_u32(m) == kQueryStateDone);
  CHECK(load_u32(m + 4) == 8);
  const uint32_t id6 = load_u32(m + 8);
  CHECK(id6 > 1000);
  // Query 5 was polled again after the submit: done by now.
  CHECK(load_u32(m + 16) == kQueryStateDone);
  CHECK(load_u32(m + 20) == 4);
  CHECK(load_u32(m + 24) > 1000);
  CHECK(load_u32(m + 24) != id6);
  CHECK(h.log->count("render_condition #") == 1);
  CHECK(h.decoder->wait_idle(true));

  const std::pair<const char*, Stream> kBad[] = {
      {"does not fit", Stream().cmd(Ccmd::CREATE_OBJECT, ObjType::QUERY, {7, 0, 20, 1})},
      {"invalid query type", Stream().cmd(Ccmd::CREATE_OBJECT, ObjType::QUERY, {7, 13, 0, 1})},
      {"render condition mode", Stream().cmd(Ccmd::SET_RENDER_CONDITION, 0, {5, 0, 4})},
      {"query value type", Stream().cmd(Ccmd::GET_QUERY_RESULT_QBO, 0, {5, 1, 0, 4, 0, 0})},
  };
  for (const auto& [what, stream] : kBad) {
    INFO(what);
    CHECK_THAT(h.submit_error(stream), Catch::Contains(what));
  }

  // Protocol 0: no shared memory, the result goes into the host buffer.
  h.resource(2, TextureTarget::BUFFER, Format::R8_UNORM, 16, 1, 1, 1, 0, false);
  h.submit(Stream()
               .cmd(Ccmd::CREATE_OBJECT, ObjType::QUERY, {8, VirglQuery::GPU_FINISHED, 0, 2})
               .cmd(Ccmd::GET_QUERY_RESULT, 0, {8, 1}));
  CHECK(load_u32(h.host(2)->bytes().data()) == kQueryStateDone);
  CHECK(load_u32(h.host(2)->bytes().data() + 8) == 1);  // a predicate: true
}

TEST_CASE("vtest decoder: sub-contexts own their objects and contexts", "[vtest][decoder]") {
  Harness h;
  Stream s;
  s.cmd(Ccmd::CREATE_SUB_CTX, 0, {1}).cmd(Ccmd::SET_SUB_CTX, 0, {1});
  s.cmd(Ccmd::CREATE_OBJECT, ObjType::DSA, {5, 0, 0, 0, 0});
  s.cmd(Ccmd::CREATE_SUB_CTX, 0, {2}).cmd(Ccmd::SET_SUB_CTX, 0, {2});
  h.submit(s);
  CHECK(h.log->live_contexts == 2);
  CHECK(h.decoder->sub_context_count() == 2);
  // Object tables are per sub-context.
  CHECK_THAT(h.submit_error(Stream().cmd(Ccmd::BIND_OBJECT, ObjType::DSA, {5})),
             Catch::Contains("unknown object 5"));
  h.submit(Stream().cmd(Ccmd::SET_SUB_CTX, 0, {1}).cmd(Ccmd::BIND_OBJECT, ObjType::DSA, {5}));
  const int before = h.log->live_objects;
  h.submit(Stream().cmd(Ccmd::DESTROY_SUB_CTX, 0, {1}));
  CHECK(h.log->live_contexts == 1);
  CHECK(h.log->live_objects < before);  // its DSA went with it
  CHECK_THAT(h.submit_error(Stream().cmd(Ccmd::SET_SUB_CTX, 0, {1})),
             Catch::Contains("unknown sub-context 1"));
  h.limits.max_sub_contexts = 2;
  Harness small;
  small.limits.max_sub_contexts = 1;
  small.decoder =
      std::make_unique<Decoder>(small.lazy, small.resources, small.limits, DecoderOptions{}, "t");
  small.submit(Stream().cmd(Ccmd::CREATE_SUB_CTX, 0, {1}));
  CHECK_THAT(small.submit_error(Stream().cmd(Ccmd::CREATE_SUB_CTX, 0, {2})),
             Catch::Contains("too many sub-contexts"));
}

TEST_CASE("vtest decoder: object and shader-text limits hold", "[vtest][decoder]") {
  Harness h;
  h.limits.max_objects = 3;
  h.limits.max_pending_shader_bytes = 8;
  h.decoder = std::make_unique<Decoder>(h.lazy, h.resources, h.limits, DecoderOptions{}, "t");
  Stream s;
  for (uint32_t i = 1; i <= 3; ++i)
    s.cmd(Ccmd::CREATE_OBJECT, ObjType::DSA, {i, 0, 0, 0, 0});
  h.submit(s);
  CHECK_THAT(h.submit_error(Stream().cmd(Ccmd::CREATE_OBJECT, ObjType::DSA, {4, 0, 0, 0, 0})),
             Catch::Contains("too many objects"));
  CHECK(h.submit_error(Stream().cmd(Ccmd::CREATE_OBJECT, ObjType::DSA, {3, 0, 0, 0, 0}))
            .empty());  // replaces
  CHECK_THAT(h.submit_error(Stream().raw({ccmd_header(Ccmd::CREATE_OBJECT, ObjType::SHADER, 8), 9,
                                          0, 100, 10, 0, 1, 2, 3})),
             Catch::Contains("pending shader text"));
}

TEST_CASE("vtest decoder: inline writes, constant buffers and state setters", "[vtest][decoder]") {
  Harness h;
  h.resource(1, TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, 4, 4);
  h.resource(2, TextureTarget::BUFFER, Format::R8_UNORM, 64);
  Stream s;
  // 2x2 box at (1,1), packed rows of 8 bytes.
  s.cmd(Ccmd::RESOURCE_INLINE_WRITE, 0,
        {1, 0, 2, 0, 0, 1, 1, 0, 2, 2, 1, 0x11111111, 0x22222222, 0x33333333, 0x44444444});
  s.cmd(Ccmd::SET_CONSTANT_BUFFER, 0, {VirglStage::VERTEX, 0, fbits(1.0f), fbits(2.0f)});
  s.cmd(Ccmd::SET_CONSTANT_BUFFER, 0, {VirglStage::VERTEX, 1});
  s.cmd(Ccmd::SET_UNIFORM_BUFFER, 0, {VirglStage::FRAGMENT, 2, 16, 32, 2});
  s.cmd(Ccmd::SET_STENCIL_REF, 0, {0x1234});
  s.cmd(Ccmd::SET_SCISSOR_STATE, 0, {0, 1u | (2u << 16), 3u | (4u << 16)});
  s.cmd(Ccmd::SET_VERTEX_BUFFERS, 0, {16, 0, 2, 8, 4, 2});
  s.cmd(Ccmd::SET_VERTEX_BUFFERS, 0, {16, 0, 2});
  s.cmd(Ccmd::SET_ATOMIC_BUFFERS, 0, {0, 0, 0, 0});
  h.submit(s);
  uint32_t px;
  std::memcpy(&px, h.host(1)->at(0, 2, 2, 0), 4);
  CHECK(px == 0x44444444);
  std::memcpy(&px, h.host(1)->at(0, 1, 1, 0), 4);
  CHECK(px == 0x11111111);
  CHECK(h.log->count("set_constant_buffer stage=0 index=0 user size=8") == 1);
  CHECK(h.log->count("set_constant_buffer stage=0 index=1 null") == 1);
  CHECK(h.log->count("set_constant_buffer stage=4 index=2 res #") == 1);
  CHECK(h.log->count("set_stencil_ref 52 18") == 1);
  CHECK(h.log->count("set_vertex_buffers start=0 {16,0,#") == 2);
  CHECK(h.log->find("set_vertex_buffers").back().find("unbind=1") != std::string::npos);
  CHECK(h.decoder->api_failures() == 0);  // unbinding atomic buffers is a no-op

  LogRecorder rec;
  const std::pair<const char*, Stream> kBad[] = {
      {"RESOURCE_INLINE_WRITE data",
       Stream().cmd(Ccmd::RESOURCE_INLINE_WRITE, 0, {1, 0, 2, 0, 0, 0, 0, 0, 2, 2, 1, 0})},
      {"uniform buffer: range", Stream().cmd(Ccmd::SET_UNIFORM_BUFFER, 0, {1, 1, 60, 8, 2})},
      {"is not a buffer", Stream().cmd(Ccmd::SET_VERTEX_BUFFERS, 0, {16, 0, 1})},
      {"constant buffer slots", Stream().cmd(Ccmd::SET_CONSTANT_BUFFER, 0, {0, 32})},
      {"image access", Stream().cmd(Ccmd::SET_SHADER_IMAGES, 0, {1, 0, 67, 4, 0, 0, 1})},
  };
  for (const auto& [what, stream] : kBad) {
    INFO(what);
    CHECK_THAT(h.submit_error(stream), Catch::Contains(what));
  }
  // Binding an atomic buffer is valid protocol the API cannot express: a logged refusal.
  CHECK(h.submit_error(Stream().cmd(Ccmd::SET_ATOMIC_BUFFERS, 0, {0, 0, 16, 2})).empty());
  CHECK(h.decoder->api_failures() == 1);
  CHECK(rec.count("set_hw_atomic_buffers") == 1);
  CHECK(h.log->violations.empty());
}
