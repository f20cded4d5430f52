#include "runtime/program_builder.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/cl.h"
#include "runtime/device.h"
#include "runtime/error.h"
#include "runtime/program_builder_wire.h"
#include "runtime/program_cache.h"

extern char** environ;

namespace clpipe::runtime {

namespace {

using namespace builder_wire;

// How often the parent reads a building child's processor time.
constexpr double kCpuPollMs = 100;
// The budget is processor time, so that builds on a loaded machine (many clients, a
// parallel test run) are not stopped for waiting their turn. A build that waits without
// computing (a stalled driver), or for a pool child to take it, is stopped at
// kWallBudgets budgets of wall time.
constexpr uint32_t kWallBudgets = 4;

template <typename... Parts>
[[noreturn]] void builder_failed(const Parts&... why) {
  fail(ErrorCode::kCompileError, "the program builder ", why...);
}

// Reads `size` bytes from the front of `in` at `*pos`; false when it is shorter.
bool take(const std::string& in, size_t* pos, void* out, size_t size) {
  if (in.size() - *pos < size) return false;
  std::memcpy(out, in.data() + *pos, size);
  *pos += size;
  return true;
}

bool take_part(const std::string& in, size_t* pos, std::string* out) {
  uint64_t size = 0;
  if (!take(in, pos, &size, sizeof size) || size > kMaxPart || in.size() - *pos < size)
    return false;
  out->assign(in, *pos, size);
  *pos += size;
  return true;
}

// Owns a descriptor.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

std::string ended_how(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = ::strsignal(sig);
    return "was ended by signal " + std::to_string(sig) + " (" + (name ? name : "?") + ")";
  }
  return "ended (wait status " + std::to_string(status) + ")";
}

double ms_left(std::chrono::steady_clock::time_point deadline) {
  return std::chrono::duration<double, std::milli>(deadline - std::chrono::steady_clock::now())
      .count();
}

// Processor time that process `pid` has used, with its children it has reaped (PoCL runs
// a linker), in ms; -1 where /proc cannot say.
double cpu_ms(pid_t pid) {
  char path[32], text[1024];
  std::snprintf(path, sizeof path, "/proc/%d/stat", int(pid));
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  const ssize_t n = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  if (n <= 0) return -1;
  text[n] = '\0';
  // The name in parentheses may hold anything: fields 3 onwards follow its last ')'.
  const char* rest = std::strrchr(text, ')');
  unsigned long long utime, stime;
  long long cutime, cstime;
  if (!rest ||
      std::sscanf(rest + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld",
                  &utime, &stime, &cutime, &cstime) != 4)
    return -1;
  const long ticks = ::sysconf(_SC_CLK_TCK);
  return ticks > 0 ? double(utime + stime + cutime + cstime) * 1000.0 / double(ticks) : -1;
}

// How many bytes the reply in `in` needs in all; 0 while its header is incomplete.
size_t reply_size(const std::string& in) {
  if (in.size() < sizeof(uint32_t) + sizeof(uint64_t)) return 0;
  uint64_t body = 0;
  std::memcpy(&body, in.data() + sizeof(uint32_t), sizeof body);
  return body > kMaxPart ? SIZE_MAX : sizeof(uint32_t) + sizeof(uint64_t) + size_t(body);
}

// Whether a child's failure is the device or the C++ runtime running out of memory.
bool names_out_of_memory(const std::string& why) {
  for (const char* s : {"CL_OUT_OF_HOST_MEMORY", "CL_OUT_OF_RESOURCES", "ran out of memory"})
    if (why.find(s) != std::string::npos) return true;
  return false;
}

}  // namespace

// A builder child: killed and reaped unless reaped already, so that no exit path leaves
// a builder running or a zombie behind. A pool child is another process's child: closing
// the connection is all this one does; mid-build, that makes the child abandon the build
// and end (program_builder_main), and its pool starts another.
struct ProgramBuilder::Child {
  pid_t pid = -1;
  Fd socket;
  uint64_t builds = 0;
  std::string specialise;  // its $POCL_BINARY_SPECIALIZE_WG (build_primed)
  bool pooled = false;

  ~Child() {
    if (pid > 0 && !pooled) {
      ::kill(pid, SIGKILL);
      wait();
    }
  }
  // Blocks until the child has ended; returns its wait status.
  int wait() {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    pid = -1;
    return status;
  }
  // Whether it has ended or is ending: it never writes unless asked, so anything to read
  // is the end of file.
  bool ended() const {
    pollfd p{socket.get(), POLLIN | POLLRDHUP, 0};
    return ::poll(&p, 1, 0) != 0;
  }
};

