// Shared memory of one resource: the guest backing store of doc 3.1, a sealed memfd
// mapped by the server and (after the fd is sent with SCM_RIGHTS) by the client.
//
// Created by the resource table for RESOURCE_CREATE2; read by uploads (TRANSFER3D,
// TRANSFER_PUT2), written by readbacks (TRANSFER_GET2) and query results. The memfd is
// sealed against shrinking before the client sees it, so a client cannot make the
// server's mapping fault by truncating the file. The contents may change under the server
// at any time (the client writes them): nothing read from here is ever used as a length,
// an offset or a handle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "clpipe/status.h"

namespace clpipe::frontend::vtest {

class SharedMemory {
 public:
  // A sealed memfd of `size` bytes (> 0), mapped read-write, zero-filled.
  static Result<std::unique_ptr<SharedMemory>> create(size_t size, const std::string& name);
  // Whether this kernel offers memfd_create with sealing (protocol version 2 needs it).
  static bool memfd_available();

  ~SharedMemory();
  SharedMemory(const SharedMemory&) = delete;
  SharedMemory& operator=(const SharedMemory&) = delete;

  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  // The memfd; stays owned by this object (send a copy with SCM_RIGHTS).
  int fd() const { return fd_; }

 private:
  SharedMemory(int fd, uint8_t* data, size_t size) : fd_(fd), data_(data), size_(size) {}
  int fd_;
  uint8_t* data_;
  size_t size_;
};

}  // namespace clpipe::frontend::vtest
