// The vtest reproducers (tests/data/vtest-repro: a 65535x65535 framebuffer without
// attachments, an endless fragment shader behind a fence wait, a draw of 2^26 vertices
// and one of 4 vertices x 2^24 instances), each replayed in process (clpipe-vtest
// --replay) and sent over the socket to a running server: each ends cleanly within its
// budget, in bounded memory, and the server goes on serving others. Also the huge-shader
// capture with a build budget shorter than its build: the draw fails, the session goes on.
#include <catch2/catch.hpp>

#ifdef CLPIPE_VTEST_TOOL

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "support/scoped_env.h"
#include "vtest/capture.h"
#include "vtest/connection.h"
#include "vtest/socket_test_util.h"
#include "vtest/vtest_test_util.h"
#include "vtest/wire.h"

extern char** environ;

using namespace clpipe::frontend::vtest;
using namespace clpipe::vtest_test;
using Clock = std::chrono::steady_clock;

namespace {

std::string repro(const char* name) {
  return std::string(CLPIPE_SOURCE_DIR) + "/tests/data/vtest-repro/" + name + ".vtcap";
}

// clpipe-vtest with `args`, its stdout and stderr into `log`.
pid_t spawn_tool(const std::vector<std::string>& args, const std::string& log) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  std::vector<std::string> all = {CLPIPE_VTEST_TOOL};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int r = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  REQUIRE(r == 0);
  return pid;
}

struct Ended {
  int status = -1;  // exit status, or -signal; -100 when the test had to kill it
  double seconds = 0;
  long max_rss_kb = 0;
};

// Waits for `pid` at most `limit_s` seconds (then kills it).
Ended wait_for(pid_t pid, double limit_s) {
  const auto start = Clock::now();
  Ended e;
  for (;;) {
    int st = 0;
    rusage ru{};
    const pid_t r = wait4(pid, &st, WNOHANG, &ru);
    e.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (r == pid) {
      e.status = WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
      e.max_rss_kb = ru.ru_maxrss;
      return e;
    }
    if (e.seconds > limit_s) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
      e.status = -100;
      return e;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// A reproducer replayed in process with a command budget of `budget_s`.
Ended replay(const char* name, uint32_t budget_s, std::string* output) {
  const std::string dir = temp_dir();
  const std::string log = dir + "/replay.log";
  const pid_t pid =
      spawn_tool({"--replay=" + repro(name), "--command-timeout=" + std::to_string(budget_s)}, log);
  const Ended e = wait_for(pid, budget_s + 120.0);
  *output = read_text(log);
  return e;
}

// A capture of tests/data/vtest-captures replayed in process with `args`, with empty
// program caches: clpipe's (a fresh --cache-dir) and the compilers' own (PoCL's, NVIDIA's),
// so every program is built.
Ended replay_cold(const std::string& capture, const std::vector<std::string>& args,
                  std::string* output) {
  ::setenv("POCL_KERNEL_CACHE", "0", 1);
  ::setenv("CUDA_CACHE_DISABLE", "1", 1);
  const std::string dir = temp_dir();
  std::vector<std::string> all = {
      "--replay=" + std::string(CLPIPE_VTEST_CAPTURES_DIR) + "/" + capture,
      "--cache-dir=" + dir + "/cache"};
  all.insert(all.end(), args.begin(), args.end());
  const pid_t pid = spawn_tool(all, dir + "/replay.log");
  const Ended e = wait_for(pid, 120);
  *output = read_text(dir + "/replay.log");
  return e;
}

// One client connection: sends bytes, and a thread reads what the server sends (keeping
// the bytes and, in order, the memfds passed with SCM_RIGHTS) until the server closes.
class Client {
 public:
  explicit Client(const std::string& path) : fd_(connect_to(path)) {
    REQUIRE(fd_ >= 0);
    reader_ = std::thread([this] { read_loop(); });
  }
  ~Client() {
    shutdown(fd_, SHUT_RDWR);
    reader_.join();
    close(fd_);
    for (int fd : fds_)
      close(fd);
  }
  bool send(const uint8_t* p, size_t n) { return ::send(fd_, p, n, MSG_NOSIGNAL) == ssize_t(n); }
  // The k-th memfd the server passed (waits up to 30 s), or -1.
  int fd_at(size_t k) {
    for (int i = 0; i < 3000; ++i) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (k < fds_.size()) return fds_[k];
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return -1;
  }
  // Waits until `done(bytes received)` or the server closed the connection, at most
  // `limit_s` seconds; returns whether `done` held.
  template <typename Done>
  bool wait_until(Done done, double limit_s) {
    const auto start = Clock::now();
    while (std::chrono::duration<double>(Clock::now() - start).count() < limit_s) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (done(bytes_)) return true;
        if (closed_) return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }
  bool closed() {
    std::lock_guard<std::mutex> lock(mutex_);
    return closed_;
  }

 private:
  void read_loop() {
    for (;;) {
      uint8_t buf[4096];
      iovec iov{buf, sizeof buf};
      alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 4)];
      msghdr m{};
      m.msg_iov = &iov;
      m.msg_iovlen = 1;
      m.msg_control = control;
      m.msg_controllen = sizeof control;
      const ssize_t r = recvmsg(fd_, &m, MSG_CMSG_CLOEXEC);
      std::lock_guard<std::mutex> lock(mutex_);
      if (r <= 0) {
        closed_ = true;
        return;
      }
      bool fd_reply = false;
      for (cmsghdr* c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        const size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < n; ++i) {
          int fd;
          std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
          fds_.push_back(fd);
        }
        fd_reply = true;
      }
      // An fd reply is one 0 byte besides the fd: not part of the reply stream.
      if (!fd_reply) bytes_.insert(bytes_.end(), buf, buf + r);
    }
  }

  int fd_;
  std::thread reader_;
  std::mutex mutex_;
  std::vector<int> fds_;
  std::vector<uint8_t> bytes_;
  bool closed_ = false;
};

