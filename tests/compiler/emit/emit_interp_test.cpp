// The interpreter (compiler::emit_interpreted, kernels/shader_interp.h) against the
// compiled code: the same shader, inputs, constants and lane masks through both, every
// output word and exec mask bit for bit. Inputs mix ordinary values with the special
// ones (zeros of both signs, infinities, NaN, integers), so that NaN, sign and integer
// edge cases of every interpreted opcode are compared too.
#include <catch2/catch.hpp>

#include <set>

#include "clpipe/format.h"
#include "compiler/emit/harness.h"
#include "compiler/emit/sampling_util.h"
#include "compiler/tgsi/parser.h"
#include "compiler/tgsi_test_util.h"
#include "compiler/validate.h"
#include "kernels/shader_interp_abi.h"

using namespace clpipe;
using namespace clpipe::compiler;
using namespace clpipe::test::emit;
using clpipe::Format;

namespace {

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint32_t value(uint64_t& seed) {
  const uint64_t r = splitmix(seed);
  switch (r % 8) {
    case 0: {
      static const float special[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1e30f, -1e-30f, 3.0f};
      return fbits(special[(r >> 8) % 8]);
    }
    case 1:
      return (r >> 8) % 3 == 0 ? 0x7fc00000u : (r >> 8) % 3 == 1 ? 0x7f800000u : 0xff800000u;
    case 2:
      return uint32_t(int32_t((r >> 8) % 41) - 20);  // small integers
    case 3:
      return uint32_t(r >> 16);  // any bits
    default:
      return fbits(float(int64_t((r >> 8) % 20001) - 10000) / 1000.0f);
  }
}

// Runs `tgsi` compiled and interpreted on the same random inputs and requires the same
// bits. `count` invocations; some lanes start outside the exec mask.
void compare(const std::string& tgsi, uint64_t seed, uint32_t count = 32,
             const std::map<uint32_t, TextureBinding>& textures = {}) {
  INFO(tgsi);
  const CompiledShader c = compile_tgsi(tgsi);
  HarnessInput in;
  in.tgsi = tgsi;
  in.textures = textures;
  in.count = count;
  const uint32_t nin = std::max<uint32_t>(c.info.num_inputs, 1);
  for (size_t i = 0; i < size_t(count) * nin * 4; ++i)
    in.in.push_back(value(seed));
  for (size_t i = 0; i < size_t(count) * 64 * 4; ++i)
    in.sv.push_back(uint32_t(splitmix(seed) % 7));
  for (const ConstBufferInfo& cb : c.info.const_buffers) {
    std::vector<uint32_t> words;
    for (uint32_t i = 0; i < 4 * 64; ++i)
      words.push_back(value(seed));
    in.const_buffers[cb.index] = words;
  }
  for (uint32_t i = 0; i < count; ++i)
    in.exec.push_back(i % 7 == 3 ? 0 : -1);
  const HarnessResult compiled = run_shader(in);
  in.interpret = true;
  const HarnessResult interpreted = run_shader(in);
  REQUIRE(interpreted.compiled.code.interp_code.size() > 0);
  REQUIRE(interpreted.out.size() == compiled.out.size());
  // NaNs compare as NaNs: which operand's payload a NaN result carries depends on the
  // operand order the code generator picks for an instruction (x86 keeps the first NaN
  // source), which neither OpenCL nor GL define.
  auto nan = [](uint32_t w) { return (w & 0x7f800000u) == 0x7f800000u && (w & 0x7fffffu); };
  for (size_t i = 0; i < compiled.out.size(); ++i) {
    INFO("invocation " << i / (compiled.num_outputs * 4) << " word " << i);
    if (nan(interpreted.out[i]) && nan(compiled.out[i])) continue;
    REQUIRE(interpreted.out[i] == compiled.out[i]);
  }
  REQUIRE(interpreted.exec == compiled.exec);
}

bool interpreted(const std::string& tgsi) {
  const CompiledShader c = compile_tgsi(tgsi);
  try {
    (void)emit_interpreted(c.ir, c.info, EmitOptions{});
    return true;
  } catch (const CompileError&) {
    return false;
  }
}

// One instruction of `op` writing TEMP[k] from IN registers with the given modifiers,
// under a write mask of some channels half of the time (the interpreter loads only the
// written channels of a channel-wise opcode's sources).
std::string instruction(Opcode op, unsigned k, uint64_t& seed) {
  const OpcodeInfo& info = opcode_info(op);
  std::string t = std::string(info.name);
  if (info.dst[0] == OperandType::F32 && splitmix(seed) % 3 == 0) t += "_SAT";
  t += " TEMP[" + std::to_string(k) + "]";
  static const char* masks[] = {".x", ".y", ".zw", ".xzw", ".yz", ".w"};
  if (const uint64_t r = splitmix(seed); r % 2 == 0) t += masks[(r >> 8) % 6];
  static const char* swz[] = {".xyzw", ".yzwx", ".zzxy", ".wxyx"};
  for (unsigned s = 0; s < info.num_src; ++s) {
    const uint64_t r = splitmix(seed);
    std::string reg = "IN[" + std::to_string((k + s) % 4) + "]" + swz[r % 4];
    if (info.src[s] == OperandType::F32 && (r >> 8) % 4 == 0) reg = "|" + reg + "|";
    if ((r >> 16) % 4 == 0) reg = "-" + reg;
    t += ", " + reg;
  }
  return t;
}

std::string in_decl(const char* stage) {
  return stage[0] == 'F' ? "\nDCL IN[0..3], GENERIC[0], PERSPECTIVE\n" : "\nDCL IN[0..3]\n";
}

}  // namespace

