// What a rank sets in its environment before MPI_Init (launch_environment.hpp),
// from the variables Open MPI's launcher gives each rank.
#include "corank/mpi/launch_environment.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace corank::mpi {
namespace {

// Sets (or, for nullptr, unsets) a variable for one test, and puts it back.
class ScopedVar {
public:
  ScopedVar(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    value ? ::setenv(name, value, 1) : ::unsetenv(name);
  }
  ~ScopedVar() { had_ ? ::setenv(name_, old_.c_str(), 1) : ::unsetenv(name_); }
  ScopedVar(const ScopedVar&) = delete;
  ScopedVar& operator=(const ScopedVar&) = delete;

private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

std::string var(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "(unset)";
}

TEST(LaunchEnvironment, OneNodeTakesOb1) {
  const ScopedVar all("OMPI_COMM_WORLD_SIZE", "3"), here("OMPI_COMM_WORLD_LOCAL_SIZE", "3"),
      pml("OMPI_MCA_pml", nullptr);
  EXPECT_TRUE(prefer_shared_memory_on_one_node());
  EXPECT_EQ(var("OMPI_MCA_pml"), "ob1");
}

TEST(LaunchEnvironment, RanksOnOtherNodesLeaveTheChoiceToOpenMpi) {
  const ScopedVar all("OMPI_COMM_WORLD_SIZE", "8"), here("OMPI_COMM_WORLD_LOCAL_SIZE", "4"),
      pml("OMPI_MCA_pml", nullptr);
  EXPECT_FALSE(prefer_shared_memory_on_one_node());
  EXPECT_EQ(var("OMPI_MCA_pml"), "(unset)");
}

TEST(LaunchEnvironment, ALayerTheUserNamedStays) {
  const ScopedVar all("OMPI_COMM_WORLD_SIZE", "2"), here("OMPI_COMM_WORLD_LOCAL_SIZE", "2"), pml("OMPI_MCA_pml", "ucx");
  EXPECT_FALSE(prefer_shared_memory_on_one_node());
  EXPECT_EQ(var("OMPI_MCA_pml"), "ucx");
}

TEST(LaunchEnvironment, AnotherLauncherLeavesTheChoiceToOpenMpi) {
  const ScopedVar all("OMPI_COMM_WORLD_SIZE", nullptr), here("OMPI_COMM_WORLD_LOCAL_SIZE", nullptr),
      pml("OMPI_MCA_pml", nullptr);
  EXPECT_FALSE(prefer_shared_memory_on_one_node());
  EXPECT_EQ(var("OMPI_MCA_pml"), "(unset)");
}

// Local rank 3 among the visible devices "4,6": its turn is 6, and it sees
// only that one; without a local rank, nothing is set.
TEST(LaunchEnvironment, EachLocalRankTakesItsTurnAmongTheVisibleDevices) {
  {
    const ScopedVar rank("OMPI_COMM_WORLD_LOCAL_RANK", "3"), visible("CUDA_VISIBLE_DEVICES", "4,6");
    EXPECT_EQ(pick_device(), "6");
    EXPECT_EQ(var("CUDA_VISIBLE_DEVICES"), "6");
  }
  const ScopedVar rank("OMPI_COMM_WORLD_LOCAL_RANK", nullptr), mpich("MPI_LOCALRANKID", nullptr),
      slurm("SLURM_LOCALID", nullptr), visible("CUDA_VISIBLE_DEVICES", "4,6");
  EXPECT_EQ(pick_device(), "");
  EXPECT_EQ(var("CUDA_VISIBLE_DEVICES"), "4,6");
}

}  // namespace
}  // namespace corank::mpi
