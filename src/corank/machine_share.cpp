#include "corank/machine_share.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

namespace corank {

namespace {

// A mountinfo field with its octal escapes (\040 for a space) decoded.
std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
      out.push_back(static_cast<char>(std::strtol(s.substr(i + 1, 3).c_str(), nullptr, 8)));
      i += 3;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

std::vector<std::string> split(const std::string& s, char by) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, by)) parts.push_back(part);
  return parts;
}

// The first line of a file (a limit file holds one), empty where it
// cannot be read.
std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return {};
  return line;
}

std::optional<std::uint64_t> number(const std::string& s) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::strtoull(s.c_str(), nullptr, 10);
}

struct Mount {
  std::string root;   // the hierarchy's directory mounted there
  std::string point;  // where
};

struct Hierarchies {
  std::optional<Mount> unified;             // cgroup2
  std::map<std::string, Mount> controllers;  // v1: "memory", "cpu"
};

Hierarchies read_mounts(const std::string& root) {
  Hierarchies h;
  std::ifstream in(root + "/proc/self/mountinfo");
  for (std::string line; std::getline(in, line);) {
    const std::size_t dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    const std::vector<std::string> head = split(line.substr(0, dash), ' ');
    const std::vector<std::string> tail = split(line.substr(dash + 3), ' ');
    if (head.size() < 5 || tail.size() < 3) continue;
    const Mount m{unescape(head[3]), unescape(head[4])};
    if (tail[0] == "cgroup2" && !h.unified) {
      h.unified = m;
    } else if (tail[0] == "cgroup") {
      for (const std::string& opt : split(tail[2], ','))
        if ((opt == "memory" || opt == "cpu") && !h.controllers.count(opt)) h.controllers[opt] = m;
    }
  }
  return h;
}

// The group directories from the process's own up to the hierarchy's mount:
// its path in /proc/self/cgroup taken relative to the mount's root. In a
// container that mounts its own group as the root without a cgroup
// namespace (v1), the path names the host's group, which is not there: the
// mount itself is then the process's group.
std::vector<std::string> group_dirs(const std::string& root, const Mount& m, const std::string& path) {
  const std::string top = root + m.point;
  std::string rel;
  if (m.root == "/") {
    rel = path;
  } else if (path.compare(0, m.root.size(), m.root) == 0 &&
             (path.size() == m.root.size() || path[m.root.size()] == '/')) {
    rel = path.substr(m.root.size());
  }
  while (!rel.empty() && rel.back() == '/') rel.pop_back();
  if (!rel.empty() && access((top + rel).c_str(), F_OK) != 0) rel.clear();
  std::vector<std::string> dirs;
  for (;;) {
    dirs.push_back(top + rel);
    if (rel.empty()) break;
    rel.erase(rel.rfind('/'));
  }
  return dirs;
}

void take_memory(CgroupLimits& l, std::uint64_t bytes, const std::string& dir) {
  if (bytes == 0 || bytes >= (std::uint64_t{1} << 62)) return;  // v1 writes "no limit" as a page-rounded 2^63
  if (l.memory == 0 || bytes < l.memory) l.memory = bytes, l.memory_group = dir;
}

void take_cpus(CgroupLimits& l, std::uint64_t quota, std::uint64_t period, const std::string& dir) {
  if (quota == 0 || period == 0) return;
  const double cpus = static_cast<double>(quota) / static_cast<double>(period);
  if (l.cpus == 0 || cpus < l.cpus) l.cpus = cpus, l.cpu_group = dir;
}

}  // namespace

CgroupLimits read_cgroup_limits(const std::string& root) {
  const Hierarchies h = read_mounts(root);
  CgroupLimits l;
  std::ifstream in(root + "/proc/self/cgroup");
  for (std::string line; std::getline(in, line);) {
    const std::size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (line.compare(0, a, "0") == 0 && controllers.empty()) {
      if (!h.unified) continue;
      for (const std::string& dir : group_dirs(root, *h.unified, path)) {
        if (const auto bytes = number(first_line(dir + "/memory.max"))) take_memory(l, *bytes, dir);
        const std::vector<std::string> cpu = split(first_line(dir + "/cpu.max"), ' ');  // "max 100000" or "150000 100000"
        if (cpu.size() == 2)
          if (const auto q = number(cpu[0]))
            if (const auto p = number(cpu[1])) take_cpus(l, *q, *p, dir);
      }
      continue;
    }
    for (const std::string& c : split(controllers, ',')) {
      const auto m = h.controllers.find(c);
      if (m == h.controllers.end()) continue;
      for (const std::string& dir : group_dirs(root, m->second, path)) {
        if (c == "memory") {
          if (const auto bytes = number(first_line(dir + "/memory.limit_in_bytes"))) take_memory(l, *bytes, dir);
        } else if (const auto q = number(first_line(dir + "/cpu.cfs_quota_us"))) {  // -1: none
          if (const auto p = number(first_line(dir + "/cpu.cfs_period_us"))) take_cpus(l, *q, *p, dir);
        }
      }
    }
  }
  return l;
}

const MachineShare& machine_share() {
  static const MachineShare share = [] {
    MachineShare s;
    cpu_set_t mask;
    CPU_ZERO(&mask);
    s.affinity_cpus = ::sched_getaffinity(0, sizeof mask, &mask) == 0 ? static_cast<unsigned>(CPU_COUNT(&mask)) : 0;
    if (s.affinity_cpus == 0) s.affinity_cpus = std::max(1u, std::thread::hardware_concurrency());
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    s.physical = pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page)
                                       : std::uint64_t{4} << 30;
    s.cgroup = read_cgroup_limits();
    s.cpus = s.affinity_cpus;
    if (s.cgroup.cpus > 0)
      s.cpus = std::clamp(static_cast<unsigned>(std::ceil(s.cgroup.cpus)), 1u, s.affinity_cpus);
    s.memory = s.cgroup.memory ? std::min(s.physical, s.cgroup.memory) : s.physical;
    return s;
  }();
  return share;
}

std::string describe_machine_share(const MachineShare& s) {
  auto gib = [](std::uint64_t b) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(b) / static_cast<double>(1ULL << 30));
    return std::string(buf);
  };
  std::string out;
  if (s.cgroup.cpus > 0 && s.cpus < s.affinity_cpus) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", s.cgroup.cpus);
    out = std::to_string(s.cpus) + (s.cpus == 1 ? " core" : " cores") + " (the CPU quota of " + buf + " of control group " + s.cgroup.cpu_group +
          ", of " + std::to_string(s.affinity_cpus) + " in the affinity mask)";
  }
  if (s.memory < s.physical) {
    if (!out.empty()) out += "; ";
    out += gib(s.memory) + " of memory (the limit of control group " + s.cgroup.memory_group + ", of " +
           gib(s.physical) + " in the machine)";
  }
  return out;
}

}  // namespace corank
