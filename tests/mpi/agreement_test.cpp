// The ranks' failure agreement over ranks as threads: every rank learns of a
// failure anywhere, and the lowest failing rank's message speaks for all.
#include "corank/mpi/agreement.hpp"

#include <gtest/gtest.h>

#include <mutex>
#include <new>
#include <vector>

#include "corank/errors.hpp"
#include "fake_communicator.hpp"

namespace corank::mpi {
namespace {

using testing::FakeWorld;

// Each rank runs phase(work(rank)); returns what each rank caught ("" when none).
std::vector<std::string> outcomes(int ranks, const std::function<void(int)>& work) {
  std::vector<std::string> caught(static_cast<std::size_t>(ranks), "none");
  FakeWorld world(ranks);
  world.run([&](Communicator& c) {
    try {
      phase(c, [&] { work(c.rank()); });
      caught[static_cast<std::size_t>(c.rank())] = "";
    } catch (const RankFailed& e) {
      caught[static_cast<std::size_t>(c.rank())] = e.what();
    }
  });
  return caught;
}

TEST(MpiAgreement, NoFailureNoThrow) {
  EXPECT_EQ(outcomes(3, [](int) {}), std::vector<std::string>(3, ""));
}

TEST(MpiAgreement, LowestFailingRankSpeaksForAll) {
  const auto caught = outcomes(4, [](int r) {
    if (r >= 2) throw InputError("bad record on rank " + std::to_string(r));
  });
  EXPECT_EQ(caught, std::vector<std::string>(4, "rank 2: bad record on rank 2"));
}

TEST(MpiAgreement, RankZeroSpeaksWithoutPrefix) {
  const auto caught = outcomes(2, [](int r) {
    if (r == 0) throw std::runtime_error("cannot create output");
  });
  EXPECT_EQ(caught, std::vector<std::string>(2, "cannot create output"));
}

TEST(MpiAgreement, MemoryExhaustedSaysSo) {
  const auto caught = outcomes(3, [](int r) {
    if (r == 1) throw std::bad_alloc();
  });
  EXPECT_EQ(caught, std::vector<std::string>(3, "rank 1: memory exhausted (try a smaller -S)"));
}

}  // namespace
}  // namespace corank::mpi
