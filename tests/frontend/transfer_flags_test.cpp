// Transfers: every map flag (READ, WRITE, DISCARD_RANGE, DISCARD_WHOLE_RESOURCE,
// UNSYNCHRONIZED, DONTBLOCK, FLUSH_EXPLICIT, DIRECTLY, PERSISTENT/COHERENT), subdata,
// and every bad-input case (boxes, flags, unmaps of what was not mapped).
//
// Busy resources are made deterministic with an OpenCL user event recorded as pending
// work of the context (what every queued command does through ResourceImpl::note_use).
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>
#include <vector>

#include "frontend/context_impl.h"
#include "frontend_util.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

frontend::ResourceImpl& impl(const ResourceRef& r) {
  return dynamic_cast<frontend::ResourceImpl&>(*r);
}

uint64_t context_id(Context& ctx) {
  return dynamic_cast<frontend::ContextImpl&>(ctx).id();
}

cl::UserEvent user_event() {
  auto& screen = dynamic_cast<frontend::ScreenImpl&>(*shared_screen());
  return cl::UserEvent(screen.cl_device().context());
}

ResourceRef filled_2d(Context& ctx, uint8_t base) {
  auto tex = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8_UNORM, 8, 8));
  std::vector<uint8_t> data(64);
  for (int i = 0; i < 64; ++i)
    data[i] = uint8_t(base + i);
  write_box(ctx, tex, 0, make_box_2d(0, 0, 8, 8), data);
  return tex;
}

ErrorCode map_code(Context& ctx, const ResourceRef& res, uint32_t usage, const Box& box,
                   unsigned level = 0) {
  auto t = ctx.transfer_map(res, level, usage, box);
  if (t.is_ok()) {
    TransferHandle h = t.value();
    REQUIRE(ctx.transfer_unmap(h).is_ok());
  } else {
    CHECK_FALSE(t.status().message().empty());
  }
  return t.status().code();
}

}  // namespace

TEST_CASE("DONTBLOCK fails while this context's work uses the resource", "[frontend][transfer]") {
  auto ctx = new_context();
  auto tex = filled_2d(*ctx, 0);
  const Box all = make_box_2d(0, 0, 8, 8);
  finish(*ctx);
  CHECK_FALSE(ctx->is_resource_referenced(tex, 0));
  CHECK(map_code(*ctx, tex, Map::READ | Map::DONTBLOCK, all) == ErrorCode::kOk);

  cl::UserEvent reading = user_event();
  impl(tex).note_use(context_id(*ctx), reading, false);
  CHECK(ctx->is_resource_referenced(tex, 0));
  // A pending read holds up writers only.
  CHECK(map_code(*ctx, tex, Map::READ | Map::DONTBLOCK, all) == ErrorCode::kOk);
  CHECK(map_code(*ctx, tex, Map::WRITE | Map::DONTBLOCK, all) == ErrorCode::kNotReady);
  CHECK(map_code(*ctx, tex, Map::WRITE | Map::DONTBLOCK | Map::UNSYNCHRONIZED, all) ==
        ErrorCode::kOk);

  cl::UserEvent writing = user_event();
  impl(tex).note_use(context_id(*ctx), writing, true);
  CHECK(map_code(*ctx, tex, Map::READ | Map::DONTBLOCK, all) == ErrorCode::kNotReady);
  // Another context's work is its own business (Gallium: synchronise with fences).
  auto other = new_context();
  CHECK_FALSE(other->is_resource_referenced(tex, 0));
  CHECK(map_code(*other, tex, Map::READ | Map::DONTBLOCK, all) == ErrorCode::kOk);

  writing.setStatus(CL_COMPLETE);
  reading.setStatus(CL_COMPLETE);
  CHECK_FALSE(ctx->is_resource_referenced(tex, 0));
  CHECK(map_code(*ctx, tex, Map::WRITE | Map::DONTBLOCK, all) == ErrorCode::kOk);
}

TEST_CASE("a map waits for a real clear and then nothing references it", "[frontend][transfer]") {
  auto ctx = new_context();
  auto buf = create_buffer(1u << 24);
  const uint32_t v = 7;
  REQUIRE(ctx->clear_buffer(buf, 0, 1u << 24, &v, 4).is_ok());
  // (Whether it is still referenced now depends on how fast the device ran it.)
  // A blocking map waits for the clear and sees it.
  CHECK(read_box(*ctx, buf, 0, make_box_1d((1 << 24) - 8, 8)) ==
        std::vector<uint8_t>{7, 0, 0, 0, 7, 0, 0, 0});
  CHECK_FALSE(ctx->is_resource_referenced(buf, 0));
}

