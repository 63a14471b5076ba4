// The control groups' limits as read_cgroup_limits finds them: each case is
// a directory laid out as / would be in a container, a systemd service or a
// batch job, with the mount table, the process's groups and the limit files
// written as the kernel writes them (Documentation/admin-guide/cgroup-v2.rst
// and cgroup-v1/).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "corank/machine_share.hpp"

namespace fs = std::filesystem;
using corank::CgroupLimits;
using corank::read_cgroup_limits;

namespace {

class MachineShare : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("corank-share-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "proc/self");
  }
  void TearDown() override { fs::remove_all(root_); }

  void put(const std::string& path, const std::string& text) {
    const fs::path p = root_ / path;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  CgroupLimits read() { return read_cgroup_limits(root_.string()); }

  fs::path root_;
};

constexpr const char* kUnified = "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n";

TEST_F(MachineShare, AContainersOwnGroupUnderCgroup2) {
  put("proc/self/mountinfo", std::string("22 1 8:1 / / rw - ext4 /dev/sda1 rw\n") + kUnified);
  put("proc/self/cgroup", "0::/\n");
  put("sys/fs/cgroup/memory.max", "2147483648\n");
  put("sys/fs/cgroup/cpu.max", "150000 100000\n");
  const CgroupLimits l = read();
  EXPECT_EQ(l.memory, 2147483648u);
  EXPECT_DOUBLE_EQ(l.cpus, 1.5);
  EXPECT_EQ(l.memory_group, (root_ / "sys/fs/cgroup").string());
}

TEST_F(MachineShare, TheLeastLimitOfTheGroupsAbove) {
  put("proc/self/mountinfo", kUnified);
  put("proc/self/cgroup", "0::/batch.slice/job-7.service\n");
  put("sys/fs/cgroup/batch.slice/job-7.service/memory.max", "max\n");
  put("sys/fs/cgroup/batch.slice/job-7.service/cpu.max", "max 100000\n");
  put("sys/fs/cgroup/batch.slice/memory.max", "1073741824\n");
  put("sys/fs/cgroup/batch.slice/cpu.max", "400000 100000\n");
  put("sys/fs/cgroup/memory.max", "4294967296\n");  // not a real root's file, but a limit if there
  const CgroupLimits l = read();
  EXPECT_EQ(l.memory, 1073741824u);
  EXPECT_EQ(l.memory_group, (root_ / "sys/fs/cgroup/batch.slice").string());
  EXPECT_DOUBLE_EQ(l.cpus, 4.0);
}

TEST_F(MachineShare, NoLimitsWhereEveryGroupSaysMax) {
  put("proc/self/mountinfo", kUnified);
  put("proc/self/cgroup", "0::/user.slice\n");
  put("sys/fs/cgroup/user.slice/memory.max", "max\n");
  put("sys/fs/cgroup/user.slice/cpu.max", "max 100000\n");
  const CgroupLimits l = read();
  EXPECT_EQ(l.memory, 0u);
  EXPECT_EQ(l.cpus, 0.0);
}

TEST_F(MachineShare, Version1ControllersMountedApart) {
  put("proc/self/mountinfo",
      "31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw,mode=755\n"
      "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
      "35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
      "41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n");
  put("proc/self/cgroup", "4:memory:/jobs/a\n2:cpu,cpuacct:/jobs/a\n0::/\n");
  put("sys/fs/cgroup/memory/jobs/a/memory.limit_in_bytes", "536870912\n");
  put("sys/fs/cgroup/memory/jobs/memory.limit_in_bytes", "9223372036854771712\n");  // no limit, page-rounded 2^63
  put("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
  put("sys/fs/cgroup/cpu,cpuacct/jobs/a/cpu.cfs_quota_us", "50000\n");
  put("sys/fs/cgroup/cpu,cpuacct/jobs/a/cpu.cfs_period_us", "100000\n");
  put("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
  put("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
  const CgroupLimits l = read();
  EXPECT_EQ(l.memory, 536870912u);
  EXPECT_DOUBLE_EQ(l.cpus, 0.5);
}

// Docker without a cgroup namespace: /proc/self/cgroup names the host's
// group, and the container sees that group mounted as the hierarchy's root.
TEST_F(MachineShare, AHostPathNotInTheContainerIsTheMountItself) {
  put("proc/self/mountinfo", "35 31 0:32 /docker/0123abcd /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory\n");
  put("proc/self/cgroup", "9:memory:/docker/0123abcd\n");
  put("sys/fs/cgroup/memory/memory.limit_in_bytes", "268435456\n");
  EXPECT_EQ(read().memory, 268435456u);
}

TEST_F(MachineShare, AMountPointWithASpace) {
  put("proc/self/mountinfo", "30 23 0:26 / /mnt/cg\\040two rw - cgroup2 cgroup2 rw\n");
  put("proc/self/cgroup", "0::/\n");
  put("mnt/cg two/memory.max", "1000000\n");
  EXPECT_EQ(read().memory, 1000000u);
}

TEST_F(MachineShare, NothingMountedNothingLimited) {
  put("proc/self/mountinfo", "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n");
  put("proc/self/cgroup", "0::/\n");
  const CgroupLimits l = read();
  EXPECT_EQ(l.memory, 0u);
  EXPECT_EQ(l.cpus, 0.0);
}

TEST_F(MachineShare, UnreadableFilesLimitNothing) {
  const CgroupLimits l = read();  // no mountinfo, no cgroup file
  EXPECT_EQ(l.memory, 0u);
  EXPECT_EQ(l.cpus, 0.0);
}

TEST_F(MachineShare, TheProcessesShareIsWithinTheMachine) {
  const corank::MachineShare& s = corank::machine_share();
  EXPECT_GE(s.cpus, 1u);
  EXPECT_LE(s.cpus, s.affinity_cpus);
  EXPECT_GT(s.memory, 0u);
  EXPECT_LE(s.memory, s.physical);
  if (s.cgroup.memory) EXPECT_LE(s.memory, s.cgroup.memory);
}

}  // namespace
