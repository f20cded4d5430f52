// Compiled OpenCL programs, cached in memory and on disk.
//
// Producers: every part of clpipe that needs device code asks get(source, options).
// Levels:
//  1. memory: SHA-256(source, options) -> built cl::Program, bounded LRU, shared by all
//     contexts of the Screen (kernels are created per context from it).
//  2. disk:   <dir>/<SHA-256(device identity, options, source)>.clbin holding the
//     device binary with a header (magic, version, kind, payload size, payload SHA-256,
//     key), or, with no payload, a marker: the device compiler's own cache holds the
//     build (below). An entry whose header, checksum or binary build fails is rebuilt
//     from source and rewritten; it is never trusted.
//  3. system: the same entries in a folder of the machine's, read only, where the
//     user's folder lacks them: the Debian package's install warms /var/cache/clpipe
//     (cmake/deb/postinst), so that a user's first GL programs do not each build the
//     programs that all share (issue 15). Its markers are skipped: they name builds in
//     the device compiler's cache of the install, not the user's. A program built
//     because its system entry failed is written to the user's folder.
// Builds run in this process, or with ProgramBuilderOptions::executable set in a builder
// child under a budget (runtime/program_builder.h). On a device that generates code late
// and caches its builds (Device: PoCL), a child only builds (ProgramBuilder::build_only)
// and this process builds the same source from the compiler's cache (~0.1 s); the child
// writes the binary entry after it has replied, since on PoCL reading the binary
// generates a work-group function that no launch uses (0.2-2 s of processor time). For a
// stand-in program (ProgramHints) the entry is a marker instead, and no binary is read:
// stand-ins are most of the builds of short programs such as tests, and are rarely
// loaded again (a shader drawn long enough is optimised, and its optimised program, with
// a binary entry, is what later runs load), where loading a marker costs ~40 ms more than
// a binary (a build from the compiler's cache, here). Where that cache lost the program,
// the marker's build is a whole one, in this process, without the child's budget (the
// source built within it).
// Thread-safe; a program requested by two threads at once is built once, and by two
// processes sharing the disk cache at once, built by one while the other waits for its
// entry (EntryLock, program_cache.cpp).
#pragma once

#include <cstdint>
#include <future>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "clpipe/screen.h"
#include "runtime/cl.h"
#include "runtime/device.h"
#include "runtime/program_builder.h"

namespace clpipe::runtime {

struct Program {
  enum class Origin { kSource, kDisk };
  cl::Program program;
  Origin origin = Origin::kSource;
  double build_ms = 0;  // wall time of the build (from source or binary)
};
using ProgramRef = std::shared_ptr<const Program>;

struct ProgramCacheStats {
  uint64_t memory_hits = 0;
  uint64_t disk_hits = 0;
  uint64_t system_hits = 0;       // of those, from the system folder
  uint64_t builds = 0;            // from source
  uint64_t child_builds = 0;      // of those, built by a builder child
  uint64_t child_entries = 0;     // of those, the child wrote the disk entry (build_only)
  uint64_t children_started = 0;  // builder children spawned
  uint64_t pool_builds = 0;       // child builds served by a builder pool's children
  uint64_t disk_rejects = 0;      // disk entries found corrupt or unusable, then rebuilt
  uint64_t entry_waits = 0;       // builds that waited for another process's of the entry
  uint64_t evictions = 0;
};

// What get() may know of a program besides its source and options.
struct ProgramHints {
  // 1-D local sizes its kernels will be launched with first, for a program built in the
  // background and used at once: where a builder child builds for a device that
  // generates code late, a build from source also generates their code before it returns
  // (ProgramBuilder::build_primed).
  std::vector<size_t> launch_sizes;
  // A stand-in, drawn with until a better build of the same shader replaces it
  // (TieredProgram's quick build), so rarely loaded again but by a run of the same
  // program: where a builder child builds for a device that caches its builds, its disk
  // entry is a marker, and no binary is read for it (the file comment says why).
  bool stand_in = false;
};

// Writes `payload` (a device binary) as the disk entry at `path` (ProgramCache::disk_path),
// through a temporary file, so that readers never see a part of it; false when it could
// not be written (the cache is an optimisation, not an error). Makes the folder.
bool write_program_entry(const std::string& path, const std::vector<unsigned char>& payload);
// Writes the marker entry at `path` (above) the same way.
bool write_program_marker(const std::string& path);

class ProgramCache {
 public:
  // disk_dir empty = memory only. The folder is created on first write. system_dir:
  // the read-only folder of level 3; empty = none.
  ProgramCache(const Device& device, std::string disk_dir, size_t memory_capacity = 512,
               ProgramBuilderOptions builder = {}, std::string system_dir = {});
  // Rewrites the binary entries if rewrite_entries_at_end() was called (below).
  ~ProgramCache();

