#pragma once
// Spilled runs: written once sequentially, read back either sequentially
// (make_run_source, the only way when runs are compressed) or by positional
// segments (SegmentReader, segment_reader.hpp; uncompressed runs only, since
// the sparse index holds uncompressed offsets).
//
//   FileDesc fd = temps.create_anonymous();
//   auto sink = make_run_sink(fd.get(), "temporary file", opt);
//   sink->write(records, bytes);            // write-behind, several blocks in flight
//   sink->finish();                          // required before reading back; no fsync
//   SegmentReader reader(opt, "temporary file");
//   reader.read(segments);                   // {fd, offset, dst, n}, of any runs, all in flight at once
//   auto src = make_run_source(fd.get(), "temporary file", opt, 0, sink->stored_bytes());
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "corank/io/source.hpp"

namespace corank::io {

// Writes a run to fd (not owned) from its current offset, compressed with
// opt.temp_codec (fast levels) on `threads` threads at once
// (parallel_compressing_sink), or by opt.temp_program when set. finish()
// flushes without fsync: run files die with the process. stored_bytes() is
// the run's length in the file.
std::unique_ptr<ByteSink> make_run_sink(int fd, std::string name, const IoOptions& opt, unsigned threads = 1);

// Reads [offset, offset + length) of fd (not owned) with read-ahead,
// decompressing opt.temp_codec; length nullopt: to the end of the file. Under
// opt.temp_program, `PROG -d` reads from offset to the end of the file, so a
// run compressed by a program must be the last thing in its file.
std::unique_ptr<ByteSource> make_run_source(int fd, std::string name, const IoOptions& opt, std::uint64_t offset = 0,
                                            std::optional<std::uint64_t> length = std::nullopt);

}  // namespace corank::io