TEST_CASE("interpreter: every interpreted opcode gives the compiled code's bits", "[interp]") {
  // The opcodes the interpreter takes, found through emit_interpreted itself.
  for (const char* stage : {"FRAG", "VERT"}) {
    std::vector<Opcode> ops;
    for (unsigned o = 0; o < kOpcodeCount; ++o) {
      const Opcode op = Opcode(o);
      if (!opcode_is_valid(op)) continue;
      const OpcodeInfo& info = opcode_info(op);
      if (info.cf != CfRole::NONE || info.num_dst != 1 || info.is_tex || opcode_is_memory(op))
        continue;
      uint64_t seed = o;
      const std::string text = std::string(stage) + in_decl(stage) + "DCL OUT[0], " +
                               (stage[0] == 'F' ? "COLOR" : "GENERIC[0]") +
                               "\nDCL TEMP[0]\n  0: " + instruction(op, 0, seed) +
                               "\n  1: MOV OUT[0], TEMP[0]\n  2: END\n";
      bool ok = false;
      try {
        ok = interpreted(text);
      } catch (const CompileError&) {
        ok = false;  // not valid in this stage
      }
      if (ok) ops.push_back(op);
    }
    std::set<std::string> names;
    for (Opcode op : ops)
      names.insert(opcode_info(op).name);
    for (const char* core : {"MOV", "ADD", "MAD", "DP4", "RSQ", "SIN", "POW", "FSLT", "I2F", "F2U",
                             "UDIV", "IMUL_HI", "UCMP", "SHL", "ISHR", "BFI", "LIT", "FRC"}) {
      INFO(core);
      REQUIRE(names.count(core) == 1);
    }
    CHECK((names.count("DDX") == 1) == (stage[0] == 'F'));
    // Groups of opcodes per shader (8: the colour outputs), each result in an output of
    // its own.
    const size_t group = stage[0] == 'F' ? 8 : 12;
    for (size_t g = 0; g < ops.size(); g += group) {
      uint64_t seed = 7 + g;
      const size_t n = std::min<size_t>(group, ops.size() - g);
      std::string text = std::string(stage) + in_decl(stage);
      for (size_t k = 0; k < n; ++k) {
        text += "DCL OUT[" + std::to_string(k) + "], " + (stage[0] == 'F' ? "COLOR[" : "GENERIC[") +
                std::to_string(k) + "]\n";
      }
      text += "DCL TEMP[0.." + std::to_string(n - 1) + "]\n";
      unsigned line = 0;
      for (size_t k = 0; k < n; ++k) {
        text += "  " + std::to_string(line++) + ": " + instruction(ops[g + k], unsigned(k), seed) +
                "\n";
      }
      for (size_t k = 0; k < n; ++k) {
        static const char* masks[] = {"", ".x", ".yw", ".xyz"};
        text += "  " + std::to_string(line++) + ": MOV OUT[" + std::to_string(k) + "]" +
                masks[k % 4] + ", TEMP[" + std::to_string(k) + "]\n";
      }
      text += "  " + std::to_string(line) + ": END\n";
      compare(text, g);
    }
  }
}

