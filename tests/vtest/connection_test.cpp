// The vtest-level protocol over an in-memory transport: negotiation, caps framing,
// resources with sealed memfds, transfers (v2 and v0), framing lies, errors, and cleanup.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vtest/connection.h"
#include "vtest/vtest_test_util.h"

using namespace clpipe;
using namespace clpipe::vtest_test;

namespace {

struct Client {
  explicit Client(bool fds = true, ConnectionOptions opts = {})
      : log(std::make_shared<FakeLog>()),
        transport(fds),
        conn(std::make_unique<Connection>(
            transport,
            [this]() -> Result<std::shared_ptr<Screen>> {
              auto s = std::make_shared<FakeScreen>(gl33_config(), log);
              screen = s.get();
              return std::shared_ptr<Screen>(s);
            },
            opts, "test client")) {}

  ~Client() {
    conn.reset();
    log->release_records();  // records reference objects that reference the log
  }

  FakeScreen* screen = nullptr;  // once the connection made it
  void send(const std::vector<uint8_t>& bytes) { transport.push(bytes.data(), bytes.size()); }
  // Serves what was sent; returns false if the connection ended.
  bool serve() {
    while (transport.available() > 0)
      if (!conn->serve_one()) return false;
    return true;
  }
  std::vector<uint32_t> reply_dwords() {
    const auto& out = transport.output();
    std::vector<uint32_t> d(out.size() / 4);
    std::memcpy(d.data(), out.data(), d.size() * 4);
    transport.clear_output();
    return d;
  }
  void handshake(uint32_t version = 2) {
    send(create_renderer_message("glxgears"));
    send(message(VtestCmd::PING_PROTOCOL_VERSION, {}));
    send(message(VtestCmd::RESOURCE_BUSY_WAIT, {0, 0}));
    send(message(VtestCmd::PROTOCOL_VERSION, {version}));
    REQUIRE(serve());
  }

  LogRecorder quiet;
  FakeLogRef log;
  MemoryTransport transport;
  std::unique_ptr<Connection> conn;
};

}  // namespace

TEST_CASE("vtest connection: negotiation and caps replies are framed like the reference",
          "[vtest][connection]") {
  Client c;
  c.handshake();
  CHECK(c.conn->client_name() == "glxgears");
  CHECK(c.reply_dwords() == std::vector<uint32_t>{0, 10, 1, 7, 0, 1, 11, 2});
  CHECK(c.conn->protocol_version() == 2);
  c.send(message(VtestCmd::GET_CAPS2, {}));
  c.send(message(VtestCmd::GET_CAPS, {}));
  REQUIRE(c.serve());
  const auto& out = c.transport.output();
  REQUIRE(out.size() == 8 + 1376 + 8 + 308);
  CHECK(load_u32(out.data()) == 1377);
  CHECK(load_u32(out.data() + 4) == 2);  // GET_CAPS2 is answered with id 2
  CHECK(load_u32(out.data() + 8) == 2);  // max_version
  CHECK(load_u32(out.data() + 8 + 1376) == 309);
  CHECK(load_u32(out.data() + 8 + 1376 + 4) == 1);
  CHECK(load_u32(out.data() + 16 + 1376) == 1);  // caps v1: max_version 1
  CHECK(c.log->count("context_create") == 0);

  // Version 1 is deprecated (0); without fd passing version 2 is impossible (0).
  Client old;
  old.handshake(1);
  CHECK(old.conn->protocol_version() == 0);
  Client nofd(false);
  nofd.handshake(2);
  CHECK(nofd.conn->protocol_version() == 0);
  Client future;
  future.handshake(3);
  CHECK(future.conn->protocol_version() == 2);
}

TEST_CASE("vtest connection: RESOURCE_CREATE2 hands out a sealed memfd of data_size bytes",
          "[vtest][connection]") {
  Client c;
  c.handshake();
  c.transport.clear_output();
  c.send(message(VtestCmd::RESOURCE_CREATE2, {1, 2, 67, 2, 8, 4, 1, 1, 0, 0, 128}));
  c.send(message(VtestCmd::RESOURCE_CREATE2, {2, 0, 64, 1u << 17, 8, 1, 1, 0, 0, 0, 8}));  // fence
  c.send(message(VtestCmd::RESOURCE_CREATE2, {3, 2, 67, 2, 8, 4, 1, 1, 0, 4, 0}));  // MSAA: no fd
  REQUIRE(c.serve());
  CHECK(c.transport.output() == std::vector<uint8_t>{0, 0});  // one byte per fd, no header
  std::vector<int> fds = c.transport.take_fds();
  REQUIRE(fds.size() == 2);
  struct stat st {};
  REQUIRE(fstat(fds[0], &st) == 0);
  CHECK(st.st_size == 128);
  CHECK(ftruncate(fds[0], 16) != 0);  // sealed: a client cannot make our mapping fault
  CHECK(fcntl(fds[0], F_GET_SEALS) & F_SEAL_SHRINK);
  REQUIRE(fstat(fds[1], &st) == 0);
  CHECK(st.st_size == 8);
  CHECK(c.conn->resources().count() == 3);
  CHECK(c.log->count("resource_create") == 3);
  for (int fd : fds)
    close(fd);

  c.send(message(VtestCmd::RESOURCE_UNREF, {2}));
  REQUIRE(c.serve());
  CHECK(c.conn->resources().count() == 2);
  c.send(message(VtestCmd::RESOURCE_UNREF, {2}));
  CHECK_FALSE(c.serve());
  CHECK_THAT(c.conn->error(), Catch::Contains("unknown resource 2"));
}

