// Socket and in-memory transports (see transport.h).
#include "vtest/transport.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

namespace clpipe::frontend::vtest {

SocketTransport::~SocketTransport() {
  ::close(fd_);
}

size_t SocketTransport::read(void* dst, size_t n) {
  size_t got = 0;
  error_.clear();
  timed_out_ = false;
  while (got < n) {
    if (read_timeout_ms_ > 0) {
      pollfd p{fd_, POLLIN, 0};
      const int ready = ::poll(&p, 1, int(std::min<uint32_t>(read_timeout_ms_, INT32_MAX)));
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) {
        timed_out_ = true;
        error_ = "no data for " + std::to_string(read_timeout_ms_) + " ms";
        break;
      }
    }
    const ssize_t r = ::recv(fd_, static_cast<uint8_t*>(dst) + got, n - got, 0);
    if (r > 0) {
      got += size_t(r);
    } else if (r == 0) {
      break;  // the client closed the connection
    } else if (errno != EINTR) {
      error_ = std::string("recv: ") + std::strerror(errno);
      break;
    }
  }
  return got;
}

bool SocketTransport::write(const void* src, size_t n) {
  size_t done = 0;
  error_.clear();
  while (done < n) {
    // MSG_NOSIGNAL: a vanished client is an error for this connection, not a SIGPIPE.
    const ssize_t r = ::send(fd_, static_cast<const uint8_t*>(src) + done, n - done, MSG_NOSIGNAL);
    if (r > 0) {
      done += size_t(r);
    } else if (r < 0 && errno == EINTR) {
      continue;
    } else {
      error_ = std::string("send: ") + (r < 0 ? std::strerror(errno) : "no progress");
      return false;
    }
  }
  return true;
}

bool SocketTransport::send_fd(int fd) {
  char byte = 0;
  iovec iov{&byte, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  cmsghdr* c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &fd, sizeof(int));
  for (;;) {
    const ssize_t r = ::sendmsg(fd_, &msg, MSG_NOSIGNAL);
    if (r == 1) return true;
    if (r < 0 && errno == EINTR) continue;
    error_ = std::string("sendmsg: ") + (r < 0 ? std::strerror(errno) : "short write");
    return false;
  }
}

MemoryTransport::~MemoryTransport() {
  for (int fd : fds_)
    ::close(fd);
}

std::vector<uint8_t> MemoryTransport::peek(size_t n) const {
  n = std::min(n, input_.size());
  return std::vector<uint8_t>(input_.begin(), input_.begin() + long(n));
}

size_t MemoryTransport::read(void* dst, size_t n) {
  const size_t got = std::min(n, input_.size());
  std::copy(input_.begin(), input_.begin() + long(got), static_cast<uint8_t*>(dst));
  input_.erase(input_.begin(), input_.begin() + long(got));
  error_.clear();
  return got;
}

bool MemoryTransport::write(const void* src, size_t n) {
  const auto* p = static_cast<const uint8_t*>(src);
  output_.insert(output_.end(), p, p + n);
  return true;
}

bool MemoryTransport::send_fd(int fd) {
  if (!pass_fds_) {
    error_ = "this transport cannot pass file descriptors";
    return false;
  }
  const int copy = ::dup(fd);
  if (copy < 0) {
    error_ = std::string("dup: ") + std::strerror(errno);
    return false;
  }
  fds_.push_back(copy);
  output_.push_back(0);
  return true;
}

std::vector<int> MemoryTransport::take_fds() {
  std::vector<int> out;
  out.swap(fds_);
  return out;
}

}  // namespace clpipe::frontend::vtest
