// clpipe-vtest: a vtest protocol server, so that Mesa's stock virpipe driver
// (GALLIUM_DRIVER=virpipe) renders OpenGL programs through clpipe. Also prints the caps
// it would advertise, replays recorded vtest captures against the device, and warms the
// program cache (warm_up.h).
//
// This file only parses options and wires the pieces of src/vtest together:
// Screen::create is the screen factory; the server forks one process per client.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "clpipe/screen.h"
#include "runtime/driver_preload.h"
#include "runtime/program_cache.h"
#include "vtest/caps.h"
#include "vtest/capture.h"
#include "vtest/formats.h"
#include "vtest/log.h"
#include "vtest/replay.h"
#include "vtest/server.h"
#include "warm_up.h"

namespace vt = clpipe::frontend::vtest;

namespace {

const char kHelp[] = R"(usage: clpipe-vtest [OPTIONS]

A vtest server (the protocol of virglrenderer's virgl_test_server) that renders with
clpipe. Run it, then start OpenGL programs with GALLIUM_DRIVER=virpipe; Mesa 22.3 always
connects to /tmp/.virgl_test. Each client is served by its own process.

options:
  --socket-path=PATH      listen on PATH (default /tmp/.virgl_test); "--socket-path PATH"
                          works too
  --device=TEXT           OpenCL device: substring of the platform or device name
                          (default: $CLPIPE_DEVICE, else the first GPU, else the first
                          device)
  --cache-dir=DIR         program cache folder (default: $CLPIPE_CACHE_DIR, else
                          $XDG_CACHE_HOME/clpipe); programs it lacks are read from
                          the machine's read-only folder, which the Debian package
                          warms when installed: here @SYSTEM_CACHE_DIR@
                          ($CLPIPE_SYSTEM_CACHE_DIR sets it; set and empty: none)
  --gl-version=X.Y        advertise at most this GL version (2.0 .. 3.3, default 3.3);
                          less is advertised when the device's caps miss a requirement
  --max-clients=N         concurrent clients (default 64); when all are taken, a new
                          client waits for the slot of the client idle longest, which
                          it gets once that one has been idle for --evict-idle seconds;
                          if none is within those seconds, it is refused
  --evict-idle=S          that idle time (default 10; 0: never evict, refuse at once)
  --max-client-memory=MB  memory one client may hold (resources, draw scratch, guest
                          stores), in MiB (default 16384)
  --max-total-memory=MB   memory all clients together may hold, in MiB (default: three
                          quarters of the machine's memory; 0: no limit)
  --handshake-timeout=S   close a connection that sends no CREATE_RENDERER within S
                          seconds (default 10; 0: never)
  --idle-timeout=S        close a client that sends nothing for S seconds between
                          messages (default 0: never, as a paused GL program is idle)
  --stall-timeout=S       close a client that stops for S seconds inside a message
                          (default 30; 0: never)
  --command-timeout=S     end a client's process (its context is lost) when one command
                          runs longer than S seconds, e.g. an endless shader behind a
                          fence wait (default 120; 0: never), not counting its waits for
                          builder children (see --build-timeout); a command still
                          running 1 s after its client hung up ends it too
  --build-timeout=S       stop a shader program build that takes more than S seconds
                          of processor time, or four times that in wall time (default 300;
                          0: never): the command that needed the program fails with a
                          log line, as a GL error, and the client goes on. Each build
                          runs in a child process, so it can be stopped
  --build-memory=MB       memory one build may take, in MiB (default 2048; 0: no limit)
  --build-pool=N          builder children the clients share (default 2; 0: each client
                          starts its own). A client's process often lives for one
                          program, and a builder of its own costs it ~1.3 s before its
                          first shader (starting the child, loading the compiler)
  --build-in-process      build programs in the client's process, without the budgets
                          (debugging, or where a process cannot start another)
  --strict                close a client's connection when clpipe refuses a command
                          (default: log it and go on, like a GL error)
  --no-fork               serve clients one after another in this process (debugging;
                          a crash then ends the server)
  --no-preload            do not load the OpenCL drivers (the ICD loader's vendor
                          libraries) before forking: by default they are loaded once,
                          not initialised, so that each client's process starts with
                          them mapped (~0.2 s of processor time less per client on PoCL)
  --print-caps            print the caps this device yields and the GL version Mesa will
                          expose, then exit
  --replay=FILE           replay a recorded session (.vtcap or .vtcap.gz from
                          shared/tools/vtest-capture) against the device, print what
                          differed, exit 0 if nothing did
  --warm-cache            build the programs that OpenGL programs share (the fixed
                          passes, the shader interpreter's programs, multisampling,
                          blits) into the program cache, by replaying sessions built
                          into this program, then exit: run it once after installing
                          (the README's set-up does), and the first programs run
                          faster. Prints what it built; 0 when every session replayed
  -v, --verbose           log every client event (debug level)
  -q, --quiet             log errors only
  -h, --help              this text

Protocol errors are logged on stderr with the client and the command, and close that
client's connection only. SIGTERM or SIGINT stop the server: the socket is removed and
the client processes are ended.
)";

// Three quarters of the machine's memory: clients are refused memory before it swaps.
uint64_t default_total_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) / 4 * 3 : 0;
}

struct Args {
  Args() {
    server.max_total_bytes = default_total_bytes();
    // This program is the builder too (main's first line): the build budgets need a
    // process to kill.
    screen.builder.executable = "/proc/self/exe";
  }
  vt::ServerOptions server;
  clpipe::ScreenOptions screen;
  bool print_caps = false;
  std::string replay;
  bool warm_cache = false;
  unsigned build_pool = 2;
  bool preload_drivers = true;
};

bool parse_number(const std::string& s, unsigned long long* out) {
  char* end = nullptr;
  errno = 0;
  *out = std::strtoull(s.c_str(), &end, 10);
  return !s.empty() && errno == 0 && end && *end == '\0';
}

[[noreturn]] void usage_error(const std::string& msg) {
  std::fprintf(stderr, "clpipe-vtest: %s (see --help)\n", msg.c_str());
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    const size_t eq = arg.find('=');
    const bool has_value = arg.rfind("--", 0) == 0 && eq != std::string::npos;
    if (has_value) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    }
    auto need = [&]() -> std::string {
      if (has_value) return value;
      if (i + 1 >= argc) usage_error(arg + " needs a value");
      return argv[++i];
    };
    unsigned long long n = 0;
    if (arg == "-h" || arg == "--help") {
      std::string help = kHelp;
      const std::string system_dir = clpipe::runtime::ProgramCache::default_system_dir();
      help.replace(help.find("@SYSTEM_CACHE_DIR@"), 18, system_dir.empty() ? "none" : system_dir);
      std::fputs(help.c_str(), stdout);
      std::exit(0);
    } else if (arg == "--socket-path") {
      a.server.socket_path = need();
    } else if (arg == "--device") {
      a.screen.device = need();
    } else if (arg == "--cache-dir") {
      a.screen.cache_dir = need();
    } else if (arg == "--gl-version") {
      const std::string v = need();
      unsigned major = 0, minor = 0;
      if (std::sscanf(v.c_str(), "%u.%u", &major, &minor) != 2 || major * 10 + minor < 20 ||
          major * 10 + minor > 33 || minor > 9)
        usage_error("--gl-version must be X.Y between 2.0 and 3.3");
      a.server.connection.caps.max_gl_version = major * 10 + minor;
    } else if (arg == "--max-clients") {
      if (!parse_number(need(), &n) || n == 0 || n > 4096) usage_error("bad --max-clients");
      a.server.max_clients = uint32_t(n);
    } else if (arg == "--max-client-memory") {
      if (!parse_number(need(), &n) || n == 0 || n > (1ull << 24))
        usage_error("bad --max-client-memory");
      a.server.connection.limits.max_client_bytes = n << 20;
    } else if (arg == "--max-total-memory") {
      if (!parse_number(need(), &n) || n > (1ull << 30)) usage_error("bad --max-total-memory");
      a.server.max_total_bytes = n << 20;
    } else if (arg == "--handshake-timeout" || arg == "--idle-timeout" ||
               arg == "--stall-timeout") {
      if (!parse_number(need(), &n) || n > 86400) usage_error("bad " + arg);
      vt::ConnectionOptions& c = a.server.connection;
      uint32_t& ms = arg == "--handshake-timeout" ? c.handshake_timeout_ms
                     : arg == "--idle-timeout"    ? c.idle_timeout_ms
                                                  : c.stall_timeout_ms;
      ms = uint32_t(n) * 1000;
    } else if (arg == "--evict-idle") {
      if (!parse_number(need(), &n) || n > 86400) usage_error("bad --evict-idle");
      a.server.evict_idle_ms = uint32_t(n) * 1000;
    } else if (arg == "--command-timeout") {
      if (!parse_number(need(), &n) || n > 86400) usage_error("bad --command-timeout");
      a.server.command_timeout_ms = uint32_t(n) * 1000;
    } else if (arg == "--build-timeout") {
      if (!parse_number(need(), &n) || n > 86400) usage_error("bad --build-timeout");
      a.screen.builder.timeout_ms = uint32_t(n) * 1000;
    } else if (arg == "--build-memory") {
      if (!parse_number(need(), &n) || n > (1ull << 30)) usage_error("bad --build-memory");
      a.screen.builder.memory_bytes = n << 20;
    } else if (arg == "--build-pool") {
      if (!parse_number(need(), &n) || n > 64) usage_error("bad --build-pool");
      a.build_pool = unsigned(n);
    } else if (arg == "--build-in-process") {
      a.screen.builder.executable.clear();
    } else if (arg == "--strict") {
      a.server.connection.decoder.strict = true;
    } else if (arg == "--no-fork") {
      a.server.fork_per_client = false;
    } else if (arg == "--no-preload") {
      a.preload_drivers = false;
    } else if (arg == "--print-caps") {
      a.print_caps = true;
    } else if (arg == "--replay") {
      a.replay = need();
    } else if (arg == "--warm-cache") {
      a.warm_cache = true;
    } else if (arg == "-v" || arg == "--verbose") {
      vt::set_log_level(vt::LogLevel::kDebug);
    } else if (arg == "-q" || arg == "--quiet") {
      vt::set_log_level(vt::LogLevel::kError);
    } else {
      usage_error("unknown option " + std::string(argv[i]));
    }
  }
  return a;
}

