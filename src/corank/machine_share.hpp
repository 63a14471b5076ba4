#pragma once
// The share of the machine this process may use, for the defaults of
// --parallel and -S: a container or a systemd slice is given a CPU quota and
// a memory limit by its control group, and a job scheduler a set of cores by
// its affinity mask, while sysconf and hardware_concurrency() report the
// whole machine. A sort that planned for the machine inside a 2 GiB container
// of a 64 GiB host would hold 32 GiB and be killed by the kernel's
// out-of-memory killer, with no message, where it could have sorted in runs.
//
// Control groups v2 (cpu.max, memory.max) and v1 (cpu.cfs_quota_us over
// cpu.cfs_period_us, memory.limit_in_bytes) are read as the kernel
// documents them (Documentation/admin-guide/cgroup-v2.rst, cgroup-v1/), at
// the process's own group and every group above it up to the hierarchy's
// mount, the least limit counting; the mounts are found in
// /proc/self/mountinfo and the groups in /proc/self/cgroup. Nothing here is
// a well-kept library's: Debian ships libcgroup, whose API is for managing
// groups, not for reading a process's own limits, and the JVM, Go and
// .NET runtimes each read these same files themselves.

#include <cstdint>
#include <string>

namespace corank {

struct CgroupLimits {
  double cpus = 0;              // the CPU quota in cores (1.5 for 150000 of 100000 us), 0: none
  std::uint64_t memory = 0;     // bytes, 0: none
  std::string memory_group;     // the group directory whose limit it is, for messages
  std::string cpu_group;
};

// The limits that apply to this process. `root` prefixes every path read
// (tests give a directory laid out as / would be); where a file cannot be
// read, its limit counts as none.
CgroupLimits read_cgroup_limits(const std::string& root = "");

struct MachineShare {
  unsigned cpus = 1;            // the cores in the affinity mask, within the CPU quota (rounded up)
  std::uint64_t memory = 0;     // physical memory, within the memory limit
  CgroupLimits cgroup;
  unsigned affinity_cpus = 0;   // the mask's cores
  std::uint64_t physical = 0;
};

// This process's share, read once and kept: the defaults of every sort.
const MachineShare& machine_share();

// "2 cores (the control group's CPU quota of 1.5, of 16 in the affinity
// mask)", "...": what -v says of the defaults where a limit narrowed them,
// empty where the whole machine is the share.
std::string describe_machine_share(const MachineShare& s);

}  // namespace corank
