// Geometry and tessellation stages in the harness: GS per-vertex inputs (direct and
// indirect vertex), the per-primitive PRIM_ID input, EMIT / ENDPRIM with a divergent
// vertex count (over-emission is counted, not stored), streams; TCS per-vertex outputs
// written per invocation and read back across BARRIER, per-patch outputs; TES per-vertex
// and per-patch inputs with TESSCOORD.
#include <catch2/catch.hpp>

#include "compiler/emit/harness.h"

using namespace clpipe::test::emit;

TEST_CASE("emit: geometry shader EMIT / ENDPRIM with per-vertex inputs", "[emit][stage]") {
  HarnessInput in;
  // Emits (prim_id % 4) + 2 vertices: vertex k copies input vertex k % 3 (indirect
  // vertex index) plus (k, prim_id) and input vertex 2 (indirect register); an ENDPRIM
  // after the third vertex. Max 4 vertices.
  in.tgsi = R"(GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP
PROPERTY GS_MAX_OUTPUT_VERTICES 4
PROPERTY GS_INVOCATIONS 1
DCL IN[][0], GENERIC[0]
DCL IN[][1], PRIM_ID
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0..2]
DCL ADDR[0..1]
IMM[0] UINT32 {0, 1, 3, 4}
IMM[1] UINT32 {2, 1065353216, 0, 0}
  0: MOV TEMP[0].x, IMM[0].xxxx
  1: UMOD TEMP[0].y, IN[1].xxxx, IMM[0].wwww
  1: UARL ADDR[0].x, IMM[0].xxxx
  2: UADD TEMP[0].y, TEMP[0].yyyy, IMM[1].xxxx
  3: BGNLOOP :0
  4:   USGE TEMP[1].x, TEMP[0].xxxx, TEMP[0].yyyy
  5:   UIF TEMP[1].xxxx :7
  6:     BRK
  7:   ENDIF
  8:   UMOD TEMP[1].y, TEMP[0].xxxx, IMM[0].zzzz
  9:   UARL ADDR[1].x, TEMP[1].yyyy
 10:   MOV OUT[0], IN[ADDR[1].x][0]
 11:   MOV OUT[1].x, TEMP[0].xxxx
 12:   MOV OUT[1].y, IN[1].xxxx
 13:   MOV OUT[1].zw, IN[2][ADDR[0].x].xxxy
 14:   EMIT IMM[0].xxxx
 15:   USEQ TEMP[1].z, TEMP[0].xxxx, IMM[1].xxxx
 16:   UIF TEMP[1].zzzz :18
 17:     ENDPRIM IMM[0].xxxx
 18:   ENDIF
 19:   UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
 20: ENDLOOP :0
 21: END
)";
  const uint32_t prims = 6;
  in.count = prims;
  in.inv_per_prim = 1;
  in.verts_per_prim = 3;
  for (uint32_t p = 0; p < prims; ++p) {
    in.in.insert(in.in.end(), {0, 0, 0, 0});          // IN[0]: per-vertex, not here
    in.in.insert(in.in.end(), {p * 5 + 1, 0, 0, 0});  // IN[1]: PRIM_ID
    for (uint32_t v = 0; v < 3; ++v) {
      in.vin.insert(in.vin.end(), {100 * p + 10 * v, 100 * p + 10 * v + 1, 7, 8});
      in.vin.insert(in.vin.end(), {0, 0, 0, 0});
    }
  }
  HarnessResult r = run_shader(in);
  // Interpreted (compiler::emit_interpreted), the same vertices, counts and cuts.
  in.interpret = true;
  const HarnessResult interpreted = run_shader(in);
  REQUIRE(interpreted.compiled.code.interp_code.size() > 0);
  CHECK(interpreted.vout == r.vout);
  CHECK(interpreted.gs_meta == r.gs_meta);
  CHECK(interpreted.gs_count == r.gs_count);
  const uint32_t nout = r.num_outputs;
  for (uint32_t p = 0; p < prims; ++p) {
    const uint32_t prim_id = p * 5 + 1, n = prim_id % 4 + 2;
    INFO("primitive " << p);
    CHECK(r.gs_count[p] == n);
    for (uint32_t k = 0; k < std::min(n, 4u); ++k) {
      const uint32_t base = p * 4 + k;
      auto out = [&](uint32_t reg, uint32_t c) { return r.vout[(base * nout + reg) * 4 + c]; };
      CHECK(out(0, 0) == 100 * p + 10 * (k % 3));
      CHECK(out(0, 1) == 100 * p + 10 * (k % 3) + 1);
      CHECK(out(1, 0) == k);
      CHECK(out(1, 1) == prim_id);
      CHECK(out(1, 2) == 100 * p + 20);
      CHECK(out(1, 3) == 100 * p + 21);
      CHECK(r.gs_meta[base] == (k == 2 ? 0x100u : 0u));
    }
  }
}

