// Corpus test: every shader of the TGSI corpus (tests/data) parses, validates, analyses,
// prints, and re-parses to an equal IR; its stage, instruction count and opcode set
// agree with the corpus index (index.tsv, produced independently by the capture tools).
#include <chrono>
#include <map>
#include <set>
#include <sstream>

#include "compiler/control_flow.h"
#include "compiler/shader_info.h"
#include "compiler/tgsi/printer.h"
#include "compiler/tgsi_test_util.h"

using namespace clpipe;
using namespace clpipe::compiler;
using namespace clpipe::compiler::test;

namespace {

struct IndexRow {
  std::string stage;
  size_t instructions = 0;
  std::set<std::string> opcodes;
};

// index.tsv: file, stage, piglit test, result, n tests, n instructions, so outputs, opcodes.
std::map<std::string, IndexRow> read_index() {
  std::map<std::string, IndexRow> rows;
  std::istringstream in(read_text(corpus_dir() + "/index.tsv"));
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    std::istringstream ls(line);
    std::string col;
    while (std::getline(ls, col, '\t'))
      cols.push_back(col);
    if (cols.size() < 8) continue;
    IndexRow r;
    r.stage = cols[1];
    r.instructions = std::stoul(cols[5]);
    std::istringstream ops(cols[7]);
    std::string op;
    while (std::getline(ops, op, ','))
      r.opcodes.insert(op);
    rows[cols[0]] = r;
  }
  return rows;
}

}  // namespace

TEST_CASE("corpus: every shader parses, validates, prints and re-parses equal",
          "[compiler][corpus]") {
  const auto files = corpus_files();
  REQUIRE(files.size() == 3777);
  const auto index = read_index();
  REQUIRE(index.size() == files.size());

  auto start = std::chrono::steady_clock::now();
  size_t failures = 0, instructions = 0, stale_labels = 0;
  for (const std::string& path : files) {
    const std::string name = path.substr(path.find_last_of('/') + 1);
    INFO(name);
    const std::string text = read_text(path);
    try {
      Shader a = parse_tgsi(text);
      validate(a);
      ShaderInfo info = analyze(a);
      stale_labels += control_flow(a).stale_labels.size();
      std::string printed = print_tgsi(a);
      Shader b = parse_tgsi(printed);
      if (a != b) {
        ++failures;
        FAIL_CHECK("round trip changed the IR of " << name);
        continue;
      }
      CHECK(print_tgsi(b) == printed);
      instructions += a.instructions.size();

      const IndexRow& row = index.at(name);
      CHECK(stage_name(a.stage) == row.stage);
      CHECK(a.instructions.size() == row.instructions);
      std::set<std::string> ops;
      for (const Instruction& inst : a.instructions)
        ops.insert(inst.info().name);
      CHECK(ops == row.opcodes);
      CHECK(info.num_instructions == row.instructions);
    } catch (const CompileError& e) {
      ++failures;
      FAIL_CHECK(name << ": " << e.what());
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  WARN("corpus: " << files.size() << " shaders, " << instructions << " instructions, "
                  << stale_labels << " stale IF/ELSE labels, " << seconds << " s");
  CHECK(failures == 0);
  CHECK(instructions == 82606);  // STATS.md: static instructions of the kept shaders
}

TEST_CASE("corpus: printing reproduces every instruction line of the dump", "[compiler][corpus]") {
  // The corpus is tgsi_dump output: apart from merged declarations and properties moved
  // to the top, the printer must reproduce it byte for byte (instructions, immediates).
  size_t compared = 0;
  for (const std::string& path : corpus_files()) {
    const std::string text = read_text(path);
    const std::string printed = print_tgsi(parse_tgsi(text));
    auto body = [](const std::string& t) {
      std::string out;
      std::istringstream in(t);
      std::string line;
      while (std::getline(in, line)) {
        if (line.rfind("IMM", 0) == 0 || (line.size() > 4 && line[3] == ':')) out += line + "\n";
      }
      return out;
    };
    const std::string expected = body(text);
    if (body(printed) != expected) {
      FAIL_CHECK("instructions or immediates differ for " << path);
    }
    ++compared;
  }
  CHECK(compared == 3777);
}
