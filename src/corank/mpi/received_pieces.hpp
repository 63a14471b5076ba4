#pragma once
// What a rank receives in the exchange: one piece per sending rank, each in
// the order it was sent, so that the pieces in sending-rank order are the
// rank's records in input order, as the single-process sort would see them.
//
// Fixed-size records are kept in memory while all of them fit the rank's
// limit: one anonymous reservation with a region per sender, as large as
// that sender's share can make it, filled through huge pages by all the
// rank's threads; a round's records can be received straight into their
// regions (make_room: the exchange copies nothing). The
// rank's sort then takes them where they lie (SortRequest::input_buffers): no
// file is written and read again, and no tmpfs page is faulted in. Text, and
// records once their total passes the limit, go to one scratch file per sender
// instead (scratch.hpp: without a name where the file system allows; what was
// in memory is written there first), headed by the CSV header where there is one.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "corank/mpi/scratch.hpp"

namespace corank::mpi {

class ReceivedPieces {
public:
  struct Plan {
    // Most bytes each sender can send (its share of the input); empty: keep
    // everything in files.
    std::vector<std::uint64_t> most_from;
    std::uint64_t memory_limit = 0;  // most bytes held in memory, all senders together
    unsigned senders = 1;
    std::string header;              // leads every file ("" without)
    unsigned threads = 1;            // copy and write with this many
    // A new file for sender s's piece, where the pieces go to files.
    std::function<ScratchFile(unsigned)> create_file;
  };

  explicit ReceivedPieces(Plan plan);
  ~ReceivedPieces();
  ReceivedPieces(const ReceivedPieces&) = delete;
  ReceivedPieces& operator=(const ReceivedPieces&) = delete;

  // Adds n bytes from sender s to the end of its piece. Throws io::IoError
  // (a file that cannot be written) or std::bad_alloc.
  void append(unsigned s, const char* data, std::uint64_t n);
  // Room for n more bytes of sender s's piece in memory, its pages allocated,
  // for the caller to fill and then add with appended(s, n); nullptr where
  // the pieces are in files or n more bytes would take them there (append()
  // then). Throws std::bad_alloc.
  std::byte* room(unsigned s, std::uint64_t n);
  void appended(unsigned s, std::uint64_t n) noexcept { bytes_[s] += n; }
  // Room for n[s] more bytes of every sender s's piece at once, their pages
  // allocated: whether all of them stay in memory. Then sender s's bytes go
  // at base() + end(s), and appended(s, n[s]) adds them. Throws std::bad_alloc.
  bool make_room(const std::vector<std::uint64_t>& n);
  std::byte* base() const noexcept { return memory_.empty() ? nullptr : memory_[0]; }
  std::uint64_t start(unsigned s) const noexcept { return static_cast<std::uint64_t>(memory_[s] - base()); }
  std::uint64_t end(unsigned s) const noexcept { return start(s) + bytes_[s]; }
  bool in_memory() const noexcept { return in_memory_; }
  unsigned senders() const noexcept { return plan_.senders; }
  // Record bytes received from sender s (the header not counted).
  std::uint64_t bytes(unsigned s) const noexcept { return bytes_[s]; }
  std::uint64_t total() const noexcept;
  // The pieces in sender order: in memory, or as paths that open the files
  // (each headed by the header) while this object holds them.
  std::vector<std::span<const std::byte>> buffers() const;
  // In memory: moves the pieces end to end, in sender order, within the
  // reservation, and gives them as one buffer, which the sort takes where it
  // lies (as corank takes a resident file) instead of copying the pieces
  // into fresh memory of its own. Nothing is added after it.
  std::span<const std::byte> joined();
  // In memory: the reservation from its first region to the end of the
  // last one's records, gaps between the regions included; sender s's
  // records lie at [start(s), end(s)) of it, where they landed.
  std::span<const std::byte> regions() const noexcept;
  std::uint64_t reservation() const noexcept { return reservation_; }  // the regions' bytes, all together
  std::vector<std::string> files() const;
  // Frees the memory or removes the files, once the sort has read them.
  void release() noexcept;

private:
  void open_files();
  // Whether n more bytes from sender s stay in memory.
  bool fits(unsigned s, std::uint64_t n) const noexcept;
  // Moves what is in memory to the files, where everything goes from then on.
  void to_files();
  void append_to_file(unsigned s, const char* data, std::uint64_t n);

  Plan plan_;
  bool in_memory_;
  std::vector<std::uint64_t> bytes_;
  std::vector<std::byte*> memory_;         // in memory: sender s's region of the reservation
  std::vector<std::uint64_t> reserved_;    // and its size
  std::uint64_t reservation_ = 0;          // the whole reservation's size, from memory_[0]
  std::vector<ScratchFile> files_;         // in files: sender s's file
};

}  // namespace corank::mpi
