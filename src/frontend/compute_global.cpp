// set_global_binding and the per-dispatch MEMORY GLOBAL space (compute_global.h).
#include "frontend/compute_global.h"

#include <algorithm>

#include "frontend/api_guard.h"
#include "frontend/context_impl.h"
#include "frontend/resource.h"
#include "runtime/error.h"

namespace clpipe::frontend {

namespace {

uint64_t align_up(uint64_t v, uint64_t a) {
  return (v + a - 1) / a * a;
}

// Bytes a resource occupies in the space: at least one word, so that two resources never
// share a base even if a zero-sized buffer existed.
uint64_t extent(const ResourceImpl& r) {
  return std::max<uint64_t>(r.size_bytes(), 4);
}

}  // namespace

uint64_t global_space_limit(uint64_t max_mem_alloc_size) {
  return std::min<uint64_t>(max_mem_alloc_size, (uint64_t(1) << 32) - 4);
}

void GlobalBindings::set(unsigned first, unsigned count, const std::vector<ResourceRef>& resources,
                         const std::vector<uint32_t*>& handles, uint64_t screen_id,
                         uint64_t space_limit) {
  if (uint64_t(first) + count > kMaxGlobalBindings) {
    runtime::invalid("global binding slots ", first, "..", uint64_t(first) + count, " exceed the ",
                     kMaxGlobalBindings, " slots");
  }
  if (resources.empty()) {
    if (!handles.empty()) runtime::invalid("handles given without resources");
  } else if (resources.size() != count || handles.size() != count) {
    runtime::invalid("count is ", count, " but ", resources.size(), " resources and ",
                     handles.size(), " handles were given");
  }
  std::vector<ResourceImpl*> impls(resources.size(), nullptr);
  for (size_t i = 0; i < resources.size(); ++i) {
    if (!resources[i]) continue;
    ResourceImpl& r = resource_of(resources[i], screen_id, "global binding");
    if (!r.is_buffer()) {
      runtime::invalid("global binding ", first + i, ": the resource is not a BUFFER");
    }
    if (handles[i] && *handles[i] > r.size_bytes()) {
      runtime::invalid("global binding ", first + i, ": the handle's offset ", *handles[i],
                       " is past the buffer (", r.size_bytes(), " bytes)");
    }
    impls[i] = &r;
  }

  // The new slots, placed without touching the current ones (a failure changes nothing).
  std::array<Slot, kMaxGlobalBindings> next = slots_;
  for (unsigned i = 0; i < count; ++i)
    next[first + i] = Slot{};
  for (size_t i = 0; i < resources.size(); ++i) {
    if (!impls[i]) continue;
    Slot& s = next[first + i];
    s.resource = resources[i];
    // A resource already in the space keeps its base.
    bool placed = false;
    for (const Slot& o : next) {
      if (&o != &s && o.resource && o.resource.get() == resources[i].get()) {
        s.base = o.base;
        placed = true;
        break;
      }
    }
    if (placed) continue;
    // First fit above kGlobalFirstBase among the resources placed so far.
    std::vector<std::pair<uint64_t, uint64_t>> taken;  // [base, end)
    for (const Slot& o : next) {
      if (&o == &s || !o.resource) continue;
      taken.emplace_back(o.base, o.base + extent(resource_of(o.resource, screen_id, "global")));
    }
    std::sort(taken.begin(), taken.end());
    const uint64_t size = extent(*impls[i]);
    auto free_at = [&](uint64_t b) {
      return std::none_of(taken.begin(), taken.end(), [&](const std::pair<uint64_t, uint64_t>& t) {
        return b < t.second && t.first < b + size;
      });
    };
    // A resource rebound (e.g. the same buffers bound again before each dispatch) keeps
    // the base it had when that place is still free, so that earlier addresses stay valid.
    uint64_t base = 0;
    for (const Slot& o : slots_) {
      if (o.resource.get() == resources[i].get() && free_at(o.base)) {
        base = o.base;
        break;
      }
    }
    if (base == 0) {
      base = kGlobalFirstBase;
      for (const auto& t : taken) {
        if (base + size <= t.first) break;
        base = std::max(base, align_up(t.second, kGlobalBaseAlign));
      }
    }
    if (base + size > space_limit) {
      runtime::unsupported("global binding ", first + i, ": ", size,
                           " more bytes do not fit the global address space (", space_limit,
                           " bytes, of which the bound buffers take up to ", base, ")");
    }
    s.base = base;
  }

  slots_ = next;
  // base + offset <= base + size <= space_limit < 2^32: the sum fits the handle.
  for (size_t i = 0; i < resources.size(); ++i) {
    if (impls[i] && handles[i]) *handles[i] = uint32_t(*handles[i] + slots_[first + i].base);
  }
}

std::vector<GlobalBindings::Placement> GlobalBindings::placements(uint64_t screen_id) const {
  std::vector<Placement> out;
  for (const Slot& s : slots_) {
    if (!s.resource) continue;
    ResourceImpl& r = resource_of(s.resource, screen_id, "global binding");
    const bool seen =
        std::any_of(out.begin(), out.end(), [&](const Placement& p) { return p.resource == &r; });
    if (!seen) out.push_back({&r, s.base, r.size_bytes()});
  }
  std::sort(out.begin(), out.end(),
            [](const Placement& a, const Placement& b) { return a.base < b.base; });
  return out;
}

GlobalSpace plan_global_space(runtime::Queue& q, const GlobalBindings& bindings,
                              uint64_t screen_id) {
  GlobalSpace space;
  space.placements = bindings.placements(screen_id);
  for (const GlobalBindings::Placement& p : space.placements)
    space.size = std::max(space.size, p.base + p.size);
  space.size = align_up(space.size, 4);
  if (space.size) space.buffer = q.create_buffer(size_t(space.size));
  return space;
}

void upload_global_space(runtime::Queue& q, const GlobalSpace& space) {
  if (space.size == 0) return;
  // One fill of the whole space, then the resources on top (the queue is in order): the
  // gaps read 0, and the fill needs no word-aligned gap boundaries.
  q.fill_zero(space.buffer, 0, size_t(space.size));
  for (const GlobalBindings::Placement& p : space.placements)
    q.copy(p.resource->storage(), 0, space.buffer, size_t(p.base), size_t(p.size));
}

void download_global_space(runtime::Queue& q, const GlobalSpace& space) {
  for (const GlobalBindings::Placement& p : space.placements)
    q.copy(space.buffer, size_t(p.base), p.resource->storage(), 0, size_t(p.size));
}

Status ContextImpl::set_global_binding(unsigned first, unsigned count,
                                       const std::vector<ResourceRef>& resources,
                                       const std::vector<uint32_t*>& handles) {
  return guard("set_global_binding", [&] {
    const uint64_t limit = global_space_limit(screen_->cl_device().limits().max_mem_alloc_size);
    state_.global_bindings.set(first, count, resources, handles, screen_->id(), limit);
  });
}

}  // namespace clpipe::frontend
