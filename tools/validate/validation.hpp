#pragma once
// One validation run: the sorted file's order, duplicates and checksums, and
// optionally whether it holds exactly the records of the unsorted input(s).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "record_checksum.hpp"

namespace corank::tools {

struct ValidateOptions {
  std::string file;                 // "-" = standard input
  std::string format = "gensort";   // as corank --format takes it
  std::vector<std::string> keys;    // as corank --key takes them
  bool reverse = false;
  bool unique = false;
  std::vector<std::string> inputs;  // unsorted input files, optional
  unsigned threads = 1;             // blocks checked at once
};

struct ValidationReport {
  std::string file;
  std::string format;
  std::uint32_t record_size = 0;
  bool reverse = false;
  bool unique = false;
  std::uint64_t records = 0;
  std::optional<std::uint64_t> first_disorder;
  std::uint64_t disorders = 0;
  std::uint64_t duplicates = 0;
  RecordChecksum checksum;
  std::vector<std::string> inputs;
  RecordChecksum input_checksum;  // of all inputs together; meaningful when !inputs.empty()

  bool in_order() const noexcept { return disorders == 0; }
  bool matches_input() const noexcept { return inputs.empty() || checksum == input_checksum; }
  bool valid() const noexcept { return in_order() && !(unique && duplicates > 0) && matches_input(); }
};

// Throws corank::UsageError (bad --format/--key), RecordSizeError, corank::io::IoError.
ValidationReport validate(const ValidateOptions& options);

}  // namespace corank::tools
