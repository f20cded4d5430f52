#include "frontend/resource_tables.h"

#include <algorithm>
#include <cstring>

#include "runtime/error.h"

namespace clpipe::frontend {

const cl::Buffer& DeviceTables::operator[](ResourceTable t) const {
  switch (t) {
    case ResourceTable::kInfos:
      return infos;
    case ResourceTable::kWords:
      return words;
    case ResourceTable::kViews:
      return views;
    case ResourceTable::kSamplers:
      return samplers;
    case ResourceTable::kPlaceholder:
      return placeholder;
    case ResourceTable::kNone:
      break;
  }
  runtime::fail(ErrorCode::kInvalidArgument,
                "internal: no device table for a resource's own buffer");
}

std::vector<cl::Buffer> upload_arrays(runtime::Queue& queue, const std::vector<HostArray>& arrays) {
  // Sub-buffers must start at multiples of CL_DEVICE_MEM_BASE_ADDR_ALIGN (in bits).
  const size_t align = std::max<size_t>(queue.device().limits().mem_base_addr_align / 8, 16);
  std::vector<size_t> at;
  size_t total = 0;
  for (const HostArray& a : arrays) {
    at.push_back(total);
    total += (std::max<size_t>(a.second, 16) + align - 1) / align * align;
  }
  std::vector<uint8_t> bytes(total);
  for (size_t i = 0; i < arrays.size(); ++i) {
    if (arrays[i].second) std::memcpy(bytes.data() + at[i], arrays[i].first, arrays[i].second);
  }
  cl::Buffer all = queue.create_buffer_from(bytes.data(), bytes.size());
  std::vector<cl::Buffer> out;
  for (size_t i = 0; i < arrays.size(); ++i) {
    cl_buffer_region region{at[i], std::max<size_t>(arrays[i].second, 16)};
    cl_int status = CL_SUCCESS;
    out.push_back(
        all.createSubBuffer(CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &region, &status));
    if (status != CL_SUCCESS) throw runtime::Error(status, "clCreateSubBuffer");
  }
  return out;
}

std::vector<HostArray> table_arrays(const ResourceTables& t) {
  return {{t.infos.data(), t.infos.size() * sizeof(ClpResourceInfo)},
          {t.words.data(), t.words.size() * 4},
          {t.views.data(), t.views.size() * sizeof(ClpTexView)},
          {t.samplers.data(), t.samplers.size() * sizeof(ClpSamplerState)}};
}

DeviceTables device_tables(const std::vector<cl::Buffer>& uploaded, size_t first,
                           const cl::Buffer& placeholder) {
  return DeviceTables{uploaded.at(first), uploaded.at(first + 1), uploaded.at(first + 2),
                      uploaded.at(first + 3), placeholder};
}

}  // namespace clpipe::frontend
