#pragma once
// The inputs as one byte range (the files concatenated), and finding records
// in it at any offset: what every rank reads its share, its samples and the
// CSV header from.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "corank/io/positional_input.hpp"
#include "corank/text/text_format.hpp"

namespace corank::mpi {

struct Inputs {
  std::unique_ptr<io::PositionalInput> data;
  std::vector<std::uint64_t> begin;  // per file, plus the total at the end

  explicit Inputs(const std::vector<std::string>& paths);
  std::uint64_t total() const { return begin.back(); }
  std::size_t files() const { return begin.size() - 1; }
  // The file that holds byte x < total (never an empty one).
  std::size_t file_of(std::uint64_t x) const;
};

// The 1-based line of byte x in its file, as the single-process reader numbers
// lines in its messages (every newline counts, quoted ones too). Only for
// messages: it reads the file up to x.
std::uint64_t line_of(const Inputs& in, std::uint64_t x);

// The CSV row that starts at `at` (a row start), without its newline; a
// file's unterminated last row is checked as the single-process reader checks it.
std::string csv_row_at(const Inputs& in, std::uint64_t at, const text::TextFormat& format);

// The first line start at or after byte x: x itself at a file's start, else
// just past the next terminator in x's file (or the file's end).
std::uint64_t line_start_at_or_after(const Inputs& in, std::uint64_t x, char term);

// The start of the line that holds byte x (x < total).
std::uint64_t line_start_at_or_before(const Inputs& in, std::uint64_t x, char term);

// The record that starts at `at` (a record start), without a text terminator:
// record_size bytes, or a line (0).
std::string record_at(const Inputs& in, std::uint64_t at, std::uint32_t record_size, char term);

}  // namespace corank::mpi
