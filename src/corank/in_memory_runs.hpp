#pragma once
// The in-memory plan of the CPU sort (external_sort.cpp): every record and
// its key entry in RAM at once. A file already in memory (the page cache, a
// memory file system) is mapped and sorted where it lies; any other input is
// read whole, run by run, each run read while the one before is sorted. The
// runs of plan.run_records are sorted into their entries, and the caller
// merges them by co-rank; under plan.single_sort the entries are made in
// position order and one radix sort makes them one run.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <future>
#include <span>
#include <vector>

#include "corank/checksum.hpp"
#include "corank/errors.hpp"
#include "corank/external_sort.hpp"
#include "corank/io/huge_vector.hpp"
#include "corank/io/task_thread.hpp"
#include "corank/key_entry.hpp"
#include "corank/kway_co_rank.hpp"
#include "corank/kway_merge.hpp"
#include "corank/notes.hpp"
#include "corank/planner.hpp"
#include "corank/prepared_keys.hpp"
#include "corank/run_sort.hpp"
#include "corank/stopwatch.hpp"

namespace corank {

template <unsigned W>
struct InMemoryRuns {
  const std::byte* records = nullptr;   // every record: the input's mapping, or `read`
  io::HugeVector<std::byte> read;       // the records, where the input was read
  io::HugeVector<KeyEntry<W>> entries;  // pos: a record's index in `records`, also the tie-breaker
  std::vector<std::span<const KeyEntry<W>>> runs;
};

// m's n entries, made in position order, radix sorted (stable: (key,
// position) order) in runs of plan.run_records, or whole under plan.single_sort.
template <unsigned W>
void sort_entries_in_runs(InMemoryRuns<W>& m, std::uint64_t n, const SortPlan& plan, unsigned threads) {
  const std::uint64_t run = plan.single_sort ? std::max<std::uint64_t>(n, 1) : plan.run_records;
  io::HugeVector<KeyEntry<W>> scratch(std::min(n, run));
  for (std::uint64_t base = 0; base < n; base += run) {
    const std::uint64_t count = std::min(run, n - base);
    radix_sort(m.entries.data() + base, scratch.data(), count, threads);
    m.runs.emplace_back(m.entries.data() + base, count);
  }
}

// The kept records of a selection (record_selection.hpp) where they lie: an
// entry for each, in input order (pos: its index in the buffer), sorted in
// runs of plan.run_records, or whole under plan.single_sort.
template <unsigned W>
InMemoryRuns<W> selected_runs_in_memory(const CpuSortJob& job, const SortPlan& plan, unsigned threads,
                                        SelectedRecords& selection, double& read_seconds) {
  using E = KeyEntry<W>;
  const std::uint32_t R = job.format.record_size;
  const std::uint64_t n = *job.input.total_records();
  InMemoryRuns<W> m;
  const auto t0 = Clock::now();
  m.records = selection.sole();
  m.entries = io::HugeVector<E>(n);
  E* entries = m.entries.data();
  selection.each_kept([&](std::uint64_t j, std::uint64_t i) {  // j < n: each_kept checks the count first
    job.norm.normalize(m.records + i * R, entries[j].key);
    entries[j].pos = i;
  });
  read_seconds += seconds_since(t0);
  note(job.options.verbose, job.options.io, "input: the selected records sorted where they lie");
  job.progress.advance(n * R);
  sort_entries_in_runs(m, n, plan, threads);
  return m;
}

// The entries made as the records arrived (prepared_keys.hpp), sorted as the
// plan's runs, where they are of the sort's key width and hold every record
// its input keeps, in place where it lies; false (m untouched) otherwise.
template <unsigned W>
bool take_prepared_keys(const CpuSortJob& job, const SortPlan& plan, unsigned threads, std::uint64_t n,
                        InMemoryRuns<W>& m) {
  auto* prepared = dynamic_cast<PreparedKeysOf<W>*>(job.options.prepared_keys);
  if (!prepared || job.input_checksum || prepared->filled() != n) return false;
  const SelectedRecords* in_place = job.input.selection_in_place();
  if (!in_place || in_place->sole() != prepared->records() || prepared->compact() != n) return false;
  job.input.take_selection_in_place();
  m.records = prepared->records();
  m.entries = prepared->take();
  note(job.options.verbose, job.options.io, "input: keys made as the records arrived, sorted where they lie");
  job.progress.advance(n * job.format.record_size);
  sort_entries_in_runs(m, n, plan, threads);
  return true;
}

// Forms the runs of job's whole input (its total_records() known). `read(dst,
// n)` reads the next n records on `reader` (and counts them for --verify and
// the progress line); `read_seconds` gets the time of mapping the input.
template <unsigned W, class Read>
InMemoryRuns<W> form_runs_in_memory(const CpuSortJob& job, const SortPlan& plan, unsigned threads,
                                    io::TaskThread& reader, double& read_seconds, Read&& read) {
  using E = KeyEntry<W>;
  const std::uint32_t R = job.format.record_size;
  const std::uint64_t n = *job.input.total_records();
  const std::uint64_t run = plan.run_records;
  const bool single = plan.single_sort;
  InMemoryRuns<W> m;
  const auto t0 = Clock::now();
  m.records = job.input.map_whole();
  SelectedRecords* in_place = job.input_checksum ? nullptr : job.input.take_selection_in_place();
  if (m.records) {
    note(job.options.verbose, job.options.io, "input: in memory already, mapped and sorted where it lies");
    if (job.input_checksum) *job.input_checksum += checksum_records(m.records, n, R, threads);
    job.progress.advance(n * R);
  } else if (in_place) {
    return selected_runs_in_memory<W>(job, plan, threads, *in_place, read_seconds);
  } else {
    m.read = io::HugeVector<std::byte>(n * R);
    m.records = m.read.data();
  }
  read_seconds += seconds_since(t0);
  m.entries = io::HugeVector<E>(n);
  io::HugeVector<E> scratch(single ? n : std::min(n, run));
  std::byte* read_into = m.read.data();

  auto read_at = [&](std::uint64_t base) {
    const std::uint64_t want = std::min(run, n - base);
    if (read(read_into + base * R, want) != want) throw InputError("an input file shrank while it was being read");
  };
  const io::TaskThread::Drain reads_done(reader);  // no read outlives this scope's `read_at`
  std::future<void> next;
  if (read_into) next = reader.run([&] { read_at(0); });
  for (std::uint64_t base = 0; base < n; base += run) {
    const std::uint64_t count = std::min(run, n - base);
    if (next.valid()) next.get();
    if (read_into && base + count < n) next = reader.run([&, at = base + count] { read_at(at); });
    if (single)
      normalize_records_parallel(job.norm, m.records + base * R, R, count, base, m.entries.data() + base, threads);
    else
      sort_run<W>(job.norm, m.records + base * R, R, count, base, m.entries.data() + base, scratch.data(), threads);
    m.runs.emplace_back(m.entries.data() + base, count);
  }
  if (next.valid()) next.get();
  if (single) {
    // Entries made in position order, radix sorted: (key, position) order, one run.
    radix_sort(m.entries.data(), scratch.data(), n, threads);
    m.runs.assign(1, std::span<const E>(m.entries.data(), n));
  }
  return m;
}

// Merges the runs slab by slab, each cut across them by co-rank and merged
// on all threads: deliver(entries, count) gets each slab's merged entries
// (pos indexing m.records).
template <unsigned W, class Deliver>
void merge_runs_in_memory(InMemoryRuns<W>& m, std::uint64_t n, std::uint64_t slab, unsigned threads,
                          Deliver&& deliver) {
  using E = KeyEntry<W>;
  const auto& runs = m.runs;
  io::HugeVector<E> merged;
  std::vector<std::span<const E>> part(runs.size());
  std::vector<std::uint64_t> lo(runs.size(), 0);
  for (std::uint64_t r0 = 0; r0 < n; r0 += slab) {
    const std::uint64_t r1 = std::min(n, r0 + slab);
    if (runs.size() == 1) {
      deliver(m.entries.data() + r0, r1 - r0);
      continue;
    }
    auto hi = kway_co_rank(std::span<const std::span<const E>>(runs), r1);
    for (std::size_t i = 0; i < runs.size(); ++i) part[i] = runs[i].subspan(lo[i], hi[i] - lo[i]);
    lo = std::move(hi);
    if (!merged) merged = io::HugeVector<E>(std::min(n, slab));
    merge_kway_parallel(std::span<const std::span<const E>>(part), merged.data(), threads);
    deliver(merged.data(), r1 - r0);
  }
}

}  // namespace corank
