#include "corank/mpi/received_pieces.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

#include "corank/io/error.hpp"
#include "corank/io/huge_pages.hpp"
#include "corank/parallel.hpp"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

namespace corank::mpi {

namespace {

constexpr std::uint64_t kHugePage = std::uint64_t{2} << 20;

// Allocates the pages of [p, p + n) for writing, so that memory running out
// is std::bad_alloc here rather than the OOM killer later. Other errors (an
// older kernel without MADV_POPULATE_WRITE) leave it to the writes.
void populate(std::byte* p, std::uint64_t n) {
  if (n == 0) return;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto from = reinterpret_cast<std::uintptr_t>(p) / page * page;
  const auto to = reinterpret_cast<std::uintptr_t>(p + n);
  if (::madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE) != 0 && errno == ENOMEM)
    throw std::bad_alloc();
}

// Runs f(begin, end) over slices of [0, n) of several huge pages each, with
// up to `threads` threads.
template <class F>
void in_slices(std::uint64_t n, unsigned threads, F&& f) {
  const auto parts = static_cast<unsigned>(std::clamp<std::uint64_t>(n / (4 * kHugePage), 1, std::max(threads, 1u)));
  parallel_for(parts, [&](unsigned t) {
    const std::uint64_t b = n * t / parts, e = n * (t + 1) / parts;
    if (b < e) f(b, e);
  });
}

}  // namespace

ReceivedPieces::ReceivedPieces(Plan plan)
    : plan_(std::move(plan)), in_memory_(!plan_.most_from.empty() && plan_.header.empty()),
      bytes_(plan_.senders, 0) {
  if (!in_memory_) {
    open_files();
    return;
  }
  // The regions lie end to end: each starts at a whole number of records,
  // where the exchange's displacements, counted in records, reach it.
  std::uint64_t size = 0;
  for (unsigned s = 0; s < plan_.senders; ++s) size += plan_.most_from[s];
  size = std::max<std::uint64_t>(size, 1);
  // Address space only: pages are allocated as they are written.
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    in_memory_ = false;
    open_files();
    return;
  }
  io::advise_huge_pages(p, size);
  reservation_ = size;
  std::uint64_t at = 0;
  for (unsigned s = 0; s < plan_.senders; ++s) {
    memory_.push_back(static_cast<std::byte*>(p) + at);
    reserved_.push_back(plan_.most_from[s]);
    at += plan_.most_from[s];
  }
}

ReceivedPieces::~ReceivedPieces() { release(); }

void ReceivedPieces::open_files() {
  files_.clear();
  for (unsigned s = 0; s < plan_.senders; ++s) {
    files_.push_back(plan_.create_file(s));
    if (!plan_.header.empty())
      io::pwrite_full(files_.back().fd(), plan_.header.data(), plan_.header.size(), 0, files_.back().path());
  }
}

std::vector<std::string> ReceivedPieces::files() const {
  std::vector<std::string> paths;
  for (const auto& f : files_) paths.push_back(f.path());
  return paths;
}

std::uint64_t ReceivedPieces::total() const noexcept {
  std::uint64_t t = 0;
  for (auto b : bytes_) t += b;
  return t;
}

// Past what sender s sent before: the header and bytes_[s].
void ReceivedPieces::append_to_file(unsigned s, const char* data, std::uint64_t n) {
  io::append_in_parallel(files_[s].fd(), plan_.header.size() + bytes_[s], data, static_cast<std::size_t>(n),
                         plan_.threads, files_[s].path());
}

bool ReceivedPieces::fits(unsigned s, std::uint64_t n) const noexcept {
  return in_memory_ && total() + n <= plan_.memory_limit && bytes_[s] + n <= reserved_[s];
}

void ReceivedPieces::to_files() {
  open_files();
  for (unsigned t = 0; t < plan_.senders; ++t)
    if (bytes_[t])
      io::append_in_parallel(files_[t].fd(), plan_.header.size(), memory_[t], static_cast<std::size_t>(bytes_[t]),
                             plan_.threads, files_[t].path());
  ::munmap(memory_[0], reservation_);
  memory_.clear();
  reserved_.clear();
  in_memory_ = false;
}

