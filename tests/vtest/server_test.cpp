// The forking server on a temporary socket, with the fake screen: clients in separate
// processes, one killed in the middle of a message while another keeps being served, a
// misbehaving client disconnected with a logged reason, fds passed with SCM_RIGHTS, the
// socket-path rules, idle clients evicted when the slots are full, and a clean stop on
// SIGTERM.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <memory>
#include <thread>

#include "vtest/server.h"
#include "vtest/socket_test_util.h"
#include "vtest/vtest_test_util.h"

using namespace clpipe;
using namespace clpipe::vtest_test;

namespace {

ScreenFactory fake_factory(FakeConfig cfg = gl33_config()) {
  return [cfg]() -> Result<std::shared_ptr<Screen>> {
    return std::shared_ptr<Screen>(std::make_shared<FakeScreen>(cfg));
  };
}

// A server in a child process, logging to a file; `tweak` changes its options.
struct ServerProcess {
  explicit ServerProcess(const std::string& dir,
                         const std::function<void(ServerOptions&)>& tweak = {},
                         const FakeConfig& screen = gl33_config())
      : path(dir + "/vtest.sock"), log(dir + "/server.log") {
    pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      const int lf = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
      set_log_sink([lf](LogLevel, const std::string& m) {
        const std::string line = std::to_string(getpid()) + ": " + m + "\n";
        (void)!write(lf, line.data(), line.size());
      });
      Server::install_signal_handlers();
      ServerOptions o;
      o.socket_path = path;
      o.shutdown_grace_ms = 500;
      if (tweak) tweak(o);
      Server s(o, fake_factory(screen));
      if (!s.start()) _exit(3);
      _exit(s.run());
    }
    for (int i = 0; i < 500; ++i) {  // up to 5 s for the caps probe and the socket
      const int fd = connect_to(path);
      if (fd >= 0) {
        close(fd);
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL("the server did not start");
  }
  // SIGTERM, then the exit status (or -signal).
  int stop() {
    kill(pid, SIGTERM);
    int st = 0;
    waitpid(pid, &st, 0);
    pid = -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
  }
  ~ServerProcess() {
    if (pid > 0) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
  }
  std::string path, log;
  pid_t pid = -1;
};

struct SocketClient {
  explicit SocketClient(const std::string& path) : fd(connect_to(path)) { REQUIRE(fd >= 0); }
  ~SocketClient() {
    if (fd >= 0) close(fd);
  }
  void send(const std::vector<uint8_t>& b) {
    REQUIRE(::send(fd, b.data(), b.size(), MSG_NOSIGNAL) == ssize_t(b.size()));
  }
  // n bytes, or fewer if the server closed the connection (5 s timeout).
  std::vector<uint8_t> recv(size_t n) {
    std::vector<uint8_t> out;
    while (out.size() < n) {
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 5000) <= 0) break;
      uint8_t buf[4096];
      const ssize_t r = ::recv(fd, buf, std::min(sizeof buf, n - out.size()), 0);
      if (r <= 0) break;
      out.insert(out.end(), buf, buf + r);
    }
    return out;
  }
  std::vector<uint32_t> recv_dwords(size_t n) {
    const std::vector<uint8_t> b = recv(4 * n);
    std::vector<uint32_t> d(b.size() / 4);
    std::memcpy(d.data(), b.data(), d.size() * 4);
    return d;
  }
  int recv_fd() {
    char byte = 1;
    iovec iov{&byte, 1};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
    msghdr m{};
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = control;
    m.msg_controllen = sizeof control;
    if (recvmsg(fd, &m, 0) != 1 || byte != 0) return -1;
    cmsghdr* c = CMSG_FIRSTHDR(&m);
    if (!c || c->cmsg_type != SCM_RIGHTS) return -1;
    int out;
    std::memcpy(&out, CMSG_DATA(c), sizeof out);
    return out;
  }
  void handshake(const std::string& name) {
    send(create_renderer_message(name));
    send(message(VtestCmd::PING_PROTOCOL_VERSION, {}));
    send(message(VtestCmd::RESOURCE_BUSY_WAIT, {0, 0}));
    REQUIRE(recv_dwords(5) == std::vector<uint32_t>{0, 10, 1, 7, 0});
    send(message(VtestCmd::PROTOCOL_VERSION, {2}));
    REQUIRE(recv_dwords(3) == std::vector<uint32_t>{1, 11, 2});
  }
  int fd;
};

