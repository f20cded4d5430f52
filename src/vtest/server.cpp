// The forking vtest server (see server.h).
#include "vtest/server.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "vtest/log.h"
#include "vtest/transport.h"

namespace clpipe::frontend::vtest {
namespace {

// Self-pipe: signal handlers write a byte so that poll() in run() wakes up.
int g_wake[2] = {-1, -1};
volatile sig_atomic_t g_stop = 0;

void ensure_wake_pipe() {
  if (g_wake[0] >= 0) return;
  if (::pipe2(g_wake, O_CLOEXEC | O_NONBLOCK) != 0) g_wake[0] = g_wake[1] = -1;
}

void wake() {
  if (g_wake[1] >= 0) {
    const char b = 1;
    (void)!::write(g_wake[1], &b, 1);
  }
}

void on_stop_signal(int) {
  const int saved = errno;
  g_stop = 1;
  wake();
  errno = saved;
}

void on_child_signal(int) {
  const int saved = errno;
  wake();
  errno = saved;
}

std::string errno_text(const char* call) {
  return std::string(call) + ": " + std::strerror(errno);
}

std::string gl_text(unsigned v) {
  return v ? std::to_string(v / 10) + "." + std::to_string(v % 10) : std::string("none");
}

}  // namespace

template <typename T>
SharedArray<T>::SharedArray(size_t n) {
  void* p =
      ::mmap(nullptr, n * sizeof(T), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return;
  data_ = static_cast<T*>(p);
  n_ = n;
  for (size_t i = 0; i < n; ++i)
    new (&data_[i]) T();
}

template <typename T>
SharedArray<T>::~SharedArray() {
  if (data_) ::munmap(data_, n_ * sizeof(T));
}

Server::Server(ServerOptions options, ScreenFactory factory)
    : options_(std::move(options)), factory_(std::move(factory)) {
  const uint32_t slots = std::max<uint32_t>(options_.max_clients, 1);
  slot_used_.assign(slots, false);
  if (options_.max_total_bytes) {
    memory_slots_ = SharedArray<std::atomic<uint64_t>>(slots);
    if (!memory_slots_)
      log_at(LogLevel::kWarning, errno_text("mmap"), ": no memory budget shared by clients");
  }
  if (options_.evict_idle_ms && options_.fork_per_client) {
    idle_since_ = SharedArray<std::atomic<int64_t>>(slots);
    if (!idle_since_)
      log_at(LogLevel::kWarning, errno_text("mmap"), ": idle clients will not be evicted");
  }
}

Server::~Server() {
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

ConnectionOptions Server::client_options(uint32_t slot) const {
  ConnectionOptions o = options_.connection;
  if (idle_since_) o.idle_since = &idle_since_[slot];
  if (memory_slots_) {
    MemoryLimits& m = o.limits.shared_memory;
    m.slots = memory_slots_.data();
    m.slot_count = uint32_t(slot_used_.size());
    m.own_slot = slot;
    m.shared_bytes = options_.max_total_bytes;
  }
  return o;
}

void Server::install_signal_handlers() {
  ensure_wake_pipe();
  struct sigaction sa {};
  sigemptyset(&sa.sa_mask);
  sa.sa_handler = on_stop_signal;
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  sa.sa_handler = on_child_signal;
  sa.sa_flags = SA_NOCLDSTOP | SA_RESTART;
  sigaction(SIGCHLD, &sa, nullptr);
  sa.sa_handler = SIG_IGN;
  sa.sa_flags = 0;
  sigaction(SIGPIPE, &sa, nullptr);
}

void Server::request_stop() {
  g_stop = 1;
  wake();
}

Status Server::probe_caps() {
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) return Status(ErrorCode::kDeviceError, errno_text("pipe"));
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(p[0]);
    ::close(p[1]);
    return Status(ErrorCode::kDeviceError, errno_text("fork"));
  }
  if (pid == 0) {
    ::close(p[0]);
    std::string out;
    try {
      Result<std::shared_ptr<Screen>> s = factory_();
      if (s && s.value()) {
        const CapsBlob blob = build_caps(*s.value(), options_.connection.caps);
        out = "C" + std::string(reinterpret_cast<const char*>(blob.data()), blob.size());
      } else {
        out = "E" +
              (s ? std::string("the screen factory returned no screen") : s.status().to_string());
      }
    } catch (const std::exception& e) {
      out = std::string("E") + e.what();
    }
    (void)!::write(p[1], out.data(), out.size());
    ::_exit(0);
  }
  ::close(p[1]);
  std::string in;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(p[0], buf, sizeof buf);
    if (n > 0)
      in.append(buf, size_t(n));
    else if (n == 0 || errno != EINTR)
      break;
  }
  ::close(p[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (in.size() == 1 + kCapsV2Bytes && in[0] == 'C') {
    auto blob = std::make_shared<CapsBlob>();
    std::memcpy(blob->data(), in.data() + 1, kCapsV2Bytes);
    options_.connection.caps_blob = blob;
    const GlVersion v = mesa_gl_version(*blob);
    log_at(LogLevel::kInfo, "caps: Mesa will expose GL ", gl_text(v.compat),
           " compatibility, core ", gl_text(v.core), ", GLSL level ",
           caps_u32(blob->data(), CapsOffset::GLSL_LEVEL));
    for (const std::string& m : v.missing)
      log_at(LogLevel::kInfo, "caps: the next GL level needs ", m);
    return Status::ok();
  }
  if (!in.empty() && in[0] == 'E')
    return Status(ErrorCode::kDeviceError, "cannot create a clpipe screen: " + in.substr(1));
  return Status(ErrorCode::kDeviceError,
                "the caps probe process failed (" +
                    (WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                         : "exit status " + std::to_string(WEXITSTATUS(status))) +
                    ")");
}

Status Server::start() {
  ensure_wake_pipe();
  g_stop = 0;
  if (options_.probe_caps && !options_.connection.caps_blob) {
    Status s = probe_caps();
    if (!s) return s;
  }
  const std::string& path = options_.socket_path;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof addr.sun_path)
    return Status(ErrorCode::kInvalidArgument, "socket path '" + path + "' is empty or too long");
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);

  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) {
    // An empty file there is clpipe-run's mount point (tools/clpipe-run): each running
    // clpipe-run holds a shared flock on it, and unlinking it would take the socket
    // away from their programs. One nobody holds was left by a clpipe-run that is gone.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    const bool held = fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) != 0;
    if (fd >= 0) ::close(fd);
    if (held)
      return Status(ErrorCode::kInvalidArgument,
                    path + " is in use by a running clpipe-run (its mount point)");
    ::unlink(path.c_str());
  }
  if (::lstat(path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode))
      return Status(ErrorCode::kInvalidArgument, path + " exists and is not a socket");
    const int probe = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const bool live =
        probe >= 0 && ::connect(probe, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    if (probe >= 0) ::close(probe);
    if (live) return Status(ErrorCode::kInvalidArgument, "another server listens on " + path);
    ::unlink(path.c_str());  // a stale socket of a server that is gone
  }
  listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) return Status(ErrorCode::kDeviceError, errno_text("socket"));
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listen_fd_, 64) != 0) {
    Status s(ErrorCode::kDeviceError, errno_text("bind/listen") + " (" + path + ")");
    ::close(listen_fd_);
    listen_fd_ = -1;
    return s;
  }
  if (::stat(path.c_str(), &st) == 0) {
    socket_dev_ = st.st_dev;
    socket_ino_ = st.st_ino;
  }
  log_at(LogLevel::kInfo, "listening on ", path,
         options_.fork_per_client ? " (one process per client)" : " (clients served in turn)");
  return Status::ok();
}

