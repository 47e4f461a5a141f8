// cli/run_output.h — what `pfc run` writes for the routed events (docs/cli.md "--output"):
// decisions (the contract's lines), events (the selected input events as events-file
// lines), csv, a binary capture, or the --count summary. Every mode writes to one
// OutputFile and holds nothing per event.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"
#include "cli/event_source.h"
#include "cli/output.h"
#include "cli/output_file.h"
#include "compiler/check.h"

namespace pfc::cli {

enum class OutputMode : uint8_t { Decisions, Events, Csv, Capture, Count };

class RunOutput {
 public:
  virtual ~RunOutput() = default;
  // One routed event; `why` is non-null with --explain (decisions only).
  virtual Result<void> event(uint64_t seq, const SourceEvent& e, const RouteResult& r,
                             const std::vector<Rejection>* why) = 0;
  // After the last event (whether or not the input was complete).
  virtual Result<void> finish() = 0;
};

struct RunOutputOptions {
  OutputMode mode = OutputMode::Decisions;
  uint64_t selected = ~uint64_t{0};  // events/capture: sessions named by --session (slots)
  std::string engine;                // --count: the engine's name
};

// Set (to anything) in the environment, `--output events` re-encodes JSON Lines events too
// instead of writing their lines as they came: only the tests use it, to compare the two
// (tests/golden/README.md).
inline constexpr const char* kReencodeEventsVar = "PFC_TEST_REENCODE_EVENTS";

// The output for `mode`; fails only for a capture whose temporary file cannot be made.
Result<std::unique_ptr<RunOutput>> make_run_output(const RunOutputOptions& options,
                                                   const CheckedScript& script,
                                                   const std::vector<std::string>& sessions,
                                                   OutputFile& out);

// The CSV header row (docs/cli.md "--output csv"), for tests.
std::string csv_header(const CheckedScript& script);

}  // namespace pfc::cli
