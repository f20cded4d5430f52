// Fuzz test of the TGSI front-end and the OpenCL C emitter: deterministic random
// mutations of corpus shaders (tokens and characters deleted, inserted or replaced,
// numbers made huge, lines swapped or duplicated, text truncated). For every mutant,
// parse + validate + analysis + control flow must not crash or throw anything but
// CompileError, every diagnostic must carry a line:column inside the text, a mutant that
// validates must survive the print / re-parse round trip and go through emit_opencl (with
// and without fp64) with at most a CompileError. A second test builds a fixed set of
// emitted mutants on the device. The fixed mutant count bounds the time (a few seconds
// on the 2-core CI machine; the figure is reported, never asserted).
#include <chrono>
#include <map>

#include "compiler/control_flow.h"
#include "compiler/emit/emit.h"
#include "compiler/emit/harness.h"
#include "compiler/linkage.h"
#include "compiler/shader_info.h"
#include "compiler/tgsi/printer.h"
#include "compiler/tgsi_test_util.h"
#include "runtime/error.h"
#include "support/test_device.h"

using namespace clpipe;
using namespace clpipe::compiler;
using namespace clpipe::compiler::test;

namespace {

// splitmix64: a fixed, portable generator (std distributions differ between libraries).
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return n ? size_t(next() % n) : 0; }

 private:
  uint64_t s_;
};

const char* const kTokens[] = {
    "DCL",
    "IMM",
    "PROPERTY",
    "TEMP",
    "IN",
    "OUT",
    "CONST",
    "SAMP",
    "SVIEW",
    "IMAGE",
    "BUFFER",
    "MEMORY",
    "HWATOMIC",
    "ADDR",
    "SV",
    "NULL",
    "CONSTBUF",
    "MOV",
    "MOV_SAT",
    "ADD",
    "MAD",
    "UIF",
    "IF",
    "ELSE",
    "ENDIF",
    "BGNLOOP",
    "ENDLOOP",
    "BRK",
    "CONT",
    "SWITCH",
    "CASE",
    "DEFAULT",
    "ENDSWITCH",
    "BGNSUB",
    "ENDSUB",
    "CAL",
    "RET",
    "END",
    "KILL",
    "EMIT",
    "BARRIER",
    "TEX",
    "TXF",
    "TG4",
    "LOAD",
    "STORE",
    "ATOMCAS",
    "DADD",
    "DSLT",
    "U64ADD",
    "UARL",
    "GENERIC",
    "POSITION",
    "COLOR",
    "BCOLOR",
    "FACE",
    "PRIM_ID",
    "CLIPDIST",
    "ARRAY(1)",
    "ARRAY(0)",
    "LOCAL",
    "STREAM(1,1,1,1)",
    "PERSPECTIVE",
    "CONSTANT",
    "CENTROID",
    "SAMPLE",
    "INVARIANT",
    "2D",
    "CUBEARRAY",
    "UNKNOWN",
    "FLOAT",
    "SINT",
    "WR",
    "RAW",
    "ATOMIC",
    "SHARED",
    "PIPE_FORMAT_R32_UINT",
    "PIPE_FORMAT_FOO",
    "VOLATILE",
    "FLT32",
    "UINT32",
    "INT32",
    "FLT64",
    "UINT64",
    "INT64",
    "GS_INPUT_PRIMITIVE",
    "TRIANGLES",
    "NUM_CLIPDIST_ENABLED",
    "[",
    "]",
    "[]",
    "..",
    ".",
    ",",
    ":",
    "(",
    ")",
    "{",
    "}",
    "|",
    "-",
    "+",
    ".xyzw",
    ".x",
    ".xxxx",
    ".zx",
    "[0]",
    "[1][2]",
    "[ADDR[0].x+1]",
    "[ADDR[1].x](1)",
    "TEMP[0]",
    "IN[0].xyzw",
    "0x3f800000",
    "1.5e3",
    "4294967295",
    "4294967296",
    "32767",
    "32768",
    "-1",
    "0",
    ":0",
    ":99999",
    "\r",
    "\r\n",
    "\t",
    "\n",
    "VERT",
    "FRAG",
    "GEOM",
    "COMP",
};

