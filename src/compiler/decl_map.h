// Register lookup over a shader's declarations: which declaration covers FILE[dim][index],
// which declares ARRAY(id), how far each file extends.
//
// Built from a Shader (ir.h) by the validator and the analysis. Keys: the file, the
// dimension for 2D declarations (CONST / HWATOMIC buffer; 0 for 1D ones, since
// "CONST[n]" is buffer 0), the register index. Per-vertex IN/OUT have no dimension key:
// their vertex bracket is not part of the declaration.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "compiler/ir.h"

namespace clpipe::compiler {

class DeclMap {
 public:
  explicit DeclMap(const Shader& shader);

  // The declaration covering the register, or nullptr.
  const Declaration* find(RegFile file, uint32_t dim, uint32_t index) const;
  // A declaration covering `index` in any dimension (dimension-indirect operands).
  const Declaration* find_any_dim(RegFile file, uint32_t index) const;
  // The declaration with ARRAY(array_id) in `file`, or nullptr.
  const Declaration* find_array(RegFile file, uint32_t array_id) const;
  // Highest declared index + 1 over all dimensions (0 when nothing is declared).
  uint32_t extent(RegFile file) const { return extent_[size_t(file)]; }
  // Pairs of declarations (indices into Shader::declarations, earlier first) that
  // declare a common register.
  const std::vector<std::pair<size_t, size_t>>& overlaps() const { return overlaps_; }

 private:
  struct Entry {
    uint32_t dim, first, last;
    uint32_t decl;        // index into declarations_
    uint32_t reach;       // max `last` of the entries of this dimension up to here
    uint32_t reach_decl;  // the declaration that reaches that far
  };
  const std::vector<Declaration>* declarations_;
  std::array<std::vector<Entry>, kRegFileCount> entries_;
  std::array<uint32_t, kRegFileCount> extent_{};
  std::vector<std::pair<size_t, size_t>> overlaps_;
};

}  // namespace clpipe::compiler
