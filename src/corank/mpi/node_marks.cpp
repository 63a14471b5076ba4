#include "corank/mpi/node_marks.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <string>

#include "corank/io/file_desc.hpp"
#include "corank/io/termination.hpp"
#include "corank/mpi/cleanup.hpp"

namespace corank::mpi {

namespace {

constexpr const char* kDir = "/dev/shm";

// The file's bytes mapped for reading and writing; nullptr where that fails.
std::uint8_t* map(int fd, std::uint64_t bytes) {
  if (fd < 0) return nullptr;
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return p == MAP_FAILED ? nullptr : static_cast<std::uint8_t*>(p);
}

}  // namespace

std::unique_ptr<NodeMarks> NodeMarks::share(Communicator& c, std::uint64_t records) {
  const std::uint64_t bytes = std::max<std::uint64_t>(records, 1);
  std::unique_ptr<NodeMarks> marks;
  std::string name;  // "" where rank 0 made none
  CleanupPath cleanup;
  if (c.rank() == 0) {
    sweep_dead_jobs(kDir);
    const io::DeferTermination naming;  // registered as it is made (cleanup.hpp)
    const std::string path = std::string(kDir) + "/" + job_mark() + ".marks";
    cleanup = CleanupPath(path, /*directory=*/false);
    const io::FileDesc fd(::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
    if (fd.get() >= 0) {
      name = path;
      // Its pages taken now: a /dev/shm too small for them (a container's)
      // means no marks here, not SIGBUS when they are written.
      std::uint8_t* p = ::posix_fallocate(fd.get(), 0, static_cast<off_t>(bytes)) == 0 ? map(fd.get(), bytes) : nullptr;
      if (p) marks.reset(new NodeMarks(p, bytes));
    }
  }
  c.broadcast(name, 0);
  if (name.empty()) return nullptr;
  if (c.rank() != 0) {
    const io::FileDesc fd(::open(name.c_str(), O_RDWR | O_CLOEXEC));
    if (std::uint8_t* p = map(fd.get(), bytes)) marks.reset(new NodeMarks(p, bytes));
  }
  // Every rank has mapped it (or failed to): the name can go.
  int missing[1] = {marks ? 0 : 1};
  c.max(missing, 1);
  if (c.rank() == 0) ::unlink(name.c_str());
  if (missing[0]) marks.reset();
  return marks;
}

NodeMarks::~NodeMarks() { ::munmap(data_, bytes_); }

}  // namespace corank::mpi