TEST_CASE("DISCARD_WHOLE_RESOURCE renames busy storage instead of waiting",
          "[frontend][transfer]") {
  auto ctx = new_context();
  auto tex = filled_2d(*ctx, 10);
  finish(*ctx);
  const cl_mem before = impl(tex).storage()();
  cl::UserEvent busy = user_event();
  impl(tex).note_use(context_id(*ctx), busy, true);
  auto t = ctx->transfer_map(tex, 0, Map::WRITE | Map::DISCARD_WHOLE_RESOURCE | Map::DONTBLOCK,
                             make_box_2d(0, 0, 8, 8));
  REQUIRE(t.is_ok());
  CHECK(impl(tex).storage()() != before);
  CHECK_FALSE(ctx->is_resource_referenced(tex, 0));
  TransferHandle h = t.value();
  for (int y = 0; y < 8; ++y)
    std::memset(static_cast<uint8_t*>(h->data()) + y * h->stride(), 0x5a, 8);
  REQUIRE(ctx->transfer_unmap(h).is_ok());
  CHECK(read_box(*ctx, tex, 0, make_box_2d(0, 0, 8, 8)) == std::vector<uint8_t>(64, 0x5a));
  busy.setStatus(CL_COMPLETE);

  // Not busy: no renaming, the other texels stay.
  const cl_mem kept = impl(tex).storage()();
  REQUIRE(map_code(*ctx, tex, Map::WRITE | Map::DISCARD_WHOLE_RESOURCE, make_box_2d(0, 0, 1, 1)) ==
          ErrorCode::kOk);
  CHECK(impl(tex).storage()() == kept);
}

TEST_CASE("a storage with an outstanding mapping is never renamed", "[frontend][transfer]") {
  auto ctx = new_context();
  auto tex = filled_2d(*ctx, 0);
  finish(*ctx);
  auto first = ctx->transfer_map(tex, 0, Map::READ, make_box_2d(0, 0, 2, 2));
  REQUIRE(first.is_ok());
  cl::UserEvent busy = user_event();
  impl(tex).note_use(context_id(*ctx), busy, true);
  // Renaming would orphan the first mapping, so the map must wait: DONTBLOCK says so.
  CHECK(map_code(*ctx, tex, Map::WRITE | Map::DISCARD_WHOLE_RESOURCE | Map::DONTBLOCK,
                 make_box_2d(4, 4, 2, 2)) == ErrorCode::kNotReady);
  {
    // Dropping a transfer without unmapping releases its mapping.
    TransferHandle dropped = first.value();
    first = Status(ErrorCode::kNotReady, "released");
  }
  CHECK(map_code(*ctx, tex, Map::WRITE | Map::DISCARD_WHOLE_RESOURCE | Map::DONTBLOCK,
                 make_box_2d(4, 4, 2, 2)) == ErrorCode::kOk);
  busy.setStatus(CL_COMPLETE);
}

TEST_CASE("FLUSH_EXPLICIT writes back only the flushed boxes", "[frontend][transfer]") {
  auto ctx = new_context();
  auto tex = filled_2d(*ctx, 0);
  auto t = ctx->transfer_map(tex, 0, Map::READ | Map::WRITE | Map::FLUSH_EXPLICIT,
                             make_box_2d(2, 1, 5, 6));
  REQUIRE(t.is_ok());
  TransferHandle h = t.value();
  CHECK(static_cast<uint8_t*>(h->data())[0] == 1 * 8 + 2);  // the READ contents
  for (int y = 0; y < 6; ++y)
    std::memset(static_cast<uint8_t*>(h->data()) + y * h->stride(), 0xee, 5);
  // Relative to the transfer's box: texels (3..4, 2..4) of the texture.
  CHECK(ctx->transfer_flush_region(h, make_box_2d(1, 1, 2, 3)).is_ok());
  CHECK(ctx->transfer_flush_region(h, make_box_2d(4, 5, 2, 1)).code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->transfer_flush_region(h, make_box_2d(0, 0, 0, 1)).code() ==
        ErrorCode::kInvalidArgument);
  REQUIRE(ctx->transfer_unmap(h).is_ok());
  auto got = read_box(*ctx, tex, 0, make_box_2d(0, 0, 8, 8));
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 8; ++x) {
      const bool flushed = x >= 3 && x < 5 && y >= 2 && y < 5;
      INFO(x << "," << y);
      CHECK(got[y * 8 + x] == (flushed ? 0xee : y * 8 + x));
    }
  }
  // Flushing a transfer that is not FLUSH_EXPLICIT is an error.
  auto plain = ctx->transfer_map(tex, 0, Map::WRITE, make_box_2d(0, 0, 1, 1));
  REQUIRE(plain.is_ok());
  TransferHandle p = plain.value();
  CHECK(ctx->transfer_flush_region(p, make_box_2d(0, 0, 1, 1)).code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->transfer_unmap(p).is_ok());
}

