// virgl <-> clpipe conversions: formats (doc 6.1), stages, targets, binds, query types.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "frontend/format_support.h"
#include "vtest/formats.h"
#include "vtest/protocol.h"
#include "vtest/wire.h"

using namespace clpipe;
using namespace clpipe::frontend::vtest;

TEST_CASE("vtest formats: virgl numbers of doc 6.1 map to the clpipe format of the same name",
          "[vtest][formats]") {
  const std::pair<uint32_t, Format> kTable[] = {
      {1, Format::B8G8R8A8_UNORM},
      {2, Format::B8G8R8X8_UNORM},
      {7, Format::B5G6R5_UNORM},
      {9, Format::L8_UNORM},
      {16, Format::Z16_UNORM},
      {17, Format::Z32_UNORM},
      {19, Format::Z24_UNORM_S8_UINT},
      {21, Format::Z24X8_UNORM},
      {28, Format::R32_FLOAT},
      {31, Format::R32G32B32A32_FLOAT},
      {64, Format::R8_UNORM},
      {67, Format::R8G8B8A8_UNORM},
      {94, Format::R16G16B16A16_FLOAT},
      {104, Format::R8G8B8A8_SRGB},
      {124, Format::R11G11B10_FLOAT},
      {125, Format::R9G9B9E5_FLOAT},
      {126, Format::Z32_FLOAT_S8X24_UINT},
      {136, Format::X24S8_UINT},
      {200, Format::R32G32B32A32_SINT},
      {225, Format::B10G10R10A2_UINT},
      {253, Format::R10G10B10A2_UINT},
      {311, Format::A4B4G4R4_UNORM},
  };
  for (const auto& [v, f] : kTable) {
    INFO("virgl format " << v);
    CHECK(format_from_virgl(v) == f);
    CHECK(format_to_virgl(f) == v);
    CHECK(std::string(virgl_format_name(v)) == format_name(f));
  }
  // Compressed and planar formats have no clpipe equivalent; the aliased numbers 262..266
  // carry their second meaning, which clpipe lacks too.
  for (uint32_t v : {0u, 105u, 113u, 163u, 264u, 279u, 322u, 9999u})
    CHECK(format_from_virgl(v) == Format::NONE);
  CHECK(std::string(virgl_format_name(264)) == "A2B10G10R10_UNORM");
  CHECK(virgl_format_name(73) == nullptr);  // a gap in the enum
}

TEST_CASE("vtest formats: every clpipe format with a virgl number round-trips",
          "[vtest][formats]") {
  int mapped = 0;
  for (int i = 1; i < int(Format::COUNT); ++i) {
    const Format f = Format(i);
    const uint32_t v = format_to_virgl(f);
    if (v == 0) continue;
    ++mapped;
    INFO(format_name(f));
    CHECK(format_from_virgl(v) == f);
  }
  CHECK(mapped >= 190);  // all but B10G10R10A2_SINT and R10G10B10A2_SINT
}

TEST_CASE("vtest formats: every format virglrenderer renders to is a clpipe render target",
          "[vtest][formats]") {
  // Mesa picks the first format of its list the host renders to: for GL_RGB16_SNORM
  // R16G16B16X16_SNORM, else R16G16B16A16_SNORM, whose stored alpha then feeds DST_ALPHA
  // blending where GL wants 1 (piglit fbo-blending-formats GL_EXT_texture_snorm). The
  // list: virglrenderer's caps as a capture recorded them.
  std::ifstream in(std::string(CLPIPE_VTEST_CAPTURES_DIR) + "/07-texture2D-proto-v0.decoded.txt");
  REQUIRE(in);
  std::string line, names;
  while (std::getline(in, line)) {
    const size_t at = line.find(" render ");
    if (at != std::string::npos && line.find("formats:") != std::string::npos) {
      names = line.substr(line.find("formats:") + 8);
      break;
    }
  }
  std::istringstream list(names);
  int count = 0;
  for (std::string name; list >> name; ++count) {
    INFO(name);
    uint32_t v = 0;
    while (v < kVirglFormatCount && !(virgl_format_name(v) && name == virgl_format_name(v)))
      ++v;
    REQUIRE(v < kVirglFormatCount);
    const Format f = format_from_virgl(v);
    CHECK(f != Format::NONE);
    CHECK(frontend::format_supported(f, TextureTarget::TEXTURE_2D, 0, 0,
                                     uint32_t(Bind::RENDER_TARGET | Bind::SAMPLER_VIEW)));
  }
  CHECK(count == 93);
}