// Sends CREATE_RENDERER and a ping (answered with {0, 10} once the client is served).
void send_hello(SocketClient& c, const std::string& name) {
  std::vector<uint8_t> m = create_renderer_message(name);
  const std::vector<uint8_t> ping = message(VtestCmd::PING_PROTOCOL_VERSION, {});
  m.insert(m.end(), ping.begin(), ping.end());
  (void)!::send(c.fd, m.data(), m.size(), MSG_NOSIGNAL);
}

// A client whose hello was answered, trying again for up to 5 s while no slot is free
// (a finished client's process may take a moment to be reaped); null if none was.
std::unique_ptr<SocketClient> served_client(const std::string& path, const std::string& name) {
  for (int i = 0; i < 250; ++i) {
    auto c = std::make_unique<SocketClient>(path);
    send_hello(*c, name);
    if (c->recv_dwords(2) == std::vector<uint32_t>{0, 10}) return c;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return nullptr;
}

}  // namespace

TEST_CASE("vtest server: a client killed mid-message leaves the others served", "[vtest][server]") {
  const std::string dir = temp_dir();
  ServerProcess server(dir);

  SocketClient a(server.path);
  a.handshake("client-a");
  a.send(message(VtestCmd::GET_CAPS2, {}));
  a.send(message(VtestCmd::GET_CAPS, {}));
  const std::vector<uint8_t> caps = a.recv(8 + 1376 + 8 + 308);
  REQUIRE(caps.size() == 8 + 1376 + 8 + 308);
  CHECK(load_u32(caps.data()) == 1377);
  CHECK(load_u32(caps.data() + 4) == 2);
  CHECK(load_u32(caps.data() + 8 + CapsOffset::GLSL_LEVEL) == 330);  // the probed caps

  // Client B: a process that sends half a SUBMIT_CMD, then is killed.
  int ready[2];
  REQUIRE(pipe(ready) == 0);
  const pid_t b = fork();
  REQUIRE(b >= 0);
  if (b == 0) {
    const int fd = connect_to(server.path);
    std::vector<uint8_t> m = create_renderer_message("client-b");
    std::vector<uint8_t> half = message(VtestCmd::SUBMIT_CMD, {1, 2, 3, 4}, 100);
    m.insert(m.end(), half.begin(), half.end());
    (void)!::send(fd, m.data(), m.size(), MSG_NOSIGNAL);
    (void)!write(ready[1], "x", 1);
    pause();
    _exit(0);
  }
  char x;
  REQUIRE(read(ready[0], &x, 1) == 1);
  close(ready[0]);
  close(ready[1]);
  kill(b, SIGKILL);
  waitpid(b, nullptr, 0);

  // Client C breaks the protocol outright and is disconnected.
  SocketClient c(server.path);
  c.send(message(VtestCmd::GET_CAPS2, {}));
  CHECK(c.recv(1).empty());

  // A is unaffected: a resource with its memfd, a submit, a busy-wait.
  a.send(message(VtestCmd::RESOURCE_CREATE2, {1, 2, 67, 2, 16, 16, 1, 1, 0, 0, 1024}));
  const int memfd = a.recv_fd();
  REQUIRE(memfd >= 0);
  struct stat st {};
  REQUIRE(fstat(memfd, &st) == 0);
  CHECK(st.st_size == 1024);
  close(memfd);
  a.send(message(VtestCmd::SUBMIT_CMD,
                 {ccmd_header(Ccmd::CREATE_SUB_CTX, 0, 1), 1, ccmd_header(Ccmd::SET_SUB_CTX, 0, 1),
                  1, ccmd_header(Ccmd::CLEAR, 0, 8), 4, 0, 0, 0, 0, 0, 0, 0}));
  a.send(message(VtestCmd::RESOURCE_BUSY_WAIT, {1, 1}));
  CHECK(a.recv_dwords(3) == std::vector<uint32_t>{1, 7, 0});

  // Give B's server process a moment to see the end of its stream, then stop the server.
  for (int i = 0; i < 500 && read_text(server.log).find("truncated message") == std::string::npos;
       ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(server.stop() == 0);
  const std::string log = read_text(server.log);
  INFO(log);
  CHECK(log.find("'client-b': disconnected in SUBMIT_CMD: truncated message") != std::string::npos);
  CHECK(log.find("the first message must be CREATE_RENDERER") != std::string::npos);
  CHECK(log.find("caps: Mesa will expose GL 3.3 compatibility, core 3.3") != std::string::npos);
  CHECK(log.find("stopped after 4 clients") != std::string::npos);  // with the start-up probe
  // The stop removed the socket and ended A's process: A sees the end of the stream.
  struct stat gone {};
  CHECK(stat(server.path.c_str(), &gone) != 0);
  const std::vector<uint8_t> ping = message(VtestCmd::PING_PROTOCOL_VERSION, {});
  (void)!::send(a.fd, ping.data(), ping.size(), MSG_NOSIGNAL);
  CHECK(a.recv(8).empty());
  unlink(server.log.c_str());
  rmdir(dir.c_str());
}

TEST_CASE("vtest server: socket paths are taken over only from dead servers", "[vtest][server]") {
  LogRecorder quiet;
  const std::string dir = temp_dir();
  ServerOptions o;
  o.probe_caps = false;
  {
    ServerProcess live(dir);
    o.socket_path = live.path;
    Server second(o, fake_factory());
    const Status s = second.start();
    CHECK_THAT(s.message(), Catch::Contains("another server listens"));
    kill(live.pid, SIGKILL);  // leaves a stale socket behind
    waitpid(live.pid, nullptr, 0);
    live.pid = -1;
    // Its client processes drop their copy of the listening socket as they start; once
    // nothing listens any more the socket is stale.
    for (int i = 0; i < 200; ++i) {
      const int fd = connect_to(o.socket_path);
      if (fd < 0) break;
      close(fd);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    Server third(o, fake_factory());
    const Status started = third.start();
    INFO(started.message());
    CHECK(started.is_ok());
  }
  unlink(o.socket_path.c_str());
  // A path that is not a socket is never deleted.
  const std::string file = dir + "/plain";
  { std::ofstream(file) << "x"; }
  o.socket_path = file;
  Server fourth(o, fake_factory());
  CHECK_THAT(fourth.start().message(), Catch::Contains("not a socket"));
  CHECK(read_text(file) == "x");
  unlink(file.c_str());
  // An empty file is clpipe-run's mount point: refused while a clpipe-run holds its
  // flock, replaced by the socket once none does (a clpipe-run that was killed).
  { std::ofstream{file}; }
  {
    const int held = open(file.c_str(), O_RDONLY);
    REQUIRE(held >= 0);
    REQUIRE(flock(held, LOCK_SH) == 0);
    Server fifth(o, fake_factory());
    CHECK_THAT(fifth.start().message(), Catch::Contains("in use by a running clpipe-run"));
    close(held);
  }
  {
    Server sixth(o, fake_factory());
    const Status started = sixth.start();
    INFO(started.message());
    CHECK(started.is_ok());
    struct stat st {};
    CHECK((lstat(file.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)));
  }
  unlink(file.c_str());
  unlink((dir + "/server.log").c_str());
  rmdir(dir.c_str());
}

TEST_CASE("vtest server: a device that cannot be opened fails at start", "[vtest][server]") {
  LogRecorder quiet;
  const std::string dir = temp_dir();
  ServerOptions o;
  o.socket_path = dir + "/vtest.sock";
  Server s(o, []() -> Result<std::shared_ptr<Screen>> {
    return Status(ErrorCode::kDeviceError, "no OpenCL device matches 'nope'");
  });
  const Status st = s.start();
  CHECK_THAT(st.message(), Catch::Contains("cannot create a clpipe screen") &&
                               Catch::Contains("no OpenCL device matches 'nope'"));
  struct stat gone {};
  CHECK(stat(o.socket_path.c_str(), &gone) != 0);
  rmdir(dir.c_str());
}

TEST_CASE("vtest server: connections that never speak are closed, and free their slots",
          "[vtest][server]") {
  const std::string dir = temp_dir();
  ServerProcess server(dir, [](ServerOptions& o) {
    o.max_clients = 2;
    o.connection.handshake_timeout_ms = 300;
  });
  // Two connections that never send a byte take both slots, until the server closes them.
  SocketClient silent1(server.path), silent2(server.path);
  CHECK(silent1.recv(1).empty());
  CHECK(silent2.recv(1).empty());
  // Then a real client is served.
  CHECK(served_client(server.path, "after-the-silent-ones"));
  CHECK(server.stop() == 0);
  const std::string log = read_text(server.log);
  INFO(log);
  CHECK(log.find("no CREATE_RENDERER (no data for 300 ms); closing the connection") !=
        std::string::npos);
  CHECK(log.find("'after-the-silent-ones': connected") != std::string::npos);
}

TEST_CASE(
    "vtest server: with every slot taken, a new client waits for the slot of one idle long "
    "enough",
    "[vtest][server]") {
  const std::string dir = temp_dir();
  ServerProcess server(dir, [](ServerOptions& o) {
    o.max_clients = 2;
    o.evict_idle_ms = 1500;
  });
  auto ping = [](SocketClient& c) {
    c.send(message(VtestCmd::PING_PROTOCOL_VERSION, {}));
    return c.recv_dwords(2) == std::vector<uint32_t>{0, VtestCmd::PING_PROTOCOL_VERSION};
  };
  // The server's start-up check took a slot too, until its process is reaped: the second
  // client may need a few tries.
  SocketClient idle(server.path);
  idle.handshake("idle-client");
  const std::unique_ptr<SocketClient> active = served_client(server.path, "active-client");
  REQUIRE(active);
  // While both keep talking, a third client waits 1.5 s, then is refused.
  {
    SocketClient early(server.path);
    send_hello(early, "early-client");
    for (int i = 0; i < 20; ++i) {
      CHECK(ping(idle));
      CHECK(ping(*active));
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    CHECK(early.recv(1).empty());
  }
  // Now one of them says nothing: a new client waits until it has been idle for 1.5 s and
  // gets its slot. (The other stays quiet meanwhile too, but spoke last.)
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(ping(*active));
  SocketClient late(server.path);
  late.handshake("late-client");
  CHECK(ping(late));
  CHECK(ping(*active));
  CHECK(idle.recv(1).empty());  // evicted: its connection is closed
  CHECK(server.stop() == 0);
  const std::string log = read_text(server.log);
  INFO(log);
  CHECK(log.find("none idle for 1.5 s (--evict-idle)") != std::string::npos);
  CHECK(log.find("'early-client'") == std::string::npos);
  CHECK(log.find(") idle for ") != std::string::npos);
  CHECK(log.find("'late-client': connected") != std::string::npos);
}

namespace {

// A submission that leaves a fence, then a busy wait on it (which the fake screen makes
// last `FakeConfig::fence_finish_ms`).
std::vector<uint8_t> submit_and_wait() {
  std::vector<uint8_t> m =
      message(VtestCmd::SUBMIT_CMD,
              {ccmd_header(Ccmd::CREATE_SUB_CTX, 0, 1), 1, ccmd_header(Ccmd::SET_SUB_CTX, 0, 1), 1,
               ccmd_header(Ccmd::SET_BLEND_COLOR, 0, 4), 0, 0, 0, 0});
  const std::vector<uint8_t> wait = message(VtestCmd::RESOURCE_BUSY_WAIT, {0, 1});
  m.insert(m.end(), wait.begin(), wait.end());
  return m;
}

}  // namespace

TEST_CASE("vtest server: a command over its time budget ends its client's process only",
          "[vtest][server]") {
  const std::string dir = temp_dir();
  FakeConfig slow = gl33_config();
  slow.fence_finish_ms = 60000;  // an endless shader, as far as the test is concerned
  ServerProcess server(
      dir, [](ServerOptions& o) { o.command_timeout_ms = 300; }, slow);
  SocketClient a(server.path);
  a.handshake("endless");
  a.send(submit_and_wait());
  CHECK(a.recv(12).empty());  // no reply: the connection ends
  SocketClient b(server.path);
  b.handshake("next-client");
  CHECK(server.stop() == 0);
  const std::string log = read_text(server.log);
  INFO(log);
  CHECK(log.find("over the budget of 300 ms (--command-timeout); the client's context is lost") !=
        std::string::npos);
  CHECK(log.find("'next-client': connected") != std::string::npos);
}

TEST_CASE("vtest server: a command's waits for program builds do not count against its budget",
          "[vtest][server]") {
  // Builds have their own budget (--build-timeout); on NVIDIA's compiler one takes a
  // minute. A command that waits 1 s for one, over a 300 ms budget, goes on.
  const std::string dir = temp_dir();
  FakeConfig cold = gl33_config();
  cold.build_wait_ms = 1000;
  ServerProcess server(
      dir, [](ServerOptions& o) { o.command_timeout_ms = 300; }, cold);
  SocketClient a(server.path);
  a.handshake("cold-build");
  a.send(submit_and_wait());
  CHECK(a.recv(12).size() == 12);  // the wait's reply
  CHECK(server.stop() == 0);
  const std::string log = read_text(server.log);
  INFO(log);
  CHECK(log.find("over the budget") == std::string::npos);
}

TEST_CASE("vtest server: a command still running after its client hung up ends the process",
          "[vtest][server]") {
  const std::string dir = temp_dir();
  FakeConfig slow = gl33_config();
  slow.fence_finish_ms = 60000;
  ServerProcess server(
      dir, [](ServerOptions& o) { o.command_timeout_ms = 0; }, slow);
  {
    SocketClient a(server.path);
    a.handshake("leaves");
    a.send(submit_and_wait());
  }  // hangs up while the wait runs
  std::string log;
  for (int i = 0; i < 500 && log.find("hung up while a command ran") == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    log = read_text(server.log);
  }
  INFO(log);
  CHECK(log.find("the client hung up while a command ran") != std::string::npos);
  CHECK(server.stop() == 0);
}

TEST_CASE("vtest server: clients share a memory budget and an ended client's bytes are freed",
          "[vtest][server]") {
  const std::string dir = temp_dir();
  FakeConfig slow = gl33_config();
  slow.fence_finish_ms = 60000;
  ServerProcess server(
      dir,
      [](ServerOptions& o) {
        o.max_total_bytes = 1u << 20;
        o.command_timeout_ms = 300;
      },
      slow);
  // A buffer resource of `bytes` (no guest store), then a ping that is answered when the
  // connection is still open.
  auto create_and_ping = [](SocketClient& c, uint32_t handle, uint32_t bytes) {
    c.send(message(VtestCmd::RESOURCE_CREATE2, {handle, 0, 64, 1u << 4, bytes, 1, 1, 1, 0, 0, 0}));
    c.send(message(VtestCmd::PING_PROTOCOL_VERSION, {}));
    return c.recv_dwords(2) == std::vector<uint32_t>{0, VtestCmd::PING_PROTOCOL_VERSION};
  };
  SocketClient a(server.path);
  a.handshake("client-a");
  CHECK(create_and_ping(a, 1, 768u << 10));
  {
    // 768 KiB of the 1 MiB are A's: B's 512 KiB would pass the budget.
    SocketClient b(server.path);
    b.handshake("client-b");
    CHECK_FALSE(create_and_ping(b, 1, 512u << 10));
  }
  // A's process ends over its time budget, holding its bytes (_exit frees nothing); the
  // server frees its slot when it reaps the process.
  a.send(submit_and_wait());
  CHECK(a.recv(12).empty());
  bool served = false;
  for (int i = 0; i < 50 && !served; ++i) {
    SocketClient c(server.path);
    c.handshake("client-c");
    served = create_and_ping(c, 1, 512u << 10);
    if (!served) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(served);
  server.stop();
  const std::string log = read_text(server.log);
  INFO(log);
  CHECK(log.find("memory shared by all clients") != std::string::npos);
}
