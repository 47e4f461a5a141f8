// cli/output_file.h — where a command's results go: io/output_file.h's OutputFile (and the
// stream buffer main puts under std::cout), and how a failed output ends a command.
#pragma once

#include <iosfwd>

#include "io/output_file.h"

namespace pfc::cli {

using io::OutputFile;
using io::OutputStreamBuf;

// Prints the write error (if any; not for a closed pipe) and returns the exit code for a
// failed output (1).
int report_write_error(const OutputFile& out, std::ostream& err);

}  // namespace pfc::cli
