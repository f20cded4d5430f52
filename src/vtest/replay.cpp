// Capture replay (see replay.h).
#include "vtest/replay.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>
#include <thread>

#include "vtest/log.h"
#include "vtest/protocol.h"
#include "vtest/wire.h"

namespace clpipe::frontend::vtest {
namespace {

constexpr uint32_t kShmTransferGet2Result = 4;

// The client's view of one memfd the server sent.
class ClientMapping {
 public:
  explicit ClientMapping(int fd) : fd_(fd) {
    struct stat st {};
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
      void* p = ::mmap(nullptr, size_t(st.st_size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      if (p != MAP_FAILED) {
        data_ = static_cast<uint8_t*>(p);
        size_ = size_t(st.st_size);
      }
    }
  }
  ~ClientMapping() {
    if (data_) ::munmap(data_, size_);
    ::close(fd_);
  }
  ClientMapping(const ClientMapping&) = delete;
  ClientMapping& operator=(const ClientMapping&) = delete;
  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  int fd_;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

enum class ReplyKind { kHeader, kCaps, kFd, kRaw };

struct ExpectedReply {
  ReplyKind kind;
  uint64_t raw_bytes;  // kRaw
  uint32_t resource;   // kRaw: the TRANSFER_GET resource
};

struct Request {
  uint32_t id;
  std::vector<uint8_t> head;  // header + first fields (at most 52 bytes)
};

uint32_t field(const Request& r, uint32_t index) {
  const size_t off = 8 + 4 * size_t(index);
  return off + 4 <= r.head.size() ? load_u32(r.head.data() + off) : 0;
}

// What the server answers to a request (doc 2.2 / 2.4), or false for no reply.
bool expected_reply(const Request& r, ExpectedReply* out) {
  switch (r.id) {
    case VtestCmd::PING_PROTOCOL_VERSION:
    case VtestCmd::RESOURCE_BUSY_WAIT:
    case VtestCmd::PROTOCOL_VERSION:
      *out = {ReplyKind::kHeader, 0, 0};
      return true;
    case VtestCmd::GET_CAPS:
    case VtestCmd::GET_CAPS2:
      *out = {ReplyKind::kCaps, 0, 0};
      return true;
    case VtestCmd::RESOURCE_CREATE2:
      if (field(r, 10) == 0) return false;
      *out = {ReplyKind::kFd, 0, 0};
      return true;
    case VtestCmd::TRANSFER_GET:
      if (field(r, 10) == 0) return false;
      *out = {ReplyKind::kRaw, field(r, 10), field(r, 0)};
      return true;
  }
  return false;
}

// Splits a reply stream into replies following the expected kinds; stops where the stream
// ends.
std::vector<std::vector<uint8_t>> frame_replies(const std::vector<uint8_t>& s,
                                                const std::vector<ExpectedReply>& kinds) {
  std::vector<std::vector<uint8_t>> out;
  size_t off = 0;
  for (const ExpectedReply& k : kinds) {
    uint64_t n = 0;
    if (k.kind == ReplyKind::kFd) {
      n = 1;
    } else if (k.kind == ReplyKind::kRaw) {
      n = k.raw_bytes;
    } else {
      if (s.size() - off < 8) break;
      const uint32_t length = load_u32(s.data() + off);
      n = k.kind == ReplyKind::kCaps ? 8 + uint64_t(length) - 1 : 8 + 4 * uint64_t(length);
    }
    if (n > s.size() - off) break;
    out.emplace_back(s.begin() + long(off), s.begin() + long(off + n));
    off += size_t(n);
  }
  return out;
}

struct ConnState {
  ConnectionReplay result;
  MemoryTransport transport;
  std::unique_ptr<Connection> connection;
  bool done = false;
  std::vector<uint8_t> recorded;  // server -> client bytes of the capture
  std::vector<Request> requests;
  std::map<uint32_t, std::unique_ptr<ClientMapping>> mappings;
  std::map<uint32_t, uint64_t> recorded_fd_sizes;
};

void feed(ConnState& st, uint16_t conn, const ReplayOptions& options) {
  while (!st.done) {
    const std::vector<uint8_t> head = st.transport.peek(8 + 4 * kTransferDwords);
    const uint64_t size = Connection::message_size(head.data(), head.size());
    if (size == 0 || size > st.transport.available()) return;  // wait for more bytes
    Request req{load_u32(head.data() + 4), head};
    if (!st.connection->serve_one()) {
      st.done = true;
      return;
    }
    for (int fd : st.transport.take_fds()) {
      const uint32_t res = field(req, 0);
      auto m = std::make_unique<ClientMapping>(fd);
      st.result.fds.push_back({res, m->size(), 0});
      st.mappings[res] = std::move(m);
    }
    st.requests.push_back(std::move(req));
    if (options.after_message) options.after_message(conn, st.requests.back().id, *st.connection);
  }
}

void apply_snapshot(ConnState& st, const CaptureRecord& r) {
  if (r.payload.size() < 12) {
    st.result.mismatches.push_back("short SHM record");
    return;
  }
  const uint32_t res = load_u32(r.payload.data()), offset = load_u32(r.payload.data() + 4),
                 reason = load_u32(r.payload.data() + 8);
  const size_t n = r.payload.size() - 12;
  auto it = st.mappings.find(res);
  if (it == st.mappings.end() || !it->second->data()) {
    st.result.mismatches.push_back("shared-memory snapshot for resource " + std::to_string(res) +
                                   ", which has no memfd");
    return;
  }
  ClientMapping& m = *it->second;
  if (offset > m.size() || n > m.size() - offset) {
    st.result.mismatches.push_back("snapshot of resource " + std::to_string(res) +
                                   " outside its memfd");
    return;
  }
  if (r.dir == 0) {
    std::memcpy(m.data() + offset, r.payload.data() + 12, n);  // what the client wrote
  } else if (reason == kShmTransferGet2Result) {
    ReplayReadback rb;
    rb.resource = res;
    rb.offset = offset;
    rb.expected.assign(r.payload.begin() + 12, r.payload.end());
    rb.actual.assign(m.data() + offset, m.data() + offset + n);
    st.result.readbacks.push_back(std::move(rb));
  }
}

void finish(ConnState& st) {
  ConnectionReplay& res = st.result;
  if (!st.done) {
    if (st.transport.available())
      res.mismatches.push_back(std::to_string(st.transport.available()) +
                               " client bytes do not form a whole message");
    st.connection->serve_one();  // the client disconnects
  }
  res.client_name = st.connection->client_name();
  res.protocol_version = st.connection->protocol_version();
  res.messages = st.connection->messages();
  res.api_failures = st.connection->decoder().api_failures();
  res.error = st.connection->error();

  std::vector<ExpectedReply> kinds;
  for (const Request& r : st.requests) {
    ExpectedReply e;
    if (expected_reply(r, &e)) kinds.push_back(e);
  }
  const auto want = frame_replies(st.recorded, kinds);
  const auto got = frame_replies(st.transport.output(), kinds);
  res.expected_replies = want.size();
  res.actual_replies = got.size();
  for (size_t i = 0; i < want.size(); ++i) {
    if (i >= got.size()) {
      res.mismatches.push_back("reply " + std::to_string(i) + " missing");
      break;
    }
    const ExpectedReply& k = kinds[i];
    const bool same = k.kind == ReplyKind::kCaps
                          ? std::equal(want[i].begin(), want[i].begin() + 8, got[i].begin())
                      : k.kind == ReplyKind::kRaw ? want[i].size() == got[i].size()
                                                  : want[i] == got[i];
    if (!same) res.mismatches.push_back("reply " + std::to_string(i) + " differs");
    if (k.kind == ReplyKind::kRaw) res.readbacks.push_back({k.resource, 0, want[i], got[i]});
  }
  for (auto& fd : res.fds) {
    auto it = st.recorded_fd_sizes.find(fd.resource);
    fd.recorded_size = it == st.recorded_fd_sizes.end() ? 0 : it->second;
    if (fd.size != fd.recorded_size)
      res.mismatches.push_back("memfd of resource " + std::to_string(fd.resource) + ": " +
                               std::to_string(fd.size) + " bytes, recorded " +
                               std::to_string(fd.recorded_size));
  }
  if (!res.error.empty()) res.mismatches.push_back("protocol error: " + res.error);
  st.connection.reset();
  st.mappings.clear();
}

}  // namespace

bool ReplayResult::ok() const {
  for (const ConnectionReplay& c : connections)
    if (!c.mismatches.empty() || !c.error.empty()) return false;
  return !connections.empty();
}

std::string ReplayResult::summary() const {
  std::ostringstream os;
  for (const ConnectionReplay& c : connections) {
    os << "conn " << c.conn << " '" << c.client_name << "': protocol " << c.protocol_version << ", "
       << c.messages << " messages, replies " << c.actual_replies << " (recorded "
       << c.expected_replies << "), " << c.fds.size() << " memfds, " << c.api_failures
       << " clpipe failures, " << c.readbacks.size() << " readbacks";
    size_t equal = 0;
    for (const ReplayReadback& r : c.readbacks)
      equal += r.actual == r.expected;
    if (!c.readbacks.empty()) os << " (" << equal << " equal to the reference)";
    os << "\n";
    for (const std::string& m : c.mismatches)
      os << "  mismatch: " << m << "\n";
  }
  return os.str();
}

namespace {

// Ends the process when the connection being fed runs one message past the budget.
class ReplayWatchdog {
 public:
  explicit ReplayWatchdog(uint32_t budget_ms) {
    if (budget_ms) thread_ = std::thread([this, budget_ms] { watch(budget_ms); });
  }
  ~ReplayWatchdog() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  // The connection being fed (null between feeds); it outlives the feed.
  void set_active(const Connection* c) { active_ = c; }

