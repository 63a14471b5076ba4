#pragma once
// The sorted output, committed atomically: bytes go to a hidden temporary file
// beside the target, which is fsynced and renamed over the target only when the
// whole sort succeeded. Until then the target (which may be an input) is untouched;
// a failure, an exception or SIGINT/SIGTERM removes the temporary file.
// The sink writes behind through the I/O engine (write_behind_sink.hpp) and
// compresses when the target ends in .gz .bz2 .xz .zst (or per
// IoOptions::output_codec).
//
//   OutputFile out(path, opt);
//   out.sink().write(p, n);   // as often as needed
//   out.commit();             // finish + fsync + rename; without it, nothing appears
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "corank/io/options.hpp"
#include "corank/io/source.hpp"

namespace corank::io {

class OutputFile {
public:
  // target "-" (or empty) writes to standard output, which cannot be committed atomically.
  OutputFile(const std::string& target, const IoOptions& opt);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  ByteSink& sink() { return *sink_; }
  // Flushes, fsyncs (unless IoOptions::sync_output is off) and renames the
  // temporary file over the target.
  void commit();
  // For writers that fill disjoint byte ranges on several threads: the
  // temporary file's descriptor when the output is one written uncompressed,
  // else -1. Positional writes go past what the sink holds: call
  // sink().finish() first and write from sink().bytes_written() on; commit()
  // syncs them with the rest.
  int positional_fd() const noexcept { return positional_ ? fd_ : -1; }
  // Maps the first `bytes` of the temporary file for writers on several
  // threads, where that beats the sink: an uncompressed regular file on a
  // memory file system (tmpfs, such as /dev/shm), where the kernel serializes
  // buffered writes to one file but faults on a shared mapping proceed in
  // parallel. False where it does not apply: write through sink() then.
  // Nothing may have gone through sink() before. commit() keeps the first
  // set_mapped_size() bytes.
  //
  // Allocating a page of a memory file system is the bulk of writing it (a
  // first touch of memory, on a virtual machine a fault in the hypervisor
  // too), so background threads start allocating the mapping front to back
  // at once: work done while the caller is still reading and sorting.
  bool map_for_writing(std::uint64_t bytes);
  // Copies n bytes to offset `at` of the mapping; safe from several threads
  // for disjoint ranges. The pages are allocated before the copy, so a full
  // file system is an IoError here, never a SIGBUS.
  void write_mapped(std::uint64_t at, const void* src, std::size_t n);
  void set_mapped_size(std::uint64_t bytes) noexcept { mapped_used_ = bytes; }
  const std::string& target() const noexcept { return target_; }
  const std::string& temp_path() const noexcept { return temp_path_; }

private:
  std::string target_;
  std::string temp_path_;  // empty for stdout
  std::string dir_;
  int fd_ = -1;
  int cleanup_slot_ = -1;
  bool committed_ = false;
  bool sync_ = true;
  bool positional_ = false;
  std::unique_ptr<ByteSink> sink_;
  std::byte* map_ = nullptr;
  std::uint64_t map_bytes_ = 0, mapped_used_ = 0;
  bool populate_ = false;  // pages are allocated range by range (else all at once when mapped)
  std::atomic<bool> stop_prefault_{false};
  std::vector<std::thread> prefault_;  // allocating the mapping ahead of the writers
  void unmap() noexcept;
};

}  // namespace corank::io
