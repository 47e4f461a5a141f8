// cli/limits.h — the input limits of the `pfc` command (docs/cli.md "Limits") beyond those
// of the event sources (io/limits.h) and the capture format (runtime/capture.h).
#pragma once

#include <cstdint>

namespace pfc::cli {

// Problems reported for one input (bad events of an events file, errors of a script)
// before pfc stops reporting them.
inline constexpr uint64_t kMaxInputProblems = 100;

}  // namespace pfc::cli
