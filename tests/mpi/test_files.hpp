#pragma once
// A scratch directory for one test, removed with what is in it, and whole
// files written and read back.
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace corank::mpi::testing {

class TestDir {
public:
  TestDir() {
    std::string templ = (std::filesystem::temp_directory_path() / "corank-mpi-stage-XXXXXX").string();
    path_ = ::mkdtemp(templ.data()) ? templ : throw std::runtime_error("mkdtemp failed");
  }
  ~TestDir() { std::filesystem::remove_all(path_); }
  TestDir(const TestDir&) = delete;
  TestDir& operator=(const TestDir&) = delete;
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

inline void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f << bytes;
}

inline std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), {});
}

}  // namespace corank::mpi::testing
