#pragma once
// How the ranks fail together. Each phase's local work runs outside any
// collective; at its end the ranks agree whether one failed, and if one did,
// every rank throws RankFailed with the message of the lowest failing rank
// (the one whose input comes first, as the single process would have met
// it). So no rank is left waiting in a collective for one that gave up.
#include <exception>
#include <stdexcept>
#include <string>

#include "corank/mpi/communicator.hpp"

namespace corank::mpi {

// Another rank (or this one) failed; the message is the failing rank's, with
// "rank N: " before it when N > 0.
struct RankFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The one-line message of an exception ("memory exhausted" for bad_alloc).
std::string what_of(std::exception_ptr e);

// The phase boundary: returns when no rank failed (local_error empty on
// every rank), else throws RankFailed on every rank.
void agree(Communicator& c, const std::string& local_error);

// Runs this rank's part of a phase, then agrees with the others.
template <class F>
void phase(Communicator& c, F&& work) {
  std::string err;
  try {
    work();
  } catch (...) {
    err = what_of(std::current_exception());
  }
  agree(c, err);
}

}  // namespace corank::mpi
