// Actions: CLEAR, CLEAR_TEXTURE, DRAW_VBO, BLIT, RESOURCE_COPY_REGION, LAUNCH_GRID and
// the barriers. Boxes are checked against the levels they address before clpipe sees
// them; the index buffer binding of SET_INDEX_BUFFER is turned into the API's
// element-based draw start (doc 4.4: the byte offset already includes Mesa's start).
#include <cstring>

#include "vtest/decoder.h"
#include "vtest/formats.h"
#include "vtest/layout.h"
#include "vtest/protocol.h"

namespace clpipe::frontend::vtest {
namespace {

Box box_from_wire(const uint32_t* d) {
  // Wire values are gallium's signed box fields.
  return Box{int32_t(d[0]), int32_t(d[1]), int32_t(d[2]),
             int32_t(d[3]), int32_t(d[4]), int32_t(d[5])};
}

}  // namespace

void Decoder::cmd_clear(const Payload& p, uint32_t) {
  p.expect_len(8);
  const uint32_t buffers = p[1];
  if (buffers & ~(Clear::DEPTHSTENCIL | Clear::COLOR)) protocol_error("clear bits ", buffers);
  ColorUnion color;
  for (uint32_t i = 0; i < 4; ++i)
    color.ui[i] = p[2 + i];
  const uint64_t depth_bits = uint64_t(p[6]) | (uint64_t(p[7]) << 32);
  double depth;
  std::memcpy(&depth, &depth_bits, sizeof depth);
  report(ctx().clear(buffers, nullptr, color, depth, p[8]));
}

void Decoder::cmd_clear_texture(const Payload& p, uint32_t) {
  p.expect_len(12);
  const VtestResource& r = resources_.get(p[1], "clear texture");
  const TransferGeometry g =
      transfer_geometry(r.desc, r.layout, p[2], p.span(3, 6), 0, 0, "clear texture");
  uint32_t texel[4];
  std::memcpy(texel, p.span(9, 4), sizeof texel);  // one texel: at most 16 bytes
  report(ctx().clear_texture(r.host, p[2], g.box, texel));
}

void Decoder::cmd_draw_vbo(const Payload& p, uint32_t) {
  if (p.len() != 12 && p.len() != 14 && p.len() != 20)
    protocol_error("bad length ", p.len(), " (expected 12, 14 or 20)");
  SubContext& s = sub();
  DrawInfo info;
  if (p[3] >= kPrimTypes) protocol_error("invalid primitive type ", p[3]);
  info.mode = PrimType(p[3]);
  const bool indexed = p[4] != 0;
  info.instance_count = p[5];
  info.start_instance = p[7];
  info.primitive_restart = p[8] != 0;
  info.restart_index = p[9];
  DrawStartCountBias draw;
  draw.count = p[2];
  if (indexed) {
    if (!s.index_buffer) protocol_error("indexed draw without an index buffer");
    if (s.index_offset % s.index_size != 0)
      return report(Status(ErrorCode::kUnsupported,
                           "index buffer offset " + std::to_string(s.index_offset) +
                               " is not a multiple of the index size; the clpipe API "
                               "addresses indices by element"));
    info.index_size = uint8_t(s.index_size);
    info.index_resource = s.index_buffer->host;
    info.min_index = p[10];
    info.max_index = p[11];
    info.index_bounds_valid = !(p[10] == 0 && p[11] == 0xffffffffu);
    draw.start = s.index_offset / s.index_size;
    draw.index_bias = int32_t(p[6]);
  } else {
    draw.start = p[1];
  }
  DrawIndirectInfo indirect;
  bool use_indirect = false;
  if (p[12] != 0) {
    // Draw-transform-feedback: the count comes from the stream-output target last bound.
    if (s.so_targets.empty() || !s.so_targets[0])
      protocol_error("draw with count from stream output, but no target was bound");
    indirect.count_from_stream_output = s.so_targets[0];
    use_indirect = true;
  }
  unsigned drawid = 0;
  if (p.len() >= 14) {
    if (info.mode == PrimType::PATCHES) {
      if (p[13] == 0 || p[13] > 32) protocol_error("vertices per patch ", p[13]);
      s.ctx->set_patch_vertices(uint8_t(p[13]));
    }
    drawid = p[14];
  }
  if (p.len() == 20 && p[15] != 0) {
    const VtestResource& buf = resources_.get(p[15], "indirect draw buffer");
    if (buf.desc.target != TextureTarget::BUFFER || p[16] >= buf.desc.width)
      protocol_error("indirect draw offset ", p[16], " outside resource ", p[15]);
    indirect.buffer = buf.host;
    indirect.offset = p[16];
    indirect.stride = p[17];
    indirect.draw_count = p[18];
    indirect.indirect_draw_count_offset = p[19];
    if (p[20] != 0) {
      const VtestResource& cnt = resources_.get(p[20], "indirect draw count buffer");
      if (cnt.desc.target != TextureTarget::BUFFER || uint64_t(p[19]) + 4 > cnt.desc.width)
        protocol_error("draw count offset ", p[19], " outside resource ", p[20]);
      indirect.indirect_draw_count = cnt.host;
    }
    use_indirect = true;
  }
  report(s.ctx->draw_vbo(info, drawid, use_indirect ? &indirect : nullptr, {draw}));
}

void Decoder::cmd_blit(const Payload& p, uint32_t) {
  p.expect_len(21);
  BlitInfo b;
  const uint32_t s0 = p[1];
  b.mask = bits(s0, 0, 8);
  if (b.mask & ~uint32_t(Mask::RGBA | Mask::ZS)) protocol_error("blit mask ", b.mask);
  if (bits(s0, 8, 2) > 1) protocol_error("blit filter ", bits(s0, 8, 2));
  b.filter = TexFilter(bits(s0, 8, 2));
  b.scissor_enable = bits(s0, 10, 1);
  b.render_condition_enable = bits(s0, 11, 1);
  b.alpha_blend = bits(s0, 12, 1);
  b.scissor.minx = uint16_t(bits(p[2], 0, 16));
  b.scissor.miny = uint16_t(bits(p[2], 16, 16));
  b.scissor.maxx = uint16_t(bits(p[3], 0, 16));
  b.scissor.maxy = uint16_t(bits(p[3], 16, 16));
  auto side = [&](uint32_t first, BlitInfo::Side& out, const char* what) {
    const VtestResource& r = resources_.get(p[first], what);
    out.resource = r.host;
    out.format = format_from_wire(p[first + 2], what);
    out.box = box_from_wire(p.span(first + 3, 6));
    // Boxes may reach outside their levels (the context clips the destination and clamps
    // the source); only the level must exist.
    if (p[first + 1] > r.desc.last_level)
      protocol_error(what, ": level ", p[first + 1], " > last_level ", r.desc.last_level);
    out.level = uint8_t(p[first + 1]);
  };
  side(4, b.dst, "blit destination");
  side(13, b.src, "blit source");
  if (b.dst.box.width < 0 || b.dst.box.height < 0)
    protocol_error("blit destination box has a negative size");
  report(ctx().blit(b));
}

void Decoder::cmd_resource_copy_region(const Payload& p, uint32_t) {
  p.expect_len(13);
  const VtestResource& dst = resources_.get(p[1], "copy destination");
  const VtestResource& src = resources_.get(p[6], "copy source");
  const Box src_box = box_from_wire(p.span(8, 6));
  if (src_box.width < 0 || src_box.height < 0 || src_box.depth < 0)
    protocol_error("copy source box has a negative size");
  check_box_in_level(src.desc, p[7], src_box, "copy source");
  const Box dst_box{int32_t(p[3]), int32_t(p[4]),  int32_t(p[5]),
                    src_box.width, src_box.height, src_box.depth};
  check_box_in_level(dst.desc, p[2], dst_box, "copy destination");
  report(ctx().resource_copy_region(dst.host, p[2], p[3], p[4], p[5], src.host, p[7], src_box));
}

void Decoder::cmd_launch_grid(const Payload& p, uint32_t) {
  p.expect_len(8);
  GridInfo g;
  for (uint32_t i = 0; i < 3; ++i) {
    g.block[i] = p[1 + i];
    g.grid[i] = p[4 + i];
  }
  if (p[7] != 0) {
    const VtestResource& r = resources_.get(p[7], "indirect grid buffer");
    if (r.desc.target != TextureTarget::BUFFER || uint64_t(p[8]) + 12 > r.desc.width)
      protocol_error("indirect grid offset ", p[8], " outside resource ", p[7]);
    g.indirect = r.host;
    g.indirect_offset = p[8];
  }
  report(ctx().launch_grid(g));
}

void Decoder::cmd_memory_barrier(const Payload& p, uint32_t) {
  p.expect_len(1);
  ctx().memory_barrier(p[1] & Barrier::ALL);
}

void Decoder::cmd_texture_barrier(const Payload& p, uint32_t) {
  p.expect_len(1);
  ctx().texture_barrier(p[1] & (TextureBarrier::SAMPLER | TextureBarrier::FRAMEBUFFER));
}

}  // namespace clpipe::frontend::vtest
