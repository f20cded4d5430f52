// Socket reads with timeouts, and what a connection does with them: a connection that
// never speaks, a client idle between messages, one that stops or leaves mid-message.
#include <catch2/catch.hpp>

#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "vtest/connection.h"
#include "vtest/transport.h"
#include "vtest/vtest_test_util.h"

using namespace clpipe;
using namespace clpipe::vtest_test;

namespace {

// A connected socket pair: the server side in a SocketTransport, the client side raw.
struct SocketPair {
  SocketPair() {
    int fds[2];
    REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
    server = std::make_unique<SocketTransport>(fds[0]);
    client = fds[1];
  }
  ~SocketPair() {
    if (client >= 0) ::close(client);
  }
  void send(const std::vector<uint8_t>& b) const {
    REQUIRE(::send(client, b.data(), b.size(), 0) == ssize_t(b.size()));
  }
  void hang_up() {
    ::close(client);
    client = -1;
  }
  std::unique_ptr<SocketTransport> server;
  int client = -1;
};

// A connection over the pair's server side with the given timeouts.
struct Served {
  Served(SocketPair& p, uint32_t handshake_ms, uint32_t idle_ms, uint32_t stall_ms)
      : log(std::make_shared<FakeLog>()) {
    ConnectionOptions o;
    o.handshake_timeout_ms = handshake_ms;
    o.idle_timeout_ms = idle_ms;
    o.stall_timeout_ms = stall_ms;
    conn = std::make_unique<Connection>(
        *p.server,
        [this]() -> Result<std::shared_ptr<Screen>> {
          return std::shared_ptr<Screen>(std::make_shared<FakeScreen>(gl33_config(), log));
        },
        o, "client");
  }
  ~Served() {
    conn.reset();
    log->release_records();
  }
  std::shared_ptr<FakeLog> log;
  std::unique_ptr<Connection> conn;
};

bool has_line(const LogRecorder& r, LogLevel level, const std::string& text) {
  for (const auto& [l, m] : r.lines)
    if (l == level && m.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("socket reads give up after the read timeout, and only then", "[vtest][transport]") {
  SocketPair p;
  uint8_t buf[8];
  p.server->set_read_timeout(50);
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(p.server->read(buf, sizeof buf) == 0);
  CHECK(p.server->timed_out());
  CHECK(std::chrono::steady_clock::now() - t0 >= std::chrono::milliseconds(50));
  // Bytes that arrive in time are read; a short stall inside the timeout is no timeout.
  p.send({1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(p.server->read(buf, sizeof buf) == 8);
  CHECK(!p.server->timed_out());
  CHECK(buf[7] == 8);
  // Part of the bytes, then silence: a short read that says why.
  p.send({1, 2, 3});
  CHECK(p.server->read(buf, sizeof buf) == 3);
  CHECK(p.server->timed_out());
  CHECK(p.server->error().find("no data for 50 ms") != std::string::npos);
  // The client closing is an orderly end of stream, not a timeout.
  p.hang_up();
  CHECK(p.server->read(buf, sizeof buf) == 0);
  CHECK(!p.server->timed_out());
  CHECK(p.server->error().empty());
}

TEST_CASE("a connection that never sends CREATE_RENDERER is closed after the handshake timeout",
          "[vtest][transport]") {
  LogRecorder rec;
  SocketPair p;
  Served s(p, 50, 0, 0);
  CHECK(!s.conn->serve_one());
  CHECK(!s.conn->closed_cleanly());
  CHECK(has_line(rec, LogLevel::kInfo, "no CREATE_RENDERER"));
  CHECK(!has_line(rec, LogLevel::kError, ""));
}

TEST_CASE("idle clients stay unless an idle timeout is set", "[vtest][transport]") {
  LogRecorder rec;
  SocketPair p;
  SECTION("idle timeout set: closed") {
    Served s(p, 1000, 50, 1000);
    p.send(create_renderer_message("app"));
    REQUIRE(s.conn->serve_one());
    CHECK(!s.conn->serve_one());
    CHECK(has_line(rec, LogLevel::kInfo, ": idle (no data for 50 ms)"));
  }
  SECTION("no idle timeout (the default): a quiet client is still served later") {
    Served s(p, 50, 0, 50);
    p.send(create_renderer_message("app"));
    REQUIRE(s.conn->serve_one());
    // Longer than the other two timeouts before the next message.
    std::thread late([&p] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      p.send(message(VtestCmd::PING_PROTOCOL_VERSION, {}));
    });
    CHECK(s.conn->serve_one());
    late.join();
  }
}

TEST_CASE("a client that stops or leaves mid-message is closed without a protocol error",
          "[vtest][transport]") {
  LogRecorder rec;
  SocketPair p;
  Served s(p, 1000, 0, 50);
  p.send(create_renderer_message("app"));
  REQUIRE(s.conn->serve_one());
  std::vector<uint8_t> half = message(VtestCmd::PROTOCOL_VERSION, {2});
  half.resize(half.size() - 2);
  p.send(half);
  SECTION("stalled: a warning after the stall timeout") {
    CHECK(!s.conn->serve_one());
    CHECK(has_line(rec, LogLevel::kWarning, "stalled in PROTOCOL_VERSION"));
  }
  SECTION("gone: an info line") {
    p.hang_up();
    CHECK(!s.conn->serve_one());
    CHECK(has_line(rec, LogLevel::kInfo, "disconnected in PROTOCOL_VERSION"));
  }
  CHECK(!has_line(rec, LogLevel::kError, ""));
}
