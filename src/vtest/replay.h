// Replays a recorded vtest session against this server: each connection's client->server
// bytes go, message by message, into a Connection over a MemoryTransport; shared-memory
// snapshots the client wrote are applied to the memfds the server sent (acting as the
// client's mapping); the server's replies are framed and compared with the recorded ones.
//
// Used by the capture tests (with a fake Screen) and by clpipe-vtest --replay (with the
// real one). Caps contents and the bytes of rendered readbacks are not compared: they
// depend on the device (the readbacks are returned for the caller to judge).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "vtest/capture.h"
#include "vtest/connection.h"

namespace clpipe::frontend::vtest {

struct ReplayOptions {
  ConnectionOptions connection;
  // Called after every message a connection handled (tests inspect state here).
  std::function<void(uint16_t conn, uint32_t vtest_cmd, const Connection&)> after_message;
  // A message that runs longer than this ends the process (exit status 4) with a log line,
  // as the server ends a client's process (ServerOptions::command_timeout_ms); 0: never.
  // OpenCL cannot cancel device work: ending the process is what stops it.
  uint32_t command_timeout_ms = 0;
};

// A range of a resource's shared memory after a TRANSFER_GET2, next to what the reference
// server returned for it.
struct ReplayReadback {
  uint32_t resource = 0;
  uint32_t offset = 0;
  std::vector<uint8_t> expected;  // recorded (reference server, llvmpipe)
  std::vector<uint8_t> actual;    // this server
};

struct ConnectionReplay {
  uint16_t conn = 0;
  std::string client_name;
  uint32_t protocol_version = 0;
  size_t messages = 0;                  // messages handled
  size_t api_failures = 0;              // clpipe refusals (logged, not fatal)
  std::string error;                    // protocol error that closed the connection ("" = none)
  size_t expected_replies = 0;          // recorded server replies
  size_t actual_replies = 0;            // replies this server sent (may be more: see capture 11)
  std::vector<std::string> mismatches;  // replies, fds and snapshots that did not agree
  std::vector<ReplayReadback> readbacks;
  // RESOURCE_CREATE2 fds: (resource, memfd size this server sent, size in the capture).
  struct Fd {
    uint32_t resource;
    uint64_t size;
    uint64_t recorded_size;
  };
  std::vector<Fd> fds;
};

struct ReplayResult {
  std::vector<ConnectionReplay> connections;
  // No protocol error and no mismatch anywhere.
  bool ok() const;
  std::string summary() const;
};

ReplayResult replay_capture(const Capture& capture, const ScreenFactory& factory,
                            const ReplayOptions& options = {});

}  // namespace clpipe::frontend::vtest
