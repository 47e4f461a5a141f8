// cli/output_file.cc — a failed output's message and exit code (cli/output_file.h).
#include "cli/output_file.h"

#include <ostream>

#include "cli/exit_code.h"

namespace pfc::cli {

int report_write_error(const OutputFile& out, std::ostream& err) {
  const std::string message = out.error_message();
  if (!message.empty()) err << "pfc: error: " << message << '\n' << std::flush;
  return kExitInput;
}

}  // namespace pfc::cli
