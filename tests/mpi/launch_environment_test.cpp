// What a rank sets in its environment before MPI_Init (launch_environment.hpp),
// from the variables Open MPI's launcher gives each rank and its parameter
// files.
#include "corank/mpi/launch_environment.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
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

// A parameter file of its own for each test: the machine's are not read.
class ParamFile {
public:
  explicit ParamFile(const std::string& text) : path_(::testing::TempDir() + "corank-mca-params.conf") {
    std::ofstream(path_) << text;
  }
  ~ParamFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

TEST(LaunchEnvironment, OneNodeLeavesOutCm) {
  const ParamFile conf("# no layer named\nbtl = self,vader\n");
  const ScopedVar files("OMPI_MCA_mca_base_param_files", conf.path().c_str());
  const ScopedVar all("OMPI_COMM_WORLD_SIZE", "3"), here("OMPI_COMM_WORLD_LOCAL_SIZE", "3"),
      pml("OMPI_MCA_pml", nullptr);
  EXPECT_TRUE(leave_out_cm_on_one_node());
  EXPECT_EQ(var("OMPI_MCA_pml"), "^cm");
}

TEST(LaunchEnvironment, RanksOnOtherNodesLeaveTheChoiceToOpenMpi) {
  const ParamFile conf("");
  const ScopedVar files("OMPI_MCA_mca_base_param_files", conf.path().c_str());
  const ScopedVar all("OMPI_COMM_WORLD_SIZE", "8"), here("OMPI_COMM_WORLD_LOCAL_SIZE", "4"),
      pml("OMPI_MCA_pml", nullptr);
  EXPECT_FALSE(leave_out_cm_on_one_node());
  EXPECT_EQ(var("OMPI_MCA_pml"), "(unset)");
}

TEST(LaunchEnvironment, ALayerTheUserNamedStays) {
  const ParamFile conf("");
  const ScopedVar files("OMPI_MCA_mca_base_param_files", conf.path().c_str());
  const ScopedVar all("OMPI_COMM_WORLD_SIZE", "2"), here("OMPI_COMM_WORLD_LOCAL_SIZE", "2"), pml("OMPI_MCA_pml", "cm");
  EXPECT_FALSE(leave_out_cm_on_one_node());
  EXPECT_EQ(var("OMPI_MCA_pml"), "cm");
}

// Debian's parameter file leaves UCX out: cm is left out with it. A file
// that names the layers to take is followed.
TEST(LaunchEnvironment, AParameterFilesListOfLayersToLeaveOutGainsCm) {
  const ParamFile conf("btl = ^uct,openib,ofi\npml = ^ucx\nosc = ^ucx,pt2pt\n");
  const ScopedVar files("OMPI_MCA_mca_base_param_files", conf.path().c_str());
  const ScopedVar all("OMPI_COMM_WORLD_SIZE", "2"), here("OMPI_COMM_WORLD_LOCAL_SIZE", "2"),
      pml("OMPI_MCA_pml", nullptr);
  EXPECT_TRUE(leave_out_cm_on_one_node());
  EXPECT_EQ(var("OMPI_MCA_pml"), "^ucx,cm");
}

TEST(LaunchEnvironment, ALayerAParameterFileTakesStays) {
  const ParamFile conf("# the site's choice\n  pml = cm \n");
  const ScopedVar files("OMPI_MCA_mca_base_param_files", conf.path().c_str());
  const ScopedVar all("OMPI_COMM_WORLD_SIZE", "2"), here("OMPI_COMM_WORLD_LOCAL_SIZE", "2"),
      pml("OMPI_MCA_pml", nullptr);
  EXPECT_FALSE(leave_out_cm_on_one_node());
  EXPECT_EQ(var("OMPI_MCA_pml"), "(unset)");
  EXPECT_EQ(param_file_value({conf.path()}, "pml").value_or("(none)"), "cm");
  EXPECT_EQ(param_file_value({conf.path()}, "pm").value_or("(none)"), "(none)");
  EXPECT_EQ(param_file_value({"/nonexistent/corank-mca.conf", conf.path()}, "pml").value_or("(none)"), "cm");
}

// Under another launcher (srun, MPICH's) the Open MPI variables are not
// set: nothing is.
TEST(LaunchEnvironment, AnotherLauncherLeavesTheChoiceToOpenMpi) {
  const ScopedVar all("OMPI_COMM_WORLD_SIZE", nullptr), here("OMPI_COMM_WORLD_LOCAL_SIZE", nullptr),
      pml("OMPI_MCA_pml", nullptr);
  EXPECT_FALSE(leave_out_cm_on_one_node());
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