TEST_CASE("DISCARD_RANGE write maps keep the texels around the box", "[frontend][transfer]") {
  auto ctx = new_context();
  auto tex = filled_2d(*ctx, 100);
  // Full rows (the span may be invalidated) and a partial box (it must not be).
  write_box(*ctx, tex, 0, make_box_2d(0, 2, 8, 2), std::vector<uint8_t>(16, 1));
  write_box(*ctx, tex, 0, make_box_2d(3, 5, 2, 2), std::vector<uint8_t>(4, 2));
  auto got = read_box(*ctx, tex, 0, make_box_2d(0, 0, 8, 8));
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 8; ++x) {
      uint8_t want = uint8_t(100 + y * 8 + x);
      if (y >= 2 && y < 4) want = 1;
      if (x >= 3 && x < 5 && y >= 5 && y < 7) want = 2;
      INFO(x << "," << y);
      CHECK(got[y * 8 + x] == want);
    }
  }
}

TEST_CASE("UNSYNCHRONIZED, DIRECTLY and staged maps", "[frontend][transfer]") {
  auto ctx = new_context();
  auto tex = filled_2d(*ctx, 0);
  finish(*ctx);
  CHECK(read_box(*ctx, tex, 0, make_box_2d(0, 7, 8, 1)) ==
        std::vector<uint8_t>{56, 57, 58, 59, 60, 61, 62, 63});
  CHECK(map_code(*ctx, tex, Map::READ | Map::UNSYNCHRONIZED, make_box_2d(0, 0, 8, 8)) ==
        ErrorCode::kOk);
  CHECK(map_code(*ctx, tex, Map::READ | Map::DIRECTLY, make_box_2d(0, 0, 8, 8)) == ErrorCode::kOk);
  // Writes of whole rows map directly; writes of part of a row go through staging.
  CHECK(map_code(*ctx, tex, Map::WRITE | Map::DIRECTLY, make_box_2d(0, 2, 8, 3)) == ErrorCode::kOk);
  CHECK(map_code(*ctx, tex, Map::WRITE | Map::DIRECTLY, make_box_2d(1, 2, 7, 3)) ==
        ErrorCode::kUnsupported);
  CHECK(map_code(*ctx, tex, Map::WRITE | Map::DIRECTLY | Map::FLUSH_EXPLICIT,
                 make_box_2d(0, 0, 8, 8)) == ErrorCode::kUnsupported);
  // A resource that asks not to be mapped directly goes through staging, both ways.
  auto t = make_templ(TextureTarget::TEXTURE_2D_ARRAY, Format::R16_UINT, 5, 3, 1, 2);
  t.flags = ResourceFlag::DONT_MAP_DIRECTLY;
  auto staged = create(t);
  auto data = random_bytes(2 * 5 * 3 * 2, 9);
  write_box(*ctx, staged, 0, Box{0, 0, 0, 5, 3, 2}, data);
  CHECK(read_box(*ctx, staged, 0, Box{0, 0, 0, 5, 3, 2}) == data);
  CHECK(map_code(*ctx, staged, Map::READ | Map::DIRECTLY, make_box_2d(0, 0, 1, 1)) ==
        ErrorCode::kUnsupported);
}

TEST_CASE("mapped buffers are aligned as MIN_MAP_BUFFER_ALIGNMENT says", "[frontend][transfer]") {
  auto ctx = new_context();
  const int align = shared_screen()->get_param(Cap::MIN_MAP_BUFFER_ALIGNMENT);
  for (uint32_t size : {1u, 100u, 4096u}) {
    auto buf = create_buffer(size);
    auto t = ctx->transfer_map(buf, 0, Map::WRITE, make_box_1d(0, int(size)));
    REQUIRE(t.is_ok());
    TransferHandle h = t.value();
    CHECK(reinterpret_cast<uintptr_t>(h->data()) % uintptr_t(align) == 0);
    CHECK(ctx->transfer_unmap(h).is_ok());
  }
}

