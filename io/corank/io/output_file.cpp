#include "corank/io/output_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

#include "corank/io/compressed_stream.hpp"
#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/io/file_attributes.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/huge_pages.hpp"
#include "corank/io/mapped_input.hpp"
#include "corank/io/owned_temporary.hpp"
#include "corank/io/run_file.hpp"
#include "corank/io/source.hpp"
#include "corank/io/target_replacement.hpp"
#include "corank/io/temp_files.hpp"
#include "corank/io/termination.hpp"
#include "corank/io/write_behind_sink.hpp"

namespace corank::io {

namespace {

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
}

}  // namespace

OutputFile::OutputFile(const std::string& target, const IoOptions& opt) : target_(target), sync_(opt.sync_output) {
  const Codec codec = opt.output_codec ? *opt.output_codec : codec_from_suffix(target);
  if (target == "-") {
    sink_ = make_fd_sink(STDOUT_FILENO, "standard output", opt);
    if (opt.output_codec) sink_ = compressing_sink(std::move(sink_), *opt.output_codec, "standard output");
    return;
  }
  if (target.empty()) throw_io_error("open failed", target, ENOENT);  // GNU sort's answer to -o ''
  codec_ = codec;
  if (opt.output_region) {
    open_region(*opt.output_region, opt);
    return;
  }
  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0;  // follows symlinks
  if (exists && S_ISDIR(st.st_mode)) throw_io_error("open failed", target, EISDIR);
  if (exists && !S_ISREG(st.st_mode)) {
    // A device, FIFO or socket: nothing to replace, written as it streams.
    int fd;
    do {
      fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) throw_io_error("open failed", target, errno);
    fd_ = fd;
    sink_ = compressing_sink(make_fd_sink(fd_, target_, opt), codec, target_);
    return;
  }
  final_path_ = resolve_target(target);
  mode_ = Mode::rename;
  if (exists) {
    if (::access(final_path_.c_str(), W_OK) != 0) throw_io_error("open failed", target, errno);
    // Rename would split a hard link: such a file is filled in place.
    if (st.st_nlink > 1) mode_ = Mode::in_place;
  }
  if (mode_ == Mode::rename) open_beside(exists ? &st : nullptr);
  IoOptions sink_options = opt;
  std::string sink_name = target_;
  if (mode_ == Mode::in_place) {
    // Staged in the first -T directory: a file without a name, called by that
    // directory in messages (a full one is not the target's fault), and not
    // synced: copy_over() syncs the target.
    const char* tmp = std::getenv("TMPDIR");
    const std::string dir = !opt.staging_dir.empty() ? opt.staging_dir : tmp && *tmp ? tmp : "/tmp";
    fd_ = TempDirectories({dir}).create_anonymous().release();
    temp_path_ = "/proc/self/fd/" + std::to_string(fd_);
    sink_name = std::string(kTemporaryFile);
    sink_options.sync_output = false;
  }
  try {
    sink_ = compressing_sink(make_fd_sink(fd_, sink_name, sink_options), codec, target_);
    positional_ = codec == Codec::none;
    sink_options_ = sink_options;
    sink_name_ = sink_name;
  } catch (...) {
    // No destructor runs for a half-built object: undo the temporary file here.
    ::close(fd_);
    if (named_temp_) ::unlink(temp_path_.c_str());
    unregister_cleanup(cleanup_slot_);
    throw;
  }
}

void OutputFile::open_beside(const struct stat* old) {
  dir_ = directory_of(final_path_);
  const auto slash = final_path_.rfind('/');
  const std::string base = slash == std::string::npos ? final_path_ : final_path_.substr(slash + 1);
  const unsigned mode = old ? (old->st_mode & 07777) : 0666;
  remove_stale_temporaries(dir_, base);
  fd_ = open_unnamed(dir_, mode);
  if (fd_ >= 0) {
    temp_path_ = "/proc/self/fd/" + std::to_string(fd_);
  } else if (errno == EOPNOTSUPP) {
    // A file system without unnamed files: an owned name, which the program
    // removes on a fatal signal (unlink_registered_files) and else the next run.
    fd_ = create_owned_temporary(dir_, base, mode, &temp_path_);
    if (fd_ >= 0) {
      named_temp_ = true;
      cleanup_slot_ = register_cleanup(temp_path_);
    }
  }
  if (fd_ < 0) {
    const int e = errno;
    // A directory we cannot write: an existing file we can is filled in place.
    if (old == nullptr || (e != EACCES && e != EPERM && e != EROFS)) throw_io_error("cannot create output file in", dir_, e);
    mode_ = Mode::in_place;
    return;
  }
  // The new file takes the old one's owner, mode (the umask applied at
  // creation) and extended attributes; one that it cannot take them all is
  // filled in place.
  if (old != nullptr && !take_attributes(fd_, final_path_, *old)) {
    ::close(std::exchange(fd_, -1));
    if (named_temp_) ::unlink(temp_path_.c_str());
    unregister_cleanup(std::exchange(cleanup_slot_, -1));
    named_temp_ = false;
    temp_path_.clear();
    mode_ = Mode::in_place;
  }
}

