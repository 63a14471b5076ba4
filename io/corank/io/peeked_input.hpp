#pragma once
// The first bytes of an input that cannot be read twice (standard input, a
// pipe, a terminal), read ahead once and given back to its reader: how its
// lines are read (a JSON log's time member, the zone abbreviations after its
// times) is decided from its first lines before the sort reads it.
// open_source yields them first, then the rest from the same descriptor, as
// if nothing had been read.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "corank/io/file_desc.hpp"
#include "corank/io/source.hpp"

namespace corank::io {

// Up to `bytes` of the first bytes of `path` ("-": standard input), fewer at
// its end, read on the first call for `path` and kept; later calls return
// what that one read, until open_source takes them (a regular file's are
// read again at each call, and its view lasts until the next). Empty where it cannot be
// opened or read: the sort's own open reports that. To be called before the
// input is opened as a source. (A regular file is read where it lies, from
// standard input's offset, and nothing is given back: its reader reads it
// all.)
std::string_view peek_input(const std::string& path, std::size_t bytes);

// What open_source reads a peeked input from: the bytes peeked, and the
// descriptor to read the rest from (owned, where `path` was opened).
struct PeekedInput {
  std::string head;
  FileDesc owned;
  int fd = -1;
  bool ended = false;  // the head is all of it: nothing more is read
};
// The peeked input of `path`, once: later calls (a second "-", or the same
// pipe under another name) find none, and the views peek_input returned for
// it end. Inputs are told apart by their files, not their names: "-" and
// /dev/stdin name one pipe, peeked once.
std::optional<PeekedInput> take_peeked_input(const std::string& path);

// `head`'s bytes, then `rest`'s (none where it is null), named `name`.
std::unique_ptr<ByteSource> head_first(std::string head, std::unique_ptr<ByteSource> rest, std::string name);

}  // namespace corank::io
