#pragma once
// Sample sort's partition step, apart from MPI so that it can be tested alone:
// how records compare (exactly as corank::sort orders them), which N-1
// splitters cut a gathered sample into N even parts, and which part a record
// belongs to.
//
// Every record carries its position (its byte offset in the concatenated
// inputs). Comparing (record, position) makes every record distinct, so a run
// of equal keys can be cut anywhere and the parts stay even on duplicate-heavy
// input; since the ranks' shares and the receivers' per-source files keep
// input order, a stable local sort then gives the single-process order. Under
// -u the first of equal records must meet the others on one rank, so there
// the position is left out and equal keys never straddle a cut.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "corank/format.hpp"
#include "corank/normalize.hpp"
#include "corank/text/text_format.hpp"

namespace corank::mpi {

// The order corank::sort gives records (keys, -r, GNU's last resort).
class RecordOrder {
public:
  virtual ~RecordOrder() = default;
  // <0, 0, >0. Records exclude a text record's terminator.
  virtual int compare(std::string_view a, std::string_view b) const = 0;
};

class BinaryOrder final : public RecordOrder {
public:
  BinaryOrder(const RecordFormat& format, bool reverse) : keys_(format), reverse_(reverse) {}
  int compare(std::string_view a, std::string_view b) const override;
  const KeyNormalizer& keys() const noexcept { return keys_; }
  bool reverse() const noexcept { return reverse_; }

private:
  KeyNormalizer keys_;
  bool reverse_;
};

class TextOrder final : public RecordOrder {
public:
  explicit TextOrder(std::unique_ptr<text::TextFormat> format) : format_(std::move(format)) {}
  int compare(std::string_view a, std::string_view b) const override { return format_->compare(a, b); }
  const text::TextFormat& format() const noexcept { return *format_; }

private:
  std::unique_ptr<text::TextFormat> format_;
};

struct Sample {
  std::string record;
  std::uint64_t position = 0;
  // How many sample offsets it stands for: a record that covers several is
  // taken once, weighing as much as so many equal samples would.
  std::uint64_t weight = 1;
};

class Partitioner {
public:
  // by_position: ties of the order are broken by position (false under -u).
  Partitioner(const RecordOrder& order, bool by_position) : order_(order), by_position_(by_position) {}

  // Whether (record, position) comes before splitter s.
  bool precedes(std::string_view record, std::uint64_t position, const Sample& s) const;
  // Sorts the gathered samples and keeps the parts-1 cut points that split
  // them evenly by weight; none when there are no samples.
  void choose_splitters(std::vector<Sample> samples, unsigned parts);
  // The part of a record: the number of splitters at or before it.
  unsigned part_of(std::string_view record, std::uint64_t position) const;
  const std::vector<Sample>& splitters() const noexcept { return splitters_; }
  bool by_position() const noexcept { return by_position_; }

private:
  const RecordOrder& order_;
  bool by_position_;
  std::vector<Sample> splitters_;
};

// Indices of `want` records spread evenly over [0, count): all of them when
// count <= want.
std::vector<std::uint64_t> regular_sample(std::uint64_t count, std::uint64_t want);

// Bytes [begin, end) of `total` that rank r of n starts from: total*r/n
// rounded down to a multiple of `unit` (the record size; 1 for text, whose
// cuts the caller moves to line starts).
std::uint64_t share_begin(std::uint64_t total, unsigned rank, unsigned ranks, std::uint64_t unit);

// Largest part over the mean part; 1 when everything is empty.
double partition_skew(const std::vector<std::uint64_t>& part_sizes);

}  // namespace corank::mpi
