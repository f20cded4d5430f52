// Helpers of the sampling tests against the host reference (reference_sampler.h): random
// textures of every format class laid out the way the front-end lays out resources,
// random sampler states, and a checker that compares device results with the reference
// and reports the first mismatches. Header-only; consumers: sampling_*_test.cpp.
#pragma once

#include <catch2/catch.hpp>

#include <random>
#include <sstream>
#include <string>

#include "clpipe/format.h"
#include "compiler/emit/harness.h"
#include "compiler/emit/reference_sampler.h"
#include "frontend/format_codec.h"

namespace clpipe::test::sampling {

using emit::TextureBinding;

// Format classes of the sweep; kDepth textures hold depths (with a random stencil).
enum class FormatClass { kUnorm, kSnorm, kFloat, kSrgb, kUint, kSint, kDepth };
constexpr FormatClass kAllClasses[] = {
    FormatClass::kUnorm, FormatClass::kSnorm, FormatClass::kFloat, FormatClass::kSrgb,
    FormatClass::kUint,  FormatClass::kSint,  FormatClass::kDepth};

inline const char* class_name(FormatClass c) {
  switch (c) {
    case FormatClass::kUnorm:
      return "unorm";
    case FormatClass::kSnorm:
      return "snorm";
    case FormatClass::kFloat:
      return "float";
    case FormatClass::kSrgb:
      return "srgb";
    case FormatClass::kUint:
      return "uint";
    case FormatClass::kSint:
      return "sint";
    default:
      return "depth";
  }
}

// The format of a class in run k (two formats per class, alternating, so that formats
// with missing channels and format swizzles are covered too).
inline Format class_format(FormatClass c, uint32_t k) {
  const bool odd = (k & 1) != 0;
  switch (c) {
    case FormatClass::kUnorm:
      return odd ? Format::L8A8_UNORM : Format::R8G8B8A8_UNORM;
    case FormatClass::kSnorm:
      return odd ? Format::R8G8_SNORM : Format::R8G8B8A8_SNORM;
    case FormatClass::kFloat:
      return odd ? Format::R32G32B32A32_FLOAT : Format::R16G16B16A16_FLOAT;
    case FormatClass::kSrgb:
      return Format::R8G8B8A8_SRGB;
    case FormatClass::kUint:
      return odd ? Format::R32G32B32A32_UINT : Format::R8G8B8A8_UINT;
    case FormatClass::kSint:
      return odd ? Format::R16G16_SINT : Format::R32G32B32A32_SINT;
    default: {
      const Format z[3] = {Format::Z16_UNORM, Format::Z24_UNORM_S8_UINT, Format::Z32_FLOAT};
      return z[k % 3];
    }
  }
}

// Texture geometry: view target, level-0 size, layers (cube: 6 per cube), levels.
struct TexShape {
  uint32_t target = CLP_TEXTARGET_2D;
  uint32_t w = 8, h = 8, d = 1, layers = 1, levels = 1;
};

// A texture of random texels in `fmt`, rows padded (pitch > width), levels and layers at
// increasing offsets (as layout.cpp does), the whole view visible.
inline TextureBinding random_texture(const TexShape& s, Format fmt, std::mt19937& rng) {
  TextureBinding b;
  ClpTexView& v = b.view;
  v.format = uint32_t(fmt);
  v.target = s.target;
  v.width = s.w;
  v.height = s.h;
  v.depth = s.d;
  v.layers = s.layers;
  v.last_level = s.levels - 1;
  v.last_layer = s.layers - 1;
  for (uint32_t c = 0; c < 4; ++c)
    v.swizzle[c] = c;
  v.samples = 1;
  const uint32_t bb = format_desc(fmt).block_bytes;
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  uint32_t off = 0;
  for (uint32_t l = 0; l < s.levels; ++l) {
    const uint32_t w = std::max(s.w >> l, 1u);
    const uint32_t h = s.target == CLP_TEXTARGET_1D || s.target == CLP_TEXTARGET_1D_ARRAY
                           ? 1u
                           : std::max(s.h >> l, 1u);
    const uint32_t slices = s.target == CLP_TEXTARGET_3D ? std::max(s.d >> l, 1u) : s.layers;
    v.level_offset[l] = off;
    v.row_pitch[l] = w * bb + 2 * bb;  // padded rows: pitch and width differ
    v.layer_pitch[l] = v.row_pitch[l] * h + 4;
    const uint32_t size = v.layer_pitch[l] * slices;
    b.data.resize(off + size, 0xcd);
    for (uint32_t z = 0; z < slices; ++z) {
      for (uint32_t y = 0; y < h; ++y) {
        for (uint32_t x = 0; x < w; ++x) {
          uint8_t* p = &b.data[off + z * v.layer_pitch[l] + y * v.row_pitch[l] + x * bb];
          std::memset(p, 0, bb);
          if (format_has_depth(fmt)) {
            frontend::pack_depth(fmt, unit(rng), p);
            if (format_has_stencil(fmt)) frontend::pack_stencil(fmt, rng() & 0xff, p);
          } else if (format_is_pure_uint(fmt)) {
            const uint32_t u[4] = {uint32_t(rng() % 300), uint32_t(rng() % 300),
                                   uint32_t(rng() % 300), uint32_t(rng() % 300)};
            frontend::pack_rgba_uint(fmt, u, p);
          } else if (format_is_pure_sint(fmt)) {
            const int32_t i[4] = {int32_t(rng() % 600) - 300, int32_t(rng() % 600) - 300,
                                  int32_t(rng() % 600) - 300, int32_t(rng() % 600) - 300};
            frontend::pack_rgba_sint(fmt, i, p);
          } else {
            float f[4];
            for (float& c : f) {
              c = unit(rng);
              if (format_desc(fmt).channel[0].type == ChannelType::SNORM) c = 2.0f * c - 1.0f;
              if (format_desc(fmt).channel[0].type == ChannelType::FLOAT) c = 8.0f * c - 4.0f;
            }
            frontend::pack_rgba_float(fmt, f, p);
          }
        }
      }
    }
    off += size;
  }
  b.data.resize(off + 16, 0xcd);  // bytes past the last level are never texels
  v.data_size = uint32_t(b.data.size());
  b.sampler.min_lod = -1000.0f;
  b.sampler.max_lod = 1000.0f;
  return b;
}

inline ref::Texture as_ref(const TextureBinding& b) {
  ref::Texture t;
  t.view = b.view;
  t.sampler = b.sampler;
  t.data = &b.data;
  return t;
}

// Compares device results with reference results; remembers the first mismatches.
class Checker {
 public:
  void check(const std::string& where, const ref::Result& want, const uint32_t got[4]) {
    ++total_;
    if (want.ambiguous) {
      ++skipped_;
      return;
    }
    for (int c = 0; c < 4; ++c) {
      const bool ok = want.integer ? got[c] == want.bits[size_t(c)]
                                   : ref::close(emit::bitsf(got[c]), want.f(c));
      if (ok) continue;
      if (++failures_ <= 12) {
        std::ostringstream o;
        o << where << " channel " << c << ": got "
          << (want.integer ? std::to_string(got[c]) : std::to_string(emit::bitsf(got[c])))
          << " want "
          << (want.integer ? std::to_string(want.bits[size_t(c)]) : std::to_string(want.f(c)))
          << "\n";
        report_ += o.str();
      }
      break;
    }
  }
  // Every compared result matched, and at most 15 % of them were too close to a
  // discontinuity to be compared.
  void require() const {
    INFO(report_ << failures_ << " mismatches, " << skipped_ << " of " << total_
                 << " results skipped as ambiguous");
    CHECK(failures_ == 0);
    CHECK(total_ > 0);
    CHECK(skipped_ * 100 <= total_ * 15);
  }
  uint64_t total() const { return total_; }

 private:
  uint64_t total_ = 0, skipped_ = 0, failures_ = 0;
  std::string report_;
};

inline uint32_t fb(float f) {
  return emit::fbits(f);
}

}  // namespace clpipe::test::sampling
