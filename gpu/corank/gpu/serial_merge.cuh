// Per-thread sequential merge of two sorted ranges, shared by the basic, tiled
// and circular kernels and by the host model of the circular tile loop.
#pragma once

#include "corank/gpu/host_device.hpp"

namespace corank::gpu {

// Merges a[a_begin, a_end) and b[b_begin, b_end); for output number p it calls
// emit(p, key, from_b, source_index). Ties take A first (stable), matching co_rank.
template <class Offset, class SeqA, class SeqB, class Emit>
CORANK_HD_INLINE void serial_merge(const SeqA& a, Offset a_begin, Offset a_end, const SeqB& b,
                                   Offset b_begin, Offset b_end, Emit&& emit) {
  Offset i = a_begin;
  Offset j = b_begin;
  Offset p = 0;
  while (i < a_end && j < b_end) {
    if (b[j] < a[i]) {
      emit(p++, b[j], true, j);
      ++j;
    } else {
      emit(p++, a[i], false, i);
      ++i;
    }
  }
  for (; i < a_end; ++i) emit(p++, a[i], false, i);
  for (; j < b_end; ++j) emit(p++, b[j], true, j);
}

}  // namespace corank::gpu
