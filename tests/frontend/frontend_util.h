// Helpers for the front-end tests: one Screen per test process, contexts, resources,
// and readback paths (through transfers, and raw from the resource's storage).
// Header-only: the test build compiles *_test.cpp files only.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "clpipe/clpipe.h"
#include "frontend/context_impl.h"
#include "frontend/resource.h"
#include "frontend/screen_impl.h"
#include "runtime/queue.h"

namespace clpipe::test {

inline std::shared_ptr<Screen> shared_screen() {
  static std::shared_ptr<Screen> screen = [] {
    auto s = Screen::create();
    if (!s) FAIL("Screen::create: " << s.status().to_string());
    return s.value();
  }();
  return screen;
}

inline std::unique_ptr<Context> new_context() {
  auto c = shared_screen()->context_create();
  REQUIRE(c.status().to_string() == "Ok");
  return std::move(c.value());
}

inline ResourceTemplate make_templ(TextureTarget target, Format format, uint32_t w, uint16_t h = 1,
                                   uint16_t d = 1, uint16_t layers = 1, uint8_t last_level = 0,
                                   uint32_t bind = 0) {
  ResourceTemplate t;
  t.target = target;
  t.format = format;
  t.width0 = w;
  t.height0 = h;
  t.depth0 = d;
  t.array_size = layers;
  t.last_level = last_level;
  t.bind = bind;
  return t;
}

inline ResourceRef create(const ResourceTemplate& t) {
  auto r = shared_screen()->resource_create(t);
  INFO(format_name(t.format) << " " << target_name(t.target));
  REQUIRE(r.status().to_string() == "Ok");
  return r.value();
}

inline ResourceRef create_buffer(uint32_t bytes) {
  return create(make_templ(TextureTarget::BUFFER, Format::R8_UNORM, bytes, 1, 1, 1, 0,
                           Bind::VERTEX_BUFFER | Bind::CONSTANT_BUFFER));
}

inline void finish(Context& ctx) {
  FenceHandle fence;
  REQUIRE(ctx.flush(&fence).is_ok());
  REQUIRE(ctx.screen().fence_finish(fence, UINT64_MAX).is_ok());
}

inline std::vector<uint8_t> read_raw(const ResourceRef& res) {
  auto* screen = dynamic_cast<frontend::ScreenImpl*>(shared_screen().get());
  auto* impl = dynamic_cast<frontend::ResourceImpl*>(res.get());
  REQUIRE(screen);
  REQUIRE(impl);
  static std::mutex m;
  std::lock_guard<std::mutex> lock(m);
  static runtime::Queue queue(screen->cl_device());
  std::vector<uint8_t> out(impl->layout().size_bytes());
  queue.read(impl->storage(), 0, out.size(), out.data());
  return out;
}

inline std::vector<uint8_t> read_box(Context& ctx, const ResourceRef& res, unsigned level,
                                     const Box& box) {
  auto t = ctx.transfer_map(res, level, Map::READ, box);
  REQUIRE(t.status().to_string() == "Ok");
  TransferHandle h = t.value();
  const uint32_t bs =
      res->info().target == TextureTarget::BUFFER ? 1 : format_desc(res->info().format).block_bytes;
  const size_t row = size_t(box.width) * bs;
  std::vector<uint8_t> out(row * box.height * box.depth);
  const auto* base = static_cast<const uint8_t*>(h->data());
  for (int z = 0; z < box.depth; ++z) {
    for (int y = 0; y < box.height; ++y) {
      std::memcpy(out.data() + (size_t(z) * box.height + y) * row,
                  base + z * h->layer_stride() + size_t(y) * h->stride(), row);
    }
  }
  REQUIRE(ctx.transfer_unmap(h).is_ok());
  return out;
}

inline void write_box(Context& ctx, const ResourceRef& res, unsigned level, const Box& box,
                      const std::vector<uint8_t>& packed) {
  auto t = ctx.transfer_map(res, level, Map::WRITE | Map::DISCARD_RANGE, box);
  REQUIRE(t.status().to_string() == "Ok");
  TransferHandle h = t.value();
  const uint32_t bs =
      res->info().target == TextureTarget::BUFFER ? 1 : format_desc(res->info().format).block_bytes;
  const size_t row = size_t(box.width) * bs;
  REQUIRE(packed.size() == row * box.height * box.depth);
  auto* base = static_cast<uint8_t*>(h->data());
  for (int z = 0; z < box.depth; ++z) {
    for (int y = 0; y < box.height; ++y) {
      std::memcpy(base + z * h->layer_stride() + size_t(y) * h->stride(),
                  packed.data() + (size_t(z) * box.height + y) * row, row);
    }
  }
  REQUIRE(ctx.transfer_unmap(h).is_ok());
}

inline Box level_box(const ResourceRef& res, unsigned level) {
  auto* impl = dynamic_cast<frontend::ResourceImpl*>(res.get());
  REQUIRE(impl);
  const frontend::LevelLayout& lv = impl->layout().level(level);
  return Box{0, 0, 0, int32_t(lv.width), int32_t(lv.height), int32_t(lv.layers)};
}

inline std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::vector<uint8_t> out(n);
  uint32_t x = seed * 2654435761u + 12345u;
  for (auto& b : out) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    b = uint8_t(x >> 3);
  }
  return out;
}

inline SurfaceHandle make_surface(Context& ctx, const ResourceRef& res, Format format,
                                  unsigned level = 0, unsigned first_layer = 0,
                                  unsigned last_layer = 0) {
  SurfaceTemplate t;
  t.format = format;
  t.level = uint8_t(level);
  t.first_layer = uint16_t(first_layer);
  t.last_layer = uint16_t(last_layer);
  auto s = ctx.create_surface(res, t);
  INFO(format_name(format));
  REQUIRE(s.status().to_string() == "Ok");
  return s.value();
}

// The viewport that maps clip space [-1, 1]^3 onto a w x h window and depth [0, 1].
inline ViewportState window_viewport(float w, float h) {
  ViewportState vp;
  vp.scale[0] = vp.translate[0] = w / 2.0f;
  vp.scale[1] = vp.translate[1] = h / 2.0f;
  vp.scale[2] = vp.translate[2] = 0.5f;
  return vp;
}

// The state a context holds, and a way to watch which calls set dirty bits.
inline const frontend::ContextState& state_of(Context& ctx) {
  return dynamic_cast<frontend::ContextImpl&>(ctx).state();
}
inline void clear_dirty(Context& ctx) {
  dynamic_cast<frontend::ContextImpl&>(ctx).mutable_state().dirty = 0;
}

}  // namespace clpipe::test
