// Transfers: transfer_map / transfer_flush_region / transfer_unmap, buffer_subdata and
// texture_subdata.
//
// Maps run on the context's transfer queue, after waiting only for this context's
// unfinished commands that use the resource (all of them for a WRITE map, only writes
// for a READ map), so mapping an idle resource never waits for unrelated work:
// * direct maps map the byte span of the box with clEnqueueMapBuffer; data() is the
//   box's first texel, stride() the level's row pitch, layer_stride() its layer pitch.
//   They serve READ-only maps and write maps whose span holds nothing but the box
//   (whole rows, whole layers), buffers included;
// * other write maps use a host staging copy of the span (same strides) and write back
//   only the box: a driver that maps through a copy writes the whole span back at unmap,
//   which would overwrite texels between the rows that another transfer changed.
//   FLUSH_EXPLICIT maps and resources created with DONT_MAP_DIRECTLY are staged too;
//   FLUSH_EXPLICIT writes back only the boxes given to transfer_flush_region, others
//   write the whole box at unmap. DIRECTLY fails where a map would be staged;
// * DONTBLOCK fails with kNotReady when the map would have to wait;
// * DISCARD_WHOLE_RESOURCE on a busy resource renames it, unless another transfer of it
//   is outstanding: the resource gets fresh storage (contents undefined, as the flag
//   allows) and the queued commands keep the old one;
// * UNSYNCHRONIZED waits for nothing;
// * PERSISTENT / COHERENT are refused (BUFFER_MAP_PERSISTENT_COHERENT = 0), and so are
//   DEPTH_ONLY / STENCIL_ONLY (combined depth/stencil texels are mapped as they are).
// Unmaps complete before they return, so later commands of any queue see the data.
// Subdata uploads copy the caller's bytes and write them in order on the main queue.
#include <array>
#include <cstring>

#include "frontend/api_guard.h"
#include "frontend/context_impl.h"
#include "runtime/error.h"

namespace clpipe::frontend {

namespace {

constexpr uint32_t kKnownMapFlags = (Map::ONCE << 1) - 1;

// Samples are not addressed by a box: a multisampled texture is read and written through
// blits (resolves) and copies, as Gallium drivers do.
void check_single_sampled(const ResourceImpl& r, const char* what) {
  if (r.info().nr_samples > 1) {
    runtime::unsupported(what, ": a multisampled texture (", unsigned(r.info().nr_samples),
                         " samples) is not mapped; blit it to a single-sampled one");
  }
}

class TransferImpl final : public Transfer {
 public:
  TransferImpl(ResourceRef res, unsigned level, uint32_t usage, const Box& box, uint64_t context_id,
               std::shared_ptr<runtime::Queue> queue, std::shared_ptr<ScreenImpl> screen)
      : Transfer(std::move(res), level, usage, box),
        context_id_(context_id),
        queue_(std::move(queue)),
        screen_(std::move(screen)) {}

  ~TransferImpl() override {
    // Dropped without transfer_unmap: release the mapping (staged writes are lost).
    try {
      release();
    } catch (const std::exception&) {
      // Nothing to report to from a destructor; the buffer's release unmaps it anyway.
    }
  }

  ResourceImpl& resource_impl() const { return static_cast<ResourceImpl&>(*resource_); }
  void set_view(void* data, uint32_t stride, uint64_t layer_stride) {
    data_ = data;
    stride_ = stride;
    layer_stride_ = layer_stride;
  }
  // Ends the transfer's hold on the storage: unmaps a direct mapping. Runs once.
  void release() {
    if (!holds_storage_) return;
    holds_storage_ = false;
    resource_impl().end_mapping();
    if (!mapped_) return;
    void* p = mapped_;
    mapped_ = nullptr;
    cl::Event ev;
    CLP_CHECK(queue_->handle().enqueueUnmapMemObject(storage_, p, nullptr, &ev));
    CLP_CHECK(ev.wait());
  }

