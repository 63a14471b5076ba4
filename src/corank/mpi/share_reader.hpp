#pragma once
// Reads a rank's share [begin, end) of the inputs chunk by chunk, as records
// with their positions. Text chunks end at a record's end; a record longer
// than a chunk grows the chunk. A chunk is read by `threads` threads, each a
// slice of it: one thread's reads fall far short of memory and fast storage.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "corank/mpi/inputs.hpp"
#include "corank/text/text_format.hpp"

namespace corank::mpi {

// How a share's text records are read.
struct TextReading {
  const text::TextFormat* format = nullptr;
  // Rows end where the format says: a quoted (CSV) or escaped (pgtext)
  // newline is data, and a file's unterminated last row is checked.
  bool rows_by_format = false;
  bool skip_headers = false;  // every file's first record is its header, no record to sort
  bool check = false;         // records pass the format's checks as the single-process reader's do
  // With check, rows of fields: how many every row has, as corank holds them
  // to the first input's header or first row (text/row_check.hpp), and
  // whose that is ("the header of a.csv", "the first row (a.csv:1)").
  std::optional<std::uint64_t> fields;
  std::string fields_from;
};

// A record of the share: its bytes (a text record without its terminator)
// and its position, the byte offset in the inputs where it starts.
struct ShareRecord {
  const char* data = nullptr;
  std::uint64_t size = 0;
  std::uint64_t position = 0;
  unsigned part = 0;  // the rank it goes to, once binned (binning.hpp)
};

class ShareReader {
public:
  // record_size: fixed-size records, or 0 for text ended by `term` (or rows
  // of text.format where text.rows_by_format). chunk: bytes read at once.
  ShareReader(const Inputs& in, std::uint64_t begin, std::uint64_t end, std::uint32_t record_size, char term,
              std::uint64_t chunk, TextReading text = {}, unsigned threads = 1);

  // The next chunk's records into `records` (cleared first), valid until the
  // next call; false at the end. Throws InputError for a record the format
  // refuses (when text.check), naming its file and line.
  bool next(std::vector<ShareRecord>& records);
  // Fixed-size records: the next chunk as one block of whole records,
  // valid until the next call; false at the end.
  bool next_block(const char*& data, std::uint64_t& bytes, std::uint64_t& position);

private:
  // Bytes [at, at + n) of the inputs, in slices of at least 4 MiB, a thread each.
  void read(std::uint64_t at, char* dst, std::size_t n) const;
  void start_segment();
  // A text record at offset i of the chunk: a file's header is dropped, the
  // rest checked (when asked) and added.
  void text_record(std::vector<ShareRecord>& records, std::string_view rec, std::size_t i);
  void check_tail(std::string_view tail, std::size_t i);
  // A file's unterminated last record, at the chunk's end: where the file's
  // first record ends in CR LF, the CR its terminator lacks follows it (room
  // for it is kept past every chunk), as corank's readers supply it
  // (text/line_endings.hpp), so that it is sent, sorted and written in CR LF.
  std::string_view with_file_ending(std::string_view tail);
  // Throws InputError("FILE:LINE: ...") for a row of another number of fields than text_.fields.
  void check_fields(std::string_view rec, const std::string& file, std::uint64_t line) const;

  const Inputs& in_;
  std::uint32_t record_size_;
  char term_;
  TextReading text_;
  unsigned threads_;
  bool skip_next_ = false;
  std::vector<std::size_t> ends_;
  std::uint64_t chunk_ = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> segments_;
  std::size_t segment_ = 0;
  std::uint64_t cursor_ = 0;
  std::string buf_;
};

}  // namespace corank::mpi
