#include "corank/text/text_sorter.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <future>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <thread>

#include "corank/format.hpp"
#include "corank/gpu_gate.hpp"
#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/output_file.hpp"
#include "corank/io/temp_files.hpp"
#include "corank/io/task_thread.hpp"
#include "corank/parallel.hpp"
#include "corank/planner.hpp"
#include "corank/progress.hpp"
#include "corank/text/chunk_reader.hpp"
#include "corank/text/gpu_record_sort.hpp"
#include "corank/text/record_reader.hpp"
#include "corank/text/record_sort.hpp"
#include "corank/text/record_writer.hpp"
#include "corank/io/positional_file.hpp"
#include "corank/text/run_merge.hpp"
#include "corank/sort_driver.hpp"
#include "corank/stopwatch.hpp"
#include "corank/notes.hpp"

namespace corank::text {

namespace {

// The output writer's buffer where one thread copies records into it (see
// record_writer.hpp); where many gather batches into it at once, the plan's
// gather_buffer.
constexpr std::size_t kCacheBuffer = std::size_t{256} << 10;

class TextSorter {
public:
  TextSorter(const TextSortOptions& options, TextFormat& format, SortStats& stats)
      : opt_(options), plan_(plan(options)), format_(format), stats_(stats), progress_(options.progress) {
    stats_.threads = plan_.threads;
    stats_.memory_budget = plan_.budget;
  }

  void sort() {
    // Chunks are read by one thread for the whole sort, declared before the
    // reader so that it outlives the reader's requests (io/task_thread.hpp).
    io::TaskThread filler;
    ChunkReader reader(opt_.inputs, format_, io_, plan_.threads);
    io::OutputFile output(opt_.output, io_);
    filler_ = &filler;
    reader_ = &reader;
    output_ = &output;
    total_ = reader.total_size();
    if (reader.mapped()) note(opt_.verbose, io_, "input: in memory already, mapped and split where it lies");
    // Two chunks alternate, one being read while the other is sorted; each
    // holds a third of the budget in record bytes and entries, and the sort's
    // scratch takes at most another third. An input that fits one chunk is
    // sorted in memory and written straight out.
    chunk_bytes_ = plan_.chunk_bytes_for(total_);
    stats_.mode = "in-memory";
    progress_.phase("sort", total_.value_or(0));

    const io::TaskThread::Drain fills_done(filler);  // no fill outlives the chunks
    filled_ = filler.run([this] { return reader_->fill(chunks_[0], chunk_bytes_); });
    // The GPU (CUDA context, pinned staging: about half a second) opens while
    // the first chunk is read, on a thread of its own that ends with this
    // scope, having finished the opening.
    io::TaskThread opener;
    gpu_opened_ = opener.run([this] {
      const auto t0 = Clock::now();
      auto gpu = open_gpu_prefix_sort(opt_, total_);
      gpu_setup_seconds_ = seconds_since(t0);
      return gpu;
    });
    drive_sort(*this, stats_);
    chunks_[0] = Chunk();
    chunks_[1] = Chunk();
    stats_.bytes_in = reader.bytes_read();
    note(opt_.verbose, io_,
         io::format_line("input: %.3f s reading, %.3f s splitting into records on all threads; sort %.3f s",
                         reader.read_seconds(), reader.split_seconds(), sort_seconds_));
    if (gpu_sorted_) {
      stats_.backend = "gpu";
      stats_.gpu_seconds = gpu_times_;
      stats_.gpu_seconds.setup = gpu_setup_seconds_;
    }
    if (stats_.spilled_runs)
      note(opt_.verbose, io_,
           io::format_line("merged in %.3f s, %s", stats_.seconds.merge,
                           merged_in_ranges_ ? "in key ranges on all threads" : "by one loser tree"));
    out_->finish();
    progress_.finish();
    stats_.records_out = out_->records() + in_range_.records;
    stats_.bytes_out = out_->bytes() + in_range_.bytes;
    stats_.seconds.write += out_->write_seconds() + in_range_.seconds;
    auto tc = Clock::now();
    output.commit();
    stats_.seconds.write += seconds_since(tc);
  }

  // --- the model of drive_sort (sort_driver.hpp) ---
  using Run = SpilledRun;