TEST_CASE("interpreter: control flow, kill and early return keep the compiled masks", "[interp]") {
  // Divergent IF / ELSE nested in a loop with BRK and CONT, UIF, a derivative after
  // divergence, KILL_IF, a RET inside an IF (writes at the top level merge then), and
  // constants and immediates.
  const std::string fs = R"(FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL IN[1], GENERIC[1], PERSPECTIVE
DCL OUT[0], COLOR
DCL OUT[1], COLOR[1]
DCL CONST[0][0..3]
DCL TEMP[0..5]
IMM[0] FLT32 {0.0000, 1.0000, 0.5000, 3.0000}
IMM[1] INT32 {0, 1, 5, 2}
  0: MOV TEMP[0], IN[0]
  1: MOV TEMP[1].x, IMM[1].xxxx
  2: MOV TEMP[2], IMM[0].xxxx
  3: BGNLOOP
  4:   ISGE TEMP[3].x, TEMP[1].xxxx, IMM[1].zzzz
  5:   UIF TEMP[3].xxxx
  6:     BRK
  7:   ENDIF
  8:   UADD TEMP[1].x, TEMP[1].xxxx, IMM[1].yyyy
  9:   FSLT TEMP[3].y, TEMP[0].xxxx, CONST[0][1].xxxx
 10:   UIF TEMP[3].yyyy
 11:     ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].zzzz
 12:     CONT
 13:   ELSE
 14:     MUL TEMP[0].xy, TEMP[0].xyyy, -IN[1].xyyy
 15:     IF TEMP[0].yyyy
 16:       ADD TEMP[2], TEMP[2], CONST[0][2]
 17:     ELSE
 18:       ADD TEMP[2], TEMP[2], -|IN[1]|
 19:     ENDIF
 20:   ENDIF
 21: ENDLOOP
 22: DDX TEMP[4], TEMP[2]
 23: DDY TEMP[5], TEMP[0]
 24: KILL_IF -TEMP[0].zwzw
 25: MOV OUT[1], TEMP[4]
 26: ADD TEMP[5], TEMP[5], CONST[0][3]
 27: IF IN[1].zzzz
 28:   MOV OUT[0], TEMP[5]
 29:   RET
 30: ENDIF
 31: MOV OUT[0], TEMP[2]
 32: MAD_SAT OUT[0].w, TEMP[0].xxxx, TEMP[1].xxxx, TEMP[4].wwww
 33: END
)";
  for (uint64_t seed : {1u, 2u, 3u})
    compare(fs, seed, 64);
  const std::string vs = R"(VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL SV[0], VERTEXID
DCL CONST[0][0..1]
DCL TEMP[0..2]
IMM[0] INT32 {0, 1, 3, 7}
  0: MOV TEMP[0].x, SV[0].xxxx
  1: AND TEMP[0].y, TEMP[0].xxxx, IMM[0].zzzz
  2: USEQ TEMP[0].z, TEMP[0].yyyy, IMM[0].yyyy
  3: UIF TEMP[0].zzzz
  4:   MUL TEMP[1], IN[0], CONST[0][0]
  5: ELSE
  6:   DP4 TEMP[1].x, IN[0], IN[1]
  7:   MOV TEMP[1].yzw, -IN[1].wzyx
  8: ENDIF
  9: MOV OUT[0], TEMP[1]
 10: I2F OUT[1], TEMP[0]
 11: END
)";
  compare(vs, 4);
}

TEST_CASE("interpreter: indirect addressing keeps the compiled code's bounds", "[interp]") {
  // ARL / UARL / ARR, CONST, IN, OUT and TEMP (an ARRAY, and the whole file) read and
  // written through address registers; the random inputs put many indices out of range.
  const std::string vs = R"(VERT
DCL IN[0..2]
DCL OUT[0], POSITION
DCL OUT[1..3], GENERIC[0]
DCL CONST[0][0..7]
DCL TEMP[0..1]
DCL TEMP[2..5], ARRAY(1)
DCL ADDR[0..1]
IMM[0] INT32 {0, 1, 2, 3}
  0: ARL ADDR[0], IN[0]
  1: UARL ADDR[1].xy, IN[1]
  2: ARR ADDR[1].zw, IN[2]
  3: MOV TEMP[0], CONST[0][ADDR[0].x+1]
  4: ADD TEMP[0], TEMP[0], CONST[0][ADDR[1].y-2].wzyx
  5: MOV TEMP[2], IN[1]
  6: MOV TEMP[3], IN[2]
  7: MOV TEMP[ADDR[1].x+2](1), TEMP[0]
  8: MOV TEMP[1], TEMP[ADDR[0].y+3](1)
  9: ADD TEMP[1], TEMP[1], IN[ADDR[1].z]
 10: UIF IN[0].xxxx
 11:   MOV OUT[ADDR[0].z+1].xy, TEMP[1]
 12:   MOV TEMP[ADDR[0].w+4](1).zw, -TEMP[0]
 13: ENDIF
 14: MOV OUT[0], TEMP[0]
 15: MOV OUT[1].zw, TEMP[4]
 16: MOV OUT[2], OUT[ADDR[1].w]
 17: MOV OUT[3], TEMP[5]
 18: END
)";
  for (uint64_t seed : {5u, 6u, 7u})
    compare(vs, seed, 32);
  // Indirect TEMP without an ARRAY: the whole file is the bound.
  const std::string fs = R"(FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0..3]
DCL ADDR[0]
  0: MOV TEMP[0], IN[0]
  1: MOV TEMP[1], -IN[0].wzyx
  2: UARL ADDR[0].x, IN[0].yyyy
  3: MOV TEMP[ADDR[0].x], IN[0].zzzz
  4: ADD OUT[0], TEMP[ADDR[0].x+1], TEMP[1]
  5: END
)";
  compare(fs, 8, 32);
}

