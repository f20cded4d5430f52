// Screen: the context-independent part of a device (Gallium's pipe_screen).
//
// A Screen owns the OpenCL context of one device, answers caps and format questions,
// creates resources and contexts, and owns the compiled-program cache shared by its
// contexts. Every method is thread-safe; each Context is used by one thread at a time.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "clpipe/defines.h"
#include "clpipe/format.h"
#include "clpipe/state.h"
#include "clpipe/status.h"

namespace clpipe {

class Context;

// A resource: buffer or texture in clpipe's own layout in one device buffer.
class Resource {
 public:
  virtual ~Resource() = default;
  const ResourceTemplate& info() const { return info_; }
  // Layout of the data: bytes per row / per layer (or 3D slice) of a mip level, and the
  // byte offset of (level, layer 0). A buffer is one row of width0 bytes.
  virtual uint32_t level_row_pitch(unsigned level) const = 0;
  virtual uint64_t level_layer_pitch(unsigned level) const = 0;
  virtual uint64_t level_offset(unsigned level) const = 0;
  virtual uint64_t size_bytes() const = 0;

 protected:
  explicit Resource(const ResourceTemplate& info) : info_(info) {}

 private:
  ResourceTemplate info_;
};

// Signalled when the work flushed before it has finished.
class Fence {
 public:
  virtual ~Fence() = default;
};
using FenceHandle = std::shared_ptr<Fence>;

// One OpenCL device as clpipe-info shows it.
struct DeviceDescription {
  std::string platform_name;
  std::string device_name;
  std::string device_vendor;
  std::string driver_version;
  std::string device_version;
  bool is_gpu = false;
};

// Device memory a screen's buffers may hold: resources, draw scratch, uploads. Past a
// limit, an allocation fails with kOutOfMemory and everything else goes on.
struct MemoryLimits {
  uint64_t screen_bytes = 0;  // this screen's buffers in all; 0 = no limit
  // A budget several screens share, also across processes (a vtest server's clients):
  // `slots` points to slot_count counters in memory they all map; this screen counts its
  // bytes in slots[own_slot], and an allocation fails when the slots together would pass
  // shared_bytes. slots null = none.
  std::atomic<uint64_t>* slots = nullptr;
  uint32_t slot_count = 0, own_slot = 0;
  uint64_t shared_bytes = 0;
};

// Programs built in a separate process, under a budget. OpenCL cannot stop a build, and a
// device compiler may run for minutes or take gigabytes on a hostile shader. With an
// executable set, each program is built by a child process running it, killed past
// timeout_ms of processor time (or four times that in wall time, for a build that stalls:
// a loaded machine does not count against a build) and refused memory past memory_bytes;
// the draw or launch that needed the program then fails with kCompileError, and the
// screen goes on. A child serves several builds and ends with the screen's process, so a
// build whose requester has gone is abandoned.
struct ProgramBuilderOptions {
  // A program whose main() first hands its arguments to program_builder_main (below), as
  // clpipe-vtest does; empty = build in this process, without a budget.
  std::string executable;
  // Processor time; 0 = no time budget. Generous: NVIDIA's compiler spends 65 s of it on
  // a tile program with one texture unit (H100, driver 580), PoCL 1-15 s.
  uint32_t timeout_ms = 300000;
  uint64_t memory_bytes = uint64_t(2) << 30;  // the child's data memory; 0 = no budget
  // BuilderPool::address() of a pool that another process keeps (a vtest server, for the
  // clients it forks): builds go to its children first, so that a screen that lives for
  // one short program does not start a child of its own and load the device compiler
  // again. While all its children are busy, a build waits its turn (within its wall
  // time). Builds the pool cannot take (it serves another device or has closed its
  // address; code generated for given launch sizes) go to this screen's own children.
  std::string pool_address;
};

// The time one thread has waited for builder children, for a watchdog on another thread
// that times that thread's commands: builds have a budget of their own, so a command
// that waits for a slow build is not the runaway device work such a watchdog is for.
// While a Scope lives, the builds its thread asks for are counted in its clock; builds
// on other threads (tile variants built in the background) are not.
class BuildWaitClock {
 public:
  // All waits so far, the one in progress included, in ms. Read from any thread: a read
  // that races with the end of a wait may count that wait twice (a watchdog then sees its
  // command as shorter for one look), but never misses a finished one.
  int64_t waited_ms() const;

  class Scope {
   public:
    explicit Scope(BuildWaitClock& clock);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    BuildWaitClock* previous_;
  };

  // The calling thread's clock, or null (used by the builder).
  static BuildWaitClock* current();
  void begin_wait();
  void end_wait();

 private:
  std::atomic<int64_t> total_ms_{0};
  std::atomic<int64_t> since_ms_{0};  // steady clock at the start of the wait; 0: none
};

// The child's side of ProgramBuilderOptions: returns -1 when argv is not a builder's
// command line (argv[1] is not "--build-program"); else it serves its parent's builds
// and ends the process, without returning.
int program_builder_main(int argc, char** argv);

// Builder children that the processes a server forks share (ProgramBuilderOptions::
// pool_address). A builder child's first build costs PoCL ~0.8 s more than the next ones
// (it parses its kernel library), and starting the child ~0.5 s: a vtest client, a
// process that often lives for one test, paid both for its first new shader. A pool child
// serves one connection at a time and builds on for the next; it ends after 64 builds
// (ProgramBuilder's limit) or when a requester hangs up mid-build (a budget stop), and
// the pool starts another in its place.
class BuilderPool {
 public:
  // Starts `children` children of options.executable (with its memory budget) on the
  // device that `device` selects as ScreenOptions::device does. The caller keeps the
  // pool as long as the processes that use its address.
  static Result<std::unique_ptr<BuilderPool>> start(const ProgramBuilderOptions& options,
                                                    const std::string& device, unsigned children);
  // Ends the children (SIGTERM, SIGKILL after 2 s) and reaps them.
  ~BuilderPool();
  BuilderPool(const BuilderPool&) = delete;
  BuilderPool& operator=(const BuilderPool&) = delete;

