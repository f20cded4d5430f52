// Program builds in child processes, under a time and memory budget
// (ProgramBuilderOptions in clpipe/screen.h says why).
//
// A builder child is `<executable> --build-program --device-index=N --memory-mb=M` with
// a socket to its parent as descriptor 3. It selects device N of enumerate_devices()
// (the order is the same in every process of the machine; the name is checked too) and
// serves builds one after another: for each request it replies with the device binary,
// which the parent loads with clCreateProgramWithBinary, or with the build log.
//   request: u64 size, options | u64 size, source | u64 size, mode ("binary", "built" or
//            "primed") | u64 size, disk entry path (modes "built", "primed"; may be empty)
//   reply:   u32 kind (Reply in program_builder_wire.h) | u64 size, bytes
// A child is reused because starting one costs ~0.5 s and its first build ~1 s more
// (PoCL parses its kernel library once per process). It ends by itself after
// kIdleExitMs without a request, so an idle client does not keep its compiler's
// memory, after 64 builds (it keeps the programs it built: the .cpp says why), and at
// once when its parent's end of the socket closes, so a build whose requester has gone
// is abandoned. Past its budget (ProgramBuilderOptions) the parent kills it.
//
// With ProgramBuilderOptions::pool_address, builds go first to a child of a BuilderPool
// (`--build-program --pool`): the pool's process started it with the pool's listening
// socket as descriptor 3; it takes one connection at a time, opens it with a hello (its
// pid, which the requester's processor-time budget reads, and its device) and serves the
// same requests on it. A requester past its budget closes the connection: the pool child
// ends as a child whose parent has gone does, and its pool starts another.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "clpipe/screen.h"

struct sockaddr_un;

namespace clpipe::runtime {

class ProgramBuilder {
 public:
  ProgramBuilder(ProgramBuilderOptions options, size_t device_index, std::string device_name);
  ~ProgramBuilder();
  ProgramBuilder(const ProgramBuilder&) = delete;
  ProgramBuilder& operator=(const ProgramBuilder&) = delete;

  // The device binary of `source` built with `options` (the full option string). Throws
  // Error(kCompileError) with the build log when the source does not build, and with
  // the reason when the child was stopped (past its time budget) or failed (past its
  // memory budget, or it could not start). Thread-safe: concurrent builds use separate
  // children.
  std::vector<unsigned char> build(const std::string& source, const std::string& options);
  // The same build, for a device whose compiler keeps what it built in a cache of its own
  // (Device::caches_builds), so that the caller's build of the source is then cheap: the
  // child replies once the source has built, without a binary, and only then reads the
  // binary and writes it as the program-cache entry `entry_path` (none when empty: then
  // it reads no binary). On a device that generates code late
  // (Device::generates_code_late), reading the binary costs a code generation the
  // caller's launches do not use: here it runs in the child, beside the caller's first
  // frames. An entry being written when the child is stopped (~ProgramBuilder) is lost
  // and built again next time. The write has no budget of its own: the processor time it
  // takes while a next request waits counts toward that request's budget (the caller
  // generates code for the same program at its first launch, unbudgeted, so a write that
  // runs away runs away there too).
  void build_only(const std::string& source, const std::string& options,
                  const std::string& entry_path);
  // build_only for a program that is built in the background and then taken into use at
  // once (TieredProgram, TileVariants): the child also generates the code of the
  // program's kernels for launches of the given 1-D local sizes, with a zero offset and
  // fewer than 65535 work-items per dimension, and replies only once that code and the
  // program-cache entry `entry_path` (the binary; none when empty) are written. On PoCL that code
  // is a work-group function specialised to a local size, which its first launch would otherwise
  // generate on the launching thread, holding PoCL's process-wide lock on loaded kernels (1-2 s for
  // an optimised tile program, during which no other launch of the process starts: the stall of a
  // frame when an optimised program comes in). PoCL generates it when the program's binary is read,
  // for the sizes its $POCL_BINARY_SPECIALIZE_WG names, and keeps it in its own cache, where this
  // process's launches of the same build find it. PoCL reads that variable once per process, so
  // children are started with it per list of sizes and serve only requests for that list.
  void build_primed(const std::string& source, const std::string& options,
                    const std::string& entry_path, const std::vector<size_t>& local_sizes);

  // Children started so far (for tests: a reused child is not counted again; pool
  // children are not this builder's).
  uint64_t children_started() const;
  // Builds that a pool child (ProgramBuilderOptions::pool_address) served (tests).
  uint64_t pool_builds() const;

  static constexpr int kIdleExitMs = 10000;

 private:
  struct Child;
  // A child whose environment has $POCL_BINARY_SPECIALIZE_WG = `specialise` (unless
  // empty).
  std::unique_ptr<Child> spawn(const std::string& specialise);
  // A connection to a pool child that has taken it, or null when there is no pool, it
  // has closed its address or serves another device. Waits while the pool's children are
  // busy with other builds; past `deadline` (the build's wall budget) it throws.
  std::unique_ptr<Child> connect_pool(std::chrono::steady_clock::time_point deadline);
  // Serves one request (mode "binary", "built" or "primed") on a child started with
  // `specialise`; the reply's body.
  std::string run(const std::string& options, const std::string& source, const std::string& mode,
                  const std::string& entry_path, const std::string& specialise = {});

  ProgramBuilderOptions options_;
  size_t device_index_;
  std::string device_name_;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Child>> idle_;
  uint64_t started_ = 0;
  uint64_t pool_builds_ = 0;
  bool pool_usable_ = true;  // false once the pool has refused or closed its address
};

// A BuilderPool's address ("@name": Linux's abstract socket namespace; else a path) as a
// socket address; false when it does not fit.
bool pool_socket_address(const std::string& address, struct sockaddr_un* out, unsigned* length);

}  // namespace clpipe::runtime
