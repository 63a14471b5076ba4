#include "corank/text/sorted_chunk_writer.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <memory>
#include <numeric>
#include <string>

#include "corank/io/compressed_stream.hpp"
#include "corank/parallel.hpp"
#include "corank/stopwatch.hpp"

namespace corank::text {

void write_sorted(const ChunkWriting& how, const Chunk& chunk, RecordWriter& w, io::OutputFile& output,
                  bool one_by_one, RangeWrites& in_range) {
  const auto& recs = chunk.records;
  const std::size_t n = recs.size();
  if (how.format.unique() || one_by_one || how.threads <= 2) {
    for (const auto& e : recs) w.write(chunk.record(e));
    return;
  }
  if (output.can_reserve_range()) {
    const auto t0 = Clock::now();
    w.finish();  // the header, if any, goes first
    const io::FileRange range = *output.reserve_range();
    std::optional<std::uint64_t> bytes = write_mapped(how, chunk, range);
    if (!bytes) bytes = write_at(how, chunk, range);
    in_range.records += n;
    in_range.bytes += *bytes;
    in_range.seconds += seconds_since(t0);
    return;
  }
  const char terminator = how.format.terminator();
  std::vector<std::uint64_t> at(how.threads + 1);
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    std::uint64_t bytes = 0;
    while (j < n && bytes + chunk.length(recs[j]) + 1 <= w.capacity()) bytes += chunk.length(recs[j++]) + 1;
    if (j == i) {  // a record larger than the buffer
      w.write(chunk.record(recs[i++]));
      continue;
    }
    const unsigned parts = static_cast<unsigned>(std::clamp<std::size_t>((j - i) / 4096, 1, how.threads));
    auto first = [&](unsigned p) { return i + (j - i) * p / parts; };
    at[0] = 0;
    for (unsigned p = 0; p < parts; ++p) {
      std::uint64_t b = 0;
      for (std::size_t r = first(p); r < first(p + 1); ++r) b += chunk.length(recs[r]) + 1;
      at[p + 1] = at[p] + b;
    }
    char* dst = w.claim(static_cast<std::size_t>(bytes));
    parallel_for(parts, [&](unsigned p) {
      char* d = dst + at[p];
      for (std::size_t r = first(p); r < first(p + 1); ++r) {
        const std::string_view record = chunk.record(recs[r]);
        std::memcpy(d, record.data(), record.size());
        d += record.size();
        *d++ = terminator;
      }
    });
    w.commit(static_cast<std::size_t>(bytes), j - i);
    i = j;
  }
}

// Through a mapping: the kernel serializes buffered writes to one file (its
// inode lock), while page faults on a mapping proceed in parallel. The range
// is allocated first, so that a full disk is an error here rather than a
// SIGBUS in the copy.
std::optional<std::uint64_t> write_mapped(const ChunkWriting& how, const Chunk& chunk, const io::FileRange& range) {
  const RecordEntry* r = chunk.records.data();
  const std::size_t n = chunk.records.size();
  const unsigned parts = static_cast<unsigned>(std::clamp<std::size_t>(n / 65536, 1, how.threads));
  std::vector<std::uint64_t> offset(parts + 1, 0);
  parallel_for(parts, [&](unsigned p) {
    std::uint64_t b = 0;
    for (std::size_t i = n * p / parts, end = n * (p + 1) / parts; i < end; ++i) b += chunk.length(r[i]) + 1;
    offset[p + 1] = b;
  });
  for (unsigned p = 0; p < parts; ++p) offset[p + 1] += offset[p];
  const std::uint64_t total = offset[parts];
  if (total == 0) return 0;
  if (!range.allocate(0, total)) return std::nullopt;
  const io::FileRange::Mapping map = range.map(0, total);
  if (!map) return std::nullopt;
  char* base = map.data();
  const char terminator = how.format.terminator();
  parallel_for(parts, [&](unsigned p) {
    char* d = base + offset[p];
    for (std::size_t i = n * p / parts, end = n * (p + 1) / parts; i < end; ++i) {
      const std::string_view record = chunk.record(r[i]);
      std::memcpy(d, record.data(), record.size());
      d += record.size();
      *d++ = terminator;
    }
  });
  return total;
}

