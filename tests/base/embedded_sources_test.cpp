#include <catch2/catch.hpp>

#include "base/embedded_sources.h"
#include "runtime/error.h"

using namespace clpipe;

TEST_CASE("kernel sources are embedded in the library", "[runtime][kernels]") {
  CHECK(kernels::embedded_source("fill.cl").find("fill_pattern") != std::string_view::npos);
  CHECK(kernels::embedded_source("formats.def").find("R8G8B8A8_UNORM") != std::string_view::npos);
  CHECK_THROWS_AS(kernels::embedded_source("no_such_file.cl"), clpipe::Error);
}

TEST_CASE("includes are expanded from the embedded files", "[runtime][kernels]") {
  std::string out = kernels::expand_includes(
      "#define CLPIPE_FORMAT(name, ...) F_##name,\n"
      "#include \"clpipe/formats.def\"\n"
      "#undef CLPIPE_FORMAT\n"
      "#include \"formats.def\"\n");
  // .def lists expand every time they are included.
  size_t first = out.find("R8G8B8A8_UNORM");
  REQUIRE(first != std::string::npos);
  CHECK(out.find("R8G8B8A8_UNORM", first + 1) != std::string::npos);
  CHECK(out.find("#include") == std::string::npos);
  CHECK_THROWS_AS(kernels::expand_includes("#include \"missing.h\"\n"), clpipe::Error);
}
