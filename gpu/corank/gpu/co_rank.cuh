// co-rank: where output position k of merge(A, B) splits A and B.
#pragma once

#include "corank/gpu/host_device.hpp"

namespace corank::gpu {

// Returns the unique i (with j = k - i) such that
//   (i == 0 || j == n || A[i-1] <= B[j]) and (j == 0 || i == m || B[j-1] < A[i]),
// i.e. merge(A, B)[0, k) is exactly A[0, i) and B[0, j). Ties go to A, which
// makes every merge built on it stable. Only operator< on the keys is used.
//
// Binary search over i in [max(0, k-n), min(k, m)] on the predicate
// "A[i] <= B[k-1-i]" (A[i] is among the first k outputs), which is true then
// false; every probe reads in-range indices, so no sentinels are needed.
// SeqA/SeqB are anything indexable: raw pointers, or a circular tile view.
template <class Offset, class SeqA, class SeqB>
CORANK_HD_INLINE Offset co_rank(Offset k, const SeqA& a, Offset m, const SeqB& b, Offset n) {
  Offset lo = k > n ? k - n : Offset(0);
  Offset hi = k < m ? k : m;
  while (lo < hi) {
    const Offset i = lo + (hi - lo) / 2;
    if (b[k - 1 - i] < a[i]) {
      hi = i;
    } else {
      lo = i + 1;
    }
  }
  return lo;
}

}  // namespace corank::gpu
