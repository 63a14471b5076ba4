#include "corank/io/error.hpp"

#include <cstring>

namespace corank::io {

namespace {
std::string format(std::string_view op, std::string_view path, std::string_view why) {
  std::string s;
  s.append(op).append(": ").append(path).append(": ").append(why);
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
