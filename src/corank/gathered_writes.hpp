#pragma once
// The CPU sort's writes of sorted fixed-size records (external_sort.cpp): the
// records of merged key entries are gathered (a cache miss each, on all
// threads) into one of two buffers, each written behind while the other is
// gathered, to the output's sink or a spilled run's; or, where the output is
// mapped (tmpfs), straight into the mapping. Under -u the output drops every
// record whose key equals the last one kept (runs keep them: duplicates
// across runs go in the merge).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "corank/io/huge_vector.hpp"
#include "corank/io/output_file.hpp"
#include "corank/io/source.hpp"
#include "corank/io/write_behind.hpp"
#include "corank/key_entry.hpp"
#include "corank/run_sort.hpp"

namespace corank {

template <unsigned W>
class GatheredWrites {
  using E = KeyEntry<W>;

public:
  GatheredWrites(io::OutputFile& output, std::uint32_t record_size, unsigned threads, bool unique)
      : output_(output), R_(record_size), threads_(threads), unique_(unique) {}

  // The output started over (OutputFile::restart): -u forgets the last record kept.
  void restart() noexcept { have_last_ = false; }

  // Gathers into a shared mapping of the output's first `bytes` from now on,
  // where the output can be mapped so; returns whether it is.
  bool map_output(std::uint64_t bytes) { return mapped_ = output_.map_for_writing(bytes); }
  bool mapped() const noexcept { return mapped_; }
  std::uint64_t mapped_bytes() const noexcept { return mapped_at_; }

  // Sends merged entries to the output (their records in `src`, entry pos -
  // pos_base indexing it); returns the records kept (fewer under -u).
  std::uint64_t to_output(E* entries, std::uint64_t n, const std::byte* src, std::uint64_t pos_base) {
    if (unique_) n = drop_duplicate_keys(entries, n, last_kept_, have_last_);
    if (mapped_) {
      gather_records(src, R_, std::span<const E>(entries, n), pos_base, output_.mapped_range(mapped_at_, n * R_),
                     threads_);
      mapped_at_ += n * R_;
    } else {
      writer_.write(output_.sink(), gather(std::span<const E>(entries, n), src, pos_base), n * R_);
    }
    return n;
  }
  // Sends sorted entries to a spilled run's sink, finished after its last
  // write (a run formed in memory has one; a run merged from others one a slab).
  void to_run(const E* entries, std::uint64_t n, const std::byte* src, io::ByteSink& sink, bool last) {
    writer_.write(sink, gather(std::span<const E>(entries, n), src, 0), n * R_, /*finish_after=*/last);
  }

  // The write-behind: wait() for the write in flight, finish(sink) a sink,
  // drain() on unwinding, and a Drain over a scope that owns a sink.
  io::WriteBehind& writer() noexcept { return writer_; }

private:
  // Into the buffer not used by the last write. With one write in flight at a
  // time, the write that used this buffer has finished by now.
  const std::byte* gather(std::span<const E> entries, const std::byte* src, std::uint64_t pos_base) {
    auto& buf = out_[next_];
    auto& cap = capacity_[next_];
    next_ ^= 1;
    if (cap < entries.size()) {
      buf = io::HugeVector<std::byte>(entries.size() * R_);
      cap = entries.size();
    }
    gather_records(src, R_, entries, pos_base, buf.data(), threads_);
    return buf.data();
  }

  io::OutputFile& output_;
  const std::uint32_t R_;
  const unsigned threads_;
  const bool unique_;
  bool mapped_ = false;
  std::uint64_t mapped_at_ = 0;  // bytes gathered into the mapping so far
  E last_kept_{};
  bool have_last_ = false;
  io::HugeVector<std::byte> out_[2];
  std::uint64_t capacity_[2] = {0, 0};
  int next_ = 0;
  // After the buffers: a write in flight reads them, so the writer drains first.
  io::WriteBehind writer_;
};

}  // namespace corank
