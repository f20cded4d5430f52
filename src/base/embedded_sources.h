// The OpenCL C sources of src/kernels (and the shared .def/.h files they include),
// embedded at build time by cmake/embed_kernels.cmake.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace clpipe::kernels {

struct EmbeddedSource {
  const char* name;  // file name, e.g. "clear.cl"
  const char* data;
  size_t size;
};

// Generated: every embedded file.
const std::vector<EmbeddedSource>& embedded_sources();

// The text of an embedded file; throws clpipe::Error when there is none.
std::string_view embedded_source(std::string_view name);

// Returns `text` with every `#include "name"` replaced by the embedded file of that name
// (recursively; a header at most once, an X-macro .def list every time it is included),
// so the device compiler needs no file system.
std::string expand_includes(std::string_view text);

}  // namespace clpipe::kernels
