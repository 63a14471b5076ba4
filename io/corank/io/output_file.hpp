#pragma once
// The sorted output. What -o names decides how it is written:
//  - a regular file, or a name that does not exist yet: bytes go to a file
//    without a name (O_TMPFILE) in the target's directory (a symlink is
//    followed to its file; a dangling one to the file it names, then
//    created), with the target's owner, mode and extended attributes (or 0666
//    less the umask). Only when the whole sort succeeded is it fsynced, named
//    beside the target and renamed over it: atomic (target_replacement.hpp).
//    Until then the target (which may be an input) is untouched, and a process
//    killed by any signal, SIGKILL included, leaves nothing. A file system
//    without unnamed files gets an owned name instead (owned_temporary.hpp);
//  - a regular file that rename would change: one with several hard links,
//    one whose owner or extended attributes the new file cannot take, or one
//    in a directory corank cannot write: bytes go to a file without a name in
//    the first -T directory (IoOptions::staging_dir), copied into the target
//    when the sort succeeded (its inode, links, mode and owner kept; not
//    atomic, as GNU sort's output never is, but locked against other corank
//    runs, its space allocated before the old content is touched, and fatal
//    signals deferred during the copy: target_replacement.hpp, copy_over);
//  - a device, FIFO or socket (/dev/null, /dev/stdout, a pipe): written
//    directly, as it streams;
//  - a region (IoOptions::output_region): bytes [offset, offset + size) of an
//    existing regular file of at least offset + size bytes, which its creator
//    commits or removes (corank-mpi's shared output, a region per rank, all
//    written at once). Every write path below lands from `offset` on, while
//    its callers keep counting from 0 (the range from reserve_range() starts
//    at the region's offset plus the sink's bytes); the file is never
//    truncated, renamed or removed, and nothing outside the region is written
//    (the mapping refuses writes past its end). Uncompressed only, and
//    through the page cache, never O_DIRECT: a page that two regions share
//    has one copy, which direct writes of one writer would bypass and the
//    other's write-back then undo. The writer fills the whole region
//    (corank-mpi checks the count); commit() finishes and fsyncs, nothing
//    more.
// The sink writes behind through the I/O engine (write_behind_sink.hpp) and
// compresses when the target ends in .gz .bz2 .xz .zst (or per
// IoOptions::output_codec).
//
//   OutputFile out(path, opt);
//   out.sink().write(p, n);   // as often as needed
//   out.commit();             // finish + fsync + rename; without it, nothing appears
#include <sys/stat.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "corank/io/options.hpp"
#include "corank/io/positional_file.hpp"
#include "corank/io/source.hpp"

namespace corank::io {

class OutputFile {
public:
  // target "-" writes to standard output, which cannot be committed atomically;
  // an empty one is no file (IoError, as GNU sort's "open failed: '': No such file").
  OutputFile(const std::string& target, const IoOptions& opt);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  ByteSink& sink() { return *sink_; }
  // Ends writing: the mapping's writers are joined and the file cut to
  // set_mapped_size(), the sink finished. What was written can then be read
  // back from temp_path() (--verify). Idempotent; commit() calls it.
  void finish_writing();
  // Flushes, fsyncs (unless IoOptions::sync_output is off) and puts the
  // output in the target's place (renamed over it, or copied into it).
  void commit();
  // Whether reserve_range() applies: the output is the temporary file (or
  // the region) written uncompressed, not standard output, a device or a FIFO.
  bool can_reserve_range() const noexcept { return positional_ && fd_ >= 0; }
  // Whether read_back() applies before commit: a temporary file (not standard
  // output, a device, a FIFO or a region).
  bool can_read_back() const noexcept { return !temp_path_.empty() && mode_ != Mode::region; }
  // A descriptor that reads the temporary file as written (uncompressed: for
  // records written into it that are read back as a run), after finish_writing().
  int open_for_reading() const;
  // Starts the output over, empty: for a writer that streamed records into
  // it and then found they must be merged with others after all (it
  // finishes the sink and copies what it wrote, through open_for_reading(),
  // before calling this). The sink is replaced by one that writes from the
  // file's start; the file (its name, mode and owner) stays. Where
  // can_reserve_range() and can_read_back(), before the output was mapped.
  void restart();
  // For writers that fill disjoint byte ranges on several threads: finishes
  // the sink and returns the rest of the file from where the sink's bytes end
  // (in a region, from its offset plus those bytes); nullopt where
  // !can_reserve_range(), the sink left as it was. Nothing more may go through
  // sink() after it; commit() syncs what the range's writers wrote with the
  // rest.
  std::optional<FileRange> reserve_range();
  // Maps the first `bytes` of the temporary file for writers on several
  // threads, where that beats the sink: an uncompressed regular file on a
  // memory file system (tmpfs, such as /dev/shm), where the kernel serializes
  // buffered writes to one file but faults on a shared mapping proceed in
  // parallel. False where it does not apply: write through sink() then.
  // Nothing may have gone through sink() before. commit() keeps the first
  // set_mapped_size() bytes. In a region, offsets count from its start and
  // `bytes` may not exceed its size.
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
  // Allocates bytes [at, at + n) of the mapping and returns where they start,
  // for writers that build the output in place (gathering records into it).
  // Same rules as write_mapped.
  std::byte* mapped_range(std::uint64_t at, std::size_t n);
  void set_mapped_size(std::uint64_t bytes) noexcept { mapped_used_ = bytes; }
  const std::string& target() const noexcept { return target_; }
  // The written bytes, read back after finish_writing() (--verify): the whole
  // temporary file, decompressed as it was compressed, or exactly the region.
  // Throws for standard output, a device or a FIFO, which cannot be reread.
  std::unique_ptr<ByteSource> read_back(const IoOptions& opt) const;

private:
  enum class Mode { stream, rename, in_place, region };
  void open_region(const OutputRegion& region, const IoOptions& opt);
  // Opens the file to be renamed over final_path_ (old: the existing target's
  // stat, or nullptr); switches to in_place where it cannot be made to match.
  void open_beside(const struct stat* old);

  Mode mode_ = Mode::stream;
  std::string target_;
  std::string final_path_;  // the file a rename replaces or in-place writes fill (symlinks resolved)
  std::string temp_path_;   // where the written bytes are read back (the target itself for a region)
  Codec codec_ = Codec::none;
  OutputRegion region_;     // {0, 0} but in a region
  std::string dir_;
  int fd_ = -1;
  int cleanup_slot_ = -1;
  bool named_temp_ = false;  // temp_path_ is a name of its own to unlink (not /proc/self/fd)
  bool committed_ = false;
  bool sync_ = true;
  bool positional_ = false;
  std::unique_ptr<ByteSink> sink_;
  IoOptions sink_options_;  // what sink_ was made with, for restart()
  std::string sink_name_;
  // The mapping starts on the page boundary at or before the region's offset,
  // map_lead_ bytes before it (0 outside a region).
  std::byte* map_ = nullptr;
  std::uint64_t map_bytes_ = 0, map_lead_ = 0, mapped_used_ = 0;
  bool populate_ = false;  // pages are allocated range by range (else all at once when mapped)
  std::atomic<bool> stop_prefault_{false};
  std::vector<std::thread> prefault_;  // allocating the mapping ahead of the writers
  void unmap() noexcept;
};

}  // namespace corank::io
