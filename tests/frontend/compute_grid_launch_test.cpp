// launch_grid on the device: the system values (THREAD_ID, BLOCK_ID, BLOCK_SIZE,
// GRID_SIZE, WORK_DIM) of every thread across multi-dimensional grids with blocks that are
// not powers of two, grid offsets, partial last blocks, fixed and variable block sizes,
// indirect grids and zero grids; and bad input (no compute state, grids and blocks over the
// limits, bad indirect buffers), which must fail with a clear error and launch nothing.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <vector>

#include "compute_util.h"

using namespace clpipe;
using namespace clpipe::test;

namespace {

using Record = std::array<uint32_t, 16>;

// Every thread takes a slot from a counter (BUFFER[1] word 0) and writes its record of 16
// words there: THREAD_ID.xyz, BLOCK_ID.xyz, BLOCK_SIZE.xyz, GRID_SIZE.xyz, WORK_DIM, 0, 0, 0.
std::string records_shader(const char* properties) {
  return std::string("COMP\n") + properties + R"(DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL SV[2], BLOCK_SIZE
DCL SV[3], GRID_SIZE
DCL SV[4], WORK_DIM
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..3]
IMM[0] UINT32 {64, 16, 1, 0}
ATOMUADD TEMP[0].x, BUFFER[1], IMM[0].wwww, IMM[0].zzzz
UMUL TEMP[1].x, TEMP[0].xxxx, IMM[0].xxxx
UADD TEMP[1].y, TEMP[1].xxxx, IMM[0].yyyy
UADD TEMP[1].z, TEMP[1].yyyy, IMM[0].yyyy
UADD TEMP[1].w, TEMP[1].zzzz, IMM[0].yyyy
MOV TEMP[2].xyz, SV[0].xyzz
MOV TEMP[2].w, SV[1].xxxx
STORE BUFFER[0].xyzw, TEMP[1].xxxx, TEMP[2]
MOV TEMP[3].xy, SV[1].yzzz
MOV TEMP[3].zw, SV[2].xxxy
STORE BUFFER[0].xyzw, TEMP[1].yyyy, TEMP[3]
MOV TEMP[2].x, SV[2].zzzz
MOV TEMP[2].yzw, SV[3].xxyz
STORE BUFFER[0].xyzw, TEMP[1].zzzz, TEMP[2]
MOV TEMP[3].x, SV[4].xxxx
MOV TEMP[3].yzw, IMM[0].wwww
STORE BUFFER[0].xyzw, TEMP[1].wwww, TEMP[3]
END
)";
}

const char* kFixed5x3 =
    "PROPERTY CS_FIXED_BLOCK_WIDTH 5\nPROPERTY CS_FIXED_BLOCK_HEIGHT 3\n"
    "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n";

// The records a dispatch must produce, sorted; `groups` is the grid actually run.
std::vector<Record> expected_records(const GridInfo& g, std::array<uint32_t, 3> groups) {
  std::vector<Record> out;
  for (uint32_t bz = 0; bz < groups[2]; ++bz)
    for (uint32_t by = 0; by < groups[1]; ++by)
      for (uint32_t bx = 0; bx < groups[0]; ++bx) {
        const uint32_t b[3] = {bx, by, bz};
        uint32_t live[3];
        for (int d = 0; d < 3; ++d) {
          const bool last = b[d] + 1 == groups[d] && g.last_block[d] != 0;
          live[d] = last ? g.last_block[d] : g.block[d];
        }
        for (uint32_t tz = 0; tz < live[2]; ++tz)
          for (uint32_t ty = 0; ty < live[1]; ++ty)
            for (uint32_t tx = 0; tx < live[0]; ++tx) {
              out.push_back({tx, ty, tz, g.grid_base[0] + bx, g.grid_base[1] + by,
                             g.grid_base[2] + bz, g.block[0], g.block[1], g.block[2], groups[0],
                             groups[1], groups[2], g.work_dim, 0, 0, 0});
            }
      }
  std::sort(out.begin(), out.end());
  return out;
}

