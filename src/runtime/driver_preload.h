// Loading the OpenCL drivers (the ICD loader's vendor libraries) into a process before it
// forks the processes that will use them.
//
// A forked process that creates its first OpenCL platform makes the ICD loader dlopen the
// vendor library, and with it the whole compiler the driver links (PoCL 3.1: libpocl,
// libLLVM-15, libclang-cpp-15): ~0.1 s of relocation and ~0.1 s of page faults in every
// such process (measured: clpipe-vtest's process per client, `perf record` of a
// shader_runner test). Loaded once in the parent, the libraries are mapped and relocated
// when the child starts, and the loader's dlopen finds them loaded. Only loading, which
// runs the libraries' constructors: no driver is initialised (no platform is asked for),
// so no driver thread exists to be lost in the fork.
#pragma once

#include <string>
#include <vector>

namespace clpipe::runtime {

// Where the ICD loader finds its vendor libraries, as ocl-icd and the Khronos loader read
// it: `filenames` ($OCL_ICD_FILENAMES, ':'-separated libraries) when not empty, else the
// first line of each `*.icd` file of `vendors_dir` ($OCL_ICD_VENDORS, else
// /etc/OpenCL/vendors), in name order; a `vendors_dir` that is not a folder is one .icd
// file (its name ends so) or a library.
struct DriverSources {
  std::string filenames;
  std::string vendors_dir;
  static DriverSources from_environment();
};

// The libraries `sources` names, in order, without repeats.
std::vector<std::string> driver_libraries(const DriverSources& sources);

// dlopen()s each of them (RTLD_LAZY | RTLD_LOCAL, as the loaders do) and keeps it loaded
// for the life of the process. Returns how many loaded; a library that does not load is
// skipped and its dlerror() appended to `*failures` (when not null), one line each:
// the driver that needs it then fails where it always did, in the child.
size_t preload_drivers(const DriverSources& sources, std::string* failures = nullptr);

}  // namespace clpipe::runtime