void ReceivedPieces::append(unsigned s, const char* data, std::uint64_t n) {
  if (n == 0) return;
  // Past the limit (or a sender that sent more than its share could hold,
  // which the partition rules out), the pieces go to files.
  if (in_memory_ && !fits(s, n)) to_files();
  if (in_memory_) {
    std::byte* dst = memory_[s] + bytes_[s];
    in_slices(n, plan_.threads, [&](std::uint64_t b, std::uint64_t e) {
      populate(dst + b, e - b);
      std::memcpy(dst + b, data + b, e - b);
    });
  } else {
    append_to_file(s, data, n);
  }
  bytes_[s] += n;
}

std::byte* ReceivedPieces::room(unsigned s, std::uint64_t n) {
  if (!fits(s, n)) return nullptr;
  std::byte* dst = memory_[s] + bytes_[s];
  in_slices(n, plan_.threads, [&](std::uint64_t b, std::uint64_t e) { populate(dst + b, e - b); });
  return dst;
}

bool ReceivedPieces::make_room(const std::vector<std::uint64_t>& n) {
  if (!in_memory_) return false;
  std::uint64_t all = 0;
  for (unsigned s = 0; s < plan_.senders; ++s) {
    if (bytes_[s] + n[s] > reserved_[s]) return false;
    all += n[s];
  }
  if (total() + all > plan_.memory_limit) return false;
  for (unsigned s = 0; s < plan_.senders; ++s) {
    std::byte* dst = memory_[s] + bytes_[s];
    in_slices(n[s], plan_.threads, [&](std::uint64_t b, std::uint64_t e) { populate(dst + b, e - b); });
  }
  return true;
}

std::vector<std::span<const std::byte>> ReceivedPieces::buffers() const {
  std::vector<std::span<const std::byte>> out;
  for (unsigned s = 0; s < memory_.size(); ++s) out.emplace_back(memory_[s], bytes_[s]);
  return out;
}

std::span<const std::byte> ReceivedPieces::regions() const noexcept {
  if (memory_.empty()) return {};
  return {memory_[0], end(plan_.senders - 1)};
}

std::span<const std::byte> ReceivedPieces::joined() {
  std::uint64_t at = 0;  // the joined bytes so far, from memory_[0]
  for (unsigned s = 0; s < plan_.senders; ++s) {
    std::byte* dst = memory_[0] + at;
    const std::byte* src = memory_[s];
    const std::uint64_t n = bytes_[s], gap = static_cast<std::uint64_t>(src - dst);
    // Downwards, in waves of `threads` slices no longer than gap / threads:
    // a slice's destination then lies below the sources of every slice not
    // yet read, so the threads of a wave never write what another reads.
    const std::uint64_t slice = gap / std::max(plan_.threads, 1u);
    if (gap == 0 || n == 0) {
      // in place already
    } else if (slice < (std::uint64_t{1} << 20)) {
      std::memmove(dst, src, n);
    } else {
      const std::uint64_t wave = slice * plan_.threads;
      for (std::uint64_t w = 0; w < n; w += wave)
        parallel_for(plan_.threads, [&](unsigned t) {
          const std::uint64_t b = std::min(n, w + t * slice), e = std::min(n, w + (t + 1) * slice);
          if (b < e) std::memcpy(dst + b, src + b, e - b);
        });
    }
    memory_[s] = dst;
    at += n;
  }
  // The pieces' former places past the end: their pages go back.
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::uint64_t keep = (at + page - 1) / page * page;
  if (keep < reservation_) ::madvise(memory_[0] + keep, reservation_ - keep, MADV_DONTNEED);
  for (unsigned s = 0; s < plan_.senders; ++s) reserved_[s] = bytes_[s];  // full: nothing more fits
  return {memory_[0], at};
}

void ReceivedPieces::release() noexcept {
  if (!memory_.empty()) ::munmap(memory_[0], reservation_);
  memory_.clear();
  reserved_.clear();
  files_.clear();  // closed, the named ones removed
}

}  // namespace corank::mpi
