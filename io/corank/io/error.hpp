#pragma once
// Errors from io/: one exception type whose message names the operation, the
// path and strerror, ready for the CLI's one-line "corank: <msg>" report.
#include <stdexcept>
#include <string>
#include <string_view>

namespace corank::io {

class IoError : public std::runtime_error {
public:
  IoError(std::string_view op, std::string_view path, int err);
  IoError(std::string_view op, std::string_view path, std::string_view why);
  int error_code() const noexcept { return err_; }

private:
  int err_ = 0;
};

// Throws IoError for a failed syscall; err is a positive errno value.
[[noreturn]] void throw_io_error(std::string_view op, std::string_view path, int err);

}  // namespace corank::io
