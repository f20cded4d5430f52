#include "base/embedded_sources.h"

#include <set>

#include "base/error.h"

namespace clpipe::kernels {

std::string_view embedded_source(std::string_view name) {
  for (const EmbeddedSource& s : embedded_sources()) {
    if (name == s.name) return std::string_view(s.data, s.size);
  }
  clpipe::fail(ErrorCode::kDeviceError, "no embedded kernel source named \"", name, "\"");
}

namespace {

void expand(std::string_view text, std::set<std::string>& seen, std::string& out) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = text.substr(pos, eol - pos);
    size_t first = line.find_first_not_of(" \t");
    bool handled = false;
    if (first != std::string_view::npos && line.substr(first).rfind("#include", 0) == 0) {
      size_t q0 = line.find('"');
      size_t q1 = q0 == std::string_view::npos ? q0 : line.find('"', q0 + 1);
      if (q1 != std::string_view::npos) {
        std::string name(line.substr(q0 + 1, q1 - q0 - 1));
        // "clpipe/formats.def" and "formats.def" name the same embedded file.
        size_t slash = name.rfind('/');
        if (slash != std::string::npos) name = name.substr(slash + 1);
        // X-macro lists (.def) are meant to be included repeatedly; headers only once.
        const bool is_def = name.size() > 4 && name.compare(name.size() - 4, 4, ".def") == 0;
        if (is_def || seen.insert(name).second) {
          out += "// begin " + name + "\n";
          expand(embedded_source(name), seen, out);
          out += "// end " + name + "\n";
        }
        handled = true;
      }
    }
    if (!handled) {
      out.append(line.data(), line.size());
      out += '\n';
    }
    pos = eol + 1;
  }
}

}  // namespace

std::string expand_includes(std::string_view text) {
  std::set<std::string> seen;
  std::string out;
  expand(text, seen, out);
  return out;
}

}  // namespace clpipe::kernels
