#pragma once
// Fills blocks of records and streams them to a file descriptor in constant memory.
#include <cstdint>
#include <string>

#include "gen_spec.hpp"
#include "key_material.hpp"

namespace corank::tools {

class Generator {
public:
  explicit Generator(const GenSpec& spec);

  std::uint32_t record_size() const noexcept { return record_size_; }
  // Writes the records numbered first..first+count-1 to out (count * record_size() bytes).
  // A record's bytes depend only on the spec's seed, format, dist and its number.
  void fill(std::uint64_t first, std::uint64_t count, std::uint8_t* out) const noexcept;

private:
  GenSpec spec_;
  std::uint32_t record_size_;
  KeyMaterialSource material_;
};

// Writes spec.count records starting at spec.start to fd in blocks of about
// 1 MiB; `path` names fd in error messages. Throws corank::io::IoError.
void write_records(const GenSpec& spec, int fd, const std::string& path);

}  // namespace corank::tools
