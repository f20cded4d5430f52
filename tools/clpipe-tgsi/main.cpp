// clpipe-tgsi: runs the TGSI compiler of src/compiler over files or folders.
//
//   clpipe-tgsi [--dump | --check | --info | --emit-cl [--full] | --build [-j N] [--batch N]]
//               [--template NAME] [-q] PATH...
//
// Each PATH is a .tgsi file or a folder whose *.tgsi files are taken in name order.
// --dump (the default) parses, validates and prints each shader in tgsi_dump layout;
// --check only parses and validates; --info prints the analysis (shader_info.h);
// --emit-cl prints the generated OpenCL C (prelude and body; with --full the whole program
// as it is built: prelude, libraries, body and the harness template of the stage);
// --build builds each shader on the OpenCL device ($CLPIPE_DEVICE, programs cached in
// $CLPIPE_CACHE_DIR or $XDG_CACHE_HOME/clpipe) against the harness template of its stage
// (harness.cl, compute.cl; --template names another, e.g. vertex.cl or tile.cl), prints
// one line per shader with where the program came from (source or disk cache) and how
// long that took, and the build log of failures. --batch N builds up to N shaders of one
// stage per program (compiler/emit/batch.h: PoCL spends about a second per program);
// the members of a batch that fails are built again one by one to name the culprits.
// Diagnostics go to stderr as "file:line:col: message". A summary line ("N ok, M failed,
// T s") follows when more than one shader was given. The exit status is 0 when every
// shader passed, 1 when one did not, 2 for a usage error or an unreadable path.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/embedded_sources.h"
#include "compiler/diagnostics.h"
#include "compiler/emit/batch.h"
#include "compiler/emit/compile.h"
#include "compiler/shader_info.h"
#include "compiler/tgsi/parser.h"
#include "compiler/tgsi/printer.h"
#include "compiler/validate.h"
#include "frontend/draw/stage_program.h"
#include "runtime/device.h"
#include "runtime/error.h"
#include "runtime/program_cache.h"

namespace fs = std::filesystem;
using namespace clpipe::compiler;