TEST_CASE("vtest connection: the screen's memory limit is what guest stores leave of the client's",
          "[vtest][connection]") {
  ConnectionOptions opts;
  opts.limits.max_client_bytes = 1u << 20;
  Client c(true, opts);
  c.handshake();
  // 256 KiB of guest store and 256 KiB of host buffer.
  c.send(message(VtestCmd::RESOURCE_CREATE2,
                 {1, 0, 64, 1u << 4, 256u << 10, 1, 1, 1, 0, 0, 256u << 10}));
  REQUIRE(c.serve());
  FakeScreen* screen = c.screen;
  REQUIRE(screen);
  CHECK(screen->memory_limits.screen_bytes == (768u << 10));
  CHECK(screen->memory_in_use() == (256u << 10));
  for (int fd : c.transport.take_fds())
    close(fd);
  c.send(message(VtestCmd::RESOURCE_UNREF, {1}));
  REQUIRE(c.serve());
  CHECK(screen->memory_limits.screen_bytes == (1u << 20));
  // 900 KiB of host buffer fit; 200 KiB more do not (the screen's bytes count).
  c.send(message(VtestCmd::RESOURCE_CREATE2, {2, 0, 64, 1u << 4, 900u << 10, 1, 1, 1, 0, 0, 0}));
  REQUIRE(c.serve());
  c.send(message(VtestCmd::RESOURCE_CREATE2, {3, 0, 64, 1u << 4, 200u << 10, 1, 1, 1, 0, 0, 0}));
  CHECK_FALSE(c.serve());
  CHECK_THAT(c.conn->error(), Catch::Contains("limit of 1048576 bytes"));
}

TEST_CASE("vtest connection: TRANSFER_PUT2 / TRANSFER_GET2 use shared memory and level strides",
          "[vtest][connection]") {
  Client c;
  c.handshake();
  c.send(message(VtestCmd::RESOURCE_CREATE2, {1, 2, 67, 2, 8, 4, 1, 1, 1, 0, 160}));
  REQUIRE(c.serve());
  std::vector<int> fds = c.transport.take_fds();
  REQUIRE(fds.size() == 1);
  auto* m =
      static_cast<uint8_t*>(mmap(nullptr, 160, PROT_READ | PROT_WRITE, MAP_SHARED, fds[0], 0));
  REQUIRE(m != MAP_FAILED);
  for (int i = 0; i < 160; ++i)
    m[i] = uint8_t(i);
  // Level 1 is 4x2 at offset 128, 16-byte rows. The length field lies (doc 2.3): 10 +
  // data dwords, but only the 10 field dwords follow.
  c.send(message(VtestCmd::TRANSFER_PUT2, {1, 1, 1, 0, 0, 3, 2, 1, 24, 128 + 4}, 10 + 6));
  c.send(message(VtestCmd::PING_PROTOCOL_VERSION, {}));
  c.transport.clear_output();
  REQUIRE(c.serve());
  CHECK(c.reply_dwords() == std::vector<uint32_t>{0, 10});  // still in sync after the lie
  FakeResource* host = fake(c.conn->resources().get(1, "t").host);
  CHECK(std::memcmp(host->at(1, 1, 0, 0), m + 132, 12) == 0);
  CHECK(std::memcmp(host->at(1, 1, 1, 0), m + 148, 12) == 0);

  // Readback: the box goes to `offset` with the level's row stride, nothing else moves.
  std::memset(m, 0xee, 160);
  for (uint32_t y = 0; y < 4; ++y)
    std::memset(host->at(0, 0, y, 0), int(y + 1), 32);
  c.send(message(VtestCmd::TRANSFER_GET2, {1, 0, 2, 1, 0, 4, 2, 1, 999999, 32 + 8}));
  c.send(message(VtestCmd::RESOURCE_BUSY_WAIT, {1, 1}));
  REQUIRE(c.serve());
  CHECK(c.reply_dwords() == std::vector<uint32_t>{1, 7, 0});
  for (uint32_t y = 0; y < 2; ++y) {
    CHECK(m[40 + 32 * y] == y + 2);
    CHECK(m[40 + 32 * y + 15] == y + 2);
    CHECK(m[40 + 32 * y + 16] == 0xee);
    CHECK(m[40 + 32 * y - 1] == 0xee);
  }
  // A box whose bytes would pass the end of the memfd is refused.
  c.send(message(VtestCmd::TRANSFER_GET2, {1, 0, 0, 0, 0, 8, 4, 1, 128, 64}));
  CHECK_FALSE(c.serve());
  CHECK_THAT(c.conn->error(), Catch::Contains("backing store"));
  munmap(m, 160);
  close(fds[0]);
}

