// Per-draw parameters of the vertex pass (vertex.cl), shared by host and device.
// Producer: src/frontend/draw from the vertex elements, vertex and index buffers and the
// draw call. Consumer: vertex.cl.
#ifndef CLPIPE_VERTEX_SHARED_H
#define CLPIPE_VERTEX_SHARED_H

#include "draw_shared.h"

// Vertex buffers a draw can read: kernel parameters vb0..vb15.
#define CLP_MAX_VERTEX_BUFFERS 16
#define CLP_MAX_VERTEX_ELEMENTS 32

// ClpVertexElement.kind: how the fetched value reaches the shader.
#define CLP_VE_FLOAT 0u  // normalized / scaled / float formats, as float bits
#define CLP_VE_UINT 1u   // pure unsigned integer formats, as integer bits
#define CLP_VE_SINT 2u   // pure signed integer formats, as integer bits

typedef struct {
  CLP_U32 format;   // clpipe::Format
  CLP_U32 offset;   // src_offset in bytes
  CLP_U32 buffer;   // kernel vertex buffer parameter 0..15
  CLP_U32 divisor;  // 0 = per vertex, else per `divisor` instances
  CLP_U32 kind;     // CLP_VE_*
  CLP_U32 block_bytes;
} ClpVertexElement;

typedef struct {
  CLP_I64 offset;  // byte offset of element 0 in the kernel buffer
  CLP_I64 size;    // bytes readable from the start of the kernel buffer
  CLP_U32 stride;  // bytes; 0 = every vertex reads the same data
  CLP_U32 pad;
} ClpVertexBuffer;

typedef struct {
  ClpVertexElement elem[CLP_MAX_VERTEX_ELEMENTS];
  ClpVertexBuffer vb[CLP_MAX_VERTEX_BUFFERS];
  CLP_U32 num_elements;
  CLP_U32 num_outputs;  // registers written per vertex (the VS OUT file)
  CLP_U32 count;        // positions (indices or vertices) per instance
  CLP_U32 instance_count;
  CLP_U32 start;  // first index / vertex
  CLP_I32 index_bias;
  CLP_U32 start_instance;
  CLP_U32 index_size;    // 0 = not indexed, else 1, 2, 4
  CLP_I64 index_offset;  // byte offset of index 0 in the index buffer
  CLP_I64 index_limit;   // bytes readable in the index buffer
  CLP_U32 restart_enabled;
  CLP_U32 restart_index;
  CLP_U32 draw_id;
  CLP_U32 ri_index;   // the vertex shader's entry in its ClpResourceInfo table
  CLP_U32 out_base;   // float4 of the output buffer where this draw's vertices start
  CLP_U32 item_base;  // its first work-item in its vertex launch (vertex.cl)
  // A chunk of a larger draw (draw_split.h): instance i of the chunk is instance
  // instance_base + i of the draw, and its position k is the draw's position
  // position_base + k, except the hub: with hub == 1 the chunk's first position and with
  // hub == 2 its last one is the draw's position 0 (fans, polygons, line loops). A whole
  // draw has all three 0.
  CLP_U32 instance_base;
  CLP_U32 position_base;
  CLP_U32 hub;
  CLP_U32 pad;
} ClpVertexParams;

#endif  // CLPIPE_VERTEX_SHARED_H
