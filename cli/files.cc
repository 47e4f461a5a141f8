// cli/files.cc — whole-file reads with errno-based messages.
#include "cli/files.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace pfc::cli {

Result<std::string> read_whole_file(const std::string& path) {
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  errno = 0;
  std::unique_ptr<std::FILE, Closer> file(std::fopen(path.c_str(), "rb"));
  if (!file) return make_error("cannot read " + path + ": " + std::strerror(errno));
  std::string text;
  // Reserve the size up front: a large capture must not be held twice while the string
  // grows (that would double pfc run's peak memory).
  struct stat st{};
  if (fstat(fileno(file.get()), &st) == 0 && S_ISREG(st.st_mode)) text.reserve(size_t(st.st_size));
  char buffer[1 << 16];
  for (;;) {
    const size_t n = std::fread(buffer, 1, sizeof buffer, file.get());
    text.append(buffer, n);
    if (n < sizeof buffer) break;
  }
  if (std::ferror(file.get())) {
    const int err = errno != 0 ? errno : EIO;
    return make_error("cannot read " + path + ": " + std::strerror(err));
  }
  return text;
}

}  // namespace pfc::cli
