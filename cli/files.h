// cli/files.h — reading whole input files (scripts, event files) for the `pfc` command.
#pragma once

#include <string>

#include "pfc/error.h"

namespace pfc::cli {

// Reads the whole file at `path` as bytes. Fails with "cannot read PATH: REASON" when the
// file cannot be opened or read (missing, a directory, no permission).
Result<std::string> read_whole_file(const std::string& path);

}  // namespace pfc::cli