// Gathering the records (a cache miss each) and copying them into the page
// cache is the bulk of the work, hence a share for every thread.
std::uint64_t write_at(const ChunkWriting& how, const Chunk& chunk, const io::FileRange& range,
                       std::vector<RunSample>* samples, std::uint64_t stride, std::uint64_t* records) {
  const std::size_t n = chunk.records.size();
  const unsigned parts =
      how.format.unique() ? 1u : static_cast<unsigned>(std::clamp<std::size_t>(n / 65536, 1, how.threads));
  std::vector<std::size_t> first(parts + 1);
  std::vector<std::uint64_t> offset(parts + 1, 0);
  for (unsigned p = 0; p <= parts; ++p) first[p] = n * p / parts;
  for (unsigned p = 0; p < parts; ++p) {
    offset[p + 1] = offset[p];
    for (std::size_t i = first[p]; i < first[p + 1]; ++i) offset[p + 1] += chunk.length(chunk.records[i]) + 1;
  }
  std::vector<std::vector<RunSample>> part_samples(samples ? parts : 0);
  std::vector<std::uint64_t> part_records(parts);
  parallel_for(parts, [&](unsigned p) {
    const std::unique_ptr<io::ByteSink> sink = range.sink_at(offset[p]);
    RecordWriter w(*sink, how.format.terminator(), how.unique_format());
    if (samples) w.keep_samples(stride, offset[p], part_samples[p]);
    for (std::size_t i = first[p]; i < first[p + 1]; ++i) w.write(chunk.record(chunk.records[i]));
    w.finish();
    part_records[p] = w.records();
    if (parts == 1) offset[1] = sink->bytes_written();  // -u may have dropped records
  });
  for (auto& part : part_samples) std::move(part.begin(), part.end(), std::back_inserter(*samples));
  if (records) *records = std::accumulate(part_records.begin(), part_records.end(), std::uint64_t{0});
  return offset[parts];
}

// Each piece is compressed into memory on its own thread, `threads` pieces at
// a time, and the pieces are appended to the file in order: compressed
// streams one after another decompress as one. Under -u a single piece, so
// that its writer drops every repeated record. Under --compress-program one
// stream, through PROG: another PROG's streams need not concatenate.
std::uint64_t write_compressed(const ChunkWriting& how, const Chunk& chunk, int fd, const io::IoOptions& io,
                               std::uint64_t piece_bytes, RunContent& content) {
  const auto& recs = chunk.records;
  const TextFormat& format = how.format;
  if (!io.temp_program.empty()) {
    auto sink = io::page_cache_run_sink(fd, io);
    RecordWriter w(*sink, format.terminator(), how.unique_format());
    for (const auto& rec : recs) w.write(chunk.record(rec));
    w.finish();
    sink->finish();
    content = {w.records(), w.bytes()};
    return sink->stored_bytes();
  }
  std::vector<std::size_t> cut{0};
  std::uint64_t bytes = 0;
  for (std::size_t i = 0; i < recs.size(); ++i) {
    bytes += chunk.length(recs[i]) + 1;
    if (bytes >= piece_bytes && !format.unique()) {
      cut.push_back(i + 1);
      bytes = 0;
    }
  }
  if (cut.back() != recs.size()) cut.push_back(recs.size());
  const std::size_t pieces = cut.size() - 1;
  std::vector<std::string> packed(std::min<std::size_t>(how.threads, pieces));
  std::vector<RunContent> counted(packed.size());
  std::uint64_t stored = 0;
  content = {};
  for (std::size_t first = 0; first < pieces; first += packed.size()) {
    const auto batch = static_cast<unsigned>(std::min(packed.size(), pieces - first));
    io::compress_pieces(batch, io.temp_codec, io::CompressionLevel::fast, "temporary file", packed,
                        [&](unsigned t, io::ByteSink& sink) {
                          RecordWriter w(sink, format.terminator(), how.unique_format());
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

}  // namespace corank::text