// Runs the bound records shader over `g` and returns the sorted records it wrote.
std::vector<Record> run_records(Context& ctx, const GridInfo& g, uint32_t capacity) {
  ResourceRef records = words_resource(ctx, {}, capacity * 64);
  ResourceRef counter = words_resource(ctx, {0, 0, 0, 0});
  bind_buffers(ctx, {records, counter});
  launch(ctx, g);
  const uint32_t count = read_words(ctx, counter, 0, 1)[0];
  REQUIRE(count <= capacity);
  const std::vector<uint32_t> w = read_words(ctx, records, 0, count * 16);
  std::vector<Record> out(count);
  for (uint32_t i = 0; i < count; ++i)
    std::copy(w.begin() + i * 16, w.begin() + (i + 1) * 16, out[i].begin());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("compute: system values over 3D grids of odd blocks", "[frontend][compute][launch]") {
  auto ctx = new_context();
  bind_compute(*ctx, records_shader(""));
  GridInfo g = make_grid({3, 5, 2}, {4, 3, 2});
  CHECK(run_records(*ctx, g, 720) == expected_records(g, {4, 3, 2}));

  SECTION("grid offsets add to BLOCK_ID only") {
    g.grid_base[0] = 7;
    g.grid_base[2] = 3;
    CHECK(run_records(*ctx, g, 720) == expected_records(g, {4, 3, 2}));
  }
  SECTION("partial last blocks disable the threads past last_block") {
    g.last_block[0] = 2;
    g.last_block[1] = 4;
    g.grid_base[1] = 1;
    const std::vector<Record> want = expected_records(g, {4, 3, 2});
    CHECK(want.size() < 720);
    CHECK(run_records(*ctx, g, 720) == want);
  }
  SECTION("work_dim is reported and smaller dimensions are padded with 1") {
    GridInfo two = make_grid({6, 7, 1}, {2, 3, 5});
    two.work_dim = 2;
    CHECK(run_records(*ctx, two, 6 * 7 * 30) == expected_records(two, {2, 3, 5}));
  }
  SECTION("a variable-size shader runs any block within the limits") {
    GridInfo big = make_grid({64, 1, 1}, {3, 1, 1});
    CHECK(run_records(*ctx, big, 192) == expected_records(big, {3, 1, 1}));
    GridInfo one = make_grid({1, 1, 1}, {2, 2, 2});
    CHECK(run_records(*ctx, one, 8) == expected_records(one, {2, 2, 2}));
  }
}

TEST_CASE("compute: fixed block sizes, with partial last blocks", "[frontend][compute][launch]") {
  auto ctx = new_context();
  bind_compute(*ctx, records_shader(kFixed5x3));
  GridInfo g = make_grid({5, 3, 1}, {3, 2, 2});
  CHECK(run_records(*ctx, g, 180) == expected_records(g, {3, 2, 2}));
  g.last_block[0] = 1;
  g.last_block[1] = 2;
  CHECK(run_records(*ctx, g, 180) == expected_records(g, {3, 2, 2}));
  // A block that differs from the fixed one is refused and runs nothing.
  ResourceRef counter = words_resource(*ctx, {0});
  bind_buffers(*ctx, {words_resource(*ctx, {}, 64), counter});
  const Status s = ctx->launch_grid(make_grid({3, 5, 1}, {1, 1, 1}));
  CHECK(s.code() == ErrorCode::kInvalidArgument);
  CHECK_THAT(s.message(), Catch::Contains("fixed block"));
  CHECK(read_words(*ctx, counter, 0, 1)[0] == 0);
}

TEST_CASE("compute: indirect grids read their group counts from a buffer",
          "[frontend][compute][launch]") {
  auto ctx = new_context();
  bind_compute(*ctx, records_shader(""));
  GridInfo g = make_grid({4, 3, 1}, {100, 100, 100});  // ignored with an indirect buffer
  g.indirect = words_resource(*ctx, {0xffffffffu, 0xffffffffu, 3, 2, 2, 0xffffffffu});
  g.indirect_offset = 8;
  CHECK(run_records(*ctx, g, 4 * 3 * 12) == expected_records(g, {3, 2, 2}));

  SECTION("with grid offsets and partial blocks") {
    g.grid_base[1] = 5;
    g.last_block[0] = 3;
    CHECK(run_records(*ctx, g, 4 * 3 * 12) == expected_records(g, {3, 2, 2}));
  }
  SECTION("a previous dispatch may write the group counts") {
    // Thread 0 of a 1-thread grid stores {2, 1, 3} into the argument buffer.
    bind_compute(*ctx, R"(COMP
DCL BUFFER[0]
IMM[0] UINT32 {2, 1, 3, 8}
STORE BUFFER[0].xyz, IMM[0].wwww, IMM[0]
END
)");
    ResourceRef args = words_resource(*ctx, {0, 0, 0, 0, 0, 0});
    bind_buffers(*ctx, {args});
    launch(*ctx, make_grid({1, 1, 1}, {1, 1, 1}));
    bind_compute(*ctx, records_shader(""));
    g.indirect = args;
    CHECK(run_records(*ctx, g, 4 * 3 * 6) == expected_records(g, {2, 1, 3}));
  }
  SECTION("zero groups in the buffer launch nothing") {
    g.indirect = words_resource(*ctx, {0, 0, 5, 0, 1});
    CHECK(run_records(*ctx, g, 16).empty());
  }
}

TEST_CASE("compute: zero grids are a no-op", "[frontend][compute][launch]") {
  auto ctx = new_context();
  bind_compute(*ctx, records_shader(""));
  for (int d = 0; d < 3; ++d) {
    std::array<uint32_t, 3> grid = {2, 2, 2};
    grid[d] = 0;
    CHECK(run_records(*ctx, make_grid({2, 2, 2}, grid), 64).empty());
  }
}

TEST_CASE("compute: bad launches fail with a clear error", "[frontend][compute][launch]") {
  auto ctx = new_context();
  const Status none = ctx->launch_grid(make_grid({1, 1, 1}, {1, 1, 1}));
  CHECK(none.code() == ErrorCode::kInvalidArgument);
  CHECK_THAT(none.message(), Catch::Contains("no compute state bound"));

  bind_compute(*ctx, records_shader(""));
  ResourceRef counter = words_resource(*ctx, {0});
  bind_buffers(*ctx, {words_resource(*ctx, {}, 64), counter});
  auto screen = shared_screen();
  const auto block = screen->get_compute_param(ComputeCap::MAX_BLOCK_SIZE);
  const auto grid = screen->get_compute_param(ComputeCap::MAX_GRID_SIZE);
  const uint64_t threads = screen->get_compute_param(ComputeCap::MAX_THREADS_PER_BLOCK).at(0);
  auto refused = [&](const GridInfo& g, const char* what) {
    const Status s = ctx->launch_grid(g);
    INFO(s.to_string());
    CHECK(s.code() == ErrorCode::kInvalidArgument);
    CHECK_THAT(s.message(), Catch::Contains(what));
  };
  refused(make_grid({uint32_t(block[0] + 1), 1, 1}, {1, 1, 1}), "MAX_BLOCK_SIZE");
  refused(make_grid({1, 1, 0}, {1, 1, 1}), "block.z is 0");
  if (threads < block[0] * block[1]) {
    refused(make_grid({uint32_t(block[0]), uint32_t(block[1]), 1}, {1, 1, 1}),
            "MAX_THREADS_PER_BLOCK");
  }
  if (grid[0] < UINT32_MAX) {
    refused(make_grid({1, 1, 1}, {uint32_t(grid[0] + 1), 1, 1}), "MAX_GRID_SIZE");
  }
  GridInfo g = make_grid({2, 1, 1}, {1, 1, 1});
  g.last_block[0] = 3;
  refused(g, "last_block");
  g = make_grid({1, 1, 1}, {1, 1, 1});
  g.work_dim = 0;
  refused(g, "work_dim");

  // Indirect buffers: too small, an offset past the end, a texture, too many groups.
  g = make_grid({1, 1, 1}, {1, 1, 1});
  g.indirect = words_resource(*ctx, {1, 1});
  refused(g, "exceed the buffer");
  g.indirect = words_resource(*ctx, {1, 1, 1, 1});
  g.indirect_offset = 0xfffffff0u;
  refused(g, "exceed the buffer");
  g.indirect_offset = 0;
  g.indirect = create(make_templ(TextureTarget::TEXTURE_2D, Format::R32_UINT, 4, 4));
  refused(g, "not a BUFFER");
  g.indirect = words_resource(*ctx, {uint32_t(grid[0]) + 1, 1, 1});
  if (grid[0] < UINT32_MAX) refused(g, "MAX_GRID_SIZE");
  // Nothing ran.
  CHECK(read_words(*ctx, counter, 0, 1)[0] == 0);
}

TEST_CASE("compute: pipeline statistics count compute invocations",
          "[frontend][compute][launch][query]") {
  auto ctx = new_context();
  bind_compute(*ctx, records_shader(""));
  auto stats = ctx->create_query(QueryType::PIPELINE_STATISTICS, 0);
  auto single = ctx->create_query(QueryType::PIPELINE_STATISTICS_SINGLE, 10);  // cs_invocations
  REQUIRE(stats.is_ok());
  REQUIRE(single.is_ok());
  REQUIRE(ctx->begin_query(stats.value()).is_ok());
  REQUIRE(ctx->begin_query(single.value()).is_ok());
  GridInfo g = make_grid({4, 3, 1}, {3, 2, 1});
  g.last_block[0] = 1;  // per row of groups: 4 + 4 + 1 threads wide
  CHECK(run_records(*ctx, g, 72).size() == 9 * 3 * 2);
  GridInfo zero = make_grid({4, 3, 1}, {0, 2, 1});
  CHECK(run_records(*ctx, zero, 8).empty());
  REQUIRE(ctx->end_query(stats.value()).is_ok());
  REQUIRE(ctx->end_query(single.value()).is_ok());
  // Not counted after end_query.
  CHECK(run_records(*ctx, g, 72).size() == 54);
  QueryResult r{}, s{};
  REQUIRE(ctx->get_query_result(stats.value(), true, &r).is_ok());
  REQUIRE(ctx->get_query_result(single.value(), true, &s).is_ok());
  CHECK(r.pipeline_statistics.cs_invocations == 54);
  CHECK(r.pipeline_statistics.vs_invocations == 0);
  CHECK(r.pipeline_statistics.ps_invocations == 0);
  CHECK(s.u64 == 54);
}
