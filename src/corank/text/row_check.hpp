#pragma once
// Records held to their format as the inputs are read, before any output
// exists: a record the format cannot order (TextFormat::record_problem: a JSON
// line that is no object, a pgtext row holding \.), and a row whose number of
// fields differs from the first input's header's (or, without a header, from
// the first row's) are an error naming the file and the physical line where
// the record starts (InputError, exit 2), or, under --rejects FILE, go to FILE
// unchanged and are counted, and the sort goes on: PostgreSQL's COPY ...
// ON_ERROR and DuckDB's store_rejects are the models; nothing is lost, each
// input record is in the output or in FILE. A line the format skips (a blank
// JSON line, as jq skips it) is neither.
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "corank/io/options.hpp"
#include "corank/io/output_file.hpp"
#include "corank/text/record_writer.hpp"
#include "corank/text/text_format.hpp"

namespace corank::text {

// The file of --rejects: written as the sort goes, through an io::OutputFile,
// so that it appears (atomically, replacing an older one) only when commit()
// is called, once the sort has succeeded; a failed sort leaves the old file
// or none. Safe to add to from any thread.
class Rejects {
public:
  Rejects(const std::string& path, const io::IoOptions& io, char terminator);
  // A record (without its terminator, which is added), and where and why it
  // was refused: "FILE:LINE: why".
  void add(std::string_view record, const std::string& place_and_why);
  std::uint64_t count() const;
  // The first rejected record's "FILE:LINE: why" ("" while none).
  std::string first() const;
  const std::string& path() const noexcept { return path_; }
  void commit();

private:
  std::string path_;
  mutable std::mutex mutex_;
  io::OutputFile out_;
  RecordWriter writer_;
  std::uint64_t count_ = 0;
  std::string first_;
};

class RowCheck {
public:
  // `rejects` null: a bad record is an error.
  RowCheck(const TextFormat& format, Rejects* rejects) : format_(format), rejects_(rejects) {}

  // Whether the readers need to consult admit(): the format checks its records.
  bool active() const { return format_.checks_records(); }
  // The first input's header, read from `file`: every row has its number of fields.
  void set_header(std::string_view header, const std::string& file);
  // Whether `record`, of `file`, starting at physical line `line`, joins the
  // sort: false for a line the format skips and for a bad record gone to the
  // rejects; a bad record without rejects throws InputError("FILE:LINE: why").
  bool admit(std::string_view record, const std::string& file, std::uint64_t line);

  Rejects* rejects() const noexcept { return rejects_; }
  void reject_to(Rejects* rejects) noexcept { rejects_ = rejects; }

private:
  void refuse(std::string_view record, const std::string& file, std::uint64_t line, const std::string& why);

  const TextFormat& format_;
  Rejects* rejects_;
  std::optional<std::uint64_t> fields_;  // what every row must have, once known
  std::string fields_from_;              // whose: "the header of a.csv", "the first row (a.csv:1)"
};

}  // namespace corank::text
