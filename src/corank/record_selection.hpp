#pragma once
// A sort of some of its input's records: SortOptions::input_selection keeps
// the records it marks and the sort sees no others, in input order, as if
// they were the whole input. corank-mpi's ranks on one node use it to sort
// each its part of inputs that all of them map (mpi/node_inputs.hpp): the
// records are read where they lie, and no rank copies them to another.
//
// SelectedRecords reads the kept records of input buffers (the mapped inputs)
// into the sort's arrays or staging, a block at a time: the threads mark a
// slice of the block each, then copy their slice's kept records to the
// places the slices' counts give them, so the order is the input's. A block
// holds at least a read's worth of records; the marks a read leaves over
// are the next read's first.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include "corank/parallel.hpp"

namespace corank {

class RecordSelection {
public:
  virtual ~RecordSelection() = default;
  // The records kept, all inputs together: the sort's record count.
  virtual std::uint64_t records() const = 0;
  // keep[i] = whether record i of the n at `records` is kept, record i being
  // record first + i of the input (its byte offset in the concatenated
  // inputs is that times the record size); returns how many are kept.
  // Called by several threads at once.
  virtual std::uint64_t mark(const std::byte* records, std::uint64_t n, std::uint64_t first,
                             std::uint8_t* keep) const = 0;
};

class SelectedRecords {
public:
  // The buffers (in input order, whole records) and the selection must
  // outlive this object.
  SelectedRecords(const std::vector<std::span<const std::byte>>& buffers, std::uint32_t record_size,
                  const RecordSelection& selection, unsigned threads);

  // Copies the next max kept records to dst; returns how many: fewer only at
  // the end.
  // Throws InputError where the input, read to its end, kept other than
  // selection.records() records (an input changed since they were counted).
  std::uint64_t read(std::byte* dst, std::uint64_t max);

  // The records of the one buffer that holds any, before read() began;
  // nullptr otherwise. A sort then takes its kept records where they lie,
  // through each_kept, without copying them (in_memory_runs.hpp).
  const std::byte* sole() const noexcept;
  // Calls place(j, i) for every kept record of sole(), i its index there and
  // j its number among the kept ones, from several threads at once. Throws
  // InputError as read() does.
  template <class Place>
  void each_kept(Place&& place);

private:
  std::uint64_t in_buffer() const noexcept;  // records of the current buffer
  void next_buffer() noexcept;
  // Marks the n records of the current buffer from next_ on (all threads).
  void mark(std::uint64_t n);
  // Copies kept records of the marked ones from next_ on to dst, at most
  // room; moves next_ past the last record taken.
  std::uint64_t take(std::byte* dst, std::uint64_t room);
  // Marks the rest of the input, copying nothing: how many it would keep.
  std::uint64_t count_rest();
  // Throws InputError where the records kept are not the selection's count.
  void check_count() const;

  std::vector<std::span<const std::byte>> buffers_;
  std::uint32_t R_;
  const RecordSelection& selection_;
  unsigned threads_;
  std::size_t current_ = 0;         // the buffer being read
  std::uint64_t buffer_first_ = 0;  // its first record's index in the input
  std::uint64_t next_ = 0;          // its next record not taken
  // keep_[i] marks record marked_from_ + i of the current buffer, up to marked_to_.
  std::uint64_t marked_from_ = 0, marked_to_ = 0;
  std::vector<std::uint8_t> keep_;
  std::uint64_t kept_ = 0;          // records given so far
};

template <class Place>
void SelectedRecords::each_kept(Place&& place) {
  while (current_ < buffers_.size() && in_buffer() == 0) next_buffer();  // to sole()
  const std::uint64_t n = current_ < buffers_.size() ? in_buffer() : 0;
  const std::uint64_t block = std::max<std::uint64_t>(std::uint64_t{1} << 22, threads_);
  std::vector<std::uint64_t> kept(threads_ + 1);
  for (std::uint64_t at = 0; at < n; at += block) {
    next_ = at;
    mark(std::min(block, n - at));
    const std::uint64_t k = marked_to_ - marked_from_;
    const auto lo = [&](unsigned t) { return k * t / threads_; };
    for (unsigned t = 0; t < threads_; ++t)
      kept[t + 1] = kept[t] + std::accumulate(keep_.begin() + lo(t), keep_.begin() + lo(t + 1), std::uint64_t{0});
    parallel_for(threads_, [&](unsigned t) {
      std::uint64_t j = kept_ + kept[t];
      for (std::uint64_t i = lo(t); i < lo(t + 1); ++i)
        if (keep_[i]) place(j++, at + i);
    });
    kept_ += kept[threads_];
  }
  next_ = n;
  current_ = buffers_.size();
  check_count();
}

}  // namespace corank
