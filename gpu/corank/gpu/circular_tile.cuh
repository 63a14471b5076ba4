// Index arithmetic of a circular shared-memory tile.
//
// A block streams one input through a power-of-two ring of Capacity slots.
// Positions are virtual (relative to the block's first element, never reset);
// element v lives in slot v & (Capacity - 1). The window [head, loaded) is
// what the ring holds; after a step consumes c elements only those c slots are
// refilled, instead of reloading a whole tile and discarding what was unused.
#pragma once

#include "corank/gpu/host_device.hpp"

namespace corank::gpu {

template <int Capacity>
struct CircularIndex {
  static_assert(Capacity > 0 && (Capacity & (Capacity - 1)) == 0,
                "circular tile capacity must be a power of two");
  static constexpr int mask = Capacity - 1;
  CORANK_HD_INLINE static int slot(int virtual_index) { return virtual_index & mask; }
};

// Indexable view of the window: view[i] is element head + i of the input.
template <class T, int Capacity>
struct CircularView {
  const T* slots;
  int head;
  CORANK_HD_INLINE const T& operator[](int i) const {
    return slots[CircularIndex<Capacity>::slot(head + i)];
  }
};

template <int Capacity>
struct CircularWindow {
  int count;       // elements of this input assigned to the block
  int head = 0;    // first element not yet consumed
  int loaded = 0;  // one past the last element held in the ring

  CORANK_HD_INLINE explicit CircularWindow(int input_count) : count(input_count) {}
  CORANK_HD_INLINE int size() const { return loaded - head; }
  // The next refill loads [loaded, refill_end()): as much as fits without
  // overwriting unconsumed slots, never past the input.
  CORANK_HD_INLINE int refill_end() const {
    return head + Capacity < count ? head + Capacity : count;
  }
  CORANK_HD_INLINE void mark_loaded() { loaded = refill_end(); }
  CORANK_HD_INLINE void consume(int n) { head += n; }
};

}  // namespace corank::gpu