  std::optional<bool> next_chunk() {
    const bool got = timed_get(filled_);
    if (!out_) {
      // After the first fill, which has read a header if there is one.
      out_ = std::make_unique<RecordWriter>(output_->sink(), format_.terminator(), unique_format(),
                                            plan_.threads > 2 ? std::max(plan_.gather_buffer, kCacheBuffer) : kCacheBuffer);
      if (opt_.debug) out_->show_debug_view(format_);
      if (format_.has_header() && reader_->saw_header() && opt_.write_header)
        out_->write_raw(reader_->header() + '\n');
    }
    if (gpu_opened_.valid()) gpu_ = gpu_opened_.get();
    if (!got) return std::nullopt;
    const bool last = reader_->done();
    chunk_ = next_;
    next_ ^= 1;
    // The other chunk is written out or spilled by now.
    if (!last) filled_ = filler_->run([this, c = next_] { return reader_->fill(chunks_[c], chunk_bytes_); });
    Chunk& chunk = chunks_[chunk_];
    stats_.records_in += chunk.records.size();
    sort_chunk(chunk);
    progress_.advance(chunk.used);
    return last;
  }

  void write_chunk() { write_sorted(chunks_[chunk_], *out_, *output_); }

  SpilledRun spill_chunk() {
    const Chunk& chunk = chunks_[chunk_];
    SpilledRun run{temps_.create_anonymous(), 0, {}};
    if (compressed_runs()) {
      run.bytes = write_compressed(chunk, run.fd.get(), run.content);
    } else {
      run.bytes = write_at(chunk, io::FileRange(run.fd.get(), 0, "temporary file"), &run.samples, &run.content.records);
      run.content.bytes = run.bytes;
    }
    stats_.spill_bytes += run.bytes;
    return run;
  }

  void formed(std::span<const SpilledRun> runs) {
    chunks_[0] = Chunk();
    chunks_[1] = Chunk();
    stats_.mode = "external";
    stats_.spilled_runs = runs.size();
    note(opt_.verbose, io_,
         io::format_line("spilled %zu runs (%llu bytes), merge fan-in %zu", runs.size(),
                         static_cast<unsigned long long>(stats_.spill_bytes), plan_.fan_in));
    progress_.phase("merge", reader_->bytes_read());
  }

  std::size_t fan_in() const { return plan_.fan_in; }
  std::size_t max_runs() const { return static_cast<std::size_t>(std::min<std::uint64_t>(plan_.max_runs, SIZE_MAX)); }
  std::uint64_t bytes(const SpilledRun& r) const { return r.bytes; }

  // Merges `group` (consecutive runs) into one longer run, in key ranges by
  // all threads where merge_in_ranges_ok.
  SpilledRun merge(std::span<SpilledRun> group) {
    SpilledRun merged{temps_.create_anonymous(), 0, {}};
    if (merge_in_ranges_ok(group)) {
      const io::FileRange range(merged.fd.get(), 0, "temporary file");
      const MergedBytes m = merge_in_ranges(group, format_, range, parallel_merge(&merged.samples));
      merged.bytes = m.bytes;
      merged.content = {m.records, m.bytes};
    } else {
      auto sink = io::page_cache_run_sink(merged.fd.get(), io_, plan_.threads, plan_.piece_bytes);
      RecordWriter w(*sink, format_.terminator(), unique_format());
      std::vector<std::unique_ptr<RecordReader>> readers;
      for (const SpilledRun& r : group) readers.push_back(run_reader(r, format_, plan_.merge_buffer, io_));
      merge_streams(readers, format_, w);
      w.finish();
      sink->finish();
      merged.bytes = sink->stored_bytes();
      merged.content = {w.records(), w.bytes()};
    }
    for (auto& r : group) r.fd.reset();  // frees the space at once
    return merged;
  }

  // The last merge. Where the output is a file written in place (not under
  // --debug), in key ranges by all threads where merge_in_ranges_ok.
  void merge_into_output(std::span<SpilledRun> runs) {
    RecordWriter& out = *out_;
    io::OutputFile& output = *output_;
    if (merge_in_ranges_ok(runs) && !opt_.debug && output.can_reserve_range()) {
      out.finish();  // the header, if any, goes first
      const MergedBytes m = merge_in_ranges(runs, format_, *output.reserve_range(), parallel_merge(nullptr));
      in_range_.records += m.records;
      in_range_.bytes += m.bytes;
      merged_in_ranges_ = true;
      return;
    }
    std::vector<std::unique_ptr<RecordReader>> readers;
    for (const auto& r : runs) readers.push_back(run_reader(r, format_, plan_.merge_buffer, io_));
    merge_streams(readers, format_, out, &progress_);
  }

