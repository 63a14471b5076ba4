#pragma once
// The inputs as one byte range (the files concatenated), as one snapshot:
// rank 0 opens them and takes their sizes, every other rank opens its files
// held to those sizes, so that every rank cuts
// and reads the same bytes even while a file grows (what was appended after
// the snapshot is not read) or when a rank is shown another file under the
// same name (one shorter than the snapshot fails that rank: it cannot read
// its share). Every read is checked against the snapshot: a file that shrank
// since is an error, never a shorter share (io::PositionalInput reads them
// and says so). Also finding records in the range at any offset: what every
// rank reads its share, its samples and the CSV header from.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "corank/io/positional_input.hpp"
#include "corank/text/text_format.hpp"

namespace corank::mpi {

class Inputs {
public:
  // Opens every path and takes the sizes: the snapshot. Throws IoError
  // naming the first file that cannot be opened (or is a directory),
  // UsageError for one that is not a regular file.
  explicit Inputs(const std::vector<std::string>& paths);
  // Opens every path, held to the snapshot's sizes; also throws InputError
  // naming a file shorter than its snapshot size.
  Inputs(const std::vector<std::string>& paths, const std::vector<std::uint64_t>& snapshot);

  std::vector<std::uint64_t> sizes() const;
  std::uint64_t total() const { return begin.back(); }
  std::size_t files() const { return positional_.files(); }
  const std::string& name(std::size_t i) const { return positional_.name(i); }
  std::uint64_t file_size(std::size_t i) const { return begin[i + 1] - begin[i]; }
  // The file that holds byte x < total (never an empty one).
  std::size_t file_of(std::uint64_t x) const;
  // Bytes [offset, offset + n) of the concatenation; safe from several
  // threads at once. Throws IoError naming the file where it ends before
  // the snapshot said.
  void read(std::uint64_t offset, std::byte* dst, std::size_t n) const { positional_.read(offset, dst, n); }

  std::vector<std::uint64_t> begin;  // each file's start in the concatenation, plus the total at the end

private:
  // Refuses what is not a regular file; sets `begin`.
  void check_and_place();
  io::PositionalInput positional_;
};

// The 1-based line of byte x in its file, as the single-process reader numbers
// lines in its messages (every newline counts, quoted ones too). Only for
// messages: it reads the file up to x.
std::uint64_t line_of(const Inputs& in, std::uint64_t x);

// The CSV row that starts at `at` (a row start), without its newline; a
// file's unterminated last row is checked as the single-process reader checks it.
std::string csv_row_at(const Inputs& in, std::uint64_t at, const text::TextFormat& format);

// Lines end at their terminator; with `escapes` (PostgreSQL's COPY text,
// pgtext_format.hpp) not where an odd run of backslashes just before it
// escapes it: whether a terminator ends a row depends on those bytes alone,
// so a row start is found from any offset, as a line start is.

// The first line start at or after byte x: x itself at a file's start, else
// just past the next terminator in x's file (or the file's end).
std::uint64_t line_start_at_or_after(const Inputs& in, std::uint64_t x, char term, bool escapes = false);

// The start of the line that holds byte x (x < total).
std::uint64_t line_start_at_or_before(const Inputs& in, std::uint64_t x, char term, bool escapes = false);

// The record that starts at `at` (a record start), without a text terminator:
// record_size bytes, or a line (0).
std::string record_at(const Inputs& in, std::uint64_t at, std::uint32_t record_size, char term, bool escapes = false);

}  // namespace corank::mpi
