#pragma once
// Buffered record output: records and their terminators are packed into a
// buffer small enough to stay in the CPU cache, and written as soon as it is
// full, by the same thread. On the 2-core VM this beat writing 4 MiB buffers
// behind on another thread by 2-4x in system time: the kernel's copy into the
// page cache then reads from cache instead of memory.
// Under -u a record equal to the last one written is dropped, so the first of
// each run of equal records survives.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "corank/io/source.hpp"
#include "corank/text/text_format.hpp"

namespace corank::text {

// A record of a spilled run and its byte offset in the run.
struct RunSample {
  std::uint64_t offset;
  std::string record;
};

class RecordWriter {
public:
  // `unique_format`: compare records with it and drop equal neighbours; null keeps all.
  RecordWriter(io::ByteSink& sink, char terminator, const TextFormat* unique_format,
               std::size_t buffer_bytes = std::size_t{256} << 10);
  ~RecordWriter() = default;
  RecordWriter(const RecordWriter&) = delete;
  RecordWriter& operator=(const RecordWriter&) = delete;

  void write(std::string_view record);
  // --debug: from now on write() shows each record as `format` shows it under
  // --debug (the record, then the marks of its keys). claim() bypasses it.
  void show_debug_view(const TextFormat& format) { debug_ = &format; }
  // Spilled runs: from now on keeps a copy of the first record of at most
  // kMaxSampleBytes written at or past every `stride` bytes of this writer's
  // output, with its offset plus `base` (where this output starts in the run).
  static constexpr std::size_t kMaxSampleBytes = 4096;
  void keep_samples(std::uint64_t stride, std::uint64_t base, std::vector<RunSample>& samples) {
    sample_stride_ = stride;
    sample_base_ = base;
    next_sample_ = bytes_;
    samples_ = &samples;
  }
  // Writes bytes as they are (a header line, say), without the -u filter.
  void write_raw(std::string_view bytes);
  // Room for n <= capacity() bytes that the caller fills and then commits:
  // for gathering many records at once, on several threads. Bypasses -u.
  char* claim(std::size_t n);
  void commit(std::size_t n, std::uint64_t records);
  std::size_t capacity() const noexcept { return capacity_; }
  // Writes what is buffered and waits for it; rethrows a write error.
  void finish();
  std::uint64_t records() const noexcept { return records_; }
  std::uint64_t bytes() const noexcept { return bytes_; }
  double write_seconds() const noexcept { return seconds_; }

private:
  void flush();

  io::ByteSink& sink_;
  char terminator_;
  const TextFormat* unique_;
  const TextFormat* debug_ = nullptr;
  std::string debug_view_;
  std::size_t capacity_;
  std::unique_ptr<char[]> buf_;
  std::size_t used_ = 0;
  double seconds_ = 0;
  std::string last_;
  bool have_last_ = false;
  std::vector<RunSample>* samples_ = nullptr;
  std::uint64_t sample_stride_ = 0, sample_base_ = 0, next_sample_ = 0;
  std::uint64_t records_ = 0, bytes_ = 0;
};

}  // namespace corank::text
