#pragma once
// One input file mapped read-only, for a sort that holds its whole input in
// memory anyway. Where the file's pages are in memory already (a memory file
// system such as /dev/shm, or a file in the page cache), reading it
// would copy every page into fresh memory of the sorter's: on a virtual
// machine, first touches of fresh memory cost more than the sort itself.
// Mapped, the sort reads the page cache where it is.
//
// A mapped file that shrinks while mapped turns a read past its new end into
// SIGBUS, and so does a page that cannot be read from the disk. The first
// mapping installs a handler for it: a SIGBUS inside a mapped input removes
// the registered temporary files (temp_files.hpp), writes one line to
// standard error, the one a read would have thrown ("PROGRAM: read failed:
// FILE: the file shrank while it was being read (from N to M bytes)", or
// "...: FILE: Input/output error" where the file is whole), and exits with
// status 2, as an input error does.
// This handler is the library's only direct writer to standard error: nothing
// can be returned to a thread that touched a page that is gone. A SIGBUS
// elsewhere keeps its earlier disposition. Threads that meet lost pages at
// once print one line between them.
//
// A file that shrinks by less than what its last page holds past the new end
// raises no SIGBUS: the rest of that page reads as zeros, which no read would
// have returned. So every output checks, before it is committed
// (output_file.hpp), that no file mapped now is shorter than its mapping
// (check_mapped_inputs): a sort whose input shrank while it was mapped fails
// as one that read it would, and leaves its target as it was.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "corank/io/file_desc.hpp"
#include "corank/io/options.hpp"

namespace corank::io {

// Throws IoError ("read failed: FILE: the file shrank while it was being
// read (from N to M bytes)") where a file mapped now, by any MappedInput of
// the process, is shorter than its mapping.
void check_mapped_inputs();

class MappedInput {
public:
  // The mapping of `path`'s first `size` bytes, its size when the caller
  // opened it, or nullptr where reading it is the better way: not a regular
  // file read as it is (standard input, a pipe, a compressed file), empty,
  // shorter now (reading reports that), more than an eighth of its pages
  // not in memory (estimated from a sample: direct_fd.hpp's cached_share), or
  // no file there (reading reports that too). Counts as one read request for
  // a read fault point (fault_injection.hpp).
  // With `at` (page-aligned, inside a range the caller reserved: see
  // mapped_inputs.hpp), the file is mapped there, and left as inaccessible
  // reserved pages when this is destroyed, for the range's owner to unmap.
  static std::unique_ptr<MappedInput> map_if_resident(const std::string& path, const IoOptions& opt,
                                                      std::uint64_t size, std::byte* at = nullptr);
  ~MappedInput();
  MappedInput(const MappedInput&) = delete;
  MappedInput& operator=(const MappedInput&) = delete;

  const std::byte* data() const noexcept { return data_; }
  std::uint64_t size() const noexcept { return size_; }

private:
  MappedInput(const std::byte* data, std::uint64_t size, bool placed, int slot, FileDesc fd)
      : data_(data), size_(size), placed_(placed), slot_(slot), fd_(std::move(fd)) {}
  const std::byte* data_;
  std::uint64_t size_;
  bool placed_;  // mapped at the caller's address: its pages go back to being reserved
  int slot_;     // this mapping's entry in the SIGBUS handler's table
  FileDesc fd_;  // kept open for the handler, which asks the file's size now
};

}  // namespace corank::io
