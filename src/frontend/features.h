// What works end to end today, one constant per feature that other engineers are building.
//
// Consumer: caps.cpp answers every cap that depends on one of these features from the
// constant, so the engineer who lands a feature flips one line here and the caps follow.
// Flipping a constant is a claim: every cap that caps.cpp derives from it (listed next to
// the cap there) must then really work, with tests.
#pragma once

namespace clpipe::frontend {

// Issue 4: draw_vbo as GPGPU passes (vertex fetch, primitive assembly and clipping,
// binning, tile rasterization with depth/stencil and blending).
constexpr bool kDraw = true;
// Issue 3: shader CSOs translated from TGSI to OpenCL C and linked at draw time.
constexpr bool kShaders = true;
// Issue 5: texture sampling from generated shaders (all targets, filters, wraps, shadow,
// gather, seamless cube maps), tested against a host reference sampler.
constexpr bool kTexturing = true;
// Geometry shaders in the draw pipeline.
constexpr bool kGeometryShaders = true;
// Tessellation control / evaluation shaders in the draw pipeline.
constexpr bool kTessellation = false;
// Queries: occlusion, timestamp / time elapsed, pipeline statistics, stream-output counts.
constexpr bool kQueries = true;
// Stream output (transform feedback) from the last vertex stage.
constexpr bool kStreamOutput = true;
// render_condition honoured by draws, clears and blits.
constexpr bool kConditionalRender = true;
// launch_grid with compute shaders.
constexpr bool kCompute = true;
// Issue 12: 2, 4 and 8 samples: multisampled targets, per-sample rasterization and
// shading, resolves, texel fetches from multisampled textures.
constexpr bool kMultisample = true;
// Context::blit (scaling, format conversion, mirroring, filtering).
constexpr bool kBlit = true;
// Context::generate_mipmap.
constexpr bool kGenerateMipmap = true;

// Issue number named by draw_vbo's "not implemented yet" error.
constexpr int kDrawIssue = 4;

}  // namespace clpipe::frontend
