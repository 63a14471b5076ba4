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
  std::unique_lock lock(s.mutex);
  --s.open;
  s.changed.notify_all();
  // Once termination has begun, the thread that closes a section goes no
  // further: the process ends by the signal that began it, and this thread
  // must not end it first (its sort done, with exit status 0).
  s.changed.wait(lock, [&s] { return !s.terminating; });
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