TEST_CASE("vtest formats: wire values out of range are protocol errors", "[vtest][formats]") {
  CHECK_THROWS_WITH(format_from_wire(105, "surface format"),
                    Catch::Contains("DXT1_RGB") && Catch::Contains("not supported"));
  CHECK_THROWS_WITH(format_from_wire(0, "surface format"), Catch::Contains("invalid"));
  CHECK_THROWS_AS(format_from_wire(100000, "x"), ProtocolError);
  CHECK(format_from_wire(67, "x") == Format::R8G8B8A8_UNORM);

  CHECK(target_from_wire(8) == TextureTarget::TEXTURE_CUBE_ARRAY);
  CHECK_THROWS_AS(target_from_wire(9), ProtocolError);
}

TEST_CASE("vtest formats: shader stages use virgl's order on the wire", "[vtest][formats]") {
  CHECK(shader_type_from_wire(VirglStage::VERTEX) == ShaderType::VERTEX);
  CHECK(shader_type_from_wire(VirglStage::FRAGMENT) == ShaderType::FRAGMENT);
  CHECK(shader_type_from_wire(VirglStage::GEOMETRY) == ShaderType::GEOMETRY);
  CHECK(shader_type_from_wire(VirglStage::TESS_CTRL) == ShaderType::TESS_CTRL);
  CHECK(shader_type_from_wire(VirglStage::TESS_EVAL) == ShaderType::TESS_EVAL);
  CHECK(shader_type_from_wire(VirglStage::COMPUTE) == ShaderType::COMPUTE);
  for (uint32_t s = 0; s < kVirglStages; ++s)
    CHECK(shader_type_to_virgl(shader_type_from_wire(s)) == s);
  CHECK_THROWS_AS(shader_type_from_wire(6), ProtocolError);
}

TEST_CASE("vtest formats: bind flags and query types are renumbered", "[vtest][formats]") {
  CHECK(bind_from_virgl(VirglBind::RENDER_TARGET | VirglBind::SAMPLER_VIEW |
                        VirglBind::DISPLAY_TARGET) ==
        (Bind::RENDER_TARGET | Bind::SAMPLER_VIEW | Bind::DISPLAY_TARGET));
  CHECK(bind_from_virgl(VirglBind::CUSTOM) == Bind::CUSTOM);
  CHECK(bind_from_virgl(VirglBind::STREAM_OUTPUT) == Bind::STREAM_OUTPUT);
  CHECK(bind_from_virgl(VirglBind::QUERY_BUFFER) == Bind::QUERY_BUFFER);
  CHECK(bind_from_virgl(VirglBind::COMMAND_ARGS) == Bind::COMMAND_ARGS_BUFFER);
  CHECK(bind_from_virgl(VirglBind::STAGING | (1u << 28)) == 0);
  CHECK(resource_usage_from_virgl_bind(VirglBind::STAGING) == ResourceUsage::STAGING);

  CHECK(query_type_from_wire(VirglQuery::TIMESTAMP) == QueryType::TIMESTAMP);
  CHECK(query_type_from_wire(VirglQuery::GPU_FINISHED) == QueryType::GPU_FINISHED);
  CHECK(query_type_from_wire(VirglQuery::PIPELINE_STATISTICS) ==
        QueryType::PIPELINE_STATISTICS_SINGLE);
  CHECK(query_type_from_wire(VirglQuery::OCCLUSION_PREDICATE_CONSERVATIVE) ==
        QueryType::OCCLUSION_PREDICATE_CONSERVATIVE);
  CHECK_THROWS_AS(query_type_from_wire(VirglQuery::COUNT), ProtocolError);
  CHECK(query_result_size(VirglQuery::TIME_ELAPSED) == 8);
  CHECK(query_result_size(VirglQuery::OCCLUSION_COUNTER) == 4);
}

TEST_CASE("vtest wire: Payload checks every access", "[vtest][formats]") {
  const uint32_t d[3] = {10, 20, 30};
  const Payload p(d, 3);
  CHECK(p[1] == 10);
  CHECK(p[3] == 30);
  CHECK_THROWS_AS(p[0], ProtocolError);
  CHECK_THROWS_WITH(p[4], Catch::Contains("needs dword 4"));
  CHECK(p.span(2, 2) == d + 1);
  CHECK_THROWS_AS(p.span(2, 3), ProtocolError);
  CHECK_THROWS_AS(p.span(1, 0xffffffffu), ProtocolError);
  CHECK_NOTHROW(p.expect_len(3));
  CHECK_THROWS_AS(p.expect_len(2), ProtocolError);
  CHECK(bits(0xabcd1234u, 16, 16) == 0xabcd);
  CHECK(bits(0xffffffffu, 0, 32) == 0xffffffffu);
}
