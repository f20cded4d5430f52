// The emitter's interface without a device: the kernel parameter list (kinds, order,
// names), the prelude a pass template reads, errors with line:column, and the shape of
// generated control flow.
#include <catch2/catch.hpp>

#include "compiler/emit/compile.h"

using namespace clpipe;
using namespace clpipe::compiler;

namespace {

bool has_line(const std::string& text, const std::string& line) {
  return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

SourceLoc error_loc(const std::string& text, const EmitOptions& options = {}) {
  try {
    compile_tgsi(text, options);
  } catch (const CompileError& e) {
    return e.diagnostics().at(0).loc;
  }
  FAIL("no CompileError for:\n" << text);
  return {};
}

}  // namespace

TEST_CASE("emit api: resource parameters in a fixed order a host can bind", "[emit][api]") {
  const CompiledShader c = compile_tgsi(R"(COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SAMP[2]
DCL SVIEW[2], 2D, FLOAT
DCL SVIEW[0], 2D, UINT
DCL IMAGE[1], 2D, PIPE_FORMAT_R32_UINT, WR
DCL BUFFER[3]
DCL CONST[1][0..1]
DCL CONST[0]
DCL HWATOMIC[2][0]
DCL MEMORY[0], SHARED
DCL TEMP[0]
IMM[0] UINT32 {0, 0, 0, 0}
  0: TEX TEMP[0], IMM[0], SAMP[2], 2D
  1: SAMPLE_I TEMP[0], IMM[0], SVIEW[0]
  2: STORE IMAGE[1], IMM[0], TEMP[0], 2D
  3: STORE BUFFER[3].x, IMM[0], CONST[1][1]
  4: ATOMUADD TEMP[0].x, HWATOMIC[2][0], IMM[0], CONST[0]
  5: STORE MEMORY[0].x, IMM[0], TEMP[0]
  6: END
)",
                                        EmitOptions{true, true, 65536, 1024});
  std::vector<std::string> got;
  for (const ResourceParam& p : c.code.params) {
    got.push_back(std::string(param_kind_name(p.kind)) + ":" + std::to_string(p.index) + ":" +
                  p.name);
  }
  const std::vector<std::string> want = {"resource-info:0:clp_ri",
                                         "const-buffer:0:clp_cb0",
                                         "const-buffer:1:clp_cb1",
                                         "shader-buffer:3:clp_sb3",
                                         "hw-atomic-buffer:2:clp_ha2",
                                         "sampler-views:3:clp_views",
                                         "samplers:3:clp_samplers",
                                         "texture:0:clp_tx0",
                                         "texture:2:clp_tx2",
                                         "image-views:2:clp_images",
                                         "image:1:clp_im1",
                                         "shared-memory:0:clp_shared"};
  CHECK(got == want);
  CHECK(c.code.params.back().bytes == 1024);
  CHECK(c.code.params.back().decl == "local uint* clp_shared");
  CHECK(c.code.lanes == 1);
  const std::string& p = c.code.prelude;
  CHECK(has_line(p, "#define CLP_STAGE_COMPUTE 1"));
  CHECK(has_line(p, "#define CLP_LANES 1"));
  CHECK(has_line(p, "#define CLP_CS_BLOCK_X 4"));
  CHECK(has_line(p,
                 "#define CLP_RESOURCE_ARGS , clp_ri, clp_cb0, clp_cb1, clp_sb3, clp_ha2, "
                 "clp_views, clp_samplers, clp_tx0, clp_tx2, clp_images, clp_im1, clp_shared"));
  // Shared memory beyond the device's local memory is refused.
  CHECK(error_loc("COMP\nDCL MEMORY[0], SHARED\nDCL TEMP[0]\n  0: LOAD TEMP[0].x, MEMORY[0], "
                  "TEMP[0].xxxx\n  1: END\n",
                  EmitOptions{true, true, 1024, 4096})
            .line == 2);
}

