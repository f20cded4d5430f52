// Analysis tests (src/compiler/shader_info.h): facts from hand-written shaders and from
// the §17 corpus seeds of tgsi.md.
#include "compiler/shader_info.h"

#include "compiler/tgsi_test_util.h"

using namespace clpipe;
using namespace clpipe::compiler;
using namespace clpipe::compiler::test;

namespace {

ShaderInfo info_of(const std::string& text) {
  return analyze(valid(text));
}

ShaderInfo seed(const std::string& name) {
  return info_of(corpus_shader(name));
}

}  // namespace

TEST_CASE("analysis: FS inputs, outputs, read masks and properties", "[compiler][analysis]") {
  ShaderInfo info = info_of(
      "FRAG\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\n"
      "PROPERTY FS_EARLY_DEPTH_STENCIL 1\n"
      "DCL IN[0], POSITION, LINEAR\nDCL IN[1].xy, GENERIC[7], PERSPECTIVE, CENTROID\n"
      "DCL IN[3], COLOR[1], COLOR\nDCL OUT[0], COLOR\nDCL OUT[2], COLOR[3]\n"
      "DCL OUT[1], POSITION\nDCL OUT[4], SAMPLEMASK\nDCL TEMP[0]\n"
      "  0: MOV OUT[0].xy, IN[1].yxxx\n  1: RCP TEMP[0].x, IN[0].wwww\n"
      "  2: DP3 TEMP[0].y, IN[3], IN[3]\n  3: MOV OUT[1].z, TEMP[0].xxxx\n  4: END\n");
  CHECK(info.stage == ShaderType::FRAGMENT);
  CHECK(info.num_inputs == 4);
  CHECK(info.num_outputs == 5);
  REQUIRE(info.inputs.size() == 3);
  const IoInfo& pos = info.inputs[0];
  CHECK(pos.semantic == Semantic::POSITION);
  CHECK(pos.interp == InterpMode::LINEAR);
  CHECK(pos.read_mask == 0x8);  // RCP reads .w only
  const IoInfo& gen = info.inputs[1];
  CHECK(gen.reg == 1);
  CHECK(gen.semantic_index == 7);
  CHECK(gen.location == InterpLoc::CENTROID);
  CHECK(gen.usage_mask == 0x3);
  CHECK(gen.read_mask == 0x3);             // .yx of a .xy write
  CHECK(info.inputs[2].read_mask == 0x7);  // DP3 reads xyz
  CHECK(info.inputs[2].interp == InterpMode::COLOR);
  CHECK(info.outputs[0].written_mask == 0x3);
  CHECK(info.fs_outputs.color[0] == 0);
  CHECK(info.fs_outputs.color[3] == 2);
  CHECK(info.fs_outputs.color[1] == -1);
  CHECK(info.fs_outputs.depth == 1);
  CHECK(info.fs_outputs.sample_mask == 4);
  CHECK(info.fs_outputs.stencil == -1);
  CHECK(info.props.fs_coord_origin_lower_left);
  CHECK_FALSE(info.props.fs_pixel_center_integer);
  CHECK(info.props.fs_color0_writes_all_cbufs);
  CHECK(info.props.fs_early_depth_stencil);
  CHECK(info.find_input(Semantic::GENERIC, 7) == &info.inputs[1]);
  CHECK(info.find_input(Semantic::GENERIC, 6) == nullptr);
}

