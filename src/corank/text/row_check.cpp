#include "corank/text/row_check.hpp"

#include "corank/errors.hpp"

namespace corank::text {

Rejects::Rejects(const std::string& path, const io::IoOptions& io, char terminator)
    : path_(path), out_(path, io), writer_(out_.sink(), terminator, nullptr, std::size_t{64} << 10) {}

void Rejects::add(std::string_view record, const std::string& place_and_why) {
  const std::lock_guard lock(mutex_);
  writer_.write(record);
  if (count_++ == 0) first_ = place_and_why;
}

std::uint64_t Rejects::count() const {
  const std::lock_guard lock(mutex_);
  return count_;
}

std::string Rejects::first() const {
  const std::lock_guard lock(mutex_);
  return first_;
}

void Rejects::commit() {
  const std::lock_guard lock(mutex_);
  writer_.finish();
  out_.commit();
}

void RowCheck::set_header(std::string_view header, const std::string& file) {
  fields_ = format_.field_count(header);
  fields_from_ = "the header of " + file;
}

void RowCheck::refuse(std::string_view record, const std::string& file, std::uint64_t line, const std::string& why) {
  std::string place = file + ":" + std::to_string(line) + ": " + why;
  if (!rejects_) throw InputError(place);
  rejects_->add(record, place);
}

bool RowCheck::admit(std::string_view record, const std::string& file, std::uint64_t line) {
  if (format_.skips(record)) return false;
  if (auto p = format_.record_problem(record)) {
    refuse(record, file, line + p->lines_in, p->why);
    return false;
  }
  const std::optional<std::uint64_t> n = format_.field_count(record);
  if (!n) return true;
  if (!fields_) {
    fields_ = n;
    fields_from_ = "the first row (" + file + ":" + std::to_string(line) + ")";
    return true;
  }
  if (*n == *fields_) return true;
  refuse(record, file, line,
         std::to_string(*n) + (*n == 1 ? " field" : " fields") + ", where " + fields_from_ + " has " +
             std::to_string(*fields_));
  return false;
}

}  // namespace corank::text