TEST_CASE("emit api: fragment prelude facts", "[emit][api]") {
  const CompiledShader c = compile_tgsi(R"(FRAG
PROPERTY FS_COORD_ORIGIN LOWER_LEFT
PROPERTY FS_COORD_PIXEL_CENTER INTEGER
PROPERTY FS_EARLY_DEPTH_STENCIL 1
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR[2]
DCL OUT[1], POSITION
DCL OUT[2], STENCIL
DCL OUT[3], SAMPLEMASK
DCL BUFFER[0]
IMM[0] UINT32 {0, 0, 0, 0}
  0: MOV OUT[0], IN[0]
  1: STORE BUFFER[0].x, IMM[0], IN[0]
  2: END
)");
  const std::string& p = c.code.prelude;
  CHECK(has_line(p, "#define CLP_STAGE_FRAGMENT 1"));
  CHECK(has_line(p, "#define CLP_LANES 4"));
  CHECK(has_line(p, "#define CLP_NUM_INPUTS 1"));
  CHECK(has_line(p, "#define CLP_NUM_OUTPUTS 4"));
  CHECK(has_line(p, "#define CLP_FS_COLOR_REG_0 -1"));
  CHECK(has_line(p, "#define CLP_FS_COLOR_REG_2 0"));
  CHECK(has_line(p, "#define CLP_FS_DEPTH_REG 1"));
  CHECK(has_line(p, "#define CLP_FS_STENCIL_REG 2"));
  CHECK(has_line(p, "#define CLP_FS_SAMPLEMASK_REG 3"));
  CHECK(has_line(p, "#define CLP_FS_EARLY_DEPTH 1"));
  CHECK(has_line(p, "#define CLP_FS_USES_KILL 0"));
  // gl_FragCoord's conventions are raster state (CLP_RAST_FS_COORD_*), not program.
  CHECK(p.find("CLP_FS_COORD") == std::string::npos);
  CHECK(has_line(p, "#define CLP_FS_HAS_SIDE_EFFECTS 1"));
  // Its only input is the position, which is not interpolated from the vertices.
  CHECK(has_line(p, "#define CLP_FS_INTERP_MODES 0"));
  // The input is read once, at the start, through the hook (POSITION = 0, LINEAR = 1).
  CHECK(c.code.body.find("io->in[0][0] = clp_fs_input(stage, 0, 0, 0, 0, 1, 0);") !=
        std::string::npos);
}

TEST_CASE("emit api: whether a fragment shader reads other lanes of its quads", "[emit][api]") {
  // The tile pass runs helper lanes only for shaders that read them (tile.cl's
  // CLP_FS_READS_QUADS): derivatives, implicit LOD, interpolation at an offset.
  const char* head =
      "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
      "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\n";
  const std::pair<const char*, const char*> cases[] = {
      {"  0: MOV OUT[0], IN[0]\n", "0"},
      {"  0: F2I TEMP[0], IN[0]\n  1: TXF OUT[0], TEMP[0], SAMP[0], 2D\n", "0"},
      {"  0: DDX OUT[0], IN[0]\n", "1"},
      {"  0: DDY_FINE OUT[0], IN[0]\n", "1"},
      {"  0: TEX OUT[0], IN[0], SAMP[0], 2D\n", "1"},
      {"  0: INTERP_OFFSET OUT[0], IN[0], IN[0]\n", "1"},
  };
  for (const auto& [body, reads] : cases) {
    INFO(body);
    const CompiledShader c = compile_tgsi(std::string(head) + body + "  9: END\n");
    CHECK(has_line(c.code.prelude, std::string("#define CLP_FS_READS_QUADS ") + reads));
  }
}

TEST_CASE("emit api: the interpolate modes of the FS inputs", "[emit][api]") {
  // Bits CONSTANT 1, LINEAR 2, PERSPECTIVE 4, COLOR 8, of the inputs interpolated from
  // the vertices: not the position, the face or the sprite coordinate.
  const CompiledShader a = compile_tgsi(R"(FRAG
DCL IN[0], POSITION, LINEAR
DCL IN[1], GENERIC[0], PERSPECTIVE
DCL IN[2], COLOR, COLOR
DCL IN[3], FACE, CONSTANT
DCL OUT[0], COLOR
  0: ADD OUT[0], IN[1], IN[2]
  1: END
)");
  CHECK(has_line(a.code.prelude, "#define CLP_FS_INTERP_MODES 12"));
  const CompiledShader b = compile_tgsi(R"(FRAG
DCL IN[0], GENERIC[0], LINEAR
DCL IN[1], GENERIC[1], CONSTANT
DCL IN[2], PCOORD, PERSPECTIVE
DCL OUT[0], COLOR
  0: ADD OUT[0], IN[0], IN[1]
  1: ADD OUT[0], OUT[0], IN[2]
  2: END
)");
  CHECK(has_line(b.code.prelude, "#define CLP_FS_INTERP_MODES 3"));
}

