// Transfers inside the command stream: TRANSFER3D (the transfer area at the start of each
// submit, doc 3.4), COPY_TRANSFER3D (staging-buffer uploads) and RESOURCE_INLINE_WRITE.
// Each checks its box against the level and its guest byte range against the backing
// store (or the inline data) before transfers.cpp moves a single byte.
#include <algorithm>
#include <cstdint>

#include "vtest/decoder.h"
#include "vtest/layout.h"
#include "vtest/protocol.h"
#include "vtest/transfers.h"

namespace clpipe::frontend::vtest {
namespace {

constexpr uint32_t kCopyTransferFromHost = 1u << 1;

const SharedMemory& backing_store(const VtestResource& r, uint32_t handle, const char* what) {
  if (!r.shm) protocol_error(what, ": resource ", handle, " has no backing store");
  return *r.shm;
}

}  // namespace

void Decoder::cmd_transfer3d(const Payload& p, uint32_t) {
  p.expect_len(13);
  const VtestResource& r = resources_.get(p[1], "TRANSFER3D");
  const SharedMemory& shm = backing_store(r, p[1], "TRANSFER3D");
  const TransferGeometry g =
      transfer_geometry(r.desc, r.layout, p[2], p.span(6, 6), p[4], p[5], "TRANSFER3D");
  check_span(p[12], g.span(), shm.size(), "TRANSFER3D");
  uint8_t* guest = shm.data() + p[12];
  if (p[13] == kTransferToHost) return report(upload_box(transfer_context(), r, p[2], g, guest));
  if (p[13] != kTransferFromHost) protocol_error("transfer direction ", p[13]);
  sync_for_transfer();
  report(download_box(transfer_context(), r, p[2], g, guest));
}

void Decoder::cmd_copy_transfer3d(const Payload& p, uint32_t) {
  p.expect_len(14);
  const VtestResource& dst = resources_.get(p[1], "COPY_TRANSFER3D destination");
  const VtestResource& src = resources_.get(p[12], "COPY_TRANSFER3D source");
  const SharedMemory& shm = backing_store(src, p[12], "COPY_TRANSFER3D source");
  const TransferGeometry g =
      transfer_geometry(dst.desc, dst.layout, p[2], p.span(6, 6), p[4], p[5], "COPY_TRANSFER3D");
  check_span(p[13], g.span(), shm.size(), "COPY_TRANSFER3D source");
  uint8_t* staging = shm.data() + p[13];
  if (p[14] & kCopyTransferFromHost) {
    sync_for_transfer();
    return report(download_box(transfer_context(), dst, p[2], g, staging));
  }
  report(upload_box(transfer_context(), dst, p[2], g, staging));
}

void Decoder::cmd_inline_write(const Payload& p, uint32_t) {
  p.expect_len_at_least(11);
  const VtestResource& r = resources_.get(p[1], "RESOURCE_INLINE_WRITE");
  // Inline data is packed: stride 0 means rows of the box's width, not the level's.
  const uint64_t row = uint64_t(p[9]) * r.layout.block_bytes();
  const uint32_t stride = p[4] ? p[4] : uint32_t(std::min<uint64_t>(row, UINT32_MAX));
  const uint64_t layer = p[5] ? p[5] : uint64_t(stride) * p[10];
  const TransferGeometry g =
      transfer_geometry(r.desc, r.layout, p[2], p.span(6, 6), stride,
                        uint32_t(std::min<uint64_t>(layer, UINT32_MAX)), "RESOURCE_INLINE_WRITE");
  const uint64_t data_bytes = uint64_t(p.len() - 11) * 4;
  check_span(0, g.span(), data_bytes, "RESOURCE_INLINE_WRITE data");
  const uint8_t* data =
      g.span() ? reinterpret_cast<const uint8_t*>(p.span(12, uint32_t((g.span() + 3) / 4)))
               : nullptr;
  report(upload_box(transfer_context(), r, p[2], g, data));
}

}  // namespace clpipe::frontend::vtest
