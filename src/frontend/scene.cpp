// ContextImpl's scenes: the draws recorded since the last flush of the scene, run when
// their results are needed or their inputs are about to change (context_impl.h lists
// the calls that flush). The pipeline (draw/draw_pipeline.h) records and runs them; this
// file keeps what the context must know of them: the resources they use.
#include <algorithm>

#include "frontend/api_guard.h"
#include "frontend/context_impl.h"

namespace clpipe::frontend {

void ContextImpl::note_scene_use(const DrawResources& used) {
  auto add = [&](ResourceImpl* r, bool writes, bool beyond_vertices) {
    for (SceneUse& u : scene_resources_) {
      if (u.res.get() == r) {
        u.writes = u.writes || writes;
        u.beyond_vertices = u.beyond_vertices || beyond_vertices;
        return;
      }
    }
    scene_resources_.push_back(SceneUse{r->shared_from_this(), writes, beyond_vertices});
  };
  for (ResourceImpl* r : used.vertex_reads)
    add(r, false, false);
  for (ResourceImpl* r : used.reads)
    add(r, false, true);
  for (ResourceImpl* r : used.writes)
    add(r, true, true);
}

bool ContextImpl::scene_holds_released() const {
  uint64_t bytes = 0;
  for (const SceneUse& u : scene_resources_) {
    if (u.res.use_count() == 1) bytes += u.res->size_bytes();
  }
  return bytes > released_limit_;
}

void ContextImpl::flush_scene() {
  if (!pipeline_ || pipeline_->empty()) return;
  auto resources = std::move(scene_resources_);
  scene_resources_.clear();
  const cl::Buffer counted = scene_query_counters_;
  scene_query_counters_ = cl::Buffer();
  pipeline_->execute();  // empties the scene even when it throws
  const cl::Event done = queue_.marker();
  for (const SceneUse& u : resources)
    u.res->note_use(id(), done, u.writes);
  if (counted()) queries_.after_draw(counted, QueryDrawCounts());
}

void ContextImpl::flush_scene_using(const ResourceRef& res) {
  const Resource* r = res.get();
  if (std::any_of(scene_resources_.begin(), scene_resources_.end(),
                  [&](const SceneUse& u) { return u.res.get() == r; })) {
    flush_scene();
  }
}

void ContextImpl::flush_scene_writing(const ResourceRef& res, uint64_t begin, uint64_t end) {
  for (const SceneUse& u : scene_resources_) {
    if (u.res.get() != res.get()) continue;
    // The draws captured the storage the resource had then: a write to storage renamed
    // since cannot reach what they read.
    if (u.beyond_vertices || !pipeline_ ||
        pipeline_->reads_vertex_bytes(u.res->storage(), begin, end)) {
      flush_scene();
    }
    return;
  }
}

void ContextImpl::flush_scene_nothrow() noexcept {
  const Status s = guard("scene", [&] { flush_scene(); });
  if (!s.ok() && scene_error_.ok()) scene_error_ = s;
}

draw::SceneCounters ContextImpl::scene_counters() const {
  return pipeline_ ? pipeline_->counters() : draw::SceneCounters();
}

void ContextImpl::set_scene_capacity_cap(uint32_t records, uint32_t list) {
  if (!pipeline_) pipeline_ = std::make_unique<draw::DrawPipeline>(queue_, screen_->programs());
  pipeline_->set_capacity_cap(records, list);
}

void ContextImpl::set_scene_scratch_budget(uint64_t bytes) {
  if (!pipeline_) pipeline_ = std::make_unique<draw::DrawPipeline>(queue_, screen_->programs());
  pipeline_->set_scratch_budget(bytes);
}

void ContextImpl::set_device_count_positions(uint64_t positions) {
  if (!pipeline_) pipeline_ = std::make_unique<draw::DrawPipeline>(queue_, screen_->programs());
  pipeline_->set_device_count_positions(positions);
}

void ContextImpl::set_tile_variant_mode(draw::TileVariantMode mode) {
  if (!pipeline_) pipeline_ = std::make_unique<draw::DrawPipeline>(queue_, screen_->programs());
  pipeline_->set_tile_mode(mode);
}

}  // namespace clpipe::frontend
