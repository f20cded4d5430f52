// The vtest server: a unix socket listener that forks one child process per client, like
// virglrenderer's virgl_test_server, so one client's error or crash never touches another.
//
// The parent never opens the OpenCL device (OpenCL state does not survive fork): at start
// a short-lived probe child creates a Screen, builds the caps blob and hands it back
// through a pipe; each client child creates its own Screen when the client first needs
// it. SIGTERM / SIGINT stop the server cleanly: the socket is closed and removed, the
// children are asked to end (SIGTERM, then SIGKILL after a grace period) and reaped.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "clpipe/status.h"
#include "vtest/connection.h"
#include "vtest/screen_factory.h"

namespace clpipe::frontend::vtest {

struct ServerOptions {
  std::string socket_path = "/tmp/.virgl_test";
  ConnectionOptions connection;
  // false: serve clients one after another inside the server process (for debuggers);
  // a client then blocks all others and a crash takes the server down.
  bool fork_per_client = true;
  uint32_t max_clients = 64;  // concurrent children
  // When all max_clients slots are taken, a new connection takes the slot of the client
  // idle longest between messages, once that one has been idle this long (0: never). It
  // waits for that, or for a client to end, at most this long, then it is refused. So
  // idle connections cannot lock new clients out, while a paused program keeps its
  // context as long as the server has room.
  uint32_t evict_idle_ms = 10000;
  // Build the caps once in a probe child at start (and fail early without a device).
  bool probe_caps = true;
  uint32_t shutdown_grace_ms = 2000;
  // A client's process ends (its context is lost, the device and cores are released at
  // once) when one command runs longer than this (0: no limit) — an endless shader behind
  // a fence wait, say — or when its client hangs up while a command runs.
  // Generous: on a cold program cache one submission may build many shaders (~1-2 s each).
  uint32_t command_timeout_ms = 120000;
  // Device memory (resources, draw scratch) of all clients together (0: no limit; the
  // tool's default is three quarters of the machine's memory). A client's allocation that
  // would pass it fails like one past its own limit (Limits::max_client_bytes).
  uint64_t max_total_bytes = 0;
  // Children of this process that are not clients' (a builder pool's): the server reaps
  // every child, and hands those it did not start here (true: it was one of them).
  std::function<bool(int pid, int wait_status)> other_child_ended;
  // Runs first in each client's process: it drops what this process's other parts hold
  // that a client must not (a builder pool's listening socket).
  std::function<void()> at_client_start;
};

// n default-constructed Ts in memory shared with the children forked later (MAP_SHARED
// survives fork); empty when the mapping failed.
template <typename T>
class SharedArray {
 public:
  SharedArray() = default;
  explicit SharedArray(size_t n);
  ~SharedArray();
  SharedArray(const SharedArray&) = delete;
  SharedArray& operator=(const SharedArray&) = delete;
  SharedArray& operator=(SharedArray&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(n_, o.n_);
    return *this;
  }
  T* data() const { return data_; }
  T& operator[](size_t i) const { return data_[i]; }
  explicit operator bool() const { return data_ != nullptr; }

 private:
  T* data_ = nullptr;
  size_t n_ = 0;
};

class Server {
 public:
  Server(ServerOptions options, ScreenFactory factory);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Probes the caps (if enabled), then binds and listens. Fails if another server
  // listens on the path, or the path is something other than a stale socket.
  Status start();
  // Accepts and serves clients until stop is requested; returns the exit status.
  int run();

  // SIGTERM / SIGINT request a stop, SIGCHLD reaps children; SIGPIPE is ignored.
  static void install_signal_handlers();
  // Async-signal-safe: makes run() return.
  static void request_stop();

  const CapsBlob* caps() const { return options_.connection.caps_blob.get(); }
  size_t children() const { return children_.size(); }

 private:
  Status probe_caps();
  void accept_one();
  // Serves the waiting connections that have a slot now; refuses those that waited
  // evict_idle_ms.
  void place_waiting();
  void start_child(int fd, uint64_t client_number);
  // With every slot taken: ends the client idle longest, if idle for evict_idle_ms, and
  // reaps it. False when no client may be evicted.
  bool evict_idle_client(uint64_t for_client);
  void serve_in_child(int client_fd, uint64_t client_number, uint32_t memory_slot);
  // The connection options of a client with its memory slot.
  ConnectionOptions client_options(uint32_t memory_slot) const;
  // Reaps the children that have ended, and frees their slots.
  void reap();
  // Asks the children to end (SIGTERM; SIGKILL after shutdown_grace_ms) and reaps them.
  void end_children(const std::vector<pid_t>& pids);
  void shutdown();

  ServerOptions options_;
  ScreenFactory factory_;
  int listen_fd_ = -1;
  uint64_t clients_seen_ = 0;
  struct Child {
    uint64_t number;
    uint32_t slot;  // of memory_slots_
  };
  std::map<pid_t, Child> children_;
  struct Waiting {
    int fd;
    uint64_t number;
    int64_t since_ms;  // steady_ms()
  };
  std::deque<Waiting> waiting_;  // accepted connections without a slot, oldest first
  // One counter per concurrent client in memory the children share (MemoryLimits::slots):
  // a child counts its bytes in its own slot; the server zeroes the slot when the child
  // has ended, however it ended, so that a crashed client's bytes do not stay counted.
  SharedArray<std::atomic<uint64_t>> memory_slots_;
  // ConnectionOptions::idle_since of the client in each slot.
  SharedArray<std::atomic<int64_t>> idle_since_;
  std::vector<bool> slot_used_;
  dev_t socket_dev_ = 0;
  ino_t socket_ino_ = 0;
};

}  // namespace clpipe::frontend::vtest