void OutputFile::open_region(const OutputRegion& region, const IoOptions& opt) {
  if (codec_ != Codec::none) throw IoError("open failed", target_, "a region of a file is written uncompressed");
  FileDesc fd = FileDesc::open(target_, O_RDWR);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw_io_error("stat failed", target_, errno);
  if (!S_ISREG(st.st_mode) || static_cast<std::uint64_t>(st.st_size) < region.offset + region.size)
    throw IoError("open failed", target_, "the output region lies past the end of the file");
  IoOptions buffered = opt;
  buffered.direct = false;
  sink_ = std::make_unique<WriteBehindSink>(fd.get(), target_, buffered, opt.sync_output, region.offset);
  fd_ = fd.release();
  mode_ = Mode::region;
  region_ = region;
  temp_path_ = target_;
  positional_ = true;
}

std::optional<FileRange> OutputFile::reserve_range() {
  if (!can_reserve_range()) return std::nullopt;
  sink_->finish();
  // A region shares pages with its neighbours' regions: never O_DIRECT.
  return FileRange(fd_, region_.offset + sink_->bytes_written(), target_, /*page_cache_only=*/mode_ == Mode::region);
}

int OutputFile::open_for_reading() const {
  if (temp_path_.empty() || mode_ == Mode::region || codec_ != Codec::none)
    throw IoError("read failed", target_, "the output cannot be read back");
  const int fd = ::open(temp_path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError("open failed", target_, errno);
  return fd;
}

void OutputFile::restart() {
  if (!can_reserve_range() || !can_read_back() || map_ != nullptr)
    throw std::logic_error("an output restarts only as an uncompressed temporary file written through its sink");
  sink_.reset();  // finished by its writer, which fsynced it: finishing it again would only sync it again
  if (::ftruncate(fd_, 0) != 0 || ::lseek(fd_, 0, SEEK_SET) != 0) throw_io_error("write failed", target_, errno);
  sink_ = make_fd_sink(fd_, sink_name_, sink_options_);
}

std::unique_ptr<ByteSource> OutputFile::read_back(const IoOptions& opt) const {
  if (temp_path_.empty()) throw IoError("read failed", target_, "the output cannot be read back");
  IoOptions o = opt;
  o.direct = false;  // just written through the page cache (or a mapping)
  if (mode_ == Mode::region) {
    o.temp_codec = Codec::none;
    o.temp_program.clear();
    return make_run_source(fd_, target_, o, region_.offset, region_.size);
  }
  o.input_codec = codec_;  // the temporary name has no suffix to tell
  return open_source(temp_path_, o);
}

OutputFile::~OutputFile() {
  unmap();
  sink_.reset();
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && named_temp_) ::unlink(temp_path_.c_str());
  unregister_cleanup(cleanup_slot_);
}

namespace {
constexpr std::uint64_t kPrefaultPiece = std::uint64_t{32} << 20;
constexpr unsigned kPrefaultThreads = 8;
}  // namespace

void OutputFile::unmap() noexcept {
  stop_prefault_ = true;
  for (auto& t : prefault_) t.join();
  prefault_.clear();
  if (map_ != nullptr) ::munmap(map_, map_bytes_);
  map_ = nullptr;
}

