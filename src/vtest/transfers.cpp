// Guest memory <-> clpipe resource copies (see transfers.h).
#include "vtest/transfers.h"

#include <cstring>
#include <string>

namespace clpipe::frontend::vtest {

Status upload_box(Context& ctx, const VtestResource& res, uint32_t level, const TransferGeometry& g,
                  const uint8_t* src) {
  if (g.span() == 0) return Status::ok();
  if (res.desc.target == TextureTarget::BUFFER)
    return ctx.buffer_subdata(res.host, Map::WRITE, uint32_t(g.box.x), uint32_t(g.box.width), src);
  return ctx.texture_subdata(res.host, level, Map::WRITE, g.box, src, uint32_t(g.stride),
                             g.layer_stride);
}

Status download_box(Context& ctx, const VtestResource& res, uint32_t level,
                    const TransferGeometry& g, uint8_t* dst) {
  if (g.span() == 0) return Status::ok();
  Result<TransferHandle> map = ctx.transfer_map(res.host, level, Map::READ, g.box);
  if (!map) return map.status();
  TransferHandle t = std::move(map.value());
  if (!t || !t->data()) return Status(ErrorCode::kDeviceError, "transfer_map returned no data");
  // The mapping's pitches come from clpipe: rows of the box must not overlap there either.
  if ((g.rows > 1 && t->stride() < g.row_bytes) ||
      (g.layers > 1 && t->layer_stride() < uint64_t(g.rows - 1) * t->stride() + g.row_bytes)) {
    Status s(ErrorCode::kDeviceError,
             "transfer_map returned pitches " + std::to_string(t->stride()) + "/" +
                 std::to_string(t->layer_stride()) + " smaller than the box");
    (void)ctx.transfer_unmap(t);
    return s;
  }
  const auto* base = static_cast<const uint8_t*>(t->data());
  for (uint32_t z = 0; z < g.layers; ++z)
    for (uint32_t y = 0; y < g.rows; ++y)
      std::memcpy(dst + z * g.layer_stride + y * g.stride,
                  base + z * t->layer_stride() + uint64_t(y) * t->stride(), g.row_bytes);
  return ctx.transfer_unmap(t);
}

}  // namespace clpipe::frontend::vtest