TEST_CASE("analysis: derivatives, kill, samplers and views", "[compiler][analysis]") {
  ShaderInfo fs = info_of(
      "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0..2]\n"
      "DCL SVIEW[0], 2D, FLOAT\nDCL SVIEW[1], SHADOWCUBE, FLOAT\nDCL SVIEW[2], 2D_ARRAY, UINT\n"
      "DCL TEMP[0]\n  0: TEX TEMP[0], IN[0], SAMP[0], 2D\n"
      "  1: TXB2 TEMP[0], IN[0], IN[0], SAMP[1], SHADOWCUBE\n"
      "  2: TXF TEMP[0], IN[0], SAMP[2], 2D_ARRAY\n  3: KILL_IF -IN[0].xxxx\n"
      "  4: MOV OUT[0], TEMP[0]\n  5: END\n");
  CHECK(fs.uses_derivatives);
  CHECK(fs.uses_implicit_lod);
  CHECK(fs.uses_kill);
  REQUIRE(fs.samplers.size() == 3);
  CHECK(fs.samplers[0].used);
  CHECK(fs.samplers[0].target_mask == 1u << unsigned(TexTarget::T2D));
  CHECK(fs.samplers[1].shadow);
  CHECK(fs.samplers[2].target_mask == 1u << unsigned(TexTarget::T2D_ARRAY));
  CHECK_FALSE(fs.samplers[2].shadow);
  REQUIRE(fs.sampler_views.size() == 3);
  CHECK(fs.sampler_views[1].target == TexTarget::SHADOWCUBE);
  CHECK(fs.sampler_views[2].return_type[0] == ReturnType::UINT);

  // Texel fetches and explicit LODs need no derivatives; TEX in a VS samples LOD 0.
  ShaderInfo vs = info_of(
      "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n"
      "  0: TEX OUT[0], IN[0], SAMP[0], 2D\n  1: TXL OUT[0], IN[0], SAMP[0], 2D\n  2: END\n");
  CHECK(vs.uses_implicit_lod);
  CHECK_FALSE(vs.uses_derivatives);
}

TEST_CASE("analysis: constant buffers and indirect addressing", "[compiler][analysis]") {
  ShaderInfo info = info_of(
      "VERT\nDCL OUT[0], POSITION\nDCL CONST[0..24]\nDCL CONST[2][0..3]\nDCL CONST[3][0]\n"
      "DCL TEMP[0..3], ARRAY(1)\nDCL TEMP[4..9]\nDCL ADDR[0..1]\n"
      "  0: MOV TEMP[4], CONST[7]\n  1: MOV TEMP[5], CONST[2][ADDR[0].x+1]\n"
      "  2: MOV TEMP[6], CONST[ADDR[1].x+2][0]\n  3: MOV TEMP[ADDR[0].x](1), TEMP[4]\n"
      "  4: MOV OUT[0], TEMP[9]\n  5: END\n");
  REQUIRE(info.const_buffers.size() == 3);
  CHECK(info.const_buffers[0].index == 0);
  CHECK(info.const_buffers[0].declared_size == 25);
  CHECK(info.const_buffers[0].used_size == 8);
  CHECK(info.const_buffers[1].index == 2);
  CHECK(info.const_buffers[1].declared_size == 4);
  CHECK(info.const_buffers[1].indirect);
  CHECK(info.const_buffers[2].indirect);  // reachable through the indirect buffer index
  CHECK(info.indirect_files ==
        ((1u << unsigned(RegFile::CONST)) | (1u << unsigned(RegFile::TEMP))));
  CHECK(info.dim_indirect_files == 1u << unsigned(RegFile::CONST));
  CHECK(info.num_temps == 10);
  CHECK(info.num_addrs == 2);
  REQUIRE(info.arrays.size() == 1);
  CHECK(info.arrays[0].first == 0);
  CHECK(info.arrays[0].last == 3);
  CHECK(info.arrays[0].indirect);
}

