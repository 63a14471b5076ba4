#pragma once
// A second descriptor of an open file, with O_DIRECT, for the aligned bulk of
// its I/O; the caller's buffered descriptor keeps the unaligned edges. Opened
// through /proc/self/fd so it works for anonymous (O_TMPFILE) run files too.
#include <cstdint>

#include "corank/io/file_desc.hpp"

namespace corank::io {

// `fd` opened again with O_DIRECT and the same access mode; an invalid
// FileDesc where that is impossible (tmpfs, no /proc, ...): callers then use
// buffered I/O throughout.
FileDesc reopen_direct(int fd) noexcept;

// The share of bytes [offset, offset + length) of `fd` in the page cache,
// from 0 to 1, estimated from a sample of at most 64 windows of 256 KiB
// checked with mincore (0 where that fails): 16 MiB a file at most, since
// mincore looks up every page of the window in the page cache (1.1 GB of
// logs took a sort 47 ms of one thread with 256 MiB a file).
double cached_share(int fd, std::uint64_t offset, std::uint64_t length) noexcept;
// Whether most of them are cached. Reading such a file buffered is a memory
// copy; O_DIRECT would read it from the device again, so readers use
// O_DIRECT only for data not cached.
inline bool mostly_cached(int fd, std::uint64_t offset, std::uint64_t length) noexcept {
  return cached_share(fd, offset, length) > 0.5;
}

// Whether a regular file: readers and writers use the engine only for these.
bool is_regular_file(int fd) noexcept;

}  // namespace corank::io
