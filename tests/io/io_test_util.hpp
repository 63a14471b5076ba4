#pragma once
// Helpers shared by the io/ tests: a scratch directory under /tmp, file
// contents, deterministic data, and the engine parameter (io_uring, pread).
#include <dirent.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "corank/io/io_engine.hpp"
#include "corank/io/options.hpp"

namespace corank::io::test {

class ScratchDir {
public:
  ScratchDir() {
    char tmpl[] = "/tmp/corank-io-test-XXXXXX";
    if (!::mkdtemp(tmpl)) std::abort();
    path_ = tmpl;
  }
  ~ScratchDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  // Every entry but . and .. (hidden temporaries included).
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    if (DIR* d = ::opendir(path_.c_str())) {
      while (dirent* e = ::readdir(d)) {
        std::string n = e->d_name;
        if (n != "." && n != "..") out.push_back(n);
      }
      ::closedir(d);
    }
    return out;
  }

private:
  std::string path_;
};

inline std::string pattern(std::uint64_t n, std::uint32_t seed = 1) {
  std::string s(n, '\0');
  std::mt19937_64 rng(seed);
  for (auto& c : s) c = static_cast<char>(rng());
  return s;
}

inline std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

inline void spit(const std::string& path, const std::string& data) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
}

enum class Engine { uring, pread };

inline const char* engine_label(Engine e) { return e == Engine::uring ? "io_uring" : "pread"; }

// Options for the engine under test, with small blocks so that a few MiB
// already take many requests, requeues and buffer reuse.
inline IoOptions options_for(Engine e, std::size_t block = std::size_t{64} << 10, unsigned depth = 4) {
  IoOptions o;
  o.use_uring = e == Engine::uring;
  o.block_size = block;
  o.queue_depth = depth;
  return o;
}

// Skips io_uring cases where the kernel refuses rings, saying why.
#define CORANK_REQUIRE_ENGINE(e)                                                                   \
  do {                                                                                             \
    if ((e) == ::corank::io::test::Engine::uring && !::corank::io::uring_available())              \
      GTEST_SKIP() << "io_uring is not available here (io_uring_queue_init failed)";               \
    if ((e) == ::corank::io::test::Engine::uring && std::getenv("CORANK_IO"))                     \
      ::unsetenv("CORANK_IO");                                                                     \
  } while (0)

}  // namespace corank::io::test
