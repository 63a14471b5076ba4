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
//    interrupted or killed), by remove_registered_paths(), which the thread
//    that takes these signals calls before the process ends by the same
//    signal (cli/program_signals.hpp; the library takes none). Names are
//    made inside an io::DeferTermination section, so that none is made
//    after that thread has removed what was registered;
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

// Removes every registered path (files first, then directories with the
// files in them) and the library's named temporaries; for the thread that
// takes SIGINT, SIGTERM and SIGHUP, once no section is open.
void remove_registered_paths() noexcept;

// A path that remove_registered_paths() removes while this object lives: a
// file, or a directory (the files in it first). Unregistered when destroyed or released; the
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

}  // namespace corank::mpi
