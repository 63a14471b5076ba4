#include "corank/words_sort.hpp"

#include <chrono>

#include "corank/io/huge_vector.hpp"
#include "corank/errors.hpp"
#include "corank/key_words_only.hpp"
#include "corank/notes.hpp"
#include "corank/stopwatch.hpp"

namespace corank {

namespace {
// Reads and writes go in pieces of this many bytes, so progress moves.
constexpr std::uint64_t kPiece = std::uint64_t{256} << 20;
}  // namespace

std::uint64_t words_sort_bytes(const RecordFormat& format, std::uint64_t n) noexcept {
  // words + scratch, and the records apart from the words when they are narrower.
  return n * (16 + (format.record_size == 8 ? 0 : format.record_size));
}

bool words_sort_applies(const RecordFormat& format, std::optional<std::uint64_t> records, std::uint64_t budget) noexcept {
  return sorts_as_key_words(format) && records && words_sort_bytes(format, *records) <= budget;
}

void sort_words_on_cpu(const WordsSortJob& job) {
  const std::uint32_t R = job.format.record_size;
  const std::uint64_t n = *job.source.total_records();
  const unsigned threads = job.pool.size();
  SortStats& stats = job.stats;
  stats.mode = "in-memory";
  stats.runs = 1;

  io::HugeVector<std::uint64_t> words(n), scratch(n);
  io::HugeVector<std::byte> narrow(R == 8 ? 0 : n * R);
  std::byte* records = R == 8 ? reinterpret_cast<std::byte*>(words.data()) : narrow.data();

  job.progress.phase("read", n * R);
  auto t = Clock::now();
  // A file already in memory is turned into words where it lies; anything
  // else is read into `records` first.
  const std::byte* input = job.source.map_whole();
  if (input) {
    note(job.options.verbose, job.options.io, "input: in memory already, mapped and sorted where it lies");
    if (job.input_checksum) *job.input_checksum += checksum_records(input, n, R, threads);
    job.progress.advance(n * R);
  } else {
    for (std::uint64_t at = 0; at < n;) {
      const std::uint64_t got = job.source.read(records + at * R, std::min(n - at, kPiece / R), job.pool);
      if (got == 0) throw InputError("an input file shrank while it was being read");
      if (job.input_checksum) *job.input_checksum += checksum_records(records + at * R, got, R, threads);
      at += got;
      job.progress.advance(got * R);
    }
    input = records;
  }
  stats.records_in = n;
  stats.seconds.read = seconds_since(t);

  t = Clock::now();
  records_to_words(input, n, job.format, words.data(), threads);
  job.source.unmap();  // the words hold everything now
  sort_words(words.data(), scratch.data(), n, threads);
  scratch.reset();
  const std::uint64_t out = job.options.unique ? unique_words(words.data(), n) : n;
  if (job.output.mapped()) {
    // Straight into the output's mapping (tmpfs), every thread its range.
    note(job.options.verbose, job.options.io, "output: records made in a shared mapping of it");
    stats.seconds.run_formation = seconds_since(t);
    job.progress.phase("write", out * R);
    t = Clock::now();
    job.output.fill(out * R, R, [&](std::byte* dst, std::uint64_t b, std::uint64_t e) {
      words_to_records(words.data() + b / R, (e - b) / R, job.format, dst, 1);
    });
    job.progress.advance(out * R);
    job.output.finish();
    stats.records_out = out;
    stats.seconds.write = seconds_since(t);
    return;
  }
  words_to_records(words.data(), out, job.format, records, threads);
  stats.seconds.run_formation = seconds_since(t);

  job.progress.phase("write", out * R);
  t = Clock::now();
  for (std::uint64_t at = 0; at < out;) {
    const std::uint64_t k = std::min(out - at, kPiece / R);
    job.output.write(records + at * R, k * R);
    at += k;
    job.progress.advance(k * R);
  }
  job.output.finish();
  stats.records_out = out;
  stats.seconds.write = seconds_since(t);
}

}  // namespace corank