ProgramBuilder::ProgramBuilder(ProgramBuilderOptions options, size_t device_index,
                               std::string device_name)
    : options_(std::move(options)),
      device_index_(device_index),
      device_name_(std::move(device_name)) {}

ProgramBuilder::~ProgramBuilder() = default;

uint64_t ProgramBuilder::children_started() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return started_;
}

uint64_t ProgramBuilder::pool_builds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pool_builds_;
}

bool pool_socket_address(const std::string& address, sockaddr_un* out, unsigned* length) {
  *out = sockaddr_un{};
  out->sun_family = AF_UNIX;
  const bool abstract = !address.empty() && address[0] == '@';
  // An abstract name is its bytes after the leading NUL, without a terminator.
  if (address.empty() || address.size() + (abstract ? 0 : 1) > sizeof out->sun_path) return false;
  std::memcpy(out->sun_path, address.data(), address.size());
  if (abstract) out->sun_path[0] = '\0';
  *length = unsigned(offsetof(sockaddr_un, sun_path) + address.size() + (abstract ? 0 : 1));
  return true;
}

std::unique_ptr<ProgramBuilder::Child> ProgramBuilder::connect_pool(
    std::chrono::steady_clock::time_point deadline) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (options_.pool_address.empty() || !pool_usable_) return nullptr;
  }
  auto unusable = [this] {
    std::lock_guard<std::mutex> lock(mutex_);
    pool_usable_ = false;
    return nullptr;
  };
  sockaddr_un addr;
  unsigned length = 0;
  if (!pool_socket_address(options_.pool_address, &addr, &length)) return unusable();
  Fd s(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (s.get() < 0) return nullptr;
  if (::connect(s.get(), reinterpret_cast<const sockaddr*>(&addr), length) != 0) {
    // EAGAIN: its queue of connections is full, for now.
    return errno == EAGAIN ? nullptr : unusable();
  }
  // The hello comes once a child has taken the connection off the pool's queue.
  std::string hello;
  while (!reply_size(hello) || hello.size() < reply_size(hello)) {
    if (reply_size(hello) == SIZE_MAX) return unusable();
    int wait_ms = -1;
    if (options_.timeout_ms) {
      const double left = ms_left(deadline);
      if (left <= 0) {
        builder_failed("was stopped: no child of its pool took the build within ",
                       options_.timeout_ms * kWallBudgets, " ms of wall time");
      }
      wait_ms = int(left) + 1;
    }
    pollfd p{s.get(), POLLIN, 0};
    const int n = ::poll(&p, 1, wait_ms);
    if (n < 0 && errno != EINTR) return nullptr;
    if (n <= 0) continue;
    char buf[1024];
    const ssize_t r = ::recv(s.get(), buf, sizeof buf, MSG_DONTWAIT);
    // Closed unanswered: the pool has closed its address (or the child ended as it took
    // the connection); a child of this builder's own takes the build.
    if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) return nullptr;
    if (r > 0) hello.append(buf, size_t(r));
  }
  size_t pos = 0;
  uint32_t kind = 0;
  std::string body;
  take(hello, &pos, &kind, sizeof kind);
  take_part(hello, &pos, &body);
  std::istringstream in(body);
  long long pid = 0;
  size_t index = 0;
  std::string name;
  if (Reply(kind) != Reply::kHello || !(in >> pid >> index) || pid <= 0) return unusable();
  in.get();
  std::getline(in, name);
  if (index != device_index_ || name != device_name_) return unusable();
  auto child = std::make_unique<Child>();
  child->pid = pid_t(pid);
  child->pooled = true;
  child->socket.reset(s.release());
  return child;
}

