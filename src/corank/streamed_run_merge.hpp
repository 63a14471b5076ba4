#pragma once
// Merging spilled runs of fixed-size records record by record
// (external_sort.cpp): a loser tree over each run's next record, every run
// read front to back through a small buffer of its own. This is GNU sort's
// merge; it needs no sparse index. The slab merge (spilled_run_merge.hpp) is
// parallel but holds a sample every `stride` records of every run it merges,
// and the final merge's runs are the whole input: where that index would not
// fit the budget (an input hundreds of times -S), a stride wide enough to fit
// it leaves slabs a few strides long, merges of two runs at a time and a
// thread hand-off for every few records. This merge then takes its place.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "corank/io/huge_vector.hpp"
#include "corank/io/options.hpp"
#include "corank/loser_tree.hpp"
#include "corank/normalize.hpp"
#include "corank/sorted_run.hpp"

namespace corank {

struct StreamMergeJob {
  const KeyNormalizer& norm;
  const io::IoOptions& io;
  std::uint32_t record_size;
  std::uint64_t buffer_records;  // each run's read buffer
  std::uint64_t batch_records;   // delivered at a time
};

// Runs read through buffers of kStreamBufferBytes (at least a few records):
// small reads from the page cache, so that a merge of many runs fits a small
// budget.
inline constexpr std::uint64_t kStreamBufferBytes = std::uint64_t{4} << 10;
inline std::uint64_t stream_buffer_records(std::uint32_t record_size) {
  return std::max<std::uint64_t>(4, kStreamBufferBytes / record_size);
}

// Merges `runs` (consecutive in merge order): deliver(entries, count, records)
// gets batches of merged entries whose pos indexes the batch's `records`
// (entry j is record j), as the slab merge delivers its slabs.
template <class E, class Deliver>
void merge_runs_streamed(std::span<IndexedRun<E>> runs, const StreamMergeJob& job, Deliver&& deliver) {
  const std::size_t k = runs.size();
  const std::uint32_t R = job.record_size;
  const std::uint64_t per_run = std::max<std::uint64_t>(1, job.buffer_records);
  struct Source {
    SortedRun::Reader reader;
    std::uint64_t next = 0, end = 0;  // run records [next, end) are in the buffer, from `at`
    std::uint64_t at = 0;
    E head{};
  };
  std::vector<Source> sources;
  sources.reserve(k);
  for (const auto& r : runs) sources.push_back(Source{SortedRun::Reader(r.records, job.io)});
  io::HugeVector<std::byte> buffers(k * per_run * R);
  auto record = [&](std::size_t i) { return buffers.data() + (i * per_run + sources[i].at) * R; };
  // Loads run i's next record as its head; false once the run is done.
  auto advance = [&](std::size_t i) {
    Source& s = sources[i];
    const std::uint64_t count = runs[i].records.count();
    if (s.next == count) return false;
    if (s.at == s.end) {
      const std::uint64_t upto = std::min(count, s.next + per_run);
      s.reader.take(upto, buffers.data() + i * per_run * R);
      s.at = 0;
      s.end = upto - s.next;
    }
    job.norm.normalize(record(i), s.head.key);
    s.head.pos = runs[i].records.base() + s.next;
    return true;
  };
  std::vector<bool> live(k);
  for (std::size_t i = 0; i < k; ++i) live[i] = advance(i);
  // Merge positions break ties: the merge stays stable.
  LoserTree tree(k, [&](std::size_t a, std::size_t b) {
    if (!live[a]) return false;
    if (!live[b]) return true;
    return sources[a].head < sources[b].head;
  });
  const std::uint64_t batch = std::max<std::uint64_t>(1, job.batch_records);
  io::HugeVector<std::byte> records(batch * R);
  io::HugeVector<E> entries(batch);
  std::uint64_t n = 0;
  for (std::size_t w; live[w = tree.winner()];) {
    Source& s = sources[w];
    std::copy_n(record(w), R, records.data() + n * R);
    entries[n] = s.head;
    entries[n].pos = n;
    ++s.at;
    ++s.next;
    live[w] = advance(w);
    tree.replay();
    if (++n == batch) {
      deliver(entries.data(), n, records.data());
      n = 0;
    }
  }
  if (n) deliver(entries.data(), n, records.data());
}

}  // namespace corank
