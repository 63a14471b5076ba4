#pragma once
// The sorted output, written in order from staging memory: through a shared
// mapping by all of a pool's threads where the output file allows it (a file
// on tmpfs, see io::OutputFile::map_for_writing), else through the output's
// sink (write-behind through the I/O engine). The device pipeline and the
// engine-copy benchmark write through it.
#include <cstdint>
#include <functional>
#include <optional>

#include "corank/io/output_file.hpp"
#include "corank/io/worker_pool.hpp"

namespace corank {

class OutputWriter {
public:
  // max_bytes: the most the output will hold, when known (needed to map it).
  OutputWriter(io::OutputFile& out, io::WorkerPool& pool, std::optional<std::uint64_t> max_bytes)
      : out_(out), pool_(pool), mapped_(max_bytes && out.map_for_writing(*max_bytes)) {}

  void write(const std::byte* src, std::uint64_t bytes) {
    if (mapped_) {
      pool_.for_ranges(bytes, std::uint64_t{1} << 20, 1, [&](std::uint64_t b, std::uint64_t e) {
        out_.write_mapped(offset_ + b, src + b, static_cast<std::size_t>(e - b));
      });
    } else {
      out_.sink().write(src, static_cast<std::size_t>(bytes));
    }
    offset_ += bytes;
  }
  // Where mapped(): builds the next `bytes` of the output in place, f(dst, b,
  // e) writing bytes [b, e) of them at dst on the pool's threads (ranges are
  // whole multiples of `unit`).
  void fill(std::uint64_t bytes, std::uint64_t unit,
            const std::function<void(std::byte* dst, std::uint64_t b, std::uint64_t e)>& f) {
    pool_.for_ranges(bytes, std::uint64_t{1} << 20, unit, [&](std::uint64_t b, std::uint64_t e) {
      f(out_.mapped_range(offset_ + b, static_cast<std::size_t>(e - b)), b, e);
    });
    offset_ += bytes;
  }
  // The output keeps what was written (-u may have dropped records).
  void finish() {
    if (mapped_) out_.set_mapped_size(offset_);
  }
  bool mapped() const noexcept { return mapped_; }

private:
  io::OutputFile& out_;
  io::WorkerPool& pool_;
  bool mapped_;
  std::uint64_t offset_ = 0;
};

}  // namespace corank
