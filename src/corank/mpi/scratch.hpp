#pragma once
// The files a rank makes on its way: its private scratch directory (received
// and sorted data), and files beside the target that appear under the
// target's name only at the end (the shared output, a part file).
#include <string>
#include <vector>

namespace corank::mpi {

// A rank's private directory of received and sorted data; removed with
// everything in it on every exit path.
class ScratchDir {
public:
  // In the first -T directory, else $TMPDIR, else /tmp.
  explicit ScratchDir(const std::vector<std::string>& temp_dirs);
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  // A name in the directory, removed with it.
  std::string file(const std::string& name);

private:
  std::string path_;
  std::vector<std::string> files_;
};

// A file that is removed unless kept (the shared output's temporary, a part
// file before its rename).
struct RemoveUnlessKept {
  std::string path;
  bool keep = false;
  RemoveUnlessKept() = default;
  RemoveUnlessKept(const RemoveUnlessKept&) = delete;
  RemoveUnlessKept& operator=(const RemoveUnlessKept&) = delete;
  ~RemoveUnlessKept();
};

// The directory of a path ("." for a bare name) and its last component.
std::string dir_of(const std::string& path);
std::string base_of(const std::string& path);

}  // namespace corank::mpi
