#include "corank/mpi/launch_environment.hpp"

#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace corank::mpi {

namespace {

// The non-empty items of a list with `separator` between them.
std::vector<std::string> items(std::string_view list, char separator) {
  std::vector<std::string> out;
  for (std::size_t at = 0; at <= list.size();) {
    const auto end = std::min(list.find(separator, at), list.size());
    if (end > at) out.emplace_back(list.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

}  // namespace

bool first_rank_or_alone() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"})
    if (const char* rank = std::getenv(name)) return std::strtol(rank, nullptr, 10) == 0;
  return true;
}

std::string pick_device() {
  const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  if (!local) local = std::getenv("MPI_LOCALRANKID");
  if (!local) local = std::getenv("SLURM_LOCALID");
  if (!local) return "";
  const long rank = std::strtol(local, nullptr, 10);
  std::vector<std::string> devices;
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES"); visible && *visible) {
    devices = items(visible, ',');
  } else if (DIR* d = ::opendir("/proc/driver/nvidia/gpus")) {
    int count = 0;
    while (const dirent* e = ::readdir(d))
      if (e->d_name[0] != '.') ++count;
    ::closedir(d);
    for (int i = 0; i < count; ++i) devices.push_back(std::to_string(i));
  }
  if (devices.empty()) return "";
  const std::string& mine = devices[static_cast<std::size_t>(rank) % devices.size()];
  ::setenv("CUDA_VISIBLE_DEVICES", mine.c_str(), 1);
  return mine;
}

std::vector<std::string> open_mpi_param_files() {
  if (const char* listed = std::getenv("OMPI_MCA_mca_base_param_files")) return items(listed, ':');
  std::vector<std::string> files;
  if (const char* home = std::getenv("HOME")) files.push_back(std::string(home) + "/.openmpi/mca-params.conf");
  if (const char* prefix = std::getenv("OPAL_PREFIX"))
    files.push_back(std::string(prefix) + "/etc/openmpi-mca-params.conf");
  for (const char* dir : {"/etc/openmpi", "/etc", "/usr/local/etc"})
    files.push_back(std::string(dir) + "/openmpi-mca-params.conf");
  return files;
}

std::optional<std::string> param_file_value(const std::vector<std::string>& files, const std::string& name) {
  const auto trimmed = [](const std::string& t, std::size_t from) {
    const auto b = t.find_first_not_of(" \t", from);
    const auto e = t.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : t.substr(b, e - b + 1);
  };
  for (const std::string& path : files) {
    std::ifstream in(path);
    std::optional<std::string> value;  // a file's last line for it
    for (std::string line; std::getline(in, line);) {
      const auto begin = line.find_first_not_of(" \t");
      if (begin == std::string::npos || line.compare(begin, name.size(), name) != 0) continue;
      const auto after = line.find_first_not_of(" \t", begin + name.size());
      if (after != std::string::npos && line[after] == '=') value = trimmed(line, after + 1);
    }
    if (value) return value;
  }
  return std::nullopt;
}

bool leave_out_cm_on_one_node() {
  const char* all = std::getenv("OMPI_COMM_WORLD_SIZE");
  const char* here = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  if (!all || !here || std::strcmp(all, here) != 0 || std::getenv("OMPI_MCA_pml")) return false;
  std::string pml = "^cm";
  if (const std::optional<std::string> set = param_file_value(open_mpi_param_files(), "pml")) {
    // A list of layers to leave out gains cm; one of layers to take stays.
    if (set->empty() || set->front() != '^') return false;
    std::string left_out(1, ',');
    left_out.append(*set, 1).push_back(',');
    if (left_out.find(",cm,") != std::string::npos) return false;
    pml = *set;
    pml.append(",cm");
  }
  return ::setenv("OMPI_MCA_pml", pml.c_str(), 0) == 0;
}

}  // namespace corank::mpi
