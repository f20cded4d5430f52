// The contract between generated shader code (src/compiler emitter) and the pass
// templates that run it (vertex, geometry, tile, compute passes and the test harness).
//
// A shader program's source is assembled as
//   [ generated prelude ] [ this header, device libraries ] [ generated body ] [ template ]
// The prelude is the compiler's #defines (below); the body is its functions. So this
// header sizes its structures from the prelude, the body sees the declarations below,
// and the template sees everything.
//
// Execution model (design.md): one work-item runs CLP_LANES lanes. Every TGSI register
// channel is one `vf` holding one value per lane (float16 for 16 lanes, float for 1).
// Integer opcodes reinterpret the bits (vi/vu). Lanes are: fragment: 4, 8 or 16 pixels,
// quad-major (lane = 4 * quad + x + 2 * y, x and y within the 2x2 quad), so derivatives
// are swizzles within each group of four, or 1 pixel for a shader that reads no other
// pixel of its quad (compiler/emit/emit.h); four vertices (vertex), four primitives
// (geometry), one thread (compute, CLP_LANES == 1 so that BARRIER maps to barrier()).
//
// What the generated prelude must define:
//   one of CLP_STAGE_VERTEX, CLP_STAGE_TESS_CTRL, CLP_STAGE_TESS_EVAL,
//          CLP_STAGE_GEOMETRY, CLP_STAGE_FRAGMENT, CLP_STAGE_COMPUTE
//   CLP_LANES                1, 4, 8 or 16
//   CLP_NUM_INPUTS           max IN register index + 1 (0 if none)
//   CLP_NUM_OUTPUTS          max OUT register index + 1 (0 if none)
//   CLP_RESOURCE_PARAMS      ", <type> <name>, ..." kernel parameters the shader needs
//                            (constant buffers, textures, buffers, images), or empty
//   CLP_RESOURCE_ARGS        ", <name>, ..." the same names, forwarded to the shader
// and, for fragment shaders, where results are (an interpreted shader's code holds all but
// CLP_FS_INTERP_MODES instead, in its header: CLP_INTERP_H_COLOR and CLP_INTERP_H_FS):
//   CLP_FS_COLOR_REG_<i>     OUT register of COLOR[i] (i = 0..7), -1 if not written
//   CLP_FS_DEPTH_REG         OUT register of POSITION (depth in .z), or -1
//   CLP_FS_STENCIL_REG       OUT register of STENCIL (.y), or -1
//   CLP_FS_SAMPLEMASK_REG    OUT register of SAMPLEMASK (.x), or -1
//   CLP_FS_EARLY_DEPTH       1 if PROPERTY FS_EARLY_DEPTH_STENCIL 1, else 0
//   CLP_FS_USES_KILL         1 if the shader can discard lanes
//   CLP_FS_INTERP_MODES      bit m: an input interpolated from the vertices declares
//                            TGSI interpolate mode m (tile_fs.h computes only those weights)
// The generated body must define
//   void clp_shader_main(ClpShaderIo* io, ClpStageCtx* stage CLP_RESOURCE_PARAMS);
// The host side gets the same facts (and the order of the resource parameters) from the
// compiler's ShaderInfo, and binds kernel arguments accordingly.
//
// What the pass template provides:
//   struct ClpStageCtx       opaque to the generated code; passed to the hooks below
//   the hook functions declared below (definitions in the template).
#ifndef CLPIPE_SHADER_ABI_H
#define CLPIPE_SHADER_ABI_H

#ifndef CLP_LANES
#error "CLP_LANES must be defined (1, 4, 8 or 16) before shader_abi.h"
#endif

// CLP_VN(name): the OpenCL name of the lane-vector form of `name` (float -> float16,
// as_int -> as_int16, vload -> vload16); CLP_VN2(name, suffix) inserts the width before
// a suffix (convert_int, _sat_rtz -> convert_int16_sat_rtz). At 1 lane: the scalar names.
#if CLP_LANES == 1
#define CLP_LANE_SFX
#elif CLP_LANES == 4
#define CLP_LANE_SFX 4
#elif CLP_LANES == 8
#define CLP_LANE_SFX 8
#elif CLP_LANES == 16
#define CLP_LANE_SFX 16
#else
#error "CLP_LANES must be 1, 4, 8 or 16"
#endif
#define CLP_PASTE3_(a, b, c) a##b##c
#define CLP_PASTE3(a, b, c) CLP_PASTE3_(a, b, c)
#define CLP_VN(name) CLP_PASTE3(name, CLP_LANE_SFX, )
#define CLP_VN2(name, suffix) CLP_PASTE3(name, CLP_LANE_SFX, suffix)

typedef CLP_VN(float) vf;
typedef CLP_VN(int) vi;
typedef CLP_VN(uint) vu;
#define CLP_AS_VF CLP_VN(as_float)
#define CLP_AS_VI CLP_VN(as_int)
#define CLP_AS_VU CLP_VN(as_uint)
#define CLP_CONVERT_VF CLP_VN(convert_float)
#define CLP_CONVERT_VI CLP_VN(convert_int)
#define CLP_CONVERT_VU CLP_VN(convert_uint)