namespace {

// An 8x8 2D texture with 4 levels of random texels (sampling_util.h): RGBA32F, or
// (`depth`) Z32F depths compared LEQUAL. Linear filtering, repeat on s, mirrored on t.
TextureBinding filtered_texture(uint32_t seed, bool depth) {
  std::mt19937 rng(seed);
  clpipe::test::sampling::TexShape shape;
  shape.levels = 4;
  TextureBinding b = clpipe::test::sampling::random_texture(
      shape, depth ? Format::Z32_FLOAT : Format::R32G32B32A32_FLOAT, rng);
  b.sampler.wrap[0] = CLP_WRAP_REPEAT;
  b.sampler.wrap[1] = CLP_WRAP_MIRROR_REPEAT;
  b.sampler.min_img_filter = b.sampler.mag_img_filter = 1;
  b.sampler.min_mip_filter = CLP_MIP_LINEAR;
  if (depth) {
    b.sampler.compare_mode = 1;
    b.sampler.compare_func = 3;  // LEQUAL
  }
  return b;
}

}  // namespace

TEST_CASE("interpreter: texture instructions give the compiled code's bits", "[interp][tex]") {
  // Every call of the sampling library, operands from every slot of the plan (TXP's
  // divide of coordinates and reference, bias and LOD from src0 and src1, gradients,
  // gather components, integer fetch coordinates, an offset), source modifiers, write
  // masks, saturation, implicit gradients after divergence and a sample inside an IF.
  const std::string fs = R"(FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL IN[1], GENERIC[1], PERSPECTIVE
DCL OUT[0], COLOR
DCL OUT[1], COLOR[1]
DCL OUT[2], COLOR[2]
DCL OUT[3], COLOR[3]
DCL OUT[4], COLOR[4]
DCL OUT[5], COLOR[5]
DCL OUT[6], COLOR[6]
DCL OUT[7], COLOR[7]
DCL SAMP[0..2]
DCL SVIEW[0], 2D, FLOAT
DCL SVIEW[1], 2D, FLOAT
DCL SVIEW[2], 2D, FLOAT
DCL TEMP[0..3]
IMM[0] FLT32 {0.5000, 2.0000, -0.2500, 1.0000}
IMM[1] INT32 {1, -2, 0, 3}
  0: TXP OUT[0], IN[0], SAMP[0], 2D
  1: TXP_SAT OUT[1].xyw, IN[1], SAMP[1], SHADOW2D
  2: TEX_LZ OUT[2].xz, -IN[0], SAMP[2], 2D, IMM[1].xyz
  3: TXB2 TEMP[0], |IN[0]|, IN[1].wwww, SAMP[0], 2D
  4: TXD TEMP[1], IN[1], IN[0].wzyx, IMM[0].zxyw, SAMP[2], 2D
  5: ADD OUT[3], TEMP[0], TEMP[1]
  6: SAMPLE_C OUT[4], IN[0], SVIEW[1], SAMP[1], IN[1].zzzz
  7: FSLT TEMP[2].x, IN[1].xxxx, IMM[0].xxxx
  8: UIF TEMP[2].xxxx
  9:   SAMPLE_B TEMP[3], IN[1].yxzw, SVIEW[2], SAMP[0], IMM[0].zzzz
 10: ELSE
 11:   GATHER4 TEMP[3], IN[0], SVIEW[0], SAMP[2].yyyy
 12: ENDIF
 13: TXL TEMP[2], IN[1].xyzz, SAMP[0], 2D
 14: ADD OUT[5], TEMP[3], TEMP[2]
 15: LOD OUT[6].xy, IN[0], SVIEW[2], SAMP[2]
 16: F2I TEMP[0], IN[1]
 17: AND TEMP[0], TEMP[0], IMM[1].wwww
 18: TXF TEMP[1], TEMP[0], SAMP[0], 2D, IMM[1].xzz
 19: SAMPLE_I TEMP[2], TEMP[0].yxzw, SVIEW[2]
 20: TXQ TEMP[3], IMM[1].xxxx, SAMP[1], 2D
 21: MAD TEMP[1], TEMP[2], IMM[0].xxxx, TEMP[1]
 22: ADD OUT[7], TEMP[1], TEMP[3]
 23: END
)";
  REQUIRE(interpreted(fs));
  std::map<uint32_t, TextureBinding> textures = {{0, filtered_texture(1, false)},
                                                 {1, filtered_texture(2, true)},
                                                 {2, filtered_texture(3, false)}};
  compare(fs, 11, 32, textures);
  // The vertex stage: no quads, implicit LOD is level 0.
  const std::string vs = R"(VERT
DCL IN[0..1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], GENERIC[1]
DCL SAMP[0..1]
DCL SVIEW[0..1], 2D, FLOAT
IMM[0] FLT32 {1.5000, 0.0000, 0.0000, 0.0000}
  0: MOV OUT[0], IN[0]
  1: TXB OUT[1], IN[1], SAMP[0], 2D
  2: TEX OUT[2].yz, IN[0].wzyx, SAMP[1], SHADOW2D
  3: END
)";
  REQUIRE(interpreted(vs));
  textures.erase(2);
  compare(vs, 12, 32, textures);
}

