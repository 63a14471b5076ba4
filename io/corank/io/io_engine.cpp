#include "corank/io/io_engine.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>

#include "corank/io/error.hpp"
#include "corank/io/pread_engine.hpp"
#include "corank/io/uring_engine.hpp"

namespace corank::io {

namespace {
bool forced_pread() {
  const char* v = std::getenv("CORANK_IO");
  return v && std::strcmp(v, "pread") == 0;
}

// Each distinct notice once per process: readers and writers make many engines.
void say_once(const std::string& line) {
  static std::mutex m;
  static std::set<std::string> said;
  std::lock_guard lock(m);
  if (said.insert(line).second) std::fprintf(stderr, "corank: %s\n", line.c_str());
}
}  // namespace

std::unique_ptr<IoEngine> make_engine(const IoOptions& opt) {
  if (!opt.use_uring || forced_pread()) {
    if (opt.verbose) say_once("using pread/pwrite (io_uring disabled by option or CORANK_IO=pread)");
    return std::make_unique<PreadEngine>(opt.queue_depth);
  }
  try {
    auto e = std::make_unique<UringEngine>(opt.queue_depth);
    if (opt.verbose) say_once("using io_uring");
    return e;
  } catch (const IoError& e) {
    if (opt.verbose)
      say_once(std::string("io_uring unavailable (") + std::strerror(e.error_code()) + "), using pread/pwrite");
    return std::make_unique<PreadEngine>(opt.queue_depth);
  }
}

bool uring_available() {
  static const bool ok = [] {
    io_uring ring{};
    if (io_uring_queue_init(1, &ring, 0) < 0) return false;
    io_uring_queue_exit(&ring);
    return true;
  }();
  return ok;
}

}  // namespace corank::io