TEST_CASE("analysis: memory, images, buffers, atomics, barriers", "[compiler][analysis]") {
  ShaderInfo cs = info_of(
      "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 64\nPROPERTY CS_FIXED_BLOCK_HEIGHT 2\n"
      "DCL SV[0], THREAD_ID\nDCL SV[1], BLOCK_ID\nDCL BUFFER[0]\nDCL BUFFER[1], ATOMIC\n"
      "DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR\nDCL IMAGE[1], 3D, PIPE_FORMAT_NONE\n"
      "DCL MEMORY[0], SHARED\nDCL HWATOMIC[0][0..1]\nDCL TEMP[0..1]\n"
      "IMM[0] UINT32 {0, 4, 1, 0}\n"
      "  0: LOAD TEMP[0], BUFFER[0], SV[0].xxxx\n  1: STORE MEMORY[0].x, IMM[0].xxxx, TEMP[0]\n"
      "  2: BARRIER\n  3: ATOMUADD TEMP[1].x, IMAGE[0], SV[1], IMM[0].zzzz, 2D\n"
      "  4: RESQ TEMP[1], IMAGE[1], 3D\n  5: ATOMUADD TEMP[1].x, HWATOMIC[0][1], IMM[0].yyyy, "
      "IMM[0].zzzz\n"
      "  6: MEMBAR IMM[0].zzzz\n  7: END\n");
  CHECK(cs.props.cs_block == std::array<uint32_t, 3>{64, 2, 0});
  CHECK(cs.uses_barrier);
  CHECK(cs.uses_memory_barrier);
  CHECK(cs.writes_memory);
  REQUIRE(cs.buffers.size() == 2);
  CHECK(cs.buffers[0].use.read);
  CHECK_FALSE(cs.buffers[0].use.written);
  CHECK(cs.buffers[1].atomic);
  CHECK_FALSE(cs.buffers[1].use.any());
  REQUIRE(cs.images.size() == 2);
  CHECK(cs.images[0].use.atomic);
  CHECK(cs.images[0].format.format == Format::R32_UINT);
  CHECK(cs.images[0].writable);
  CHECK(cs.images[1].use.queried);
  REQUIRE(cs.memories.size() == 1);
  CHECK(cs.memories[0].type == MemoryType::SHARED);
  CHECK(cs.memories[0].use.written);
  REQUIRE(cs.hw_atomics.size() == 1);
  CHECK(cs.hw_atomics[0].last == 1);
  CHECK(cs.hw_atomics[0].use.atomic);
  REQUIRE(cs.system_values.size() == 2);
  CHECK(cs.system_values[0].semantic == Semantic::THREAD_ID);
  CHECK(cs.system_values[0].read_mask == 0x1);
  CHECK(cs.system_values_read == ((uint64_t(1) << unsigned(Semantic::THREAD_ID)) |
                                  (uint64_t(1) << unsigned(Semantic::BLOCK_ID))));
}

TEST_CASE("analysis: fp64, int64, geometry and tessellation properties", "[compiler][analysis]") {
  ShaderInfo d =
      info_of("VERT\nDCL TEMP[0..1]\n  0: DADD TEMP[0].xy, TEMP[0], TEMP[1]\n  1: END\n");
  CHECK(d.uses_fp64);
  CHECK_FALSE(d.uses_int64);
  ShaderInfo i =
      info_of("VERT\nDCL TEMP[0..1]\n  0: U64ADD TEMP[0].xy, TEMP[0], TEMP[1]\n  1: END\n");
  CHECK(i.uses_int64);
  CHECK_FALSE(i.uses_fp64);
  CHECK(info_of("VERT\nIMM[0] FLT64 {1.0}\n  0: END\n").uses_fp64);

  ShaderInfo gs = seed("0757.tgsi");
  CHECK(gs.props.gs_input_prim == PrimType::TRIANGLES);
  CHECK(gs.props.gs_input_vertices == 3);
  CHECK(gs.props.gs_output_prim == PrimType::TRIANGLE_STRIP);
  CHECK(gs.props.gs_max_output_vertices == 3);
  CHECK(gs.props.gs_invocations == 1);

  ShaderInfo tcs = seed("1072.tgsi");
  CHECK(tcs.props.tcs_vertices_out == 2);
  REQUIRE(tcs.outputs.size() == 1);
  CHECK(tcs.outputs[0].semantic == Semantic::TESSOUTER);
  CHECK_FALSE(tcs.outputs[0].per_vertex);
  CHECK(tcs.outputs[0].written_mask == 0x3);
}

