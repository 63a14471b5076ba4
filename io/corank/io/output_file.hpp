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
#include <memory>
#include <string>

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
};

}  // namespace corank::io