TEST_CASE("bad maps and unmaps get a clear error", "[frontend][transfer]") {
  auto ctx = new_context();
  auto tex = create(make_templ(TextureTarget::TEXTURE_2D, Format::R8G8B8A8_UNORM, 8, 4, 1, 1, 1));
  const Box all = make_box_2d(0, 0, 8, 4);
  CHECK(map_code(*ctx, tex, 0, all) == ErrorCode::kInvalidArgument);
  CHECK(map_code(*ctx, tex, Map::READ | (1u << 20), all) == ErrorCode::kInvalidArgument);
  CHECK(map_code(*ctx, tex, Map::READ | Map::PERSISTENT, all) == ErrorCode::kUnsupported);
  CHECK(map_code(*ctx, tex, Map::WRITE | Map::COHERENT, all) == ErrorCode::kUnsupported);
  CHECK(map_code(*ctx, tex, Map::READ | Map::DEPTH_ONLY, all) == ErrorCode::kUnsupported);
  CHECK(map_code(*ctx, tex, Map::READ | Map::FLUSH_EXPLICIT, all) == ErrorCode::kInvalidArgument);
  CHECK(map_code(*ctx, tex, Map::READ, make_box_2d(0, 0, 9, 4)) == ErrorCode::kInvalidArgument);
  CHECK(map_code(*ctx, tex, Map::READ, make_box_2d(0, 0, 8, 4), 1) == ErrorCode::kInvalidArgument);
  CHECK(map_code(*ctx, tex, Map::READ, make_box_2d(0, 0, 4, 2), 2) == ErrorCode::kInvalidArgument);
  CHECK(map_code(*ctx, tex, Map::READ, Box{0, 0, 1, 1, 1, 1}) == ErrorCode::kInvalidArgument);
  CHECK(map_code(*ctx, tex, Map::READ, make_box_2d(-1, 0, 2, 2)) == ErrorCode::kInvalidArgument);
  CHECK(map_code(*ctx, tex, Map::READ, make_box_2d(0, 0, 0, 2)) == ErrorCode::kInvalidArgument);
  CHECK(map_code(*ctx, nullptr, Map::READ, all) == ErrorCode::kInvalidArgument);
  auto unmappable_t = make_templ(TextureTarget::BUFFER, Format::R8_UNORM, 64);
  unmappable_t.flags = ResourceFlag::UNMAPPABLE;
  auto unmappable = create(unmappable_t);
  CHECK(map_code(*ctx, unmappable, Map::READ, make_box_1d(0, 64)) == ErrorCode::kInvalidArgument);

  // Unmaps of what was not mapped.
  TransferHandle none;
  CHECK(ctx->transfer_unmap(none).code() == ErrorCode::kInvalidArgument);
  struct Fake : Transfer {
    Fake() : Transfer(nullptr, 0, Map::READ, Box{}) {}
  };
  TransferHandle fake = std::make_shared<Fake>();
  CHECK(ctx->transfer_unmap(fake).code() == ErrorCode::kInvalidArgument);
  auto t = ctx->transfer_map(tex, 0, Map::READ, all);
  REQUIRE(t.is_ok());
  TransferHandle h = t.value();
  TransferHandle copy = h;
  auto other = new_context();
  CHECK(other->transfer_unmap(copy).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->transfer_unmap(h).is_ok());
  CHECK_FALSE(h);
  CHECK(ctx->transfer_unmap(copy).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->transfer_flush_region(copy, make_box_2d(0, 0, 1, 1)).code() ==
        ErrorCode::kInvalidArgument);

  // A resource of another screen.
  auto second = Screen::create();
  REQUIRE(second.is_ok());
  auto foreign =
      second.value()->resource_create(make_templ(TextureTarget::BUFFER, Format::R8_UNORM, 16));
  REQUIRE(foreign.is_ok());
  CHECK(map_code(*ctx, foreign.value(), Map::READ, make_box_1d(0, 16)) ==
        ErrorCode::kInvalidArgument);
}

