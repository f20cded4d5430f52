// One vtest client: framing of vtest messages by command id (doc 2.3: several length
// fields lie), the vtest-level commands (version negotiation, caps, resources with shared
// memory, transfers, busy-wait) and SUBMIT_CMD handed to the virgl decoder.
//
// The server creates one Connection per accepted socket (in a forked child); the replayer
// and the tests drive it over a MemoryTransport. Nothing escapes serve_one(): a malformed
// message, a client that vanishes mid-message or a failed allocation ends the connection
// with a logged reason naming the client and the command, and every resource of the
// client is released when the Connection is destroyed.
#pragma once

#include <atomic>

#include <cstdint>
#include <memory>
#include <string>

#include "clpipe/screen.h"
#include "vtest/caps.h"
#include "vtest/decoder.h"
#include "vtest/resources.h"
#include "vtest/screen_factory.h"
#include "vtest/transport.h"

namespace clpipe::frontend::vtest {

struct ConnectionOptions {
  Limits limits;
  DecoderOptions decoder;
  CapsOptions caps;
  // Caps computed once by the server; when null they are built from this client's screen.
  std::shared_ptr<const CapsBlob> caps_blob;
  // How long a read waits for the client (0: for ever); past it the connection closes
  // and the client's slot is free. Before CREATE_RENDERER: a connection that never
  // speaks. Between later messages: off by default, since a paused GL program is an idle
  // client too. Inside a message: a client that stopped half-way.
  uint32_t handshake_timeout_ms = 10000;
  uint32_t idle_timeout_ms = 0;
  uint32_t stall_timeout_ms = 30000;
  // A word the client shares with the server (null: none; see Server::evict_idle_client):
  // the steady-clock ms since which the client has been idle between messages, 0 while it
  // handles a message, kEvictedClient once the server has taken its slot. Both sides
  // change it by compare-and-swap, the server only from an idle value and the client only
  // from the value it stored, so an eviction never cuts a command short.
  std::atomic<int64_t>* idle_since = nullptr;
};

constexpr int64_t kEvictedClient = -1;
// The clock of idle_since, in ms: the steady clock, CLOCK_MONOTONIC on Linux, which all
// processes of the machine share.
int64_t steady_ms();

class Connection {
 public:
  Connection(Transport& transport, ScreenFactory factory, ConnectionOptions options,
             std::string label);
  ~Connection();

  // Reads and handles one message. False when the connection is over: the client closed
  // it between messages (closed_cleanly()), or an error was logged (error()).
  bool serve_one();
  // serve_one() until the connection is over.
  void serve();

  // Bytes of the message at the start of buf[0..n), or 0 when more bytes are needed to
  // know (the framing rules of doc 2.3; used by the replayer to feed whole messages).
  static uint64_t message_size(const uint8_t* buf, size_t n);

  bool closed_cleanly() const { return closed_ && error_.empty(); }
  const std::string& error() const { return error_; }
  uint32_t protocol_version() const { return version_; }
  const std::string& client_name() const { return name_; }
  const ResourceTable& resources() const { return resources_; }
  const Decoder& decoder() const { return decoder_; }
  size_t messages() const { return messages_; }
  const std::string& label() const { return label_; }
  // How long the current message has been handled, in ms, or 0 between messages, less
  // the time it waited for program builds (those have their own budget). Read from the
  // server's watchdog thread.
  int64_t busy_ms() const;

 private:
  void handle(uint32_t length, uint32_t id);
  void read_payload(void* dst, size_t bytes);
  std::vector<uint32_t> read_dwords(uint32_t length, uint32_t expected);
  void reply(uint32_t length, uint32_t id, const void* payload, size_t bytes);
  void require_version2(const char* what) const;
  const CapsBlob& caps();

  void create_renderer(uint32_t length);
  void protocol_version_cmd(uint32_t length);
  void resource_create(uint32_t length, bool version2);
  void busy_wait(uint32_t length);
  void transfer2(bool put);
  void transfer_v0(uint32_t length, bool put);
  void submit(uint32_t length);

  Transport& transport_;
  LazyScreen screen_;
  ConnectionOptions options_;
  std::string label_;
  std::string name_;
  ResourceTable resources_;
  Decoder decoder_;
  std::shared_ptr<const CapsBlob> caps_;
  uint32_t version_ = 0;
  bool renderer_created_ = false;
  bool short_read_ = false;  // a read ended before its bytes: the client left or stalled
  std::atomic<int64_t> busy_since_ms_{0};    // steady clock; 0: between messages
  BuildWaitClock build_waits_;               // this connection's thread's waits for builds
  std::atomic<int64_t> waited_at_start_{0};  // build_waits_ when the message began
  bool closed_ = false;
  std::string error_;
  size_t messages_ = 0;
  const char* current_ = "";
};

}  // namespace clpipe::frontend::vtest