  const uint64_t context_id_;
  std::shared_ptr<runtime::Queue> queue_;
  std::shared_ptr<ScreenImpl> screen_;  // keeps the device of queue_ alive
  cl::Buffer storage_;                  // the storage mapped or written back to
  bool holds_storage_ = false;          // counted by ResourceImpl::begin_mapping
  void* mapped_ = nullptr;              // direct mapping, or null
  std::vector<uint8_t> staging_;        // staging copy of the span, or empty
  bool active_ = true;
};

// Byte span [first, first + size) of a box (validated) in its level.
std::pair<uint64_t, uint64_t> span_of(const ResourceLayout& L, unsigned level, const Box& b) {
  const uint64_t first = L.texel_offset(level, b.x, b.y, b.z);
  const uint64_t last =
      L.texel_offset(level, b.x + b.width - 1, b.y + b.height - 1, b.z + b.depth - 1) +
      L.block_bytes();
  return {first, last - first};
}

// The span holds nothing but the box (and row padding): whole rows, and whole layers
// when there are several.
bool span_is_box_only(const ResourceLayout& L, unsigned level, const Box& b) {
  const LevelLayout& lv = L.level(level);
  return L.is_buffer() || (b.x == 0 && uint32_t(b.width) == lv.width &&
                           (b.depth == 1 || uint32_t(b.height) == lv.height));
}

// Writes a box (validated) from host memory laid out with the given pitches.
cl::Event write_box(runtime::Queue& q, const cl::Buffer& buf, const ResourceLayout& L,
                    unsigned level, const Box& b, const void* src, size_t src_row_pitch,
                    size_t src_layer_pitch, bool blocking) {
  const LevelLayout& lv = L.level(level);
  const std::array<size_t, 3> buffer_origin = {size_t(lv.offset + uint64_t(b.x) * L.block_bytes()),
                                               size_t(b.y), size_t(b.z)};
  const std::array<size_t, 3> host_origin = {0, 0, 0};
  const std::array<size_t, 3> region = {size_t(b.width) * L.block_bytes(), size_t(b.height),
                                        size_t(b.depth)};
  cl::Event ev;
  CLP_CHECK(q.handle().enqueueWriteBufferRect(buf, blocking ? CL_TRUE : CL_FALSE, buffer_origin,
                                              host_origin, region, lv.row_pitch, lv.layer_pitch,
                                              src_row_pitch, src_layer_pitch, src, nullptr, &ev));
  return ev;
}

// Whether a map goes through a staging copy (see the top of the file).
bool is_staged(uint32_t usage, const ResourceImpl& r, unsigned level, const Box& box) {
  return (usage & Map::FLUSH_EXPLICIT) || (r.info().flags & ResourceFlag::DONT_MAP_DIRECTLY) ||
         ((usage & Map::WRITE) && !span_is_box_only(r.layout(), level, box));
}

void check_usage(uint32_t usage, const ResourceImpl& r) {
  if (usage & ~kKnownMapFlags)
    runtime::invalid("unknown map flags 0x", std::hex, usage & ~kKnownMapFlags);
  if (!(usage & (Map::READ | Map::WRITE))) runtime::invalid("usage needs READ or WRITE");
  if (usage & (Map::PERSISTENT | Map::COHERENT)) {
    runtime::unsupported(
        "persistent / coherent maps are not supported (BUFFER_MAP_PERSISTENT_COHERENT = 0)");
  }
  if (usage & (Map::DEPTH_ONLY | Map::STENCIL_ONLY)) {
    runtime::unsupported("DEPTH_ONLY / STENCIL_ONLY maps are not supported");
  }
  if ((usage & Map::FLUSH_EXPLICIT) && !(usage & Map::WRITE)) {
    runtime::invalid("FLUSH_EXPLICIT needs WRITE");
  }
  if (r.info().flags & ResourceFlag::UNMAPPABLE) runtime::invalid("the resource is UNMAPPABLE");
}

}  // namespace

Result<TransferHandle> ContextImpl::transfer_map(const ResourceRef& res, unsigned level,
                                                 uint32_t usage, const Box& box) {
  return guard_result<TransferHandle>("transfer_map", [&] {
    flush_scene_using(res);
    ResourceImpl& r = resource(res, "transfer_map");
    check_single_sampled(r, "transfer_map");
    check_usage(usage, r);
    check_box(r.layout(), level, box, "transfer_map");
    const auto [first, size] = span_of(r.layout(), level, box);
    const bool staged = is_staged(usage, r, level, box);
    if ((usage & Map::DIRECTLY) && staged) {
      runtime::unsupported(
          "cannot map directly: FLUSH_EXPLICIT, DONT_MAP_DIRECTLY and writes "
          "of part of a row go through a staging copy");
    }

    if (!(usage & Map::UNSYNCHRONIZED)) {
      std::vector<cl::Event> waits = r.pending(id_, !(usage & Map::WRITE));
      if (!waits.empty() && (usage & Map::DISCARD_WHOLE_RESOURCE) &&
          r.try_rename(queue_.create_buffer(r.layout().alloc_bytes()))) {
        waits.clear();
      }
      if (!waits.empty()) {
        if (usage & Map::DONTBLOCK) {
          runtime::fail(ErrorCode::kNotReady, "the resource is busy (DONTBLOCK)");
        }
        queue_.flush();
        CLP_CHECK(cl::Event::waitForEvents(waits));
      }
    }

    auto t = std::make_shared<TransferImpl>(res, level, usage, box, id_, transfer_queue_, screen_);
    const LevelLayout& lv = r.layout().level(level);
    // Until the transfer ends, the storage it reads and writes is not renamed.
    t->storage_ = r.begin_mapping();
    t->holds_storage_ = true;
    if (staged) {
      t->staging_.resize(size);
      if (usage & Map::READ) transfer_queue_->read(t->storage_, first, size, t->staging_.data());
      t->set_view(t->staging_.data(), lv.row_pitch, lv.layer_pitch);
    } else {
      cl_map_flags flags = 0;
      if (usage & Map::READ) flags |= CL_MAP_READ;
      if (usage & Map::WRITE) flags |= CL_MAP_WRITE;
      // Write maps are direct only when the span is the box (is_staged), so discarding
      // the span discards nothing but the box.
      if (!(usage & Map::READ) && (usage & (Map::DISCARD_RANGE | Map::DISCARD_WHOLE_RESOURCE))) {
        flags = CL_MAP_WRITE_INVALIDATE_REGION;
      }
      cl_int status = CL_SUCCESS;
      void* p = transfer_queue_->handle().enqueueMapBuffer(t->storage_, CL_TRUE, flags, first, size,
                                                           nullptr, nullptr, &status);
      // On failure the transfer's destructor ends its hold on the storage.
      if (status != CL_SUCCESS) throw runtime::Error(status, "clEnqueueMapBuffer");
      t->mapped_ = p;
      t->set_view(p, lv.row_pitch, lv.layer_pitch);
    }
    return TransferHandle(std::move(t));
  });
}

Status ContextImpl::transfer_flush_region(const TransferHandle& transfer, const Box& box) {
  return guard("transfer_flush_region", [&] {
    auto* t = dynamic_cast<TransferImpl*>(transfer.get());
    if (t == nullptr || t->context_id_ != id_ || !t->active_) {
      runtime::invalid("not a transfer mapped by this context");
    }
    if (!(t->usage() & Map::FLUSH_EXPLICIT))
      runtime::invalid("the transfer was not mapped with FLUSH_EXPLICIT");
    const Box& tb = t->box();
    // box is relative to the transfer's box.
    if (box.width <= 0 || box.height <= 0 || box.depth <= 0 || box.x < 0 || box.y < 0 ||
        box.z < 0 || int64_t(box.x) + box.width > tb.width ||
        int64_t(box.y) + box.height > tb.height || int64_t(box.z) + box.depth > tb.depth) {
      runtime::invalid("box (", box.x, ",", box.y, ",", box.z, ") ", box.width, "x", box.height,
                       "x", box.depth, " is empty or outside the mapped ", tb.width, "x", tb.height,
                       "x", tb.depth);
    }
    ResourceImpl& r = t->resource_impl();
    const Box abs{tb.x + box.x, tb.y + box.y, tb.z + box.z, box.width, box.height, box.depth};
    const uint8_t* src = t->staging_.data() + uint64_t(box.z) * t->layer_stride() +
                         uint64_t(box.y) * t->stride() + uint64_t(box.x) * r.layout().block_bytes();
    write_box(*transfer_queue_, t->storage_, r.layout(), t->level(), abs, src, t->stride(),
              t->layer_stride(), true);
  });
}

Status ContextImpl::transfer_unmap(TransferHandle& transfer) {
  return guard("transfer_unmap", [&] {
    auto* t = dynamic_cast<TransferImpl*>(transfer.get());
    if (t == nullptr) runtime::invalid("not a transfer of clpipe (null or foreign)");
    if (t->context_id_ != id_) runtime::invalid("the transfer was mapped by another context");
    if (!t->active_) runtime::invalid("the transfer is already unmapped");
    t->active_ = false;
    if (!t->mapped_ && (t->usage() & Map::WRITE) && !(t->usage() & Map::FLUSH_EXPLICIT)) {
      ResourceImpl& r = t->resource_impl();
      write_box(*transfer_queue_, t->storage_, r.layout(), t->level(), t->box(), t->staging_.data(),
                t->stride(), t->layer_stride(), true);
    }
    t->release();
    transfer.reset();
  });
}

Status ContextImpl::buffer_subdata(const ResourceRef& res, uint32_t usage, uint32_t offset,
                                   uint32_t size, const void* data) {
  return guard("buffer_subdata", [&] {
    flush_scene_writing(res, offset, uint64_t(offset) + size);
    ResourceImpl& r = resource(res, "buffer_subdata");
    if (!r.is_buffer()) runtime::invalid("the resource is not a BUFFER");
    if (usage & ~kKnownMapFlags) runtime::invalid("unknown map flags");
    if (uint64_t(offset) + size > r.size_bytes()) {
      runtime::invalid("bytes ", offset, "+", size, " exceed the buffer (", r.size_bytes(),
                       " bytes)");
    }
    if (size == 0) return;
    if (!data) runtime::invalid("null data");
    const auto* p = static_cast<const uint8_t*>(data);
    auto copy = std::make_shared<std::vector<uint8_t>>(p, p + size);
    cl::Event ev;
    CLP_CHECK(queue_.handle().enqueueWriteBuffer(r.storage(), CL_FALSE, offset, size, copy->data(),
                                                 nullptr, &ev));
    r.note_use(id_, ev, true);
    keep_until_done(ev, std::move(copy));
  });
}

Status ContextImpl::texture_subdata(const ResourceRef& res, unsigned level, uint32_t usage,
                                    const Box& box, const void* data, uint32_t stride,
                                    uint64_t layer_stride) {
  return guard("texture_subdata", [&] {
    flush_scene_using(res);
    ResourceImpl& r = resource(res, "texture_subdata");
    check_single_sampled(r, "texture_subdata");
    if (usage & ~kKnownMapFlags) runtime::invalid("unknown map flags");
    check_box(r.layout(), level, box, "texture_subdata");
    if (!data) runtime::invalid("null data");
    const uint64_t row_bytes = uint64_t(box.width) * r.layout().block_bytes();
    if (box.height > 1 && stride < row_bytes) {
      runtime::invalid("stride ", stride, " is less than a row (", row_bytes, " bytes)");
    }
    const uint64_t layer_bytes = uint64_t(box.height - 1) * stride + row_bytes;
    if (box.depth > 1 && layer_stride < layer_bytes) {
      runtime::invalid("layer_stride ", layer_stride, " is less than a layer (", layer_bytes,
                       " bytes)");
    }
    // Copy the caller's rows now (they may go after the call), packed tightly.
    auto copy = std::make_shared<std::vector<uint8_t>>(row_bytes * box.height * box.depth);
    const auto* src = static_cast<const uint8_t*>(data);
    for (int32_t z = 0; z < box.depth; ++z) {
      for (int32_t y = 0; y < box.height; ++y) {
        std::memcpy(copy->data() + (uint64_t(z) * box.height + y) * row_bytes,
                    src + z * layer_stride + uint64_t(y) * stride, row_bytes);
      }
    }
    const cl::Event ev = write_box(queue_, r.storage(), r.layout(), level, box, copy->data(),
                                   row_bytes, row_bytes * box.height, false);
    r.note_use(id_, ev, true);
    keep_until_done(ev, std::move(copy));
  });
}

}  // namespace clpipe::frontend
