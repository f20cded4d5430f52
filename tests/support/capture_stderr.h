// This process's stderr (descriptor 2) redirected into a file for a scope, for tests of
// what the library prints: text() stops the capture and returns what was written,
// threads' writes included (descriptor 2 itself is redirected).
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "support/test_device.h"

namespace clpipe::test {

class CaptureStderr {
 public:
  CaptureStderr() : path_(make_temp_dir("stderr") + "/stderr") {
    std::fflush(stderr);
    saved_ = dup(2);
    const int fd = open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (saved_ >= 0 && fd >= 0) {
      dup2(fd, 2);
    } else if (saved_ >= 0) {
      close(saved_);
      saved_ = -1;
    }
    if (fd >= 0) close(fd);
  }
  ~CaptureStderr() { stop(); }
  CaptureStderr(const CaptureStderr&) = delete;
  CaptureStderr& operator=(const CaptureStderr&) = delete;

  // Whether stderr went to the file (a test REQUIREs it).
  bool capturing() const { return saved_ >= 0; }

  // Ends the capture; what was written to stderr since it began.
  std::string text() {
    stop();
    std::stringstream printed;
    printed << std::ifstream(path_).rdbuf();
    return printed.str();
  }

 private:
  void stop() {
    if (saved_ < 0) return;
    std::fflush(stderr);
    dup2(saved_, 2);
    close(saved_);
    saved_ = -1;
  }

  std::string path_;
  int saved_ = -1;
};

}  // namespace clpipe::test
