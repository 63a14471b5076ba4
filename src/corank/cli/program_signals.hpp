#pragma once
// What signals do to corank's programs (corank, corank-mpi). The library
// installs no handler and leaves this to the program (io/termination.hpp
// states the rule); both programs call take_program_signals() first thing in
// main, before any thread starts, so that every thread inherits the mask.
//  - SIGINT, SIGTERM and SIGHUP are blocked in every thread and taken by one
//    thread of their own with sigwait(). On one, that thread waits for every
//    section that must not be cut in half (io::DeferTermination: a copy into
//    a hard-linked target, a commit's renames) to end and keeps new ones from
//    opening, calls the program's `remove_named` (which removes the files it
//    named), and ends the process by the same signal, so that the parent sees
//    what killed it. A signal ignored when the program started (nohup) stays
//    ignored.
//  - Why a thread and not a handler: a handler runs on a thread the kernel
//    picks, perhaps one inside fsync() or another call that takes a signal
//    only when it returns, however long that is (mpirun sends SIGKILL one
//    second after its SIGTERM); and a handler cannot wait for a section to
//    end, since it may run on the very thread inside it.
//  - A thread that unblocks them again (a library's own) hands them on to
//    that thread.
//  - SIGXFSZ is ignored: a write past `ulimit -f` then fails with EFBIG, an
//    error like a full disk (one line naming the file, exit 2), where the
//    signal's default would end the program without a word.
//  - SIGPIPE keeps its default: `corank ... | head` ends quietly, as GNU sort
//    does; nothing named is left to remove.
// Child processes (--compress-program) start with neither the mask nor the
// ignored SIGXFSZ (io/program_codec.cpp).
namespace corank::cli {

void take_program_signals(void (*remove_named)() noexcept);

}  // namespace corank::cli
