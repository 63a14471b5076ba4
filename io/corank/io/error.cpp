#include "corank/io/error.hpp"

#include <algorithm>
#include <cstring>

namespace corank::io {

namespace {
std::string format(std::string_view op, std::string_view path, std::string_view why) {
  // One allocation, sized up front (also keeps GCC 12's -Wrestrict false
  // positive on chained appends quiet).
  std::string s(op.size() + path.size() + why.size() + 4, ':');
  char* p = s.data();
  p = std::copy(op.begin(), op.end(), p);
  p[1] = ' ';
  p = std::copy(path.begin(), path.end(), p + 2);
  p[1] = ' ';
  std::copy(why.begin(), why.end(), p + 2);
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
