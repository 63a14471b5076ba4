#include "record_stream.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>

#include "corank/io/error.hpp"

namespace corank::tools {

RecordSizeError::RecordSizeError(const std::string& path, std::uint64_t size, std::uint32_t record_size)
    : std::runtime_error(path + ": size " + std::to_string(size) + " is not a multiple of the record size " +
                         std::to_string(record_size)) {}

RecordReader::RecordReader(const std::string& path, std::uint32_t record_size)
    : name_(path == "-" ? std::string("standard input") : path), record_size_(record_size), fd_(STDIN_FILENO) {
  if (path != "-") {
    owned_ = corank::io::FileDesc::open(path, O_RDONLY);
    fd_ = owned_.get();
  }
  struct stat st{};
  if (::fstat(fd_, &st) != 0) corank::io::throw_io_error("stat failed", name_, errno);
  if (S_ISREG(st.st_mode)) {
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size % record_size_ != 0) throw RecordSizeError(name_, size, record_size_);
    ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);  // a hint only; failure is harmless
  }
}

std::uint64_t RecordReader::read(std::uint8_t* out, std::uint64_t max_records) {
  // read_full returns a short count only at the end of the input.
  const std::size_t got = corank::io::read_full(fd_, out, max_records * record_size_, name_);
  total_ += got;
  if (got % record_size_ != 0) throw RecordSizeError(name_, total_, record_size_);
  return got / record_size_;
}

std::uint64_t records_per_block(std::uint32_t record_size) noexcept {
  constexpr std::uint64_t kBlockBytes = std::uint64_t{4} << 20;
  return kBlockBytes < record_size ? 1 : kBlockBytes / record_size;
}

void scan_records(const std::string& path, std::uint32_t record_size,
                  const std::function<void(const std::uint8_t*, std::uint64_t)>& on_block) {
  RecordReader reader(path, record_size);
  const std::uint64_t per_block = records_per_block(record_size);
  auto buf = std::make_unique_for_overwrite<std::uint8_t[]>(per_block * record_size);
  while (const std::uint64_t n = reader.read(buf.get(), per_block)) on_block(buf.get(), n);
}

}  // namespace corank::tools
