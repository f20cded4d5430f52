// An environment variable set for a scope, for tests of switches that the library reads
// from the environment (e.g. CLPIPE_TILE_VARIANTS, read when a DrawPipeline is made).
#pragma once

#include <cstdlib>
#include <string>

namespace clpipe::test {

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (had_)
      setenv(name_, old_.c_str(), 1);
    else
      unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

}  // namespace clpipe::test