int Server::run() {
  if (listen_fd_ < 0) return 1;
  while (!g_stop) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {g_wake[0], POLLIN, 0}};
    // Connections waiting for a slot are looked at every 100 ms.
    const int r = ::poll(fds, g_wake[0] >= 0 ? 2 : 1, waiting_.empty() ? 1000 : 100);
    if (g_wake[0] >= 0 && (fds[1].revents & POLLIN)) {
      char drain[64];
      while (::read(g_wake[0], drain, sizeof drain) > 0) {
      }
    }
    reap();
    if (g_stop) break;
    place_waiting();
    if (r > 0 && (fds[0].revents & POLLIN)) accept_one();
  }
  shutdown();
  return 0;
}

void Server::accept_one() {
  const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
  if (fd < 0) {
    if (errno != EINTR && errno != EAGAIN && errno != ECONNABORTED)
      log_at(LogLevel::kWarning, errno_text("accept"));
    return;
  }
  const uint64_t n = ++clients_seen_;
  if (!options_.fork_per_client) {
    SocketTransport t(fd);
    {
      Connection c(t, factory_, client_options(0), "client " + std::to_string(n));
      c.serve();
    }
    if (memory_slots_) memory_slots_[0] = 0;
    return;
  }
  if (waiting_.size() >= options_.max_clients) {
    log_at(LogLevel::kWarning, "client ", n, " refused: ", waiting_.size(),
           " connections already wait for a slot");
    ::close(fd);
    return;
  }
  waiting_.push_back(Waiting{fd, n, steady_ms()});
  place_waiting();
}

