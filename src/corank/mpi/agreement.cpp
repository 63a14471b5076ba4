#include "corank/mpi/agreement.hpp"

#include <new>

namespace corank::mpi {

std::string what_of(std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::bad_alloc&) {
    return "memory exhausted (try a smaller -S)";
  } catch (const std::exception& x) {
    return x.what()[0] ? x.what() : "unknown error";
  }
}

void agree(Communicator& c, const std::string& local_error) {
  // The lowest failing rank as size - rank: the largest wins the max.
  int worst = local_error.empty() ? 0 : c.size() - c.rank();
  c.max(&worst, 1);
  if (worst == 0) return;
  const int root = c.size() - worst;
  std::string msg = c.rank() == root ? local_error : std::string();
  c.broadcast(msg, root);
  throw RankFailed(root == 0 ? msg : "rank " + std::to_string(root) + ": " + msg);
}

}  // namespace corank::mpi
