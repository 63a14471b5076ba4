#pragma once
// Reads the inputs, one after another, into chunks of whole records: a record
// never spans two chunks or two files, a file's last record gets the
// terminator it lacked (CR LF where the file's first record ends in CR LF, so
// that a CRLF export keeps one line ending: line_endings.hpp), and a record
// longer than the chunk grows the chunk.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "corank/io/mapped_inputs.hpp"
#include "corank/io/options.hpp"
#include "corank/io/source.hpp"
#include "corank/io/huge_vector.hpp"
#include "corank/text/chunk.hpp"
#include "corank/text/line_endings.hpp"
#include "corank/text/row_check.hpp"
#include "corank/text/text_format.hpp"

namespace corank::text {

class ChunkReader {
public:
  // Records get their prefixes as they are split off, while in cache, or
  // once a chunk is full, by all threads (with `threads` > 2, or 2 where the
  // format's prefixes are costly: TextFormat::costly_prefix); a header goes to
  // format.set_header first. Inputs already in memory, each ending with a
  // terminator, are mapped where they lie where together they take at most
  // `map_at_most` bytes (a sort's budget: a larger mapping would take address
  // space that ulimit -v counts), else read.
  // Records pass `rows` (row_check.hpp) where given and active, else the
  // format's check_record; every later input's header must be the first's
  // (TextFormat::check_header).
  ChunkReader(std::vector<std::string> inputs, TextFormat& format, const io::IoOptions& io, unsigned threads = 1,
              std::uint64_t map_at_most = UINT64_MAX, RowCheck* rows = nullptr);

  // Memory a record costs besides its bytes: its entry, and its share of the
  // merge scratch the sort needs (RecordEntry-sized, for half the records at most).
  static constexpr std::uint64_t kRecordOverhead = sizeof(RecordEntry) * 3 / 2;
  // Split by several threads: pieces read at once (at most an eighth of the
  // chunk's budget: the threads' lists of a piece's records, merged into the
  // chunk's afterwards, take up to 3/4 of its bytes besides), and the least
  // worth splitting so.
  static constexpr std::size_t kParallelPieceBytes = std::size_t{256} << 20;
  static constexpr std::uint64_t kParallelPieceShare = 8;
  static constexpr std::uint64_t kParallelSplitBytes = std::uint64_t{1} << 20;
  // Two threads split mapped inputs (nothing to read meanwhile) under a
  // budget of at least this: under less, the threads' lists of a piece's
  // records (about 1.4 MiB for a piece of short lines) would take a share of
  // it that the budget has no room for.
  static constexpr std::uint64_t kTwoThreadSplitBudget = std::uint64_t{64} << 20;

  // Input i's records are split off (record_length: a multi-line record
  // ends where a line with a time begins) and get their prefixes by
  // formats[i], its own time rules (time_inputs.hpp), not by the format.
  // Before the first fill.
  void set_input_formats(std::vector<const TextFormat*> formats);