TEST_CASE("emit api: untranslatable shaders fail at the instruction", "[emit][api]") {
  CHECK(error_loc("FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\n  0: FBFETCH TEMP[0], OUT[0]\n  1: END\n")
            .line == 4);
  CHECK(
      error_loc("VERT\nDCL OUT[0], POSITION\nDCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT\nDCL TEMP[0]\n"
                "  0: IMG2HND TEMP[0].xy, IMAGE[0]\n  1: END\n")
          .line == 5);
  SourceLoc l = error_loc(
      "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n  1: F2D OUT[0], IN[0]\n  2: "
      "END\n",
      EmitOptions{false, true, 0, 0});
  CHECK(l.line == 5);
  CHECK(l.column == 6);
  // Parse and validation errors come through compile_tgsi as well.
  CHECK(error_loc("VERT\nDCL OUT[0], POSITION\n  0: MOV OUT[0], TEMP[7]\n  1: END\n").line == 3);
}

TEST_CASE("emit api: masked control flow and top-level writes", "[emit][api]") {
  const CompiledShader c = compile_tgsi(R"(VERT
DCL IN[0]
DCL OUT[0], POSITION
DCL TEMP[0]
  0: MOV TEMP[0], IN[0]
  1: UIF IN[0].xxxx :3
  2:   MOV TEMP[0].x, IN[0].yyyy
  3: ENDIF
  4: MOV OUT[0], TEMP[0]
  5: END
)");
  const std::string& b = c.code.body;
  CHECK(b.find("t0_0 = r0_0;") != std::string::npos);                   // top level: plain
  CHECK(b.find("t0_0 = select(t0_0, r0_0, m);") != std::string::npos);  // inside UIF: masked
  CHECK(b.find("if (CLP_ANY(m)) {") != std::string::npos);              // skipped when idle
}

TEST_CASE("fragment shaders take the lanes of the options and other stages keep theirs",
          "[compiler][emit][api]") {
  const char* fs =
      "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
      "  0: DDX OUT[0], IN[0]\n  1: END\n";
  const char* vs = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n  1: END\n";
  for (uint32_t lanes : {4u, 8u, 16u}) {
    EmitOptions o;
    o.fragment_lanes = lanes;
    const CompiledShader f = compile_tgsi(fs, o);
    CHECK(f.code.lanes == lanes);
    CHECK(has_line(f.code.prelude, "#define CLP_LANES " + std::to_string(lanes)));
    CHECK(compile_tgsi(vs, o).code.lanes == 4);
  }
  // One lane: a pixel per work-item, but a shader that reads the other pixels of its quad
  // gets whole quads.
  EmitOptions one;
  one.fragment_lanes = 1;
  const std::pair<const char*, uint32_t> cases[] = {
      {"  0: DDX OUT[0], IN[0]\n", 4},                        // derivatives
      {"  0: DDY_FINE OUT[0], IN[0]\n", 4},                   //
      {"  0: TEX OUT[0], IN[0], SAMP[0], 2D\n", 4},           // implicit LOD
      {"  0: TXB OUT[0], IN[0], SAMP[0], 2D\n", 4},           //
      {"  0: INTERP_OFFSET OUT[0], IN[0], IN[0].xyyy\n", 4},  // the harness's offset
      {"  0: MOV OUT[0], IN[0]\n", 1},                        // reads no other pixel
      {"  0: TXL OUT[0], IN[0], SAMP[0], 2D\n", 1}};          // explicit LOD
  for (const auto& [body, lanes] : cases) {
    INFO(body);
    const std::string text =
        std::string(
            "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n"
            "DCL SVIEW[0], 2D, FLOAT\n") +
        body + "  1: END\n";
    const CompiledShader f = compile_tgsi(text, one);
    CHECK(f.code.lanes == lanes);
    CHECK(f.code.reads_quads == (lanes == 4));
    CHECK(has_line(f.code.prelude, "#define CLP_LANES " + std::to_string(lanes)));
  }
  for (uint32_t bad : {0u, 2u, 32u}) {
    EmitOptions o;
    o.fragment_lanes = bad;
    CHECK_THROWS_WITH(compile_tgsi(fs, o), Catch::Contains("fragment_lanes"));
  }
  EmitOptions whole;
  whole.fragment_lanes = 1;
  whole.fragment_whole_tile = true;
  CHECK_THROWS_WITH(compile_tgsi(fs, whole), Catch::Contains("fragment_whole_tile"));
}

