#pragma once
// Fresh pages about to be written whole (a sort's key entries, its scratch,
// a gather's output, a split's lists), and the pages of a mapped input about
// to be read: allocated or mapped by the kernel in one call a range
// (MADV_POPULATE_WRITE / MADV_POPULATE_READ) where a page fault is costly,
// else left to fault in as they are touched.
//
// Where a fault leaves the guest for its hypervisor (the dev VM's PVM: 10-16
// us a page), 1 GiB of 4 KiB pages populated takes 0.1 s and its first
// writes 1.4 s more (the host backs each page then), against 1.6-2.0 s
// touched a page at a time; sorts there take a fifth to a quarter less.
// Where a fault stays in the guest (the H200 machine's VM: about 1.2 us a
// page), populating from 16 threads is 3-6x slower than the touches
// (BENCHMARKS.md, "Fresh pages populated where a fault is costly"). So the
// choice follows what a fault costs here, measured once, on the first range
// large enough to matter: a touch of 256 fresh pages, one at a time.
//
// CORANK_POPULATE=1 or 0 in the environment overrides the choice.
#include <cstddef>

namespace corank::io {

// Ranges shorter than this are never populated (nor is the probe run for them).
inline constexpr std::size_t kPopulateFrom = std::size_t{1} << 20;
// A fault that costs more than this, in microseconds, leaves the guest.
inline constexpr double kCostlyFaultMicroseconds = 5.0;

// Allocates the pages of [p, p + n), about to be written whole, in one call
// where populate_pays(); advice only.
void populate_for_writing(void* p, std::size_t n) noexcept;
// Maps the pages of [p, p + n) of a file mapping, about to be read, in one
// call where populate_pays(); advice only (a page beyond the end of a file
// cut short is left to fault as it would).
void populate_for_reading(const void* p, std::size_t n) noexcept;

// This machine's answer, found once: CORANK_POPULATE where set, else whether
// a fault costs more than kCostlyFaultMicroseconds.
bool populate_pays() noexcept;
// The rule itself, for a fault's cost in microseconds and the environment's
// value (nullptr: unset).
bool populate_pays(double fault_microseconds, const char* setting) noexcept;
// What a first touch of a fresh 4 KiB page costs here, in microseconds: the
// mean over 256 pages, touched one at a time by one thread.
double fault_microseconds() noexcept;

}  // namespace corank::io
