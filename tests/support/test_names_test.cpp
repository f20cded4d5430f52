// CTest runs each test case by name (catch_discover_tests). A ';' in a name is CMake's
// list separator: the registered CTest name is cut there, and running it selects no
// Catch test at all, so the case "passes" without running. A '[' starts a tag in a
// Catch test spec. Names with either never run under CTest.
#include <catch2/catch.hpp>

TEST_CASE("test names: every case can be run by name from CTest", "[support]") {
  const auto& all = Catch::getRegistryHub().getTestCaseRegistry().getAllTests();
  REQUIRE(all.size() > 100);
  for (const Catch::TestCase& tc : all) {
    INFO(tc.name);
    CHECK(tc.name.find(';') == std::string::npos);
    CHECK(tc.name.find('[') == std::string::npos);
  }
}
