#pragma once
// The sorter's input: the named files (or standard input) read one after another
// as a single stream of fixed-size records, as GNU sort concatenates its inputs,
// or records already in memory (SortOptions::input_buffers).
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "corank/io/mapped_input.hpp"
#include "corank/io/options.hpp"
#include "corank/io/source.hpp"
#include "corank/record_selection.hpp"

namespace corank {

// Input buffers (SortOptions::input_buffers): throws InputError for a piece
// that is not whole records.
void check_whole_records(const std::vector<std::span<const std::byte>>& buffers, std::uint32_t record_size);
// The one piece that holds records, where the others are empty: a sort takes
// it where it lies. nullptr where none or several hold records.
const std::byte* sole_buffer(const std::vector<std::span<const std::byte>>& buffers) noexcept;

class RecordInput {
public:
  // Opens every input up front, so an unreadable file fails before any work.
  RecordInput(const std::vector<std::string>& paths, std::uint32_t record_size, const io::IoOptions& opt);
  // Pieces of memory in order, which must outlive this object, copied out by
  // up to `threads` threads. Throws InputError for a piece that is not whole
  // records.
  RecordInput(const std::vector<std::span<const std::byte>>& buffers, std::uint32_t record_size, unsigned threads);
  // Only the records of the buffers that `selection` keeps (record_selection.hpp).
  RecordInput(const std::vector<std::span<const std::byte>>& buffers, std::uint32_t record_size, unsigned threads,
              const RecordSelection& selection);

  // Total records, when every input's size is known in advance.
  std::optional<std::uint64_t> total_records() const noexcept { return total_records_; }
  // Reads up to max_records whole records into dst; returns the number read (0 at the end).
  // Throws InputError if an input ends inside a record.
  std::uint64_t read(std::byte* dst, std::uint64_t max_records);
  std::uint64_t records_read() const noexcept { return records_read_; }
  // The whole input mapped instead of read, where that saves copying it: one
  // uncompressed regular file whose pages are in memory
  // (io/mapped_input.hpp), or one input buffer with records. nullptr where
  // that does not apply, or after read() began: read() then. A mapping counts
  // every record as read; it lives as long as this object.
  const std::byte* map_whole();
  // A selection over one buffer, before read() began: its kept records can
  // be taken where they lie (SelectedRecords::each_kept); nullptr otherwise.
  const SelectedRecords* selection_in_place() const noexcept;
  // The same, taken: its kept records count as read, as a mapping's do.
  SelectedRecords* take_selection_in_place() noexcept;

private:
  std::vector<std::string> paths_;
  io::IoOptions opt_;
  std::unique_ptr<io::MappedInput> mapped_;
  std::vector<std::unique_ptr<io::ByteSource>> sources_;
  std::vector<std::span<const std::byte>> buffers_;  // in place of paths_ and sources_
  std::unique_ptr<SelectedRecords> selected_;        // reads buffers_ where there is a selection
  std::size_t current_ = 0;
  std::uint64_t current_bytes_ = 0;  // bytes read from sources_[current_] (buffers_[current_])
  std::uint32_t record_size_;
  unsigned threads_ = 1;  // copying out of buffers_
  std::optional<std::uint64_t> total_records_;
  std::uint64_t records_read_ = 0;
};

}  // namespace corank