  const std::string& address() const { return address_; }
  // In a process forked from the pool's owner (a vtest client): drops this copy of the
  // pool without touching the children, so that the listening socket is the owner's
  // alone and refuses connections once the owner closes it. The object is then empty.
  void forget_in_fork();
  // For an owner that reaps every child of its process (waitpid(-1, ...)): hand each
  // ended pid here. True when it was one of the pool's; the pool starts another, unless
  // children keep failing at start (three in a row within a second of starting): then it
  // closes its address, and the screens using it build with children of their own.
  bool child_ended(int pid, int wait_status);
  // For an owner that reaps only its own children: reaps the pool's that have ended.
  void reap();
  // Children started so far, replacements included (tests).
  uint64_t children_started() const { return started_; }

 private:
  BuilderPool() = default;
  Status spawn();

  ProgramBuilderOptions options_;
  std::string device_;
  std::string address_;
  int listen_fd_ = -1;
  std::vector<int> pids_;
  std::vector<int64_t> started_ms_;  // steady clock at each child's start, by pids_ index
  unsigned quick_failures_ = 0;
  uint64_t started_ = 0;
};

struct ScreenOptions {
  // Substring of the platform or device name; empty = $CLPIPE_DEVICE, else the first
  // GPU, else the first device.
  std::string device;
  // Program cache folder; empty = $CLPIPE_CACHE_DIR, else $XDG_CACHE_HOME/clpipe, else
  // ~/.cache/clpipe. disk_cache = false keeps compiled programs in memory only.
  std::string cache_dir;
  bool disk_cache = true;
  // The machine's read-only program cache, read where cache_dir lacks a program (the
  // Debian package's install warms it); empty = $CLPIPE_SYSTEM_CACHE_DIR where set (set
  // and empty: none), else /var/cache/clpipe (the build's CLPIPE_SYSTEM_CACHE_DIR).
  std::string system_cache_dir;
  // A program cache warm-up's screen (clpipe-vtest --warm-cache): when it ends, its
  // programs' disk entries are written again with the code its draws generated since
  // (runtime/program_cache.h, rewrite_entries_at_end).
  bool warm_up = false;
  ProgramBuilderOptions builder;
};

// The programs a screen's program cache has handed out, by where they came from.
struct ProgramCounts {
  uint64_t built = 0;      // compiled from source (here or by a builder child)
  uint64_t from_disk = 0;  // loaded from the disk cache
};

class Screen {
 public:
  // Selects the device and creates its OpenCL context. Fails with a message listing the
  // devices when none matches the requested name.
  static Result<std::shared_ptr<Screen>> create(const ScreenOptions& options = {});
  // Every OpenCL device of every platform, in selection order.
  static Result<std::vector<DeviceDescription>> list_devices();

  virtual ~Screen() = default;

  virtual std::string get_name() const = 0;           // "clpipe (<device name>)"
  virtual std::string get_vendor() const = 0;         // "clpipe"
  virtual std::string get_device_vendor() const = 0;  // the OpenCL device vendor
  virtual const DeviceDescription& device() const = 0;

  // Caps answer what works today; limits come from the device.
  virtual int get_param(Cap cap) const = 0;
  virtual float get_paramf(CapF cap) const = 0;
  virtual int get_shader_param(ShaderType shader, ShaderCap cap) const = 0;
  // Values of a compute cap (MAX_GRID_SIZE and MAX_BLOCK_SIZE have three, others one).
  virtual std::vector<uint64_t> get_compute_param(ComputeCap cap) const = 0;

  // bind is a Bind::* mask; sample_count 0 or 1 = single-sampled.
  virtual bool is_format_supported(Format format, TextureTarget target, unsigned sample_count,
                                   unsigned storage_sample_count, uint32_t bind) const = 0;
  virtual bool can_create_resource(const ResourceTemplate& templ) const = 0;
  // Position of sample `index` of a `sample_count`-sample pixel (Context::
  // get_sample_position answers the same): for describing the device, as virgl's caps do.
  virtual Status get_sample_position(unsigned sample_count, unsigned index, float out[2]) const = 0;
  // New resources hold zeros.
  virtual Result<ResourceRef> resource_create(const ResourceTemplate& templ) = 0;
  // Drops the caller's reference; the storage goes when queued work no longer uses it.
  void resource_destroy(ResourceRef& res) { res.reset(); }

  virtual Result<std::unique_ptr<Context>> context_create() = 0;

  // Waits up to timeout_ns (0 = poll, UINT64_MAX = forever); kTimeout when not signalled.
  virtual Status fence_finish(const FenceHandle& fence, uint64_t timeout_ns) = 0;
  // Device time in nanoseconds, on the clock of TIMESTAMP queries.
  virtual uint64_t get_timestamp() const = 0;

  // Bytes of device memory this screen's buffers hold now, and the limits on them (its
  // bytes so far count against new shared slots at once).
  virtual uint64_t memory_in_use() const = 0;
  virtual void set_memory_limits(const MemoryLimits& limits) = 0;

  // What the program cache has built and loaded so far (clpipe-vtest --warm-cache reports
  // it, and its test requires a second warm-up to build nothing).
  virtual ProgramCounts program_counts() const = 0;
};

}  // namespace clpipe
