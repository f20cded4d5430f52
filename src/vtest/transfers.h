// Data movement between guest memory (a resource's shared memory, or inline data of a
// protocol-0 message) and a clpipe resource, for a box already checked by
// transfer_geometry() and a guest range already checked by check_span().
//
// Used by TRANSFER3D / COPY_TRANSFER3D / RESOURCE_INLINE_WRITE (decode_transfer.cpp) and
// by the vtest-level TRANSFER_PUT(2) / TRANSFER_GET(2) (connection.cpp). Uploads go
// through Context::buffer_subdata / texture_subdata with the guest strides; readbacks map
// the box with Context::transfer_map(READ) and copy row by row into the guest layout.
#pragma once

#include <cstdint>

#include "clpipe/context.h"
#include "vtest/layout.h"
#include "vtest/resources.h"

namespace clpipe::frontend::vtest {

// src points at the first byte of the box in guest memory; g.span() bytes are readable.
Status upload_box(Context& ctx, const VtestResource& res, uint32_t level, const TransferGeometry& g,
                  const uint8_t* src);

// dst points at the first byte of the box in guest memory; g.span() bytes are writable.
Status download_box(Context& ctx, const VtestResource& res, uint32_t level,
                    const TransferGeometry& g, uint8_t* dst);

}  // namespace clpipe::frontend::vtest
