// Logging of the vtest server: one line per event on stderr (or a sink set by tests).
//
// Every message about a client starts with its label ("client 3 pid 4711 'glxgears'"),
// so protocol errors name the client and, from the decoders, the command.
#pragma once

#include <functional>
#include <sstream>
#include <string>

namespace clpipe::frontend::vtest {

enum class LogLevel { kError = 0, kWarning = 1, kInfo = 2, kDebug = 3 };

using LogSink = std::function<void(LogLevel, const std::string&)>;

// Messages above `level` are dropped. Default: kInfo.
void set_log_level(LogLevel level);
LogLevel log_level();
// Replaces the stderr writer (tests record messages); an empty sink restores stderr.
void set_log_sink(LogSink sink);
void log_message(LogLevel level, const std::string& message);

template <typename... Parts>
void log_at(LogLevel level, const Parts&... parts) {
  if (level > log_level()) return;
  std::ostringstream os;
  (os << ... << parts);
  log_message(level, os.str());
}

}  // namespace clpipe::frontend::vtest