std::unique_ptr<ProgramBuilder::Child> ProgramBuilder::spawn(const std::string& specialise) {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    builder_failed("needs a socket: ", std::strerror(errno));
  auto child = std::make_unique<Child>();
  child->socket.reset(sv[0]);
  child->specialise = specialise;
  Fd theirs(sv[1]);  // closed here once spawned: end of file reaches the child's peer only

  std::vector<std::string> args = {options_.executable, "--build-program",
                                   "--device-index=" + std::to_string(device_index_),
                                   "--device-name=" + device_name_,
                                   "--memory-mb=" + std::to_string(options_.memory_bytes >> 20)};
  std::vector<char*> argv;
  for (std::string& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  // This process's environment, with the child's list of local sizes in place of any.
  constexpr const char* kSpecialise = "POCL_BINARY_SPECIALIZE_WG=";
  std::string specialise_var = kSpecialise + specialise;
  std::vector<char*> envp;
  for (char** e = environ; *e; ++e) {
    if (specialise.empty() || std::strncmp(*e, kSpecialise, std::strlen(kSpecialise)) != 0)
      envp.push_back(*e);
  }
  if (!specialise.empty()) envp.push_back(specialise_var.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, 2, 1);
  posix_spawn_file_actions_adddup2(&actions, theirs.get(), kChannelFd);
  // The child inherits nothing else: a client's connection must close when the client's
  // process ends, builder or not.
  posix_spawn_file_actions_addclosefrom_np(&actions, kChannelFd + 1);
  const int err = posix_spawn(&child->pid, options_.executable.c_str(), &actions, nullptr,
                              argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) {
    child->pid = -1;
    builder_failed("\"", options_.executable, "\" cannot start: ", std::strerror(err));
  }
  std::lock_guard<std::mutex> lock(mutex_);
  ++started_;
  return child;
}

std::vector<unsigned char> ProgramBuilder::build(const std::string& source,
                                                 const std::string& options) {
  const std::string body = run(options, source, "binary", "");
  return std::vector<unsigned char>(body.begin(), body.end());
}

void ProgramBuilder::build_only(const std::string& source, const std::string& options,
                                const std::string& entry_path) {
  (void)run(options, source, "built", entry_path);
}

void ProgramBuilder::build_primed(const std::string& source, const std::string& options,
                                  const std::string& entry_path,
                                  const std::vector<size_t>& local_sizes) {
  // PoCL's names of its cache folders: local size, zero offset, grid narrower than 65535.
  std::string specialise;
  for (size_t size : local_sizes)
    specialise += (specialise.empty() ? "" : ",") + std::to_string(size) + "-1-1-goffs0-smallgrid";
  (void)run(options, source, "primed", entry_path, specialise);
}

std::string ProgramBuilder::run(const std::string& options, const std::string& source,
                                const std::string& mode, const std::string& entry_path,
                                const std::string& specialise) {
  struct Waiting {  // counted in the thread's clock, however the build ends
    BuildWaitClock* clock = BuildWaitClock::current();
    Waiting() {
      if (clock) clock->begin_wait();
    }
    ~Waiting() {
      if (clock) clock->end_wait();
    }
  } waiting;
  std::string request;
  put_part(request, options.data(), options.size());
  put_part(request, source.data(), source.size());
  put_part(request, mode.data(), mode.size());
  put_part(request, entry_path.data(), entry_path.size());
  const auto start = std::chrono::steady_clock::now();
  const std::string memory_hint = " (past its memory budget of " +
                                  std::to_string(options_.memory_bytes >> 20) +
                                  " MiB, most likely)";

  for (;;) {
    // Code for given launch sizes needs a child started for them: never a pool's.
    std::unique_ptr<Child> child =
        specialise.empty()
            ? connect_pool(start +
                           std::chrono::milliseconds(uint64_t(options_.timeout_ms) * kWallBudgets))
            : nullptr;
    if (!child) {
      std::lock_guard<std::mutex> lock(mutex_);
      for (size_t i = idle_.size(); !child && i-- > 0;) {
        if (idle_[i]->specialise != specialise) continue;
        child = std::move(idle_[i]);
        idle_.erase(idle_.begin() + std::ptrdiff_t(i));
        if (child->ended()) child.reset();  // it left while idle; reaped here
      }
    }
    if (!child) child = spawn(specialise);
    const double cpu_start = cpu_ms(child->pid);
    const uint64_t wall_ms = uint64_t(options_.timeout_ms) * (cpu_start >= 0 ? kWallBudgets : 1);
    const auto deadline = start + std::chrono::milliseconds(wall_ms);

    std::string reply;
    size_t sent = 0;
    for (;;) {
      const size_t want = reply_size(reply);
      if (want == SIZE_MAX) builder_failed("replied with more than ", kMaxPart, " bytes");
      if (want && reply.size() >= want) break;
      pollfd p{child->socket.get(), short(POLLIN | (sent < request.size() ? POLLOUT : 0)), 0};
      int wait_ms = -1;
      if (options_.timeout_ms) {
        // Past a budget, builder_failed throws and ~Child kills the child.
        if (cpu_start >= 0 && cpu_ms(child->pid) - cpu_start > options_.timeout_ms) {
          builder_failed("was stopped: building the program took longer than its budget of ",
                         options_.timeout_ms, " ms of processor time");
        }
        const double left = ms_left(deadline);
        if (left <= 0) {
          builder_failed("was stopped: building the program took longer than ", wall_ms,
                         " ms of wall time");
        }
        wait_ms = int(std::min(left, cpu_start >= 0 ? kCpuPollMs : left)) + 1;
      }
      const int n = ::poll(&p, 1, wait_ms);
      if (n < 0 && errno != EINTR) builder_failed("cannot be waited for: ", std::strerror(errno));
      if (n <= 0) continue;
      if (p.revents & POLLOUT) {
        const ssize_t w = ::send(child->socket.get(), request.data() + sent, request.size() - sent,
                                 MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w > 0) sent += size_t(w);
        // A child that stops reading has ended; its exit status says why.
        if (w < 0 && errno != EAGAIN && errno != EINTR) sent = request.size();
      }
      if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
        char buf[65536];
        const ssize_t r = ::recv(child->socket.get(), buf, sizeof buf, MSG_DONTWAIT);
        if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) break;
        if (r > 0) reply.append(buf, size_t(r));
      }
    }

    const size_t want = reply_size(reply);
    if (want && reply.size() > want) builder_failed("replied more than one reply");
    if (!want || reply.size() != want) {
      // It has closed its socket: it has ended (a pool child: its pool reaps it).
      const int status = child->pooled ? 0 : child->wait();
      // A reused child that said nothing and exited normally left idle as the request
      // came: a fresh child takes the request.
      if (!child->pooled && child->builds > 0 && reply.empty() && WIFEXITED(status)) continue;
      std::string why = (child->pooled ? std::string("(a pool child) ended") : ended_how(status)) +
                        " without a complete reply";
      if (options_.memory_bytes) why += memory_hint;
      builder_failed(why);
    }
    size_t pos = 0;
    uint32_t kind = 0;
    std::string body;
    take(reply, &pos, &kind, sizeof kind);
    take_part(reply, &pos, &body);
    // A child that failed may have no context left to build with (a driver refuses
    // clCreateContext under the memory budget): it is not reused, and ~Child reaps it.
    if (Reply(kind) == Reply::kFailure) {
      if (options_.memory_bytes && names_out_of_memory(body)) body += memory_hint;
      builder_failed("failed: ", body);
    }
    const Reply expected = mode == "binary" ? Reply::kBinary : Reply::kBuilt;
    if (Reply(kind) != expected && Reply(kind) != Reply::kBuildLog)
      builder_failed("replied with an unexpected kind ", kind);
    ++child->builds;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      // A pool child goes back to its pool when this connection closes.
      if (child->pooled)
        ++pool_builds_;
      else
        idle_.push_back(std::move(child));
    }
    if (Reply(kind) == expected) return body;
    throw Error(CL_BUILD_PROGRAM_FAILURE, "clBuildProgram", "options \"" + options + "\"", body);
  }
}

}  // namespace clpipe::runtime

namespace clpipe {

namespace {
thread_local BuildWaitClock* t_build_wait_clock = nullptr;

int64_t steady_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

int64_t BuildWaitClock::waited_ms() const {
  const int64_t since = since_ms_.load();
  const int64_t total = total_ms_.load();  // end_wait adds to it before it clears since_ms_
  return total + (since ? steady_now_ms() - since : 0);
}

BuildWaitClock::Scope::Scope(BuildWaitClock& clock) : previous_(t_build_wait_clock) {
  t_build_wait_clock = &clock;
}

BuildWaitClock::Scope::~Scope() {
  t_build_wait_clock = previous_;
}

BuildWaitClock* BuildWaitClock::current() {
  return t_build_wait_clock;
}

// Builds on one thread run one after another, so a clock has one wait at a time.
void BuildWaitClock::begin_wait() {
  since_ms_ = std::max<int64_t>(1, steady_now_ms());
}

void BuildWaitClock::end_wait() {
  const int64_t since = since_ms_.load();
  if (since) total_ms_ += steady_now_ms() - since;
  since_ms_ = 0;
}

}  // namespace clpipe
