#include "corank/mpi/scratch.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "corank/io/error.hpp"

namespace corank::mpi {

ScratchDir::ScratchDir(const std::vector<std::string>& temp_dirs) {
  std::string root = !temp_dirs.empty() ? temp_dirs[0] : "";
  if (root.empty())
    if (const char* t = std::getenv("TMPDIR"); t && *t) root = t;
  if (root.empty()) root = "/tmp";
  std::string templ = root + "/corank-mpi-XXXXXX";
  if (!::mkdtemp(templ.data())) throw io::IoError("cannot create temporary directory", templ, errno);
  path_ = templ;
}

ScratchDir::~ScratchDir() {
  for (const auto& f : files_) ::unlink(f.c_str());
  ::rmdir(path_.c_str());
}

std::string ScratchDir::file(const std::string& name) {
  files_.push_back(path_ + "/" + name);
  return files_.back();
}

RemoveUnlessKept::~RemoveUnlessKept() {
  if (!path.empty() && !keep) ::unlink(path.c_str());
}

std::string dir_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace corank::mpi
