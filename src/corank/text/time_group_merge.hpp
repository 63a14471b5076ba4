#pragma once
// Lines from inputs whose time keys read timestamps by different rules: each
// input's own year reference (its modification time) and detected formats
// (time_inputs.hpp). A record's instant then depends on the file it came
// from, which its text does not say, so such inputs are sorted group by group
// (the inputs of one rules together, each group into a sorted file of its
// own), and the groups' files are merged here, every record compared under
// its own group's rules (LineComparator::compare_across). -u holds across
// groups: a record whose keys equal the last one written is dropped.
#include <span>
#include <string>

#include "corank/io/options.hpp"
#include "corank/sort_options.hpp"
#include "corank/text/text_format.hpp"

namespace corank::text {

struct TimeGroupFile {
  std::string path;             // the group's sorted records
  const TextFormat* format;     // the group's: where its records end, their prefixes
  const LineComparator* order;  // the group's comparison
  std::uint64_t head_bytes = 0;  // --multiline: its inputs' heads, the file's first bytes (SortStats::head_bytes)
};

// Merges the groups' files into `output`, committed when done; adds the
// records and bytes written to `stats`. Throws io::IoError; then the output
// target is untouched.
void merge_time_groups(std::span<const TimeGroupFile> groups, const std::string& output, bool unique,
                       const io::IoOptions& io, SortStats& stats);

}  // namespace corank::text
