#include "corank/text/merged_chunk_writer.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "corank/io/recycling_allocator.hpp"
#include "corank/kway_co_rank.hpp"
#include "corank/kway_merge.hpp"
#include "corank/parallel.hpp"
#include "corank/stopwatch.hpp"
#include "corank/text/record_writer.hpp"
#include "corank/text/tied_records.hpp"

namespace corank::text {

std::vector<std::uint64_t> share_start(std::span<const std::span<const RecordEntry>> slices, std::uint64_t rank) {
  std::vector<std::uint64_t> cut = kway_co_rank(slices, rank, PrefixLess{});
  const RecordEntry* first = nullptr;  // the share's first record: the least at the cuts
  for (std::size_t i = 0; i < slices.size(); ++i)
    if (cut[i] < slices[i].size() && (!first || PrefixLess{}(slices[i][cut[i]], *first))) first = &slices[i][cut[i]];
  if (!first) return cut;  // the end
  // Records before the cut are at most `first`, so those with its prefix come
  // last there: the first of them is the new cut.
  const Prefix p = first->prefix;
  for (std::size_t i = 0; i < slices.size(); ++i) {
    const auto begin = slices[i].begin();
    cut[i] = static_cast<std::uint64_t>(
        std::lower_bound(begin, begin + static_cast<std::ptrdiff_t>(cut[i]), p,
                         [](const RecordEntry& e, const Prefix& q) { return e.prefix < q; }) -
        begin);
  }
  return cut;
}

namespace {

// Each record's bytes are a cache miss (and, in a mapped input, a TLB miss):
// fetched as the merge picks the record, and copied once this many records
// more have been picked, so that the misses overlap.
constexpr std::size_t kFetchedAhead = 32;
void fetch_ahead(const Chunk& chunk, const RecordEntry& e) {
  const char* p = chunk.data() + e.offset;
  __builtin_prefetch(p);
  if (e.length_code != RecordEntry::kLong) __builtin_prefetch(p + e.length_code);  // its last line, terminator included
}

}  // namespace

std::uint64_t write_merged(const ChunkWriting& how, const Chunk& chunk, std::span<const std::uint64_t> bounds,
                           const EntryLess& less, const io::FileRange& range,
                           const io::IoOptions& io) {
  const std::size_t k = bounds.size() - 1;
  const std::uint64_t n = bounds.back() - bounds.front();
  std::vector<std::span<const RecordEntry>> slices(k);
  for (std::size_t i = 0; i < k; ++i)
    slices[i] = std::span<const RecordEntry>(chunk.records.data() + bounds[i], bounds[i + 1] - bounds[i]);
  const std::span<const std::span<const RecordEntry>> seqs(slices);
  // More shares than threads, taken in turn by whichever thread is free:
  // shares of equal records are not of equal work (a run of long tied
  // prefixes, as lines without a time make, costs many times the rest).
  const auto threads = static_cast<unsigned>(std::clamp<std::uint64_t>(n / 65536, 1, how.threads));
  const auto shares = static_cast<unsigned>(
      std::clamp<std::uint64_t>(n / 65536, 1, std::min(threads * kSharesPerThread, kMostShares)));
  std::vector<std::vector<std::uint64_t>> cuts(shares + 1);
  parallel_for(threads, [&](unsigned t) {
    for (unsigned s = t; s <= shares; s += threads) cuts[s] = share_start(seqs, n * s / shares);
  });
  // Each share's bytes, so that every share knows where it begins.
  std::vector<std::uint64_t> offset(shares + 1, 0);
  parallel_for(threads, [&](unsigned t) {
    for (unsigned s = t; s < shares; s += threads) {
      std::uint64_t b = 0;
      for (std::size_t i = 0; i < k; ++i)
        for (std::uint64_t r = cuts[s][i]; r < cuts[s + 1][i]; ++r) b += chunk.length(slices[i][r]) + 1;
      offset[s + 1] = b;
    }
  });
  for (unsigned s = 0; s < shares; ++s) offset[s + 1] += offset[s];
  range.allocate(0, offset[shares]);  // where the file system can: written in whole blocks, behind the merge
  // The shares' sinks take their blocks from one pool: fresh ones for each
  // would touch new memory a share. Each thread has two sinks open (the one
  // it fills, the one before finishing its writes), each with its blocks: at
  // most kShareQueueDepth apiece, since every block is memory a first touch
  // pays for, and a merge that fills a block in milliseconds leaves the
  // device no more than a few to write at once (with more threads, more
  // sinks: the queue grows with them).
  io::RecyclingAllocator blocks(io.allocator ? *io.allocator : io::default_allocator());
  io::IoOptions share_io = io;
  share_io.allocator = &blocks;
  share_io.queue_depth = std::min(io.queue_depth, kShareQueueDepth);
  std::atomic<unsigned> next{0};
  parallel_for(threads, [&](unsigned) {
    std::vector<std::span<const RecordEntry>> share(k);
    std::vector<RecordEntry> tied;  // records of one prefix, in PrefixLess order
    std::vector<RecordEntry> ready;  // records in order, their bytes fetched ahead
    // A share's sink is finished once the next share is written, when its
    // writes are done: finishing it at once would wait for them.
    std::unique_ptr<io::ByteSink> before;
    for (unsigned s; (s = next.fetch_add(1)) < shares;) {
      for (std::size_t i = 0; i < k; ++i) share[i] = slices[i].subspan(cuts[s][i], cuts[s + 1][i] - cuts[s][i]);
      std::unique_ptr<io::ByteSink> sink = range.engine_sink_at(offset[s], share_io);
      RecordWriter w(*sink, how.format.terminator(), nullptr);
      auto write_ready = [&] {
        for (const RecordEntry& e : ready) w.write(chunk.record(e));
        ready.clear();
      };
      auto put_tied = [&] {
        if (tied.size() > 1) sort_tied(tied.data(), tied.data() + tied.size(), less, 1);
        if (tied.size() < kFetchedAhead) {
          ready.insert(ready.end(), tied.begin(), tied.end());
          if (ready.size() >= kFetchedAhead) write_ready();
        } else {  // a long run of ties, in another order now: written as it is, fetched ahead again
          write_ready();
          for (std::size_t i = 0; i < tied.size(); ++i) {
            if (i + kFetchedAhead < tied.size()) fetch_ahead(chunk, tied[i + kFetchedAhead]);
            w.write(chunk.record(tied[i]));
          }
        }
        tied.clear();
      };
      merge_kway_each(std::span<const std::span<const RecordEntry>>(share), PrefixLess{}, [&](const RecordEntry& e) {
        if (!tied.empty() && !(tied.front().prefix == e.prefix)) put_tied();
        fetch_ahead(chunk, e);
        tied.push_back(e);
      });
      put_tied();
      write_ready();
      w.finish();
      if (before) before->finish();
      before = std::move(sink);
    }
    if (before) before->finish();
  });
  return offset[shares];
}

void write_sorted_slices(const ChunkWriting& how, const Chunk& chunk, std::span<const std::uint64_t> slices,
                         RecordWriter& w, io::OutputFile& output, const io::IoOptions& io, RangeWrites& in_range) {
  const auto t0 = Clock::now();
  w.finish();  // the header, if any, goes first
  const std::optional<io::FileRange> range = output.reserve_range();
  if (!range) throw std::logic_error("write_sorted_slices: an output without ranges");
  in_range.bytes += write_merged(how, chunk, slices, EntryLess{&how.format, &chunk}, *range, io);
  in_range.records += chunk.records.size();
  in_range.seconds += seconds_since(t0);
}

}  // namespace corank::text