bool OutputFile::map_for_writing(std::uint64_t bytes) {
  if (!positional_ || sink_->bytes_written() != 0 || bytes == 0) return false;
  if (!on_memory_file_system(fd_)) return false;
  if (inject_failure(FaultPoint::write)) throw_io_error("write failed", target_, ENOSPC);  // a fault point (fault_injection.hpp)
  if (mode_ == Mode::region) {
    if (bytes > region_.size) throw IoError("write failed", target_, "write outside the output region");
  } else if (::ftruncate(fd_, static_cast<off_t>(bytes)) != 0) {
    throw_io_error("write failed", target_, errno);
  }
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::uint64_t lead = region_.offset % page;  // mmap's offset is a multiple of the page size
  void* p = ::mmap(nullptr, lead + bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_,
                   static_cast<off_t>(region_.offset - lead));
  if (p == MAP_FAILED) return false;
  map_ = static_cast<std::byte*>(p);
  map_bytes_ = lead + bytes;
  map_lead_ = lead;
  // Huge pages where the file system allows them (tmpfs huge=advise) and
  // they pay (huge_pages.hpp): fewer, larger page allocations. Advice only.
  advise_huge_pages(map_, map_bytes_);
  mapped_used_ = bytes;
  // Ranges are allocated by the writers, in parallel, where the kernel can
  // populate a range and report failure (Linux 5.14); else all at once here.
  // Populating a page allocates it and leaves its bytes alone, so the lead
  // (another region's bytes in the page) is safe to populate too.
  populate_ = ::madvise(map_, 1, MADV_POPULATE_WRITE) == 0;
  if (!populate_ && ::fallocate(fd_, 0, static_cast<off_t>(region_.offset), static_cast<off_t>(bytes)) != 0) {
    const int e = errno;
    unmap();
    throw_io_error("write failed", target_, e);
  }
  if (populate_) {
    // Thread t takes pieces t, t + T, ...: the front of the file first, where
    // the writers start. A failure stops it; the writer that reaches that
    // range reports it.
    stop_prefault_ = false;
    for (unsigned t = 0; t < kPrefaultThreads; ++t)
      prefault_.emplace_back([this, t] {
        for (std::uint64_t at = t * kPrefaultPiece; at < map_bytes_ && !stop_prefault_;
             at += kPrefaultThreads * kPrefaultPiece)
          if (::madvise(map_ + at, static_cast<std::size_t>(std::min(kPrefaultPiece, map_bytes_ - at)),
                        MADV_POPULATE_WRITE) != 0)
            return;
      });
  }
  return true;
}

void OutputFile::write_mapped(std::uint64_t at, const void* src, std::size_t n) {
  if (n == 0) return;
  std::memcpy(mapped_range(at, n), src, n);
}

std::byte* OutputFile::mapped_range(std::uint64_t at, std::size_t n) {
  at += map_lead_;
  if (map_ == nullptr || at + n > map_bytes_) throw IoError("write failed", target_, "write outside the mapped output");
  if (populate_ && n > 0) {
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    const std::uint64_t from = at / page * page;
    if (::madvise(map_ + from, static_cast<std::size_t>(at + n - from), MADV_POPULATE_WRITE) != 0)
      throw_io_error("write failed", target_, errno == ENOMEM || errno == EFAULT ? ENOSPC : errno);
  }
  return map_ + at;
}

void OutputFile::finish_writing() {
  if (map_ != nullptr) {
    unmap();
    if (mode_ != Mode::region && ::ftruncate(fd_, static_cast<off_t>(mapped_used_)) != 0)
      throw_io_error("write failed", target_, errno);
  }
  sink_->finish();
}

void OutputFile::commit() {
  finish_writing();
  // Every byte written came from inputs whole when they were read: one
  // that shrank while mapped left zeros in place of its lost tail.
  check_mapped_inputs();
  if (mode_ == Mode::stream || mode_ == Mode::region) {
    committed_ = true;
    return;
  }
  if (mode_ == Mode::in_place) {
    copy_over(fd_, final_path_, target_, sync_);
    committed_ = true;
    return;
  }
  {
    // The name beside the target lives only until the rename: a fatal signal waits.
    const DeferTermination hold;
    if (!named_temp_) {
      temp_path_ = link_beside(fd_, final_path_);
      named_temp_ = true;  // unlinked by the destructor unless renamed
    }
    if (::close(std::exchange(fd_, -1)) != 0) throw_io_error("write failed", target_, errno);
    if (::rename(temp_path_.c_str(), final_path_.c_str()) != 0)
      throw_io_error("cannot rename output to", target_, errno);
    committed_ = true;
  }
  // The rename itself is durable only once the directory is synced.
  if (!sync_) return;
  int d = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d >= 0) {
    int r = ::fsync(d);
    int e = errno;
    ::close(d);
    if (r != 0 && e != EINVAL) throw_io_error("fsync failed", dir_, e);
  }
}

}  // namespace corank::io
