// One rank sorts its inputs where they lie: the mappings hold the snapshot's
// sizes (what was appended since is not read), text is left to the exchange,
// and the sort through them is a stable sort by the gensort key, checked
// against std::stable_sort.
#include "corank/mpi/whole_input.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "corank/mpi/distributed_sort.hpp"
#include "fake_communicator.hpp"
#include "test_files.hpp"
#include "test_request.hpp"

namespace corank::mpi {
namespace {

namespace fs = std::filesystem;
using testing::read_file;
using testing::TestDir;
using testing::write_file;

// n gensort-sized records whose 10-byte keys repeat (so that ties are kept
// in input order) and whose payloads tell them apart.
std::string records(std::size_t n) {
  std::mt19937_64 rng(34);
  std::string s(n * 100, '\0');
  for (std::size_t i = 0; i < n; ++i) {
    char* r = s.data() + i * 100;
    for (int b = 0; b < 100; ++b) r[b] = static_cast<char>(rng());
    if (rng() % 4 == 0) std::memset(r, 'k', 10);
  }
  return s;
}

DistributedRequest request(const TestDir& dir, const std::string& format) {
  return testing::scratch_job(dir, format, 1, std::uint64_t{64} << 20);
}

TEST(MpiWholeInput, MapsTheSnapshotNotWhatWasAppended) {
  TestDir dir;
  const std::string bytes = records(100);
  write_file(dir / "in", bytes);
  const DistributedRequest d = request(dir, "gensort");
  Job job(d, 0, NodeShare{});
  const std::vector<std::uint64_t> snapshot{50 * 100};  // the file grew by 50 records since
  job.open(&snapshot, 0, 1);
  auto whole = WholeInput::map_if_resident(job);
  ASSERT_NE(whole, nullptr) << "a file just written is in the page cache";
  const PieceInput in = whole->piece();
  EXPECT_EQ(in.bytes, 5000u);
  ASSERT_EQ(in.buffers.size(), 1u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(in.buffers[0].data()), in.buffers[0].size()),
            bytes.substr(0, 5000));
}

TEST(MpiWholeInput, InputsOverHalfTheBudgetGoTheExchangesWay) {
  TestDir dir;
  write_file(dir / "in", records(100));
  DistributedRequest d = request(dir, "gensort");
  d.sort.memory_budget = 2 * 10000 - 2;  // half of it one byte short of the input
  Job small(d, 0, NodeShare{});
  small.open(nullptr, 0, 1);
  EXPECT_EQ(WholeInput::map_if_resident(small), nullptr);
  d.sort.memory_budget = 2 * 10000;
  Job enough(d, 0, NodeShare{});
  enough.open(nullptr, 0, 1);
  EXPECT_NE(WholeInput::map_if_resident(enough), nullptr);
}

TEST(MpiWholeInput, TextGoesTheExchangesWay) {
  TestDir dir;
  write_file(dir / "in", "b\na\n");
  const DistributedRequest d = request(dir, "lines");
  Job job(d, 0, NodeShare{});
  job.open(nullptr, 0, 1);
  EXPECT_EQ(WholeInput::map_if_resident(job), nullptr);
}

TEST(MpiWholeInput, OneRankSortsWithoutAnExchange) {
  TestDir dir;
  const std::string bytes = records(3000);
  write_file(dir / "in", bytes);
  DistributedRequest d = request(dir, "gensort");
  std::string stats;
  d.stats_file = "-";
  d.stats_text = &stats;
  testing::FakeWorld world(1);
  int status = -1;
  world.run([&](Communicator& c) { status = distributed_sort(c, d, nullptr); });
  ASSERT_EQ(status, 0);
  std::vector<std::string> want;
  for (std::size_t i = 0; i < bytes.size(); i += 100) want.push_back(bytes.substr(i, 100));
  std::stable_sort(want.begin(), want.end(),
                   [](const std::string& a, const std::string& b) { return a.compare(0, 10, b, 0, 10) < 0; });
  std::string joined;
  for (const auto& r : want) joined += r;
  EXPECT_TRUE(read_file(d.sort.output) == joined) << "not the stable sort by key";
  EXPECT_NE(stats.find("\"whole_input\": true"), std::string::npos) << stats;
  EXPECT_TRUE(fs::is_empty(dir / "tmp"));
}

}  // namespace
}  // namespace corank::mpi