TEST_CASE("interpreter: on 1 lane, a shader that reads its quad shades 2x2 as compiled",
          "[interp]") {
  auto lanes = [](const std::string& fs) {
    const CompiledShader c = compile_tgsi(fs);
    EmitOptions one;
    one.fragment_lanes = 1;
    const EmittedShader interp = emit_interpreted(c.ir, c.info, one);
    const EmittedShader compiled = emit_opencl(c.ir, c.info, one);
    CHECK(interp.lanes == compiled.lanes);
    return interp.lanes;
  };
  const std::string head =
      "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n"
      "DCL SVIEW[0], 2D, FLOAT\n";
  // Implicit LOD takes the quad's gradients; explicit LOD does not read the quad.
  CHECK(lanes(head + "  0: TEX OUT[0], IN[0], SAMP[0], 2D\n  1: END\n") == 4);
  CHECK(lanes(head + "  0: TXL OUT[0], IN[0], SAMP[0], 2D\n  1: END\n") == 1);
  CHECK(lanes(head + "  0: DDX OUT[0], IN[0]\n  1: END\n") == 4);
}

TEST_CASE("interpreter: shaders with the same prelude share one body", "[interp]") {
  auto body = [](const std::string& op) {
    const CompiledShader c = compile_tgsi(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL CONST[0][0]\n"
        "DCL TEMP[0]\n  0: " +
        op + " TEMP[0], IN[0], CONST[0][0]\n  1: MOV OUT[0], TEMP[0]\n  2: END\n");
    return emit_interpreted(c.ir, c.info, EmitOptions{});
  };
  const EmittedShader a = body("ADD"), b = body("MUL");
  REQUIRE(a.prelude == b.prelude);
  REQUIRE(a.body == b.body);
  REQUIRE(a.interp_code != b.interp_code);
  REQUIRE(a.params.back().kind == ParamKind::kInterpCode);
  // FS_COLOR0_WRITES_ALL_CBUFS reaches the tile pass as a rasterizer flag
  // (CLP_RAST_COLOR0_BROADCAST), not through the program: GLSL 1.10's gl_FragColor and
  // a declared output share one.
  const CompiledShader all = compile_tgsi(
      "FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\nDCL IN[0], GENERIC[0], PERSPECTIVE\n"
      "DCL OUT[0], COLOR\nDCL CONST[0][0]\nDCL TEMP[0]\n"
      "  0: ADD TEMP[0], IN[0], CONST[0][0]\n  1: MOV OUT[0], TEMP[0]\n  2: END\n");
  const EmittedShader c = emit_interpreted(all.ir, all.info, EmitOptions{});
  REQUIRE(c.prelude == a.prelude);
  REQUIRE(c.body == a.body);
  // So do gl_FragCoord's conventions (CLP_RAST_FS_COORD_*).
  const CompiledShader coord = compile_tgsi(
      "FRAG\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\nPROPERTY FS_COORD_PIXEL_CENTER INTEGER\n"
      "DCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL CONST[0][0]\nDCL TEMP[0]\n"
      "  0: ADD TEMP[0], IN[0], CONST[0][0]\n  1: MOV OUT[0], TEMP[0]\n  2: END\n");
  REQUIRE(coord.info.props.fs_coord_origin_lower_left);
  const EmittedShader d = emit_interpreted(coord.ir, coord.info, EmitOptions{});
  REQUIRE(d.prelude == a.prelude);
  REQUIRE(d.body == a.body);
  // Nor do which registers feed which colour buffers (the code's header says:
  // CLP_INTERP_H_COLOR), how many outputs up to 4, or how many temporaries up to the
  // class of 64 at 16 fragment lanes, 128 at 4.
  auto interp = [](const std::string& tgsi, uint32_t lanes) {
    const CompiledShader c = compile_tgsi(tgsi);
    EmitOptions opt;
    opt.fragment_lanes = lanes;
    return emit_interpreted(c.ir, c.info, opt);
  };
  const std::string mrt =
      "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR[2]\nDCL OUT[1], COLOR[0]\n"
      "DCL OUT[2], COLOR[1]\nDCL CONST[0][0]\nDCL TEMP[0..40]\n"
      "  0: ADD TEMP[40], IN[0], CONST[0][0]\n  1: MOV OUT[0], TEMP[40]\n"
      "  2: MOV OUT[1], IN[0]\n  3: MOV OUT[2], CONST[0][0]\n  4: END\n";
  for (uint32_t lanes : {4u, 16u}) {
    const EmittedShader one = interp(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL CONST[0][0]\n"
        "DCL TEMP[0]\n  0: ADD TEMP[0], IN[0], CONST[0][0]\n  1: MOV OUT[0], TEMP[0]\n"
        "  2: END\n",
        lanes);
    const EmittedShader three = interp(mrt, lanes);
    REQUIRE(three.prelude == one.prelude);
    REQUIRE(three.body == one.body);
    REQUIRE(three.interp_code[CLP_INTERP_H_COLOR] == (2u | 3u << 8 | 1u << 16));
    REQUIRE(one.interp_code[CLP_INTERP_H_COLOR] == 1u);
    REQUIRE(three.interp_code[CLP_INTERP_H_TEMPS] == 41u);
  }
  const EmittedShader vs2 = interp(
      "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL TEMP[0]\n  0: MOV TEMP[0], IN[0]\n"
      "  1: MOV OUT[0], TEMP[0]\n  2: END\n",
      16);
  const EmittedShader vs100 = interp(
      "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL TEMP[0..99]\n  0: MOV TEMP[99], IN[0]\n"
      "  1: MOV OUT[0], TEMP[99]\n  2: END\n",
      16);
  REQUIRE(vs100.prelude == vs2.prelude);
  REQUIRE(vs100.body == vs2.body);
}

