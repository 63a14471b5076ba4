#include "corank/mpi/part_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <vector>

#include "corank/io/error.hpp"
#include "corank/io/termination.hpp"
#include "corank/mpi/agreement.hpp"

namespace corank::mpi {

std::string part_name(const std::string& out, unsigned rank) {
  char n[16];
  std::snprintf(n, sizeof n, "%05u", rank);
  return out + ".part-" + n;
}

PartFile::PartFile(const std::string& target, unsigned rank) : name_(part_name(target, rank)) {
  staged_ = dir_of(name_) + "/." + base_of(name_) + "." + job_mark() + ".new";
  // Beside the target, so that staging it is a link and taking its name a
  // rename; 0666 less the umask, a new file's mode.
  if (io::FileDesc fd = open_anonymous(dir_of(name_), 0666); fd.valid()) {
    file_ = ScratchFile(std::move(fd), "");
    return;
  }
  const io::DeferTermination naming;  // registered as it is made (cleanup.hpp)
  cleanup_ = CleanupPath(staged_, /*directory=*/false);
  file_ = ScratchFile(io::FileDesc::open(staged_, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666), "");
  staged_here_ = true;
}

PartFile::~PartFile() {
  if (staged_here_) ::unlink(staged_.c_str());
}

void PartFile::stage() {
  if (staged_here_) return;  // named from the start
  const io::DeferTermination naming;  // registered as it is made (cleanup.hpp)
  ::unlink(staged_.c_str());   // a dead run's (the same host and process id)
  cleanup_ = CleanupPath(staged_, /*directory=*/false);
  if (::linkat(AT_FDCWD, file_.path().c_str(), AT_FDCWD, staged_.c_str(), AT_SYMLINK_FOLLOW) != 0)
    throw io::IoError("cannot create output file", staged_, errno);
  staged_here_ = true;
}

void PartFile::taken() noexcept {
  staged_here_ = false;
  cleanup_.release();
}

namespace {

// A part's old file kept under another name while the new parts take theirs.
struct Kept {
  std::string name, link;
  bool had = false;  // a file was there (not a directory, which the rename onto it then refuses)
};

Kept keep_old(const std::string& name) {
  Kept k;
  k.name = name;
  k.link = dir_of(name) + "/." + base_of(name) + "." + job_mark() + ".old";
  struct stat st {};
  if (::lstat(name.c_str(), &st) != 0) {
    if (errno == ENOENT) return k;
    throw io::IoError("cannot replace", name, errno);
  }
  if (S_ISDIR(st.st_mode)) return k;
  ::unlink(k.link.c_str());  // a dead run's (the same host, process id and start)
  if (::link(name.c_str(), k.link.c_str()) != 0) throw io::IoError("cannot keep the old file", name, errno);
  k.had = true;
  return k;
}

// The kept links, removed when the commit ends whichever way.
struct KeptFiles {
  std::vector<Kept> all;  // [0]: this rank's part; on rank 0 then the earlier run's extra parts
  ~KeptFiles() {
    for (const auto& k : all)
      if (k.had) ::unlink(k.link.c_str());
  }
};

}  // namespace

void commit_parts(Communicator& c, const std::string& target, PartFile& mine) {
  const io::DeferTermination committing;
  KeptFiles kept;
  phase(c, [&] {
    kept.all.push_back(keep_old(mine.name()));
    if (c.rank() == 0)
      for (unsigned k = c.ranks();; ++k) {
        Kept extra = keep_old(part_name(target, k));
        if (!extra.had) break;
        kept.all.push_back(std::move(extra));
      }
  });
  bool switched = false;
  try {
    phase(c, [&] {
      if (::rename(mine.staged().c_str(), mine.name().c_str()) != 0)
        throw io::IoError("rename failed", mine.name(), errno);
      switched = true;
      mine.taken();
      for (std::size_t i = 1; i < kept.all.size(); ++i) ::unlink(kept.all[i].name.c_str());
    });
  } catch (const RankFailed&) {
    // Every rank puts back what was there; errors here leave what they leave.
    for (std::size_t i = 0; i < kept.all.size(); ++i) {
      const Kept& k = kept.all[i];
      if (i == 0 && !switched) continue;  // this rank's part was never replaced
      if (k.had)
        ::rename(k.link.c_str(), k.name.c_str());
      else if (i == 0)
        ::unlink(k.name.c_str());
    }
    throw;
  }
}

}  // namespace corank::mpi
