// resource_copy_region: raw copies of a box between buffers, or between textures of any
// targets whose formats have the same block size, at any level and layer.
#include <algorithm>
#include <cstdint>

#include "frontend/api_guard.h"
#include "frontend/context_impl.h"
#include "runtime/error.h"

namespace clpipe::frontend {

namespace {

bool overlap_1d(int64_t a, int64_t an, int64_t b, int64_t bn) {
  return a < b + bn && b < a + an;
}

}  // namespace

Status ContextImpl::resource_copy_region(const ResourceRef& dst, unsigned dst_level, unsigned dstx,
                                         unsigned dsty, unsigned dstz, const ResourceRef& src,
                                         unsigned src_level, const Box& src_box) {
  return guard("resource_copy_region", [&] {
    flush_scene();
    ResourceImpl& d = resource(dst, "resource_copy_region (dst)");
    ResourceImpl& s = resource(src, "resource_copy_region (src)");
    if (d.is_buffer() != s.is_buffer()) {
      runtime::invalid(
          "copies run between two buffers or two textures, not a buffer and a texture");
    }
    if (!d.is_buffer() && d.layout().block_bytes() != s.layout().block_bytes()) {
      runtime::invalid("incompatible formats: ", format_name(s.info().format), " (",
                       s.layout().block_bytes(), " bytes) to ", format_name(d.info().format), " (",
                       d.layout().block_bytes(), " bytes)");
    }
    if (!d.is_buffer() &&
        std::max<unsigned>(1, d.info().nr_samples) != std::max<unsigned>(1, s.info().nr_samples)) {
      runtime::invalid("copies run between resources of equal samples (",
                       unsigned(s.info().nr_samples), " -> ", unsigned(d.info().nr_samples),
                       "); blit resolves samples");
    }
    check_box(s.layout(), src_level, src_box, "resource_copy_region (src)");
    if (dstx > INT32_MAX || dsty > INT32_MAX || dstz > INT32_MAX) {
      runtime::invalid("destination origin out of range");
    }
    const Box dst_box{int32_t(dstx), int32_t(dsty),  int32_t(dstz),
                      src_box.width, src_box.height, src_box.depth};
    check_box(d.layout(), dst_level, dst_box, "resource_copy_region (dst)");
    if (&d == &s && dst_level == src_level &&
        overlap_1d(dst_box.x, dst_box.width, src_box.x, src_box.width) &&
        overlap_1d(dst_box.y, dst_box.height, src_box.y, src_box.height) &&
        overlap_1d(dst_box.z, dst_box.depth, src_box.z, src_box.depth)) {
      runtime::invalid("source and destination regions overlap");
    }
    const cl::Buffer src_storage = s.storage();
    const cl::Buffer dst_storage = d.storage();
    const cl::Event ev = ops_.copy(src_storage, region_of(s.layout(), src_level, src_box),
                                   dst_storage, region_of(d.layout(), dst_level, dst_box));
    s.note_use(id_, ev, false);
    d.note_use(id_, ev, true);
  });
}

}  // namespace clpipe::frontend
