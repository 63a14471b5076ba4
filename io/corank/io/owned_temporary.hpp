#pragma once
// Named temporary files that say whose they are. corank's temporary files have
// no name (O_TMPFILE) wherever the file system allows it, so that a process
// killed by any signal, SIGKILL included, leaves nothing. Where it refuses
// (/proc, some network and FUSE file systems), or for the instant between
// naming the finished output and renaming it over the target, a file has a
// name that a killed process leaves behind. Such names carry their owner:
//
//   DIR/.STEM.corank-HOST-PID-START-XXXXXX
//
// HOST this machine's name, PID the process, START its start time (clock ticks
// since boot, /proc/PID/stat), which tells a reused PID apart. A later run
// removes those of its host whose process is gone (remove_stale_temporaries);
// another host's names, on a shared file system, are left alone. So are names
// whose PID lives in another PID namespace with the same host name: a
// container sharing the directory must have a host name of its own.
#include <string>

namespace corank::io {

// A fresh name of the form above in `dir`, not yet created. STEM is cut to a
// fixed length, so that the whole name fits NAME_MAX.
std::string owned_temporary_name(const std::string& dir, const std::string& stem);
// Creates a file under such a name with `mode` (less the umask), read-write,
// close-on-exec; returns its descriptor and sets *path, or -1 with errno set.
int create_owned_temporary(const std::string& dir, const std::string& stem, unsigned mode, std::string* path);
// Unlinks the files `dir` holds under STEM's names whose process is gone; best
// effort (a directory it cannot read or a file it cannot unlink is left).
void remove_stale_temporaries(const std::string& dir, const std::string& stem) noexcept;

}  // namespace corank::io
