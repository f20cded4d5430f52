// The server's log (see log.h).
#include "vtest/log.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <mutex>

namespace clpipe::frontend::vtest {
namespace {

std::atomic<int> g_level{int(LogLevel::kInfo)};
std::mutex g_mutex;

LogSink& sink() {
  static LogSink s;
  return s;
}

const char* level_name(LogLevel l) {
  switch (l) {
    case LogLevel::kError:
      return "error";
    case LogLevel::kWarning:
      return "warning";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kDebug:
      return "debug";
  }
  return "?";
}

}  // namespace

void set_log_level(LogLevel level) {
  g_level = int(level);
}

LogLevel log_level() {
  return LogLevel(g_level.load());
}

void set_log_sink(LogSink s) {
  std::lock_guard<std::mutex> lock(g_mutex);
  sink() = std::move(s);
}

void log_message(LogLevel level, const std::string& message) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (sink()) {
    sink()(level, message);
    return;
  }
  // One write per line so lines of forked children do not interleave.
  const std::string line = "clpipe-vtest[" + std::to_string(::getpid()) + "] " + level_name(level) +
                           ": " + message + "\n";
  (void)!::write(STDERR_FILENO, line.data(), line.size());
}

}  // namespace clpipe::frontend::vtest
