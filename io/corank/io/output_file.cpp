#include "corank/io/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "corank/io/compressed_stream.hpp"
#include "corank/io/error.hpp"
#include "corank/io/temp_files.hpp"

namespace corank::io {

OutputFile::OutputFile(const std::string& target, const IoOptions& opt) : target_(target), sync_(opt.sync_output) {
  if (target.empty() || target == "-") {
    target_ = "-";
    sink_ = make_fd_sink(STDOUT_FILENO, "standard output", opt);
    if (opt.output_codec) sink_ = compressing_sink(std::move(sink_), *opt.output_codec, "standard output");
    return;
  }
  auto slash = target.rfind('/');
  std::string dir = slash == std::string::npos ? "." : target.substr(0, slash == 0 ? 1 : slash);
  std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
  std::string tmpl = (dir == "/" ? "" : dir) + "/." + base + ".corank-XXXXXX";
  install_cleanup_handlers();
  fd_ = ::mkostemp(tmpl.data(), O_CLOEXEC);
  if (fd_ < 0) throw_io_error("cannot create output file in", dir, errno);
  temp_path_ = tmpl;
  cleanup_slot_ = register_cleanup(temp_path_);
  ::fchmod(fd_, 0666 & ~[] { mode_t m = ::umask(0); ::umask(m); return m; }());
  dir_ = dir;
  try {
    sink_ = make_fd_sink(fd_, target_, opt);
    const Codec codec = opt.output_codec ? *opt.output_codec : codec_from_suffix(target_);
    sink_ = compressing_sink(std::move(sink_), codec, target_);
    positional_ = codec == Codec::none;
  } catch (...) {
    // No destructor runs for a half-built object: undo the temporary file here.
    ::close(fd_);
    ::unlink(temp_path_.c_str());
    unregister_cleanup(cleanup_slot_);
    throw;
  }
}

OutputFile::~OutputFile() {
  sink_.reset();
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
  unregister_cleanup(cleanup_slot_);
}

void OutputFile::commit() {
  sink_->finish();
  if (temp_path_.empty()) {
    committed_ = true;
    return;
  }
  if (::close(std::exchange(fd_, -1)) != 0) throw_io_error("write failed", target_, errno);
  if (::rename(temp_path_.c_str(), target_.c_str()) != 0) throw_io_error("cannot rename output to", target_, errno);
  committed_ = true;
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
