#pragma once
// The device pipeline's input: the records of every input in order, read into
// staging memory. Named regular files read as they are (no compression) are
// read positionally by all of the pool's threads at once
// (io::PositionalInput); anything else (standard input, pipes, compressed
// files) sequentially through RecordInput.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "corank/io/mapped_input.hpp"
#include "corank/io/options.hpp"
#include "corank/io/positional_input.hpp"
#include "corank/io/worker_pool.hpp"
#include "corank/record_input.hpp"

namespace corank {

class RecordSource {
public:
  // Opens every input; throws io::IoError for one that cannot be opened and
  // InputError for a size that is not a multiple of record_size.
  RecordSource(const std::vector<std::string>& paths, std::uint32_t record_size, const io::IoOptions& opt);
  // Pieces of memory in order, which must outlive this object; throws
  // InputError for a piece that is not whole records.
  RecordSource(const std::vector<std::span<const std::byte>>& buffers, std::uint32_t record_size);
  // Only the records of the buffers that `selection` keeps, read by `threads`
  // threads (record_selection.hpp).
  RecordSource(const std::vector<std::span<const std::byte>>& buffers, std::uint32_t record_size,
               const RecordSelection& selection, unsigned threads);

  std::optional<std::uint64_t> total_records() const noexcept;
  // Whether the inputs can be read again from the start (files, not a pipe).
  bool rereadable() const noexcept { return rereadable_; }
  bool positional() const noexcept { return positional_ != nullptr; }

  // Reads the next up to max records into dst; returns how many (0 at the end).
  std::uint64_t read(std::byte* dst, std::uint64_t max, io::WorkerPool& pool);
  std::uint64_t records_read() const noexcept { return next_; }
  // The whole input mapped instead of read, where that saves copying it (one
  // uncompressed file in memory: io/corank/io/mapped_input.hpp; one input
  // buffer with records); nullptr where that does not apply or after read()
  // began. Counts every record as read.
  const std::byte* map_whole();
  // Ends map_whole's mapping, once the records have been taken from it.
  void unmap() noexcept { mapped_.reset(); }

private:
  std::uint32_t R_;
  io::IoOptions opt_;
  std::unique_ptr<io::MappedInput> mapped_;
  std::unique_ptr<io::PositionalInput> positional_;
  std::vector<std::span<const std::byte>> buffers_;  // what positional_ reads, where it reads memory
  std::unique_ptr<RecordInput> sequential_;  // also the selection's reader
  bool rereadable_ = true;
  std::uint64_t next_ = 0;
};

}  // namespace corank