TEST_CASE("emit api: each constant word is loaded once in the prologue", "[emit][api]") {
  // 400 reads of 3 words of buffer 0 (CONST[1].x and .w, CONST[0].y, also under a branch).
  std::string t =
      "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\nDCL CONST[0..1]\n"
      "DCL TEMP[0]\n  0: MOV TEMP[0], IN[0]\n";
  int n = 1;
  for (int i = 0; i < 100; ++i) {
    t += "  " + std::to_string(n++) + ": MAD TEMP[0], TEMP[0], CONST[1].xwxw, CONST[0].yyyy\n";
  }
  t += "  " + std::to_string(n) + ": UIF TEMP[0].xxxx :" + std::to_string(n + 2) + "\n";
  t += "  " + std::to_string(n + 1) + ": ADD TEMP[0], TEMP[0], CONST[0].yyyy\n";
  t += "  " + std::to_string(n + 2) + ": ENDIF\n";
  t += "  " + std::to_string(n + 3) + ": MOV OUT[0], TEMP[0]\n";
  t += "  " + std::to_string(n + 4) + ": END\n";
  const std::string b = compile_tgsi(t).code.body;
  size_t loads = 0;
  for (size_t at = b.find("clp_cb_load("); at != std::string::npos;
       at = b.find("clp_cb_load(", at + 1))
    ++loads;
  CHECK(loads == 3);
  // The loads precede the first instruction's code.
  CHECK(b.rfind("clp_cb_load(") < b.find("cbw0, "));
  CHECK(b.find("clp_cb_load(clp_cb0, cbsz0, 4)") != std::string::npos);
  CHECK(b.find("clp_cb_load(clp_cb0, cbsz0, 7)") != std::string::npos);
  CHECK(b.find("clp_cb_load(clp_cb0, cbsz0, 1)") != std::string::npos);
}

TEST_CASE("emit api: sampling calls are counted, one per unit an index may name",
          "[emit][api][tex]") {
  // TEX and SAMPLE each call CLP_TEX_SAMPLE once per candidate unit; TXF and TXQ do not
  // sample (tile variants compile in the state of shaders with few calls).
  const char* fs =
      "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0..3]\n"
      "DCL SVIEW[0..3], 2D, FLOAT\nDCL ADDR[0]\nDCL TEMP[0]\n"
      "  0: TEX TEMP[0], IN[0], SAMP[0], 2D\n"
      "  1: SAMPLE TEMP[0], IN[0], SVIEW[1], SAMP[1]\n"
      "  2: UARL ADDR[0].x, IN[0].xxxx\n"
      "  3: TEX TEMP[0], IN[0], SAMP[ADDR[0].x+1], 2D\n"
      "  4: TXF TEMP[0], IN[0], SAMP[0], 2D\n"
      "  5: TXQ TEMP[0], IN[0], SAMP[0], 2D\n"
      "  6: MOV OUT[0], TEMP[0]\n  7: END\n";
  const CompiledShader f = compile_tgsi(fs, EmitOptions());
  // 1 + 1 + every declared unit, which SAMP[ADDR+1] may name.
  CHECK(f.code.sample_calls == 6);
  CHECK(compile_tgsi("FRAG\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IMM[0]\n  1: END\n"
                     "IMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}\n",
                     EmitOptions())
            .code.sample_calls == 0);
}
