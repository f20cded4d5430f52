// The builder child's side (program_builder.h, clpipe/screen.h's program_builder_main and
// BuilderPool): it reads build requests, builds them on its device and replies.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "runtime/cl.h"
#include "runtime/device.h"
#include "runtime/error.h"
#include "runtime/program_builder.h"
#include "runtime/program_builder_wire.h"
#include "runtime/program_cache.h"

namespace clpipe {

namespace {

namespace wire = runtime::builder_wire;

// The connection the child reads requests from and replies on: its parent's socket, or
// in a pool child the connection it serves now.
int g_channel = wire::kChannelFd;
// A pool child: a requester waits for the reply to the request being built. Set when a
// request has been read, cleared by its reply (the rest of a "built" request, the disk
// entry, no longer has anyone waiting).
std::atomic<bool> g_building{false};

bool write_all(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    const ssize_t w = ::write(fd, s.data() + done, s.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    done += size_t(w);
  }
  return true;
}

int reply(wire::Reply kind, const void* data, size_t size) {
  std::string out;
  const uint32_t k = uint32_t(kind);
  out.append(reinterpret_cast<const char*>(&k), sizeof k);
  wire::put_part(out, data, size);
  g_building = false;
  return write_all(g_channel, out) ? 0 : 3;
}

int reply_failure(const std::string& why) {
  return reply(wire::Reply::kFailure, why.data(), why.size());
}

bool read_exact(void* out, size_t size) {
  char* p = static_cast<char*>(out);
  while (size) {
    const ssize_t r = ::read(g_channel, p, size);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    size -= size_t(r);
  }
  return true;
}

bool read_part(std::string* out) {
  uint64_t size = 0;
  if (!read_exact(&size, sizeof size) || size > wire::kMaxPart) return false;
  out->resize(size);
  return read_exact(out->data(), size);
}

// Builds and replies: with the binary in mode "binary"; in mode "built" at once, and then
// writes the binary as the program-cache entry `entry_path` (when not empty); in mode
// "primed" once it has read the binary (PoCL then generates the work-group functions
// $POCL_BINARY_SPECIALIZE_WG names: ProgramBuilder::build_primed) and written the entry.
// A program that built is added to `kept`.
int build(const cl::Context& context, const cl::Device& device, const std::string& options,
          const std::string& source, const std::string& mode, const std::string& entry_path,
          std::vector<cl::Program>* kept) {
  cl_int status = CL_SUCCESS;
  cl::Program program(context, source, false, &status);
  if (status != CL_SUCCESS)
    return reply_failure(runtime::Error(status, "clCreateProgramWithSource").what());
  status = program.build({device}, options.c_str());
  if (status == CL_BUILD_PROGRAM_FAILURE) {
    std::string log;
    program.getBuildInfo(device, CL_PROGRAM_BUILD_LOG, &log);
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
      log.pop_back();
    return reply(wire::Reply::kBuildLog, log.data(), log.size());
  }
  if (status != CL_SUCCESS) return reply_failure(runtime::Error(status, "clBuildProgram").what());
  if (mode == "built" || mode == "primed") {
    kept->push_back(program);
    const bool primed = mode == "primed";
    if (!primed) {
      if (const int r = reply(wire::Reply::kBuilt, "", 0); r != 0) return r;
    }
    // A primed build reads the binary even without an entry to write: the reading makes
    // the work-group functions.
    std::vector<std::vector<unsigned char>> binaries;
    const bool read = primed || !entry_path.empty();
    if (read && program.getInfo(CL_PROGRAM_BINARIES, &binaries) == CL_SUCCESS &&
        binaries.size() == 1 && !entry_path.empty())
      (void)runtime::write_program_entry(entry_path, binaries[0]);
    return primed ? reply(wire::Reply::kBuilt, "", 0) : 0;
  }
  std::vector<std::vector<unsigned char>> binaries;
  if (program.getInfo(CL_PROGRAM_BINARIES, &binaries) != CL_SUCCESS || binaries.size() != 1 ||
      binaries[0].empty() || binaries[0].size() > wire::kMaxPart) {
    return reply_failure("the device gave no program binary");
  }
  kept->push_back(program);
  return reply(wire::Reply::kBinary, binaries[0].data(), binaries[0].size());
}

constexpr size_t kMaxBuilds = 64;

// Builds the requests of g_channel until it closes, kIdleExitMs pass without one, or
// `kept` holds kMaxBuilds programs; nonzero when a reply could not be written.
//
// The programs built stay alive until the process ends, and it ends with _exit:
// PoCL without its kernel cache (POCL_KERNEL_CACHE=0) keeps a program's compiled
// kernels in a temporary folder that the program's release deletes, and a binary made
// from it names that folder, so the parent's program loaded from the binary uses the
// same folder. Released here, it would vanish under the parent (PoCL aborts with
// "Generic WG function binary does not exist"). kMaxBuilds bounds what they hold.
int serve_requests(const cl::Context& context, const cl::Device& device,
                   std::vector<cl::Program>* kept) {
  while (kept->size() < kMaxBuilds) {
    pollfd p{g_channel, POLLIN, 0};
    int n;
    while ((n = ::poll(&p, 1, runtime::ProgramBuilder::kIdleExitMs)) < 0 && errno == EINTR) {
    }
    if (n <= 0) return 0;  // idle
    std::string options, source, mode, entry_path;
    if (!read_part(&options) || !read_part(&source) || !read_part(&mode) || !read_part(&entry_path))
      return 0;  // the requester has gone
    if (mode != "binary" && mode != "built" && mode != "primed")
      return reply_failure("unknown mode \"" + mode + "\"");
    g_building = true;
    // A requester that hung up before this point is not watched for (pool children):
    // look once more, so that no build runs for nobody.
    pollfd gone{g_channel, POLLRDHUP, 0};
    if (::poll(&gone, 1, 0) > 0) return 0;
    if (const int r = build(context, device, options, source, mode, entry_path, kept); r != 0)
      return r;
  }
  return 0;
}

// Never freed, also when the process ends (idle, parent gone, kMaxBuilds): released, the
// programs would delete their folders (serve_requests).
std::vector<cl::Program>& kept_programs() {
  static std::vector<cl::Program>& kept = *new std::vector<cl::Program>;
  return kept;
}

// A child of one parent: serves its requests until it goes, kIdleExitMs pass without one,
// or it has built kMaxBuilds programs.
int serve(size_t device_index, const std::string& device_name) {
  const std::vector<runtime::DeviceCandidate> devices = runtime::enumerate_devices();
  if (device_index >= devices.size() ||
      devices[device_index].description.device_name != device_name) {
    return reply_failure("device " + std::to_string(device_index) + " is not \"" + device_name +
                         "\" in the builder");
  }
  const cl::Device& device = devices[device_index].device;
  cl_int status = CL_SUCCESS;
  cl::Context context(device, nullptr, nullptr, nullptr, &status);
  if (status != CL_SUCCESS) return reply_failure(runtime::Error(status, "clCreateContext").what());
  return serve_requests(context, device, &kept_programs());
}

// A pool child (BuilderPool): descriptor kChannelFd is the pool's listening socket. Takes
// one connection at a time, says hello (its pid, for the requester's processor-time
// budget, and its device), and serves its requests until it closes; ends after
// kMaxBuilds builds, when the pool closes its address, or mid-build when the requester
// hangs up (its budget stopped the build, or it has gone): the pool then starts
// another child.
int serve_pool(std::string request) {
  // As Screen::create selects its device.
  if (const char* env = std::getenv("CLPIPE_DEVICE"); request.empty() && env) request = env;
  const runtime::DeviceCandidate candidate =
      runtime::select_device(runtime::enumerate_devices(), request);
  cl_int status = CL_SUCCESS;
  cl::Context context(candidate.device, nullptr, nullptr, nullptr, &status);
  if (status != CL_SUCCESS) throw runtime::Error(status, "clCreateContext");
  const std::string hello = std::to_string(::getpid()) + "\n" + std::to_string(candidate.index) +
                            "\n" + candidate.description.device_name;
  std::vector<cl::Program>& kept = kept_programs();
  while (kept.size() < kMaxBuilds) {
    const int conn = ::accept4(wire::kChannelFd, nullptr, nullptr, SOCK_CLOEXEC);
    if (conn < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      return 0;  // the address is closed
    }
    // Only processes of this user build here (an abstract address is open to all).
    ucred peer{};
    socklen_t length = sizeof peer;
    if (::getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &peer, &length) != 0 ||
        peer.uid != ::getuid()) {
      ::close(conn);
      continue;
    }
    g_channel = conn;
    std::thread watcher([conn] {
      pollfd p{conn, POLLRDHUP, 0};
      while (::poll(&p, 1, -1) < 0 && errno == EINTR) {
      }
      if (g_building) ::_exit(0);  // abandoned mid-build
    });
    if (reply(wire::Reply::kHello, hello.data(), hello.size()) == 0)
      (void)serve_requests(context, candidate.device, &kept);
    ::shutdown(conn, SHUT_RDWR);  // wakes the watcher if the requester is still there
    watcher.join();
    ::close(conn);
    g_channel = wire::kChannelFd;
  }
  return 0;
}

}  // namespace