  // For a cache warm-up (clpipe-vtest --warm-cache): when this cache ends, it writes the
  // binary entries in disk_dir that it wrote or loaded again, from a new build of their
  // sources, if that differs. On a device that generates code at a kernel's first launch
  // of a shape and caches it with the build (PoCL: a work-group function per local size),
  // the entry then holds the code the warm-up's launches generated, so that a process
  // with an empty compiler cache (a user of the system folder) does not generate it again
  // (the first replay after a package install took 19 s instead of 0.4 s). The last cache
  // to end that used a program saw every launch of the others that used it, as those
  // ended before.
  void rewrite_entries_at_end();

  // A built program for this source and these options (added after -cl-std=CL1.2).
  // Throws Error(kCompileError) with the build log when the source does not build.
  // `hints` change how it is built and kept, never what it does.
  ProgramRef get(const std::string& source, const std::string& options = {},
                 const ProgramHints& hints = {});

  // Whether get(source, options) would find the program without building it from source:
  // in memory, or as a disk entry (not yet checked: a corrupt one is rebuilt by get()),
  // or as a system folder's binary entry.
  bool contains(const std::string& source, const std::string& options = {}) const;

  ProgramCacheStats stats() const;
  const std::string& disk_dir() const { return disk_dir_; }
  const std::string& system_dir() const { return system_dir_; }
  // Path of the disk entry that get(source, options) would use.
  std::string disk_path(const std::string& source, const std::string& options) const;

  // $CLPIPE_CACHE_DIR, else $XDG_CACHE_HOME/clpipe, else $HOME/.cache/clpipe, else "".
  static std::string default_disk_dir();
  // $CLPIPE_SYSTEM_CACHE_DIR where set (set and empty: none), else the folder the build
  // was configured with (CMake's CLPIPE_SYSTEM_CACHE_DIR, /var/cache/clpipe).
  static std::string default_system_dir();

 private:
  ProgramRef build(const std::string& source, const std::string& options,
                   const ProgramHints& hints);
  // The entry at `path`, built; nullptr when it is missing or fails (a reject). Where
  // `system` (level 3), a marker counts as missing.
  ProgramRef load_from_disk(const std::string& path, const std::string& source,
                            const std::string& options, bool system = false);
  // The file name of (source, options)'s entry in either folder.
  std::string entry_name(const std::string& source, const std::string& options) const;
  // A built program from a device binary; nullptr when the device refuses it.
  // Builds `binary` with the options of its source build (full_options): some set how
  // its kernels run (PoCL: -cl-denorms-are-zero).
  std::shared_ptr<Program> from_binary(const std::vector<unsigned char>& binary,
                                       const std::string& opts) const;
  std::string full_options(const std::string& options) const;
  // A program built from source in this process; throws the build log.
  cl::Program build_here(const std::string& source, const std::string& opts) const;

  const Device& device_;
  std::string disk_dir_;
  std::string system_dir_;  // empty, or another folder than disk_dir_
  size_t capacity_;
  std::unique_ptr<ProgramBuilder> builder_;  // null: builds in this process

  mutable std::mutex mutex_;
  // key -> future of the program; lru_ holds keys, most recent first.
  std::map<std::string, std::pair<std::shared_future<ProgramRef>, std::list<std::string>::iterator>>
      entries_;
  std::list<std::string> lru_;
  ProgramCacheStats stats_;
  // rewrite_entries_at_end(): whether, and the entries to rewrite (path -> source, options).
  bool rewrite_at_end_ = false;
  std::map<std::string, std::pair<std::string, std::string>> rewrites_;
};

}  // namespace clpipe::runtime
