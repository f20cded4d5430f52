// Launches of the fill and copy kernels (see device_ops.h).
#include "frontend/device_ops.h"

#include <cstring>
#include <vector>

#include "compiler/emit/program_text.h"
#include "runtime/error.h"

namespace clpipe::frontend {

namespace {

cl_uint4 part(const std::array<uint8_t, kFillPeriod>& bytes, unsigned index) {
  cl_uint4 v;
  std::memcpy(&v, bytes.data() + 16 * index, 16);
  return v;
}

// Chunks of 16 bytes covering [begin, end) of a row: first index and count.
std::pair<uint64_t, uint64_t> chunks_of(const ByteRegion& r) {
  const uint64_t first = r.begin / 16;
  const uint64_t last = (r.end + 15) / 16;
  return {first, last - first};
}

// Work-items per group along the chunks: one of three sizes, the smallest that covers a
// row's chunks (so narrow boxes do not launch mostly idle groups), 256 for wide rows
// (fewer, fuller groups run faster on PoCL). A small fixed set matters on PoCL, which
// compiles a kernel once per local size: letting the driver choose from the global size
// would compile again for nearly every new box shape.
constexpr size_t kGroupSizes[] = {16, 64, 256};

// The largest group the kernel allows on the device (at least 1).
size_t max_group_size(const cl::Kernel& k, const cl::Device& device) {
  size_t max = 0;
  if (k.getWorkGroupInfo(device, CL_KERNEL_WORK_GROUP_SIZE, &max) != CL_SUCCESS || max == 0) {
    return 1;
  }
  return max;
}

size_t group_for(uint64_t chunks, size_t max_group) {
  size_t g = kGroupSizes[0];
  for (size_t size : kGroupSizes) {
    g = size;
    if (size >= chunks) break;
  }
  while (g > max_group)
    g /= 2;
  return g;
}

std::vector<size_t> global_of(uint64_t chunks, const ByteRegion& r, size_t group) {
  return {size_t((chunks + group - 1) / group * group), r.rows, r.layers};
}

}  // namespace

ByteRegion region_of(const ResourceLayout& layout, unsigned level, const Box& box) {
  const LevelLayout& lv = layout.level(level);
  ByteRegion r;
  // Every sample of the box's layers: the planes [z N, (z + depth) N) (layout.h).
  r.base = lv.offset + uint64_t(box.z) * lv.layer_pitch + uint64_t(box.y) * lv.row_pitch;
  r.row_pitch = lv.row_pitch;
  r.layer_pitch = lv.sample_pitch;
  r.begin = uint64_t(box.x) * layout.block_bytes();
  r.end = r.begin + uint64_t(box.width) * layout.block_bytes();
  r.rows = uint32_t(box.height);
  r.layers = uint32_t(box.depth) * lv.samples;
  return r;
}

FillPattern make_fill_pattern(const void* value, unsigned size, const void* mask, uint64_t phase) {
  if (size == 0 || size > 16 || kFillPeriod % size != 0) {
    runtime::invalid("a fill value of ", size, " bytes (must be 1, 2, 3, 4, 6, 8, 12 or 16)");
  }
  const auto* v = static_cast<const uint8_t*>(value);
  const auto* m = static_cast<const uint8_t*>(mask);
  FillPattern p;
  const unsigned shift = unsigned(phase % size);
  for (unsigned j = 0; j < kFillPeriod; ++j) {
    // Row byte j is byte (j - phase) mod size of the value.
    const unsigned i = (j + size - shift) % size;
    p.bytes[j] = v[i];
    p.mask[j] = m ? m[i] : 0xff;
  }
  return p;
}

DeviceOps::DeviceOps(runtime::Queue& queue, runtime::ProgramCache& programs)
    : queue_(queue), programs_(programs) {}

cl::Event DeviceOps::fill(const cl::Buffer& dst, const ByteRegion& r, const FillPattern& p) {
  if (r.end <= r.begin || r.rows == 0 || r.layers == 0) return queue_.marker();
  if (!fill_program_) fill_program_ = programs_.get(compiler::assemble_kernel_files({"fill.cl"}));
  cl::Kernel& k = queue_.kernel(fill_program_, "fill_pattern");
  if (fill_max_group_ == 0) fill_max_group_ = max_group_size(k, queue_.device().device());
  const auto [first, count] = chunks_of(r);
  const size_t group = group_for(count, fill_max_group_);
  cl_uint masked = 0;
  for (uint8_t b : p.mask)
    masked |= b != 0xff;
  runtime::set_args(k, dst, cl_ulong(r.base), cl_uint(r.row_pitch), cl_ulong(r.layer_pitch),
                    cl_ulong(r.begin), cl_ulong(r.end), cl_ulong(first), cl_ulong(count),
                    part(p.bytes, 0), part(p.bytes, 1), part(p.bytes, 2), part(p.mask, 0),
                    part(p.mask, 1), part(p.mask, 2), masked);
  return queue_.launch(k, global_of(count, r, group), {group, 1, 1}, "fill");
}

cl::Event DeviceOps::copy(const cl::Buffer& src, const ByteRegion& from, const cl::Buffer& dst,
                          const ByteRegion& to) {
  if (to.end <= to.begin || to.rows == 0 || to.layers == 0) return queue_.marker();
  if (!copy_program_) copy_program_ = programs_.get(compiler::assemble_kernel_files({"copy.cl"}));
  cl::Kernel& k = queue_.kernel(copy_program_, "copy_rows");
  if (copy_max_group_ == 0) copy_max_group_ = max_group_size(k, queue_.device().device());
  const auto [first, count] = chunks_of(to);
  const size_t group = group_for(count, copy_max_group_);
  runtime::set_args(k, src, cl_ulong(from.base), cl_uint(from.row_pitch),
                    cl_ulong(from.layer_pitch), cl_ulong(from.begin), dst, cl_ulong(to.base),
                    cl_uint(to.row_pitch), cl_ulong(to.layer_pitch), cl_ulong(to.begin),
                    cl_ulong(to.end), cl_ulong(first), cl_ulong(count));
  return queue_.launch(k, global_of(count, to, group), {group, 1, 1}, "copy");
}

}  // namespace clpipe::frontend
