// How the server gets its clpipe Screen: a factory (Screen::create in the real server, a
// fake in tests), called lazily so that a client that only negotiates and reads caps (the
// Xvfb connection of doc 1) never opens the OpenCL device.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "clpipe/screen.h"
#include "clpipe/status.h"

namespace clpipe::frontend::vtest {

using ScreenFactory = std::function<Result<std::shared_ptr<Screen>>()>;

class LazyScreen {
 public:
  explicit LazyScreen(ScreenFactory factory) : factory_(std::move(factory)) {}
  // The screen, created on first use. Throws ProtocolError when creation fails (then
  // and on every later call): the client cannot be served without a device.
  Screen& get();
  Screen* peek() const { return screen_.get(); }

 private:
  ScreenFactory factory_;
  std::shared_ptr<Screen> screen_;
  std::string failure_;
};

}  // namespace clpipe::frontend::vtest
