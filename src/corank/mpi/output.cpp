#include "corank/mpi/output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <vector>

#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/termination.hpp"
#include "corank/mpi/agreement.hpp"
#include "corank/parallel.hpp"

namespace corank::mpi {

Placement place(Communicator& c, std::uint64_t bytes) {
  Placement p;
  p.bytes = bytes;
  p.offset = c.sum_before(bytes);
  p.total = c.sum(bytes);
  return p;
}

std::uint64_t file_size(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw io::IoError("stat failed", path, errno);
  return static_cast<std::uint64_t>(st.st_size);
}

SharedOutput::~SharedOutput() {
  if (made_here_) ::unlink(name_.c_str());
}

void SharedOutput::create(Communicator& c, const std::string& out, std::uint64_t total, ScratchFile* piece) {
  phase(c, [&] {
    if (c.rank() != 0) return;
    // A new file gets 0666 less the umask from the kernel (the piece was
    // made so too): no umask juggling, which would race with other threads.
    // Named in a section, so that the signal thread never removes what was
    // registered while the name is being made (cleanup.hpp).
    const io::DeferTermination naming;
    int fd = -1;
    for (unsigned n = 0; fd < 0; ++n) {
      name_ = dir_of(out) + "/." + base_of(out) + "." + job_mark() + "." + std::to_string(n);
      // Registered before it exists; a name with this process's mark is this
      // process's to remove.
      cleanup_ = CleanupPath(name_, /*directory=*/false);
      if (piece) {
        // Rank 0's piece on the target's file system becomes the output.
        const int linked = piece->named() ? ::rename(piece->path().c_str(), name_.c_str())
                                          : ::linkat(AT_FDCWD, piece->path().c_str(), AT_FDCWD, name_.c_str(),
                                                     AT_SYMLINK_FOLLOW);
        if (linked == 0) {
          made_here_ = linked_ = true;
          fd = ::open(name_.c_str(), O_WRONLY | O_CLOEXEC);
          if (fd < 0) throw io::IoError("cannot write output", out, errno);
          break;
        }
        if (errno == EEXIST && n < 100) continue;
        if (errno != EXDEV) throw io::IoError("cannot create output", out, errno);
        piece = nullptr;  // another file system: copied into a new file
      }
      fd = ::open(name_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd < 0 && (errno != EEXIST || n == 100)) throw io::IoError("cannot create output", out, errno);
      made_here_ = fd >= 0;
    }
    io::FileDesc owner(fd);
    // An existing target keeps its mode and owner; one whose owner the new
    // file cannot take is filled in place at the commit.
    struct stat st {};
    if (::stat(out.c_str(), &st) == 0) {
      if (::fchmod(fd, st.st_mode & 07777) != 0) throw io::IoError("fchmod failed", name_, errno);
      if ((st.st_uid != ::geteuid() || st.st_gid != ::getegid()) && ::fchown(fd, st.st_uid, st.st_gid) != 0)
        fill_target_ = true;
    }
    if (::ftruncate(fd, static_cast<off_t>(total)) != 0) throw io::IoError("cannot write output", out, errno);
  });
  c.broadcast(name_, 0);
  if (c.rank() != 0) cleanup_ = CleanupPath(name_, /*directory=*/false);
}

void SharedOutput::commit(const std::string& target, bool sync, unsigned threads) {
  struct stat st {};
  // Renaming would split a hard link (the target may be an input, read
  // whole by now): the links see the sorted output too.
  if (::stat(target.c_str(), &st) == 0 && S_ISREG(st.st_mode) && (st.st_nlink > 1 || fill_target_)) {
    fill_in_place(name_, target, sync, threads);
    ::unlink(name_.c_str());
  } else if (::rename(name_.c_str(), target.c_str()) != 0) {
    throw io::IoError("cannot write output", target, errno);
  }
  made_here_ = false;
  cleanup_.release();
}

void fill_in_place(const std::string& from, const std::string& target, bool sync, unsigned threads) {
  const io::DeferTermination copying;
  io::FileDesc out = io::FileDesc::open(target, O_WRONLY);
  const std::uint64_t size = file_size(from);
  // The space first, the target's size and bytes untouched (KEEP_SIZE).
  if (size > 0 && ::fallocate(out.get(), FALLOC_FL_KEEP_SIZE, 0, static_cast<off_t>(size)) != 0 &&
      errno != EOPNOTSUPP)
    throw io::IoError("cannot write output", target, errno);
  copy_into(from, out.get(), target, 0, threads);
  if (::ftruncate(out.get(), static_cast<off_t>(size)) != 0) throw io::IoError("cannot write output", target, errno);
  if (sync && ::fsync(out.get()) != 0) throw io::IoError("fsync failed", target, errno);
}

// One thread moves a few GB/s through its buffer, far below what memory and
// fast storage take: each thread takes the next 64 MiB piece.
void copy_into(const std::string& from, int to, const std::string& to_name, std::uint64_t at, unsigned threads) {
  io::FileDesc in = io::FileDesc::open(from, O_RDONLY);
  const std::uint64_t size = file_size(from);
  constexpr std::uint64_t kPiece = std::uint64_t{64} << 20;
  const std::uint64_t pieces = (size + kPiece - 1) / kPiece;
  std::atomic<std::uint64_t> next{0};
  parallel_for(static_cast<unsigned>(std::clamp<std::uint64_t>(pieces, 1, std::max(threads, 1u))), [&](unsigned) {
    std::vector<char> buf(std::size_t{8} << 20);
    for (std::uint64_t p; (p = next.fetch_add(1)) < pieces;) {
      const std::uint64_t end = std::min(size, (p + 1) * kPiece);
      for (std::uint64_t off = p * kPiece; off < end;) {
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), end - off));
        const std::size_t n = io::pread_full(in.get(), buf.data(), want, off, from);
        if (n != want) throw io::IoError("read failed", from, "the file shrank while it was copied");
        io::pwrite_full(to, buf.data(), n, at + off, to_name);
        off += n;
      }
    }
  });
}

}  // namespace corank::mpi