TEST_CASE("interpreter: units, exports and geometry properties share one program", "[interp]") {
  auto interp = [](const std::string& tgsi) {
    const CompiledShader c = compile_tgsi(tgsi);
    EmitOptions opt;
    opt.fragment_lanes = 16;
    return emit_interpreted(c.ir, c.info, opt);
  };
  auto same_program = [](const EmittedShader& a, const EmittedShader& b) {
    REQUIRE(a.prelude == b.prelude);
    REQUIRE(a.body == b.body);
  };
  auto placeholders = [](const EmittedShader& e, ParamKind kind) {
    std::string s;
    for (const ResourceParam& p : e.params)
      if (p.kind == kind) s += p.placeholder ? '-' : 'x';
    return s;
  };
  // Fragment shaders: no constant buffer, CONST[2], discard, depth and stencil exports,
  // early depth. The tile pass reads the exports and the early-depth rule from the code's
  // header (CLP_INTERP_H_FS).
  const std::string head = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n";
  const EmittedShader plain = interp(head + "  0: MOV OUT[0], IN[0]\n  1: END\n");
  const EmittedShader ubo =
      interp(head + "DCL CONST[2][0]\n  0: ADD OUT[0], IN[0], CONST[2][0]\n  1: END\n");
  const EmittedShader kill =
      interp(head + "  0: KILL_IF IN[0].xxxx\n  1: MOV OUT[0], IN[0]\n  2: END\n");
  const EmittedShader exports =
      interp(head +
             "DCL OUT[1], STENCIL\nDCL OUT[2], POSITION\n  0: MOV OUT[0], IN[0]\n"
             "  1: MOV OUT[2].z, IN[0].yyyy\n  2: F2U OUT[1].y, IN[0].xxxx\n  3: END\n");
  const EmittedShader early = interp("FRAG\nPROPERTY FS_EARLY_DEPTH_STENCIL 1\n" + head.substr(5) +
                                     "  0: KILL_IF IN[0].xxxx\n"
                                     "  1: MOV OUT[0], IN[0]\n  2: END\n");
  for (const EmittedShader* e : {&ubo, &kill, &exports, &early})
    same_program(*e, plain);
  REQUIRE(placeholders(plain, ParamKind::kConstBuffer) == "----");
  REQUIRE(placeholders(ubo, ParamKind::kConstBuffer) == "--x-");
  REQUIRE(plain.interp_code[CLP_INTERP_H_FS] == CLP_INTERP_FS_EARLY_ALLOWED);
  REQUIRE(kill.interp_code[CLP_INTERP_H_FS] == 0u);
  REQUIRE(exports.interp_code[CLP_INTERP_H_FS] == (3u | 2u << 8));
  REQUIRE(early.interp_code[CLP_INTERP_H_FS] ==
          (CLP_INTERP_FS_EARLY_FORCED | CLP_INTERP_FS_EARLY_ALLOWED));
  // Texture units 0, 1 and 0 + 3: one program,
  // with placeholders where a shader names no unit.
  const std::string tex = head + "DCL TEMP[0]\n";
  const EmittedShader unit0 = interp(tex +
                                     "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n"
                                     "  0: TEX OUT[0], IN[0], SAMP[0], 2D\n  1: END\n");
  const EmittedShader unit1 = interp(tex +
                                     "DCL SAMP[1]\nDCL SVIEW[1], 2D, FLOAT\n"
                                     "  0: TEX OUT[0], IN[0], SAMP[1], 2D\n  1: END\n");
  const EmittedShader units03 =
      interp(tex +
             "DCL SAMP[0]\nDCL SAMP[3]\nDCL SVIEW[0], 2D, FLOAT\nDCL SVIEW[3], 2D, FLOAT\n"
             "  0: TEX TEMP[0], IN[0], SAMP[0], 2D\n"
             "  1: TXF OUT[0], IN[0], SAMP[3], 2D\n  2: ADD OUT[0], OUT[0], TEMP[0]\n"
             "  3: END\n");
  // Units up to a stage's 16 share it too: a shader of 5-16 units finds the program of
  // the warm-up's shaders, which name fewer.
  const EmittedShader units09 =
      interp(tex +
             "DCL SAMP[0]\nDCL SAMP[9]\nDCL SVIEW[0], 2D, FLOAT\nDCL SVIEW[9], 2D, FLOAT\n"
             "  0: TEX TEMP[0], IN[0], SAMP[0], 2D\n"
             "  1: TEX OUT[0], IN[0], SAMP[9], 2D\n  2: ADD OUT[0], OUT[0], TEMP[0]\n"
             "  3: END\n");
  same_program(unit1, unit0);
  same_program(units03, unit0);
  same_program(units09, unit0);
  REQUIRE(placeholders(unit0, ParamKind::kTexture) == "x---------------");
  REQUIRE(placeholders(unit1, ParamKind::kTexture) == "-x--------------");
  REQUIRE(placeholders(units03, ParamKind::kTexture) == "x--x------------");
  REQUIRE(placeholders(units09, ParamKind::kTexture) == "x--------x------");
  // The descriptor arrays keep the shader's own counts: the host fills those entries.
  for (const ResourceParam& p : unit1.params) {
    if (p.kind == ParamKind::kSamplerViews) REQUIRE(p.index == 2u);
    if (p.kind == ParamKind::kSamplers) REQUIRE(p.index == 2u);
  }
  for (const ResourceParam& p : units03.params) {
    if (p.kind == ParamKind::kSamplerViews) REQUIRE(p.index == 4u);
    if (p.kind == ParamKind::kSamplers) REQUIRE(p.index == 4u);
  }
  // Geometry shaders of other input and output counts, vertices, invocations and output
  // primitives (gs.cl reads the primitive from ClpGsParams).
  const EmittedShader points = interp(
      "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\n"
      "PROPERTY GS_MAX_OUTPUT_VERTICES 1\nDCL IN[][0], POSITION\nDCL OUT[0], POSITION\n"
      "IMM[0] INT32 {0, 0, 0, 0}\n"
      "  0: MOV OUT[0], IN[0][0]\n  1: EMIT IMM[0].xxxx\n  2: END\n");
  const EmittedShader strips = interp(
      "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
      "PROPERTY GS_MAX_OUTPUT_VERTICES 6\nPROPERTY GS_INVOCATIONS 2\n"
      "DCL IN[][0], POSITION\nDCL IN[][1], GENERIC[0]\nDCL IN[][2], GENERIC[1]\n"
      "DCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nDCL OUT[2], GENERIC[1]\n"
      "IMM[0] INT32 {0, 0, 0, 0}\n"
      "  0: MOV OUT[0], IN[1][0]\n  1: MOV OUT[1], IN[2][1]\n  2: MOV OUT[2], IN[0][2]\n"
      "  3: EMIT IMM[0].xxxx\n  4: ENDPRIM IMM[0].xxxx\n  5: END\n");
  same_program(strips, points);
  // Vertex shaders of 1 and 9 outputs, reading CONST[0] or CONST[1].
  const EmittedShader vs1 = interp(
      "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL CONST[0][0]\n"
      "  0: ADD OUT[0], IN[0], CONST[0][0]\n  1: END\n");
  std::string nine = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n";
  for (int i = 1; i < 9; ++i)
    nine += "DCL OUT[" + std::to_string(i) + "], GENERIC[" + std::to_string(i) + "]\n";
  nine += "DCL CONST[1][0]\n";
  for (int i = 0; i < 9; ++i)
    nine += "  " + std::to_string(i) + ": ADD OUT[" + std::to_string(i) + "], IN[0], CONST[1][0]\n";
  nine += "  9: END\n";
  same_program(interp(nine), vs1);
}