std::string gl_text(unsigned v) {
  return v ? std::to_string(v / 10) + "." + std::to_string(v % 10) : "none";
}

int print_caps(const Args& a, const vt::ScreenFactory& factory) {
  auto screen = factory();
  if (!screen) {
    std::fprintf(stderr, "clpipe-vtest: %s\n", screen.status().to_string().c_str());
    return 1;
  }
  const vt::CapsBlob blob = vt::build_caps(*screen.value(), a.server.connection.caps);
  const vt::GlVersion v = vt::mesa_gl_version(blob);
  const uint8_t* b = blob.data();
  std::printf("renderer: %s\n", reinterpret_cast<const char*>(b + vt::CapsOffset::RENDERER));
  std::printf("GL %s compatibility, %s core; GLSL level %u\n", gl_text(v.compat).c_str(),
              gl_text(v.core).c_str(), vt::caps_u32(b, vt::CapsOffset::GLSL_LEVEL));
  for (const std::string& m : v.missing)
    std::printf("next GL level needs: %s\n", m.c_str());
  const struct {
    const char* name;
    uint32_t offset;
  } kFields[] = {{"bset", vt::CapsOffset::BSET},
                 {"capability_bits", vt::CapsOffset::CAPABILITY_BITS},
                 {"capability_bits_v2", vt::CapsOffset::CAPABILITY_BITS_V2},
                 {"max_render_targets", vt::CapsOffset::MAX_RENDER_TARGETS},
                 {"max_samples", vt::CapsOffset::MAX_SAMPLES},
                 {"prim_mask", vt::CapsOffset::PRIM_MASK},
                 {"max_texture_array_layers", vt::CapsOffset::MAX_TEXTURE_ARRAY_LAYERS},
                 {"max_streamout_buffers", vt::CapsOffset::MAX_STREAMOUT_BUFFERS},
                 {"max_uniform_blocks", vt::CapsOffset::MAX_UNIFORM_BLOCKS},
                 {"max_tbo_size", vt::CapsOffset::MAX_TBO_SIZE},
                 {"max_shader_sampler_views", vt::CapsOffset::MAX_SHADER_SAMPLER_VIEWS},
                 {"max_texture_2d_size", vt::CapsOffset::MAX_TEXTURE_2D_SIZE},
                 {"host_feature_check_version", vt::CapsOffset::HOST_FEATURE_CHECK_VERSION}};
  for (const auto& f : kFields)
    std::printf("%-28s 0x%08x (%u)\n", f.name, vt::caps_u32(b, f.offset),
                vt::caps_u32(b, f.offset));
  const struct {
    const char* name;
    uint32_t offset;
  } kMasks[] = {{"sampler", vt::CapsOffset::SAMPLER},
                {"render", vt::CapsOffset::RENDER},
                {"depthstencil", vt::CapsOffset::DEPTHSTENCIL},
                {"vertexbuffer", vt::CapsOffset::VERTEXBUFFER}};
  for (const auto& m : kMasks) {
    std::printf("%s:", m.name);
    for (uint32_t f = 1; f < vt::kVirglFormatCount; ++f)
      if (vt::caps_has_format(b, m.offset, f)) std::printf(" %s", vt::virgl_format_name(f));
    std::printf("\n");
  }
  return 0;
}

