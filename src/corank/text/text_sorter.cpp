#include "corank/text/text_sorter.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <future>
#include <memory>
#include <thread>

#include "corank/io/file_desc.hpp"
#include "corank/io/output_file.hpp"
#include "corank/io/temp_files.hpp"
#include "corank/parallel.hpp"
#include "corank/planner.hpp"
#include "corank/progress.hpp"
#include "corank/text/chunk_reader.hpp"
#include "corank/text/record_reader.hpp"
#include "corank/text/record_sort.hpp"
#include "corank/text/record_writer.hpp"

namespace corank::text {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The output writer's buffer: cache-sized where one thread copies records into
// it (see record_writer.hpp), large where many gather batches into it at once.
constexpr std::size_t kCacheBuffer = std::size_t{256} << 10;
constexpr std::size_t kGatherBuffer = std::size_t{64} << 20;

struct SpilledRun {
  io::FileDesc fd;
  std::uint64_t bytes = 0;
};

// Merges the records of `readers` (earlier readers win ties, which keeps the
// merge stable) into `out`, with a loser tree over the readers' current records.
void merge_streams(std::vector<std::unique_ptr<RecordReader>>& readers, const TextFormat& format, RecordWriter& out) {
  const std::size_t k = readers.size();
  if (k == 0) return;
  std::vector<std::string_view> head(k);
  std::vector<Prefix> prefix(k);
  std::vector<bool> live(k);
  for (std::size_t i = 0; i < k; ++i) {
    live[i] = readers[i]->next(head[i]);
    if (live[i]) prefix[i] = format.prefix(head[i]);
  }
  auto beats = [&](std::size_t a, std::size_t b) {
    if (!live[a]) return false;
    if (!live[b]) return true;
    if (!(prefix[a] == prefix[b])) return prefix[a] < prefix[b];
    const int c = format.compare(head[a], head[b]);
    return c ? c < 0 : a < b;
  };
  std::size_t leaves = 1;
  while (leaves < k) leaves <<= 1;
  // Leaves past k are never live.
  live.resize(leaves, false);
  head.resize(leaves);
  prefix.resize(leaves);
  std::vector<std::size_t> winner(2 * leaves), loser(leaves);
  for (std::size_t i = 0; i < leaves; ++i) winner[leaves + i] = i;
  for (std::size_t n = leaves - 1; n >= 1; --n) {
    std::size_t l = winner[2 * n], r = winner[2 * n + 1];
    if (beats(r, l)) std::swap(l, r);
    winner[n] = l;
    loser[n] = r;
  }
  std::size_t w = leaves == 1 ? 0 : winner[1];
  while (live[w]) {
    out.write(head[w]);
    live[w] = readers[w]->next(head[w]);
    if (live[w]) prefix[w] = format.prefix(head[w]);
    for (std::size_t n = (w + leaves) / 2; n >= 1; n /= 2)
      if (beats(loser[n], w)) std::swap(loser[n], w);
  }
}

std::unique_ptr<RecordReader> run_reader(const SpilledRun& run, const TextFormat& format, std::size_t buffer) {
  auto offset = std::make_shared<std::uint64_t>(0);
  const int fd = run.fd.get();
  return std::make_unique<RecordReader>(
      [fd, offset](char* dst, std::size_t n) {
        const std::size_t got = io::pread_full(fd, dst, n, *offset, "temporary file");
        *offset += got;
        return got;
      },
      "temporary file", format, buffer);
}

class TextSorter {
public:
  TextSorter(const TextSortOptions& options, TextFormat& format, SortStats& stats)
      : opt_(options), format_(format), stats_(stats), progress_(options.progress) {
    threads_ = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    budget_ = options.memory_budget ? options.memory_budget : default_memory_budget();
    stats_.threads = threads_;
    stats_.memory_budget = budget_;
    // Each merge input holds a buffer; the fan-in keeps them within the budget
    // (and small budgets, which tests use, exercise several merge passes).
    fan_in_ = static_cast<std::size_t>(std::clamp<std::uint64_t>(budget_ / (64 << 10), 2, 256));
    // Reads of a few hundred KiB: the records are parsed while still in cache.
    merge_buffer_ = static_cast<std::size_t>(std::clamp<std::uint64_t>(budget_ / (2 * (fan_in_ + 1)), 4 << 10, 256 << 10));
  }