TEST_CASE("analysis: clip and cull distance counts", "[compiler][analysis]") {
  ShaderInfo prop = seed("1502.tgsi");
  CHECK(prop.props.num_cull_distances >= 1);
  ShaderInfo derived = info_of(
      "VERT\nDCL OUT[0], POSITION\nDCL OUT[1], CLIPDIST\nDCL OUT[2].xy, CLIPDIST[1]\n  0: END\n");
  CHECK(derived.props.num_clip_distances == 6);
  ShaderInfo explicit_count = info_of(
      "VERT\nPROPERTY NUM_CLIPDIST_ENABLED 3\nDCL OUT[0], POSITION\nDCL OUT[1], CLIPDIST\n  0: "
      "END\n");
  CHECK(explicit_count.props.num_clip_distances == 3);
}

TEST_CASE("analysis: the tgsi.md §17 seeds", "[compiler][analysis]") {
  // Indirect TEMP array.
  ShaderInfo a = seed("0545.tgsi");
  CHECK(a.indirect_files & (1u << unsigned(RegFile::TEMP)));
  CHECK(a.arrays.at(0).indirect);
  // Atomic counters: DCL HWATOMIC[0][0] + DCL HWATOMIC[0][1] merge into one range.
  ShaderInfo atomics = seed("1375.tgsi");
  REQUIRE(atomics.hw_atomics.size() == 1);
  CHECK(atomics.hw_atomics[0].first == 0);
  CHECK(atomics.hw_atomics[0].last == 1);
  CHECK(atomics.hw_atomics[0].use.atomic);
  // Sampler array indexed indirectly: every sampler counts as used.
  ShaderInfo samplers = seed("0985.tgsi");
  CHECK(samplers.indirect_files & (1u << unsigned(RegFile::SAMP)));
  for (const SamplerInfo& s : samplers.samplers)
    CHECK(s.used);
  // interpolateAtSample and per-sample inputs.
  CHECK(seed("0934.tgsi").uses_interp_at);
  CHECK(seed("1023.tgsi").per_sample_shading);
  // FACE input, two-sided colour output, KILL, fine derivatives, clock, TG4 offsets.
  CHECK(seed("0138.tgsi").find_input(Semantic::FACE, 0) != nullptr);
  CHECK(seed("2905.tgsi").find_output(Semantic::BCOLOR, 0) != nullptr);
  CHECK(seed("0122.tgsi").uses_kill);
  CHECK(seed("1545.tgsi").uses_derivatives);
  CHECK(seed("1596.tgsi").uses_clock);
  CHECK(seed("3252.tgsi").uses_tex_offsets);
  // Doubles and UBOs.
  CHECK(seed("2645.tgsi").uses_fp64);
  CHECK(seed("0684.tgsi").const_buffers.size() >= 1);
  // Images: loads / stores with formats.
  bool image_used = false;
  for (const ImageInfo& im : seed("3359.tgsi").images)
    image_used |= im.use.any();
  CHECK(image_used);
  // Geometry shader emission and streams.
  CHECK(seed("0750.tgsi").props.separable_program);
}

TEST_CASE("analysis: never fails on shaders that did not validate", "[compiler][analysis]") {
  // Undeclared and out-of-range registers are ignored, not looked up out of bounds.
  Shader s = parse_ok(
      "FRAG\nDCL IN[2], GENERIC[0]\nMOV OUT[9], IN[ADDR[3].x+100]\nMOV OUT[9], IN[ADDR[3].x](7)\n"
      "TEX TEMP[0], IN[31000], SAMP[ADDR[0].x], 2D\nLOAD TEMP[0], IMAGE[5], CONST[3][9]\n"
      "ATOMUADD TEMP[0], HWATOMIC[ADDR[0].x][4], IN[0], IN[0]\nEND\n");
  ShaderInfo info = analyze(s);
  CHECK(info.inputs.size() == 1);
  CHECK(info.inputs[0].read_mask == kMaskXYZW);  // the indirect read may reach it
  CHECK(info.outputs.empty());
  // A constructed IR with a range beyond the limits is skipped.
  Shader big;
  Declaration d;
  d.file = RegFile::IN;
  d.first = 0;
  d.last = 0xffffffffu;
  big.declarations.push_back(d);
  CHECK(analyze(big).inputs.empty());
}
