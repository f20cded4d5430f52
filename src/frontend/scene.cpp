// ContextImpl's scenes: the draws recorded since the last flush of the scene, run when
// their results are needed or their inputs are about to change (context_impl.h lists
// the calls that flush). The pipeline (draw/draw_pipeline.h) records and runs them; this
// file keeps what the context must know of them: the resources they use.
#include <algorithm>

#include "frontend/api_guard.h"
#include "frontend/context_impl.h"

namespace clpipe::frontend {

void ContextImpl::note_scene_use(const DrawResources& used) {
  auto add = [&](ResourceImpl* r, bool writes) {
    for (auto& [res, w] : scene_resources_) {
      if (res.get() == r) {
        w = w || writes;
        return;
      }
    }
    scene_resources_.emplace_back(r->shared_from_this(), writes);
  };
  for (ResourceImpl* r : used.reads)
    add(r, false);
  for (ResourceImpl* r : used.writes)
    add(r, true);
}

bool ContextImpl::scene_holds_released() const {
  uint64_t bytes = 0;
  for (const auto& [res, writes] : scene_resources_) {
    if (res.use_count() == 1) bytes += res->size_bytes();
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
  for (auto& [res, writes] : resources)
    res->note_use(id(), done, writes);
  if (counted()) queries_.after_draw(counted, QueryDrawCounts());
}

void ContextImpl::flush_scene_using(const ResourceRef& res) {
  const Resource* r = res.get();
  if (std::any_of(scene_resources_.begin(), scene_resources_.end(),
                  [&](const auto& u) { return u.first.get() == r; })) {
    flush_scene();
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