void Server::place_waiting() {
  while (!waiting_.empty()) {
    const Waiting w = waiting_.front();
    const int64_t waited = steady_ms() - w.since_ms;
    if (children_.size() < options_.max_clients || evict_idle_client(w.number)) {
      waiting_.pop_front();
      start_child(w.fd, w.number);
    } else if (waited >= int64_t(options_.evict_idle_ms)) {
      // Every client that was idle when this one came has spoken since: all are busy.
      waiting_.pop_front();
      log_at(LogLevel::kWarning, "client ", w.number, " refused after waiting ", waited / 1000.0,
             " s: ", children_.size(), " clients already (--max-clients), none idle for ",
             options_.evict_idle_ms / 1000.0, " s (--evict-idle)");
      ::close(w.fd);
    } else {
      return;
    }
  }
}

void Server::start_child(int fd, uint64_t n) {
  // A free memory slot: there are max_clients, and fewer children.
  const uint32_t slot =
      uint32_t(std::find(slot_used_.begin(), slot_used_.end(), false) - slot_used_.begin());
  if (idle_since_) idle_since_[slot] = std::max<int64_t>(1, steady_ms());  // idle until it speaks
  const pid_t pid = ::fork();
  if (pid < 0) {
    log_at(LogLevel::kError, "client ", n, ": ", errno_text("fork"));
    ::close(fd);
    return;
  }
  if (pid == 0) serve_in_child(fd, n, slot);  // never returns
  ::close(fd);
  slot_used_[slot] = true;
  children_[pid] = Child{n, slot};
  log_at(LogLevel::kDebug, "client ", n, " served by pid ", pid);
}

bool Server::evict_idle_client(uint64_t for_client) {
  if (!idle_since_) return false;
  for (;;) {
    const int64_t now = steady_ms();
    pid_t victim = -1;
    int64_t since = 0;
    for (const auto& [pid, child] : children_) {
      const int64_t s = idle_since_[child.slot].load();
      if (s > 0 && now - s >= int64_t(options_.evict_idle_ms) && (victim < 0 || s < since)) {
        victim = pid;
        since = s;
      }
    }
    if (victim < 0) return false;
    const Child child = children_.at(victim);
    // Fails only when the client has just begun a message: then look again.
    if (!idle_since_[child.slot].compare_exchange_strong(since, kEvictedClient)) continue;
    log_at(LogLevel::kInfo, "client ", child.number, " (pid ", victim, ") idle for ",
           (now - since) / 1000.0, " s: its slot goes to client ", for_client,
           ", as all are taken (--max-clients, --evict-idle)");
    // Its process blocks in a read (no timeout when --idle-timeout is 0): end it. Once
    // reaped, its slot is free.
    end_children({victim});
    return true;
  }
}

namespace {

// Watches a client's connection from a thread of its own and ends the process when a
// command has run past the budget, or runs on after the client hung up (a fence wait or a
// shader build would otherwise outlive it). Device work cannot be cancelled in OpenCL;
// ending the process is what releases it, whatever the device is doing.
class Watchdog {
 public:
  Watchdog(const Connection& c, int fd, uint32_t budget_ms, std::string label)
      : thread_([this, &c, fd, budget_ms, label] { watch(c, fd, budget_ms, label); }) {}
  ~Watchdog() {
    stop_ = true;
    thread_.join();
  }

