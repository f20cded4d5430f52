// BuilderPool (clpipe/screen.h): builder children that the processes a server forks
// share. The pool's process owns the listening socket and the children; the children
// take its connections (program_builder_main's --pool), and ProgramBuilder connects
// (ProgramBuilder::connect_pool).
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "runtime/program_builder.h"

extern char** environ;

namespace clpipe {

namespace {

int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A child that ends within this long of its start did not get to serve (no device, no
// context, a broken executable).
constexpr int64_t kQuickFailureMs = 1000;
constexpr unsigned kQuickFailuresToGiveUp = 3;

}  // namespace

Result<std::unique_ptr<BuilderPool>> BuilderPool::start(const ProgramBuilderOptions& options,
                                                        const std::string& device,
                                                        unsigned children) {
  if (options.executable.empty() || children == 0)
    return Status(ErrorCode::kInvalidArgument, "a builder pool needs an executable and children");
  std::unique_ptr<BuilderPool> pool(new BuilderPool);
  pool->options_ = options;
  pool->options_.pool_address.clear();
  pool->device_ = device;
  static std::atomic<unsigned> pools{0};
  pool->address_ = "@clpipe-builders-" + std::to_string(::getpid()) + "-" + std::to_string(++pools);
  sockaddr_un addr;
  unsigned length = 0;
  if (!runtime::pool_socket_address(pool->address_, &addr, &length))
    return Status(ErrorCode::kInvalidArgument, "the builder pool's address is too long");
  pool->listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (pool->listen_fd_ < 0 ||
      ::bind(pool->listen_fd_, reinterpret_cast<const sockaddr*>(&addr), length) != 0 ||
      ::listen(pool->listen_fd_, 128) != 0) {
    return Status(ErrorCode::kDeviceError,
                  std::string("the builder pool cannot listen: ") + std::strerror(errno));
  }
  for (unsigned i = 0; i < children; ++i) {
    if (const Status s = pool->spawn(); !s) return s;
  }
  return pool;
}

Status BuilderPool::spawn() {
  std::vector<std::string> args = {options_.executable,
                                   "--build-program",
                                   "--pool",
                                   "--device=" + device_,
                                   "--parent=" + std::to_string(::getpid()),
                                   "--memory-mb=" + std::to_string(options_.memory_bytes >> 20)};
  std::vector<char*> argv;
  for (std::string& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, 2, 1);
  posix_spawn_file_actions_adddup2(&actions, listen_fd_, 3);  // ProgramBuilder's kChannelFd
  posix_spawn_file_actions_addclosefrom_np(&actions, 4);
  pid_t pid = -1;
  const int err =
      posix_spawn(&pid, options_.executable.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) {
    return Status(ErrorCode::kDeviceError, "the builder pool cannot start \"" +
                                               options_.executable + "\": " + std::strerror(err));
  }
  pids_.push_back(pid);
  started_ms_.push_back(steady_ms());
  ++started_;
  return Status::ok();
}

bool BuilderPool::child_ended(int pid, int wait_status) {
  size_t i = 0;
  while (i < pids_.size() && pids_[i] != pid)
    ++i;
  if (i == pids_.size()) return false;
  const bool quick = steady_ms() - started_ms_[i] < kQuickFailureMs &&
                     !(WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0);
  pids_.erase(pids_.begin() + std::ptrdiff_t(i));
  started_ms_.erase(started_ms_.begin() + std::ptrdiff_t(i));
  quick_failures_ = quick ? quick_failures_ + 1 : 0;
  if (listen_fd_ < 0) return true;
  if (quick_failures_ >= kQuickFailuresToGiveUp || !spawn()) {
    // Connections are refused from now on (once the children still running have ended):
    // their screens build with children of their own.
    ::close(listen_fd_);
    listen_fd_ = -1;
  }
  return true;
}

void BuilderPool::forget_in_fork() {
  if (listen_fd_ >= 0) ::close(listen_fd_);
  listen_fd_ = -1;
  pids_.clear();
  started_ms_.clear();
}

void BuilderPool::reap() {
  const std::vector<int> pids = pids_;
  for (int pid : pids) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) child_ended(pid, status);
  }
}

BuilderPool::~BuilderPool() {
  if (listen_fd_ >= 0) ::close(listen_fd_);
  for (int pid : pids_)
    ::kill(pid, SIGTERM);
  const int64_t start = steady_ms();
  for (int pid : pids_) {
    int status = 0;
    for (;;) {
      const pid_t r = ::waitpid(pid, &status, WNOHANG);
      if (r != 0) break;  // reaped, or not ours to reap any more (the owner reaped it)
      if (steady_ms() - start > 2000) {
        ::kill(pid, SIGKILL);
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
}

}  // namespace clpipe
