#pragma once
// What a rank of corank-mpi sets in its own environment before MPI_Init (and
// before any CUDA call), from what the launcher told it there: the device it
// sorts on, and Open MPI's point-to-point layer where every rank is on one
// node. Each reads the environment as Open MPI's mpirun leaves it
// (OMPI_COMM_WORLD_*), or another launcher's where one names the same.
#include <optional>
#include <string>
#include <vector>

namespace corank::mpi {

// Whether this process is the job's first rank, or one started without a
// launcher: no launcher's rank variable (OMPI_COMM_WORLD_RANK, PMIX_RANK,
// PMI_RANK, SLURM_PROCID) names another. --help and --version answer before
// MPI_Init, from the first rank alone.
bool first_rank_or_alone();

// The device for this rank: the local rank's turn among the node's GPUs
// (CUDA_VISIBLE_DEVICES's list, else the driver's count), made the only one
// it sees through CUDA_VISIBLE_DEVICES, since the library opens device 0 of
// those it sees. Returns its name there ("" where no device or no local rank
// is known: nothing is set).
std::string pick_device();

// Where the launcher started every rank on this node (as many ranks here as
// in all) and nothing names Open MPI's point-to-point layers to take
// (OMPI_MCA_pml, which mpirun's --mca pml also sets, or a parameter file's
// list of them): cm left out (OMPI_MCA_pml=^cm, or the parameter files'
// list of layers to leave out with cm added: Debian's names "^ucx"). cm
// carries messages through a network's own library (PSM2, libfabric),
// which MPI_Init loads and starts only to find that none serves here: 0.2 s
// of a 0.33 s start on the development machine (BENCHMARKS.md), a tenth of
// a 2 s sort. ob1 (shared memory), or UCX where it is installed and not
// left out, is picked as before. Returns whether it set it.
bool leave_out_cm_on_one_node();

// Open MPI's parameter files, as MPI_Init reads them: those that
// OMPI_MCA_mca_base_param_files lists (':' between them) where it is set,
// else the user's (~/.openmpi/mca-params.conf) and the installation's
// (openmpi-mca-params.conf in $OPAL_PREFIX/etc, /etc/openmpi, /etc,
// /usr/local/etc).
std::vector<std::string> open_mpi_param_files();
// The value the first of `files` that sets parameter `name` gives it (its
// last line "name = value"), blanks around it dropped; none where none does.
std::optional<std::string> param_file_value(const std::vector<std::string>& files, const std::string& name);

}  // namespace corank::mpi
