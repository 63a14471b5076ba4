#include "corank/io/error.hpp"

#include <algorithm>
#include <cstring>

#include "corank/io/quote_name.hpp"
#include "corank/io/temp_files.hpp"

namespace corank::io {

namespace {

bool ends_in_preposition(std::string_view op) noexcept {
  return op.ends_with(" in") || op.ends_with(" to") || op.ends_with(" from");
}
// corank's own name for an unnamed temporary file (file_name_in_errors),
// not a path.
bool is_temporary_label(std::string_view path) noexcept {
  if (!path.starts_with(kTemporaryFile)) return false;
  const std::string_view rest = path.substr(kTemporaryFile.size());
  return rest.empty() || rest.starts_with(" in '") || rest.starts_with(" in \"");
}
// A compress program's command, always quoted as GNU's quoteaf quotes it.
bool names_a_command(std::string_view op) noexcept { return op.ends_with("compress program"); }

std::string format(std::string_view op, std::string_view path, std::string_view why) {
  std::string name;
  std::string_view between = ": ";
  if (is_temporary_label(path)) {
    name = path;
  } else if (ends_in_preposition(op)) {
    name = quote_name_always(path);
    between = " ";
  } else {
    name = names_a_command(op) ? quote_name_always(path) : quote_name(path);
  }
  // One allocation, sized up front, filled by copies (chained appends draw
  // GCC 12's -Wrestrict false positive).
  std::string s(op.size() + between.size() + name.size() + 2 + why.size(), ' ');
  char* p = std::copy(op.begin(), op.end(), s.data());
  p = std::copy(between.begin(), between.end(), p);
  p = std::copy(name.begin(), name.end(), p);
  *p++ = ':';
  std::copy(why.begin(), why.end(), p + 1);
  return s;
}

}  // namespace

IoError::IoError(std::string_view op, std::string_view path, int err)
    : std::runtime_error(format(op, path, std::strerror(err))), err_(err) {}

IoError::IoError(std::string_view op, std::string_view path, std::string_view why)
    : std::runtime_error(format(op, path, why)) {}

void throw_io_error(std::string_view op, std::string_view path, int err) {
  throw IoError(op, path, err);
}

}  // namespace corank::io
