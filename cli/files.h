// cli/files.h — reading whole input files (scripts) for the `pfc` command, with a size limit
// enforced while reading, so no input (a huge file, /dev/zero, an endless pipe) can make pfc
// hold more than the limit.
#pragma once

#include <cstdint>
#include <string>

#include "base/error.h"

namespace pfc::cli {

// The largest script pfc reads: 128 MiB (docs/cli.md "Limits").
inline constexpr uint64_t kMaxScriptBytes = uint64_t{128} << 20;

// Reads the whole file at `path` ("-" = standard input) as bytes. Fails with "cannot read
// PATH: REASON" when the file cannot be opened or read (missing, a directory, no
// permission), or "cannot read PATH: larger than the limit of N bytes (WHAT)" as soon as
// more than `limit` bytes have been seen (a regular file: before reading it).
Result<std::string> read_whole_file(const std::string& path, uint64_t limit,
                                    const std::string& what);

}  // namespace pfc::cli