const char* const kNumbers[] = {"0",
                                "1",
                                "3",
                                "31",
                                "255",
                                "32767",
                                "32768",
                                "65535",
                                "65536",
                                "2147483648",
                                "4294967295",
                                "4294967296",
                                "99999999999999999999999",
                                "-1",
                                "-2147483649"};

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// [begin, end) of a random whitespace-separated token, or {0, 0} when there is none.
std::pair<size_t, size_t> random_token(const std::string& t, Rng& rng) {
  if (t.empty()) return {0, 0};
  size_t p = rng.below(t.size());
  while (p < t.size() && is_space(t[p]))
    ++p;
  if (p == t.size()) return {0, 0};
  size_t b = p, e = p;
  while (b > 0 && !is_space(t[b - 1]))
    --b;
  while (e < t.size() && !is_space(t[e]))
    ++e;
  return {b, e};
}

std::vector<std::string> split_lines(const std::string& t) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t i = 0; i <= t.size(); ++i) {
    if (i == t.size() || t[i] == '\n') {
      lines.push_back(t.substr(start, i - start));
      start = i + 1;
    }
  }
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string t;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i) t += '\n';
    t += lines[i];
  }
  return t;
}

void mutate(std::string& t, Rng& rng) {
  switch (rng.below(10)) {
    case 0: {  // delete a token
      auto [b, e] = random_token(t, rng);
      t.erase(b, e - b);
      break;
    }
    case 1: {  // insert a token
      const char* tok = kTokens[rng.below(std::size(kTokens))];
      size_t p = rng.below(t.size() + 1);
      t.insert(p, rng.below(2) ? std::string(" ") + tok + " " : std::string(tok));
      break;
    }
    case 2: {  // replace a token
      auto [b, e] = random_token(t, rng);
      t.replace(b, e - b, kTokens[rng.below(std::size(kTokens))]);
      break;
    }
    case 3: {  // character edits, any byte value
      if (t.empty()) break;
      size_t p = rng.below(t.size());
      char c = char(rng.below(256));
      switch (rng.below(3)) {
        case 0:
          t.erase(p, 1);
          break;
        case 1:
          t.insert(t.begin() + long(p), c);
          break;
        default:
          t[p] = c;
      }
      break;
    }
    case 4: {  // a number becomes huge, negative or a boundary value
      size_t p = rng.below(t.size() + 1);
      while (p < t.size() && !is_digit(t[p]))
        ++p;
      if (p == t.size()) break;
      size_t e = p;
      while (e < t.size() && is_digit(t[e]))
        ++e;
      t.replace(p, e - p, kNumbers[rng.below(std::size(kNumbers))]);
      break;
    }
    case 5: {  // swap two lines
      auto lines = split_lines(t);
      std::swap(lines[rng.below(lines.size())], lines[rng.below(lines.size())]);
      t = join_lines(lines);
      break;
    }
    case 6: {  // duplicate a line
      auto lines = split_lines(t);
      size_t i = rng.below(lines.size());
      lines.insert(lines.begin() + long(rng.below(lines.size() + 1)), lines[i]);
      t = join_lines(lines);
      break;
    }
    case 7:  // truncate
      t.resize(rng.below(t.size() + 1));
      break;
    case 8: {  // delete a line
      auto lines = split_lines(t);
      lines.erase(lines.begin() + long(rng.below(lines.size())));
      t = join_lines(lines);
      break;
    }
    default: {  // change a letter's case or a swizzle letter
      size_t p = rng.below(t.size() + 1);
      for (; p < t.size(); ++p) {
        char c = t[p];
        if (c >= 'a' && c <= 'z') {
          t[p] = "xyzwq"[rng.below(5)];
          break;
        }
        if (c >= 'A' && c <= 'Z') {
          t[p] = char(c - 'A' + 'a');
          break;
        }
      }
      break;
    }
  }
}

// Lines and their lengths of the text the parser sees (up to the first NUL).
struct TextShape {
  std::vector<size_t> line_length;
  explicit TextShape(const std::string& text) {
    std::string t = text.substr(0, text.find('\0'));
    for (const std::string& l : split_lines(t))
      line_length.push_back(l.size());
  }
  bool contains(SourceLoc loc) const {
    return loc.line >= 1 && loc.line <= line_length.size() && loc.column >= 1 &&
           loc.column <= line_length[loc.line - 1] + 1;
  }
};

}  // namespace

