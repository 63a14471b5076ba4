// A host program of the library with a SIGTERM handler of its own, for
// host_signal_test.cpp: signal_host DIR sorts DIR/in into DIR/first (to the
// end: a library that installs handlers has done so by then), then DIR/fifo
// into DIR/second. Its handler, which must run during that second sort,
// exits with status 42, as a host that ends itself on SIGTERM might.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "corank/sort.hpp"

namespace {
extern "C" void on_sigterm(int) { ::_exit(42); }
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string dir = argv[1];
  struct sigaction sa {};
  sa.sa_handler = on_sigterm;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGTERM, &sa, nullptr);
  try {
    corank::SortRequest r;
    r.format = "u64";
    r.memory_budget = std::uint64_t{256} << 10;  // runs spill
    r.temp_dirs = {dir + "/tmp"};
    r.gpu = corank::GpuMode::Off;
    r.inputs = {dir + "/in"};
    r.output = dir + "/first";
    corank::sort(r);
    r.inputs = {dir + "/fifo"};
    r.output = dir + "/second";
    corank::sort(r);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "signal_host: %s\n", e.what());
    return 3;
  }
  return 0;
}
