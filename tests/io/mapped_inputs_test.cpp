// io::MappedInputs: several files mapped side by side, each from a page
// boundary; all or none of them mapped; a file among them that shrinks is the
// input error that one mapped file gives, naming that file.
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "corank/io/mapped_inputs.hpp"
#include "io_test_util.hpp"

namespace corank::io::test {
namespace {

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

TEST(MappedInputs, MapsFilesSideBySideFromPageBoundaries) {
  ScratchDir dir;
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::vector<std::string> data = {pattern(5000), "", pattern(3 * page), "x"};
  std::vector<std::string> paths;
  std::vector<std::uint64_t> sizes;
  for (std::size_t i = 0; i < data.size(); ++i) {
    paths.push_back(dir.file("in" + std::to_string(i)));
    write_file(paths.back(), data[i]);
    sizes.push_back(data[i].size());
  }
  auto m = MappedInputs::map_if_resident(paths, IoOptions{}, sizes, UINT64_MAX);
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->files(), 4u);
  std::uint64_t at = 0, before = 0;
  for (std::size_t i = 0; i < data.size(); ++i) {
    EXPECT_EQ(m->begin(i), at) << i;
    EXPECT_EQ(m->end(i) - m->begin(i), data[i].size()) << i;
    EXPECT_EQ(std::memcmp(m->data() + m->begin(i), data[i].data(), data[i].size()), 0) << i;
    EXPECT_EQ(m->file_bytes_before(m->end(i)), before + data[i].size()) << i;
    before += data[i].size();
    for (std::uint64_t z = m->end(i); z < (m->end(i) + page - 1) / page * page; ++z)
      ASSERT_EQ(m->data()[z], std::byte{0}) << i << " " << z;  // the rest of a file's last page
    at += (data[i].size() + page - 1) / page * page;
  }
  EXPECT_EQ(m->size(), at);
  EXPECT_EQ(m->file_bytes_before(m->begin(2) + 10), data[0].size() + 10);
  m->drop(0, m->size());  // out of the process, not gone: mapped again when read
  EXPECT_EQ(std::memcmp(m->data() + m->begin(2), data[2].data(), data[2].size()), 0);
  // Larger than allowed, or one of them better read: none is mapped.
  EXPECT_EQ(MappedInputs::map_if_resident(paths, IoOptions{}, sizes, at - 1), nullptr);
  auto with_pipe = paths;
  with_pipe[1] = "-";
  EXPECT_EQ(MappedInputs::map_if_resident(with_pipe, IoOptions{}, {5000, 10, 3 * page, 1}, UINT64_MAX), nullptr);
  EXPECT_EQ(MappedInputs::map_if_resident({paths[1]}, IoOptions{}, {0}, UINT64_MAX), nullptr);  // nothing to map
}

TEST(MappedInputsDeathTest, AFileAmongThemThatShrinksIsAnInputErrorNamingIt) {
  GTEST_FLAG_SET(death_test_style, "fast");
  ScratchDir dir;
  write_file(dir.file("a.log"), pattern(100'000));
  write_file(dir.file("b.log"), pattern(200'000));
  auto m = MappedInputs::map_if_resident({dir.file("a.log"), dir.file("b.log")}, IoOptions{}, {100'000, 200'000},
                                         UINT64_MAX);
  ASSERT_NE(m, nullptr);
  EXPECT_EXIT(
      {
        if (::truncate(dir.file("b.log").c_str(), 0) != 0) std::abort();
        volatile std::byte last = m->data()[m->end(1) - 1];
        (void)last;
        std::abort();  // not reached: the read above raises SIGBUS
      },
      ::testing::ExitedWithCode(2),
      "read failed: [^\n]*b\\.log: the file shrank while it was being read \\(from 200000 to 0 bytes\\)");
}

}  // namespace
}  // namespace corank::io::test
