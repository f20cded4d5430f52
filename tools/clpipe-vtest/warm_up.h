// clpipe-vtest --warm-cache: builds into the program cache the programs that OpenGL
// programs share, so that the first programs run after an install do not each pay for
// them (issue 15). It replays the sessions of warm-up/ (embedded at build time): the
// fixed passes' programs (binning, clears, blits and resolves, readbacks, queries, stream
// output), the shader interpreter's programs of each stage, with and without textures, and
// the multisampled tile programs, the interpreter's optimised. A shader's own programs are
// not worth warming: no other program draws with them.
#pragma once

#include <cstdint>
#include <string>

#include "clpipe/screen.h"
#include "vtest/replay.h"
#include "vtest/screen_factory.h"

namespace clpipe::vtest_tool {

struct WarmUpOptions {
  unsigned jobs = 2;                // replays at once, each in a process of its own
  uint32_t command_timeout_ms = 0;  // as clpipe-vtest --command-timeout
  std::string cache_dir;            // the screens' program cache folder, for the log
};

// A replay (vtest/replay.h) and the programs its connections' screens built and loaded.
struct CountedReplay {
  frontend::vtest::ReplayResult result;
  ProgramCounts programs;
};
CountedReplay replay_counting(const frontend::vtest::Capture& capture,
                              const frontend::vtest::ScreenFactory& factory,
                              const frontend::vtest::ReplayOptions& options);

// Replays every bundled session, prints one line per session and a total line to stdout,
// and returns the process's exit status: 0 when every replay ran to its end, 1 otherwise
// (a replay that fails leaves the others' programs in the cache).
int warm_cache(const frontend::vtest::ScreenFactory& factory, const WarmUpOptions& options);

}  // namespace clpipe::vtest_tool
