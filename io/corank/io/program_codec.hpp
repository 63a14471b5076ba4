#pragma once
// Spilled runs compressed by an outside program, as GNU sort's
// --compress-program=PROG does it: PROG reads the run's bytes on its stdin and
// writes the compressed bytes to its stdout, which is the temporary file
// itself; `PROG -d` reads the temporary file on its stdin and writes the bytes
// back through a pipe. make_run_sink/make_run_source (run_file.hpp) use these
// when IoOptions::temp_program is set.
//
// Errors are IoErrors: a PROG that cannot be started ("couldn't execute
// compress program: 'PROG': No such file or directory"), one that exits other
// than 0 or dies by a signal ("compress program: 'PROG -d': terminated
// abnormally (exit status 1)"). A child is always reaped: at the end of its
// stream, or killed and reaped when the sink or source is destroyed early
// (an error elsewhere). Writes to a child that has gone away fail with the
// child's status, never with a SIGPIPE to corank.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "corank/io/source.hpp"

namespace corank::io {

// Starts PROG writing to fd (not owned) from the descriptor's current offset.
// finish() ends PROG's input, waits for it and checks its status;
// stored_bytes() is then how much it wrote. Writing after finish() fails.
std::unique_ptr<ByteSink> program_compressing_sink(int fd, const std::string& program, std::string name);

// Starts `PROG -d` reading fd (not owned) from `offset` to the end of the
// file; reads yield what it writes. The end of its output is checked against
// its status: a PROG -d that fails is an error, not a short run.
std::unique_ptr<ByteSource> program_decompressing_source(int fd, const std::string& program, std::string name,
                                                         std::uint64_t offset = 0);

}  // namespace corank::io
