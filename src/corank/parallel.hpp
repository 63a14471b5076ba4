#pragma once
// parallel_for(n, f): runs f(0) .. f(n-1), each once (f(0) on the caller), on
// the process's thread pool, and rethrows the first exception any of them
// threw once all have finished. Parts may outnumber the pool's threads, so no
// part may wait for another (io/thread_pool.hpp).
#include "corank/io/thread_pool.hpp"

namespace corank {

template <class F>
void parallel_for(unsigned n, F&& f) {
  io::ThreadPool::shared().run(n, f);
}

}  // namespace corank
