// cli/files.cc — bounded whole-file reads over io/byte_reader.h.
#include "cli/files.h"

#include "io/byte_reader.h"

namespace pfc::cli {

using io::ByteReader;

Result<std::string> read_whole_file(const std::string& path, uint64_t limit,
                                    const std::string& what) {
  auto reader = ByteReader::open(path);
  if (!reader) return std::unexpected(reader.error());
  const auto too_large = [&] {
    return make_error("cannot read " + reader->name() + ": larger than the limit of " +
                      std::to_string(limit) + " bytes for " + what);
  };
  if (reader->file_size() && *reader->file_size() > limit) return too_large();
  for (;;) {
    auto f = reader->fill(size_t(limit) + 1);
    if (!f) return std::unexpected(f.error());
    if (*f == ByteReader::Fill::End) break;
    if (reader->data().size() > limit) return too_large();
  }
  return std::string(reader->data());
}

}  // namespace pfc::cli
