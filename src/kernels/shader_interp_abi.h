// The words of an interpreted shader: written by the compiler (compiler/emit/
// emit_interp.cpp, emit_interpreted), read by the interpreter (shader_interp.h). Shared by
// C++ and OpenCL C, so only #defines.
//
// Layout, in 32-bit words:
//   header       CLP_INTERP_HEADER words, indexed by CLP_INTERP_H_*
//   fs inputs    2 words per fragment input channel the shader reads, in the order the
//                compiled prologue reads them: reg | chan << 16, then
//                semantic | interp << 8 | location << 12 | semantic_index << 16
//   immediates   4 words per IMM
//   instructions from word code[CLP_INTERP_H_CODE]: word 0 = kind (bits 0..7) |
//                saturate (bit 8) | sources (bits 9..11) | for ALU, the source channels
//                read (bits 12..15: a channel-wise opcode's write mask, else all four),
//                the opcode (bits 16..23) and precise (bit 24: CLP_INTERP_PRECISE),
//                then for ALU the destination's 3 words, then 3 words per source, then
//                for IF / UIF (the ELSE or ENDIF) and ELSE (the ENDIF) the word index of
//                the jump target
//   texture      (CLP_IK_TEX, compiler/emit/emitter.h TexPlan): word 0 = kind | saturate
//                (bit 8) | sources (bits 9..11) | call (bits 12..14, TexCall) | target
//                (bits 16..23) | lod mode (bits 24..25) | implicit gradients (bit 26) |
//                offset (bit 27) | reference divided (bit 28) | gather component (bits
//                29..30); the destination's 3 words; view unit | sampler unit << 16
//                (0xffff: none); 4 words of slots, one byte each in CLP_ITS_* order
//                (0: none, else 0x80 | source << 2 | channel); 3 words per source; the
//                offset's 3 words as a source when bit 27 is set
//   destination  word 0: file (bits 0..3: TEMP, OUT or ADDR) | write mask << 4 |
//                indirect (bit 8) | address register (bits 9..10) | its channel (bits
//                11..12); word 1: register (indirect: the offset added to the address);
//                word 2: indirect only, the registers it may reach, first | end << 16
//   source       word 0: file (bits 0..3) | swizzle (2 bits per channel, bits 4..11) |
//                negate (bit 12) | absolute (bit 13) | type (bits 14..15) | CONST buffer
//                (bits 16..23) | indirect (bit 24) | address register (bits 25..26) | its
//                channel (bits 27..28); word 1: register (SV: the semantic; indirect: the
//                offset); word 2: as the destination's (a per-vertex input: see
//                CLP_INTERP_PER_VERTEX)
#ifndef CLPIPE_SHADER_INTERP_ABI_H
#define CLPIPE_SHADER_INTERP_ABI_H

#define CLP_INTERP_MAGIC 0x49504c43u  // "CLPI"

#define CLP_INTERP_H_MAGIC 0
#define CLP_INTERP_H_INPUTS 1  // fragment input entries
#define CLP_INTERP_H_IMM 2     // word of the first immediate
#define CLP_INTERP_H_CODE 3    // word of the first instruction
#define CLP_INTERP_H_FLAGS 4   // CLP_INTERP_MASKED_TOP
#define CLP_INTERP_H_TEMPS 5   // the shader's temporaries (<= CLP_INTERP_TEMPS)
// 2 words (fragment shaders): byte i is the OUT register of COLOR[i] plus 1, 0 where the
// shader does not write COLOR[i] (the compiled code's CLP_FS_COLOR_REG_<i>)
#define CLP_INTERP_H_COLOR 6
// Fragment shaders: what the compiled code's CLP_FS_* defines say. Bytes 0, 1 and 2: the
// OUT register of the depth (POSITION), stencil and sample-mask outputs plus 1, 0 where
// the shader has none; then the CLP_INTERP_FS_* bits.
#define CLP_INTERP_H_FS 8
#define CLP_INTERP_HEADER 9

// Bits of CLP_INTERP_H_FS (tile.cl's CLP_FS_EARLY_FORCED, CLP_FS_EARLY_ALLOWED and
// CLP_FS_PER_SAMPLE).
#define CLP_INTERP_FS_EARLY_FORCED (1u << 24)
#define CLP_INTERP_FS_EARLY_ALLOWED (1u << 25)
#define CLP_INTERP_FS_PER_SAMPLE (1u << 26)

// Writes outside every construct are merged under the running lanes too: main returns
// before its END somewhere (the compiled code's Emitter::masked()).
#define CLP_INTERP_MASKED_TOP 1u

// Bit of an ALU word: the instruction is precise (TGSI's _PRECISE, which Mesa sets on the
// arithmetic that invariant outputs depend on) and its case may contract a multiply and
// an add into one rounding: clp_interp_alu_precise runs it, with contraction off as the
// compiled code's block for it has.
#define CLP_INTERP_PRECISE (1u << 24)

// Instruction kinds.
#define CLP_IK_ALU 0
#define CLP_IK_IF 1  // float test
#define CLP_IK_UIF 2
#define CLP_IK_ELSE 3
#define CLP_IK_ENDIF 4
#define CLP_IK_LOOP 5
#define CLP_IK_ENDLOOP 6
#define CLP_IK_BRK 7
#define CLP_IK_CONT 8
#define CLP_IK_KILL 9
#define CLP_IK_KILL_IF 10
#define CLP_IK_RET 11
#define CLP_IK_END 12
#define CLP_IK_TEX 13
#define CLP_IK_EMIT 14  // geometry shaders: word 0, then the stream as a source
#define CLP_IK_ENDPRIM 15

// Source word 0 of a geometry shader's per-vertex input (IN[vertex][register]): word 2
// holds the vertex, or with CLP_INTERP_VERTEX_INDIRECT the offset added to the address
// register in bits 16..17, its channel in bits 18..19.
#define CLP_INTERP_PER_VERTEX (1u << 29)
#define CLP_INTERP_VERTEX_INDIRECT (1u << 30)

// Texture calls (TexCall) and operand slots of CLP_IK_TEX.
#define CLP_ITC_SAMPLE 0
#define CLP_ITC_GATHER 1
#define CLP_ITC_QUERY_LOD 2
#define CLP_ITC_FETCH 3
#define CLP_ITC_SIZE 4
#define CLP_ITS_COORD 0  // 3 slots: s, t, r (fetch: x, y, z)
#define CLP_ITS_LAYER 3
#define CLP_ITS_REF 4
#define CLP_ITS_LOD 5
#define CLP_ITS_DIVISOR 6
#define CLP_ITS_DDX 7   // 3 slots
#define CLP_ITS_DDY 10  // 3 slots
#define CLP_ITS_COMP 13
#define CLP_ITS_COUNT 14
#define CLP_INTERP_TEX_SLOT_WORDS 4

// Register files of operands.
#define CLP_IF_TEMP 0
#define CLP_IF_IN 1
#define CLP_IF_OUT 2
#define CLP_IF_CONST 3
#define CLP_IF_IMM 4
#define CLP_IF_SV 5
#define CLP_IF_ADDR 6  // destinations of ARL / UARL / ARR

// Source types: which modifiers apply (Emitter::src).
#define CLP_IT_FLOAT 0  // absolute, then negate, as floats
#define CLP_IT_INT 1    // negate as a 32-bit integer; no absolute

// Constructs open at once (IF and loops): deeper shaders are compiled instead.
#define CLP_INTERP_DEPTH 16

#endif  // CLPIPE_SHADER_INTERP_ABI_H
