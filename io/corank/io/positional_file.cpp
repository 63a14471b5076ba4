#include "corank/io/positional_file.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include "corank/io/write_behind_sink.hpp"

namespace corank::io {

void FileRange::Mapping::unmap() noexcept {
  if (map_ != nullptr) ::munmap(map_, map_bytes_);
  map_ = nullptr;
}

std::unique_ptr<ByteSink> FileRange::engine_sink_at(std::uint64_t offset, const IoOptions& io) const {
  IoOptions opt = io;
  if (page_cache_only_) opt.direct = false;
  return std::make_unique<WriteBehindSink>(fd_, name_, opt, false, start_ + offset);
}

FileRange::Mapping FileRange::map(std::uint64_t offset, std::uint64_t n) const {
  // mmap's offset is a multiple of the page size.
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::uint64_t from = start_ + offset;
  const std::uint64_t map_from = from / page * page;
  const auto map_bytes = static_cast<std::size_t>(from + n - map_from);
  void* p = ::mmap(nullptr, map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, static_cast<off_t>(map_from));
  if (p == MAP_FAILED) return Mapping();
  return Mapping(p, map_bytes, static_cast<std::size_t>(from - map_from));
}

}  // namespace corank::io
