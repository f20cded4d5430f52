// The vtest-level protocol of one client (see connection.h; layouts in doc 2.4).
#include "vtest/connection.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>

#include "vtest/log.h"
#include "vtest/protocol.h"
#include "vtest/transfers.h"
#include "vtest/wire.h"

namespace clpipe::frontend::vtest {
namespace {

constexpr uint32_t kMaxRendererNameBytes = 4096;

std::string printable(const std::string& s) {
  std::string out;
  for (char c : s.substr(0, 64))
    out += (c >= 0x20 && c < 0x7f) ? c : '?';
  return out;
}

}  // namespace

int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Connection::Connection(Transport& transport, ScreenFactory factory, ConnectionOptions options,
                       std::string label)
    : transport_(transport),
      // A new screen gets the client's memory limits at once (resources_ exists by the
      // time the decoder first asks for the screen).
      screen_([this, factory = std::move(factory)]() {
        Result<std::shared_ptr<Screen>> s = factory();
        if (s.is_ok() && s.value()) resources_.apply_memory_limits(*s.value());
        return s;
      }),
      options_(std::move(options)),
      label_(std::move(label)),
      resources_(options_.limits),
      decoder_(screen_, resources_, options_.limits, options_.decoder, label_) {}

Connection::~Connection() = default;

uint64_t Connection::message_size(const uint8_t* buf, size_t n) {
  if (n < 8) return 0;
  const uint32_t length = load_u32(buf), id = load_u32(buf + 4);
  switch (id) {
    case VtestCmd::CREATE_RENDERER:
      return 8 + uint64_t(length);  // bytes, not dwords
    case VtestCmd::TRANSFER_PUT2:
      return 8 + 4 * kTransfer2Dwords;  // the data is in shm
    case VtestCmd::TRANSFER_PUT:
      // 11 dwords of fields, then data_size bytes, unpadded.
      if (n < 8 + 4 * kTransferDwords) return 0;
      return 8 + 4 * kTransferDwords + uint64_t(load_u32(buf + 8 + 40));
    default:
      return 8 + 4 * uint64_t(length);
  }
}

int64_t Connection::busy_ms() const {
  const int64_t since = busy_since_ms_.load();
  if (!since) return 0;
  return steady_ms() - since - (build_waits_.waited_ms() - waited_at_start_.load());
}

bool Connection::serve_one() {
  if (closed_) return false;
  uint32_t hdr[kVtestHeaderDwords];
  current_ = "message header";
  short_read_ = false;
  try {
    transport_.set_read_timeout(renderer_created_ ? options_.idle_timeout_ms
                                                  : options_.handshake_timeout_ms);
    const size_t got = transport_.read(hdr, sizeof hdr);
    if (got == 0 && transport_.timed_out()) {
      closed_ = true;
      error_ = transport_.error();
      log_at(LogLevel::kInfo, label_, ": ", renderer_created_ ? "idle" : "no CREATE_RENDERER", " (",
             error_, "); closing the connection");
      return false;
    }
    if (got == 0 && transport_.error().empty()) {
      closed_ = true;
      log_at(LogLevel::kInfo, label_, ": disconnected after ", messages_, " messages");
      if (log_level() >= LogLevel::kDebug) {
        std::string counts;
        for (uint32_t c = 0; c < Ccmd::COUNT; ++c)
          if (decoder_.command_counts()[c])
            counts += std::string(" ") + ccmd_name(c) + "=" +
                      std::to_string(decoder_.command_counts()[c]);
        log_at(LogLevel::kDebug, label_, ": virgl commands:", counts);
      }
      return false;
    }
    if (got < sizeof hdr) {
      short_read_ = true;
      protocol_error("truncated message header (", got, " of 8 bytes) ", transport_.error());
    }
    if (std::atomic<int64_t>* idle = options_.idle_since) {
      int64_t since = idle->load();
      if (since == kEvictedClient || !idle->compare_exchange_strong(since, 0)) {
        closed_ = true;
        error_ = "evicted";
        log_at(LogLevel::kInfo, label_,
               ": idle, and its slot went to a new client; closing the connection");
        return false;
      }
    }
    transport_.set_read_timeout(options_.stall_timeout_ms);
    current_ = vtest_cmd_name(hdr[1]);
    waited_at_start_ = build_waits_.waited_ms();
    busy_since_ms_ = std::max<int64_t>(1, steady_ms());
    struct Idle {  // again between messages, however handle() ends
      std::atomic<int64_t>& busy_since;
      std::atomic<int64_t>* idle_since;
      ~Idle() {
        busy_since = 0;
        // 0 since the claim above, and the server never changes a 0: a plain store.
        if (idle_since) idle_since->store(std::max<int64_t>(1, steady_ms()));
      }
    } idle{busy_since_ms_, options_.idle_since};
    const BuildWaitClock::Scope builds(build_waits_);
    handle(hdr[0], hdr[1]);
    ++messages_;
    return true;
  } catch (const ProtocolError& e) {
    error_ = e.what();
  } catch (const std::bad_alloc&) {
    error_ = "out of memory";
  } catch (const std::exception& e) {
    error_ = std::string("internal error: ") + e.what();
  }
  closed_ = true;
  if (short_read_) {
    // The client went away or stopped sending mid-message: its doing, not a fault here.
    log_at(transport_.timed_out() ? LogLevel::kWarning : LogLevel::kInfo, label_,
           transport_.timed_out() ? ": stalled in " : ": disconnected in ", current_, ": ", error_,
           "; closing the connection");
  } else {
    log_at(LogLevel::kError, label_, ": protocol error in ", current_, ": ", error_,
           "; closing the connection");
  }
  return false;
}

void Connection::serve() {
  while (serve_one()) {
  }
}

void Connection::read_payload(void* dst, size_t bytes) {
  const size_t got = transport_.read(dst, bytes);
  short_read_ = got < bytes;
  if (got < bytes)
    protocol_error("truncated message: ", got, " of ", bytes, " payload bytes arrived",
                   transport_.error().empty() ? "" : " (", transport_.error(),
                   transport_.error().empty() ? "" : ")");
}

std::vector<uint32_t> Connection::read_dwords(uint32_t length, uint32_t expected) {
  if (length != expected) protocol_error("length field ", length, ", expected ", expected);
  std::vector<uint32_t> d(expected);
  read_payload(d.data(), 4 * size_t(expected));
  return d;
}

void Connection::reply(uint32_t length, uint32_t id, const void* payload, size_t bytes) {
  const uint32_t hdr[2] = {length, id};
  if (!transport_.write(hdr, sizeof hdr) || (bytes && !transport_.write(payload, bytes)))
    protocol_error("cannot send the reply: ", transport_.error());
}

void Connection::require_version2(const char* what) const {
  if (version_ < 2) protocol_error(what, " needs protocol version 2 (negotiated ", version_, ")");
}

const CapsBlob& Connection::caps() {
  if (!caps_)
    caps_ = options_.caps_blob
                ? options_.caps_blob
                : std::make_shared<CapsBlob>(build_caps(screen_.get(), options_.caps));
  return *caps_;
}

void Connection::handle(uint32_t length, uint32_t id) {
  if (!renderer_created_ && id != VtestCmd::CREATE_RENDERER)
    protocol_error("the first message must be CREATE_RENDERER");
  switch (id) {
    case VtestCmd::CREATE_RENDERER:
      return create_renderer(length);
    case VtestCmd::PING_PROTOCOL_VERSION:
      read_dwords(length, 0);
      return reply(0, VtestCmd::PING_PROTOCOL_VERSION, nullptr, 0);
    case VtestCmd::PROTOCOL_VERSION:
      return protocol_version_cmd(length);
    case VtestCmd::GET_CAPS2: {
      read_dwords(length, 0);
      // Reply id 2 and a length in bytes + 1 (doc 2.4).
      const CapsBlob& b = caps();
      return reply(kCapsV2Bytes + 1, VtestCmd::RESOURCE_CREATE, b.data(), b.size());
    }
    case VtestCmd::GET_CAPS: {
      read_dwords(length, 0);
      const auto v1 = caps_v1(caps());
      return reply(kCapsV1Bytes + 1, VtestCmd::GET_CAPS, v1.data(), v1.size());
    }
    case VtestCmd::RESOURCE_CREATE:
      return resource_create(length, false);
    case VtestCmd::RESOURCE_CREATE2:
      return resource_create(length, true);
    case VtestCmd::RESOURCE_UNREF: {
      const std::vector<uint32_t> d = read_dwords(length, 1);
      return resources_.unref(d[0]);
    }
    case VtestCmd::SUBMIT_CMD:
      return submit(length);
    case VtestCmd::RESOURCE_BUSY_WAIT:
      return busy_wait(length);
    case VtestCmd::TRANSFER_GET2:
      if (length != kTransfer2Dwords) protocol_error("length field ", length, ", expected 10");
      return transfer2(false);
    case VtestCmd::TRANSFER_PUT2:
      // The length field counts data dwords that are not sent (doc 2.3).
      if (length < kTransfer2Dwords) protocol_error("length field ", length, " < 10");
      return transfer2(true);
    case VtestCmd::TRANSFER_GET:
      return transfer_v0(length, false);
    case VtestCmd::TRANSFER_PUT:
      return transfer_v0(length, true);
  }
  protocol_error("unsupported vtest command ", id, " (", vtest_cmd_name(id), ")");
}

void Connection::create_renderer(uint32_t length) {
  if (renderer_created_) protocol_error("a second CREATE_RENDERER");
  if (length > kMaxRendererNameBytes) protocol_error("renderer name of ", length, " bytes");
  std::string name(length, '\0');
  read_payload(name.data(), length);
  name.resize(std::strlen(name.c_str()));
  name_ = printable(name);
  label_ += " '" + name_ + "'";
  decoder_.set_label(label_);
  renderer_created_ = true;
  log_at(LogLevel::kInfo, label_, ": connected");
}

void Connection::protocol_version_cmd(uint32_t length) {
  const std::vector<uint32_t> d = read_dwords(length, 1);
  uint32_t v = std::min(d[0], kProtocolVersionMax);
  if (v == 1) v = 0;  // deprecated; both sides treat it as 0
  if (v >= 2 && !(transport_.can_pass_fds() && SharedMemory::memfd_available())) v = 0;
  version_ = v;
  reply(1, VtestCmd::PROTOCOL_VERSION, &v, sizeof v);
}

void Connection::resource_create(uint32_t length, bool version2) {
  if (version2) require_version2("RESOURCE_CREATE2");
  const std::vector<uint32_t> f =
      read_dwords(length, version2 ? kResourceCreate2Dwords : kResourceCreateDwords);
  const ResourceDesc desc = validate_resource(f.data());
  const uint64_t data_size = version2 ? f[10] : 0;
  VtestResource& r = resources_.create(screen_.get(), desc, data_size);
  // The client expects the fd exactly when data_size > 0, whatever the resource.
  if (data_size > 0 && !transport_.send_fd(r.shm->fd()))
    protocol_error("cannot send the memfd: ", transport_.error());
}

void Connection::busy_wait(uint32_t length) {
  const std::vector<uint32_t> d = read_dwords(length, 2);
  // Like the reference server, wait for all work of the client, not only d[0]'s; the
  // handle may even be 0 (the version probe).
  if (d[0] != 0 && !resources_.find(d[0]))
    log_at(LogLevel::kDebug, label_, ": RESOURCE_BUSY_WAIT on unknown resource ", d[0]);
  const uint32_t busy = decoder_.wait_idle(d[1] & kBusyWaitFlagWait) ? 0 : 1;
  reply(1, VtestCmd::RESOURCE_BUSY_WAIT, &busy, sizeof busy);
}

void Connection::transfer2(bool put) {
  const char* what = put ? "TRANSFER_PUT2" : "TRANSFER_GET2";
  require_version2(what);
  uint32_t f[kTransfer2Dwords];
  read_payload(f, sizeof f);
  const VtestResource& r = resources_.get(f[0], what);
  if (!r.shm) protocol_error(what, ": resource ", f[0], " has no backing store");
  // data_size (f[8]) is the client's estimate and is not reliable (doc 2.4): the copy is
  // derived from the box and the level layout.
  const TransferGeometry g = transfer_geometry(r.desc, r.layout, f[1], f + 2, 0, 0, what);
  check_span(f[9], g.span(), r.shm->size(), what);
  uint8_t* guest = r.shm->data() + f[9];
  if (put)
    return decoder_.report_failure(what,
                                   upload_box(decoder_.transfer_context(), r, f[1], g, guest));
  decoder_.sync_for_transfer();
  decoder_.report_failure(what, download_box(decoder_.transfer_context(), r, f[1], g, guest));
}

void Connection::transfer_v0(uint32_t length, bool put) {
  const char* what = put ? "TRANSFER_PUT" : "TRANSFER_GET";
  // TRANSFER_PUT's length also counts its data dwords; TRANSFER_GET's is exact.
  if (put ? length < kTransferDwords : length != kTransferDwords)
    protocol_error("length field ", length);
  uint32_t f[kTransferDwords];
  read_payload(f, sizeof f);
  const uint32_t data_size = f[10];
  if (data_size > options_.limits.max_inline_transfer_bytes)
    protocol_error(what, " of ", data_size, " bytes (limit ",
                   options_.limits.max_inline_transfer_bytes, ")");
  const VtestResource& r = resources_.get(f[0], what);
  // Mesa's vtest_get_transfer_size: the given strides count only for more than one row
  // (layer); otherwise rows (layers) are packed.
  const uint32_t w = f[7], h = f[8], d = f[9];
  const uint64_t row = uint64_t(w) * r.layout.block_bytes();
  const uint64_t stride = (h > 1 && f[2]) ? f[2] : row;
  const uint64_t layer = (d > 1 && f[3]) ? f[3] : stride * h;
  if (stride > UINT32_MAX || layer > UINT32_MAX) protocol_error(what, ": stride too large");
  const TransferGeometry g =
      transfer_geometry(r.desc, r.layout, f[1], f + 4, uint32_t(stride), uint32_t(layer), what);
  check_span(0, g.span(), data_size, what);
  std::vector<uint8_t> data(data_size);
  if (put) {
    read_payload(data.data(), data.size());
    return decoder_.report_failure(
        what, upload_box(decoder_.transfer_context(), r, f[1], g, data.data()));
  }
  decoder_.sync_for_transfer();
  decoder_.report_failure(what, download_box(decoder_.transfer_context(), r, f[1], g, data.data()));
  // The reply is exactly data_size raw bytes, no header (doc 2.4).
  if (!transport_.write(data.data(), data.size()))
    protocol_error("cannot send the reply: ", transport_.error());
}

void Connection::submit(uint32_t length) {
  if (length > options_.limits.max_submit_dwords)
    protocol_error("SUBMIT_CMD of ", length, " dwords (limit ", options_.limits.max_submit_dwords,
                   ")");
  std::vector<uint32_t> dwords(length);
  read_payload(dwords.data(), 4 * size_t(length));
  decoder_.submit(dwords.data(), dwords.size());
}

}  // namespace clpipe::frontend::vtest
