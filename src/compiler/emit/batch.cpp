// batch_program_source() (batch.h).
#include "compiler/emit/batch.h"

#include <string>
#include <utility>

#include "base/error.h"
#include "compiler/emit/program_text.h"

namespace clpipe::compiler {

std::string batch_program_source(const std::vector<const EmittedShader*>& shaders) {
  if (shaders.empty()) invalid("batch_program_source: no shader");
  for (const EmittedShader* sh : shaders) {
    if (sh->stage != shaders[0]->stage) invalid("batch_program_source: mixed stages");
    if (sh->lanes != shaders[0]->lanes) invalid("batch_program_source: mixed lane counts");
  }
  // Merge the preludes: sizes take the largest value, flags any, the rest the first's.
  std::vector<std::pair<std::string, std::string>> defs;
  auto set = [&](const std::string& name, const std::string& value, bool take_max) {
    for (auto& d : defs) {
      if (d.first != name) continue;
      if (take_max && std::stol(value) > std::stol(d.second)) d.second = value;
      return;
    }
    defs.emplace_back(name, value);
  };
  std::vector<ResourceParam> params;
  for (const EmittedShader* sh : shaders) {
    size_t pos = 0;
    while (pos < sh->prelude.size()) {
      size_t end = sh->prelude.find('\n', pos);
      if (end == std::string::npos) end = sh->prelude.size();
      const std::string line = sh->prelude.substr(pos, end - pos);
      pos = end + 1;
      if (line.rfind("#define ", 0) != 0) continue;
      const size_t sp = line.find(' ', 8);
      const std::string name = line.substr(8, sp == std::string::npos ? std::string::npos : sp - 8);
      const std::string value = sp == std::string::npos ? "" : line.substr(sp + 1);
      if (name == "CLP_RESOURCE_PARAMS" || name == "CLP_RESOURCE_ARGS") continue;
      const bool sizes = name == "CLP_NUM_INPUTS" || name == "CLP_NUM_OUTPUTS" ||
                         name == "CLP_TCS_VERTICES_OUT" || name == "CLP_GS_MAX_OUTPUT_VERTICES";
      set(name, name.rfind("CLP_CS_BLOCK_", 0) == 0 ? "0" : value, sizes);
    }
    for (const ResourceParam& p : sh->params) {
      bool have = false;
      for (const ResourceParam& q : params)
        have |= q.name == p.name;
      if (!have) params.push_back(p);
    }
  }
  auto param_list = [](const std::vector<ResourceParam>& ps, bool decl) {
    std::string s;
    for (const ResourceParam& p : ps)
      s += ", " + (decl ? p.decl : p.name);
    return s;
  };
  ProgramText t;
  for (const auto& d : defs)
    t.prelude += "#define " + d.first + " " + d.second + "\n";
  t.prelude += "#define CLP_RESOURCE_PARAMS " + param_list(params, true) + "\n";
  t.prelude += "#define CLP_RESOURCE_ARGS " + param_list(params, false) + "\n";
  for (size_t k = 0; k < shaders.size(); ++k) {
    const std::string n = std::to_string(k);
    t.bodies.push_back("#undef CLP_RESOURCE_PARAMS\n#define CLP_RESOURCE_PARAMS " +
                       param_list(shaders[k]->params, true) + "\n" +
                       "#define clp_shader_main clp_shader_main_" + n + "\n" + shaders[k]->body +
                       "#undef clp_shader_main\n");
  }
  // A run-time choice, so that no body can be dropped as unreachable.
  std::string dispatch =
      "#undef CLP_RESOURCE_PARAMS\n#define CLP_RESOURCE_PARAMS " + param_list(params, true) + "\n";
  dispatch += "void clp_shader_main(ClpShaderIo* io, ClpStageCtx* stage CLP_RESOURCE_PARAMS) {\n";
  dispatch +=
      "  switch ((uint)CLP_LANE(io->exec_mask, 0) % " + std::to_string(shaders.size()) + "u) {\n";
  for (size_t k = 0; k < shaders.size(); ++k) {
    dispatch += "    case " + std::to_string(k) + ": clp_shader_main_" + std::to_string(k) +
                "(io, stage" + param_list(shaders[k]->params, false) + "); break;\n";
  }
  dispatch += "  }\n}\n";
  t.bodies.push_back(dispatch);
  t.files = {harness_template_name(shaders[0]->stage)};
  return assemble_program(t);
}

}  // namespace clpipe::compiler
