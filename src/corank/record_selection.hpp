#pragma once
// A sort of some of its input's records: SortOptions::input_selection keeps
// the records it marks and the sort sees no others, in input order, as if
// they were the whole input. corank-mpi's ranks on one node use it to sort
// each its part of inputs that all of them map (mpi/node_inputs.hpp): the
// records are read where they lie, and no rank copies them to another.
//
// SelectedRecords reads the kept records of input buffers (the mapped inputs)
// into the sort's arrays or staging. Before the first read, all threads mark
// the whole input once, a bit a record (an eighth of a byte a record; 25 MB
// for 2*10^8 records), and count the kept records of each block of them.
// Each read is then one step of the threads: each copies an equal share of
// the read's records, and finds where its share begins from the blocks'
// counts. A read of a staging slot costs one wake-up of the threads, not one
// to mark and one to copy: reads come a slot (16 MiB) at a time, and on a
// node whose cores are all busy each wake-up waits for the slowest thread.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
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
  // Throws InputError, before it copies any, where the input keeps other
  // than selection.records() records (an input changed since they were
  // counted).
  std::uint64_t read(std::byte* dst, std::uint64_t max);

  // The records of the one buffer that holds any, before read() began;
  // nullptr otherwise. A sort then takes its kept records where they lie,
  // through each_kept, without copying them (in_memory_runs.hpp).
  const std::byte* sole() const noexcept;
  // Calls place(j, i) for every kept record of sole(), i its index there and
  // j its number among the kept ones, from several threads at once. Throws
  // InputError as read() does, before any call.
  template <class Place>
  void each_kept(Place&& place);

private:
  // Marks every record and counts each block's kept ones (all threads),
  // once; throws InputError where the total is not the selection's.
  void mark_all();
  // The index in the input of the k-th kept record (k < the kept total).
  std::uint64_t kept_record(std::uint64_t k) const noexcept;
  // Calls each(i, j) for the runs of kept records [i, j) of the input from
  // `from` on, in order, until `count` kept records have been given (there
  // must be that many). A run may cross from one buffer into the next.
  template <class Each>
  void each_run(std::uint64_t from, std::uint64_t count, Each&& each) const;
  // The buffer that holds input record i, and the record (in buffer b).
  std::size_t buffer_of(std::uint64_t i) const noexcept;
  const std::byte* record(std::uint64_t i, std::size_t b) const noexcept;
  const std::byte* record(std::uint64_t i) const noexcept;
  unsigned slices_for(std::uint64_t records) const noexcept;
  // The input index of sole()'s first record.
  std::uint64_t sole_first() const noexcept;

  std::vector<std::span<const std::byte>> buffers_;
  std::vector<std::uint64_t> buffer_first_;  // [b]: buffer b's first record in the input; one more at the end
  std::uint32_t R_;
  const RecordSelection& selection_;
  unsigned threads_;
  std::vector<std::uint64_t> keep_;    // bit i % 64 of word i / 64: input record i is kept
  std::vector<std::uint64_t> before_;  // [b]: kept records before block b (kBlockWords words each); empty until marked
  std::uint64_t given_ = 0;  // kept records read so far
};

template <class Each>
void SelectedRecords::each_run(std::uint64_t from, std::uint64_t count, Each&& each) const {
  std::uint64_t w = from / 64;
  std::uint64_t bits = keep_[w] & (~std::uint64_t{0} << (from % 64));
  while (count > 0) {
    while (bits == 0) bits = keep_[++w];
    const unsigned lo = static_cast<unsigned>(std::countr_zero(bits));
    unsigned len = static_cast<unsigned>(std::countr_one(bits >> lo));
    if (len > count) len = static_cast<unsigned>(count);
    each(w * 64 + lo, w * 64 + lo + len);
    count -= len;
    bits = lo + len == 64 ? 0 : bits & (~std::uint64_t{0} << (lo + len));
  }
}

template <class Place>
void SelectedRecords::each_kept(Place&& place) {
  mark_all();
  const std::uint64_t n = selection_.records();
  const std::uint64_t first = sole_first();
  const unsigned slices = slices_for(n);
  parallel_for(slices, [&](unsigned t) {
    std::uint64_t j = n * t / slices;
    const std::uint64_t end = n * (t + 1) / slices;
    if (j == end) return;
    each_run(kept_record(j), end - j, [&](std::uint64_t b, std::uint64_t e) {
      for (std::uint64_t i = b; i < e; ++i) place(j++, i - first);
    });
  });
  given_ = n;
}

}  // namespace corank
