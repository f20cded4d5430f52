// Register lookup over declarations (decl_map.h): per file, entries sorted by
// (dimension, first) with a running maximum of `last`, so a lookup is one binary search
// even when declarations overlap.
#include "compiler/decl_map.h"

#include <algorithm>

namespace clpipe::compiler {

DeclMap::DeclMap(const Shader& shader) : declarations_(&shader.declarations) {
  const auto& decls = shader.declarations;
  for (size_t i = 0; i < decls.size(); ++i) {
    const Declaration& d = decls[i];
    size_t f = size_t(d.file);
    if (f >= kRegFileCount) continue;
    uint32_t dim = d.has_dimension ? d.dimension : 0;
    entries_[f].push_back(Entry{dim, d.first, d.last, uint32_t(i), 0, 0});
    extent_[f] = std::max(extent_[f], d.last + 1);
  }
  for (auto& list : entries_) {
    std::sort(list.begin(), list.end(), [](const Entry& a, const Entry& b) {
      if (a.dim != b.dim) return a.dim < b.dim;
      if (a.first != b.first) return a.first < b.first;
      return a.decl < b.decl;
    });
    for (size_t k = 0; k < list.size(); ++k) {
      Entry& e = list[k];
      e.reach = e.last;
      e.reach_decl = e.decl;
      if (k > 0 && list[k - 1].dim == e.dim) {
        const Entry& prev = list[k - 1];
        if (e.first <= prev.reach) {
          overlaps_.emplace_back(std::min(prev.reach_decl, e.decl),
                                 std::max(prev.reach_decl, e.decl));
        }
        if (prev.reach > e.reach) {
          e.reach = prev.reach;
          e.reach_decl = prev.reach_decl;
        }
      }
    }
  }
  std::sort(overlaps_.begin(), overlaps_.end());
}

const Declaration* DeclMap::find(RegFile file, uint32_t dim, uint32_t index) const {
  size_t f = size_t(file);
  if (f >= kRegFileCount) return nullptr;
  const auto& list = entries_[f];
  auto it =
      std::upper_bound(list.begin(), list.end(), std::make_pair(dim, index),
                       [](const std::pair<uint32_t, uint32_t>& key, const Entry& e) {
                         return key.first < e.dim || (key.first == e.dim && key.second < e.first);
                       });
  if (it == list.begin()) return nullptr;
  --it;
  if (it->dim != dim || it->reach < index) return nullptr;
  // The entry reaching furthest starts at or before `index` and ends at or after it.
  return &(*declarations_)[it->reach_decl];
}

const Declaration* DeclMap::find_any_dim(RegFile file, uint32_t index) const {
  size_t f = size_t(file);
  if (f >= kRegFileCount) return nullptr;
  for (const Entry& e : entries_[f]) {
    if (e.first <= index && index <= e.last) return &(*declarations_)[e.decl];
  }
  return nullptr;
}

const Declaration* DeclMap::find_array(RegFile file, uint32_t array_id) const {
  if (array_id == 0) return nullptr;
  size_t f = size_t(file);
  if (f >= kRegFileCount) return nullptr;
  for (const Entry& e : entries_[f]) {
    const Declaration& d = (*declarations_)[e.decl];
    if (d.array_id == array_id) return &d;
  }
  return nullptr;
}

}  // namespace clpipe::compiler
