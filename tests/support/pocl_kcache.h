// What PoCL's kernel cache holds: for tests that a build generated the code of a launch
// before the launch (ProgramBuilder::build_primed).
#pragma once

#include <filesystem>
#include <set>
#include <string>

namespace clpipe::test {

// The work-group functions of kernel `kernel` that PoCL keeps in its kernel cache under
// `dir` (the POCL_CACHE_DIR of the process that built them), by the names of their
// folders: "0-0-0" for the generic one that reading a program's binary makes,
// "64-1-1-goffs0-smallgrid" for one specialised to launches of 64 work-items with no
// offset on a grid narrower than 65535.
inline std::set<std::string> work_group_functions(const std::string& dir,
                                                  const std::string& kernel) {
  std::set<std::string> out;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory() && it->path().parent_path().filename() == kernel)
      out.insert(it->path().filename().string());
  }
  return out;
}

}  // namespace clpipe::test