 private:
  void watch(const Connection& c, int fd, uint32_t budget_ms, const std::string& label) {
    // How long a command may go on after its client hung up.
    constexpr int64_t kAfterHangupMs = 1000;
    while (!stop_) {
      pollfd p{fd, POLLRDHUP, 0};
      const int r = ::poll(&p, 1, 100);
      const bool gone = r > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
      const int64_t busy = c.busy_ms();
      if (budget_ms && busy > int64_t(budget_ms)) {
        log_at(LogLevel::kError, label, ": a command ran for ", busy, " ms, over the budget of ",
               budget_ms, " ms (--command-timeout); the client's context is lost");
        ::_exit(4);
      }
      if (gone && busy > kAfterHangupMs) {
        log_at(LogLevel::kWarning, label, ": the client hung up while a command ran for ", busy,
               " ms; ending its process");
        ::_exit(4);
      }
      // A hung-up socket polls ready at once: the main thread sees the end of the stream
      // when it next reads, meanwhile this thread checks at the same pace.
      if (gone) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }

  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace

void Server::serve_in_child(int client_fd, uint64_t n, uint32_t slot) {
  // The child dies with the server, and does not handle the server's signals.
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  ::close(listen_fd_);
  if (options_.at_client_start) options_.at_client_start();
  if (g_wake[0] >= 0) ::close(g_wake[0]);
  if (g_wake[1] >= 0) ::close(g_wake[1]);
  g_wake[0] = g_wake[1] = -1;
  struct sigaction sa {};
  sigemptyset(&sa.sa_mask);
  sa.sa_handler = SIG_DFL;
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGCHLD, &sa, nullptr);
  int status = 2;
  try {
    SocketTransport t(client_fd);
    // The client's own pid (the peer's credentials); the log prefix names this process.
    std::string label = "client " + std::to_string(n);
    struct ucred peer {};
    socklen_t len = sizeof peer;
    if (::getsockopt(client_fd, SOL_SOCKET, SO_PEERCRED, &peer, &len) == 0 && peer.pid > 0)
      label += " pid " + std::to_string(peer.pid);
    Connection c(t, factory_, client_options(slot), label);
    Watchdog watchdog(c, client_fd, options_.command_timeout_ms, label);
    c.serve();
    status = c.closed_cleanly() ? 0 : 1;
  } catch (...) {
    log_at(LogLevel::kError, "client ", n, ": unexpected exception");
  }
  ::_exit(status);
}

void Server::reap() {
  for (;;) {
    int st = 0;
    const pid_t pid = ::waitpid(-1, &st, WNOHANG);
    if (pid <= 0) {
      if (pid < 0 && errno == EINTR) continue;
      return;
    }
    auto it = children_.find(pid);
    if (it == children_.end() && options_.other_child_ended && options_.other_child_ended(pid, st))
      continue;
    const uint64_t n = it == children_.end() ? 0 : it->second.number;
    if (it != children_.end()) {
      // The child is gone: nothing of its own holds memory any more.
      slot_used_[it->second.slot] = false;
      if (memory_slots_) memory_slots_[it->second.slot] = 0;
      children_.erase(it);
    }
    if (WIFSIGNALED(st))
      log_at(LogLevel::kWarning, "client ", n, " (pid ", pid, ") was killed by signal ",
             WTERMSIG(st));
    else if (WEXITSTATUS(st) != 0)
      log_at(LogLevel::kInfo, "client ", n, " (pid ", pid, ") ended after an error");
  }
}

void Server::end_children(const std::vector<pid_t>& pids) {
  auto alive = [&] {
    return std::any_of(pids.begin(), pids.end(), [&](pid_t p) { return children_.count(p); });
  };
  for (pid_t p : pids)
    ::kill(p, SIGTERM);
  bool killed = false;
  for (uint32_t waited = 0; alive(); waited += 10) {
    if (!killed && waited >= options_.shutdown_grace_ms) {
      for (pid_t p : pids)
        if (children_.count(p)) ::kill(p, SIGKILL);
      killed = true;
    }
    reap();
    if (alive()) ::usleep(10000);
  }
}

void Server::shutdown() {
  if (listen_fd_ >= 0) {
    ::close(listen_fd_);
    listen_fd_ = -1;
    // Remove the socket only if it is still ours (not replaced by another server).
    struct stat st {};
    if (::stat(options_.socket_path.c_str(), &st) == 0 && st.st_dev == socket_dev_ &&
        st.st_ino == socket_ino_)
      ::unlink(options_.socket_path.c_str());
  }
  for (const Waiting& w : waiting_)
    ::close(w.fd);
  waiting_.clear();
  std::vector<pid_t> pids;
  for (const auto& [pid, child] : children_)
    pids.push_back(pid);
  end_children(pids);
  log_at(LogLevel::kInfo, "stopped after ", clients_seen_, " clients");
}

}  // namespace clpipe::frontend::vtest
