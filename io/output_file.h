// io/output_file.h — where a command's results go ("-" = standard output, else a file
// created or truncated): buffered writes straight to the file descriptor, so a write error
// (a closed pipe, a full disk, /dev/full) is seen at once and ends the command with
// "pfc: error: cannot write NAME: REASON" and exit 1 — silently for a closed pipe
// (`pfc run … | head -1`), which is the reader's choice, not an error (docs/cli.md
// "Output"). SIGPIPE is ignored process-wide (main) so a closed pipe is an EPIPE here.
// Also the output of the events library's sinks (pfc/events.h EventSink).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <streambuf>
#include <string>
#include <string_view>

#include "base/error.h"

namespace pfc::io {

class OutputFile {
 public:
  // Opens `path` ("-" = standard output). Fails with "cannot write PATH: REASON".
  static Result<OutputFile> open(const std::string& path);
  OutputFile(OutputFile&&) noexcept;
  OutputFile& operator=(OutputFile&&) = delete;
  ~OutputFile();  // closes a file it opened (without reporting: call close() for that)

  const std::string& name() const { return name_; }
  bool is_stdout() const { return fd_ == 1; }
  // True when the output is a terminal.
  bool is_terminal() const;
  // True when the output is a regular file (not a pipe, terminal or device).
  bool is_regular() const;

  // Appends to the buffer (written out when it fills). Nothing happens after a failure.
  void write(std::string_view bytes);
  // Writes the buffer out; false after a failure.
  bool flush();
  bool failed() const { return errno_ != 0; }
  // The error to print ("" for a closed pipe, which is reported by exit code alone).
  std::string error_message() const;
  // flush() and, for a file it opened, close(); false on failure (error_message()).
  bool close();

 private:
  OutputFile(std::string name, int fd, bool owned)
      : name_(std::move(name)), fd_(fd), owned_(owned) {}
  bool write_all(const char* data, size_t size);

  static constexpr size_t kBufferSize = size_t{1} << 16;
  std::string name_;
  int fd_ = -1;
  bool owned_ = false;
  std::string buffer_;
  int errno_ = 0;
};

// A std::streambuf writing through an OutputFile, so text written with a std::ostream keeps
// the errno of a failed write (a stdio FILE keeps only an error flag, and errno is long
// overwritten when the flag is looked at). main puts one under std::cout for standard
// output, so every command's stdout is checked the same way. After a failure every write
// fails (the stream goes bad) and the OutputFile holds the reason.
class OutputStreamBuf final : public std::streambuf {
 public:
  explicit OutputStreamBuf(OutputFile& file) : file_(file) {}

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  OutputFile& file_;
};

}  // namespace pfc::io
