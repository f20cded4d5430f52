// The launch plan of compute dispatches (frontend/compute_grid.h) on made-up limits: one
// NDRange per dispatch, partial last blocks as launches of their own, zero grids, and
// every limit and rule of pipe_grid_info refused with a message; plus the compute caps,
// which must report the very limits launch_grid enforces.
#include <catch2/catch.hpp>

#include <algorithm>

#include "frontend/compute_grid.h"
#include "frontend/features.h"
#include "frontend/screen_impl.h"
#include "frontend_util.h"
#include "runtime/error.h"
#include "vtest/caps.h"

using namespace clpipe;
using namespace clpipe::frontend;

namespace {

ComputeLimits small_limits() {
  runtime::DeviceLimits dev;
  dev.max_work_group_size = 256;
  dev.max_work_item_sizes[0] = 256;
  dev.max_work_item_sizes[1] = 128;
  dev.max_work_item_sizes[2] = 64;
  dev.address_bits = 32;
  dev.local_mem_size = 32768;
  return compute_limits(dev);
}

GridInfo grid_of(std::array<uint32_t, 3> block, std::array<uint32_t, 3> grid) {
  GridInfo g;
  for (int d = 0; d < 3; ++d) {
    g.block[d] = block[d];
    g.grid[d] = grid[d];
  }
  return g;
}

std::array<uint32_t, 3> groups_of(const GridInfo& g) {
  return {g.grid[0], g.grid[1], g.grid[2]};
}

constexpr std::array<uint32_t, 3> kVariable = {0, 0, 0};

// The message of the clpipe::Error plan_grid throws ("" when it does not throw).
std::string plan_error(const GridInfo& g, std::array<uint32_t, 3> fixed = kVariable) {
  try {
    plan_grid(g, groups_of(g), fixed, small_limits());
  } catch (const clpipe::Error& e) {
    CHECK(e.code() == ErrorCode::kInvalidArgument);
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("compute limits follow the device", "[frontend][compute][grid]") {
  const ComputeLimits l = small_limits();
  CHECK(l.max_threads == 256);
  CHECK(l.max_block == std::array<uint64_t, 3>{256, 128, 64});
  CHECK(l.max_global == 0xffffffffu);
  // grid * max_block must fit the 32-bit size_t of the device.
  CHECK(l.max_grid[0] == 0xffffffffu / 256);
  CHECK(l.max_grid[2] == 0xffffffffu / 64);
  runtime::DeviceLimits wide;
  wide.max_work_group_size = 1024;
  wide.max_work_item_sizes[0] = wide.max_work_item_sizes[1] = wide.max_work_item_sizes[2] = 4096;
  wide.address_bits = 64;
  const ComputeLimits w = compute_limits(wide);
  CHECK(w.max_block[0] == 1024);  // capped by the threads per group
  CHECK(w.max_grid[1] == uint64_t(INT32_MAX));
}

TEST_CASE("one NDRange per dispatch without partial blocks", "[frontend][compute][grid]") {
  GridInfo g = grid_of({7, 3, 2}, {5, 4, 3});
  g.grid_base[0] = 10;
  const GridPlan p = plan_grid(g, groups_of(g), kVariable, small_limits());
  REQUIRE(p.regions.size() == 1);
  const GridRegion& r = p.regions[0];
  CHECK(r.global == std::array<size_t, 3>{35, 12, 6});
  CHECK(r.local == std::array<size_t, 3>{7, 3, 2});
  CHECK(r.block_base == std::array<uint32_t, 3>{10, 0, 0});
  CHECK(p.grid == std::array<uint32_t, 3>{5, 4, 3});
  CHECK(p.block == std::array<uint32_t, 3>{7, 3, 2});
  // A fixed block equal to the launch's is fine; last_block == block is no partial block.
  g.last_block[1] = 3;
  CHECK(plan_grid(g, groups_of(g), {7, 3, 2}, small_limits()).regions.size() == 1);
}

TEST_CASE("partial last blocks are launches of their own", "[frontend][compute][grid]") {
  GridInfo g = grid_of({8, 4, 1}, {3, 2, 1});
  g.last_block[0] = 5;
  g.last_block[1] = 3;
  g.grid_base[1] = 100;
  const GridPlan p = plan_grid(g, groups_of(g), kVariable, small_limits());
  REQUIRE(p.regions.size() == 4);
  size_t threads = 0;
  for (const GridRegion& r : p.regions) {
    threads += r.global[0] * r.global[1] * r.global[2];
    for (int d = 0; d < 3; ++d)
      CHECK(r.global[d] % r.local[d] == 0);
  }
  // Full groups: 2 x 1 of 8x4; partial x: 1 x 1 of 5x4; partial y: 2 x 1 of 8x3; corner 5x3.
  CHECK(threads == 2 * 8 * 4 + 5 * 4 + 2 * 8 * 3 + 5 * 3);
  CHECK(p.regions[0].local == std::array<size_t, 3>{8, 4, 1});
  CHECK(p.regions[0].block_base == std::array<uint32_t, 3>{0, 100, 0});
  CHECK(p.regions[1].local == std::array<size_t, 3>{5, 4, 1});
  CHECK(p.regions[1].block_base == std::array<uint32_t, 3>{2, 100, 0});
  CHECK(p.regions[2].local == std::array<size_t, 3>{8, 3, 1});
  CHECK(p.regions[2].block_base == std::array<uint32_t, 3>{0, 101, 0});
  CHECK(p.regions[3].local == std::array<size_t, 3>{5, 3, 1});
  CHECK(p.regions[3].global == std::array<size_t, 3>{5, 3, 1});
  CHECK(p.block == std::array<uint32_t, 3>{8, 4, 1});  // BLOCK_SIZE stays the full block
  // One group in x that is partial: a single launch of the partial size.
  GridInfo one = grid_of({8, 1, 1}, {1, 1, 1});
  one.last_block[0] = 3;
  const GridPlan q = plan_grid(one, groups_of(one), kVariable, small_limits());
  REQUIRE(q.regions.size() == 1);
  CHECK(q.regions[0].global[0] == 3);
}

TEST_CASE("zero grids plan nothing, after validating the block", "[frontend][compute][grid]") {
  for (int d = 0; d < 3; ++d) {
    std::array<uint32_t, 3> grid = {4, 4, 4};
    grid[d] = 0;
    GridInfo g = grid_of({4, 4, 4}, grid);
    CHECK(plan_grid(g, groups_of(g), kVariable, small_limits()).regions.empty());
  }
  CHECK_THAT(plan_error(grid_of({0, 1, 1}, {0, 0, 0})), Catch::Contains("block.x is 0"));
}

TEST_CASE("grids and blocks over the limits are refused", "[frontend][compute][grid]") {
  CHECK_THAT(plan_error(grid_of({257, 1, 1}, {1, 1, 1})), Catch::Contains("MAX_BLOCK_SIZE"));
  CHECK_THAT(plan_error(grid_of({1, 129, 1}, {1, 1, 1})), Catch::Contains("block.y"));
  CHECK_THAT(plan_error(grid_of({1, 1, 65}, {1, 1, 1})), Catch::Contains("block.z"));
  CHECK_THAT(plan_error(grid_of({16, 16, 2}, {1, 1, 1})), Catch::Contains("MAX_THREADS_PER_BLOCK"));
  const uint32_t max_x = uint32_t(small_limits().max_grid[0]);
  CHECK(plan_error(grid_of({1, 1, 1}, {max_x, 1, 1})).empty());
  CHECK_THAT(plan_error(grid_of({1, 1, 1}, {max_x + 1, 1, 1})), Catch::Contains("MAX_GRID_SIZE"));
  GridInfo base = grid_of({1, 1, 1}, {2, 1, 1});
  base.grid_base[0] = 0xffffffffu;
  CHECK_THAT(plan_error(base), Catch::Contains("32 bits"));
  base.grid_base[0] = 0xfffffffeu;
  CHECK(plan_error(base).empty());
}

TEST_CASE("pipe_grid_info rules are enforced", "[frontend][compute][grid]") {
  GridInfo g = grid_of({4, 2, 1}, {1, 1, 1});
  g.work_dim = 0;
  CHECK_THAT(plan_error(g), Catch::Contains("work_dim"));
  g.work_dim = 4;
  CHECK_THAT(plan_error(g), Catch::Contains("work_dim"));
  g.work_dim = 1;
  CHECK_THAT(plan_error(g), Catch::Contains("past work_dim"));
  g.work_dim = 2;
  CHECK(plan_error(g).empty());
  g.last_block[0] = 5;
  CHECK_THAT(plan_error(g), Catch::Contains("last_block.x"));
  g.last_block[0] = 0;
  CHECK_THAT(plan_error(g, {8, 1, 1}), Catch::Contains("fixed block"));
  CHECK(plan_error(g, {4, 2, 1}).empty());
}

TEST_CASE("fixed blocks beyond the device are refused at create", "[frontend][compute][grid]") {
  CHECK_NOTHROW(check_fixed_block({256, 1, 1}, small_limits()));
  CHECK_NOTHROW(check_fixed_block({0, 0, 0}, small_limits()));
  CHECK_THROWS_WITH(check_fixed_block({1, 1, 65}, small_limits()),
                    Catch::Contains("CS_FIXED_BLOCK_DEPTH"));
  CHECK_THROWS_WITH(check_fixed_block({16, 16, 2}, small_limits()),
                    Catch::Contains("threads per block"));
  auto ctx = test::new_context();
  ComputeState cs;
  cs.tgsi =
      "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 65536\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
      "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n  0: END\n";
  CHECK(ctx->create_compute_state(cs).status().code() == ErrorCode::kUnsupported);
}

TEST_CASE("compute caps report the limits launch_grid enforces", "[frontend][compute][caps]") {
  auto screen = test::shared_screen();
  auto* impl = dynamic_cast<ScreenImpl*>(screen.get());
  REQUIRE(impl);
  const runtime::DeviceLimits& dev = impl->cl_device().limits();
  const ComputeLimits lim = compute_limits(dev);
  REQUIRE(kCompute);
  CHECK(screen->get_param(Cap::COMPUTE) == 1);
  auto grid = screen->get_compute_param(ComputeCap::MAX_GRID_SIZE);
  auto block = screen->get_compute_param(ComputeCap::MAX_BLOCK_SIZE);
  REQUIRE(grid.size() == 3);
  REQUIRE(block.size() == 3);
  for (int d = 0; d < 3; ++d) {
    CHECK(grid[d] == lim.max_grid[d]);
    CHECK(grid[d] >= 65535);  // GL's minimum MAX_COMPUTE_WORK_GROUP_COUNT
    CHECK(block[d] == lim.max_block[d]);
    CHECK(block[d] <= dev.max_work_item_sizes[d]);
  }
  const uint64_t threads = screen->get_compute_param(ComputeCap::MAX_THREADS_PER_BLOCK).at(0);
  CHECK(threads == dev.max_work_group_size);
  CHECK(screen->get_compute_param(ComputeCap::MAX_VARIABLE_THREADS_PER_BLOCK).at(0) == threads);
  CHECK(screen->get_compute_param(ComputeCap::MAX_LOCAL_SIZE).at(0) == dev.local_mem_size);
  // set_global_binding's space: 32-bit addresses into one allocation (compute_global.h).
  const uint64_t global = screen->get_compute_param(ComputeCap::MAX_GLOBAL_SIZE).at(0);
  CHECK(global == std::min<uint64_t>(dev.max_mem_alloc_size, 0xfffffffcu));
  CHECK(global >= (1u << 24));
  CHECK(screen->get_compute_param(ComputeCap::MAX_MEM_ALLOC_SIZE).at(0) == dev.max_mem_alloc_size);
  CHECK(screen->get_compute_param(ComputeCap::MAX_COMPUTE_UNITS).at(0) == dev.max_compute_units);
  CHECK(screen->get_compute_param(ComputeCap::ADDRESS_BITS).at(0) == 32);
  CHECK(screen->get_compute_param(ComputeCap::GRID_DIMENSION).at(0) == 3);
  CHECK(screen->get_compute_param(ComputeCap::IMAGES_SUPPORTED).at(0) == 1);
  CHECK(screen->get_compute_param(ComputeCap::SUBGROUP_SIZE).at(0) == 1);
  CHECK(screen->get_compute_param(ComputeCap::MAX_INPUT_SIZE).at(0) == 4096);

  // The COMPUTE stage runs; shader buffers and images exist there only.
  CHECK(screen->get_shader_param(ShaderType::COMPUTE, ShaderCap::MAX_INSTRUCTIONS) > 0);
  CHECK(screen->get_shader_param(ShaderType::COMPUTE, ShaderCap::INTEGERS) == 1);
  CHECK(screen->get_shader_param(ShaderType::COMPUTE, ShaderCap::MAX_SHADER_BUFFERS) == 32);
  CHECK(screen->get_shader_param(ShaderType::COMPUTE, ShaderCap::MAX_SHADER_IMAGES) == 32);
  // Fragment shaders have them too (fragment_resources_test.cpp); vertex shaders do not.
  CHECK(screen->get_shader_param(ShaderType::FRAGMENT, ShaderCap::MAX_SHADER_BUFFERS) == 32);
  CHECK(screen->get_shader_param(ShaderType::FRAGMENT, ShaderCap::MAX_SHADER_IMAGES) == 32);
  CHECK(screen->get_shader_param(ShaderType::VERTEX, ShaderCap::MAX_SHADER_BUFFERS) == 0);
  CHECK(screen->get_shader_param(ShaderType::VERTEX, ShaderCap::MAX_SHADER_IMAGES) == 0);
  CHECK(screen->get_param(Cap::MAX_COMBINED_SHADER_BUFFERS) == 32);
  CHECK(screen->get_param(Cap::COMPUTE_GRID_INFO_LAST_BLOCK) == 1);
  CHECK(screen->get_param(Cap::IMAGE_LOAD_FORMATTED) == 1);
  CHECK(screen->get_param(Cap::IMAGE_STORE_FORMATTED) == 1);
  CHECK(screen->get_param(Cap::IMAGE_ATOMIC_FLOAT_ADD) == 1);
  const int align = screen->get_param(Cap::SHADER_BUFFER_OFFSET_ALIGNMENT);
  CHECK(align >= 4);
  CHECK(align <= 256);
  CHECK((align & (align - 1)) == 0);
  CHECK(screen->get_param(Cap::MAX_SHADER_BUFFER_SIZE_UINT) >= (1 << 24));
  // Images of every colour format and target; no image of depth formats.
  CHECK(screen->is_format_supported(Format::R32_UINT, TextureTarget::TEXTURE_2D_ARRAY, 0, 0,
                                    Bind::SHADER_IMAGE));
  CHECK(screen->is_format_supported(Format::R8G8B8A8_UNORM, TextureTarget::BUFFER, 0, 0,
                                    Bind::SHADER_IMAGE));
  CHECK_FALSE(screen->is_format_supported(Format::Z32_FLOAT, TextureTarget::TEXTURE_2D, 0, 0,
                                          Bind::SHADER_IMAGE));
}

TEST_CASE("the vtest caps advertise compute from the screen's caps", "[frontend][compute][caps]") {
  namespace vt = clpipe::frontend::vtest;
  auto screen = test::shared_screen();
  const vt::CapsBlob blob = vt::build_caps(*screen);
  CHECK((vt::caps_u32(blob.data(), vt::CapsOffset::CAPABILITY_BITS) &
         vt::VirglCap::COMPUTE_SHADER) != 0);
  auto first = [&](ComputeCap c) {
    return uint32_t(std::min<uint64_t>(screen->get_compute_param(c).at(0), UINT32_MAX));
  };
  CHECK(vt::caps_u32(blob.data(), vt::CapsOffset::MAX_COMPUTE_WORK_GROUP_INVOCATIONS) ==
        first(ComputeCap::MAX_THREADS_PER_BLOCK));
  CHECK(vt::caps_u32(blob.data(), vt::CapsOffset::MAX_COMPUTE_SHARED_MEMORY_SIZE) ==
        first(ComputeCap::MAX_LOCAL_SIZE));
  const auto grid = screen->get_compute_param(ComputeCap::MAX_GRID_SIZE);
  const auto block = screen->get_compute_param(ComputeCap::MAX_BLOCK_SIZE);
  for (uint32_t d = 0; d < 3; ++d) {
    CHECK(vt::caps_u32(blob.data(), vt::CapsOffset::MAX_COMPUTE_GRID_SIZE + 4 * d) == grid[d]);
    CHECK(vt::caps_u32(blob.data(), vt::CapsOffset::MAX_COMPUTE_BLOCK_SIZE + 4 * d) == block[d]);
  }
  // One virgl field serves fragment and compute shaders: the smaller of the two limits,
  // non-zero now that both stages bind shader buffers and images; other stages have none.
  auto stage = [&](ShaderType t, ShaderCap c) { return uint32_t(screen->get_shader_param(t, c)); };
  const uint32_t ssbo = std::min(stage(ShaderType::FRAGMENT, ShaderCap::MAX_SHADER_BUFFERS),
                                 stage(ShaderType::COMPUTE, ShaderCap::MAX_SHADER_BUFFERS));
  const uint32_t img = std::min(stage(ShaderType::FRAGMENT, ShaderCap::MAX_SHADER_IMAGES),
                                stage(ShaderType::COMPUTE, ShaderCap::MAX_SHADER_IMAGES));
  CHECK(ssbo == 32);
  CHECK(img == 32);
  CHECK(vt::caps_u32(blob.data(), vt::CapsOffset::MAX_SHADER_BUFFER_FRAG_COMPUTE) == ssbo);
  CHECK(vt::caps_u32(blob.data(), vt::CapsOffset::MAX_SHADER_IMAGE_FRAG_COMPUTE) == img);
  CHECK(vt::caps_u32(blob.data(), vt::CapsOffset::MAX_SHADER_BUFFER_OTHER_STAGES) == 0);
  CHECK(vt::caps_u32(blob.data(), vt::CapsOffset::MAX_SHADER_IMAGE_OTHER_STAGES) == 0);
}
