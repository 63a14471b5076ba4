#pragma once
// What a rank of corank-mpi sets in its own environment before MPI_Init (and
// before any CUDA call), from what the launcher told it there: the device it
// sorts on, and Open MPI's point-to-point layer where every rank is on one
// node. Each reads the environment as Open MPI's mpirun leaves it
// (OMPI_COMM_WORLD_*), or another launcher's where one names the same.
#include <string>

namespace corank::mpi {

// The device for this rank: the local rank's turn among the node's GPUs
// (CUDA_VISIBLE_DEVICES's list, else the driver's count), made the only one
// it sees through CUDA_VISIBLE_DEVICES, since the library opens device 0 of
// those it sees. Returns its name there ("" where no device or no local rank
// is known: nothing is set).
std::string pick_device();

// Where the launcher started every rank on this node (as many ranks here as
// in all) and nothing names Open MPI's point-to-point layer (OMPI_MCA_pml,
// which mpirun's --mca pml also sets): ob1, whose shared memory is how ranks
// of one node talk anyway. Left to choose, MPI_Init loads and probes the
// network stacks it could use instead: 0.2 s of a 0.33 s start on the
// development machine (BENCHMARKS.md), a tenth of a 2 s sort. Returns
// whether it set it.
bool prefer_shared_memory_on_one_node();

}  // namespace corank::mpi
