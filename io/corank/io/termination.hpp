#pragma once
// Sections that a fatal signal must not cut in half: the copy of the sorted
// output into a target filled in place (output_file.hpp), whose content is a
// mix of old and new until the copy ends, and the instant between naming the
// finished output beside its target and renaming it over the target.
//
// The rule, decided here: the library installs no signal handler and changes
// no signal mask or disposition; what a signal does is the program's choice.
// A program that wants SIGINT, SIGTERM and SIGHUP to wait for these sections
// blocks them in every thread (in main, before it starts any: a thread
// inherits its creator's mask) and takes them on one thread of its own with
// sigwait(); that thread calls await_termination() before it acts on one (the
// corank program then dies by the same signal: src/corank/cli/main.cpp). A
// handler could not do this: it may run on the very thread inside the section,
// and waiting is not async-signal-safe. A host that does neither keeps the
// default, where the signal ends the process at once, mid-copy too; SIGKILL
// and a power cut always do.
//
//   { io::DeferTermination hold; copy(); }     // the library, around a section
//   sigwait(&fatal, &sig); io::await_termination(); raise(sig);  // the program
namespace corank::io {

class DeferTermination {
public:
  // Opens a section; once await_termination() has begun, waits for ever (the
  // process is about to end).
  DeferTermination();
  // Closes it; once await_termination() has begun, then waits for ever too,
  // so that the process ends by the signal and not by this thread's going on.
  ~DeferTermination();
  DeferTermination(const DeferTermination&) = delete;
  DeferTermination& operator=(const DeferTermination&) = delete;
};

// Waits until no DeferTermination section is open and keeps new ones from
// opening; the caller then ends the process.
void await_termination() noexcept;
// Whether a section is open now (for tests).
bool termination_deferred() noexcept;

}  // namespace corank::io