namespace {

enum class Action { kDump, kCheck, kInfo, kEmitCl, kBuild };

struct ActionRow {
  const char* flag;
  Action action;
  const char* help;
};

constexpr ActionRow kActions[] = {
    {"--dump", Action::kDump, "parse, validate and print each shader (default)"},
    {"--check", Action::kCheck, "parse and validate only"},
    {"--info", Action::kInfo, "parse, validate and print the analysis of each shader"},
    {"--emit-cl", Action::kEmitCl, "print the generated OpenCL C (--full: the whole program)"},
    {"--build", Action::kBuild, "build each shader on the device against its harness"},
};

struct Options {
  Action action = Action::kDump;
  bool quiet = false;
  bool full = false;
  bool interp = false;  // --emit-cl / --build the interpreted form (emit_interpreted)
  unsigned jobs = 1;
  unsigned batch = 1;
  std::string template_name;  // empty: the stage's harness
  std::vector<std::string> paths;
};

void usage(std::ostream& os) {
  os << "usage: clpipe-tgsi [ACTION] [OPTIONS] PATH...\n"
        "PATH is a .tgsi file or a folder (its *.tgsi files, in name order).\n"
        "Actions:\n";
  for (const ActionRow& a : kActions) {
    os << "  " << a.flag << std::string(10 - std::strlen(a.flag), ' ') << a.help << "\n";
  }
  os << "Options:\n"
        "  --full       with --emit-cl: print the whole program\n"
        "  --interp     with --emit-cl / --build: the shader's interpreted form (its code words\n"
        "               and the interpreter that runs them), or why it has none\n"
        "  --template T with --emit-cl --full / --build: wrap the shader in template T\n"
        "               (harness.cl, compute.cl, vertex.cl, tile.cl) instead of its harness\n"
        "  -j N         with --build: build N programs at a time\n"
        "  --batch N    with --build: up to N shaders of one stage per program\n"
        "  -q, --quiet  print only diagnostics and the summary line\n"
        "  -h, --help   this text\n"
        "Exit status: 0 all shaders passed, 1 some shader failed, 2 usage or I/O error.\n";
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
    if (arg == "--full") {
      opt->full = true;
      continue;
    }
    if (arg == "--interp") {
      opt->interp = true;
      continue;
    }
    if (arg == "--template") {
      if (i + 1 >= argc) {
        std::cerr << "clpipe-tgsi: --template needs a template name\n";
        return false;
      }
      opt->template_name = argv[++i];
      continue;
    }
    if (arg == "--batch") {
      const unsigned long v = i + 1 < argc ? std::strtoul(argv[i + 1], nullptr, 10) : 0;
      if (v == 0 || v > 256) {
        std::cerr << "clpipe-tgsi: --batch takes a number from 1 to 256\n";
        return false;
      }
      opt->batch = unsigned(v);
      ++i;
      continue;
    }
    if (arg == "-j" || arg.rfind("-j", 0) == 0) {
      std::string n = arg.size() > 2 ? arg.substr(2) : (i + 1 < argc ? argv[++i] : "");
      char* end = nullptr;
      const unsigned long v = std::strtoul(n.c_str(), &end, 10);
      if (n.empty() || *end || v == 0 || v > 64) {
        std::cerr << "clpipe-tgsi: -j takes a number from 1 to 64\n";
        return false;
      }
      opt->jobs = unsigned(v);
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
  if (opt->batch > 1 && !opt->template_name.empty()) {
    std::cerr << "clpipe-tgsi: --batch builds against the harness templates; drop --template\n";
    return false;
  }
  if (opt->batch > 1 && opt->interp) {
    std::cerr << "clpipe-tgsi: --batch builds compiled shaders; drop --interp\n";
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

// What --build needs: the device, its program cache and the emit options it allows.
struct BuildContext {
  std::unique_ptr<clpipe::runtime::Device> device;
  std::unique_ptr<clpipe::runtime::ProgramCache> cache;
  EmitOptions emit;
};

std::unique_ptr<BuildContext> make_build_context() {
  auto ctx = std::make_unique<BuildContext>();
  const char* req = std::getenv("CLPIPE_DEVICE");
  ctx->device = std::make_unique<clpipe::runtime::Device>(
      clpipe::runtime::select_device(clpipe::runtime::enumerate_devices(), req ? req : ""));
  ctx->cache = std::make_unique<clpipe::runtime::ProgramCache>(
      *ctx->device, clpipe::runtime::ProgramCache::default_disk_dir());
  ctx->emit.fp64 = ctx->device->limits().fp64;
  ctx->emit.local_mem_size = ctx->device->limits().local_mem_size;
  ctx->emit.fragment_lanes = ctx->device->limits().fragment_lanes;
  ctx->emit.fragment_whole_tile = ctx->device->limits().whole_tile_items;
  return ctx;
}

std::string program_source(const EmittedShader& code, const std::string& template_name) {
  clpipe::frontend::draw::GeneratedCode g{code.prelude, code.body};
  return clpipe::frontend::draw::stage_program_source(
      g, template_name.empty() ? harness_template_name(code.stage) : template_name.c_str());
}

// The build log of a failed OpenCL build, ending in a newline; "" for other errors
// (a bad request carries only its message).
std::string build_log_of(const clpipe::Error& e) {
  const auto* build = dynamic_cast<const clpipe::runtime::Error*>(&e);
  return build && !build->build_log().empty() ? build->build_log() + "\n" : std::string();
}

// Runs the action on one file; false when the shader failed. Output is appended to
// `out` / `err` so that parallel builds print whole reports.
bool run_action(const Options& opt, const fs::path& path, const std::string& text,
                bool print_header, BuildContext* build, std::string* out, std::string* err) {
  const std::string header = print_header ? "==> " + path.string() + " <==\n" : "";
  try {
    if (opt.action == Action::kEmitCl || opt.action == Action::kBuild) {
      const EmitOptions emit = build ? build->emit : EmitOptions{};
      CompiledShader c = compile_tgsi(text, emit);
      if (opt.interp) c.code = emit_interpreted(c.ir, c.info, emit);
      if (opt.action == Action::kBuild) {
        const clpipe::runtime::ProgramRef p =
            build->cache->get(program_source(c.code, opt.template_name));
        if (!opt.quiet) {
          char line[64];
          std::snprintf(
              line, sizeof line, ": ok (%s, %.0f ms)\n",
              p->origin == clpipe::runtime::Program::Origin::kDisk ? "disk cache" : "built",
              p->build_ms);
          *out += path.string() + line;
        }
        return true;
      }
      if (opt.quiet) return true;
      *out += header;
      *out += opt.full ? program_source(c.code, opt.template_name)
                       : c.code.prelude + "\n" + c.code.body;
      if (opt.interp) {
        *out += "// code words:";
        for (size_t i = 0; i < c.code.interp_code.size(); ++i)
          *out += (i % 8 ? " " : "\n// ") + std::to_string(c.code.interp_code[i]);
        *out += "\n";
      }
      return true;
    }
    Shader shader = parse_tgsi(text);
    validate(shader);
    if (opt.quiet) return true;
    switch (opt.action) {
      case Action::kDump:
        *out += header + print_tgsi(shader);
        break;
      case Action::kInfo:
        *out += header + describe_shader_info(analyze(shader));
        break;
      default:
        break;
    }
    return true;
  } catch (const CompileError& e) {
    for (const Diagnostic& d : e.diagnostics()) {
      *err += path.string() + ":" + d.to_string() + "\n";
    }
    return false;
  } catch (const clpipe::Error& e) {
    *err += path.string() + ": build failed: " + e.what() + "\n";
    *err += build_log_of(e);
    return false;
  }
}

// --build --batch N: emits every shader, then builds them in programs of up to N shaders
// of one stage, `opt.jobs` programs at a time. Returns the number of failed shaders.
size_t build_batched(const Options& opt, const std::vector<fs::path>& files, BuildContext& build) {
  struct Item {
    fs::path path;
    EmittedShader code;
  };
  std::vector<Item> items;
  size_t failed = 0;
  for (const fs::path& path : files) {
    std::string text;
    if (!read_file(path, &text)) {
      std::cerr << path.string() << ": cannot read\n";
      ++failed;
      continue;
    }
    try {
      items.push_back({path, compile_tgsi(text, build.emit).code});
    } catch (const CompileError& e) {
      for (const Diagnostic& d : e.diagnostics()) {
        std::cerr << path.string() << ":" << d.to_string() << "\n";
      }
      ++failed;
    }
  }
  // Batches: consecutive shaders of one stage and lane count (compiler/emit/batch.h), in
  // file order within each.
  std::vector<std::vector<size_t>> batches;
  for (int st = 0; st < 6; ++st) {
    for (uint32_t lanes : {1u, 4u, 8u, 16u}) {
      std::vector<size_t> cur;
      for (size_t i = 0; i < items.size(); ++i) {
        if (int(items[i].code.stage) != st || items[i].code.lanes != lanes) continue;
        cur.push_back(i);
        if (cur.size() == opt.batch) batches.push_back(std::move(cur)), cur.clear();
      }
      if (!cur.empty()) batches.push_back(std::move(cur));
    }
  }
  std::atomic<size_t> next{0}, bad{0};
  std::mutex print_mutex;
  auto worker = [&] {
    for (;;) {
      const size_t b = next++;
      if (b >= batches.size()) return;
      std::vector<const EmittedShader*> codes;
      for (size_t i : batches[b])
        codes.push_back(&items[i].code);
      std::string out, err;
      try {
        const auto p = build.cache->get(batch_program_source(codes));
        if (!opt.quiet) {
          for (size_t i : batches[b]) {
            char line[96];
            std::snprintf(
                line, sizeof line, ": ok (batch of %zu, %s, %.0f ms)\n", codes.size(),
                p->origin == clpipe::runtime::Program::Origin::kDisk ? "disk cache" : "built",
                p->build_ms);
            out += items[i].path.string() + line;
          }
        }
      } catch (const clpipe::Error&) {
        // Find the culprits: each member on its own, against its harness.
        for (size_t i : batches[b]) {
          try {
            build.cache->get(program_source(items[i].code, ""));
            if (!opt.quiet) out += items[i].path.string() + ": ok (alone)\n";
          } catch (const clpipe::Error& e) {
            ++bad;
            err += items[i].path.string() + ": build failed: " + e.what() + "\n";
            err += build_log_of(e);
          }
        }
      }
      std::lock_guard<std::mutex> lock(print_mutex);
      std::cout << out;
      std::cerr << err;
    }
  };
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < opt.jobs; ++j)
    threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads)
    t.join();
  return failed + bad.load();
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
  std::unique_ptr<BuildContext> build;
  if (opt.action == Action::kBuild) {
    try {
      build = make_build_context();
    } catch (const clpipe::Error& e) {
      std::cerr << "clpipe-tgsi: no OpenCL device: " << e.what() << "\n";
      return 2;
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  if (opt.action == Action::kBuild && opt.batch > 1) {
    const size_t failed = build_batched(opt, files, *build);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    char line[128];
    std::snprintf(line, sizeof line, "%zu ok, %zu failed, %.1f s\n", files.size() - failed, failed,
                  secs);
    std::cerr << line;
    return failed ? 1 : 0;
  }
  std::atomic<size_t> failed{0}, next{0};
  std::atomic<bool> io_error{false};
  std::mutex print_mutex;
  auto worker = [&] {
    for (;;) {
      const size_t k = next++;
      if (k >= files.size()) return;
      const fs::path& path = files[k];
      std::string text, out, err;
      bool ok = true;
      if (!read_file(path, &text)) {
        err = path.string() + ": cannot read\n";
        io_error = true;
        ok = false;
      } else {
        ok = run_action(opt, path, text, files.size() > 1, build.get(), &out, &err);
      }
      if (!ok) ++failed;
      std::lock_guard<std::mutex> lock(print_mutex);
      std::cout << out;
      std::cerr << err;
    }
  };
  const unsigned jobs = opt.action == Action::kBuild ? opt.jobs : 1;
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < jobs; ++j)
    threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads)
    t.join();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (files.size() > 1 || opt.quiet) {
    char line[128];
    std::snprintf(line, sizeof line, "%zu ok, %zu failed, %.1f s\n", files.size() - failed.load(),
                  failed.load(), secs);
    std::cerr << line;
  }
  if (io_error) return 2;
  return failed ? 1 : 0;
}
