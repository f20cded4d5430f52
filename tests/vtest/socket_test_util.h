// Helpers of the tests that talk to a vtest server over its unix socket (server_test,
// tools/clpipe_vtest_repro_test): a temporary folder for the socket and the log, the
// log's text, and a connection.
#pragma once

#include <catch2/catch.hpp>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace clpipe::vtest_test {

inline std::string temp_dir() {
  char t[] = "/tmp/clpipe-vtest-test-XXXXXX";
  REQUIRE(mkdtemp(t) != nullptr);
  return t;
}

inline std::string read_text(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A connected socket, or -1.
inline int connect_to(const std::string& path) {
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

}  // namespace clpipe::vtest_test