TEST_CASE("interpreter: precise arithmetic gives the compiled code's bits, uncontracted",
          "[interp]") {
  // Mesa marks the arithmetic that invariant outputs depend on precise (a vertex shader's
  // `invariant gl_Position`). The compiled code turns contraction off for those
  // instructions; the interpreter runs them with its precise cases. Random inputs through
  // the contracting opcodes, precise and not, in both stages:
  for (const char* stage : {"FRAG", "VERT"}) {
    const bool frag = stage[0] == 'F';
    std::string text = stage + in_decl(stage);
    for (unsigned k = 0; k < 8; ++k) {
      text += "DCL OUT[" + std::to_string(k) + "], " + (frag ? "COLOR[" : "GENERIC[") +
              std::to_string(k) + "]\n";
    }
    text +=
        "DCL TEMP[0..7]\n"
        "  0: MAD_PRECISE TEMP[0], IN[0], IN[1], IN[2]\n"
        "  1: MAD TEMP[1], IN[0], IN[1], -IN[2]\n"
        "  2: DP4_PRECISE TEMP[2], IN[0], IN[1]\n"
        "  3: DP3_PRECISE TEMP[3], IN[1], IN[2]\n"
        "  4: LRP_PRECISE TEMP[4], IN[0], IN[1], IN[2]\n"
        "  5: DP2_PRECISE TEMP[5], IN[3], IN[1]\n"
        "  6: MUL_PRECISE TEMP[6], IN[2], IN[3]\n"
        "  7: ADD_PRECISE TEMP[7], IN[3], -IN[0]\n";
    for (unsigned k = 0; k < 8; ++k) {
      text += "  " + std::to_string(8 + k) + ": MOV OUT[" + std::to_string(k) + "], TEMP[" +
              std::to_string(k) + "]\n";
    }
    text += "  16: END\n";
    REQUIRE(interpreted(text));
    compare(text, 11);
    compare(text, 12);
  }

  // a * a - (1 + 2^-11) with a = 1 + 2^-12: a * a = 1 + 2^-11 + 2^-24 rounds (to even) to
  // 1 + 2^-11, so the precise MAD gives 0 where a fused one gives 2^-24.
  const std::string mad = "FRAG" + in_decl("FRAG") +
                          "DCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\nDCL TEMP[0..1]\n"
                          "  0: MAD_PRECISE TEMP[0], IN[0], IN[0], IN[1]\n"
                          "  1: MAD TEMP[1], IN[0], IN[0], IN[1]\n"
                          "  2: MOV OUT[0], TEMP[0]\n  3: MOV OUT[1], TEMP[1]\n  4: END\n";
  HarnessInput in;
  in.tgsi = mad;
  in.count = 4;
  for (uint32_t i = 0; i < in.count; ++i) {
    for (uint32_t c = 0; c < 4; ++c)
      in.in.push_back(fbits(1.0f + 0x1p-12f));
    for (uint32_t c = 0; c < 4; ++c)
      in.in.push_back(fbits(-(1.0f + 0x1p-11f)));
    for (uint32_t k = 0; k < 8; ++k)
      in.in.push_back(0);
  }
  const HarnessResult compiled = run_shader(in);
  in.interpret = true;
  const HarnessResult interp = run_shader(in);
  for (uint32_t i = 0; i < in.count; ++i) {
    for (uint32_t c = 0; c < 4; ++c) {
      CHECK(compiled.f(i, 0, c) == 0.0f);
      CHECK(interp.u(i, 0, c) == compiled.u(i, 0, c));
      CHECK(interp.u(i, 1, c) == compiled.u(i, 1, c));
    }
  }
  // Whether the device fuses the plain MAD (PoCL on a CPU with FMA does): then the test
  // above could tell a contracted precise MAD apart.
  if (compiled.f(0, 1, 0) == 0.0f) WARN("this device does not contract MAD");
}