TEST_CASE("vtest connection: protocol 0 moves data inline", "[vtest][connection]") {
  Client c;
  c.handshake(0);
  c.send(message(VtestCmd::RESOURCE_CREATE, {1, 2, 67, 2, 4, 4, 1, 1, 0, 0}));
  // TRANSFER_PUT: 11 field dwords, then exactly data_size bytes (unpadded); the length field
  // also counts the data. A 2x2 box at (1,1) with a 12-byte stride (rows of 8 bytes used).
  std::vector<uint8_t> put =
      message(VtestCmd::TRANSFER_PUT, {1, 0, 12, 0, 1, 1, 0, 2, 2, 1, 20}, 11 + 5);
  for (int i = 0; i < 20; ++i)
    put.push_back(uint8_t(0x80 + i));
  c.send(put);
  c.send(message(VtestCmd::TRANSFER_GET, {1, 0, 12, 0, 1, 1, 0, 2, 2, 1, 20}));
  c.transport.clear_output();
  REQUIRE(c.serve());
  FakeResource* host = fake(c.conn->resources().get(1, "t").host);
  CHECK(host->at(0, 1, 1, 0)[0] == 0x80);
  CHECK(host->at(0, 2, 2, 0)[3] == 0x80 + 19);  // second texel of the second row
  const auto& out = c.transport.output();       // raw reply, no header
  REQUIRE(out.size() == 20);
  for (int i : {0, 7, 12, 19})
    CHECK(out[size_t(i)] == 0x80 + i);
  CHECK(out[8] == 0);  // the stride gap is not part of the box
  c.send(message(VtestCmd::TRANSFER_GET, {1, 0, 0, 0, 0, 0, 0, 4, 4, 1, 60}));
  CHECK_FALSE(c.serve());
  CHECK_THAT(c.conn->error(), Catch::Contains("exceed"));
}

TEST_CASE("vtest connection: malformed messages close the connection with a logged reason",
          "[vtest][connection]") {
  struct Case {
    const char* what;
    std::function<void(Client&)> send;
  };
  const Case kCases[] = {
      {"the first message must be CREATE_RENDERER",
       [](Client& c) { c.send(message(VtestCmd::PING_PROTOCOL_VERSION, {})); }},
      {"truncated message",
       [](Client& c) {
         c.handshake();
         c.send(message(VtestCmd::SUBMIT_CMD, {1, 2}, 3));
       }},
      {"SUBMIT_CMD of 4194304 dwords",
       [](Client& c) {
         c.handshake();
         c.send(message(VtestCmd::SUBMIT_CMD, {}, 1 << 22));
       }},
      {"unsupported vtest command 24",
       [](Client& c) {
         c.handshake();
         c.send(message(VtestCmd::SUBMIT_CMD2, {}));
       }},
      {"unsupported vtest command 77",
       [](Client& c) {
         c.handshake();
         c.send(message(77, {}));
       }},
      {"length field 3, expected 2",
       [](Client& c) {
         c.handshake();
         c.send(message(VtestCmd::RESOURCE_BUSY_WAIT, {0, 0, 0}));
       }},
      {"needs protocol version 2",
       [](Client& c) {
         c.handshake(0);
         c.send(message(VtestCmd::RESOURCE_CREATE2, {1, 0, 64, 0, 8, 1, 1, 1, 0, 0, 8}));
       }},
      {"renderer name of",
       [](Client& c) { c.send(message(VtestCmd::CREATE_RENDERER, {}, 1 << 20)); }},
      {"a second CREATE_RENDERER",
       [](Client& c) {
         c.handshake();
         c.send(message(VtestCmd::CREATE_RENDERER, {0}));
       }},
      {"already in use",
       [](Client& c) {
         c.handshake();
         c.send(message(VtestCmd::RESOURCE_CREATE2, {1, 0, 64, 0, 8, 1, 1, 1, 0, 0, 8}));
         c.send(message(VtestCmd::RESOURCE_CREATE2, {1, 0, 64, 0, 8, 1, 1, 1, 0, 0, 8}));
       }},
      {"limit of",
       [](Client& c) {
         c.handshake();
         c.send(message(VtestCmd::RESOURCE_CREATE2, {1, 2, 31, 2, 32768, 32768, 1, 1, 0, 0, 0}));
       }},  // 16 GiB
      {"TRANSFER_PUT of",
       [](Client& c) {
         c.handshake(0);
         c.send(message(VtestCmd::RESOURCE_CREATE, {1, 0, 64, 0, 64, 1, 1, 1, 0, 0}));
         c.send(message(VtestCmd::TRANSFER_PUT, {1, 0, 0, 0, 0, 0, 0, 64, 1, 1, 0xffffffffu}));
       }},
      {"SUBMIT_CMD dword 0: SET_SUB_CTX",
       [](Client& c) {
         c.handshake();
         c.send(message(VtestCmd::SUBMIT_CMD, {ccmd_header(Ccmd::SET_SUB_CTX, 0, 1), 5}));
       }},
  };
  for (const Case& k : kCases) {
    INFO(k.what);
    Client c;
    k.send(c);
    CHECK_FALSE(c.serve());
    CHECK_THAT(c.conn->error(), Catch::Contains(k.what));
    CHECK_FALSE(c.conn->closed_cleanly());
    // A message cut short by the end of the stream is the client leaving: logged as such.
    const bool left = std::string(k.what) == "truncated message";
    CHECK(c.quiet.count(left ? ": disconnected in " : "protocol error in") == 1);
    CHECK(c.quiet.count("test client") >= 1);
    CHECK_FALSE(c.conn->serve_one());  // stays closed
  }
}

