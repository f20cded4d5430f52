// The builder protocol between ProgramBuilder (program_builder.cpp) and its children
// (program_builder_child.cpp): what both sides frame and name alike.
#pragma once

#include <cstdint>
#include <string>

namespace clpipe::runtime::builder_wire {

// The child talks to its parent on this descriptor (a pool child: listens on it); its
// stdout goes to stderr, so that whatever a device compiler prints cannot corrupt the
// reply.
constexpr int kChannelFd = 3;
// No part of a request or reply is larger: the disk cache refuses larger binaries too.
constexpr uint64_t kMaxPart = uint64_t(1) << 31;

// kHello: a pool child's first words on a connection it has taken: "<pid>\n<device
// index>\n<device name>".
enum class Reply : uint32_t { kBinary = 0, kBuildLog = 1, kFailure = 2, kBuilt = 3, kHello = 4 };

inline void put_u64(std::string& out, uint64_t v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

inline void put_part(std::string& out, const void* data, size_t size) {
  put_u64(out, size);
  out.append(static_cast<const char*>(data), size);
}

}  // namespace clpipe::runtime::builder_wire