TEST_CASE("emit: tessellation control outputs across BARRIER", "[emit][stage]") {
  HarnessInput in;
  // Each invocation writes its output vertex (2 * input vertex), then after BARRIER reads
  // its neighbour's; invocation 0 writes the per-patch outputs.
  in.tgsi = R"(TESS_CTRL
PROPERTY TCS_VERTICES_OUT 3
DCL IN[][0], GENERIC[0]
DCL SV[0], INVOCATIONID
DCL OUT[][0], GENERIC[0]
DCL OUT[1], TESSOUTER
DCL OUT[2], PATCH[0]
DCL TEMP[0..1]
DCL ADDR[0..1]
IMM[0] UINT32 {1, 3, 0, 2}
  0: UARL ADDR[1].x, SV[0].xxxx
  1: UADD TEMP[0], IN[ADDR[1].x][0], IN[ADDR[1].x][0]
  2: MOV OUT[ADDR[1].x][0], TEMP[0]
  3: BARRIER
  4: UADD TEMP[1].x, SV[0].xxxx, IMM[0].xxxx
  5: UMOD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy
  6: UARL ADDR[1].x, TEMP[1].xxxx
  7: MOV OUT[2], OUT[ADDR[1].x][0]
  8: USEQ TEMP[1].y, SV[0].xxxx, IMM[0].zzzz
  9: UIF TEMP[1].yyyy :11
 10:   MOV OUT[1], IMM[0].wwww
 11: ENDIF
 12: END
)";
  const uint32_t patches = 3;
  in.count = patches * 3;
  in.verts_per_prim = 3;
  in.sv.assign(in.count * 64 * 4, 0);
  for (uint32_t i = 0; i < in.count; ++i)
    in.sv[(i * 64 + 26) * 4] = i % 3;  // INVOCATIONID
  for (uint32_t p = 0; p < patches; ++p) {
    for (uint32_t v = 0; v < 3; ++v)
      in.vin.insert(in.vin.end(), {100 * p + v, 1, 2, 3});
  }
  HarnessResult r = run_shader(in);
  const uint32_t nout = r.num_outputs;
  for (uint32_t p = 0; p < patches; ++p) {
    for (uint32_t v = 0; v < 3; ++v) {
      INFO("patch " << p << " vertex " << v);
      const uint32_t i = p * 3 + v;
      CHECK(r.vout[((p * 3 + v) * nout + 0) * 4 + 0] == 2 * (100 * p + v));
      CHECK(r.vout[((p * 3 + v) * nout + 0) * 4 + 3] == 6u);
      CHECK(r.u(i, 2, 0) == 2 * (100 * p + (v + 1) % 3));
      CHECK(r.u(i, 1, 0) == (v == 0 ? 2u : 0u));
    }
  }
}

TEST_CASE("emit: tessellation evaluation inputs and TESSCOORD", "[emit][stage]") {
  HarnessInput in;
  in.tgsi = R"(TESS_EVAL
PROPERTY TES_PRIM_MODE 4
DCL IN[][0], GENERIC[0]
DCL IN[1], PATCH[0]
DCL SV[0], TESSCOORD
DCL OUT[0], POSITION
DCL TEMP[0]
  0: MUL TEMP[0], IN[0][0], SV[0].xxxx
  1: MAD TEMP[0], IN[1][0], SV[0].yyyy, TEMP[0]
  2: MAD TEMP[0], IN[2][0], SV[0].zzzz, TEMP[0]
  3: ADD OUT[0], TEMP[0], IN[1]
  4: END
)";
  in.count = 8;
  in.inv_per_prim = 4;  // two patches of four evaluation points
  in.verts_per_prim = 3;
  in.sv.assign(in.count * 64 * 4, 0);
  const float coords[4][3] = {{1, 0, 0}, {0, 1, 0}, {0.25f, 0.25f, 0.5f}, {0.5f, 0.5f, 0}};
  for (uint32_t i = 0; i < in.count; ++i) {
    for (int c = 0; c < 3; ++c)
      in.sv[(i * 64 + 30) * 4 + c] = fbits(coords[i % 4][c]);
    in.in.insert(in.in.end(), {0, 0, 0, 0});
    in.in.insert(in.in.end(), {fbits(1000.0f * (i / 4)), 0, 0, 0});  // PATCH[0]
  }
  for (uint32_t p = 0; p < 2; ++p) {
    for (uint32_t v = 0; v < 3; ++v) {
      for (int c = 0; c < 4; ++c)
        in.vin.push_back(fbits(float(10 * v + c + 100 * p)));
      in.vin.insert(in.vin.end(), {0, 0, 0, 0});
    }
  }
  HarnessResult r = run_shader(in);
  for (uint32_t i = 0; i < in.count; ++i) {
    const uint32_t p = i / 4;
    for (int c = 0; c < 4; ++c) {
      float want = 0;
      for (int v = 0; v < 3; ++v)
        want += float(10 * v + c + 100 * p) * coords[i % 4][v];
      if (c == 0) want += 1000.0f * p;
      INFO("invocation " << i << " channel " << c);
      CHECK(r.f(i, 0, uint32_t(c)) == Approx(want));
    }
  }
}
