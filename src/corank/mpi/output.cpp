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

std::string part_name(const std::string& out, unsigned rank) {
  char n[16];
  std::snprintf(n, sizeof n, "%05u", rank);
  return out + ".part-" + n;
}

std::uint64_t file_size(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw io::IoError("stat failed", path, errno);
  return static_cast<std::uint64_t>(st.st_size);
}

void SharedOutput::create(Communicator& c, const std::string& out, std::uint64_t total, const std::string* rename_from) {
  phase(c, [&] {
    if (c.rank() != 0) return;
    // A new file gets 0666 less the umask from the kernel: no umask
    // juggling, which would race with other threads.
    std::string templ;
    int fd = -1;
    for (unsigned n = 0; fd < 0; ++n) {
      templ = dir_of(out) + "/." + base_of(out) + ".corank-mpi-" + std::to_string(::getpid()) + "-" + std::to_string(n);
      fd = ::open(templ.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd < 0 && (errno != EEXIST || n == 100)) throw io::IoError("cannot create output", out, errno);
    }
    temp_.path = templ;
    if (rename_from && ::rename(rename_from->c_str(), templ.c_str()) == 0) {
      ::close(fd);
      fd = ::open(templ.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd < 0) throw io::IoError("cannot write output", out, errno);
      renamed_ = true;
    } else if (rename_from && errno != EXDEV) {
      const int e = errno;
      ::close(fd);
      throw io::IoError("rename failed", templ, e);
    }
    io::FileDesc owner(fd);
    // An existing target keeps its mode (a renamed piece was made 0666
    // less the umask too).
    struct stat st {};
    if (::stat(out.c_str(), &st) == 0 && ::fchmod(fd, st.st_mode & 07777) != 0)
      throw io::IoError("fchmod failed", templ, errno);
    if (::ftruncate(fd, static_cast<off_t>(total)) != 0) throw io::IoError("cannot write output", out, errno);
  });
  name_ = temp_.path;
  c.broadcast(name_, 0);
}

void SharedOutput::commit(const std::string& target) {
  if (::rename(temp_.path.c_str(), target.c_str()) != 0) throw io::IoError("cannot write output", target, errno);
  temp_.keep = true;
}

// One thread moves a few GB/s through its buffer, far below what memory and
// fast storage take: each thread takes the next 64 MiB piece.
void copy_into(const std::string& from, int to, const std::string& to_name, std::uint64_t at, std::uint64_t skip,
               unsigned threads) {
  io::FileDesc in = io::FileDesc::open(from, O_RDONLY);
  const std::uint64_t whole = file_size(from);
  const std::uint64_t size = whole > skip ? whole - skip : 0;
  constexpr std::uint64_t kPiece = std::uint64_t{64} << 20;
  const std::uint64_t pieces = (size + kPiece - 1) / kPiece;
  std::atomic<std::uint64_t> next{0};
  parallel_for(static_cast<unsigned>(std::clamp<std::uint64_t>(pieces, 1, std::max(threads, 1u))), [&](unsigned) {
    std::vector<char> buf(std::size_t{8} << 20);
    for (std::uint64_t p; (p = next.fetch_add(1)) < pieces;) {
      const std::uint64_t end = std::min(size, (p + 1) * kPiece);
      for (std::uint64_t off = p * kPiece; off < end;) {
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), end - off));
        const std::size_t n = io::pread_full(in.get(), buf.data(), want, skip + off, from);
        if (n != want) throw io::IoError("read failed", from, "the file shrank while it was copied");
        io::pwrite_full(to, buf.data(), n, at + off, to_name);
        off += n;
      }
    }
  });
}

}  // namespace corank::mpi
