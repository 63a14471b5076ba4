// Keys made as the exchange's records arrive (arriving_keys.hpp): records of
// three senders landing in many small rounds, in batches of keys made in the
// background; the sort of the pieces with those keys (which it takes) is the
// sort of the pieces joined in sender order, equal keys in that order. Keys
// abandoned (the pieces leaving memory) are not given to the sort, which
// then makes its own; and the GPU's sorts, text and --verify get none.
#include "corank/mpi/arriving_keys.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "corank/sort.hpp"
#include "test_files.hpp"
#include "test_request.hpp"

namespace corank::mpi {
namespace {

namespace fs = std::filesystem;
using testing::read_file;
using testing::TestDir;
using testing::write_file;

constexpr std::uint32_t R = 16;  // a u64 key below 500 (ties), then a serial number

DistributedRequest request(const TestDir& dir) {
  DistributedRequest d = testing::scratch_job(dir, "fixed:16", 2, std::uint64_t{256} << 20);
  d.sort.keys = {"0:8:u64"};
  return d;
}

ReceivedPieces::Plan plan(const Job& job) {
  ReceivedPieces::Plan p;
  p.senders = 3;
  p.most_from = {std::uint64_t{4} << 20, std::uint64_t{4} << 20, std::uint64_t{4} << 20};
  p.memory_limit = std::uint64_t{64} << 20;
  p.threads = 2;
  ScratchSpace* scratch = job.scratch.get();
  p.create_file = [scratch](unsigned s) { return scratch->create("from-" + std::to_string(s)); };
  return p;
}

// Rounds of a few KiB from each sender into `pieces` (received straight into
// their room, as the exchange does), keys told after each round; the bytes
// each sender sent.
std::vector<std::string> feed(ReceivedPieces& pieces, ArrivingKeys* keys, int rounds) {
  std::mt19937_64 rng(21);
  std::vector<std::string> sent(3);
  std::uint64_t serial = 0;
  for (int round = 0; round < rounds; ++round) {
    for (unsigned s = 0; s < 3; ++s) {
      const std::uint64_t n = rng() % 300;
      std::string bytes;
      for (std::uint64_t i = 0; i < n; ++i) {
        char rec[R];
        const std::uint64_t key = rng() % 500;
        ++serial;
        std::memcpy(rec, &key, 8);
        std::memcpy(rec + 8, &serial, 8);
        bytes.append(rec, R);
      }
      std::byte* room = pieces.room(s, bytes.size());
      if (!bytes.empty()) {
        EXPECT_NE(room, nullptr);
        std::memcpy(room, bytes.data(), bytes.size());
      }
      pieces.appended(s, bytes.size());
      sent[s] += bytes;
    }
    if (keys) keys->landed();
  }
  return sent;
}

class ArrivingKeysTest : public ::testing::Test {
protected:
  void SetUp() override {
    write_file(dir_ / "in", std::string(R * 10, 'x'));
    d_ = request(dir_);
  }
  // A rank's job over d_, its rounds small enough for many batches.
  std::unique_ptr<Job> job() {
    auto j = std::make_unique<Job>(d_, 0, NodeShare{});
    j->open(nullptr, 0, 1);
    j->round_quota = 64 << 10;
    return j;
  }
  // The sort of `in` equal to the sort of the pieces joined in sender order.
  void expect_sorted_alike(const Job& job, const PieceInput& in, const std::vector<std::string>& sent) {
    write_file(dir_ / "joined", sent[0] + sent[1] + sent[2]);
    SortRequest want = job.local;
    want.inputs = {dir_ / "joined"};
    want.output = dir_ / "want";
    sort(want);
    SortRequest got = job.local;
    got.inputs.clear();
    got.input_buffers = in.buffers;
    got.input_selection = in.selection;
    got.prepared_keys = in.prepared;
    got.output = dir_ / "got";
    EXPECT_EQ(sort(got).records_out, (sent[0].size() + sent[1].size() + sent[2].size()) / R);
    EXPECT_TRUE(read_file(dir_ / "got") == read_file(dir_ / "want"));
  }

  TestDir dir_;
  DistributedRequest d_;
};

TEST_F(ArrivingKeysTest, MadeInBatchesAndTakenBySortOfTheirPieces) {
  for (bool reverse : {false, true}) {
    d_.sort.reverse = reverse;
    const auto j = job();
    ReceivedPieces pieces(plan(*j));
    auto keys = ArrivingKeys::make_if_useful(*j, pieces);
    ASSERT_NE(keys, nullptr);
    const auto sent = feed(pieces, keys.get(), 120);  // about 1.7 MB: a dozen batches and more
    keys->finish();
    ASSERT_FALSE(keys->abandoned());
    const PieceInput in = keys->piece();
    ASSERT_NE(in.prepared, nullptr);
    ASSERT_NE(in.selection, nullptr);
    expect_sorted_alike(*j, in, sent);
    EXPECT_TRUE(keys->taken()) << "the sort made its own keys";
    EXPECT_GE(keys->batches(), 10u) << "keys made in a few batches only";
    EXPECT_GT(keys->seconds(), 0.0);
  }
}

TEST_F(ArrivingKeysTest, AbandonedKeysAreNotGiven) {
  const auto j = job();
  ReceivedPieces pieces(plan(*j));
  auto keys = ArrivingKeys::make_if_useful(*j, pieces);
  ASSERT_NE(keys, nullptr);
  const auto sent = feed(pieces, keys.get(), 40);
  keys->abandon();
  keys->landed();  // nothing more is made
  keys->finish();
  EXPECT_TRUE(keys->abandoned());
  const PieceInput in = keys->piece();
  EXPECT_EQ(in.prepared, nullptr);
  expect_sorted_alike(*j, in, sent);  // from the pieces where they lie
  EXPECT_FALSE(keys->taken());
}

TEST_F(ArrivingKeysTest, NoneWhereTheSortWouldNotTakeThem) {
  d_.sort.verify = true;
  {
    const auto j = job();
    ReceivedPieces pieces(plan(*j));
    EXPECT_EQ(ArrivingKeys::make_if_useful(*j, pieces), nullptr) << "--verify";
  }
  d_.sort.verify = false;
  d_.sort.gpu = GpuMode::On;
  {
    const auto j = job();
    ReceivedPieces pieces(plan(*j));
    EXPECT_EQ(ArrivingKeys::make_if_useful(*j, pieces), nullptr) << "--gpu=on";
  }
  d_.sort.gpu = GpuMode::Auto;
  d_.device = "0";
  {
    const auto j = job();
    ReceivedPieces pieces(plan(*j));
    EXPECT_EQ(ArrivingKeys::make_if_useful(*j, pieces), nullptr) << "--gpu=auto with a device";
  }
  d_.device.clear();
  {
    const auto j = job();
    ReceivedPieces pieces(plan(*j));
    EXPECT_NE(ArrivingKeys::make_if_useful(*j, pieces), nullptr) << "--gpu=auto without one";
  }
  d_.sort.format = "u64";
  d_.sort.keys.clear();
  {
    const auto j = job();
    ReceivedPieces pieces(plan(*j));
    EXPECT_EQ(ArrivingKeys::make_if_useful(*j, pieces), nullptr) << "records sorted as key words";
  }
}

}  // namespace
}  // namespace corank::mpi