  // Fills `chunk` with the next records while their bytes plus kRecordOverhead
  // each stay within `budget` (one record always fits: a chunk grows for it).
  // Returns false, with the chunk empty, when every input is exhausted.
  bool fill(Chunk& chunk, std::uint64_t budget);
  bool done() const noexcept { return done_; }
  // Whether the inputs are mapped and split where they lie, not read.
  bool mapped() const noexcept { return mapped_ != nullptr; }
  // The first input's header, when the format has headers (read with the first chunk).
  const std::string& header() const noexcept { return header_; }
  bool saw_header() const noexcept { return saw_header_; }
  std::uint64_t bytes_read() const noexcept { return bytes_read_; }
  // Seconds spent reading input, and splitting it on all threads (with prefixes).
  double read_seconds() const noexcept { return read_seconds_; }
  double split_seconds() const noexcept { return split_seconds_; }
  // The total input size when every input is a regular file.
  std::optional<std::uint64_t> total_size() const noexcept { return total_size_; }
  // Records that are runs of lines (--multiline): each file's text before its
  // first timestamp, terminators included, in input order, and how many
  // files had any. They are no chunk's records: the output begins with them
  // (multiline_format.hpp), so that no sorted run holds a record that read
  // back would join the one before it.
  const std::string& heads() const noexcept { return heads_; }
  std::uint64_t head_records() const noexcept { return head_records_; }

private:
  bool fill_records(Chunk& chunk, std::uint64_t budget);
  // Splits the whole records in [scan, chunk.used) off into chunk.records;
  // false when the budget is spent first.
  bool split(Chunk& chunk, std::uint64_t& scan, std::uint64_t budget);
  // Takes the n bytes at `scan` (terminator included) as the chunk's next
  // record; `line` is where it starts, 0 when its lines are not counted yet.
  void take_record(Chunk& chunk, std::uint64_t& scan, std::uint64_t n, std::uint64_t line = 0);
  // Whether plain lines are split by several threads, and the bytes a chunk
  // is filled with at a time before they are split.
  bool splits_in_parallel() const noexcept;
  std::uint64_t piece_bytes(std::uint64_t budget) const noexcept;
  // fill_records for mapped inputs: the chunk is the next window of the
  // mapping, across as many files as fit it.
  bool fill_from_mapping(Chunk& chunk, std::uint64_t budget);
  // The current mapped file's tail, once split up to its end: a last record
  // without a terminator (formats whose last record runs to the end), or an error.
  void finish_mapped_file(Chunk& chunk, std::uint64_t& scan, std::uint64_t file_end);
  // Starts the per-file state (name, line count, line ending, format) of input i.
  void start_file(std::size_t i);
  bool split_in_parallel(Chunk& chunk, std::uint64_t& scan, std::uint64_t budget);
  // Maps the inputs where every one is a regular file in memory (see the constructor).
  void map_inputs(std::uint64_t at_most);
  bool open_next();
  bool open_next_or_finish();
  void defer_prefix(std::size_t index);

  std::vector<std::string> inputs_;
  TextFormat& format_;
  const TextFormat* input_format_;  // splits the current input and gives prefixes: format_ or its input_formats_
  std::vector<const TextFormat*> input_formats_;
  RowCheck* rows_;  // null: check_record
  io::IoOptions io_;
  unsigned threads_;
  bool defer_prefixes_;  // records split off one at a time get their prefixes in fill()
  bool split_on_two_ = false;  // two threads split mapped inputs (kTwoThreadSplitBudget)
  std::size_t next_input_ = 0;
  std::vector<std::unique_ptr<io::ByteSource>> sources_;  // all opened up front
  std::vector<std::optional<std::uint64_t>> snapshots_;   // their file_size() then
  // Inputs already in memory (mapped_inputs.hpp), each ending with a
  // terminator, without headers: chunks are windows of them, nothing is copied.
  std::unique_ptr<io::MappedInputs> mapped_;
  std::uint64_t mapped_next_ = 0;  // the start of the first record not yet in a chunk
  std::uint64_t dropped_to_ = 0;   // the mapping's pages before this are out of the process
  io::ByteSource* source_ = nullptr;                       // the one being read
  std::string source_name_;
  bool at_file_start_ = false;  // the next record is the current file's first
  std::uint64_t file_lines_ = 0;  // newlines before the current position (for error messages)
  FileLineEnding ending_;         // the current file's, from its first record
  std::vector<char> carry_;       // the start of a record that did not fit the last chunk
  struct Deferred {  // records [begin, end) of the chunk, whose prefixes fill() computes
    std::size_t begin, end;
    const TextFormat* format;
  };
  std::vector<Deferred> deferred_;
  bool done_ = false;
  std::string header_;
  bool saw_header_ = false;
  std::string heads_;
  std::uint64_t head_records_ = 0;
  std::uint64_t bytes_read_ = 0;
  double read_seconds_ = 0, split_seconds_ = 0;
  std::optional<std::uint64_t> total_size_;
};

}  // namespace corank::text
