// Internal state of validate() (validate.h), shared by validate.cpp (driver,
// properties, declarations) and validate_instructions.cpp (instructions and operands).
#pragma once

#include <string>
#include <vector>

#include "compiler/decl_map.h"
#include "compiler/ir.h"

namespace clpipe::compiler::detail {

class Validator {
 public:
  explicit Validator(const Shader& shader) : shader_(shader), decls_(shader) {}
  std::vector<Diagnostic> run();

 private:
  // validate.cpp
  void check_properties();
  void check_declarations();
  void check_declaration(const Declaration& d);

  // validate_instructions.cpp
  void check_instruction(const Instruction& inst);
  void check_dst(const Instruction& inst, unsigned i);
  void check_src(const Instruction& inst, unsigned i);
  void check_write_mask(const Instruction& inst, unsigned i);
  void check_stage_rules(const Instruction& inst);
  // The register exists: declared (or a valid IMM), legal dimension and indirection.
  void check_register(const RegisterRef& reg, SourceLoc loc);
  void check_indirect(const IndirectRef& ind, RegFile file, SourceLoc loc);

  void error(SourceLoc loc, std::string message);
  bool full() const { return diags_.size() >= kMaxDiagnostics; }

  const Shader& shader_;
  DeclMap decls_;
  std::vector<Diagnostic> diags_;
};

// "TEMP[3]", "CONST[1][4]" for messages.
std::string describe_register(const RegisterRef& reg);

}  // namespace clpipe::compiler::detail
