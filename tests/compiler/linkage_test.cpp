// Linkage tests (src/compiler/linkage.h): FS inputs matched to last-stage outputs by
// semantic, defaults, generated inputs, two-sided colour, sprite coordinates.
#include "compiler/linkage.h"

#include "compiler/tgsi_test_util.h"

using namespace clpipe;
using namespace clpipe::compiler;
using namespace clpipe::compiler::test;

namespace {

ShaderInfo info_of(const std::string& text) {
  return analyze(valid(text));
}

const FsInputLink& input(const FsLinkage& link, uint32_t reg) {
  for (const FsInputLink& l : link.inputs) {
    if (l.fs_reg == reg) return l;
  }
  FAIL("no link for IN[" << reg << "]");
  return link.inputs.front();
}

}  // namespace

TEST_CASE("linkage: scattered GENERIC indices match by index, not register",
          "[compiler][linkage]") {
  ShaderInfo vs = info_of(
      "VERT\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[200]\nDCL OUT[2].xy, GENERIC[3]\n"
      "DCL OUT[3], GENERIC[17]\nDCL OUT[4], GENERIC[255]\n  0: END\n");
  ShaderInfo fs = info_of(
      "FRAG\nDCL IN[0], GENERIC[3], PERSPECTIVE\nDCL IN[1], GENERIC[255], LINEAR\n"
      "DCL IN[2].x, GENERIC[200], CONSTANT, CENTROID\nDCL IN[3], GENERIC[4], PERSPECTIVE, SAMPLE\n"
      "DCL OUT[0], COLOR\nDCL TEMP[0]\n  0: ADD TEMP[0], IN[0], IN[1]\n  1: END\n");
  FsLinkage link = link_fs_inputs(vs, fs);
  REQUIRE(link.inputs.size() == 4);

  const FsInputLink& g3 = input(link, 0);
  CHECK(g3.source == FsInputSource::kVarying);
  CHECK(g3.output_reg == 2);
  CHECK(g3.from_output == 0x3);  // z, w were never written: they read the default
  CHECK(g3.default_value == std::array<float, 4>{0, 0, 0, 0});
  CHECK(g3.interp == InterpKind::kPerspective);
  CHECK(g3.read_mask == kMaskXYZW);

  const FsInputLink& g255 = input(link, 1);
  CHECK(g255.output_reg == 4);
  CHECK(g255.interp == InterpKind::kLinear);

  const FsInputLink& g200 = input(link, 2);
  CHECK(g200.output_reg == 1);
  CHECK(g200.interp == InterpKind::kFlat);
  CHECK(g200.location == InterpLoc::CENTROID);

  // GENERIC[4] is not written: a deterministic default.
  const FsInputLink& missing = input(link, 3);
  CHECK(missing.source == FsInputSource::kDefault);
  CHECK(missing.output_reg == -1);
  CHECK(missing.location == InterpLoc::SAMPLE);

  CHECK(link.outputs_read == std::vector<uint32_t>{1, 2, 4});  // GENERIC[17] is dropped
  CHECK_FALSE(link.uses_two_sided_color);
}

TEST_CASE("linkage: COLOR with BCOLOR, flat-shading colour mode, defaults", "[compiler][linkage]") {
  ShaderInfo vs = info_of(
      "VERT\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\nDCL OUT[2], BCOLOR\nDCL OUT[3], BCOLOR[1]\n"
      "  0: END\n");
  ShaderInfo fs = info_of(
      "FRAG\nDCL IN[0], COLOR, COLOR\nDCL IN[1], COLOR[1], PERSPECTIVE\nDCL IN[2], TEXCOORD[2], "
      "PERSPECTIVE\nDCL OUT[0], COLOR\n  0: END\n");
  FsLinkage link = link_fs_inputs(vs, fs);
  const FsInputLink& c0 = input(link, 0);
  CHECK(c0.source == FsInputSource::kVarying);
  CHECK(c0.output_reg == 1);
  CHECK(c0.bcolor_reg == 2);
  CHECK(c0.bcolor_from_output == kMaskXYZW);
  CHECK(c0.interp == InterpKind::kColor);
  CHECK(c0.default_value == std::array<float, 4>{0, 0, 0, 1});

  // COLOR[1] is not written, but BCOLOR[1] is: back faces get it, front faces the default.
  const FsInputLink& c1 = input(link, 1);
  CHECK(c1.source == FsInputSource::kDefault);
  CHECK(c1.output_reg == -1);
  CHECK(c1.bcolor_reg == 3);
  CHECK(c1.interp == InterpKind::kPerspective);

  const FsInputLink& tc = input(link, 2);
  CHECK(tc.source == FsInputSource::kDefault);
  CHECK(tc.default_value == std::array<float, 4>{0, 0, 0, 1});
  CHECK(tc.sprite_coord_index == 2);

  CHECK(link.uses_two_sided_color);
  CHECK(link.uses_face);
  CHECK(link.outputs_read == std::vector<uint32_t>{1, 2, 3});
}

