// One in-order command queue (one per Context) with the enqueue helpers clpipe uses,
// optional per-label profiling, and a per-queue cache of kernel objects.
//
// Ownership: OpenCL retains every buffer and kernel an enqueued command uses until the
// command completes, so callers may drop their references right after enqueueing.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/cl.h"
#include "runtime/device.h"
#include "runtime/program_cache.h"

namespace clpipe::runtime {

// Sums of device time per label, from profiling events.
struct ProfileEntry {
  std::string label;
  uint64_t count = 0;
  uint64_t total_ns = 0;
};

// OpenCL calls of a queue, counted since it was made: what a frame cost, independent of
// the machine's load (CLPIPE_PROFILE prints them per scene).
struct QueueCounters {
  uint64_t launches = 0;        // kernels enqueued
  uint64_t blocking_reads = 0;  // reads that waited for the queue
  uint64_t uploads = 0;         // host data copied to the device (writes, buffers from data)
};

class Queue {
 public:
  explicit Queue(const Device& device);

  const Device& device() const { return device_; }
  const cl::CommandQueue& handle() const { return queue_; }

  // A device buffer; size 0 is rounded up to 4 bytes (OpenCL forbids empty buffers).
  cl::Buffer create_buffer(size_t size, cl_mem_flags flags = CL_MEM_READ_WRITE) const;
  // A buffer holding a copy of data (copied now: data may go right after), read-only for
  // kernels unless `access` says otherwise.
  cl::Buffer create_buffer_from(const void* data, size_t size,
                                cl_mem_flags access = CL_MEM_READ_ONLY) const;

  // Kernel object `name` of `program`, created once per queue (kernels are not
  // thread-safe, queues are per context).
  cl::Kernel& kernel(const ProgramRef& program, const char* name);

  // Enqueues kernel over `global` work-items (work_dim = global.size()), local may be
  // empty (driver's choice). Label names the pass in the profile.
  cl::Event launch(const cl::Kernel& kernel, const std::vector<size_t>& global,
                   const std::vector<size_t>& local, const char* label,
                   const std::vector<size_t>& offset = {});

  // Enqueues a 1D kernel over `count` work-items rounded up to whole groups of kGroup1d
  // (or less when the kernel allows less), so the kernel must ignore ids >= count. One
  // local size per kernel keeps one compiled work-group function per kernel: PoCL
  // compiles one per distinct local size (0.1-1.6 s for a kernel with a shader in it),
  // and the driver's own choice follows the global size (a prime count gets groups of 1,
  // every new count a new build). It is also the one whose code a background build
  // generates before its program is used (ProgramCache::get's launch_sizes). Groups of
  // smaller powers of two for small counts (6710410) saved work-items when each draw
  // launched its own passes; in scenes, `bench_draw 1024x768 3 draws` (500 draws) shows
  // the same device times either way.
  cl::Event launch_1d(const cl::Kernel& kernel, size_t count, const char* label);
  // launch_1d's group for a count that fills one, on a kernel that allows it.
  static constexpr size_t kGroup1d = 64;
  // The kernel's reqd_work_group_size (x), 0 when it has none.
  size_t required_group_size(const cl::Kernel& kernel);

  void write(const cl::Buffer& dst, size_t offset, size_t size, const void* src, bool blocking);
  void read(const cl::Buffer& src, size_t offset, size_t size, void* dst);
  // Zeroes [offset, offset + size) without waiting; the event of the fill.
  cl::Event fill_zero(const cl::Buffer& dst, size_t offset, size_t size);
  void copy(const cl::Buffer& src, size_t src_offset, const cl::Buffer& dst, size_t dst_offset,
            size_t size);
  // A marker event: completes when everything enqueued before it has.
  cl::Event marker();
  void flush();
  void finish();

  const QueueCounters& counters() const { return counters_; }

  // Profiling of labelled launches; off by default ($CLPIPE_PROFILE=1 turns it on).
  void set_profiling(bool on) { profiling_ = on; }
  bool profiling() const { return profiling_; }
  // Waits for the recorded launches and returns device time per label; clears records.
  std::vector<ProfileEntry> collect_profile();
  // The same for the launches recorded since profile_mark() returned `mark`, keeping
  // the records (a scene's own passes, for its report).
  size_t profile_mark() const { return records_.size(); }
  std::vector<ProfileEntry> profile_since(size_t mark);

 private:
  const Device& device_;
  cl::CommandQueue queue_;
  bool profiling_ = false;
  mutable QueueCounters counters_;
  std::vector<std::pair<const char*, cl::Event>> records_;
  // (program, kernel name) -> kernel; the program reference keeps the kernel valid.
  std::map<std::pair<const Program*, std::string>, std::pair<ProgramRef, cl::Kernel>> kernels_;
  // launch_1d's group size per kernel object (asking the driver costs microseconds per
  // launch, which small draws feel). Kernels live as long as the queue, so a handle is
  // never reused for another kernel while this map holds it.
  std::map<cl_kernel, size_t> group_1d_;
  std::map<cl_kernel, size_t> required_group_;  // required_group_size's answers, the same way
};

void check_arg(cl_int status, cl_uint index);

// Sets arguments one after the other: KernelArgs(k) << a << b; each call is checked.
class KernelArgs {
 public:
  explicit KernelArgs(cl::Kernel& kernel) : kernel_(kernel) {}
  template <typename T>
  KernelArgs& operator<<(const T& value) {
    check_arg(kernel_.setArg(index_, value), index_);
    ++index_;
    return *this;
  }

 private:
  cl::Kernel& kernel_;
  cl_uint index_ = 0;
};

// Sets the kernel arguments from a parameter pack, checking each call.
template <typename... Args>
void set_args(cl::Kernel& k, const Args&... args) {
  cl_uint i = 0;
  ((check_arg(k.setArg(i, args), i), ++i), ...);
}

}  // namespace clpipe::runtime
