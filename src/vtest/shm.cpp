// memfd-backed shared memory (see shm.h).
#include "vtest/shm.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace clpipe::frontend::vtest {
namespace {

std::string errno_text(const char* call) {
  return std::string(call) + ": " + std::strerror(errno);
}

}  // namespace

bool SharedMemory::memfd_available() {
  const int fd = ::memfd_create("clpipe-vtest-probe", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

Result<std::unique_ptr<SharedMemory>> SharedMemory::create(size_t size, const std::string& name) {
  if (size == 0) return Status(ErrorCode::kInvalidArgument, "shared memory of 0 bytes");
  const int fd = ::memfd_create(name.c_str(), MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return Status(ErrorCode::kOutOfMemory, errno_text("memfd_create"));
  if (::ftruncate(fd, off_t(size)) != 0) {
    Status s(ErrorCode::kOutOfMemory, errno_text("ftruncate"));
    ::close(fd);
    return s;
  }
  // The client gets this fd: forbid resizing so our mapping can never fault (SIGBUS).
  if (::fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
    Status s(ErrorCode::kDeviceError, errno_text("fcntl(F_ADD_SEALS)"));
    ::close(fd);
    return s;
  }
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    Status s(ErrorCode::kOutOfMemory, errno_text("mmap"));
    ::close(fd);
    return s;
  }
  return std::unique_ptr<SharedMemory>(new SharedMemory(fd, static_cast<uint8_t*>(p), size));
}

SharedMemory::~SharedMemory() {
  ::munmap(data_, size_);
  ::close(fd_);
}

}  // namespace clpipe::frontend::vtest
