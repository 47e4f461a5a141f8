// io/byte_reader.h — an input file ("-" = standard input) read in blocks into one buffer
// that only grows up to a caller-given limit, so memory is bounded by the longest record a
// reader needs at once, never by the input's size. Works on anything read(2) can read:
// regular files, pipes, terminals, /dev/zero. Used by the event sources (pfc/events.h)
// and the script reader (cli/files.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/error.h"

namespace pfc::io {

// The name an input is reported under: the path, or "<stdin>" for "-".
std::string input_display_name(const std::string& path);

class ByteReader {
 public:
  // Bytes every buffered range is followed by, readable (simdjson's SIMDJSON_PADDING):
  // parsers may read past the end of a record without a copy.
  static constexpr size_t kPadding = 64;
  static constexpr size_t kBlock = size_t{1} << 20;

  // Opens `path` ("-" = standard input, not closed by the reader). Fails with
  // "cannot read NAME: REASON" (missing, a directory, no permission, stdin closed).
  static Result<ByteReader> open(const std::string& path);
  ByteReader(ByteReader&&) noexcept;
  ByteReader& operator=(ByteReader&&) noexcept;
  ~ByteReader();

  const std::string& name() const { return name_; }
  // The file's size when it is a regular file (known before reading), else nullopt.
  std::optional<uint64_t> file_size() const { return size_; }

  // The buffered bytes not yet consumed; followed by kPadding readable bytes.
  std::string_view data() const { return {buffer_.get() + begin_, end_ - begin_}; }
  // Offset in the input of data()[0].
  uint64_t offset() const { return offset_; }
  // The `n` bytes just before data() (n ≤ bytes consumed since the last fill()): valid
  // until the next fill().
  std::string_view consumed_tail(size_t n) const { return {buffer_.get() + begin_ - n, n}; }
  void consume(size_t n) {
    begin_ += n;
    offset_ += n;
  }

  // Called before every read(2) of the input (which may block on a pipe or terminal): the
  // run command flushes its output there, so results appear while the input trickles in.
  void set_before_read(std::function<void()> hook) { before_read_ = std::move(hook); }

  enum class Fill : uint8_t { More, End, Full };
  // Reads more input after data(), keeping data() (moved to the buffer's start). Grows the
  // buffer so that data() may reach `limit` bytes, never further: Full when data() already
  // holds `limit` bytes. End at the end of the input. Fails with "cannot read NAME: REASON".
  Result<Fill> fill(size_t limit);
  // fill() until data() holds at least `n` bytes (n ≤ limit) or the input ends; true when
  // it holds them.
  Result<bool> fill_to(size_t n);

 private:
  ByteReader(std::string name, int fd, bool owned, std::optional<uint64_t> size);
  Result<void> grow(size_t capacity);

  std::string name_;
  int fd_ = -1;
  bool owned_ = false;  // close fd_ on destruction (not standard input)
  std::optional<uint64_t> size_;
  std::unique_ptr<char[]> buffer_;
  size_t capacity_ = 0;  // usable bytes (kPadding more are allocated)
  size_t begin_ = 0;
  size_t end_ = 0;
  uint64_t offset_ = 0;
  bool eof_ = false;
  std::function<void()> before_read_;
};

}  // namespace pfc::io
