// clpipe-demo: renders the demo scene (demo_scene.h) through clpipe's public API on the
// default OpenCL device to a PNG, and prints where it wrote it and each frame's time.
//
//   clpipe-demo [--out FILE.png] [--size WxH] [--frames N]
#include <string>
#include <vector>

#include <clpipe/clpipe.h>

#include "demo_app.h"

int main(int argc, char** argv) {
  clpipe::program_builder_main(argc, argv);  // a builder child never returns
  return clpipe::demo::run_demo(std::vector<std::string>(argv + 1, argv + argc), stdout, stderr,
                                "/proc/self/exe");
}