int replay(const Args& a, const vt::ScreenFactory& factory) {
  auto capture = vt::read_capture(a.replay);
  if (!capture) {
    std::fprintf(stderr, "clpipe-vtest: %s\n", capture.status().to_string().c_str());
    return 1;
  }
  vt::ReplayOptions options;
  options.connection = a.server.connection;
  options.command_timeout_ms = a.server.command_timeout_ms;
  const clpipe::vtest_tool::CountedReplay r =
      clpipe::vtest_tool::replay_counting(capture.value(), factory, options);
  std::fputs(r.result.summary().c_str(), stdout);
  std::printf("programs: %llu built, %llu loaded from the cache\n",
              (unsigned long long)r.programs.built, (unsigned long long)r.programs.from_disk);
  return r.result.ok() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  clpipe::program_builder_main(argc, argv);  // a builder child never returns
  Args args = parse(argc, argv);
  std::unique_ptr<clpipe::BuilderPool> pool;
  if (args.warm_cache) {
    // Its replays' connections are not clients: their comings and goings are noise.
    if (vt::log_level() == vt::LogLevel::kInfo) vt::set_log_level(vt::LogLevel::kWarning);
    // Each replay's process builds its programs itself: the sessions are fixed, and no
    // pool child would outlive the warm-up to write the disk entries of its last builds.
    clpipe::ScreenOptions options = args.screen;
    options.builder.executable.clear();
    options.warm_up = true;
    vt::ScreenFactory factory = [options]() { return clpipe::Screen::create(options); };
    clpipe::vtest_tool::WarmUpOptions warm;
    warm.jobs = std::min(8u, std::max(1u, std::thread::hardware_concurrency()));
    warm.command_timeout_ms = args.server.command_timeout_ms;
    warm.cache_dir = options.cache_dir.empty() ? clpipe::runtime::ProgramCache::default_disk_dir()
                                               : options.cache_dir;
    return clpipe::vtest_tool::warm_cache(factory, warm);
  }
  if (args.build_pool && args.server.fork_per_client && !args.print_caps && args.replay.empty() &&
      !args.screen.builder.executable.empty()) {
    auto started =
        clpipe::BuilderPool::start(args.screen.builder, args.screen.device, args.build_pool);
    if (started) {
      pool = std::move(started.value());
      args.screen.builder.pool_address = pool->address();
      args.server.other_child_ended = [&pool](int pid, int status) {
        return pool->child_ended(pid, status);
      };
      args.server.at_client_start = [&pool] { pool->forget_in_fork(); };
    } else {
      vt::log_at(vt::LogLevel::kWarning, "no builder pool: ", started.status().to_string());
    }
  }
  const clpipe::ScreenOptions screen_options = args.screen;
  vt::ScreenFactory factory = [screen_options]() { return clpipe::Screen::create(screen_options); };
  if (args.print_caps) return print_caps(args, factory);
  if (!args.replay.empty()) return replay(args, factory);

  if (args.preload_drivers && args.server.fork_per_client) {
    std::string failures;
    const size_t loaded = clpipe::runtime::preload_drivers(
        clpipe::runtime::DriverSources::from_environment(), &failures);
    vt::log_at(vt::LogLevel::kDebug, "OpenCL drivers loaded before forking: ", loaded,
               failures.empty() ? "" : "; not loaded: ", failures);
  }
  vt::Server::install_signal_handlers();
  vt::Server server(args.server, factory);
  const clpipe::Status s = server.start();
  if (!s) {
    vt::log_at(vt::LogLevel::kError, s.to_string());
    return 1;
  }
  return server.run();
}