TEST_CASE("subdata checks its ranges and strides", "[frontend][transfer]") {
  auto ctx = new_context();
  auto buf = create_buffer(64);
  auto tex = create(make_templ(TextureTarget::TEXTURE_2D, Format::R16G16_UNORM, 4, 4));
  std::vector<uint8_t> data(256, 3);
  CHECK(ctx->buffer_subdata(buf, Map::WRITE, 60, 4, data.data()).is_ok());
  CHECK(ctx->buffer_subdata(buf, Map::WRITE, 60, 0, nullptr).is_ok());
  CHECK(ctx->buffer_subdata(buf, Map::WRITE, 61, 4, data.data()).code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->buffer_subdata(buf, Map::WRITE, 0xffffffffu, 2, data.data()).code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->buffer_subdata(buf, Map::WRITE, 0, 4, nullptr).code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->buffer_subdata(tex, Map::WRITE, 0, 4, data.data()).code() ==
        ErrorCode::kInvalidArgument);
  CHECK(ctx->texture_subdata(tex, 0, Map::WRITE, make_box_2d(0, 0, 4, 4), data.data(), 16, 0)
            .is_ok());
  CHECK(ctx->texture_subdata(tex, 0, Map::WRITE, make_box_2d(0, 0, 4, 4), data.data(), 15, 0)
            .code() == ErrorCode::kInvalidArgument);
  CHECK(ctx->texture_subdata(tex, 0, Map::WRITE, make_box_2d(2, 0, 4, 4), data.data(), 16, 0)
            .code() == ErrorCode::kInvalidArgument);
  CHECK(
      ctx->texture_subdata(tex, 1, Map::WRITE, make_box_2d(0, 0, 1, 1), data.data(), 4, 0).code() ==
      ErrorCode::kInvalidArgument);
  CHECK(ctx->texture_subdata(tex, 0, Map::WRITE, make_box_2d(0, 0, 1, 1), nullptr, 4, 0).code() ==
        ErrorCode::kInvalidArgument);
  // The caller's memory may change right after the call: the upload copied it.
  std::vector<uint8_t> mine(64, 9);
  REQUIRE(ctx->texture_subdata(tex, 0, Map::WRITE, make_box_2d(0, 0, 4, 4), mine.data(), 16, 0)
              .is_ok());
  std::fill(mine.begin(), mine.end(), 0);
  CHECK(read_box(*ctx, tex, 0, make_box_2d(0, 0, 4, 4)) == std::vector<uint8_t>(64, 9));
}

TEST_CASE("many uploads without a flush land in order", "[frontend][transfer]") {
  auto ctx = new_context();
  auto buf = create_buffer(4096);
  std::vector<uint8_t> want(4096, 0);
  for (uint32_t i = 0; i < 600; ++i) {
    // Overlapping ranges: the later upload must win.
    const uint32_t offset = (i * 37) % 3000, size = 64 + i % 1000;
    std::vector<uint8_t> data(size, uint8_t(i));
    REQUIRE(ctx->buffer_subdata(buf, Map::WRITE, offset, size, data.data()).is_ok());
    std::fill(want.begin() + offset, want.begin() + offset + size, uint8_t(i));
  }
  CHECK(read_box(*ctx, buf, 0, make_box_1d(0, 4096)) == want);
}

TEST_CASE("a subdata copy is freed when its write has run, with no further call",
          "[frontend][transfer]") {
  auto ctx = new_context();
  auto& c = dynamic_cast<frontend::ContextImpl&>(*ctx);
  auto buf = create_buffer(1 << 20);
  // The context's queue waits for a gate, so the write cannot run before the checks.
  cl::UserEvent gate = user_event();
  const std::vector<cl::Event> waits{gate};
  REQUIRE(c.queue_for_tests().handle().enqueueBarrierWithWaitList(&waits) == CL_SUCCESS);
  std::vector<uint8_t> data(1 << 20, 7);
  REQUIRE(ctx->buffer_subdata(buf, Map::WRITE, 0, 1 << 20, data.data()).is_ok());
  CHECK(c.held_upload_bytes() == size_t(1) << 20);
  gate.setStatus(CL_COMPLETE);
  c.queue_for_tests().flush();
  // Nothing else is asked of the context (vtest's transfer context sees no call for long).
  for (int i = 0; i < 1000 && c.held_upload_bytes() != 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(c.held_upload_bytes() == 0);
  CHECK(read_box(*ctx, buf, 0, make_box_1d(0, 1 << 20)) == data);
}
