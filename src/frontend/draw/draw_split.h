// Huge draws in bounded pieces, as Mesa's draw module splits them: the scratch memory of
// a scene (post-transform vertices, primitive records, bin lists) grows with its
// positions, so a draw of 2^26 vertices or 2^24 instances would need gigabytes at once.
// draw_vbo records such a draw as chunks, each of which fits a scene's scratch budget
// (DrawPipeline::fits), and the scenes run one after another.
//
// Invariant: the chunks of a draw produce exactly the draw's primitives, in the draw's
// order, with the draw's vertex ids, instance ids and primitive ids. They hold because
// chunks end on primitive boundaries of the mode (list modes), repeat the vertices a
// strip's next primitive shares (strip modes, starting on an even vertex where the
// winding alternates), carry the fan's or loop's first vertex as a hub, and tell the
// passes their offsets (ClpVertexParams::instance_base, position_base, hub and
// ClpDrawParams::prim_id_base).
#pragma once

#include <cstdint>
#include <vector>

#include "clpipe/state.h"

namespace clpipe::frontend::draw {

struct DrawChunk {
  PrimType mode = PrimType::POINTS;  // the draw's, but a piece of a LINE_LOOP is a LINE_STRIP
  uint32_t count = 0;                // positions per instance, the hub included
  uint32_t instance_count = 0;
  uint32_t instance_base = 0;  // the draw's instance that is the chunk's first
  uint32_t position_base = 0;  // the draw's position that is the chunk's first non-hub one
  uint32_t hub = 0;            // ClpVertexParams::hub
  uint32_t prim_id_base = 0;   // PRIMID of the chunk's first primitive

  bool operator==(const DrawChunk& o) const {
    return mode == o.mode && count == o.count && instance_count == o.instance_count &&
           instance_base == o.instance_base && position_base == o.position_base && hub == o.hub &&
           prim_id_base == o.prim_id_base;
  }
};

// Chunks of at most max(max_positions, kMinChunkPositions) positions each of a draw of
// `count` positions per instance and `instances` instances: whole instances where one
// instance fits, else pieces of each instance's positions. A draw whose instances cannot
// be cut (split_positions false: primitive restart, whose segments the host does not
// see, and unfilled polygons, whose boundary edges a cut would add; triangle strips with
// adjacency, whose first and last triangles are special) stays one chunk per group of
// instances, as large as it is.
constexpr uint64_t kMinChunkPositions = 64;
std::vector<DrawChunk> split_draw(PrimType mode, uint32_t count, uint32_t instances,
                                  uint64_t max_positions, bool split_positions);

}  // namespace clpipe::frontend::draw
