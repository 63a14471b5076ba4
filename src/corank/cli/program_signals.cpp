#include "corank/cli/program_signals.hpp"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <thread>

#include "corank/io/termination.hpp"

namespace corank::cli {

namespace {

pthread_t g_taker;

// On a thread that does not block the signals: to the thread that takes them.
extern "C" void hand_on(int sig) { ::pthread_kill(g_taker, sig); }

}  // namespace

void take_program_signals(void (*remove_named)() noexcept) {
  ::signal(SIGXFSZ, SIG_IGN);
  sigset_t fatal;
  sigemptyset(&fatal);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaddset(&fatal, sig);
  }
  if (sigisemptyset(&fatal)) return;
  ::pthread_sigmask(SIG_BLOCK, &fatal, nullptr);
  std::thread taker([fatal, remove_named] {
    int sig = 0;
    while (::sigwait(&fatal, &sig) != 0) {
    }
    io::await_termination();
    remove_named();
    ::signal(sig, SIG_DFL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    ::pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
    ::raise(sig);
    ::_exit(128 + sig);  // not reached: the default action of sig ends the process
  });
  g_taker = taker.native_handle();
  taker.detach();
  struct sigaction sa {};
  sa.sa_handler = hand_on;
  sa.sa_mask = fatal;
  for (int sig : {SIGINT, SIGTERM, SIGHUP})
    if (sigismember(&fatal, sig)) ::sigaction(sig, &sa, nullptr);
}

}  // namespace corank::cli
