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

namespace {

// Appends v[0..n) to table unless it equals the range `last` (then returns its start).
template <typename T>
uint32_t add_range(std::vector<T>& table, const T* v, size_t n, uint32_t* last_at,
                   uint32_t* last_count) {
  if (*last_count == n && n > 0 && std::memcmp(table.data() + *last_at, v, n * sizeof(T)) == 0)
    return *last_at;
  const uint32_t at = uint32_t(table.size());
  table.insert(table.end(), v, v + n);
  *last_at = at;
  *last_count = uint32_t(n);
  return at;
}

}  // namespace

uint32_t ResourceTables::add_info(unsigned stage, const ClpResourceInfo& info) {
  Range& r = last_.at(stage).info;
  return add_range(infos, &info, 1, &r.at, &r.count);
}

uint32_t ResourceTables::add_words(unsigned stage, unsigned slot,
                                   const std::shared_ptr<const std::vector<uint8_t>>& data) {
  StageLast& l = last_.at(stage);
  if (l.words.at(slot) == data) return l.words_at[slot];
  words.resize((words.size() + 3) / 4 * 4);
  const size_t at = words.size();
  words.resize(at + (data->size() + 3) / 4);
  if (!data->empty()) std::memcpy(words.data() + at, data->data(), data->size());
  l.words[slot] = data;
  l.words_at[slot] = uint32_t(at);
  return uint32_t(at);
}

uint32_t ResourceTables::add_views(unsigned stage, bool images, const std::vector<ClpTexView>& v) {
  Range& r = images ? last_.at(stage).images : last_.at(stage).views;
  return add_range(views, v.data(), v.size(), &r.at, &r.count);
}

uint32_t ResourceTables::add_samplers(unsigned stage, const std::vector<ClpSamplerState>& s) {
  Range& r = last_.at(stage).samplers;
  return add_range(samplers, s.data(), s.size(), &r.at, &r.count);
}

std::vector<cl::Buffer> upload_arrays(runtime::Queue& queue, const std::vector<HostArray>& arrays,
                                      bool writable) {
  const cl_mem_flags access = writable ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY;
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
  cl::Buffer all = queue.create_buffer_from(bytes.data(), bytes.size(), access);
  std::vector<cl::Buffer> out;
  for (size_t i = 0; i < arrays.size(); ++i) {
    cl_buffer_region region{at[i], std::max<size_t>(arrays[i].second, 16)};
    cl_int status = CL_SUCCESS;
    out.push_back(all.createSubBuffer(access, CL_BUFFER_CREATE_TYPE_REGION, &region, &status));
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
