// clpipe-tgsi: runs the TGSI front-end of src/compiler over files or folders.
//
//   clpipe-tgsi [--dump | --check | --info] [-q] PATH...
//
// Each PATH is a .tgsi file or a folder whose *.tgsi files are taken in name order.
// --dump (the default) parses, validates and prints each shader in tgsi_dump layout;
// --check only parses and validates; --info prints the analysis (shader_info.h).
// Diagnostics go to stderr as "file:line:col: message". The exit status is 0 when every
// shader is valid, 1 when one is not, 2 for a usage error or an unreadable path.
// New actions (the emitter's --emit-cl and --build) add a row to kActions and a case to
// run_action().
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/diagnostics.h"
#include "compiler/shader_info.h"
#include "compiler/tgsi/parser.h"
#include "compiler/tgsi/printer.h"
#include "compiler/validate.h"

namespace fs = std::filesystem;
using namespace clpipe::compiler;

namespace {

enum class Action { kDump, kCheck, kInfo };

struct ActionRow {
  const char* flag;
  Action action;
  const char* help;
};

constexpr ActionRow kActions[] = {
    {"--dump", Action::kDump, "parse, validate and print each shader (default)"},
    {"--check", Action::kCheck, "parse and validate only"},
    {"--info", Action::kInfo, "parse, validate and print the analysis of each shader"},
};

struct Options {
  Action action = Action::kDump;
  bool quiet = false;
  std::vector<std::string> paths;
};

void usage(std::ostream& os) {
  os << "usage: clpipe-tgsi [ACTION] [-q] PATH...\n"
        "PATH is a .tgsi file or a folder (its *.tgsi files, in name order).\n"
        "Actions:\n";
  for (const ActionRow& a : kActions) {
    os << "  " << a.flag << std::string(10 - std::strlen(a.flag), ' ') << a.help << "\n";
  }
  os << "Options:\n"
        "  -q, --quiet  print only diagnostics and the summary line\n"
        "  -h, --help   this text\n"
        "Exit status: 0 all shaders valid, 1 some shader failed, 2 usage or I/O error.\n";
}

// Returns false (after printing why) on a usage error.
bool parse_options(int argc, char** argv, Options* opt, bool* help) {
  bool action_given = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      *help = true;
      return true;
    }
    if (arg == "-q" || arg == "--quiet") {
      opt->quiet = true;
      continue;
    }
    if (arg == "--") {
      for (++i; i < argc; ++i)
        opt->paths.push_back(argv[i]);
      break;
    }
    if (arg.size() > 1 && arg[0] == '-') {
      auto it = std::find_if(std::begin(kActions), std::end(kActions),
                             [&](const ActionRow& a) { return arg == a.flag; });
      if (it == std::end(kActions)) {
        std::cerr << "clpipe-tgsi: unknown option " << arg << "\n";
        return false;
      }
      if (action_given && opt->action != it->action) {
        std::cerr << "clpipe-tgsi: give one action only\n";
        return false;
      }
      action_given = true;
      opt->action = it->action;
      continue;
    }
    opt->paths.push_back(arg);
  }
  if (opt->paths.empty()) {
    std::cerr << "clpipe-tgsi: no input (a .tgsi file or a folder)\n";
    return false;
  }
  return true;
}

bool read_file(const fs::path& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *text = ss.str();
  return !in.bad();
}

// Expands folders into their *.tgsi files; false if a path cannot be used.
bool collect_files(const std::vector<std::string>& paths, std::vector<fs::path>* files) {
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<fs::path> found;
      for (const auto& entry : fs::directory_iterator(p, ec)) {
        if (entry.is_regular_file() && entry.path().extension() == ".tgsi") {
          found.push_back(entry.path());
        }
      }
      if (ec) {
        std::cerr << p << ": cannot list folder: " << ec.message() << "\n";
        return false;
      }
      std::sort(found.begin(), found.end());
      files->insert(files->end(), found.begin(), found.end());
    } else if (fs::exists(p, ec)) {
      files->push_back(p);
    } else {
      std::cerr << p << ": no such file or folder\n";
      return false;
    }
  }
  return true;
}

// Runs the action on one file; false when the shader is invalid.
bool run_action(const Options& opt, const fs::path& path, const std::string& text,
                bool print_header) {
  try {
    Shader shader = parse_tgsi(text);
    validate(shader);
    if (opt.quiet) return true;
    switch (opt.action) {
      case Action::kDump:
        if (print_header) std::cout << "==> " << path.string() << " <==\n";
        std::cout << print_tgsi(shader);
        break;
      case Action::kInfo:
        if (print_header) std::cout << "==> " << path.string() << " <==\n";
        std::cout << describe_shader_info(analyze(shader));
        break;
      case Action::kCheck:
        break;
    }
    return true;
  } catch (const CompileError& e) {
    for (const Diagnostic& d : e.diagnostics()) {
      std::cerr << path.string() << ":" << d.to_string() << "\n";
    }
    return false;
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  bool help = false;
  if (!parse_options(argc, argv, &opt, &help)) {
    usage(std::cerr);
    return 2;
  }
  if (help) {
    usage(std::cout);
    return 0;
  }
  std::vector<fs::path> files;
  if (!collect_files(opt.paths, &files)) return 2;
  size_t failed = 0;
  bool io_error = false;
  for (const fs::path& path : files) {
    std::string text;
    if (!read_file(path, &text)) {
      std::cerr << path.string() << ": cannot read\n";
      io_error = true;
      continue;
    }
    if (!run_action(opt, path, text, files.size() > 1)) ++failed;
  }
  if (files.size() > 1 || opt.quiet) {
    std::cerr << files.size() - failed << " of " << files.size() << " shaders valid\n";
  }
  if (io_error) return 2;
  return failed ? 1 : 0;
}
