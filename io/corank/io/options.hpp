#pragma once
// Knobs of the I/O layer, filled from the command line.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "corank/io/codec.hpp"

namespace corank::io {

class BufferAllocator;

struct IoOptions {
  // Defaults measured on the development machine (see tools/bench/bench_io.cpp):
  // 4 MiB requests, 8 in flight reach the device's sequential rate; larger
  // depths only add memory (queue_depth * block_size per open reader or writer).
  std::size_t block_size = std::size_t{4} << 20;  // bytes per request
  unsigned queue_depth = 8;                       // requests in flight per file
  bool use_uring = true;    // false, or CORANK_IO=pread in the environment, forces pread/pwrite
  bool direct = true;       // O_DIRECT where the file system and offsets allow it
  bool verbose = false;     // say on stderr which engine was chosen

  // Compression. Input: nullopt detects by suffix, then by magic bytes; a value
  // forces it (Codec::none reads the bytes as they are). Output: nullopt picks
  // by the target's suffix. Temp: the codec of spilled runs (make_run_sink/source).
  std::optional<Codec> input_codec;
  std::optional<Codec> output_codec;
  Codec temp_codec = Codec::none;

  // Where I/O buffers come from; nullptr is the default aligned-malloc allocator.
  // gpu/ may pass an allocator of pinned memory; it must outlive every reader/writer.
  BufferAllocator* allocator = nullptr;
};

}  // namespace corank::io
