#include "corank/sorted_run.hpp"

#include <cstring>

#include "corank/io/error.hpp"

namespace corank {

namespace {
constexpr std::uint64_t kMinPart = std::uint64_t{1} << 20;  // bytes a thread copies at least
const std::string kTemp = "temporary file";
}  // namespace

SortedRun::SortedRun(std::uint64_t count, std::uint64_t base, std::uint32_t record_size, bool in_memory,
                     io::TempDirectories& temps)
    : count_(count), base_(base), allocated_(count * record_size), R_(record_size) {
  if (in_memory)
    memory_ = io::HugeVector<std::byte>(count * R_);
  else
    file_ = temps.create_anonymous();
}

void SortedRun::write(std::uint64_t first, const std::byte* src, std::uint64_t n, io::WorkerPool& pool) {
  const std::uint64_t at = first * R_;
  pool.for_ranges(n * R_, kMinPart, R_, [&](std::uint64_t b, std::uint64_t e) {
    if (memory_)
      std::memcpy(memory_.data() + at + b, src + b, e - b);
    else
      io::pwrite_full(file_.get(), src + b, e - b, at + b, kTemp);
  });
}

void SortedRun::read(std::uint64_t first, std::uint64_t n, std::byte* dst, io::WorkerPool& pool) const {
  const std::uint64_t at = first * R_;
  pool.for_ranges(n * R_, kMinPart, R_, [&](std::uint64_t b, std::uint64_t e) {
    if (memory_)
      std::memcpy(dst + b, memory_.data() + at + b, e - b);
    else if (io::pread_full(file_.get(), dst + b, e - b, at + b, kTemp) != e - b)
      throw io::IoError("read failed", kTemp, "run ended early");
  });
}

const std::byte* SortedRun::peek(std::uint64_t first, std::uint64_t n, std::vector<std::byte>& buf) const {
  if (memory_) return memory_.data() + first * R_;
  buf.resize(n * R_);
  if (io::pread_full(file_.get(), buf.data(), buf.size(), first * R_, kTemp) != buf.size())
    throw io::IoError("read failed", kTemp, "run ended early");
  return buf.data();
}

}  // namespace corank