TEST_CASE("vtest connection: a closed connection leaves nothing behind", "[vtest][connection]") {
  FakeLogRef log;
  {
    Client c;
    log = c.log;
    c.handshake();
    c.send(message(VtestCmd::RESOURCE_CREATE2, {1, 2, 67, 2, 16, 16, 1, 1, 0, 0, 1024}));
    c.send(message(VtestCmd::RESOURCE_CREATE2, {2, 0, 64, 16, 96, 1, 1, 1, 0, 0, 96}));
    std::vector<uint32_t> submit = {ccmd_header(Ccmd::CREATE_SUB_CTX, 0, 1),
                                    1,
                                    ccmd_header(Ccmd::SET_SUB_CTX, 0, 1),
                                    1,
                                    ccmd_header(Ccmd::CREATE_OBJECT, ObjType::SURFACE, 5),
                                    3,
                                    1,
                                    67,
                                    0,
                                    0,
                                    ccmd_header(Ccmd::SET_FRAMEBUFFER_STATE, 0, 3),
                                    1,
                                    0,
                                    3,
                                    ccmd_header(Ccmd::SET_VERTEX_BUFFERS, 0, 3),
                                    16,
                                    0,
                                    2};
    c.send(message(VtestCmd::SUBMIT_CMD, submit));
    c.send(message(VtestCmd::RESOURCE_UNREF, {1}));  // the surface still points at it
    REQUIRE(c.serve());
    for (int fd : c.transport.take_fds())
      close(fd);
    CHECK(log->live_resources == 2);
    CHECK(log->live_contexts == 1);
    CHECK_FALSE(c.conn->serve_one());  // the client hangs up
    CHECK(c.conn->closed_cleanly());
    log->release_records();
  }
  CHECK(log->leak_free());
}

TEST_CASE("vtest connection: message sizes follow the framing exceptions", "[vtest][connection]") {
  auto size = [](const std::vector<uint8_t>& m) {
    return Connection::message_size(m.data(), m.size());
  };
  CHECK(size(message(VtestCmd::CREATE_RENDERER, {0, 0}, 5)) == 8 + 5);
  CHECK(size(message(VtestCmd::TRANSFER_PUT2, {1, 0, 0, 0, 0, 1, 1, 1, 4, 0}, 74)) == 8 + 40);
  CHECK(size(message(VtestCmd::TRANSFER_PUT, {1, 0, 0, 0, 0, 0, 0, 3, 1, 1, 3}, 12)) == 8 + 44 + 3);
  CHECK(size(message(VtestCmd::TRANSFER_PUT, {1, 0, 0}, 12)) == 0);  // fields not there yet
  CHECK(size(message(VtestCmd::SUBMIT_CMD, {1, 2, 3})) == 8 + 12);
  CHECK(size({1, 0, 0}) == 0);
}
