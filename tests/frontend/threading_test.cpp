// Threads: two contexts of one screen used from two threads at once (clears, copies and
// transfers on their own resources), and screen methods called concurrently.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

#include "frontend_util.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

// Runs rounds of clear -> copy -> transfer read/write on a context and its own
// resources; returns the number of rounds whose data was wrong.
int worker(Context* ctx, uint32_t seed, int rounds) {
  int wrong = 0;
  auto screen = shared_screen();
  for (int r = 0; r < rounds; ++r) {
    auto tex_r = screen->resource_create(
        make_templ(TextureTarget::TEXTURE_2D_ARRAY, Format::R32_UINT, 33, 17, 1, 3));
    auto buf_r = screen->resource_create(make_templ(TextureTarget::BUFFER, Format::R8_UNORM, 4096));
    if (!tex_r || !buf_r) return rounds;
    ResourceRef tex = tex_r.value(), buf = buf_r.value();
    const uint32_t value = seed * 1000 + uint32_t(r);
    if (!ctx->clear_texture(tex, 0, Box{0, 0, 0, 33, 17, 3}, &value).is_ok()) ++wrong;
    if (!ctx->clear_buffer(buf, 0, 4096, &value, 4).is_ok()) ++wrong;
    auto copy_r =
        screen->resource_create(make_templ(TextureTarget::BUFFER, Format::R8_UNORM, 4096));
    if (!copy_r) return rounds;
    ResourceRef copy = copy_r.value();
    if (!ctx->resource_copy_region(copy, 0, 0, 0, 0, buf, 0, make_box_1d(0, 4096)).is_ok()) ++wrong;
    auto data = random_bytes(33 * 4, seed + uint32_t(r));
    if (!ctx->texture_subdata(tex, 0, Map::WRITE, Box{0, 3, 2, 33, 1, 1}, data.data(), 33 * 4, 0)
             .is_ok()) {
      ++wrong;
    }
    auto t = ctx->transfer_map(tex, 0, Map::READ, Box{0, 0, 0, 33, 17, 3});
    if (!t) return rounds;
    TransferHandle h = t.value();
    bool ok = true;
    for (int z = 0; z < 3; ++z) {
      for (int y = 0; y < 17; ++y) {
        const auto* row =
            static_cast<const uint8_t*>(h->data()) + z * h->layer_stride() + y * h->stride();
        if (z == 2 && y == 3) {
          ok &= std::memcmp(row, data.data(), data.size()) == 0;
          continue;
        }
        for (int x = 0; x < 33; ++x) {
          uint32_t v;
          std::memcpy(&v, row + 4 * x, 4);
          ok &= v == value;
        }
      }
    }
    if (!ctx->transfer_unmap(h).is_ok()) ok = false;
    auto b = ctx->transfer_map(copy, 0, Map::READ, make_box_1d(4092, 4));
    if (!b) return rounds;
    TransferHandle bh = b.value();
    uint32_t last;
    std::memcpy(&last, bh->data(), 4);
    ok &= last == value;
    if (!ctx->transfer_unmap(bh).is_ok()) ok = false;
    if (!ok) ++wrong;
  }
  return wrong;
}

}  // namespace

TEST_CASE("two contexts of one screen work from two threads at once", "[frontend][threads]") {
  auto a = new_context();
  auto b = new_context();
  std::atomic<int> wrong_a{-1}, wrong_b{-1};
  std::thread ta([&] { wrong_a = worker(a.get(), 1, 25); });
  std::thread tb([&] { wrong_b = worker(b.get(), 2, 25); });
  ta.join();
  tb.join();
  CHECK(wrong_a == 0);
  CHECK(wrong_b == 0);
}

TEST_CASE("screen methods are safe to call from many threads", "[frontend][threads]") {
  auto screen = shared_screen();
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        if (screen->get_param(Cap::MAX_TEXTURE_2D_SIZE) <= 0) ++failures;
        if (!screen->is_format_supported(Format::R8G8B8A8_UNORM, TextureTarget::TEXTURE_2D, 0, 0,
                                         Bind::RENDER_TARGET)) {
          ++failures;
        }
        auto r = screen->resource_create(
            make_templ(TextureTarget::TEXTURE_2D, Format::R8_UNORM, 16 + t, 8));
        if (!r) ++failures;
        auto c = screen->context_create();
        if (!c) ++failures;
        screen->get_timestamp();
      }
    });
  }
  for (auto& th : threads)
    th.join();
  CHECK(failures == 0);
}
