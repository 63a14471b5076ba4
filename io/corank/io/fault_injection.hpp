#pragma once
// Test hook: make the Nth write from now fail with ENOSPC, to prove that a full
// disk leaves no partial output. Also set by CORANK_IO_FAIL_WRITE_AFTER=N in the
// environment (read at the first write). Both engines honour it, and so does
// pwrite_full (file_desc.hpp).
#include <cstdint>

namespace corank::io {

// n > 0: the nth write request submitted after this call fails with ENOSPC
// (and so do all later ones, as on a full disk); n == 0 disarms.
void set_write_failure_after(std::uint64_t n) noexcept;
// Called once per write request; true means fail it with ENOSPC.
bool inject_write_failure() noexcept;

}  // namespace corank::io
