// Integer and bit opcodes on the device against host expectations: wrapping arithmetic,
// division and modulo by zero and INT_MIN / -1 (TGSI / softpipe results, never a trap),
// shifts by 32 and more, compares, bit-field extract / insert edge cases, bit counts,
// integer source negation.
#include <climits>

#include "compiler/emit/op_table.h"

using namespace clpipe::test::emit;

namespace {

using U = uint32_t;
using I = int32_t;

int32_t ibfe(int32_t v, int32_t offset, int32_t bits) {
  const int o = offset & 31;
  if (bits == 32 && o == 0) return v;
  const int w = bits & 31;
  if (w == 0) return 0;
  if (w + o < 32) return int32_t(uint32_t(v) << (32 - w - o)) >> (32 - w);
  return v >> o;
}
uint32_t ubfe(uint32_t v, int32_t offset, int32_t bits) {
  const int o = offset & 31;
  if (bits == 32 && o == 0) return v;
  const int w = bits & 31;
  if (w == 0) return 0;
  if (w + o < 32) return (v << (32 - w - o)) >> (32 - w);
  return v >> o;
}
uint32_t bfi(uint32_t base, uint32_t insert, int32_t offset, int32_t bits) {
  if (bits == 32) return insert;
  const uint32_t o = uint32_t(offset) & 31, w = uint32_t(bits) & 31;
  const uint32_t mask = ((1u << w) - 1u) << o;
  return ((insert << o) & mask) | (base & ~mask);
}
uint32_t brev(uint32_t x) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i)
    r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
int32_t msb(uint32_t x) {
  for (int i = 31; i >= 0; --i) {
    if (x & (1u << i)) return i;
  }
  return -1;
}
int32_t lsb(uint32_t x) {
  for (int i = 0; i < 32; ++i) {
    if (x & (1u << i)) return i;
  }
  return -1;
}

OpInputs int_inputs() {
  const std::vector<uint32_t> v = {0u,          1u,          2u,          3u,          7u,
                                   31u,         32u,         33u,         63u,         64u,
                                   0xffffffffu, 0xfffffffeu, 0x80000000u, 0x7fffffffu, 0x80000001u,
                                   0xdeadbeefu, 0x12345678u, 0xffffffe0u, 100u,        0xfffffff9u};
  OpInputs out;
  for (size_t i = 0; i < v.size(); ++i) {
    for (size_t j = 0; j < v.size(); ++j) {
      out.push_back({v[i], v[j], v[(i * 7 + j) % v.size()], v[(j * 3 + i + 5) % v.size()]});
    }
  }
  return out;
}

}  // namespace

