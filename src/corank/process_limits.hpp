#pragma once
// What the process's limits mean for a sort (sort.cpp applies them before
// every sort): an address-space limit (ulimit -v) counts every mapping, and
// glibc's malloc reserves 64 MiB of address space for each arena, up to eight
// per core, one per thread that allocates while another holds an arena: a
// dozen threads took most of a 1 GB limit before the sort held anything. And
// a failed allocation should name the limit that refused it.
#include <cstddef>
#include <cstdint>
#include <string>

namespace corank {

// Under a finite address-space or data limit (ulimit -v, ulimit -d), caps
// malloc's arenas at kArenasUnderALimit (mallopt M_ARENA_MAX: every thread
// allocates from the main heap, which reserves nothing ahead), and under an
// address-space limit gives threads started from then on stacks of
// kThreadStackUnderALimit instead of ulimit -s (8 MiB by default, reserved
// whole for each thread), so that the address space a sort takes is its
// budget and the process's own code. Without such a limit, both stay as they
// are: they cost address space, not memory. Process-wide: an application
// that calls sort() under such a limit shares them.
inline constexpr int kArenasUnderALimit = 1;
inline constexpr std::size_t kThreadStackUnderALimit = std::size_t{2} << 20;
void bound_malloc_arenas() noexcept;

// The message for memory exhausted during a sort with budget `budget` (-S),
// once the sort has unwound: the address-space limit where one is set (with
// what the process maps then, its own), the data limit, else what the
// system has available.
std::string memory_exhausted_message(std::uint64_t budget);

}  // namespace corank