  void sort() {
    ChunkReader reader(opt_.inputs, format_, opt_.io, threads_);
    io::OutputFile output(opt_.output, opt_.io);
    const auto total = reader.total_size();
    // Two chunks alternate, one being read while the other is sorted; each
    // holds a third of the budget in record bytes and entries, and the sort's
    // scratch takes at most another third. An input that fits one chunk is
    // sorted in memory and written straight out.
    const std::uint64_t chunk_bytes = std::max<std::uint64_t>(budget_ / 3, 1024);
    stats_.mode = "in-memory";
    progress_.phase("sort", total.value_or(0));

    Chunk chunks[2];
    auto t_runs = Clock::now();
    std::future<bool> filled = std::async(std::launch::async, [&] { return reader.fill(chunks[0], chunk_bytes); });
    bool header_done = false;
    std::unique_ptr<RecordWriter> out;
    std::vector<SpilledRun> runs;
    io::TempDirectories temps(opt_.temp_dirs);
    for (int b = 0;; b ^= 1) {
      const bool got = timed_get(filled);
      if (!header_done) {
        header_done = true;
        out = std::make_unique<RecordWriter>(output.sink(), format_.terminator(), unique_format(),
                                             threads_ > 2 ? kGatherBuffer : kCacheBuffer);
        if (format_.has_header() && reader.saw_header()) out->write_raw(reader.header() + '\n');
      }
      if (!got) break;
      const bool last = reader.done();
      if (!last) {
        filled = std::async(std::launch::async, [&, b] { return reader.fill(chunks[b ^ 1], chunk_bytes); });
      }
      Chunk& chunk = chunks[b];
      stats_.records_in += chunk.records.size();
      sort_chunk(chunk);
      progress_.advance(chunk.used);
      if (last && runs.empty()) {
        write_sorted(chunk, *out);
        stats_.runs = 1;
        break;
      }
      // Spill the sorted chunk as a run.
      SpilledRun run{temps.create_anonymous(), 0};
      run.bytes = spill(chunk, run.fd.get());
      stats_.spill_bytes += run.bytes;
      runs.push_back(std::move(run));
      if (last) break;
    }
    chunks[0] = Chunk();
    chunks[1] = Chunk();
    stats_.bytes_in = reader.bytes_read();
    stats_.seconds.run_formation = seconds_since(t_runs);
    if (!runs.empty()) {
      stats_.mode = "external";
      stats_.runs = stats_.spilled_runs = runs.size();
      if (opt_.verbose)
        std::fprintf(stderr, "corank: spilled %zu runs (%llu bytes), merge fan-in %zu\n", runs.size(),
                     static_cast<unsigned long long>(stats_.spill_bytes), fan_in_);
      auto t_merge = Clock::now();
      progress_.phase("merge", stats_.spill_bytes);
      merge_runs(runs, temps, *out);
      stats_.seconds.merge = seconds_since(t_merge);
    }
    out->finish();
    progress_.finish();
    stats_.records_out = out->records();
    stats_.bytes_out = out->bytes();
    stats_.seconds.write += out->write_seconds();
    auto tc = Clock::now();
    output.commit();
    stats_.seconds.write += seconds_since(tc);
  }

