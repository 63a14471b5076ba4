#include "record_stream.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>

#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"

namespace corank::tools {

namespace {

constexpr std::uint64_t kBlockBytes = std::uint64_t{4} << 20;

}  // namespace

RecordSizeError::RecordSizeError(const std::string& path, std::uint64_t size, std::uint32_t record_size)
    : std::runtime_error(path + ": size " + std::to_string(size) + " is not a multiple of the record size " +
                         std::to_string(record_size)) {}

void scan_records(const std::string& path, std::uint32_t record_size,
                  const std::function<void(const std::uint8_t*, std::uint64_t)>& on_block) {
  corank::io::FileDesc owned;
  int fd = STDIN_FILENO;
  const std::string name = path == "-" ? std::string("standard input") : path;
  if (path != "-") {
    owned = corank::io::FileDesc::open(path, O_RDONLY);
    fd = owned.get();
  }
  struct stat st{};
  if (::fstat(fd, &st) != 0) corank::io::throw_io_error("stat failed", name, errno);
  if (S_ISREG(st.st_mode)) {
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size % record_size != 0) throw RecordSizeError(name, size, record_size);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);  // a hint only; failure is harmless
  }

  const std::uint64_t block = kBlockBytes < record_size ? record_size : kBlockBytes / record_size * record_size;
  auto buf = std::make_unique_for_overwrite<std::uint8_t[]>(block);
  std::uint64_t total = 0;
  for (;;) {
    // read_full returns a short count only at the end of the input.
    const std::size_t got = corank::io::read_full(fd, buf.get(), block, name);
    total += got;
    if (got % record_size != 0) throw RecordSizeError(name, total, record_size);
    if (got > 0) on_block(buf.get(), got / record_size);
    if (got < block) return;
  }
}

}  // namespace corank::tools
