#include "runtime/device.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "runtime/error.h"

namespace clpipe::runtime {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

template <cl_int kParam, typename T>
T device_info(const cl::Device& d) {
  T value{};
  CLP_CHECK(d.getInfo(kParam, &value));
  return value;
}

std::string trimmed(std::string s) {
  // Some drivers pad names with spaces or include the terminating NUL.
  while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back()))))
    s.pop_back();
  size_t first = 0;
  while (first < s.size() && std::isspace(static_cast<unsigned char>(s[first])))
    ++first;
  return s.substr(first);
}

std::string list_of(const std::vector<DeviceCandidate>& candidates) {
  std::string s;
  for (const DeviceCandidate& c : candidates) {
    s += "\n  platform \"" + c.description.platform_name + "\", device \"" +
         c.description.device_name + "\"" + (c.description.is_gpu ? " (GPU)" : "");
  }
  return s;
}

}  // namespace

std::vector<DeviceCandidate> enumerate_devices() {
  std::vector<cl::Platform> platforms;
  cl_int status = cl::Platform::get(&platforms);
  // The ICD loader reports CL_PLATFORM_NOT_FOUND_KHR (-1001) when no driver is installed.
  if (status != CL_SUCCESS) return {};
  std::vector<DeviceCandidate> out;
  for (const cl::Platform& p : platforms) {
    std::vector<cl::Device> devices;
    if (p.getDevices(CL_DEVICE_TYPE_ALL, &devices) != CL_SUCCESS) continue;
    std::string platform_name;
    p.getInfo(CL_PLATFORM_NAME, &platform_name);
    for (const cl::Device& d : devices) {
      DeviceCandidate c;
      c.index = out.size();
      c.platform = p;
      c.device = d;
      c.description.platform_name = trimmed(platform_name);
      c.description.device_name = trimmed(device_info<CL_DEVICE_NAME, std::string>(d));
      c.description.device_vendor = trimmed(device_info<CL_DEVICE_VENDOR, std::string>(d));
      c.description.driver_version = trimmed(device_info<CL_DRIVER_VERSION, std::string>(d));
      c.description.device_version = trimmed(device_info<CL_DEVICE_VERSION, std::string>(d));
      c.description.is_gpu =
          (device_info<CL_DEVICE_TYPE, cl_device_type>(d) & CL_DEVICE_TYPE_GPU) != 0;
      out.push_back(std::move(c));
    }
  }
  return out;
}

DeviceCandidate select_device(const std::vector<DeviceCandidate>& candidates,
                              const std::string& request) {
  if (candidates.empty()) {
    unsupported(
        "no OpenCL device found: install an OpenCL driver (on Debian: "
        "apt-get install pocl-opencl-icd for the CPU)");
  }
  if (!request.empty()) {
    const std::string want = lower(request);
    for (const DeviceCandidate& c : candidates) {
      if (lower(c.description.device_name).find(want) != std::string::npos ||
          lower(c.description.platform_name).find(want) != std::string::npos) {
        return c;
      }
    }
    invalid("no OpenCL device matches \"", request,
            "\" (CLPIPE_DEVICE); the devices are:", list_of(candidates));
  }
  for (const DeviceCandidate& c : candidates) {
    if (c.description.is_gpu) return c;
  }
  return candidates.front();
}