  void merge_inputs() {
    std::vector<std::unique_ptr<io::ByteSource>> sources;
    std::vector<std::string> names = opt_.inputs.empty() ? std::vector<std::string>{"-"} : opt_.inputs;
    for (const auto& n : names) sources.push_back(io::open_source(n, opt_.io));
    io::OutputFile output(opt_.output, opt_.io);
    stats_.mode = "merge";
    std::vector<std::unique_ptr<RecordReader>> readers;
    for (auto& s : sources) {
      io::ByteSource* src = s.get();
      readers.push_back(std::make_unique<RecordReader>(
          [src](char* dst, std::size_t n) { return src->read(dst, n); }, src->name(), format_, merge_buffer_));
    }
    std::string header;
    bool have_header = false;
    if (format_.has_header()) {
      for (auto& r : readers) {
        std::string_view h;
        if (r->next(h) && !have_header) header.assign(h), have_header = true;
      }
      if (have_header) format_.set_header(header);
    }
    RecordWriter out(output.sink(), format_.terminator(), unique_format());
    if (have_header) out.write_raw(header + '\n');
    auto t_merge = Clock::now();
    merge_streams(readers, format_, out);
    out.finish();
    stats_.seconds.merge = seconds_since(t_merge);
    stats_.records_in = stats_.records_out = out.records();
    stats_.bytes_out = out.bytes();
    output.commit();
  }

private:
  const TextFormat* unique_format() const { return format_.unique() ? &format_ : nullptr; }

  bool timed_get(std::future<bool>& f) {
    auto t0 = Clock::now();
    const bool r = f.get();
    stats_.seconds.read += seconds_since(t0);  // time the sort waited for input
    return r;
  }

  void sort_chunk(Chunk& chunk) {
    parallel_sort(chunk.records, scratch_, EntryLess{&format_, chunk.data()}, threads_);
  }

  // Writes the chunk's records in sorted order. Each record is a cache miss.
  // With more than two threads and without -u, batches of records that fill
  // the writer's buffer are gathered by all threads, each into its own byte
  // range of it; under -u each record is compared with the last one written.
  void write_sorted(const Chunk& chunk, RecordWriter& w) {
    const auto& recs = chunk.records;
    const std::size_t n = recs.size();
    if (format_.unique() || threads_ <= 2) {
      for (const auto& e : recs) w.write(chunk.record(e));
      return;
    }
    const char terminator = format_.terminator();
    std::vector<std::uint64_t> at(threads_ + 1);
    for (std::size_t i = 0; i < n;) {
      std::size_t j = i;
      std::uint64_t bytes = 0;
      while (j < n && bytes + recs[j].length + 1 <= w.capacity()) bytes += recs[j++].length + 1;
      if (j == i) {  // a record larger than the buffer
        w.write(chunk.record(recs[i++]));
        continue;
      }
      const unsigned parts = static_cast<unsigned>(std::clamp<std::size_t>((j - i) / 4096, 1, threads_));
      auto first = [&](unsigned p) { return i + (j - i) * p / parts; };
      at[0] = 0;
      for (unsigned p = 0; p < parts; ++p) {
        std::uint64_t b = 0;
        for (std::size_t r = first(p); r < first(p + 1); ++r) b += recs[r].length + 1;
        at[p + 1] = at[p] + b;
      }
      char* dst = w.claim(static_cast<std::size_t>(bytes));
      parallel_for(parts, [&](unsigned p) {
        char* d = dst + at[p];
        for (std::size_t r = first(p); r < first(p + 1); ++r) {
          std::memcpy(d, chunk.data() + recs[r].offset, recs[r].length);
          d += recs[r].length;
          *d++ = terminator;
        }
      });
      w.commit(static_cast<std::size_t>(bytes), j - i);
      i = j;
    }
  }