int program_builder_main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--build-program") != 0) return -1;
  unsigned long long device_index = ~0ull, memory_mb = 0, parent = 0;
  std::string device_name, device_request;
  bool pool = false;
  for (int i = 2; i < argc; ++i) {
    if (std::strncmp(argv[i], "--device-name=", 14) == 0) {
      device_name = argv[i] + 14;
    } else if (std::strncmp(argv[i], "--device=", 9) == 0) {
      device_request = argv[i] + 9;
    } else if (std::strcmp(argv[i], "--pool") == 0) {
      pool = true;
    } else if (std::sscanf(argv[i], "--device-index=%llu", &device_index) != 1 &&
               std::sscanf(argv[i], "--memory-mb=%llu", &memory_mb) != 1 &&
               std::sscanf(argv[i], "--parent=%llu", &parent) != 1) {
      ::_exit(reply_failure(std::string("unknown argument ") + argv[i]));
    }
  }
  if (pool) {
    // A pool child ends with the pool's process (checked after the request: it may have
    // ended before).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != pid_t(parent)) ::_exit(0);
    // A requester that hangs up makes writes fail, not end the process.
    ::signal(SIGPIPE, SIG_IGN);
  } else {
    // A build whose requester has gone is abandoned: the parent's end of the socket
    // closes when its process ends (nothing else holds it: it is close-on-exec), and
    // this thread then ends the process, mid-build or not.
    std::thread([] {
      pollfd p{wire::kChannelFd, POLLRDHUP, 0};
      while (::poll(&p, 1, -1) < 0 && errno == EINTR) {
      }
      ::_exit(0);
    }).detach();
  }
  // The compiler's own children (PoCL runs a linker) must not hold the socket open.
  ::fcntl(wire::kChannelFd, F_SETFD, FD_CLOEXEC);
  rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  if (memory_mb) {
    // RLIMIT_DATA counts the heap and private writable mappings: what a compiler grows.
    const rlim_t bytes = rlim_t(memory_mb) << 20;
    rlimit data{bytes, bytes};
    if (::setrlimit(RLIMIT_DATA, &data) != 0)
      ::_exit(reply_failure(std::string("cannot set its memory budget: ") + std::strerror(errno)));
  }
  int status = 0;
  std::string failure;
  try {
    status = pool ? serve_pool(device_request) : serve(size_t(device_index), device_name);
  } catch (const std::bad_alloc&) {
    failure = "ran out of memory";
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (!failure.empty()) {
    // A pool child between connections has nobody to tell but the log.
    if (pool && g_channel == wire::kChannelFd)
      std::fprintf(stderr, "clpipe builder pool child %d: %s\n", int(::getpid()), failure.c_str());
    status = reply_failure(failure);
    if (pool) status = status ? status : 1;
  }
  ::_exit(status);  // no release of the programs it built, no exit handlers: see serve_requests()
}

}  // namespace clpipe