TEST_CASE("emit: integer arithmetic, division by zero and overflow", "[emit][alu]") {
  std::vector<OpCase> cases = {
      {"UADD", "UADD $D, $S0, $S1", false, [](U a, U b, U) { return a + b; }},
      {"UADD -b (isub)", "UADD $D, $S0, -$S1", false, [](U a, U b, U) { return a - b; }},
      {"UMUL", "UMUL $D, $S0, $S1", false, [](U a, U b, U) { return a * b; }},
      {"UMAD", "UMAD $D, $S0, $S1, $S2", false, [](U a, U b, U c) { return a * b + c; }},
      {"IMUL_HI", "IMUL_HI $D, $S0, $S1", false,
       [](U a, U b, U) { return U(uint64_t(int64_t(I(a)) * int64_t(I(b))) >> 32); }},
      {"UMUL_HI", "UMUL_HI $D, $S0, $S1", false,
       [](U a, U b, U) { return U((uint64_t(a) * b) >> 32); }},
      {"UDIV (x/0 = ~0)", "UDIV $D, $S0, $S1", false, [](U a, U b, U) { return b ? a / b : ~0u; }},
      {"UMOD (x%0 = ~0)", "UMOD $D, $S0, $S1", false, [](U a, U b, U) { return b ? a % b : ~0u; }},
      {"IDIV (x/0 = 0, INT_MIN/-1 = INT_MIN)", "IDIV $D, $S0, $S1", false,
       [](U a, U b, U) {
         if (b == 0) return 0u;
         if (I(a) == INT_MIN && I(b) == -1) return a;
         return U(I(a) / I(b));
       }},
      {"MOD (x%0 = -1, INT_MIN%-1 = 0)", "MOD $D, $S0, $S1", false,
       [](U a, U b, U) {
         if (b == 0) return ~0u;
         if (I(a) == INT_MIN && I(b) == -1) return 0u;
         return U(I(a) % I(b));
       }},
      {"IMAX", "IMAX $D, $S0, $S1", false, [](U a, U b, U) { return U(std::max(I(a), I(b))); }},
      {"IMIN", "IMIN $D, $S0, $S1", false, [](U a, U b, U) { return U(std::min(I(a), I(b))); }},
      {"UMAX", "UMAX $D, $S0, $S1", false, [](U a, U b, U) { return std::max(a, b); }},
      {"UMIN", "UMIN $D, $S0, $S1", false, [](U a, U b, U) { return std::min(a, b); }},
      {"INEG", "INEG $D, $S0", false, [](U a, U, U) { return 0u - a; }},
      {"IABS (INT_MIN stays)", "IABS $D, $S0", false,
       [](U a, U, U) { return I(a) < 0 ? 0u - a : a; }},
      {"ISSG", "ISSG $D, $S0", false,
       [](U a, U, U) {
         return U(I(a) > 0 ? 1 : I(a) < 0 ? -1 : 0);
       }},
      {"ISGE", "ISGE $D, $S0, $S1", false, [](U a, U b, U) { return I(a) >= I(b) ? ~0u : 0u; }},
      {"ISLT", "ISLT $D, $S0, $S1", false, [](U a, U b, U) { return I(a) < I(b) ? ~0u : 0u; }},
      {"USEQ", "USEQ $D, $S0, $S1", false, [](U a, U b, U) { return a == b ? ~0u : 0u; }},
      {"USNE", "USNE $D, $S0, $S1", false, [](U a, U b, U) { return a != b ? ~0u : 0u; }},
      {"USGE", "USGE $D, $S0, $S1", false, [](U a, U b, U) { return a >= b ? ~0u : 0u; }},
      {"USLT", "USLT $D, $S0, $S1", false, [](U a, U b, U) { return a < b ? ~0u : 0u; }},
      {"SHL (count & 31)", "SHL $D, $S0, $S1", false, [](U a, U b, U) { return a << (b & 31); }},
      {"ISHR (count & 31)", "ISHR $D, $S0, $S1", false,
       [](U a, U b, U) { return U(I(a) >> (b & 31)); }},
      {"USHR (count & 31)", "USHR $D, $S0, $S1", false, [](U a, U b, U) { return a >> (b & 31); }},
      {"AND", "AND $D, $S0, $S1", false, [](U a, U b, U) { return a & b; }},
      {"OR", "OR $D, $S0, $S1", false, [](U a, U b, U) { return a | b; }},
      {"XOR", "XOR $D, $S0, $S1", false, [](U a, U b, U) { return a ^ b; }},
      {"NOT", "NOT $D, $S0", false, [](U a, U, U) { return ~a; }},
      {"AND -x", "AND $D, -$S0, $S1", false, [](U a, U b, U) { return (0u - a) & b; }},
  };
  run_op_table(cases, int_inputs());
}

TEST_CASE("emit: bit-field and bit-count opcodes", "[emit][alu]") {
  std::vector<OpCase> cases = {
      {"IBFE", "IBFE $D, $S0, $S1, $S2", false,
       [](U a, U b, U c) { return U(ibfe(I(a), I(b), I(c))); }},
      {"UBFE", "UBFE $D, $S0, $S1, $S2", false, [](U a, U b, U c) { return ubfe(a, I(b), I(c)); }},
      {"BFI",
       "BFI $D, $S0, $S1, $S2, $S3",
       false,
       nullptr,
       {},
       Check::kBits,
       0,
       0xf,
       [](U a, U b, U c, U d) { return bfi(a, b, I(c), I(d)); }},
      {"BREV", "BREV $D, $S0", false, [](U a, U, U) { return brev(a); }},
      {"POPC", "POPC $D, $S0", false, [](U a, U, U) { return U(__builtin_popcount(a)); }},
      {"LSB", "LSB $D, $S0", false, [](U a, U, U) { return U(lsb(a)); }},
      {"UMSB", "UMSB $D, $S0", false, [](U a, U, U) { return U(msb(a)); }},
      {"IMSB", "IMSB $D, $S0", false, [](U a, U, U) { return U(msb(I(a) < 0 ? ~a : a)); }},
  };
  OpInputs in = int_inputs();
  // Bit-field widths and offsets around the edges: 0, 1, 31, 32, 33 and negative.
  const uint32_t fields[] = {0, 1, 4, 8, 16, 24, 28, 31, 32, 33, 0xffffffffu};
  for (uint32_t v : {0x12345678u, 0x80000000u, 0xffffffffu, 0x7fffffffu, 0xdeadbeefu}) {
    for (uint32_t o : fields) {
      for (uint32_t w : fields)
        in.push_back({v, o, w, o ^ 5u});
    }
  }
  // BFI reads them as (base, insert, offset, bits).
  run_op_table(cases, in);
}
