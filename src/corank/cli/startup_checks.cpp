#include "corank/cli/startup_checks.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "corank/io/error.hpp"

namespace corank::cli {

// Both as the process's effective user, as GNU's euidaccess and open are.
void check_inputs(const std::vector<std::string>& inputs) {
  for (const std::string& f : inputs)
    if (f != "-" && ::faccessat(AT_FDCWD, f.c_str(), R_OK, AT_EACCESS) != 0)
      throw io::IoError("cannot read", f, errno);
}

void check_output(const std::string& target) {
  if (target == "-") return;  // standard output
  if (target.empty()) throw io::IoError("open failed", target, ENOENT);  // no file has that name
  struct stat st {};
  if (::lstat(target.c_str(), &st) == 0) return;
  if (errno != ENOENT) throw io::IoError("open failed", target, errno);  // a component not a directory, or closed
  const auto slash = target.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : target.substr(0, slash == 0 ? 1 : slash);
  if (::faccessat(AT_FDCWD, dir.c_str(), W_OK | X_OK, AT_EACCESS) != 0)
    throw io::IoError("open failed", target, errno);
}

}  // namespace corank::cli
