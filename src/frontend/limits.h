// Limits that clpipe's state calls enforce and its caps report (one value for both).
#pragma once

#include <cstdint>

namespace clpipe::frontend {

constexpr uint32_t kMaxVertexElementSrcOffset = 2047;    // bytes (GL's minimum maximum)
constexpr uint32_t kMaxVertexAttribStride = 2048;        // bytes
constexpr uint32_t kConstantBufferOffsetAlignment = 16;  // bytes: one vec4 register
constexpr uint32_t kTextureBufferOffsetAlignment = 16;   // bytes
constexpr uint32_t kStreamOutputOffsetAlignment = 4;     // bytes: one dword
constexpr uint32_t kMinMapBufferAlignment = 64;          // bytes
constexpr uint32_t kMaxGsInvocations = 32;               // GS_INVOCATIONS (ARB_gpu_shader5)

}  // namespace clpipe::frontend
