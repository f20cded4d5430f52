// clpipe-vtest --warm-cache (see warm_up.h).
#include "warm_up.h"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "base/embedded_sources.h"
#include "vtest/capture.h"

namespace clpipe::vtest_tool {

// Generated from warm-up/*.vtcap.gz at build time (clpipe_embed_files).
const std::vector<kernels::EmbeddedSource>& warm_up_sessions();

namespace {

namespace vt = frontend::vtest;
using Clock = std::chrono::steady_clock;

// What a worker sends its parent after each session, through a pipe: fixed size, so a
// read of one is whole (a pipe's write of at most PIPE_BUF bytes is atomic).
struct Report {
  uint32_t session = 0;       // index into warm_up_sessions()
  uint32_t ran = 0;           // 1: replayed to its end without a protocol error
  uint32_t api_failures = 0;  // commands clpipe refused (logged, as for a client)
  uint32_t ms = 0;
  uint64_t built = 0;
  uint64_t from_disk = 0;
  char error[200] = {};
};
static_assert(sizeof(Report) <= PIPE_BUF, "a report must be written atomically");

bool write_report(int fd, const Report& r) {
  ssize_t w;
  do {
    w = ::write(fd, &r, sizeof r);
  } while (w < 0 && errno == EINTR);
  return w == ssize_t(sizeof r);
}

Report replay_session(uint32_t index, const vt::ScreenFactory& factory,
                      const WarmUpOptions& options) {
  const kernels::EmbeddedSource& s = warm_up_sessions()[index];
  Report r;
  r.session = index;
  const Clock::time_point start = Clock::now();
  auto capture = vt::parse_capture(s.name, reinterpret_cast<const uint8_t*>(s.data), s.size);
  if (!capture) {
    std::snprintf(r.error, sizeof r.error, "%s", capture.status().to_string().c_str());
    return r;
  }
  vt::ReplayOptions replay;
  replay.command_timeout_ms = options.command_timeout_ms;
  const CountedReplay run = replay_counting(capture.value(), factory, replay);
  for (const vt::ConnectionReplay& c : run.result.connections) {
    r.api_failures += uint32_t(c.api_failures);
    if (!c.error.empty() && !r.error[0])
      std::snprintf(r.error, sizeof r.error, "%s", c.error.c_str());
  }
  r.ran = !run.result.connections.empty() && !r.error[0];
  r.built = run.programs.built;
  r.from_disk = run.programs.from_disk;
  r.ms =
      uint32_t(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count());
  return r;
}

// A worker process: replays sessions job, job + jobs, ... and reports each to `fd`.
[[noreturn]] void worker(unsigned job, const vt::ScreenFactory& factory,
                         const WarmUpOptions& options, int fd) {
  // The interpreter programs optimised; the sessions' own shaders are no other program's:
  // their optimised programs and tile variants would cost build time and be loaded by
  // nobody (ProgramTierMode::kWarmUp).
  ::setenv("CLPIPE_QUICK_PROGRAMS", "warm-up", 1);
  const size_t n = warm_up_sessions().size();
  for (size_t i = job; i < n; i += options.jobs) {
    Report r;
    try {
      r = replay_session(uint32_t(i), factory, options);
    } catch (const std::exception& e) {
      r.session = uint32_t(i);
      std::snprintf(r.error, sizeof r.error, "%s", e.what());
    }
    if (!write_report(fd, r)) break;
  }
  std::fflush(nullptr);
  ::_exit(0);
}

}  // namespace

CountedReplay replay_counting(const vt::Capture& capture, const vt::ScreenFactory& factory,
                              const vt::ReplayOptions& options) {
  // Each connection's screen, kept to read its program counts after the replay.
  std::vector<std::shared_ptr<Screen>> screens;
  const vt::ScreenFactory counting = [&]() {
    Result<std::shared_ptr<Screen>> screen = factory();
    if (screen) screens.push_back(screen.value());
    return screen;
  };
  CountedReplay run;
  run.result = vt::replay_capture(capture, counting, options);
  for (const std::shared_ptr<Screen>& screen : screens) {
    const ProgramCounts c = screen->program_counts();
    run.programs.built += c.built;
    run.programs.from_disk += c.from_disk;
  }
  return run;
}

int warm_cache(const vt::ScreenFactory& factory, const WarmUpOptions& options) {
  const auto& sessions = warm_up_sessions();
  const unsigned jobs = std::max(1u, std::min(options.jobs, unsigned(sessions.size())));
  WarmUpOptions opts = options;
  opts.jobs = jobs;
  std::printf("clpipe-vtest: warming the program cache %s with %zu sessions, %u at once\n",
              options.cache_dir.c_str(), sessions.size(), jobs);
  std::fflush(stdout);
  const Clock::time_point start = Clock::now();

  struct Worker {
    pid_t pid = -1;
    int fd = -1;
    uint32_t next = 0;  // the session it replays now, while it runs
  };
  std::vector<Worker> workers(jobs);
  // Ends the workers started so far, when the others cannot be.
  auto give_up = [&workers](const char* what) {
    std::perror(what);
    for (const Worker& w : workers) {
      if (w.pid <= 0) continue;
      ::kill(w.pid, SIGKILL);
      ::waitpid(w.pid, nullptr, 0);
    }
    return 1;
  };
  for (unsigned j = 0; j < jobs; ++j) {
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0) return give_up("clpipe-vtest: pipe");
    const pid_t pid = ::fork();
    if (pid < 0) return give_up("clpipe-vtest: fork");
    if (pid == 0) {
      ::close(p[0]);
      worker(j, factory, opts, p[1]);
    }
    ::close(p[1]);
    workers[j] = {pid, p[0], j};
  }

