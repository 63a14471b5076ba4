#pragma once
// Test hooks: make the Nth write from now fail with ENOSPC, to prove that a
// full disk leaves no partial output, and the Nth read fail with EIO, to prove
// that a failing input at any stage of a sort does too. Also set by
// CORANK_IO_FAIL_WRITE_AFTER=N and CORANK_IO_FAIL_READ_AFTER=N in the
// environment (read at the first request). Both engines honour them, and so do
// pread_full, read_full and pwrite_full (file_desc.hpp).
#include <cstdint>

namespace corank::io {

// n > 0: the nth write request submitted after this call fails with ENOSPC
// (and so do all later ones, as on a full disk); n == 0 disarms.
void set_write_failure_after(std::uint64_t n) noexcept;
// Called once per write request; true means fail it with ENOSPC.
bool inject_write_failure() noexcept;

// n > 0: the nth read request after this call fails with EIO (and so do all
// later ones, as on a failed device); n == 0 disarms.
void set_read_failure_after(std::uint64_t n) noexcept;
// Called once per read request; true means fail it with EIO.
bool inject_read_failure() noexcept;

}  // namespace corank::io
