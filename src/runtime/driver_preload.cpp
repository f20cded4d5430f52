#include "runtime/driver_preload.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace clpipe::runtime {

namespace {

std::string trimmed(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

void add(std::vector<std::string>* out, const std::string& name) {
  if (!name.empty() && std::find(out->begin(), out->end(), name) == out->end())
    out->push_back(name);
}

}  // namespace

DriverSources DriverSources::from_environment() {
  DriverSources s;
  if (const char* f = std::getenv("OCL_ICD_FILENAMES")) s.filenames = f;
  const char* v = std::getenv("OCL_ICD_VENDORS");
  s.vendors_dir = v && *v ? v : "/etc/OpenCL/vendors";
  return s;
}

std::vector<std::string> driver_libraries(const DriverSources& sources) {
  std::vector<std::string> out;
  if (!sources.filenames.empty()) {
    size_t begin = 0;
    for (;;) {
      const size_t end = sources.filenames.find(':', begin);
      add(&out, trimmed(sources.filenames.substr(begin, end - begin)));
      if (end == std::string::npos) break;
      begin = end + 1;
    }
    return out;
  }
  std::error_code ec;
  std::vector<std::filesystem::path> icds;
  const std::filesystem::path vendors(sources.vendors_dir);
  if (!std::filesystem::is_directory(vendors, ec)) {
    // ocl-icd also takes one .icd file, or a library (a shared object's name), there.
    if (vendors.extension() == ".icd")
      icds.push_back(vendors);
    else if (vendors.filename().string().find(".so") != std::string::npos)
      add(&out, trimmed(sources.vendors_dir));
  }
  for (std::filesystem::directory_iterator it(vendors, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->path().extension() == ".icd") icds.push_back(it->path());
  }
  std::sort(icds.begin(), icds.end());
  for (const auto& icd : icds) {
    std::ifstream in(icd);
    std::string line;
    if (std::getline(in, line)) add(&out, trimmed(line));
  }
  return out;
}

size_t preload_drivers(const DriverSources& sources, std::string* failures) {
  size_t loaded = 0;
  for (const std::string& lib : driver_libraries(sources)) {
    // Never closed: the children use the mapping, and unloading LLVM at exit is not
    // wanted either.
    if (::dlopen(lib.c_str(), RTLD_LAZY | RTLD_LOCAL)) {
      ++loaded;
    } else if (failures) {
      const char* why = ::dlerror();
      *failures += lib + ": " + (why ? why : "not loaded") + "\n";
    }
  }
  return loaded;
}

}  // namespace clpipe::runtime
