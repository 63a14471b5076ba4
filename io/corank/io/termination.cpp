#include "corank/io/termination.hpp"

#include <condition_variable>
#include <mutex>

namespace corank::io {

namespace {

struct Sections {
  std::mutex mutex;
  std::condition_variable changed;
  int open = 0;
  bool terminating = false;
};

// Never destroyed: a signal thread may wait on it while the process exits.
Sections& sections() {
  static auto* s = new Sections;
  return *s;
}

}  // namespace

DeferTermination::DeferTermination() {
  Sections& s = sections();
  std::unique_lock lock(s.mutex);
  s.changed.wait(lock, [&s] { return !s.terminating; });
  ++s.open;
}

DeferTermination::~DeferTermination() {
  Sections& s = sections();
  {
    std::lock_guard lock(s.mutex);
    --s.open;
  }
  s.changed.notify_all();
}

void await_termination() noexcept {
  Sections& s = sections();
  std::unique_lock lock(s.mutex);
  s.terminating = true;
  s.changed.wait(lock, [&s] { return s.open == 0; });
}

bool termination_deferred() noexcept {
  Sections& s = sections();
  std::lock_guard lock(s.mutex);
  return s.open > 0;
}

}  // namespace corank::io
