#include "corank/io/mapped_inputs.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>

namespace corank::io {

std::unique_ptr<MappedInputs> MappedInputs::map_if_resident(const std::vector<std::string>& paths,
                                                             const IoOptions& opt,
                                                             const std::vector<std::uint64_t>& sizes,
                                                             std::uint64_t at_most) {
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  std::vector<std::uint64_t> begin;
  std::uint64_t total = 0;
  for (const std::uint64_t n : sizes) {
    begin.push_back(total);
    total += (n + page - 1) / page * page;
  }
  if (total == 0 || total > at_most) return nullptr;
  // Reserved first, so that the files land side by side: pages no mapping
  // backs are inaccessible and cost nothing.
  void* r = ::mmap(nullptr, static_cast<std::size_t>(total), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
  if (r == MAP_FAILED) return nullptr;
  std::unique_ptr<MappedInputs> m(new MappedInputs(static_cast<std::byte*>(r), total));
  m->begin_ = std::move(begin);
  m->sizes_ = sizes;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (sizes[i] == 0) continue;
    auto file = MappedInput::map_if_resident(paths[i], opt, sizes[i], m->data_ + m->begin_[i]);
    if (!file) return nullptr;  // the files mapped so far and the range go with m
    m->files_.push_back(std::move(file));
  }
  return m;
}

MappedInputs::~MappedInputs() {
  files_.clear();
  ::munmap(data_, static_cast<std::size_t>(size_));
}

std::uint64_t MappedInputs::file_bytes_before(std::uint64_t offset) const noexcept {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < begin_.size() && begin_[i] < offset; ++i)
    n += std::min(offset, end(i)) - begin_[i];
  return n;
}

void MappedInputs::drop(std::uint64_t offset, std::uint64_t n) const noexcept {
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::uint64_t from = offset / page * page, to = std::min(size_, (offset + n + page - 1) / page * page);
  if (from < to) ::madvise(data_ + from, static_cast<std::size_t>(to - from), MADV_DONTNEED);
}

}  // namespace corank::io
