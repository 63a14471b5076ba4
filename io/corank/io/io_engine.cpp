#include "corank/io/io_engine.hpp"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>

#include "corank/io/diagnostics.hpp"
#include "corank/io/error.hpp"
#include "corank/io/pread_engine.hpp"
#include "corank/io/uring_engine.hpp"

namespace corank::io {

namespace {
bool forced_pread() {
  const char* v = std::getenv("CORANK_IO");
  return v && std::strcmp(v, "pread") == 0;
}

// Each distinct note once per process: readers and writers make many engines.
void say_once(const IoOptions& opt, const std::string& line) {
  if (!opt.verbose || !opt.diagnostics) return;
  static std::mutex m;
  static std::set<std::string> said;
  std::lock_guard lock(m);
  if (said.insert(line).second) opt.diagnostics->note(line);
}
}  // namespace

std::unique_ptr<IoEngine> make_engine(const IoOptions& opt) {
  if (!opt.use_uring || forced_pread()) {
    const std::string why = forced_pread() ? "CORANK_IO=pread" : opt.pread_reason ? opt.pread_reason : "";
    say_once(opt, "using pread/pwrite" + (why.empty() ? "" : " (" + why + ")"));
    return std::make_unique<PreadEngine>(opt.queue_depth);
  }
  try {
    auto e = std::make_unique<UringEngine>(opt.queue_depth);
    say_once(opt, "using io_uring");
    return e;
  } catch (const IoError& e) {
    say_once(opt, std::string("io_uring unavailable (") + std::strerror(e.error_code()) + "), using pread/pwrite");
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
