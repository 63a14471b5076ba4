#pragma once
// Key entries made before a sort begins, as its records arrive: corank-mpi's
// exchange normalizes each round's keys while its later rounds are in flight
// (mpi/arriving_keys.hpp), and the rank's sort, where it runs on the CPU
// under the in-memory plan, sorts these entries instead of reading every
// record again to make its own (SortRequest::prepared_keys). What follows
// the exchange is then the radix sort of the entries and the output's
// gather, as in the single process's sort of a file in memory.
//
// Entry i is the key of record i of those at records() (the sort's own
// normalization of the request's format, keys and -r), at index i: records
// arrive in ranges with gaps between them (each sender's region), and
// compact() moves the entries of the ranges filled end to end, in position
// order, which the sort's radix sort keeps among equal keys (stable, as the
// single process). The ranges filled must be exactly the records the sort's
// input keeps (its selection over a buffer starting at records()). Where the
// sort takes another way (the GPU, a plan beyond memory, --verify, a key
// width that differs) it ignores them and reads its input as always.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "corank/format.hpp"
#include "corank/io/huge_vector.hpp"
#include "corank/key_entry.hpp"
#include "corank/normalize.hpp"
#include "corank/run_sort.hpp"
#include "corank/sort_options.hpp"

namespace corank {

class PreparedKeys {
public:
  // For a sort of `options`' records (their format, keys, -r), up to
  // `capacity` of them at `records` (address space only, until filled);
  // nullptr where the sort takes no prepared keys (formats sorted as bare
  // key words: key_words_only.hpp). Throws std::bad_alloc.
  static std::unique_ptr<PreparedKeys> make(const SortOptions& options, const std::byte* records,
                                            std::uint64_t capacity);
  virtual ~PreparedKeys() = default;

  // Normalizes records [first, first + n) (indices from records()) into
  // their entries. Threads may make the keys of disjoint ranges at once, and
  // then one says so with filled().
  virtual void make(std::uint64_t first, std::uint64_t n) = 0;
  // Records [first, first + n) have their keys. One caller at a time.
  void filled(std::uint64_t first, std::uint64_t n) {
    ranges_.emplace_back(first, n);
    filled_ += n;
  }
  // make() on `threads` threads of the process's pool, then filled().
  void fill(std::uint64_t first, std::uint64_t n, unsigned threads);
  // The entries of the ranges filled, end to end in position order; returns
  // how many. Once, after the last fill.
  virtual std::uint64_t compact() = 0;

  const std::byte* records() const noexcept { return records_; }
  std::uint64_t filled() const noexcept { return filled_; }  // records whose keys were made
  bool taken() const noexcept { return taken_; }             // by a sort

protected:
  explicit PreparedKeys(const std::byte* records) : records_(records) {}
  const std::byte* records_;
  std::uint64_t filled_ = 0;
  bool compacted_ = false, taken_ = false;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges_;  // filled: [first, first + n)
};

// The entries of W-word keys, for the sort that takes them (in_memory_runs.hpp).
template <unsigned W>
class PreparedKeysOf final : public PreparedKeys {
public:
  PreparedKeysOf(const RecordFormat& format, const std::byte* records, std::uint64_t capacity)
      : PreparedKeys(records), norm_(format), R_(format.record_size), entries_(capacity) {}

  void make(std::uint64_t first, std::uint64_t n) override {
    normalize_records(norm_, records_, R_, first, first + n, 0, entries_.data());
  }

  std::uint64_t compact() override {
    if (compacted_) return filled_;
    std::sort(ranges_.begin(), ranges_.end());
    std::uint64_t at = 0;
    for (const auto& [first, n] : ranges_) {
      if (first != at) std::memmove(entries_.data() + at, entries_.data() + first, n * sizeof(KeyEntry<W>));
      at += n;
    }
    // The pages past the compacted entries go back: the ranges' former places.
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto from = (reinterpret_cast<std::uintptr_t>(entries_.data() + at) + page - 1) / page * page;
    const auto to = reinterpret_cast<std::uintptr_t>(entries_.data() + entries_.size());
    if (from < to) ::madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
    compacted_ = true;
    return at;
  }

  // The compacted entries, for the sort, which takes them.
  io::HugeVector<KeyEntry<W>> take() {
    taken_ = true;
    return std::move(entries_);
  }

private:
  KeyNormalizer norm_;
  std::uint32_t R_;
  io::HugeVector<KeyEntry<W>> entries_;
};

}  // namespace corank
