// A library for driver_preload_test to load as an "OpenCL driver": nothing else loads it.
extern "C" int clpipe_driver_stub_marker() {
  return 42;
}