  void merge_inputs() {
    std::vector<std::unique_ptr<io::ByteSource>> sources;
    std::vector<std::string> names = opt_.inputs.empty() ? std::vector<std::string>{"-"} : opt_.inputs;
    for (const auto& n : names) sources.push_back(io::open_source(n, io_));
    io::OutputFile output(opt_.output, io_);
    stats_.mode = "merge";
    std::vector<std::unique_ptr<RecordReader>> readers;
    for (auto& s : sources) {
      io::ByteSource* src = s.get();
      readers.push_back(std::make_unique<RecordReader>(
          [src](char* dst, std::size_t n) { return src->read(dst, n); }, src->name(), format_, plan_.merge_buffer));
    }
    std::string header;
    bool have_header = false;
    if (format_.has_header()) {
      std::string from;
      for (std::size_t i = 0; i < readers.size(); ++i) {
        std::string_view h;
        if (readers[i]->next(h) && !have_header) header.assign(h), have_header = true, from = sources[i]->name();
      }
      if (have_header) format_.set_header(header, from);
    }
    RecordWriter out(output.sink(), format_.terminator(), unique_format());
    if (opt_.debug) out.show_debug_view(format_);
    if (have_header && opt_.write_header) out.write_raw(header + '\n');
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
  bool compressed_runs() const { return io_.compressed_runs(); }

  bool timed_get(std::future<bool>& f) {
    auto t0 = Clock::now();
    const bool r = f.get();
    stats_.seconds.read += seconds_since(t0);  // time the sort waited for input
    return r;
  }

  // On the GPU when it opened; a GPU failure leaves the records untouched and,
  // under --gpu=auto, this chunk and the rest are sorted on the CPU.
  void sort_chunk(Chunk& chunk) {
    const auto t0 = Clock::now();
    sort_chunk_on(chunk);
    sort_seconds_ += seconds_since(t0);
  }

  void sort_chunk_on(Chunk& chunk) {
    const EntryLess less{&format_, chunk.data()};
    if (gpu_) {
      try {
        gpu_sort_records(*gpu_, chunk.records, scratch_, less, plan_.threads);
        gpu_sorted_ = true;
        gpu_times_ = gpu_->times();
        return;
      } catch (const GpuError& e) {
        gpu_fail_over(opt_, "sort", e);
        gpu_.reset();
      }
    }
    parallel_sort(chunk.records, scratch_, less, plan_.threads);
  }

  // Writes the chunk's records in sorted order. Each record is a cache miss.
  // With more than two threads, and without -u and --debug, all threads gather
  // records: into their own byte ranges of an uncompressed output file, written
  // at once (copying into the page cache is then no longer one thread's work),
  // or else into their own parts of batches that fill the writer's buffer.
  // Under -u each record is compared with the last one written, under --debug
  // each is shown with its keys marked, one after the other.
  void write_sorted(const Chunk& chunk, RecordWriter& w, io::OutputFile& output) {
    const auto& recs = chunk.records;
    const std::size_t n = recs.size();
    if (format_.unique() || opt_.debug || plan_.threads <= 2) {
      for (const auto& e : recs) w.write(chunk.record(e));
      return;
    }
    if (output.can_reserve_range()) {
      const auto t0 = Clock::now();
      w.finish();  // the header, if any, goes first
      const io::FileRange range = *output.reserve_range();
      std::optional<std::uint64_t> bytes = write_mapped(chunk, range);
      if (!bytes) bytes = write_at(chunk, range);
      in_range_.records += n;
      in_range_.bytes += *bytes;
      in_range_.seconds += seconds_since(t0);
      return;
    }
    const char terminator = format_.terminator();
    std::vector<std::uint64_t> at(plan_.threads + 1);
    for (std::size_t i = 0; i < n;) {
      std::size_t j = i;
      std::uint64_t bytes = 0;
      while (j < n && bytes + recs[j].length + 1 <= w.capacity()) bytes += recs[j++].length + 1;
      if (j == i) {  // a record larger than the buffer
        w.write(chunk.record(recs[i++]));
        continue;
      }
      const unsigned parts = static_cast<unsigned>(std::clamp<std::size_t>((j - i) / 4096, 1, plan_.threads));
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

  // Writes a sorted chunk to `range` from its start on through a shared
  // mapping of the file, each thread copying a contiguous share of the
  // records: the kernel serializes buffered writes to one file (its inode
  // lock), while page faults on a mapping proceed in parallel. The range is allocated first, so
  // that a full disk is an error here rather than a SIGBUS in the copy. Returns
  // the bytes written, or nullopt, having written nothing, where the file
  // system cannot allocate ahead or map the file. Not for -u.
  std::optional<std::uint64_t> write_mapped(const Chunk& chunk, const io::FileRange& range) {
    const RecordEntry* r = chunk.records.data();
    const std::size_t n = chunk.records.size();
    const unsigned parts = static_cast<unsigned>(std::clamp<std::size_t>(n / 65536, 1, plan_.threads));
    std::vector<std::uint64_t> offset(parts + 1, 0);
    parallel_for(parts, [&](unsigned p) {
      std::uint64_t b = 0;
      for (std::size_t i = n * p / parts, end = n * (p + 1) / parts; i < end; ++i) b += r[i].length + 1;
      offset[p + 1] = b;
    });
    for (unsigned p = 0; p < parts; ++p) offset[p + 1] += offset[p];
    const std::uint64_t total = offset[parts];
    if (total == 0) return 0;
    if (!range.allocate(0, total)) return std::nullopt;
    const io::FileRange::Mapping map = range.map(0, total);
    if (!map) return std::nullopt;
    char* base = map.data();
    const char terminator = format_.terminator();
    const char* bytes = chunk.data();
    parallel_for(parts, [&](unsigned p) {
      char* d = base + offset[p];
      for (std::size_t i = n * p / parts, end = n * (p + 1) / parts; i < end; ++i) {
        std::memcpy(d, bytes + r[i].offset, r[i].length);
        d += r[i].length;
        *d++ = terminator;
      }
    });
    return total;
  }

  // Writes a sorted chunk to `range` from its start on; returns its bytes, and
  // keeps samples of a spilled run in `samples` (see run_merge.hpp) and the
  // records written (fewer under -u) in `records`.
  // Gathering the records (a cache miss each) and copying them into the page
  // cache is the bulk of the work, so without -u every thread takes a
  // contiguous share of the records and writes it at its own offset of the file.
  std::uint64_t write_at(const Chunk& chunk, const io::FileRange& range, std::vector<RunSample>* samples = nullptr,
                         std::uint64_t* records = nullptr) {
    const std::size_t n = chunk.records.size();
    const unsigned parts =
        format_.unique() ? 1u : static_cast<unsigned>(std::clamp<std::size_t>(n / 65536, 1, plan_.threads));
    std::vector<std::size_t> first(parts + 1);
    std::vector<std::uint64_t> offset(parts + 1, 0);
    for (unsigned p = 0; p <= parts; ++p) first[p] = n * p / parts;
    for (unsigned p = 0; p < parts; ++p) {
      offset[p + 1] = offset[p];
      for (std::size_t i = first[p]; i < first[p + 1]; ++i) offset[p + 1] += chunk.records[i].length + 1;
    }
    std::vector<std::vector<RunSample>> part_samples(samples ? parts : 0);
    std::vector<std::uint64_t> part_records(parts);
    parallel_for(parts, [&](unsigned p) {
      const std::unique_ptr<io::ByteSink> sink = range.sink_at(offset[p]);
      RecordWriter w(*sink, format_.terminator(), unique_format());
      if (samples) w.keep_samples(plan_.sample_stride, offset[p], part_samples[p]);
      for (std::size_t i = first[p]; i < first[p + 1]; ++i) w.write(chunk.record(chunk.records[i]));
      w.finish();
      part_records[p] = w.records();
      if (parts == 1) offset[1] = sink->bytes_written();  // -u may have dropped records
    });
    for (auto& part : part_samples) std::move(part.begin(), part.end(), std::back_inserter(*samples));
    if (records) *records = std::accumulate(part_records.begin(), part_records.end(), std::uint64_t{0});
    return offset[parts];
  }

  // Writes a sorted chunk to fd compressed (--compress-temp); returns the bytes
  // stored, and what they hold in `content`. The records are cut into pieces, each compressed into memory on
  // its own thread, plan_.threads pieces at a time, and the pieces are appended to
  // the file in order: compressed streams one after another decompress as one.
  // Under -u a single piece, so that its writer drops every repeated record.
  // Under --compress-program one stream, through PROG: another PROG's
  // streams need not concatenate.
  std::uint64_t write_compressed(const Chunk& chunk, int fd, RunContent& content) {
    const auto& recs = chunk.records;
    if (!io_.temp_program.empty()) {
      auto sink = io::page_cache_run_sink(fd, io_);
      RecordWriter w(*sink, format_.terminator(), unique_format());
      for (const auto& rec : recs) w.write(chunk.record(rec));
      w.finish();
      sink->finish();
      content = {w.records(), w.bytes()};
      return sink->stored_bytes();
    }
    const std::uint64_t piece_bytes = plan_.piece_bytes;
    std::vector<std::size_t> cut{0};
    std::uint64_t bytes = 0;
    for (std::size_t i = 0; i < recs.size(); ++i) {
      bytes += recs[i].length + 1;
      if (bytes >= piece_bytes && !format_.unique()) {
        cut.push_back(i + 1);
        bytes = 0;
      }
    }
    if (cut.back() != recs.size()) cut.push_back(recs.size());
    const std::size_t pieces = cut.size() - 1;
    std::vector<std::string> packed(std::min<std::size_t>(plan_.threads, pieces));
    std::vector<RunContent> counted(packed.size());
    std::uint64_t stored = 0;
    content = {};
    for (std::size_t first = 0; first < pieces; first += packed.size()) {
      const auto batch = static_cast<unsigned>(std::min(packed.size(), pieces - first));
      io::compress_pieces(batch, io_.temp_codec, io::CompressionLevel::fast, "temporary file", packed,
                          [&](unsigned t, io::ByteSink& sink) {
                            RecordWriter w(sink, format_.terminator(), unique_format());
                            for (std::size_t i = cut[first + t]; i < cut[first + t + 1]; ++i)
                              w.write(chunk.record(recs[i]));
                            w.finish();
                            counted[t] = {w.records(), w.bytes()};
                          });
      for (unsigned t = 0; t < batch; ++t) {
        io::pwrite_full(fd, packed[t].data(), packed[t].size(), stored, "temporary file");
        stored += packed[t].size();
        content.records += counted[t].records;
        content.bytes += counted[t].bytes;
      }
    }
    return stored;
  }

  // Whether runs are merged in key ranges by all threads (run_merge.hpp)
  // rather than by one loser tree: plain runs, without -u.
  bool merge_in_ranges_ok(std::span<const SpilledRun> runs) const {
    return plan_.threads > 1 && !format_.unique() && !compressed_runs() && can_merge_in_ranges(runs);
  }
  // For a merged run (samples kept, written through the page cache like every
  // run), or for the output (written direct).
  ParallelMerge parallel_merge(std::vector<RunSample>* samples) {
    const bool output = samples == nullptr;
    return ParallelMerge{.io = io_,
                         .direct = output,
                         .threads = plan_.threads,
                         .memory = plan_.arrays / 2,
                         .samples = samples,
                         .stride = plan_.sample_stride,
                         .progress = output ? &progress_ : nullptr};
  }

  static TextSortPlan plan(const TextSortOptions& o) {
    const std::uint64_t budget = o.memory_budget ? o.memory_budget : default_memory_budget();
    const unsigned threads = o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
    // The read-ahead, the output's or a run's write-behind and a merge's
    // output hold engine buffers besides the chunks.
    return plan_text_sort(budget, threads, plan_memory(o.io, budget, 3), o.batch_size, o.io.compressed_runs(),
                          max_open_runs());
  }

  const TextSortOptions& opt_;
  const TextSortPlan plan_;
  const io::IoOptions& io_ = plan_.io;  // opt_.io with blocks fitted to the budget
  TextFormat& format_;
  SortStats& stats_;
  Progress progress_;
  bool merged_in_ranges_ = false;  // the last merge ran on all threads
  // What went to the output through a range (OutputFile::reserve_range) past
  // out_, which counts the rest.
  struct {
    std::uint64_t records = 0, bytes = 0;
    double seconds = 0;
  } in_range_;
  // The sort's input and output, set for the length of sort().
  io::TaskThread* filler_ = nullptr;
  ChunkReader* reader_ = nullptr;
  io::OutputFile* output_ = nullptr;
  std::optional<std::uint64_t> total_;
  std::uint64_t chunk_bytes_ = 0;
  io::TempDirectories temps_{opt_.temp_dirs};
  Chunk chunks_[2];
  int chunk_ = 0, next_ = 0;  // the chunk sorted, and the one read next
  std::future<bool> filled_;  // the next chunk's fill
  std::future<std::unique_ptr<GpuPrefixSort>> gpu_opened_;
  std::unique_ptr<RecordWriter> out_;
  io::HugeVector<RecordEntry> scratch_;
  std::unique_ptr<GpuPrefixSort> gpu_;
  bool gpu_sorted_ = false;  // some chunk was sorted on the GPU
  double gpu_setup_seconds_ = 0;
  double sort_seconds_ = 0;
  GpuTimes gpu_times_;
};

}  // namespace

SortStats sort_text(const TextSortOptions& options, TextFormat& format) {
  if (options.debug && !format.can_debug()) throw UsageError("--debug applies to --format lines");
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
    format.set_header(rec, path);
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
