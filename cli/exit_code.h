// cli/exit_code.h — the exit codes of the `pfc` command (docs/cli.md "Exit codes").
#pragma once

namespace pfc::cli {

inline constexpr int kExitOk = 0;     // success
inline constexpr int kExitInput = 1;  // errors in the script or input files (diagnostics printed)
inline constexpr int kExitUsage = 2;  // unknown command/option, missing argument, bad value
inline constexpr int kExitInternal = 3;  // internal errors (engine failure, missing feature)

}  // namespace pfc::cli
