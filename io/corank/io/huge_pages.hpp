#pragma once
// Whether the sorter's large anonymous buffers ask for transparent huge pages
// (MADV_HUGEPAGE). Where the memory stays backed, a huge page costs one fault
// and one clearing instead of 512 faults: first touches run 2.5-3x faster
// (BENCHMARKS.md, "Huge pages where they pay"). Under a hypervisor to which
// the kernel reports free memory (a virtio balloon with free page reporting),
// free blocks of huge-page size and larger are handed back to the host, so a
// huge page can only come from memory the host must back again, page by
// page, at the first touch; 4 KiB pages come first from the fragments never
// reported, which stay backed. There huge pages cost 3-6x more than 4 KiB
// pages, and the buffers follow the system's own policy instead.
//
// CORANK_HUGE_PAGES=1 or 0 in the environment overrides the choice.
#include <cstddef>
#include <string>

namespace corank::io {

// Advises huge pages for [p, p + bytes) where huge_pages_pay(); advice only.
void advise_huge_pages(void* p, std::size_t bytes) noexcept;

// This machine's answer, found once: CORANK_HUGE_PAGES where set, else
// whether no virtio balloon that reports free pages is bound.
bool huge_pages_pay() noexcept;

// The rule itself, for a directory laid out as /sys/bus/virtio/devices and
// the environment's value (nullptr: unset).
bool huge_pages_pay(const std::string& virtio_devices, const char* setting) noexcept;

}  // namespace corank::io
