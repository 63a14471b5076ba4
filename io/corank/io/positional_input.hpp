#pragma once
// The inputs as one byte range that any number of threads read at any offset:
// the named regular files, uncompressed, concatenated in order, or pieces of
// this process's memory. The transfer pipeline reads each staging slot with
// all threads at once this way; data in the page cache, in /dev/shm or in
// memory is copied at memory speed, not one thread's.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "corank/io/file_desc.hpp"
#include "corank/io/options.hpp"

namespace corank::io {

class PositionalInput {
public:
  // Whether every path names a regular file read as it is (no "-", no
  // compression by suffix or option, not a file of /proc or /sys): otherwise
  // read it sequentially (open_source). Opens nothing.
  static bool suits(const std::vector<std::string>& paths, const IoOptions& opt);
  // Opens every path; throws IoError naming the first that cannot be opened.
  explicit PositionalInput(const std::vector<std::string>& paths);
  // The same, each file held to sizes[i], a snapshot taken elsewhere (by
  // another process, corank-mpi's rank 0), as if it were its size when
  // opened: one grown since is read to it. One already shorter is not
  // refused here (found_size says so, for the caller's own message); reading
  // past its end reports that it shrank.
  PositionalInput(const std::vector<std::string>& paths, const std::vector<std::uint64_t>& sizes);
  // Pieces of memory, which must outlive this object; each is named `name`
  // in messages.
  PositionalInput(const std::vector<std::span<const std::byte>>& pieces, const std::string& name);

  std::uint64_t size() const noexcept { return size_; }
  std::size_t files() const noexcept { return files_.size(); }
  const std::string& name(std::size_t i) const noexcept { return files_[i].path; }
  std::uint64_t file_size(std::size_t i) const noexcept { return files_[i].size; }
  // As the file was found when opened: its size then, and whether it is a
  // regular file (pieces of memory count as regular).
  std::uint64_t found_size(std::size_t i) const noexcept { return files_[i].found; }
  bool regular(std::size_t i) const noexcept { return files_[i].regular; }

  // Reads bytes [offset, offset + n) of the concatenation into dst. Safe to
  // call from several threads at once. Throws IoError naming the file, also
  // when a file has shrunk since it was opened (source.hpp's
  // throw_file_shrank); a file that grew is read up to its size then.
  void read(std::uint64_t offset, std::byte* dst, std::size_t n) const;

private:
  struct File {
    FileDesc fd;
    const std::byte* memory = nullptr;  // a piece of memory instead of a file
    std::string path;
    std::uint64_t begin = 0, size = 0;  // begin: offset in the concatenation
    std::uint64_t found = 0;            // its size when opened
    bool regular = true;
  };
  void open(const std::vector<std::string>& paths, const std::vector<std::uint64_t>* sizes);
  std::vector<File> files_;
  std::uint64_t size_ = 0;
};

}  // namespace corank::io
