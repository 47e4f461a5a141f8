// cli/trace_problem.h — the texts of the pfc extensions (pfc/etw/pfc_etw_ext.h, docs/etw.md
// "pfc extensions") that say why an ETW call failed: what `pfc trace show` and `pfc trace
// export` say about a log file that could not be opened or was not read to its end
// (PfcGetTraceProblem), why a start failed (PfcGetStartTraceProblem) and why the namespace
// cannot be used (PfcGetNamespaceProblem).
#pragma once

#include <string>

#include "pfc/etw/evntrace.h"

namespace pfc::cli {

struct TraceProblem {
  std::string text;      // the reader's one-line text naming the file; empty: none
  bool damaged = false;  // damage (an error) rather than a warning
};

// For `handle` after ProcessTrace and before CloseTrace: why reading its file ended early.
// None for a handle that reads no file or is closed already.
TraceProblem trace_problem(TRACEHANDLE handle);

// Why this thread's last OpenTraceW of a log file failed with ERROR_BAD_FORMAT.
std::string open_problem();

// Why this thread's last StartTraceW failed, where its code alone does not say it; "".
std::string start_problem();

// Why this process cannot use the trace namespace; "" when it can.
std::string namespace_problem();

}  // namespace pfc::cli
