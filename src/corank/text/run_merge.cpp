#include "corank/text/run_merge.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "corank/loser_tree.hpp"
#include "corank/parallel.hpp"
#include "corank/io/positional_file.hpp"

namespace corank::text {

namespace {

// A record with its prefix: comparisons try the prefix first.
struct Keyed {
  std::string_view record;
  Prefix prefix;
};

int order(const TextFormat& format, const Keyed& a, const Keyed& b) {
  if (!(a.prefix == b.prefix)) return a.prefix < b.prefix ? -1 : 1;
  return format.compare_tied(a.record, b.record);
}

std::unique_ptr<RecordReader> reader_over(std::shared_ptr<io::ByteSource> src, const TextFormat& format,
                                          std::size_t buffer) {
  return std::make_unique<RecordReader>([src](char* dst, std::size_t n) { return src->read(dst, n); },
                                        "temporary file", format, buffer, /*check=*/false);
}

// The offset in `run` of its first record not less than s: after the last
// sample less than s, within one stride.
std::uint64_t first_not_less(const SpilledRun& run, const std::vector<Keyed>& keys, const Keyed& s,
                             const TextFormat& format) {
  const auto j = static_cast<std::size_t>(
      std::partition_point(keys.begin(), keys.end(), [&](const Keyed& k) { return order(format, k, s) < 0; }) -
      keys.begin());
  std::uint64_t pos = j == 0 ? 0 : run.samples[j - 1].offset;
  const std::uint64_t end = j == keys.size() ? run.bytes : run.samples[j].offset;
  auto reader = reader_over(std::make_shared<io::PositionalSource>(run.fd.get(), pos, end), format, 64 << 10);
  for (std::string_view rec; reader->next(rec); pos += rec.size() + 1)
    if (order(format, {rec, format.prefix(rec)}, s) >= 0) return pos;
  return end;
}

}  // namespace

void merge_streams(std::vector<std::unique_ptr<RecordReader>>& readers, const TextFormat& format, RecordWriter& out,
                   Progress* progress) {
  const std::size_t k = readers.size();
  if (k == 0) return;
  std::vector<std::string_view> head(k);
  std::vector<Prefix> prefix(k);
  std::vector<bool> live(k);
  for (std::size_t i = 0; i < k; ++i) {
    live[i] = readers[i]->next(head[i]);
    if (live[i]) prefix[i] = format.prefix(head[i]);
  }
  LoserTree tree(k, [&](std::size_t a, std::size_t b) {
    if (!live[a]) return false;
    if (!live[b]) return true;
    if (!(prefix[a] == prefix[b])) return prefix[a] < prefix[b];
    const int c = format.compare_tied(head[a], head[b]);
    return c ? c < 0 : a < b;
  });
  constexpr std::uint64_t kReportEvery = 4 << 20;
  std::uint64_t unreported = 0;
  // A run's next record with the same bytes as the one it just gave (a
  // repeated line) compares as that one did: it wins again, and needs
  // neither its prefix nor a comparison.
  std::string last;
  for (std::size_t w; live[w = tree.winner()];) {
    out.write(head[w]);
    unreported += head[w].size() + 1;
    last.assign(head[w]);
    live[w] = readers[w]->next(head[w]);
    if (progress && unreported >= kReportEvery) progress->advance(std::exchange(unreported, 0));
    if (live[w] && head[w] == last) continue;
    if (live[w]) prefix[w] = format.prefix(head[w]);
    tree.replay();
  }
  if (progress) progress->advance(unreported);
}

std::unique_ptr<RecordReader> run_reader(const SpilledRun& run, const TextFormat& format, std::size_t buffer,
                                         const io::IoOptions& temp) {
  auto reader = reader_over(io::page_cache_run_source(run.fd.get(), run.bytes, temp), format, buffer);
  reader->expect(run.content);
  return reader;
}

std::unique_ptr<RecordReader> output_run_reader(io::OutputFile& output, std::uint64_t skip, const RunContent& content,
                                                const TextFormat& format, std::size_t buffer,
                                                const io::IoOptions& io) {
  output.finish_writing();
  std::shared_ptr<io::ByteSource> source = output.read_back(io);
  std::vector<char> header(skip);
  if (source->read(header.data(), header.size()) != header.size())
    throw io::IoError("read failed", output.target(), "run ended early");
  auto reader = std::make_unique<RecordReader>([source](char* p, std::size_t n) { return source->read(p, n); },
                                               output.target(), format, buffer, false);
  reader->expect(content);
  return reader;
}

bool can_merge_in_ranges(std::span<const SpilledRun> runs) {
  return std::all_of(runs.begin(), runs.end(), [](const SpilledRun& r) { return !r.samples.empty(); });
}

MergedBytes merge_in_ranges(std::span<const SpilledRun> runs, const TextFormat& format, const io::FileRange& out,
                            const ParallelMerge& options) {
  const std::size_t k = runs.size();
  const unsigned threads = std::max(1u, options.threads);
  // Every sample, in merged order (ties by run, then position).
  struct SampleRef {
    std::size_t run, index;
  };
  std::vector<std::vector<Keyed>> keys(k);
  std::vector<SampleRef> all;
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < k; ++i) {
    total += runs[i].bytes;
    for (std::size_t j = 0; j < runs[i].samples.size(); ++j) {
      const std::string& r = runs[i].samples[j].record;
      keys[i].push_back({r, format.prefix(r)});
      all.push_back({i, j});
    }
  }
  auto key = [&](const SampleRef& s) -> const Keyed& { return keys[s.run][s.index]; };
  std::sort(all.begin(), all.end(), [&](const SampleRef& a, const SampleRef& b) {
    const int c = order(format, key(a), key(b));
    return c ? c < 0 : a.run != b.run ? a.run < b.run : a.index < b.index;
  });
  // Splitters at equal shares of the bytes: a sample stands for its run's
  // bytes up to the run's next sample. Equal splitters would cut alike.
  std::vector<Keyed> splitters;
  std::uint64_t seen = 0;
  for (const SampleRef& s : all) {
    if (splitters.size() + 1 < threads && seen >= total / threads * (splitters.size() + 1) &&
        (splitters.empty() || order(format, splitters.back(), key(s)) != 0))
      splitters.push_back(key(s));
    const auto& samples = runs[s.run].samples;
    seen += (s.index + 1 < samples.size() ? samples[s.index + 1].offset : runs[s.run].bytes) - samples[s.index].offset;
  }
  const std::size_t ranges = splitters.size() + 1;
  // cut[r][i]: where range r starts in run i.
  std::vector<std::vector<std::uint64_t>> cut(ranges + 1, std::vector<std::uint64_t>(k, 0));
  for (std::size_t i = 0; i < k; ++i) cut[ranges][i] = runs[i].bytes;
  const std::size_t searches = splitters.size() * k;
  const auto searchers = static_cast<unsigned>(std::clamp<std::size_t>(searches, 1, threads));
  parallel_for(searchers, [&](unsigned t) {
    for (std::size_t q = t; q < searches; q += searchers) {
      const std::size_t r = q / k + 1, i = q % k;
      cut[r][i] = first_not_less(runs[i], keys[i], splitters[r - 1], format);
    }
  });
  // Where each key range goes in `out`: its bytes are known before merging.
  std::vector<std::uint64_t> start(ranges + 1, 0);
  for (std::size_t r = 0; r < ranges; ++r) {
    start[r + 1] = start[r];
    for (std::size_t i = 0; i < k; ++i) start[r + 1] += cut[r + 1][i] - cut[r][i];
  }
  out.allocate(0, start[ranges]);
  // Each thread's write-behind sink keeps four blocks in flight; all threads'
  // blocks together take at most half of `memory` (blocks of 64 KiB to 1 MiB).
  io::IoOptions write_io = options.io;
  write_io.queue_depth = 4;
  write_io.block_size = static_cast<std::size_t>(std::clamp<std::uint64_t>(
      options.memory / 2 / (ranges * write_io.queue_depth) / (64 << 10) * (64 << 10), 64 << 10, 1 << 20));
  const auto buffer = static_cast<std::size_t>(
      std::clamp<std::uint64_t>(options.memory / (ranges * (k + 1)), 4 << 10, 256 << 10));
  std::vector<std::vector<RunSample>> samples(ranges);
  std::vector<std::uint64_t> records(ranges);
  parallel_for(static_cast<unsigned>(ranges), [&](unsigned r) {
    std::vector<std::unique_ptr<RecordReader>> readers;
    for (std::size_t i = 0; i < k; ++i)
      if (cut[r][i] < cut[r + 1][i])
        readers.push_back(
            reader_over(std::make_shared<io::PositionalSource>(runs[i].fd.get(), cut[r][i], cut[r + 1][i]), format, buffer));
    const std::unique_ptr<io::ByteSink> sink =
        options.direct ? out.engine_sink_at(start[r], write_io) : out.sink_at(start[r]);
    RecordWriter w(*sink, format.terminator(), nullptr);
    if (options.samples) w.keep_samples(options.stride, start[r], samples[r]);
    merge_streams(readers, format, w, options.progress);
    w.finish();
    sink->finish();
    records[r] = w.records();
  });
  MergedBytes merged{start[ranges], 0};
  for (std::size_t r = 0; r < ranges; ++r) {
    merged.records += records[r];
    if (options.samples)
      std::move(samples[r].begin(), samples[r].end(), std::back_inserter(*options.samples));
  }
  return merged;
}

}  // namespace corank::text
