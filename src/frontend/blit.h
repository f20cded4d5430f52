// Blitter: the engine behind Context::blit and Context::generate_mipmap.
//
// Producers: ContextImpl::blit (blit.cpp) and ContextImpl::generate_mipmap (mipmap.cpp)
// resolve the resource handles and pass a BlitInfo. The Blitter validates it (throwing
// clpipe::Error with kInvalidArgument / kUnsupported), normalises the boxes and enqueues
// one command: a raw copy (DeviceOps::copy) when the blit is an unscaled copy of one
// format, else one launch of blit_texels (src/kernels/blit.cl) with a ClpBlitParams
// (src/kernels/blit_shared.h). Every command is reported to the resources it uses with
// ResourceImpl::note_use. One Blitter per context queue, used by one thread at a time.
//
// Rules that Gallium leaves open, decided here:
// * a source box may lie partly outside its level (GL's BlitFramebuffer allows it and
//   leaves those texels undefined): clpipe clamps every source texel index to the level,
//   so such texels repeat the edge. A source box with no texel inside the level, or a
//   destination box outside its level, is kInvalidArgument;
// * a blit inside one level whose source footprint may overlap the destination reads a
//   staging copy of that footprint, so the result is that of a blit from a copy;
// * mask bits of the other kind are ignored (RGBA for depth/stencil formats, Z/S for
//   colour formats), as Gallium drivers do; a mask that selects nothing writes nothing.
#pragma once

#include <cstdint>

#include "clpipe/state.h"
#include "frontend/device_ops.h"
#include "frontend/resource.h"
#include "kernels/blit_shared.h"
#include "runtime/program_cache.h"
#include "runtime/queue.h"

namespace clpipe::frontend {

struct BlitGeometry;  // blit.cpp

class Blitter {
 public:
  Blitter(runtime::Queue& queue, runtime::ProgramCache& programs, DeviceOps& ops,
          uint64_t context_id);

  // Validates and enqueues the blit; dst and src are info.dst/src.resource, resolved by
  // the caller (non-null, of this screen). Throws before enqueueing anything when the
  // request is invalid. A valid blit whose render condition failed (condition_passed
  // false) enqueues nothing.
  void blit(ResourceImpl& dst, ResourceImpl& src, const BlitInfo& info, bool condition_passed);

 private:
  // An unscaled blit of one format that writes everything: one raw copy.
  void copy_texels(ResourceImpl& dst, ResourceImpl& src, const BlitInfo& info,
                   const BlitGeometry& g);
  // One blit_texels launch with the conversion already chosen in p.
  void launch(ResourceImpl& dst, ResourceImpl& src, const BlitInfo& info, const BlitGeometry& g,
              ClpBlitParams p);

  runtime::Queue& queue_;
  runtime::ProgramCache& programs_;
  DeviceOps& ops_;
  const uint64_t context_id_;
  runtime::ProgramRef program_;  // blit.cl, fetched at first use
  size_t max_group_ = 0;         // largest work-group of blit_texels, read at first use
};

}  // namespace clpipe::frontend
