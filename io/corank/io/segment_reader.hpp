#pragma once
// Reads many (file, offset, length) segments at once through one I/O engine:
// the merge loads each slab's k run segments with every request of every run
// in flight together, on one io_uring ring however many runs there are.
// Reads go through the descriptors given, with no O_DIRECT of the reader's
// own; a run written through a WriteBehindSink must be finish()ed first.
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "corank/io/io_engine.hpp"
#include "corank/io/options.hpp"

namespace corank::io {

struct Segment {
  int fd = -1;
  std::uint64_t offset = 0;
  std::byte* dst = nullptr;
  std::uint64_t length = 0;
};

class SegmentReader {
public:
  SegmentReader(const IoOptions& opt, std::string name);
  // Reads every segment in full; throws IoError on a failed read, and
  // IoError("read failed", name, "run ended early") on a short one.
  void read(std::span<const Segment> segments);
  std::string_view engine_name() const noexcept { return engine_->name(); }

private:
  std::unique_ptr<IoEngine> engine_;
  std::size_t block_;
  std::string name_;
};

}  // namespace corank::io
