// The corpus through the emitter: every one of the 3777 shaders is emitted (fast, no
// device), and a fixed stratified sample is emitted and built on the device. The sample
// is computed deterministically: a greedy cover of every feature that occurs in the
// corpus (stage, opcode, declaration kind, semantic, texture target, memory type,
// indirect form, immediate type, modifier, property), then a seeded random fill of every
// stage up to kSampleSize. Programs are built in batches of one stage (harness.h
// batch_source) because PoCL spends about a second on each program; the time is printed,
// never asserted.
#include <catch2/catch.hpp>

#include <chrono>
#include <map>
#include <set>

#include "compiler/emit/harness.h"
#include "compiler/shader_info.h"
#include "compiler/tgsi/parser.h"
#include "compiler/tgsi_test_util.h"
#include "compiler/validate.h"
#include "runtime/error.h"
#include "support/test_device.h"

using namespace clpipe;
using namespace clpipe::compiler;

namespace {

constexpr size_t kSampleSize = 320;
constexpr size_t kBatch = 12;

// splitmix64: portable and fixed.
uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::set<std::string> features(const Shader& s) {
  std::set<std::string> f;
  const std::string stage = stage_name(s.stage);
  f.insert("stage:" + stage);
  for (const PropertyDecl& p : s.properties)
    f.insert(std::string("prop:") + property_name(p.name));
  for (const Declaration& d : s.declarations) {
    std::string k = std::string("dcl:") + file_name(d.file);
    f.insert(k);
    if (d.has_semantic) f.insert(k + ":" + stage + ":" + semantic_name(d.semantic));
    if (d.has_interp) f.insert(std::string("interp:") + interp_name(d.interp));
    if (d.location != InterpLoc::CENTER)
      f.insert(std::string("loc:") + interp_loc_name(d.location));
    if (d.file == RegFile::SVIEW) f.insert(std::string("sview:") + texture_name(d.target));
    if (d.file == RegFile::IMAGE) f.insert(std::string("image:") + texture_name(d.target));
    if (d.file == RegFile::MEMORY)
      f.insert(std::string("memory:") + memory_type_name(d.memory_type));
    if (d.array_id) f.insert(k + ":array");
    if (d.has_dimension) f.insert(k + ":2d");
  }
  for (const Immediate& imm : s.immediates)
    f.insert(std::string("imm:") + imm_type_name(imm.type));
  for (const Instruction& inst : s.instructions) {
    const std::string op = inst.info().name;
    f.insert("op:" + op);
    if (inst.saturate) f.insert("mod:sat");
    if (inst.precise) f.insert("mod:precise");
    if (inst.info().is_tex) f.insert("tex:" + op + ":" + texture_name(inst.texture));
    if (inst.num_tex_offsets) f.insert("texoffset:" + op);
    auto reg = [&](const RegisterRef& r) {
      const std::string file = file_name(r.file);
      if (r.indirect.is_indirect()) f.insert("indirect:" + file);
      if (r.has_dimension && r.dim_indirect.is_indirect()) f.insert("dimindirect:" + file);
      if (r.has_dimension && !r.dim_indirect.is_indirect()) f.insert("dim:" + file);
    };
    for (unsigned d = 0; d < inst.num_dst; ++d)
      reg(inst.dst[d].reg);
    for (unsigned k = 0; k < inst.num_src; ++k) {
      reg(inst.src[k].reg);
      if (inst.src[k].negate) f.insert("mod:neg");
      if (inst.src[k].absolute) f.insert("mod:abs");
    }
  }
  return f;
}

struct Entry {
  std::string name;
  Shader ir;
  std::set<std::string> feats;
};

std::vector<Entry> load_corpus() {
  std::vector<Entry> out;
  for (const std::string& path : compiler::test::corpus_files()) {
    Entry e;
    e.name = path.substr(path.rfind('/') + 1);
    e.ir = parse_tgsi(compiler::test::read_text(path));
    e.feats = features(e.ir);
    out.push_back(std::move(e));
  }
  return out;
}

// Greedy cover (most new features, then fewest instructions, then name), then a seeded
// random fill, each stage getting its share of the corpus.
std::vector<size_t> choose_sample(const std::vector<Entry>& corpus) {
  std::set<std::string> need;
  for (const Entry& e : corpus)
    need.insert(e.feats.begin(), e.feats.end());
  std::vector<size_t> chosen;
  std::vector<bool> taken(corpus.size(), false);
  while (!need.empty()) {
    size_t best = corpus.size(), best_gain = 0;
    for (size_t i = 0; i < corpus.size(); ++i) {
      if (taken[i]) continue;
      size_t gain = 0;
      for (const std::string& f : corpus[i].feats)
        gain += need.count(f);
      const bool smaller = best < corpus.size() &&
                           corpus[i].ir.instructions.size() < corpus[best].ir.instructions.size();
      if (gain > best_gain || (gain > 0 && gain == best_gain && smaller)) {
        best = i;
        best_gain = gain;
      }
    }
    if (best == corpus.size()) break;
    taken[best] = true;
    chosen.push_back(best);
    for (const std::string& f : corpus[best].feats)
      need.erase(f);
  }
  std::map<ShaderType, std::vector<size_t>> by_stage;
  for (size_t i = 0; i < corpus.size(); ++i)
    by_stage[corpus[i].ir.stage].push_back(i);
  const size_t fill = kSampleSize > chosen.size() ? kSampleSize - chosen.size() : 0;
  uint64_t seed = 20240521;
  for (auto& [stage, list] : by_stage) {
    size_t want = fill * list.size() / corpus.size() + 1;
    for (size_t tries = 0; want > 0 && tries < list.size() * 4; ++tries) {
      const size_t i = list[splitmix(seed) % list.size()];
      if (taken[i]) continue;
      taken[i] = true;
      chosen.push_back(i);
      --want;
    }
  }
  return chosen;
}

}  // namespace

