// Vertex-elements CSO: validation, create and bind.
#include "frontend/api_guard.h"
#include "frontend/context_impl.h"
#include "frontend/cso.h"
#include "frontend/format_support.h"
#include "frontend/limits.h"
#include "runtime/error.h"

namespace clpipe::frontend {

void validate_vertex_elements(const std::vector<VertexElement>& elements) {
  if (elements.size() > kMaxAttribs) {
    runtime::invalid(elements.size(), " vertex elements exceed the maximum of ", kMaxAttribs);
  }
  for (size_t i = 0; i < elements.size(); ++i) {
    const VertexElement& e = elements[i];
    if (e.vertex_buffer_index >= kMaxVertexBuffers) {
      runtime::invalid("element ", i, ": vertex_buffer_index ", unsigned(e.vertex_buffer_index),
                       " is not below ", kMaxVertexBuffers);
    }
    if (!format_is_valid(e.src_format)) {
      runtime::invalid("element ", i, ": invalid format ", unsigned(e.src_format));
    }
    if (!format_supported(e.src_format, TextureTarget::BUFFER, 0, 0, Bind::VERTEX_BUFFER)) {
      runtime::unsupported("element ", i, ": ", format_name(e.src_format),
                           " is not a vertex format");
    }
    if (e.src_offset > kMaxVertexElementSrcOffset) {
      runtime::invalid("element ", i, ": src_offset ", e.src_offset, " exceeds ",
                       kMaxVertexElementSrcOffset);
    }
    if (e.dual_slot && format_desc(e.src_format).channel[0].bits != 64) {
      runtime::invalid("element ", i, ": dual_slot needs a 64-bit format, not ",
                       format_name(e.src_format));
    }
  }
}

Result<VertexElementsHandle> ContextImpl::create_vertex_elements_state(
    const std::vector<VertexElement>& elements) {
  return guard_result<VertexElementsHandle>("create_vertex_elements_state", [&] {
    validate_vertex_elements(elements);
    return std::make_shared<VertexElementsCso>(elements);
  });
}

void ContextImpl::bind_vertex_elements_state(const VertexElementsHandle& cso) {
  state_.vertex_elements = cso;
  state_.dirty |= kDirtyVertexElements;
}

}  // namespace clpipe::frontend
