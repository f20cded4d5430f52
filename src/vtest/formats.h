// Conversions between virgl wire numbering and the clpipe API: formats (doc 6.1), shader
// stages, texture targets, bind flags (doc 6.2) and query types (doc 4.3).
//
// Every function that takes a wire value checks its range: the *_from_wire functions
// throw ProtocolError for a value the protocol does not define, and the format lookup
// returns Format::NONE for a virgl format clpipe has no equivalent of (the caller decides
// whether that is an error). Used by the decoders, the resource table and the caps builder.
#pragma once

#include <cstdint>

#include "clpipe/defines.h"
#include "clpipe/format.h"

namespace clpipe::frontend::vtest {

// virgl format numbers go up to 321 in Mesa 22.3.6; caps masks hold 16 x 32 bits.
constexpr uint32_t kVirglFormatCount = 322;
constexpr uint32_t kVirglFormatMaskBits = 512;

// The clpipe format of a virgl format number, Format::NONE when unknown to either side.
Format format_from_virgl(uint32_t virgl_format);
// The virgl number of a clpipe format, 0 when virgl has none.
uint32_t format_to_virgl(Format format);
// "R8G8B8A8_UNORM", or nullptr for a number virgl does not define.
const char* virgl_format_name(uint32_t virgl_format);
// A format that is valid, known to clpipe and usable on the wire, else ProtocolError
// naming `what` ("SURFACE format").
Format format_from_wire(uint32_t virgl_format, const char* what);

// virgl stage (0 VS, 1 FS, 2 GS, 3 TCS, 4 TES, 5 CS) <-> clpipe ShaderType.
ShaderType shader_type_from_wire(uint32_t virgl_stage);
uint32_t shader_type_to_virgl(ShaderType type);
// "VERTEX", "FRAGMENT", ... for messages.
const char* shader_type_name_for_errors(ShaderType type);

// pipe_texture_target 0..8.
TextureTarget target_from_wire(uint32_t target);

// virgl bind flags -> clpipe Bind::* (unknown bits are hints without meaning here and are
// dropped; STAGING becomes ResourceUsage::STAGING, see resource_usage_from_virgl_bind).
uint32_t bind_from_virgl(uint32_t virgl_bind);
ResourceUsage resource_usage_from_virgl_bind(uint32_t virgl_bind);

// virgl query type + index -> clpipe query type (PIPELINE_STATISTICS on the wire is the
// single-counter form selected by index). Throws ProtocolError for an undefined type.
QueryType query_type_from_wire(uint32_t virgl_type);
// Bytes of the result the client reads from the query buffer (doc 3.6): 8 for
// timestamps and elapsed time, else 4.
uint32_t query_result_size(uint32_t virgl_type);

}  // namespace clpipe::frontend::vtest
