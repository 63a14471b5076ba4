#pragma once
// The CPU path for records that are one 4- or 8-byte key (key_words_only.hpp)
// and fit the -S budget: read with all threads, turn into normalized words,
// radix sort the words, turn back into records and write with all threads. No
// entries, no positions, no gather: 16 bytes of memory a record with 8-byte
// records (the words take the records' place), 20 with 4-byte ones.
#include <cstdint>
#include <optional>

#include "corank/checksum.hpp"
#include "corank/format.hpp"
#include "corank/output_writer.hpp"
#include "corank/progress.hpp"
#include "corank/record_source.hpp"
#include "corank/sort_options.hpp"

namespace corank {

// Bytes the words sort holds for n records of `format`.
std::uint64_t words_sort_bytes(const RecordFormat& format, std::uint64_t n) noexcept;

// Whether the words sort takes these records: one key covering the record, a
// known record count, and words_sort_bytes within `budget`.
bool words_sort_applies(const RecordFormat& format, std::optional<std::uint64_t> records, std::uint64_t budget) noexcept;

struct WordsSortJob {
  const SortOptions& options;
  const RecordFormat& format;  // -r already applied
  RecordSource& source;        // positional: total_records() is known
  OutputWriter& output;
  io::WorkerPool& pool;
  Progress& progress;
  SortStats& stats;
  RecordChecksum* input_checksum;  // non-null: sum every record read (--verify)
};

void sort_words_on_cpu(const WordsSortJob& job);

}  // namespace corank