  // Writes a sorted chunk to a run file; returns its bytes. Gathering the
  // records (a cache miss each) and copying them into the page cache is the
  // bulk of the work, so without -u every thread takes a contiguous share of
  // the records and writes it at its own offset of the file.
  std::uint64_t spill(const Chunk& chunk, int fd) {
    const std::size_t n = chunk.records.size();
    const unsigned parts =
        format_.unique() ? 1u : static_cast<unsigned>(std::clamp<std::size_t>(n / 65536, 1, threads_));
    std::vector<std::size_t> first(parts + 1);
    std::vector<std::uint64_t> offset(parts + 1, 0);
    for (unsigned p = 0; p <= parts; ++p) first[p] = n * p / parts;
    for (unsigned p = 0; p < parts; ++p) {
      offset[p + 1] = offset[p];
      for (std::size_t i = first[p]; i < first[p + 1]; ++i) offset[p + 1] += chunk.records[i].length + 1;
    }
    parallel_for(parts, [&](unsigned p) {
      RunFileSink sink(fd, offset[p]);
      RecordWriter w(sink, format_.terminator(), unique_format());
      for (std::size_t i = first[p]; i < first[p + 1]; ++i) w.write(chunk.record(chunk.records[i]));
      w.finish();
      if (parts == 1) offset[1] = sink.bytes_written();  // -u may have dropped records
    });
    return offset[parts];
  }

  // Merges runs into `out`; groups of fan_in runs are first merged into longer runs
  // while there are more than fan_in of them.
  void merge_runs(std::vector<SpilledRun>& runs, io::TempDirectories& temps, RecordWriter& out) {
    while (runs.size() > fan_in_) {
      std::vector<SpilledRun> next;
      for (std::size_t i = 0; i < runs.size(); i += fan_in_) {
        const std::size_t end = std::min(runs.size(), i + fan_in_);
        if (end - i == 1) {
          next.push_back(std::move(runs[i]));
          continue;
        }
        SpilledRun merged{temps.create_anonymous(), 0};
        RunFileSink sink(merged.fd.get());
        RecordWriter w(sink, format_.terminator(), unique_format());
        std::vector<std::unique_ptr<RecordReader>> readers;
        for (std::size_t j = i; j < end; ++j) readers.push_back(run_reader(runs[j], format_, merge_buffer_));
        merge_streams(readers, format_, w);
        w.finish();
        merged.bytes = sink.bytes_written();
        for (std::size_t j = i; j < end; ++j) runs[j].fd.reset();  // frees the space at once
        next.push_back(std::move(merged));
      }
      runs = std::move(next);
    }
    std::vector<std::unique_ptr<RecordReader>> readers;
    for (const auto& r : runs) readers.push_back(run_reader(r, format_, merge_buffer_));
    merge_streams(readers, format_, out);
  }

  const TextSortOptions& opt_;
  TextFormat& format_;
  SortStats& stats_;
  Progress progress_;
  unsigned threads_ = 1;
  std::uint64_t budget_ = 0;
  std::size_t fan_in_ = 2, merge_buffer_ = 64 << 10;
  HugeVector<RecordEntry> scratch_;
};

}  // namespace

SortStats sort_text(const TextSortOptions& options, TextFormat& format) {
  const auto t0 = Clock::now();
  SortStats stats;
  TextSorter sorter(options, format, stats);
  if (options.merge_only)
    sorter.merge_inputs();
  else
    sorter.sort();
  stats.seconds.total = seconds_since(t0);
  return stats;
}

TextCheckResult check_text(const std::string& path, TextFormat& format, const io::IoOptions& io) {
  auto source = io::open_source(path, io);
  io::ByteSource* src = source.get();
  RecordReader reader([src](char* dst, std::size_t n) { return src->read(dst, n); }, path, format, 1 << 20);
  TextCheckResult result;
  std::string_view rec;
  std::uint64_t number = 0;
  if (format.has_header()) {
    if (!reader.next(rec)) return result;
    format.set_header(rec);
    ++number;
  }
  std::string prev;
  bool have_prev = false;
  // Under -u equal neighbours are disorder too, as in GNU sort -c -u.
  const int limit = format.unique() ? 0 : 1;
  while (reader.next(rec)) {
    ++number;
    if (have_prev && format.compare(prev, rec) >= limit) {
      result.sorted = false;
      result.record_number = number;
      result.record.assign(rec);
      return result;
    }
    prev.assign(rec);
    have_prev = true;
  }
  return result;
}

}  // namespace corank::text