TEST_CASE("linkage: inputs the rasterizer generates", "[compiler][linkage]") {
  ShaderInfo vs = info_of("VERT\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[9]\n  0: END\n");
  ShaderInfo fs = info_of(
      "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL IN[1].x, FACE, CONSTANT\nDCL IN[2].x, PRIM_ID, "
      "CONSTANT\nDCL IN[3].xy, PCOORD, PERSPECTIVE\nDCL IN[4].x, LAYER, CONSTANT\n"
      "DCL OUT[0], COLOR\n  0: END\n");
  FsLinkage link = link_fs_inputs(vs, fs);
  CHECK(input(link, 0).source == FsInputSource::kFragCoord);
  CHECK(input(link, 1).source == FsInputSource::kFace);
  CHECK(input(link, 2).source == FsInputSource::kPrimitiveId);
  CHECK(input(link, 3).source == FsInputSource::kPointCoord);
  CHECK(input(link, 3).default_value == std::array<float, 4>{0, 0, 0, 1});
  // An unwritten LAYER reads 0 and is flat.
  CHECK(input(link, 4).source == FsInputSource::kDefault);
  CHECK(input(link, 4).interp == InterpKind::kFlat);
  CHECK(link.uses_face);
  CHECK(link.outputs_read.empty());  // the VS position is not passed through
}

TEST_CASE("linkage: a GS writing PRIM_ID and LAYER feeds the FS", "[compiler][linkage]") {
  ShaderInfo gs = info_of(
      "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
      "PROPERTY GS_MAX_OUTPUT_VERTICES 3\nDCL OUT[0], POSITION\nDCL OUT[1].x, PRIM_ID\n"
      "DCL OUT[2].x, LAYER\nDCL OUT[3], CLIPDIST\n  0: END\n");
  ShaderInfo fs = info_of(
      "FRAG\nDCL IN[0].x, PRIM_ID, CONSTANT\nDCL IN[1].x, LAYER, CONSTANT\n"
      "DCL IN[2], CLIPDIST, PERSPECTIVE\nDCL OUT[0], COLOR\n  0: END\n");
  FsLinkage link = link_fs_inputs(gs, fs);
  CHECK(input(link, 0).source == FsInputSource::kVarying);
  CHECK(input(link, 0).output_reg == 1);
  CHECK(input(link, 0).interp == InterpKind::kFlat);
  CHECK(input(link, 1).output_reg == 2);
  CHECK(input(link, 2).output_reg == 3);
  CHECK(input(link, 2).interp == InterpKind::kPerspective);
}

TEST_CASE("linkage: sprite coordinates name GENERIC without the TEXCOORD cap",
          "[compiler][linkage]") {
  ShaderInfo vs = info_of("VERT\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[7]\n  0: END\n");
  ShaderInfo fs = info_of(
      "FRAG\nDCL IN[0], GENERIC[7], PERSPECTIVE\nDCL IN[1], GENERIC[8], PERSPECTIVE\n"
      "DCL IN[2], TEXCOORD[1], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: END\n");
  FsLinkage with_cap = link_fs_inputs(vs, fs);
  CHECK(input(with_cap, 0).sprite_coord_index == -1);
  CHECK(input(with_cap, 2).sprite_coord_index == 1);
  LinkOptions no_cap;
  no_cap.sprite_coord_is_texcoord = false;
  FsLinkage without = link_fs_inputs(vs, fs, no_cap);
  CHECK(input(without, 0).sprite_coord_index == 7);
  CHECK(input(without, 0).output_reg == 1);           // still linked when not drawing sprites
  CHECK(input(without, 1).sprite_coord_index == -1);  // bits 0..7 only
  CHECK(input(without, 2).sprite_coord_index == -1);
}

TEST_CASE("linkage: stage checks and generic stage matching", "[compiler][linkage]") {
  ShaderInfo vs = info_of(
      "VERT\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[5]\nDCL OUT[2], CLIPVERTEX\n  0: END\n");
  ShaderInfo fs = info_of("FRAG\nDCL OUT[0], COLOR\n  0: END\n");
  ShaderInfo tcs = info_of(
      "TESS_CTRL\nDCL IN[][0], CLIPVERTEX\nDCL IN[][1], GENERIC[5]\nDCL IN[][2], GENERIC[6]\n"
      "  0: END\n");
  CHECK_THROWS_AS(link_fs_inputs(fs, fs), clpipe::Error);
  CHECK_THROWS_AS(link_fs_inputs(vs, vs), clpipe::Error);
  CHECK_THROWS_AS(link_fs_inputs(tcs, fs), clpipe::Error);
  CHECK(match_stage_inputs(vs, tcs) == std::vector<int32_t>{2, 1, -1});
  // The corpus two-sided colour seed links to a FS reading gl_Color.
  ShaderInfo bcolor_vs = analyze(valid(corpus_shader("2905.tgsi")));
  ShaderInfo color_fs = analyze(valid(corpus_shader("0025.tgsi")));
  FsLinkage link = link_fs_inputs(bcolor_vs, color_fs);
  bool found = false;
  for (const FsInputLink& l : link.inputs) {
    if (l.semantic == Semantic::COLOR && l.semantic_index == 0) {
      found = true;
      CHECK(l.bcolor_reg >= 0);
    }
  }
  CHECK(found);
}
