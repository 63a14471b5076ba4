// ReceivedPieces: each sender's bytes in the order sent, in memory while they
// fit the limit, in files (what was in memory first) once they do not, and in
// files from the start for text (a header leads each file); the files have no
// name, so nothing is ever left in the scratch directory.
#include "corank/mpi/received_pieces.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace corank::mpi {
namespace {

namespace fs = std::filesystem;

std::string slurp(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), {});
}

class ReceivedPiecesTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("corank-received-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    space_ = std::make_unique<ScratchSpace>(std::vector<std::string>{dir_.string()});
  }
  void TearDown() override {
    space_.reset();
    fs::remove_all(dir_);
  }

  ReceivedPieces::Plan plan(std::uint64_t limit, std::string header = "") {
    ReceivedPieces::Plan p;
    p.senders = 3;
    p.most_from = {1 << 20, 1 << 20, 1 << 20};
    p.memory_limit = limit;
    p.header = std::move(header);
    p.threads = 4;
    p.create_file = [this](unsigned s) { return space_->create("from-" + std::to_string(s)); };
    return p;
  }

  // Appends the same rounds to `pieces` and to the expected strings.
  void feed(ReceivedPieces& pieces, std::vector<std::string>& want) {
    want.assign(3, "");
    for (int round = 0; round < 40; ++round)
      for (unsigned s = 0; s < 3; ++s) {
        const std::string bytes(static_cast<std::size_t>(round * 997 % 5000 + s), static_cast<char>('a' + round % 26));
        pieces.append(s, bytes.data(), bytes.size());
        want[s] += bytes;
      }
  }

  fs::path dir_;
  std::unique_ptr<ScratchSpace> space_;
};

TEST_F(ReceivedPiecesTest, InMemoryWhileUnderTheLimit) {
  ReceivedPieces pieces(plan(1 << 20));
  std::vector<std::string> want;
  feed(pieces, want);
  ASSERT_TRUE(pieces.in_memory());
  const auto b = pieces.buffers();
  ASSERT_EQ(b.size(), 3u);
  for (unsigned s = 0; s < 3; ++s) {
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(b[s].data()), b[s].size()), want[s]);
    EXPECT_EQ(pieces.bytes(s), want[s].size());
  }
  const auto joined = pieces.joined();  // close together: moved by one thread
  EXPECT_TRUE(std::string(reinterpret_cast<const char*>(joined.data()), joined.size()) == want[0] + want[1] + want[2]);
  EXPECT_TRUE(fs::is_empty(dir_));
}

// A round received straight into the pieces: each sender's bytes at base() +
// end(s), after what it sent before (appended or received so).
TEST_F(ReceivedPiecesTest, RoundsReceivedWhereTheyStay) {
  ReceivedPieces pieces(plan(1 << 20));
  std::vector<std::string> want(3);
  for (int round = 0; round < 20; ++round) {
    pieces.append(1, "ab", 2);  // some through append
    want[1] += "ab";
    const std::vector<std::uint64_t> n{static_cast<std::uint64_t>(round * 37), 0, static_cast<std::uint64_t>(round + 1)};
    ASSERT_TRUE(pieces.make_room(n));
    for (unsigned s = 0; s < 3; ++s) {
      const std::string bytes(static_cast<std::size_t>(n[s]), static_cast<char>('a' + (round + static_cast<int>(s)) % 26));
      std::memcpy(pieces.base() + pieces.end(s), bytes.data(), bytes.size());
      pieces.appended(s, n[s]);
      want[s] += bytes;
    }
  }
  const auto b = pieces.buffers();
  for (unsigned s = 0; s < 3; ++s)
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(b[s].data()), b[s].size()), want[s]) << "sender " << s;
  // Past the limit, or past a sender's share: no room, the pieces unchanged.
  EXPECT_FALSE(pieces.make_room({1 << 20, 0, 0}));
  ReceivedPieces tight(plan(1000));
  EXPECT_FALSE(tight.make_room({600, 0, 401}));
  EXPECT_TRUE(tight.make_room({600, 0, 400}));
}

// Joined, the pieces lie end to end in sender order: moved by one thread
// where they are close, in waves of parallel slices where they are far apart
// (several waves for a piece longer than its distance).
TEST_F(ReceivedPiecesTest, JoinedEndToEndInSenderOrder) {
  ReceivedPieces::Plan p;
  p.senders = 4;
  p.most_from = {8 << 20, 8 << 20, 1 << 10, 8 << 20};
  p.memory_limit = 1 << 30;
  p.threads = 4;
  ReceivedPieces pieces(std::move(p));
  const std::uint64_t sizes[4] = {4 << 20, 7 << 20, 1000, (8 << 20) - 3};
  std::string want;
  for (unsigned s = 0; s < 4; ++s) {
    std::string bytes(static_cast<std::size_t>(sizes[s]), '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>((i * 131 + s * 7) >> 3);
    pieces.append(s, bytes.data(), bytes.size());
    want += bytes;
  }
  const auto joined = pieces.joined();
  ASSERT_EQ(joined.size(), want.size());
  EXPECT_TRUE(std::string(reinterpret_cast<const char*>(joined.data()), joined.size()) == want);
  EXPECT_EQ(pieces.total(), want.size());
}

TEST_F(ReceivedPiecesTest, ToFilesOnceOverTheLimit) {
  ReceivedPieces pieces(plan(100000));
  std::vector<std::string> want;
  feed(pieces, want);
  ASSERT_FALSE(pieces.in_memory());
  ASSERT_EQ(pieces.files().size(), 3u);
  for (unsigned s = 0; s < 3; ++s) EXPECT_EQ(slurp(pieces.files()[s]), want[s]);
  EXPECT_EQ(pieces.total(), want[0].size() + want[1].size() + want[2].size());
  pieces.release();
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(ReceivedPiecesTest, TextGoesToFilesHeaded) {
  ReceivedPieces::Plan p = plan(1 << 20, "id,name\n");
  p.most_from.clear();
  ReceivedPieces pieces(std::move(p));
  std::vector<std::string> want;
  feed(pieces, want);
  ASSERT_FALSE(pieces.in_memory());
  for (unsigned s = 0; s < 3; ++s) EXPECT_EQ(slurp(pieces.files()[s]), "id,name\n" + want[s]);
  EXPECT_EQ(pieces.bytes(1), want[1].size());
}

TEST_F(ReceivedPiecesTest, FilesWithoutNamesGoneWhenDestroyed) {
  std::vector<std::string> paths;
  {
    ReceivedPieces pieces(plan(0));
    const std::string x(5000, 'x');
    pieces.append(2, x.data(), x.size());
    EXPECT_FALSE(pieces.in_memory());
    paths = pieces.files();
    EXPECT_EQ(slurp(paths[2]), x);
    EXPECT_TRUE(fs::is_empty(dir_));  // nothing a kill could leave
  }
  EXPECT_TRUE(fs::is_empty(dir_));
  for (const auto& p : paths) EXPECT_FALSE(fs::exists(p)) << p;
}

}  // namespace
}  // namespace corank::mpi