TEST_CASE("fuzz: mutated corpus shaders never crash and always point at the text",
          "[compiler][fuzz]") {
  const auto files = corpus_files();
  REQUIRE(!files.empty());
  std::vector<std::string> texts;
  for (const std::string& f : files)
    texts.push_back(read_text(f));

  constexpr int kMutants = 50000;
  Rng rng(20240611);
  size_t parse_errors = 0, validate_errors = 0, valid_mutants = 0, emit_errors = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kMutants; ++i) {
    std::string text = texts[rng.below(texts.size())];
    const int edits = 1 + int(rng.below(3));
    for (int k = 0; k < edits; ++k)
      mutate(text, rng);
    TextShape shape(text);
    auto check_diagnostics = [&](const CompileError& e) {
      REQUIRE_FALSE(e.diagnostics().empty());
      for (const Diagnostic& d : e.diagnostics()) {
        if (!shape.contains(d.loc) || d.message.empty()) {
          FAIL("mutant " << i << ": diagnostic " << d.to_string() << " outside the text:\n"
                         << text);
        }
      }
    };
    Shader shader;
    try {
      shader = parse_tgsi(text);
    } catch (const CompileError& e) {
      ++parse_errors;
      check_diagnostics(e);
      continue;
    }
    // The analysis must cope with shaders that fail validation, too.
    ShaderInfo info = analyze(shader);
    (void)describe_shader_info(info);
    try {
      validate(shader);
    } catch (const CompileError& e) {
      ++validate_errors;
      check_diagnostics(e);
      continue;
    }
    ++valid_mutants;
    (void)control_flow(shader);
    if (shader.stage == ShaderType::FRAGMENT) {
      ShaderInfo vs = analyze(parse_tgsi("VERT\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\nEND\n"));
      (void)link_fs_inputs(vs, info);
    }
    const std::string printed = print_tgsi(shader);
    Shader again;
    try {
      again = parse_tgsi(printed);
    } catch (const CompileError& e) {
      FAIL("mutant " << i << " validated but its print does not parse: " << e.what() << "\n"
                     << printed);
    }
    if (again != shader) FAIL("mutant " << i << " changed in the round trip:\n" << printed);
    for (bool fp64 : {true, false}) {
      EmitOptions options;
      options.fp64 = fp64;
      try {
        const EmittedShader code = emit_opencl(shader, info, options);
        if (code.body.find("void clp_shader_main(") == std::string::npos) {
          FAIL("mutant " << i << ": emitted no clp_shader_main:\n" << text);
        }
      } catch (const CompileError& e) {
        ++emit_errors;
        check_diagnostics(e);
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  WARN("fuzz: " << kMutants << " mutants: " << parse_errors << " parse errors, " << validate_errors
                << " validation errors, " << valid_mutants << " valid, " << emit_errors
                << " emit errors (fp64 on and off), " << seconds << " s");
  // The mutations must exercise all three outcomes.
  CHECK(parse_errors > kMutants / 4);
  CHECK(validate_errors > kMutants / 50);
  CHECK(valid_mutants > kMutants / 50);
}

TEST_CASE("fuzz: emitted mutants build on the device", "[compiler][fuzz][emit]") {
  const auto files = corpus_files();
  REQUIRE(!files.empty());
  // 48 mutants that validate and emit, grouped by stage, built in batches of 12.
  constexpr size_t kWanted = 48;
  Rng rng(20240707);
  std::map<ShaderType, std::vector<EmittedShader>> by_stage;
  size_t found = 0;
  for (int attempt = 0; attempt < 200000 && found < kWanted; ++attempt) {
    std::string text = read_text(files[rng.below(files.size())]);
    mutate(text, rng);
    try {
      Shader shader = parse_tgsi(text);
      validate(shader);
      by_stage[shader.stage].push_back(emit_opencl(shader, analyze(shader), EmitOptions{}));
      ++found;
    } catch (const CompileError&) {
    }
  }
  REQUIRE(found == kWanted);
  for (const auto& [stage, list] : by_stage) {
    for (size_t b = 0; b < list.size(); b += 12) {
      std::vector<const EmittedShader*> batch;
      for (size_t k = b; k < std::min(b + 12, list.size()); ++k)
        batch.push_back(&list[k]);
      try {
        clpipe::test::test_program_cache().get(clpipe::test::emit::batch_source(batch));
      } catch (const clpipe::runtime::Error& e) {
        FAIL_CHECK(e.what() << "\n" << e.build_log().substr(0, 4000));
      }
    }
  }
}
