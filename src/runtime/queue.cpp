#include "runtime/queue.h"

#include <algorithm>
#include <cstdlib>

#include "runtime/error.h"

namespace clpipe::runtime {

Queue::Queue(const Device& device) : device_(device) {
  cl_int status = CL_SUCCESS;
  queue_ = cl::CommandQueue(device.context(), device.device(), CL_QUEUE_PROFILING_ENABLE, &status);
  if (status != CL_SUCCESS) throw Error(status, "clCreateCommandQueue");
  if (const char* p = std::getenv("CLPIPE_PROFILE"); p && *p && *p != '0') profiling_ = true;
}

namespace {

// A buffer's charge, released by OpenCL when the buffer is destroyed (any thread).
struct Charge {
  std::shared_ptr<MemoryAccount> account;
  uint64_t bytes;
};

void CL_CALLBACK release_charge(cl_mem, void* user_data) {
  auto* c = static_cast<Charge*>(user_data);
  c->account->release(c->bytes);
  delete c;
}

// Creates a buffer of `size` bytes charged to the device's memory account.
cl::Buffer charged_buffer(const Device& device, cl_mem_flags flags, size_t size, void* host) {
  const std::shared_ptr<MemoryAccount>& account = device.memory();
  account->charge(size);
  cl_int status = CL_SUCCESS;
  cl::Buffer b(device.context(), flags, size, host, &status);
  if (status != CL_SUCCESS) {
    account->release(size);
    throw Error(status, "clCreateBuffer", std::to_string(size) + " bytes");
  }
  auto* charge = new Charge{account, size};
  status = clSetMemObjectDestructorCallback(b(), release_charge, charge);
  if (status != CL_SUCCESS) {
    delete charge;
    account->release(size);  // not counted: the buffer is uncounted from now on
  }
  return b;
}

}  // namespace

cl::Buffer Queue::create_buffer(size_t size, cl_mem_flags flags) const {
  return charged_buffer(device_, flags, size == 0 ? 4 : size, nullptr);
}

cl::Buffer Queue::create_buffer_from(const void* data, size_t size, cl_mem_flags access) const {
  if (size == 0) return create_buffer(4, access);
  ++counters_.uploads;
  return charged_buffer(device_, access | CL_MEM_COPY_HOST_PTR, size, const_cast<void*>(data));
}

cl::Kernel& Queue::kernel(const ProgramRef& program, const char* name) {
  auto key = std::make_pair(program.get(), std::string(name));
  auto it = kernels_.find(key);
  if (it != kernels_.end()) return it->second.second;
  cl_int status = CL_SUCCESS;
  cl::Kernel k(program->program, name, &status);
  if (status != CL_SUCCESS) throw Error(status, "clCreateKernel", name);
  return kernels_.emplace(key, std::make_pair(program, k)).first->second.second;
}

cl::Event Queue::launch(const cl::Kernel& kernel, const std::vector<size_t>& global,
                        const std::vector<size_t>& local, const char* label,
                        const std::vector<size_t>& offset) {
  auto range = [](const std::vector<size_t>& v) {
    switch (v.size()) {
      case 1:
        return cl::NDRange(v[0]);
      case 2:
        return cl::NDRange(v[0], v[1]);
      case 3:
        return cl::NDRange(v[0], v[1], v[2]);
      default:
        return cl::NDRange();
    }
  };
  for (size_t g : global) {
    if (g == 0) return marker();  // an empty launch is a no-op, not an error
  }
  cl::Event ev;
  cl_int status = queue_.enqueueNDRangeKernel(
      kernel, offset.empty() ? cl::NullRange : range(offset), range(global),
      local.empty() ? cl::NullRange : range(local), nullptr, &ev);
  if (status != CL_SUCCESS) throw Error(status, "clEnqueueNDRangeKernel", label);
  ++counters_.launches;
  if (profiling_) records_.emplace_back(label, ev);
  return ev;
}

cl::Event Queue::launch_1d(const cl::Kernel& kernel, size_t count, const char* label) {
  auto [it, added] = group_1d_.emplace(kernel(), kGroup1d);
  size_t& group = it->second;
  size_t max = 0;
  if (added &&
      kernel.getWorkGroupInfo(device_.device(), CL_KERNEL_WORK_GROUP_SIZE, &max) == CL_SUCCESS &&
      max > 0) {
    while (group > max)
      group /= 2;
  }
  return launch(kernel, {(count + group - 1) / group * group}, {group}, label);
}

size_t Queue::required_group_size(const cl::Kernel& kernel) {
  auto it = required_group_.find(kernel());
  if (it != required_group_.end()) return it->second;
  size_t size[3] = {0, 0, 0};
  CLP_CHECK(clGetKernelWorkGroupInfo(kernel(), device_.device()(),
                                     CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(size), size,
                                     nullptr));
  required_group_.emplace(kernel(), size[0]);
  return size[0];
}

void Queue::write(const cl::Buffer& dst, size_t offset, size_t size, const void* src,
                  bool blocking) {
  if (size == 0) return;
  ++counters_.uploads;
  CLP_CHECK(queue_.enqueueWriteBuffer(dst, blocking ? CL_TRUE : CL_FALSE, offset, size, src));
}

void Queue::read(const cl::Buffer& src, size_t offset, size_t size, void* dst) {
  if (size == 0) return;
  ++counters_.blocking_reads;
  CLP_CHECK(queue_.enqueueReadBuffer(src, CL_TRUE, offset, size, dst));
}

cl::Event Queue::fill_zero(const cl::Buffer& dst, size_t offset, size_t size) {
  if (size == 0) return marker();
  // The widest pattern up to 64 bytes that divides offset and size: PoCL 3.1's CPU driver
  // zeroes 4 MiB in ~0.1 ms with 16 to 64 bytes, 0.4 ms with 4 and 1 ms with 128 (a loop
  // of fills into a recycled buffer). clpipe's own fill kernel (fill.cl), which zeroed
  // new resources before, is slower still for a plain zero fill.
  static const uint8_t zeros[64] = {};
  size_t pattern = 64;
  while ((offset | size) & (pattern - 1))
    pattern /= 2;
  cl_event ev = nullptr;
  CLP_CHECK(clEnqueueFillBuffer(queue_(), dst(), zeros, pattern, offset, size, 0, nullptr, &ev));
  return cl::Event(ev);  // takes the reference clEnqueueFillBuffer returned
}

void Queue::copy(const cl::Buffer& src, size_t src_offset, const cl::Buffer& dst, size_t dst_offset,
                 size_t size) {
  if (size == 0) return;
  CLP_CHECK(queue_.enqueueCopyBuffer(src, dst, src_offset, dst_offset, size));
}

cl::Event Queue::marker() {
  cl::Event ev;
  CLP_CHECK(queue_.enqueueMarkerWithWaitList(nullptr, &ev));
  return ev;
}

void Queue::flush() {
  CLP_CHECK(queue_.flush());
}
void Queue::finish() {
  CLP_CHECK(queue_.finish());
}

std::vector<ProfileEntry> Queue::collect_profile() {
  std::vector<ProfileEntry> out = profile_since(0);
  records_.clear();
  return out;
}

std::vector<ProfileEntry> Queue::profile_since(size_t mark) {
  std::vector<ProfileEntry> out;
  std::map<std::string, size_t> index;
  for (size_t i = std::min(mark, records_.size()); i < records_.size(); ++i) {
    auto& [label, ev] = records_[i];
    ev.wait();
    cl_ulong start = 0, end = 0;
    if (ev.getProfilingInfo(CL_PROFILING_COMMAND_START, &start) != CL_SUCCESS ||
        ev.getProfilingInfo(CL_PROFILING_COMMAND_END, &end) != CL_SUCCESS) {
      continue;
    }
    auto [it, fresh] = index.emplace(label, out.size());
    if (fresh) out.push_back({label, 0, 0});
    out[it->second].count++;
    out[it->second].total_ns += end > start ? end - start : 0;
  }
  return out;
}

void check_arg(cl_int status, cl_uint index) {
  if (status != CL_SUCCESS) {
    throw Error(status, "clSetKernelArg", "argument " + std::to_string(index));
  }
}

}  // namespace clpipe::runtime