  uint64_t built = 0, from_disk = 0;
  size_t replayed = 0;
  for (;;) {
    std::vector<pollfd> fds;
    std::vector<Worker*> polled;
    for (Worker& w : workers) {
      if (w.fd < 0) continue;
      fds.push_back({w.fd, POLLIN, 0});
      polled.push_back(&w);
    }
    if (fds.empty()) break;
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      return give_up("clpipe-vtest: poll");
    }
    for (size_t k = 0; k < fds.size(); ++k) {
      if (!fds[k].revents) continue;
      Worker& w = *polled[k];
      Report r;
      const ssize_t got = ::read(w.fd, &r, sizeof r);
      if (got < 0 && errno == EINTR) continue;
      if (got == ssize_t(sizeof r) && r.session < sessions.size()) {
        r.error[sizeof r.error - 1] = '\0';
        const char* name = sessions[r.session].name;
        if (r.ran) {
          std::printf("  %-40s %3llu built, %3llu from the cache, %5.1f s%s\n", name,
                      (unsigned long long)r.built, (unsigned long long)r.from_disk, r.ms / 1e3,
                      r.api_failures ? " (some commands refused: see the log)" : "");
          ++replayed;
        } else {
          std::printf("  %-40s failed: %s\n", name, r.error);
        }
        std::fflush(stdout);
        built += r.built;
        from_disk += r.from_disk;
        w.next = r.session + jobs;
        continue;
      }
      // The end of the pipe: the worker has exited, or died replaying session `next`.
      ::close(w.fd);
      w.fd = -1;
      int status = 0;
      while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
      }
      if (w.next < sessions.size()) {
        std::printf(
            "  %-40s failed: its process ended (wait status %d); the sessions after "
            "it in that process were not replayed\n",
            sessions[w.next].name, status);
      }
    }
  }
  const double secs = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf(
      "clpipe-vtest: warm-up: %llu programs built, %llu loaded from the cache; %zu of %zu "
      "sessions replayed in %.1f s\n",
      (unsigned long long)built, (unsigned long long)from_disk, replayed, sessions.size(), secs);
  return replayed == sessions.size() ? 0 : 1;
}

}  // namespace clpipe::vtest_tool