// Sends connection 0 of a capture as its client did: its bytes in order, and what it
// wrote into shared memory written into the memfds the server passed for its resources.
void send_capture(const Capture& cap, Client& c) {
  std::vector<uint8_t> pending;             // sent bytes not yet split into messages
  std::map<uint32_t, size_t> fd_of_handle;  // resource -> index of its memfd
  size_t fds_expected = 0;
  for (const CaptureRecord& r : cap.records) {
    if (r.conn != 0 || r.dir != 0) continue;
    if (r.kind == RecordKind::DATA) {
      REQUIRE(c.send(r.payload.data(), r.payload.size()));
      pending.insert(pending.end(), r.payload.begin(), r.payload.end());
      for (;;) {
        const uint64_t size = Connection::message_size(pending.data(), pending.size());
        if (size == 0 || size > pending.size()) break;
        // RESOURCE_CREATE2 with data_size (field 10) > 0 gets a memfd, in request order.
        if (load_u32(pending.data() + 4) == VtestCmd::RESOURCE_CREATE2 && size >= 8 + 44 &&
            load_u32(pending.data() + 8 + 40) != 0)
          fd_of_handle[load_u32(pending.data() + 8)] = fds_expected++;
        pending.erase(pending.begin(), pending.begin() + long(size));
      }
    } else if (r.kind == RecordKind::SHM && r.payload.size() >= 12) {
      const uint32_t res = load_u32(r.payload.data()), offset = load_u32(r.payload.data() + 4);
      REQUIRE(fd_of_handle.count(res));
      const int fd = c.fd_at(fd_of_handle[res]);
      REQUIRE(fd >= 0);
      struct stat st {};
      REQUIRE(fstat(fd, &st) == 0);
      const size_t n = r.payload.size() - 12;
      REQUIRE(uint64_t(offset) + n <= uint64_t(st.st_size));
      void* p = mmap(nullptr, size_t(st.st_size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      REQUIRE(p != MAP_FAILED);
      std::memcpy(static_cast<uint8_t*>(p) + offset, r.payload.data() + 12, n);
      munmap(p, size_t(st.st_size));
    }
  }
}

// A server on a socket of its own, logging to a file.
struct ServerProcess {
  explicit ServerProcess(uint32_t budget_s, const std::vector<std::string>& extra_args = {}) {
    const std::string dir = temp_dir();
    path = dir + "/vtest.sock";
    log = dir + "/server.log";
    std::vector<std::string> args = {"--socket-path=" + path,
                                     "--command-timeout=" + std::to_string(budget_s),
                                     "--max-clients=4"};
    args.insert(args.end(), extra_args.begin(), extra_args.end());
    pid = spawn_tool(args, log);
    for (int i = 0; i < 3000; ++i) {  // up to 30 s for the caps probe and the socket
      const int fd = connect_to(path);
      if (fd >= 0) {
        close(fd);
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL("the server did not start:\n" << read_text(log));
  }
  ~ServerProcess() {
    kill(pid, SIGTERM);
    wait_for(pid, 10);
  }
  // A new client gets its handshake answered.
  bool serves_a_new_client() {
    Client c(path);
    std::vector<uint8_t> m = create_renderer_message("after");
    const std::vector<uint8_t> ping = message(VtestCmd::PING_PROTOCOL_VERSION, {});
    m.insert(m.end(), ping.begin(), ping.end());
    c.send(m.data(), m.size());
    return c.wait_until([](const std::vector<uint8_t>& b) { return b.size() >= 8; }, 20);
  }
  std::string path, log;
  pid_t pid = -1;
};

// Sends a capture over the socket. Returns whether the session finished (its last
// reply, the fence wait's, arrived) rather than the server ending it, within `limit_s`.
bool send_capture_file(ServerProcess& server, const std::string& path, double limit_s) {
  auto cap = read_capture(path);
  REQUIRE(cap.is_ok());
  Client c(server.path);
  send_capture(cap.value(), c);
  // The fence wait's reply: header {1, RESOURCE_BUSY_WAIT} and busy = 0.
  const std::vector<uint8_t> wait_reply = message(VtestCmd::RESOURCE_BUSY_WAIT, {0});
  const bool finished = c.wait_until(
      [&](const std::vector<uint8_t>& b) {
        return b.size() >= 12 && std::equal(wait_reply.begin(), wait_reply.end(), b.end() - 12);
      },
      limit_s);
  if (!finished) CHECK(c.closed());  // ended by the server, within the limit
  return finished;
}

bool send_repro(ServerProcess& server, const char* name, double limit_s) {
  return send_capture_file(server, repro(name), limit_s);
}

}  // namespace

TEST_CASE("vtest repro: a framebuffer of 65535x65535 without attachments is refused",
          "[tools][vtest][repro]") {
  std::string out;
  const Ended e = replay("bug1-noattach-65535-bin-hist-overflow", 60, &out);
  INFO(out);
  CHECK(e.status == 0);
  CHECK_THAT(out, Catch::Contains("exceeds the maximum 16384x16384"));

  ServerProcess server(60);
  CHECK(send_repro(server, "bug1-noattach-65535-bin-hist-overflow", 60));
  CHECK(server.serves_a_new_client());
  CHECK_THAT(read_text(server.log), Catch::Contains("exceeds the maximum 16384x16384"));
}

TEST_CASE("vtest repro: an endless fragment shader behind a fence wait ends at the budget",
          "[tools][vtest][repro]") {
  std::string out;
  const Ended e = replay("bug2-infinite-loop-fs", 5, &out);
  INFO(out);
  CHECK(e.status == 4);
  CHECK(e.seconds < 60);
  CHECK_THAT(out, Catch::Contains("over the budget of 5000 ms"));

  ServerProcess server(5);
  const auto start = Clock::now();
  CHECK_FALSE(send_repro(server, "bug2-infinite-loop-fs", 60));
  CHECK(std::chrono::duration<double>(Clock::now() - start).count() < 60);
  CHECK(server.serves_a_new_client());
  CHECK_THAT(read_text(server.log), Catch::Contains("over the budget of 5000 ms"));
}

TEST_CASE("vtest repro: a draw of 2^26 vertices renders in bounded memory",
          "[tools][vtest][repro]") {
  std::string out;
  const Ended e = replay("bug3-draw-67M-vertices", 120, &out);
  INFO(out);
  CHECK(e.status == 0);
  // One scene of the whole draw needed ~1.9 GB of scratch; chunks need 64 MiB at most.
  CHECK(e.max_rss_kb < 1024 * 1024);

  ServerProcess server(120);
  CHECK(send_repro(server, "bug3-draw-67M-vertices", 180));
  CHECK(server.serves_a_new_client());
}

TEST_CASE("vtest repro: 2^24 full-window instances end at the budget in bounded memory",
          "[tools][vtest][repro]") {
  // 2^25 triangles of 250x250 pixels: 10^12 fragments, more than any budget allows.
  std::string out;
  const Ended e = replay("bug3b-draw-4-vertices-x-16M-instances", 5, &out);
  INFO(out);
  CHECK(e.status == 4);
  CHECK(e.seconds < 60);
  CHECK(e.max_rss_kb < 1024 * 1024);
  CHECK_THAT(out, Catch::Contains("over the budget of 5000 ms"));

  ServerProcess server(5);
  CHECK_FALSE(send_repro(server, "bug3b-draw-4-vertices-x-16M-instances", 60));
  CHECK(server.serves_a_new_client());
  CHECK_THAT(read_text(server.log), Catch::Contains("over the budget of 5000 ms"));
}

// The huge-shader capture (B5) builds for 15-25 s with empty program caches.
TEST_CASE("vtest repro: a shader build past its budget skips the draw and the client goes on",
          "[tools][vtest][repro]") {
  std::string out;
  const Ended e = replay_cold("11-huge-shader-chunked.vtcap.gz", {"--build-timeout=3"}, &out);
  CHECK(e.status == 0);  // not ended by the watchdog (4) or a signal
  CHECK(e.seconds < 60);
  CHECK_THAT(out, Catch::Contains("DRAW_VBO: clpipe: CompileError") &&
                      Catch::Contains("longer than its budget of 3000 ms"));
  CHECK_THAT(out, Catch::Contains("disconnected after 12 messages"));  // the session went on

  ServerProcess server(120, {"--cache-dir=" + temp_dir() + "/cache", "--build-timeout=3"});
  // The session finished: the fence wait was answered.
  CHECK(send_capture_file(
      server, std::string(CLPIPE_VTEST_CAPTURES_DIR) + "/11-huge-shader-chunked.vtcap.gz", 60));
  CHECK(server.serves_a_new_client());
  CHECK_THAT(read_text(server.log), Catch::Contains("longer than its budget of 3000 ms"));
}

TEST_CASE("vtest repro: --build-in-process builds without the budgets", "[tools][vtest][repro]") {
  // A cold build takes longer than 1 s, in a builder child or not.
  std::string out;
  const Ended e =
      replay_cold("01-fs-sign-neg.vtcap.gz", {"--build-timeout=1", "--build-in-process"}, &out);
  CHECK(e.status == 0);
  CHECK_THAT(out, Catch::Contains("0 clpipe failures") &&
                      Catch::Contains("1 readbacks (1 equal to the reference)"));
}

// PoCL without its kernel cache names a temporary folder in a program's binary, and the
// builder child's release of its program deleted the folder under the client's.
TEST_CASE("vtest repro: programs from builder children render with PoCL's kernel cache off",
          "[tools][vtest][repro]") {
  std::string out;
  const Ended e = replay_cold("05-texture2D.vtcap.gz", {}, &out);
  CHECK(e.status == 0);
  CHECK_THAT(out, Catch::Contains("0 clpipe failures") &&
                      Catch::Contains("1 readbacks (1 equal to the reference)"));
}

namespace {

// The builder pool children of server `server` (its children running `--build-program
// --pool`), by pid.
std::vector<pid_t> pool_children(pid_t server) {
  std::vector<pid_t> found;
  DIR* proc = opendir("/proc");
  if (!proc) return found;
  while (const dirent* e = readdir(proc)) {
    const std::string dir = std::string("/proc/") + e->d_name;
    const std::string stat = read_text(dir + "/stat");
    const size_t close = stat.rfind(')');
    char state = 0;
    int ppid = 0;
    if (close == std::string::npos ||
        std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid) != 2 || ppid != server ||
        state == 'Z')
      continue;
    std::string cmdline = read_text(dir + "/cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(" --build-program --pool ") != std::string::npos)
      found.push_back(pid_t(std::atoi(e->d_name)));
  }
  closedir(proc);
  return found;
}

// Processor time of process `pid` in clock ticks, or -1.
long long cpu_ticks(pid_t pid) {
  const std::string stat = read_text("/proc/" + std::to_string(pid) + "/stat");
  const size_t close = stat.rfind(')');
  unsigned long long utime = 0, stime = 0;
  if (close == std::string::npos ||
      std::sscanf(stat.c_str() + close + 1,
                  " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2)
    return -1;
  return (long long)(utime + stime);
}

// Waits up to 10 s for server `server` to have one pool child other than `not_this`.
pid_t wait_for_pool_child(pid_t server, pid_t not_this = -1) {
  for (int i = 0; i < 500; ++i) {
    const std::vector<pid_t> children = pool_children(server);
    if (children.size() == 1 && children[0] != not_this) return children[0];
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return -1;
}

}  // namespace

TEST_CASE("vtest server: clients build in the server's builder pool, which replaces its children",
          "[tools][vtest][repro]") {
  // PoCL's own cache off, so that the sessions' programs are built, not loaded; and the
  // shaders compiled rather than interpreted (an interpreter program of the first session
  // could serve the second, which would then build nothing).
  ::setenv("POCL_KERNEL_CACHE", "0", 1);
  clpipe::test::ScopedEnv compiled("CLPIPE_INTERPRETER", "off");
  ServerProcess server(120, {"--cache-dir=" + temp_dir() + "/cache", "--build-pool=1"});
  const pid_t child = wait_for_pool_child(server.pid);
  REQUIRE(child > 0);
  const long long before = cpu_ticks(child);
  const std::string captures = CLPIPE_VTEST_CAPTURES_DIR;
  CHECK(send_capture_file(server, captures + "/01-fs-sign-neg.vtcap.gz", 60));
  // The session's shader programs were built by the pool's child: ~0.5 s and more of its
  // processor time (each program of the session needs that much).
  CHECK(cpu_ticks(child) - before >= ::sysconf(_SC_CLK_TCK) / 2);
  // A pool child that ends is replaced, and the next session builds in the new one.
  ::kill(child, SIGKILL);
  const pid_t next = wait_for_pool_child(server.pid, child);
  REQUIRE(next > 0);
  const long long next_before = cpu_ticks(next);
  CHECK(send_capture_file(server, captures + "/02-vs-post-increment.vtcap.gz", 60));
  CHECK(cpu_ticks(next) - next_before >= ::sysconf(_SC_CLK_TCK) / 2);
  CHECK_THAT(read_text(server.log), !Catch::Contains("was killed by signal"));
}

#endif  // CLPIPE_VTEST_TOOL