Device::Device(const DeviceCandidate& candidate)
    : index_(candidate.index),
      platform_(candidate.platform),
      device_(candidate.device),
      description_(candidate.description) {
  cl_int status = CL_SUCCESS;
  context_ = cl::Context(device_, nullptr, nullptr, nullptr, &status);
  if (status != CL_SUCCESS) {
    throw Error(status, "clCreateContext", "device " + description_.device_name);
  }
  const cl::Device& d = device_;
  limits_.global_mem_size = device_info<CL_DEVICE_GLOBAL_MEM_SIZE, cl_ulong>(d);
  limits_.max_mem_alloc_size = device_info<CL_DEVICE_MAX_MEM_ALLOC_SIZE, cl_ulong>(d);
  limits_.local_mem_size = device_info<CL_DEVICE_LOCAL_MEM_SIZE, cl_ulong>(d);
  limits_.max_constant_buffer_size = device_info<CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, cl_ulong>(d);
  limits_.max_work_group_size = device_info<CL_DEVICE_MAX_WORK_GROUP_SIZE, size_t>(d);
  std::vector<size_t> sizes = device_info<CL_DEVICE_MAX_WORK_ITEM_SIZES, std::vector<size_t>>(d);
  for (size_t i = 0; i < 3 && i < sizes.size(); ++i)
    limits_.max_work_item_sizes[i] = sizes[i];
  limits_.max_compute_units = device_info<CL_DEVICE_MAX_COMPUTE_UNITS, cl_uint>(d);
  limits_.max_clock_frequency = device_info<CL_DEVICE_MAX_CLOCK_FREQUENCY, cl_uint>(d);
  limits_.address_bits = device_info<CL_DEVICE_ADDRESS_BITS, cl_uint>(d);
  limits_.mem_base_addr_align = device_info<CL_DEVICE_MEM_BASE_ADDR_ALIGN, cl_uint>(d);
  limits_.max_parameter_size = device_info<CL_DEVICE_MAX_PARAMETER_SIZE, size_t>(d);
  limits_.profiling_timer_resolution = device_info<CL_DEVICE_PROFILING_TIMER_RESOLUTION, size_t>(d);
  const std::string ext = device_info<CL_DEVICE_EXTENSIONS, std::string>(d);
  limits_.fp64 = ext.find("cl_khr_fp64") != std::string::npos;
  limits_.int64_atomics = ext.find("cl_khr_int64_base_atomics") != std::string::npos;
  limits_.host_unified_memory = device_info<CL_DEVICE_HOST_UNIFIED_MEMORY, cl_bool>(d) != 0;
  limits_.native_vector_width_float = device_info<CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, cl_uint>(d);
  limits_.fragment_lanes = choose_fragment_lanes(
      description_.is_gpu, limits_.native_vector_width_float, std::getenv("CLPIPE_LANES"));
  limits_.whole_tile_items = choose_whole_tile_items(
      description_.is_gpu, std::getenv("CLPIPE_TILE_ITEMS"), limits_.fragment_lanes);
  // PoCL names its platform so; its kernel cache is on unless POCL_KERNEL_CACHE=0.
  generates_code_late_ = description_.platform_name.find("Portable Computing Language") == 0;
  const char* pocl_cache = std::getenv("POCL_KERNEL_CACHE");
  caches_builds_ = generates_code_late_ && !(pocl_cache && std::string(pocl_cache) == "0");
}

uint32_t choose_fragment_lanes(bool is_gpu, uint32_t native_vector_width_float,
                               const char* env_lanes) {
  if (env_lanes && *env_lanes) {
    const std::string v = env_lanes;
    if (v == "1" || v == "4" || v == "8" || v == "16") return uint32_t(std::stoul(v));
    invalid("CLPIPE_LANES=", v, ": the fragment lanes must be 1, 4, 8 or 16");
  }
  if (is_gpu) return 4;
  return native_vector_width_float >= 16 ? 16 : 8;
}

bool choose_whole_tile_items(bool is_gpu, const char* env_items, uint32_t fragment_lanes) {
  if (env_items && *env_items) {
    const std::string v = env_items;
    if (v == "tile" && fragment_lanes == 1) {
      invalid(
          "CLPIPE_TILE_ITEMS=tile needs 4 or more fragment lanes: at one lane a work-item "
          "shades one pixel");
    }
    if (v == "tile") return true;
    if (v == "block") return false;
    invalid("CLPIPE_TILE_ITEMS=", v, ": a tile-pass work-item shades a \"tile\" or a \"block\"");
  }
  return !is_gpu && fragment_lanes > 1;
}

std::string Device::cache_identity() const {
  return description_.platform_name + "\n" + description_.device_name + "\n" +
         description_.device_version + "\n" + description_.driver_version;
}

}  // namespace clpipe::runtime
