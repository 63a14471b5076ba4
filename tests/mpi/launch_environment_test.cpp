// What a rank sets in its environment before MPI_Init (launch_environment.hpp),
// from the variables Open MPI's launcher gives each rank and its parameter
// files.
#include "corank/mpi/launch_environment.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

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
// Named by the process: ctest runs each test in a process of its own, several
// at once.
class ParamFile {
public:
  explicit ParamFile(const std::string& text)
      : path_(::testing::TempDir() + "corank-mca-params-" + std::to_string(::getpid()) + ".conf") {
    std::ofstream(path_) << text;
  }
  ~ParamFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

// A rank's start as a test sets it: Open MPI's parameters from `params`
// alone, `ranks` in all and `local` on this node (nullptr: unset, as
// another launcher leaves them), OMPI_MCA_pml `pml` (nullptr: unset).
struct Launch {
  Launch(const std::string& params, const char* ranks, const char* local, const char* pml)
      : conf(params),
        files("OMPI_MCA_mca_base_param_files", conf.path().c_str()),
        all("OMPI_COMM_WORLD_SIZE", ranks),
        here("OMPI_COMM_WORLD_LOCAL_SIZE", local),
        layers("OMPI_MCA_pml", pml) {}
  ParamFile conf;
  ScopedVar files, all, here, layers;
};

TEST(LaunchEnvironment, OneNodeLeavesOutCm) {
  const Launch launch("# no layer named\nbtl = self,vader\n", "3", "3", nullptr);
  EXPECT_TRUE(leave_out_cm_on_one_node());
  EXPECT_EQ(var("OMPI_MCA_pml"), "^cm");
}

TEST(LaunchEnvironment, RanksOnOtherNodesLeaveTheChoiceToOpenMpi) {
  const Launch launch("", "8", "4", nullptr);
  EXPECT_FALSE(leave_out_cm_on_one_node());
  EXPECT_EQ(var("OMPI_MCA_pml"), "(unset)");
}

TEST(LaunchEnvironment, ALayerTheUserNamedStays) {
  const Launch launch("", "2", "2", "cm");
  EXPECT_FALSE(leave_out_cm_on_one_node());
  EXPECT_EQ(var("OMPI_MCA_pml"), "cm");
}

// Debian's parameter file leaves UCX out: cm is left out with it. A file
// that names the layers to take is followed.
TEST(LaunchEnvironment, AParameterFilesListOfLayersToLeaveOutGainsCm) {
  const Launch launch("btl = ^uct,openib,ofi\npml = ^ucx\nosc = ^ucx,pt2pt\n", "2", "2", nullptr);
  EXPECT_TRUE(leave_out_cm_on_one_node());
  EXPECT_EQ(var("OMPI_MCA_pml"), "^ucx,cm");
}

TEST(LaunchEnvironment, ALayerAParameterFileTakesStays) {
  const Launch launch("# the site's choice\n  pml = cm \n", "2", "2", nullptr);
  EXPECT_FALSE(leave_out_cm_on_one_node());
  EXPECT_EQ(var("OMPI_MCA_pml"), "(unset)");
  EXPECT_EQ(param_file_value({launch.conf.path()}, "pml").value_or("(none)"), "cm");
  EXPECT_EQ(param_file_value({launch.conf.path()}, "pm").value_or("(none)"), "(none)");
  EXPECT_EQ(param_file_value({"/nonexistent/corank-mca.conf", launch.conf.path()}, "pml").value_or("(none)"), "cm");
}

// Under another launcher (srun, MPICH's) the Open MPI variables are not
// set: nothing is.
TEST(LaunchEnvironment, AnotherLauncherLeavesTheChoiceToOpenMpi) {
  const Launch launch("", nullptr, nullptr, nullptr);
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

// --help and --version print from the first rank alone: the first of the
// launchers' rank variables that is set decides; without any, the process
// is alone.
TEST(LaunchEnvironment, TheFirstRankOrAProcessAloneAnswers) {
  const ScopedVar ompi("OMPI_COMM_WORLD_RANK", nullptr), pmix("PMIX_RANK", nullptr), pmi("PMI_RANK", nullptr),
      slurm("SLURM_PROCID", nullptr);
  EXPECT_TRUE(first_rank_or_alone());
  {
    const ScopedVar second("OMPI_COMM_WORLD_RANK", "1"), first_under_slurm("SLURM_PROCID", "0");
    EXPECT_FALSE(first_rank_or_alone());
  }
  {
    const ScopedVar first("OMPI_COMM_WORLD_RANK", "0"), pmix_second("PMIX_RANK", "1");
    EXPECT_TRUE(first_rank_or_alone());
  }
  const ScopedVar third("PMI_RANK", "2");
  EXPECT_FALSE(first_rank_or_alone());
}

}  // namespace
}  // namespace corank::mpi
