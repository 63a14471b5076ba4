#pragma once
// Knobs of the I/O layer, filled from the command line.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "corank/io/codec.hpp"

namespace corank::io {

class BufferAllocator;
class Diagnostics;

// Bytes [offset, offset + size) of a file: the part of it one writer fills.
struct OutputRegion {
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
};

struct IoOptions {
  // Defaults measured on the development machine (see tools/bench/bench_io.cpp):
  // 4 MiB requests, 8 in flight reach the device's sequential rate; larger
  // depths only add memory (queue_depth * block_size per open reader or writer).
  std::size_t block_size = std::size_t{4} << 20;  // bytes per request
  unsigned queue_depth = 8;                       // requests in flight per file
  bool use_uring = true;    // false, or CORANK_IO=pread in the environment, forces pread/pwrite
  // Why use_uring is false, for the -v note of the engine chosen: the
  // user's option unless corank chose pread itself and said why here.
  const char* pread_reason = "--io-engine=pread";
  bool direct = true;       // O_DIRECT where the file system and offsets allow it
  bool verbose = false;     // note (below) which engine was chosen, and the sorter's plan and stage times
  // Where notes and warnings go (diagnostics.hpp); nullptr: nowhere.
  Diagnostics* diagnostics = nullptr;
  // Input files read through the page cache (not O_DIRECT) are read with this
  // many threads at once, each a contiguous part of every read() (see
  // read_ahead_source.hpp): one thread copies from the page cache at a fraction
  // of the memory bandwidth. Spilled runs ignore it.
  unsigned read_threads = 1;
  // Whether the committed output is fsynced (with its directory) before and
  // after the rename. Off, the output is as durable as GNU sort's: written to
  // the page cache, lost if the machine fails before the kernel writes it back.
  bool sync_output = true;
  // Set: the output is this region of the existing regular file the target
  // names, which another party created, sized and commits or removes (several
  // writers filling one file at once: corank-mpi's ranks). OutputFile writes
  // it in place and touches nothing outside it (output_file.hpp).
  std::optional<OutputRegion> output_region;
  // Where an output that cannot be renamed over its target (a file with
  // several hard links: output_file.hpp) is written before it is copied in:
  // the first -T directory. Empty: $TMPDIR, else /tmp.
  std::string staging_dir;

  // Compression. Input: nullopt detects by suffix, then by magic bytes; a value
  // forces it (Codec::none reads the bytes as they are). Output: nullopt picks
  // by the target's suffix. Temp: the codec of spilled runs (make_run_sink/source).
  std::optional<Codec> input_codec;
  std::optional<Codec> output_codec;
  Codec temp_codec = Codec::none;
  // Not empty: spilled runs go through this program instead (GNU's
  // --compress-program; program_codec.hpp), and temp_codec is not used.
  std::string temp_program;

  // Whether spilled runs are compressed, by a codec or a program: then they are
  // read back only sequentially, from their start.
  bool compressed_runs() const noexcept { return temp_codec != Codec::none || !temp_program.empty(); }

  // Where I/O buffers come from; nullptr is the default aligned-malloc allocator.
  // gpu/ may pass an allocator of pinned memory; it must outlive every reader/writer.
  BufferAllocator* allocator = nullptr;
};

}  // namespace corank::io
