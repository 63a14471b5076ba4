#pragma once
// Counting, as chunks are sorted, the key values that did not read as their
// type or were NULL (TextFormat::value_checks): once per record read, on all
// threads, each into counters of its own that are summed at the end of the
// chunk. Where the record's prefix shows its first key read (nearly always),
// the record itself is not looked at again: for a single time key the whole
// cost is one byte of each record's entry.
#include <cstdint>
#include <vector>

#include "corank/sort_options.hpp"
#include "corank/text/chunk_reader.hpp"
#include "corank/text/text_format.hpp"

namespace corank::text {

class KeyValueTally {
public:
  // Adds the chunk's records to the counts; the first chunk, after the
  // header named the columns, fixes which keys are counted.
  void add(const TextFormat& format, const Chunk& chunk, unsigned threads);
  // The counts so far: empty where no key can fail to read or be NULL.
  const std::vector<KeyValueCounts>& counts() const noexcept { return counts_; }

private:
  bool started_ = false;
  std::vector<KeyValueCounts> counts_;
};

}  // namespace corank::text