TEST_CASE("emit corpus: all 3777 shaders emit OpenCL C", "[emit][corpus]") {
  const auto files = compiler::test::corpus_files();
  REQUIRE(files.size() == 3777);
  const auto t0 = std::chrono::steady_clock::now();
  size_t bytes = 0;
  for (const std::string& path : files) {
    INFO(path);
    CompiledShader c = compile_tgsi(compiler::test::read_text(path));
    CHECK(c.code.body.find("void clp_shader_main(") != std::string::npos);
    CHECK(c.code.prelude.find("#define CLP_LANES ") != std::string::npos);
    bytes += c.code.body.size();
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  WARN("emitted " << files.size() << " shaders (" << bytes / 1024 << " KiB of OpenCL C) in " << s
                  << " s");
}

TEST_CASE("emit corpus: a stratified sample builds on the device", "[emit][corpus][build]") {
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<Entry> corpus = load_corpus();
  const std::vector<size_t> sample = choose_sample(corpus);
  CHECK(sample.size() >= 300);
  // Every feature of the corpus is in the sample.
  std::set<std::string> all, covered;
  for (const Entry& e : corpus)
    all.insert(e.feats.begin(), e.feats.end());
  for (size_t i : sample)
    covered.insert(corpus[i].feats.begin(), corpus[i].feats.end());
  CHECK(covered == all);

  EmitOptions options;
  options.fp64 = clpipe::test::test_device().limits().fp64;
  options.fragment_lanes = clpipe::test::test_device().limits().fragment_lanes;
  options.fragment_whole_tile = clpipe::test::test_device().limits().whole_tile_items;
  // A batch holds shaders of one stage and one lane count (batch.h).
  std::map<std::pair<ShaderType, uint32_t>, std::vector<std::pair<std::string, EmittedShader>>>
      by_stage;
  for (size_t i : sample) {
    validate(corpus[i].ir);
    EmittedShader code = emit_opencl(corpus[i].ir, analyze(corpus[i].ir), options);
    by_stage[{code.stage, code.lanes}].emplace_back(corpus[i].name, std::move(code));
  }
  size_t programs = 0;
  for (const auto& [stage, list] : by_stage) {
    for (size_t b = 0; b < list.size(); b += kBatch) {
      std::vector<const EmittedShader*> batch;
      std::string names;
      for (size_t k = b; k < std::min(b + kBatch, list.size()); ++k) {
        batch.push_back(&list[k].second);
        names += list[k].first + " ";
      }
      INFO("batch: " << names);
      try {
        clpipe::test::test_program_cache().get(clpipe::test::emit::batch_source(batch));
      } catch (const runtime::Error& e) {
        FAIL_CHECK(e.what() << "\n" << e.build_log().substr(0, 4000));
      }
      ++programs;
    }
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  WARN("built " << sample.size() << " corpus shaders (" << all.size() << " features) in "
                << programs << " programs in " << s << " s");
}
