#pragma once
// Compressed sources and sinks: Boost.Iostreams filter chains between a
// ByteSource/ByteSink and the caller, so compression composes with the engine's
// read-ahead and write-behind underneath. open_source() and OutputFile use these
// by suffix or magic bytes; make_run_sink/make_run_source by IoOptions::temp_codec.
//
// A stream that is corrupt, truncated or not of the codec throws
// IoError("read failed", name, "corrupt or truncated gzip stream") and friends
// from read(); partial output is never passed off as the whole.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "corank/io/codec.hpp"
#include "corank/io/source.hpp"

namespace corank::io {

// Speed over ratio for spilled runs (written once, read once); ratio for output.
enum class CompressionLevel { fast, normal };

// Decompresses `inner` with `codec` (Codec::none returns inner). size() is nullopt.
std::unique_ptr<ByteSource> decompressing_source(std::unique_ptr<ByteSource> inner, Codec codec);

// Compresses into `inner`. finish() ends the compressed stream and finishes
// inner; writing after finish() starts a new stream (gzip member, zstd frame...),
// which the decompressors read as one. bytes_written() counts uncompressed
// bytes, stored_bytes() compressed ones.
std::unique_ptr<ByteSink> compressing_sink(std::unique_ptr<ByteSink> inner, Codec codec, std::string name,
                                           CompressionLevel level = CompressionLevel::normal);

// Compresses n pieces at once, one per thread of the process's pool: fill(t,
// sink) writes piece t into a compressing sink of its own, whose stream is
// then packed[t] (packed holds at least n strings). Streams one after another
// decompress as one, so the caller may store packed[0..n) in order.
void compress_pieces(unsigned n, Codec codec, CompressionLevel level, const std::string& name,
                     std::vector<std::string>& packed, const std::function<void(unsigned, ByteSink&)>& fill);

// Like compressing_sink, on `threads` threads: the bytes are cut into pieces
// of piece_bytes, each compressed as a stream of its own, `threads` pieces at
// once, and the streams are written to inner in order. Its output decompresses
// as the one stream of compressing_sink's does; the ratio is a little lower.
// With one thread, compressing_sink itself.
std::unique_ptr<ByteSink> parallel_compressing_sink(std::unique_ptr<ByteSink> inner, Codec codec, std::string name,
                                                    unsigned threads, std::size_t piece_bytes = std::size_t{4} << 20,
                                                    CompressionLevel level = CompressionLevel::fast);

// A source that reads its first bytes ahead to tell the codec by the stream's
// header (codec_from_magic), then yields all of them (the peeked ones first),
// decompressed where a header was found. Keeps inner's size() otherwise. A
// stream so recognized that does not decompress is an error, "corrupt or
// truncated CODEC stream (recognized by its first bytes)": a header that
// full is never the start of text, so the stream is a damaged one.
std::unique_ptr<ByteSource> detect_and_decompress(std::unique_ptr<ByteSource> inner);

}  // namespace corank::io
