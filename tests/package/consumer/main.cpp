// A program built against an installed corank: sorts a few u64 values through
// the library and checks the result.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "corank/sort_options.hpp"
#include "corank/version.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const std::string in = std::string(argv[1]) + "/in.u64", out = std::string(argv[1]) + "/out.u64";
  const std::vector<std::uint64_t> values = {42, 7, 1ULL << 40, 0, 7, 99, ~0ULL, 3};
  std::ofstream(in, std::ios::binary)
      .write(reinterpret_cast<const char*>(values.data()), std::streamsize(values.size() * sizeof(std::uint64_t)));

  corank::SortOptions opt;
  opt.inputs = {in};
  opt.output = out;
  opt.format = corank::parse_format("u64", {});
  opt.memory_budget = std::uint64_t{64} << 20;
  const corank::SortStats stats = corank::sort_files(opt);

  std::ifstream f(out, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(f), {}};
  std::vector<std::uint64_t> sorted(bytes.size() / sizeof(std::uint64_t));
  bytes.copy(reinterpret_cast<char*>(sorted.data()), bytes.size());
  const std::vector<std::uint64_t> expected = {0, 3, 7, 7, 42, 99, 1ULL << 40, ~0ULL};
  if (sorted != expected || stats.records_out != expected.size()) {
    std::fprintf(stderr, "corank %s: wrong result\n", corank::version());
    return 1;
  }
  std::printf("corank %s sorted %llu records\n", corank::version(),
              static_cast<unsigned long long>(stats.records_out));
  return 0;
}
