// Cutting a draw into chunks (see draw_split.h).
#include "frontend/draw/draw_split.h"

#include <algorithm>

namespace clpipe::frontend::draw {

namespace {

// How the positions of one instance of a mode may be cut: pieces hold a multiple of
// `align` positions (besides the hub), the next piece starts `overlap` positions before
// the previous one ended, and the first primitive of a piece starting at position s has
// PRIMID s / per_prim - prim_offset (per_prim: positions per primitive of list modes,
// 1 for strips; 2 for quad strips).
struct Cut {
  bool ok = false;
  uint32_t align = 1, overlap = 0, per_prim = 1, prim_offset = 0;
  uint32_t hub = 0;    // 1: fans and polygons; 2: line loops (hub on the last piece only)
  uint32_t first = 0;  // the first piece's first position (after the hub)
};

Cut cut_of(PrimType mode) {
  Cut c;
  c.ok = true;
  switch (mode) {
    case PrimType::POINTS:
      break;
    case PrimType::LINES:
      c.align = c.per_prim = 2;
      break;
    case PrimType::TRIANGLES:
      c.align = c.per_prim = 3;
      break;
    case PrimType::QUADS:
    case PrimType::LINES_ADJACENCY:
      c.align = c.per_prim = 4;
      break;
    case PrimType::TRIANGLES_ADJACENCY:
      c.align = c.per_prim = 6;
      break;
    case PrimType::LINE_STRIP:
      c.overlap = 1;
      break;
    case PrimType::LINE_STRIP_ADJACENCY:
      c.overlap = 3;
      break;
    // Pieces start on even positions: the winding of strip triangle j follows j's parity.
    case PrimType::TRIANGLE_STRIP:
      c.align = c.overlap = 2;
      break;
    case PrimType::QUAD_STRIP:
      c.align = c.overlap = c.per_prim = 2;
      break;
    case PrimType::LINE_LOOP:
      c.overlap = 1;
      c.hub = 2;
      break;
    case PrimType::TRIANGLE_FAN:
    case PrimType::POLYGON:
      // A piece is the hub (position 0) and positions s .. e - 1: its first triangle is
      // (0, s, s + 1), the draw's triangle s - 1.
      c.overlap = 1;
      c.hub = 1;
      c.first = 1;
      c.prim_offset = 1;
      break;
    case PrimType::TRIANGLE_STRIP_ADJACENCY:
    case PrimType::PATCHES:
      c.ok = false;
      break;
  }
  return c;
}

}  // namespace

std::vector<DrawChunk> split_draw(PrimType mode, uint32_t count, uint32_t instances,
                                  uint64_t max_positions, bool split_positions) {
  max_positions = std::max(max_positions, kMinChunkPositions);
  DrawChunk whole;
  whole.mode = mode;
  whole.count = count;
  whole.instance_count = instances;
  if (count == 0 || instances == 0 || uint64_t(count) * instances <= max_positions) return {whole};
  std::vector<DrawChunk> out;
  const Cut cut = cut_of(mode);
  if (count <= max_positions || !split_positions || !cut.ok) {
    // Whole instances, as many as fit (at least one).
    const uint32_t per = uint32_t(std::max<uint64_t>(1, max_positions / count));
    for (uint32_t i = 0; i < instances; i += std::min(per, instances - i)) {
      DrawChunk c = whole;
      c.instance_base = i;
      c.instance_count = std::min(per, instances - i);
      out.push_back(c);
    }
    return out;
  }
  // Pieces of every instance: `body` positions each besides the hub, a multiple of align
  // larger than the overlap (max_positions >= kMinChunkPositions).
  const uint32_t room = uint32_t(max_positions - (cut.hub ? 1 : 0));
  const uint32_t body = room - room % cut.align;
  for (uint32_t i = 0; i < instances; ++i) {
    for (uint32_t s = cut.first;;) {
      const uint32_t e = uint32_t(std::min<uint64_t>(uint64_t(s) + body, count));
      const bool last = e == count;
      DrawChunk c;
      c.mode = mode == PrimType::LINE_LOOP ? PrimType::LINE_STRIP : mode;
      c.instance_count = 1;
      c.instance_base = i;
      c.position_base = s;
      c.hub = cut.hub == 1 || (cut.hub == 2 && last) ? cut.hub : 0;
      c.count = e - s + (c.hub ? 1 : 0);
      c.prim_id_base = s / cut.per_prim - cut.prim_offset;
      out.push_back(c);
      if (last) break;
      s = e - cut.overlap;
    }
  }
  return out;
}

}  // namespace clpipe::frontend::draw
