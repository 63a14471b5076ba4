#pragma once
// Several input files mapped one after another into one range of addresses,
// each at a page boundary: a sort of many files already in memory (a glob of
// logs in the page cache) splits them where they lie, as it does one file
// (mapped_input.hpp), instead of copying every byte into fresh memory. A
// file's last page is filled up with zeros past its end, so a file's bytes
// are followed by at most a page less one of zeros before the next file's.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "corank/io/mapped_input.hpp"
#include "corank/io/options.hpp"

namespace corank::io {

class MappedInputs {
public:
  // The mapping of each path's first sizes[i] bytes, or nullptr where any of
  // them is better read (MappedInput::map_if_resident says when), where an
  // empty file among them is the only exception: it takes no room. nullptr
  // too where the range would exceed `at_most` bytes.
  static std::unique_ptr<MappedInputs> map_if_resident(const std::vector<std::string>& paths, const IoOptions& opt,
                                                       const std::vector<std::uint64_t>& sizes,
                                                       std::uint64_t at_most);
  ~MappedInputs();
  MappedInputs(const MappedInputs&) = delete;
  MappedInputs& operator=(const MappedInputs&) = delete;

  // The range: the files, each from a page boundary, in the paths' order.
  const std::byte* data() const noexcept { return data_; }
  std::uint64_t size() const noexcept { return size_; }
  std::size_t files() const noexcept { return begin_.size(); }
  // File i's bytes are [begin(i), end(i)) of the range.
  std::uint64_t begin(std::size_t i) const noexcept { return begin_[i]; }
  std::uint64_t end(std::size_t i) const noexcept { return begin_[i] + sizes_[i]; }
  // The files' bytes (not the zeros between them) before `offset` of the range.
  std::uint64_t file_bytes_before(std::uint64_t offset) const noexcept;
  // Takes the pages of bytes [offset, offset + n) of the range (widened to
  // whole pages) out of this process's memory once a sort is done with them:
  // they stay in the page cache, and a later read maps them again. Keeps a
  // sort that works through the files in windows within its budget.
  void drop(std::uint64_t offset, std::uint64_t n) const noexcept;

private:
  MappedInputs(std::byte* data, std::uint64_t size) : data_(data), size_(size) {}
  std::byte* data_;
  std::uint64_t size_;
  std::vector<std::uint64_t> begin_, sizes_;
  std::vector<std::unique_ptr<MappedInput>> files_;  // destroyed before the range is unmapped
};

}  // namespace corank::io
