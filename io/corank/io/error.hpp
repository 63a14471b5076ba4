#pragma once
// Errors from io/: one exception type whose message names the operation, the
// file and strerror, ready for the CLI's one-line "corank: <msg>" report.
//
// The file is named as GNU sort names it (quote_name.hpp): "read failed:
// 'a b': Is a directory", "write failed: 'standard output': ...". An
// operation that ends in a preposition takes the name after it, always
// quoted: "cannot create temporary file in '/tmp': ...", as is a compress
// program's command ("compress program: 'xz -d': ..."). Unnamed temporary
// files are named by corank's own label (temp_files.hpp's kTemporaryFile,
// "temporary file in '/tmp'", its directory quoted already), which stays as
// it is.
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
