// A rank's samples: a record that covers many sample offsets is taken once,
// weighing as many offsets as it covers (so a long line or an unterminated
// CSV quote costs one copy, not one per offset), and a malformed CSV row
// fails the rank while it samples, with the single process's message.
#include "corank/mpi/sampling.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "corank/errors.hpp"
#include "corank/mpi/job.hpp"
#include "test_files.hpp"

namespace corank::mpi {
namespace {

using testing::TestDir;
using testing::write_file;

// A one-rank job over `input`, its share the whole input.
std::unique_ptr<Job> job_over(const TestDir& dir, DistributedRequest& d, const std::string& input) {
  d.sort.inputs = {input};
  d.sort.output = dir / "out";
  d.sort.temp_dirs = {dir.path()};
  d.sort.gpu = GpuMode::Off;
  d.sort.threads = 1;
  d.sort.memory_budget = std::uint64_t{4} << 20;
  auto job = std::make_unique<Job>(d, 0, NodeShare{});
  job->open(nullptr, 0, 1);
  job->share = {0, job->inputs->total()};
  return job;
}

TEST(MpiSampling, LongLineTakenOnceWithItsWeight) {
  TestDir dir;
  std::string text;
  for (int i = 0; i < 300; ++i) text += "short " + std::to_string(i) + "\n";
  const std::uint64_t long_at = text.size();
  const std::string long_line(40000, 'L');
  text += long_line + "\n";
  for (int i = 0; i < 300; ++i) text += "after " + std::to_string(i) + "\n";
  write_file(dir / "in.txt", text);
  DistributedRequest d;
  const auto job = job_over(dir, d, dir / "in.txt");
  const std::string bytes = local_samples(*job);
  const auto samples = decode_samples(bytes);
  std::uint64_t weight = 0, long_weight = 0, long_copies = 0;
  std::map<std::uint64_t, int> seen;
  for (const auto& s : samples) {
    weight += s.weight;
    EXPECT_EQ(++seen[s.position], 1) << "a record sampled twice at " << s.position;
    if (s.position != long_at) continue;
    ++long_copies;
    long_weight = s.weight;
    EXPECT_EQ(s.record, long_line);
  }
  EXPECT_EQ(weight, std::min<std::uint64_t>(text.size(), kSamplesPerRank));  // every offset counted once
  EXPECT_EQ(long_copies, 1u);
  // The offsets that fall in the line and on its newline: its share of the bytes.
  EXPECT_NEAR(static_cast<double>(long_weight), static_cast<double>(kSamplesPerRank) * 40001 / text.size(), 2.0);
  EXPECT_LT(bytes.size(), 2 * text.size());
}

TEST(MpiSampling, UnterminatedQuoteFailsTheRankWhileSampling) {
  TestDir dir;
  std::string csv = "id,name\n";
  for (int i = 0; i < 3000; ++i) csv += (i == 1500 ? std::string("7,\"unterminated") : std::to_string(i) + ",n") + "\n";
  write_file(dir / "bad.csv", csv);
  DistributedRequest d;
  d.sort.format = "csv";
  d.sort.header = true;
  d.sort.keys = {"id:n"};
  const auto job = job_over(dir, d, dir / "bad.csv");
  try {
    local_samples(*job);
    FAIL() << "sampled past a malformed row";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), dir / "bad.csv" + ":1502: unterminated quoted field");
  }
}

}  // namespace
}  // namespace corank::mpi
