// basic_prim_count (the host's count of GS input primitives without primitive restart)
// against the sequential reference decomposition of the stream-output tests.
#include <catch2/catch.hpp>

#include "frontend/draw/draw_pipeline.h"
#include "frontend/stream_reference.h"

using namespace clpipe;
using namespace clpipe::test;

TEST_CASE("basic_prim_count matches the reference decomposition", "[draw][gs]") {
  for (unsigned m = 0; m < unsigned(PrimType::PATCHES); ++m) {
    const PrimType mode = PrimType(m);
    for (uint32_t n = 0; n < 26; ++n) {
      INFO(prim_name(mode) << " x" << n);
      CHECK(frontend::draw::basic_prim_count(mode, n) ==
            ref_prims(mode, iota_u32(n), false, true).size());
    }
  }
  CHECK(frontend::draw::basic_prim_count(PrimType::PATCHES, 9) == 0);
}
