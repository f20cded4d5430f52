// Resource tables: what generated shaders reach through their ClpResourceInfo entry
// (kernels/shader_lib_shared.h) besides the resources' own storage.
//
// Producer: bind_stage_resources (shader_program.h) appends a stage's entry, user
// constants, views and sampler states on the host, for one compute launch or for every
// draw of a scene. Consumers: the passes, which upload the tables once (upload_tables)
// and bind them as the shaders' table arguments (resolve).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "clpipe/defines.h"

#include "kernels/sampling_abi.h"
#include "kernels/shader_lib_shared.h"
#include "runtime/queue.h"

namespace clpipe::frontend {

// The tables of one launch (or of one scene's launches) that generated shaders index
// through their ClpResourceInfo entry (kernels/shader_lib_shared.h): the entries
// themselves, the bytes of user constant buffers, the sampler and image views, the
// sampler states. bind_stage_resources appends to them on the host; upload_tables makes
// one device buffer of them.
struct ResourceTables {
  std::vector<ClpResourceInfo> infos;
  std::vector<uint32_t> words;  // user constants; each binding starts on a 16-byte boundary
  std::vector<ClpTexView> views;
  std::vector<ClpSamplerState> samplers;

  // Appends for shader stage `stage` and returns where the entries start. What equals the
  // last the stage added there is not appended again: consecutive draws of a scene mostly
  // bind the same, so the tables grow with the scene's binding changes, not its draws.
  uint32_t add_info(unsigned stage, const ClpResourceInfo& info);
  // The bytes of user constant buffer `slot`, starting on a 16-byte boundary. `data` is
  // immutable (context_state.h); keeping the last one alive here keeps its address from
  // naming other bytes, so equal pointers mean equal bytes.
  uint32_t add_words(unsigned stage, unsigned slot,
                     const std::shared_ptr<const std::vector<uint8_t>>& data);
  // Sampler views (images false) or image views (true) of the stage.
  uint32_t add_views(unsigned stage, bool images, const std::vector<ClpTexView>& v);
  uint32_t add_samplers(unsigned stage, const std::vector<ClpSamplerState>& s);

 private:
  struct Range {
    uint32_t at = 0, count = 0;  // count 0: none yet
  };
  struct StageLast {
    Range info, views, images, samplers;
    std::array<std::shared_ptr<const std::vector<uint8_t>>, kMaxConstantBuffers> words;
    std::array<uint32_t, kMaxConstantBuffers> words_at{};
  };
  std::array<StageLast, kShaderTypes> last_;
};

// Which table a resource argument is, or none: its own buffer. kPlaceholder stands where
// nothing is bound (the binding's size is 0, so nothing is read or written): one buffer
// for every such argument, so that it does not tell draws apart.
enum class ResourceTable : uint8_t { kNone, kInfos, kWords, kViews, kSamplers, kPlaceholder };

struct StageArg {
  ResourceTable table = ResourceTable::kNone;
  cl::Buffer buffer;  // table == kNone: a resource's storage or a sub-buffer
  bool operator==(const StageArg& o) const { return table == o.table && buffer() == o.buffer(); }
};

// The device copy of ResourceTables (sub-buffers of one buffer), and the placeholder.
struct DeviceTables {
  cl::Buffer infos, words, views, samplers, placeholder;
  const cl::Buffer& operator[](ResourceTable t) const;
};

// A host array to upload: its bytes.
using HostArray = std::pair<const void*, size_t>;

// Copies host arrays into one new device buffer (one clCreateBuffer, copied at the call:
// the arrays may go right after) and returns a sub-buffer for each, in order. Each starts
// at the device's base address alignment; an empty array gets a 16-byte placeholder.
// Kernels may only read them unless `writable`.
std::vector<cl::Buffer> upload_arrays(runtime::Queue& queue, const std::vector<HostArray>& arrays,
                                      bool writable = false);

// The four arrays of `tables`, in DeviceTables order, and the DeviceTables made of the
// sub-buffers upload_arrays returned for them from index `first` and of `placeholder`
// (a writable buffer of at least 16 bytes).
std::vector<HostArray> table_arrays(const ResourceTables& tables);
DeviceTables device_tables(const std::vector<cl::Buffer>& uploaded, size_t first,
                           const cl::Buffer& placeholder);

// The kernel argument of `arg` once the tables are on the device.
inline const cl::Buffer& resolve(const StageArg& arg, const DeviceTables& tables) {
  return arg.table == ResourceTable::kNone ? arg.buffer : tables[arg.table];
}

}  // namespace clpipe::frontend