TEST_CASE("interpreter: refuses what it does not run, naming it", "[interp]") {
  auto refusal = [](const std::string& tgsi) {
    const CompiledShader c = compile_tgsi(tgsi);
    try {
      (void)emit_interpreted(c.ir, c.info, EmitOptions{});
    } catch (const CompileError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(refusal("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
                     "DCL SAMP[0]\nDCL SVIEW[0], 2D_MSAA, FLOAT\n"
                     "  0: TXQS OUT[0], SAMP[0], 2D_MSAA\n  1: END\n"),
             Catch::Contains("the interpreter does not run TXQS"));
  CHECK_THAT(refusal("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
                     "DCL SAMP[0..1]\nDCL SVIEW[0..1], 2D, FLOAT\nDCL ADDR[0]\n"
                     "  0: UARL ADDR[0].x, IN[0].xxxx\n"
                     "  1: TEX OUT[0], IN[0], SAMP[ADDR[0].x], 2D\n  2: END\n"),
             Catch::Contains("the interpreter does not run indirect texture units"));
  CHECK_THAT(refusal("VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL TEMP[0]\n"
                     "IMM[0] INT32 {1, 0, 0, 0}\n"
                     "  0: MOV TEMP[0], IN[0]\n  1: SWITCH IMM[0].xxxx\n  2: CASE IMM[0].xxxx\n"
                     "  3: MOV TEMP[0], -IN[0]\n  4: BRK\n  5: ENDSWITCH\n"
                     "  6: MOV OUT[0], TEMP[0]\n  7: END\n"),
             Catch::Contains("the interpreter does not run SWITCH"));
  CHECK_THAT(refusal("TESS_EVAL\nPROPERTY TES_PRIM_MODE 4\nDCL IN[][0], GENERIC[0]\n"
                     "DCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0][0]\n  1: END\n"),
             Catch::Contains("the interpreter does not run TESS_EVAL"));
}

TEST_CASE("interpreter: corpus shaders it takes give the compiled code's bits", "[interp]") {
  // A fixed sample: every 40th vertex or fragment shader of the corpus that the
  // interpreter takes.
  size_t taken = 0, seen = 0;
  for (const std::string& path : compiler::test::corpus_files()) {
    const std::string text = compiler::test::read_text(path);
    const Shader ir = parse_tgsi(text);
    if (ir.stage != ShaderType::VERTEX && ir.stage != ShaderType::FRAGMENT) continue;
    if (!interpreted(text)) continue;
    if (seen++ % 40 != 0) continue;
    INFO(path);
    compare(text, seen, 16);
    ++taken;
  }
  REQUIRE(taken >= 10);
}
