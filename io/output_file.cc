// io/output_file.cc — buffered fd output with errno tracking.
#include "io/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ostream>
#include <utility>

namespace pfc::io {

Result<OutputFile> OutputFile::open(const std::string& path) {
  if (path == "-") return OutputFile("<stdout>", STDOUT_FILENO, false);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return make_error("cannot write " + path + ": " + std::strerror(errno));
  return OutputFile(path, fd, true);
}

OutputFile::OutputFile(OutputFile&& o) noexcept
    : name_(std::move(o.name_)), fd_(std::exchange(o.fd_, -1)),
      owned_(std::exchange(o.owned_, false)), buffer_(std::move(o.buffer_)), errno_(o.errno_) {}

OutputFile::~OutputFile() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

bool OutputFile::is_terminal() const { return ::isatty(fd_) == 1; }

bool OutputFile::is_regular() const {
  struct stat st {};
  return fd_ >= 0 && ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode);
}

void OutputFile::write(std::string_view bytes) {
  if (errno_ != 0) return;
  buffer_.append(bytes);
  if (buffer_.size() >= kBufferSize) flush();
}

bool OutputFile::write_all(const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      errno_ = errno;
      return false;
    }
    data += n;
    size -= size_t(n);
  }
  return true;
}

bool OutputFile::flush() {
  if (errno_ != 0) return false;
  const bool ok = write_all(buffer_.data(), buffer_.size());
  buffer_.clear();
  return ok;
}

bool OutputFile::close() {
  const bool flushed = flush();
  if (!owned_ || fd_ < 0) return flushed;
  const int rc = ::close(std::exchange(fd_, -1));
  if (rc != 0 && errno_ == 0) errno_ = errno;
  return flushed && rc == 0;
}

std::string OutputFile::error_message() const {
  if (errno_ == 0 || errno_ == EPIPE) return "";
  return "cannot write " + name_ + ": " + std::strerror(errno_);
}

OutputStreamBuf::int_type OutputStreamBuf::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof()))
    return sync() == 0 ? traits_type::not_eof(c) : traits_type::eof();
  const char ch = traits_type::to_char_type(c);
  file_.write(std::string_view(&ch, 1));
  return file_.failed() ? traits_type::eof() : c;
}

std::streamsize OutputStreamBuf::xsputn(const char* s, std::streamsize n) {
  file_.write(std::string_view(s, static_cast<size_t>(n)));
  return file_.failed() ? 0 : n;
}

int OutputStreamBuf::sync() { return file_.flush() ? 0 : -1; }

}  // namespace pfc::io
