#pragma once
// What a killed corank-mpi leaves behind. Most of what a rank writes has no
// name (O_TMPFILE: received pieces, sorted pieces, part files until they are
// staged), so no kill leaves it. What must have a name, because other ranks
// open it (the shared output beside the target) or because it is staged for
// a commit (part files and their backups), carries the host, the process id
// and the process's start time (so that a process id used again is told
// apart) of the rank that made it:
//   .<target>.corank-mpi.<host>.<pid>.<start>.<tag>   beside the target
//   corank-mpi.<host>.<pid>.<start>.<XXXXXX>           a scratch directory in -T,
//                                                      only where the file system
//                                                      has no O_TMPFILE
// Such names are removed
//  - on every exit path of the rank that made them (destructors);
//  - on SIGINT, SIGTERM and SIGHUP (what mpirun sends its ranks when it is
//    interrupted or killed), by the handlers the program installs
//    (install_cleanup_handlers; the library installs none), which then end
//    the process by the same signal;
//  - after SIGKILL, by the next corank-mpi on the same host that looks in
//    that directory: sweep_dead_jobs removes the names whose process is gone.
#include <string>

namespace corank::mpi {

// "corank-mpi.<host>.<pid>.<start>": this process's mark in the names above.
std::string job_mark();

// Removes, in `dir`, every file or directory named with a mark of this host
// whose process no longer exists (a directory with the files in it). Errors
// are ignored: what cannot be removed is left for a later run.
void sweep_dead_jobs(const std::string& dir);

// Whether `name` carries a job mark, and whose.
struct JobMark {
  std::string host;
  long pid = 0;
  unsigned long long start = 0;  // in clock ticks after boot, as /proc/PID/stat gives it
};
bool parse_job_mark(const std::string& name, JobMark& mark);
// Whether the process a mark of this host names is still running.
bool alive(const JobMark& mark);

// For corank-mpi's main, after MPI_Init: SIGINT, SIGTERM and SIGHUP (unless
// ignored) remove every registered path, then end the process by the signal.
void install_cleanup_handlers();

// A path the handlers remove while this object lives: a file, or a directory
// (the files in it first). Unregistered when destroyed or released; the
// owner removes the path itself on ordinary exit paths.
class CleanupPath {
public:
  CleanupPath() = default;
  CleanupPath(const std::string& path, bool directory);
  CleanupPath(CleanupPath&& o) noexcept;
  CleanupPath& operator=(CleanupPath&& o) noexcept;
  CleanupPath(const CleanupPath&) = delete;
  CleanupPath& operator=(const CleanupPath&) = delete;
  ~CleanupPath() { release(); }
  void release() noexcept;

private:
  int slot_ = -1;
  int io_slot_ = -1;  // a file's slot among the library's (io/temp_files.hpp)
};

// While one lives, a signal the handlers catch waits: it is acted on (the
// registered paths removed, the process ended) when the last hold ends. For
// steps that must not stop half-way: a commit's renames, a copy over a
// target's old content.
class SignalHold {
public:
  SignalHold();
  ~SignalHold();
  SignalHold(const SignalHold&) = delete;
  SignalHold& operator=(const SignalHold&) = delete;
};

}  // namespace corank::mpi
