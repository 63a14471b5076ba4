// The inputs as one snapshot: a rank holds its files to rank 0's sizes (a
// file grown since is read to the snapshot's end, one shorter is refused by
// name), and a file that shrinks while it is read is an error, never a
// shorter read.
#include "corank/mpi/inputs.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "corank/errors.hpp"
#include "corank/io/error.hpp"
#include "test_files.hpp"

namespace corank::mpi {
namespace {

using testing::TestDir;
using testing::write_file;

std::string read_all(const Inputs& in) {
  std::string s(in.total(), '\0');
  in.read(0, reinterpret_cast<std::byte*>(s.data()), s.size());
  return s;
}

TEST(MpiInputs, SnapshotOfTheSizes) {
  TestDir dir;
  write_file(dir / "a", "alpha\n");
  write_file(dir / "b", "");
  write_file(dir / "c", "gamma\ndelta\n");
  Inputs in({dir / "a", dir / "b", dir / "c"});
  EXPECT_EQ(in.sizes(), (std::vector<std::uint64_t>{6, 0, 12}));
  EXPECT_EQ(in.total(), 18u);
  EXPECT_EQ(in.file_of(6), 2u);  // never the empty file
  EXPECT_EQ(read_all(in), "alpha\ngamma\ndelta\n");
}

TEST(MpiInputs, GrownFileReadToTheSnapshot) {
  TestDir dir;
  write_file(dir / "log", "one\ntwo\nthree\n");
  Inputs in({dir / "log"}, {8});  // rank 0 saw "one\ntwo\n"
  EXPECT_EQ(in.total(), 8u);
  EXPECT_EQ(read_all(in), "one\ntwo\n");
  EXPECT_EQ(line_start_at_or_after(in, 5, '\n'), 8u);
}

TEST(MpiInputs, ShorterFileRefusedByName) {
  TestDir dir;
  write_file(dir / "data.txt", "short\n");
  try {
    Inputs in({dir / "data.txt"}, {600});
    FAIL() << "a file shorter than the snapshot was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              dir / "data.txt" + ": shorter (6 bytes) than when the sort started (600 bytes on rank 0)");
  }
}

TEST(MpiInputs, FileThatShrinksWhileReadIsAnError) {
  TestDir dir;
  write_file(dir / "data.txt", std::string(10000, 'x'));
  Inputs in({dir / "data.txt"});
  ASSERT_EQ(::truncate((dir / "data.txt").c_str(), 5000), 0);
  std::string buf(3000, '\0');
  in.read(1000, reinterpret_cast<std::byte*>(buf.data()), buf.size());  // still there
  try {
    in.read(4000, reinterpret_cast<std::byte*>(buf.data()), buf.size());
    FAIL() << "a short read was accepted";
  } catch (const io::IoError& e) {
    EXPECT_NE(std::string(e.what()).find("the file shrank while it was being read"), std::string::npos) << e.what();
  }
}

TEST(MpiInputs, MissingFileSaysWhich) {
  TestDir dir;
  write_file(dir / "here", "x\n");
  try {
    Inputs in({dir / "here", dir / "gone"});
    FAIL();
  } catch (const io::IoError& e) {
    EXPECT_EQ(std::string(e.what()), "open failed: " + dir / "gone" + ": No such file or directory");
  }
}

}  // namespace
}  // namespace corank::mpi
