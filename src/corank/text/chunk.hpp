#pragma once
// A chunk of a text sort: whole records' bytes (read into `bytes`, or a
// window of mapped inputs) and an entry for each record. An entry is the
// record's prefix and where the record lies, in 40 bytes: each of a sort's
// records has one, so that their memory (the largest a text sort touches
// besides the bytes themselves; on a machine whose fresh memory is costly to
// touch, a large share of the sort's time) is 5/6 of what a 64-bit offset
// and a 64-bit length took. The offset takes 40 bits (a chunk spans at most
// RecordEntry::kMaxBytes), the length 23; a record of RecordEntry::kLong
// bytes or more (8 MiB: a rare JSON line or multi-line record) holds kLong
// there, and its chunk keeps its length (Chunk::long_records).
#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

#include "corank/io/huge_vector.hpp"
#include "corank/text/line_comparator.hpp"

namespace corank::text {

// The lengths of a chunk's records of RecordEntry::kLong bytes or more, by
// offset: in increasing order of offsets, as records are split off.
struct LongRecord {
  std::uint64_t offset;
  std::uint64_t length;
};
using LongRecords = std::vector<LongRecord>;

// A record in a chunk: its length at `offset`, then its terminator.
struct RecordEntry {
  static constexpr unsigned kOffsetBits = 40;
  static constexpr unsigned kLengthBits = 23;
  static constexpr std::uint64_t kMaxBytes = std::uint64_t{1} << kOffsetBits;  // a chunk's bytes at most
  static constexpr std::uint64_t kLong = (std::uint64_t{1} << kLengthBits) - 1;

  Prefix prefix;
  std::uint64_t offset : kOffsetBits;
  std::uint64_t length_code : kLengthBits;  // the length, or kLong: the chunk's long_records has it
  std::uint64_t spare : 1;                  // RecordEntry-sized types may use it (tied_records.cpp)

  RecordEntry() = default;
  // The entry of `length` bytes at `at`: a long record's length goes to `longs`
  // (the chunk's, or a list that later joins them in the order of offsets).
  RecordEntry(const Prefix& p, std::uint64_t at, std::uint64_t length, LongRecords& longs)
      : prefix(p), offset(at), length_code(std::min(length, kLong)), spare(0) {
    if (length >= kLong) longs.push_back({at, length});
  }
  // The entry of a record of the same chunk whose length code is `code`
  // (another entry's, whose long length the chunk has already).
  static RecordEntry with_code(const Prefix& p, std::uint64_t at, std::uint64_t code) noexcept {
    RecordEntry e;
    e.prefix = p;
    e.offset = at;
    e.length_code = code;
    e.spare = 0;
    return e;
  }
};
static_assert(sizeof(RecordEntry) == 40);

struct Chunk {
  io::HugeVector<char> bytes;  // only [0, used) is ever read
  std::uint64_t capacity = 0;
  std::uint64_t used = 0;
  io::HugeVector<RecordEntry> records;  // in input order
  LongRecords long_records;
  // Set: the records lie in a mapped input file here instead of in `bytes`.
  const char* mapped = nullptr;
  // The input bytes its fill consumed (ChunkReader::bytes_read's growth), for
  // the progress line: not `used`, which spans the gaps between mapped files.
  std::uint64_t input_bytes = 0;

  void reserve(std::uint64_t n) {  // keeps [0, used)
    bytes.reserve(n);
    capacity = std::max<std::uint64_t>(capacity, n);
  }
  void clear_records() noexcept {
    records.clear();
    long_records.clear();
  }
  const char* data() const noexcept { return mapped ? mapped : bytes.data(); }
  std::uint64_t length(const RecordEntry& e) const noexcept {
    if (e.length_code != RecordEntry::kLong) return e.length_code;
    const auto it = std::lower_bound(long_records.begin(), long_records.end(), std::uint64_t{e.offset},
                                     [](const LongRecord& r, std::uint64_t at) { return r.offset < at; });
    return it->length;
  }
  std::string_view record(const RecordEntry& e) const noexcept {
    return {data() + e.offset, static_cast<std::size_t>(length(e))};
  }
};

}  // namespace corank::text
