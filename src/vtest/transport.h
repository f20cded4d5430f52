// Byte transports of a vtest connection: a unix stream socket (the real server, with fd
// passing) and an in-memory pipe (capture replay, fuzzing, tests).
//
// The connection reads requests and writes replies through this interface only, so the
// same protocol code serves sockets and recorded streams.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace clpipe::frontend::vtest {

class Transport {
 public:
  virtual ~Transport() = default;
  // Reads up to n bytes, blocking until n arrived or the stream ended; returns the count.
  virtual size_t read(void* dst, size_t n) = 0;
  virtual bool write(const void* src, size_t n) = 0;
  // Sends one byte (0) carrying `fd` in an SCM_RIGHTS message (doc 2.4).
  virtual bool send_fd(int fd) = 0;
  virtual bool can_pass_fds() const = 0;
  // From now on, read() gives up when no byte arrives for `ms` milliseconds (0: waits
  // for ever), with timed_out() set. Streams that never wait ignore it.
  virtual void set_read_timeout(uint32_t ms) { (void)ms; }
  // Why the last read or write stopped short ("" for an orderly end of stream).
  const std::string& error() const { return error_; }
  // Whether the last read stopped short because of the read timeout.
  bool timed_out() const { return timed_out_; }

 protected:
  std::string error_;
  bool timed_out_ = false;
};

// A connected unix stream socket; owns the descriptor.
class SocketTransport : public Transport {
 public:
  explicit SocketTransport(int fd) : fd_(fd) {}
  ~SocketTransport() override;
  SocketTransport(const SocketTransport&) = delete;
  SocketTransport& operator=(const SocketTransport&) = delete;

  size_t read(void* dst, size_t n) override;
  bool write(const void* src, size_t n) override;
  bool send_fd(int fd) override;
  bool can_pass_fds() const override { return true; }
  void set_read_timeout(uint32_t ms) override { read_timeout_ms_ = ms; }

 private:
  int fd_;
  uint32_t read_timeout_ms_ = 0;
};

// Input pushed by the test or replayer, output collected; fds sent are duplicated and
// kept (the "client side" of the shared memory).
class MemoryTransport : public Transport {
 public:
  explicit MemoryTransport(bool pass_fds = true) : pass_fds_(pass_fds) {}
  ~MemoryTransport() override;

  void push(const uint8_t* data, size_t n) { input_.insert(input_.end(), data, data + n); }
  size_t available() const { return input_.size(); }
  // Peeks at up to n buffered input bytes.
  std::vector<uint8_t> peek(size_t n) const;

  size_t read(void* dst, size_t n) override;
  bool write(const void* src, size_t n) override;
  bool send_fd(int fd) override;
  bool can_pass_fds() const override { return pass_fds_; }

  const std::vector<uint8_t>& output() const { return output_; }
  void clear_output() { output_.clear(); }
  // The fds received so far (owned by the transport until taken).
  std::vector<int> take_fds();

 private:
  bool pass_fds_;
  std::deque<uint8_t> input_;
  std::vector<uint8_t> output_;
  std::vector<int> fds_;
};

}  // namespace clpipe::frontend::vtest
