// clpipe-demo as a function, so that the program (main.cpp) and the demo test run the
// same code: parses the options, renders the frames on the default device, writes the
// PNG and reports. Messages go to `out`, errors to `err`.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace clpipe::demo {

// args excludes the program name. Returns the exit status: 0 done, 1 failed (device,
// API or file error, said on err), 2 bad usage. With `builder` set (main.cpp: this
// executable), programs are built in builder children, as clpipe-vtest builds them
// (ProgramBuilderOptions): the optimised programs that replace the quick ones after the
// first frames then come in without stalling a frame (ProgramBuilder::build_primed).
int run_demo(const std::vector<std::string>& args, std::FILE* out, std::FILE* err,
             const std::string& builder = {});

}  // namespace clpipe::demo