 private:
  void watch(uint32_t budget_ms) {
    while (!stop_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      const Connection* c = active_.load();
      const int64_t busy = c ? c->busy_ms() : 0;
      if (busy > int64_t(budget_ms)) {
        log_at(LogLevel::kError, c->label(), ": a command ran for ", busy,
               " ms, over the budget of ", budget_ms, " ms (--command-timeout); the replay ends");
        ::_exit(4);
      }
    }
  }

  std::atomic<const Connection*> active_{nullptr};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace

ReplayResult replay_capture(const Capture& capture, const ScreenFactory& factory,
                            const ReplayOptions& options) {
  ReplayWatchdog watchdog(options.command_timeout_ms);
  std::map<uint16_t, std::unique_ptr<ConnState>> conns;
  auto state = [&](uint16_t conn) -> ConnState& {
    auto& p = conns[conn];
    if (!p) {
      p = std::make_unique<ConnState>();
      p->result.conn = conn;
      p->connection = std::make_unique<Connection>(p->transport, factory, options.connection,
                                                   "replay conn " + std::to_string(conn));
    }
    return *p;
  };
  for (const CaptureRecord& r : capture.records) {
    if (r.kind != RecordKind::DATA && r.kind != RecordKind::SHM && r.kind != RecordKind::FD)
      continue;
    ConnState& st = state(r.conn);
    if (r.kind == RecordKind::FD) {
      if (r.payload.size() >= 8)
        st.recorded_fd_sizes[load_u32(r.payload.data() + 4)] = load_u32(r.payload.data());
    } else if (r.kind == RecordKind::SHM) {
      if (!st.done) apply_snapshot(st, r);
    } else if (r.dir == 1) {
      st.recorded.insert(st.recorded.end(), r.payload.begin(), r.payload.end());
    } else if (!st.done) {
      st.transport.push(r.payload.data(), r.payload.size());
      watchdog.set_active(st.connection.get());
      feed(st, r.conn, options);
      watchdog.set_active(nullptr);
    }
  }
  ReplayResult result;
  for (auto& [id, st] : conns) {
    finish(*st);
    result.connections.push_back(std::move(st->result));
  }
  return result;
}

}  // namespace clpipe::frontend::vtest