// CLP_LANE(v, l): lane l of v as a scalar (l constant once loops are unrolled).
#if CLP_LANES == 1
// A scalar comparison yields 1 / 0: turn it into ~0 / 0 like the vector form.
#define CLP_MASK(cmp) (-(int)(cmp))
#define CLP_LANE(v, l) (v)
#else
// A vector comparison already yields ~0 / 0 per lane.
#define CLP_MASK(cmp) (cmp)
#define CLP_LANE4_(v, l) ((l) == 0 ? (v).s0 : (l) == 1 ? (v).s1 : (l) == 2 ? (v).s2 : (v).s3)
#define CLP_LANE8_(v, l) ((l) < 4 ? CLP_LANE4_((v).lo, (l)) : CLP_LANE4_((v).hi, (l)-4))
#if CLP_LANES == 4
#define CLP_LANE(v, l) CLP_LANE4_(v, l)
#elif CLP_LANES == 8
#define CLP_LANE(v, l) CLP_LANE8_(v, l)
#else
#define CLP_LANE(v, l) ((l) < 8 ? CLP_LANE8_((v).lo, (l)) : CLP_LANE8_((v).hi, (l)-8))
#endif
#endif

typedef struct ClpStageCtx ClpStageCtx;

// Per-invocation register state shared by the template and the shader.
typedef struct {
  // Inputs: filled by the template (vertex fetch, fragment prologue hooks, GS inputs)
  // before clp_shader_main. Outputs: read by the template afterwards.
  vf in[CLP_NUM_INPUTS > 0 ? CLP_NUM_INPUTS : 1][4];
  vf out[CLP_NUM_OUTPUTS > 0 ? CLP_NUM_OUTPUTS : 1][4];
  // Lanes that take part (~0) or not (0). The template sets it; KILL / DEMOTE clear
  // lanes; a cleared lane writes no output, no memory and no framebuffer value.
  vi exec_mask;
  // Lanes that are helper lanes (fragment: outside the primitive but needed for
  // derivatives). They execute but write nothing.
  vi helper_mask;
} ClpShaderIo;

// ---------------------------------------------------------------------------------
// System values: the shader reads them through this hook, for whichever the shader
// declares (DCL SV[n], <SEMANTIC>). `semantic` is the TGSI semantic number (tgsi.md
// §6.3), `chan` 0..3. Values are returned as bits (integers are not converted).
static vf clp_system_value(ClpStageCtx* stage, ClpShaderIo* io, int semantic, int chan);

// ---------------------------------------------------------------------------------
// Resources: the entry of the ClpResourceInfo table (kernels/shader_lib_shared.h) that
// this invocation uses. Draws of one scene share the table and their buffers; the entry
// tells where each draw's bindings are in them.
static uint clp_resource_index(ClpStageCtx* stage);

// ---------------------------------------------------------------------------------
// Fragment inputs (prologue): the generated code calls one of these per declared input
// register and channel it uses, and stores the result into io->in[reg][chan].
// interp: TGSI interpolate mode (0 CONSTANT, 1 LINEAR, 2 PERSPECTIVE, 3 COLOR);
// location: 0 CENTER, 1 CENTROID, 2 SAMPLE; semantic/index: the declaration's.
#ifdef CLP_STAGE_FRAGMENT
static vf clp_fs_input(ClpStageCtx* stage, int reg, int chan, int semantic, int semantic_index,
                       int interp, int location);
// INTERP_CENTROID / INTERP_SAMPLE / INTERP_OFFSET of input `reg`: re-evaluates it at
// the centroid, at sample `sample` or at `(off_x, off_y)` pixels from the centre.
static vf clp_fs_interp_at(ClpStageCtx* stage, int reg, int chan, int semantic, int semantic_index,
                           int interp, int where, vi sample, vf off_x, vf off_y);
#endif

// ---------------------------------------------------------------------------------
// Geometry shaders: EMIT / ENDPRIM for the lanes in `lanes` on vertex stream `stream`.
// The template copies io->out into the emitted vertex.
#ifdef CLP_STAGE_GEOMETRY
static void clp_gs_emit(ClpStageCtx* stage, ClpShaderIo* io, vi lanes, vu stream);
static void clp_gs_end_primitive(ClpStageCtx* stage, ClpShaderIo* io, vi lanes, vu stream);
#endif

// ---------------------------------------------------------------------------------
// Per-vertex registers (tgsi.md §13): the inputs of GS, TCS and TES that are addressed
// IN[vertex][reg] (is_per_vertex() in the compiler), and the per-vertex outputs of TCS,
// OUT[vertex][reg]. They do not live in io->in / io->out (which hold the per-primitive
// and per-patch registers); the shader reaches them through these hooks, one lane-vector
// of vertex indices at a time. Out-of-range vertices read zero and are not written.
#if defined(CLP_STAGE_GEOMETRY) || defined(CLP_STAGE_TESS_CTRL) || defined(CLP_STAGE_TESS_EVAL)
static vf clp_vertex_input(ClpStageCtx* stage, vi vertex, int reg, int chan);
#endif
#ifdef CLP_STAGE_TESS_CTRL
static vf clp_vertex_output_load(ClpStageCtx* stage, vi vertex, int reg, int chan);
static void clp_vertex_output_store(ClpStageCtx* stage, vi vertex, int reg, int chan, vf value,
                                    vi lanes);
#endif

#endif  // CLPIPE_SHADER_ABI_H
