#include "corank/mpi/launch_environment.hpp"

#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace corank::mpi {

std::string pick_device() {
  const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  if (!local) local = std::getenv("MPI_LOCALRANKID");
  if (!local) local = std::getenv("SLURM_LOCALID");
  if (!local) return "";
  const long rank = std::strtol(local, nullptr, 10);
  std::vector<std::string> devices;
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES"); visible && *visible) {
    std::string v = visible;
    for (std::size_t at = 0; at <= v.size();) {
      const auto comma = std::min(v.find(',', at), v.size());
      if (comma > at) devices.push_back(v.substr(at, comma - at));
      at = comma + 1;
    }
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

bool prefer_shared_memory_on_one_node() {
  const char* all = std::getenv("OMPI_COMM_WORLD_SIZE");
  const char* here = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  if (!all || !here || std::strcmp(all, here) != 0 || std::getenv("OMPI_MCA_pml")) return false;
  return ::setenv("OMPI_MCA_pml", "ob1", 0) == 0;
}

}  // namespace corank::mpi
