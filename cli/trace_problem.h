// cli/trace_problem.h — what `pfc trace show` and `pfc trace export` say about a log file
// that could not be opened or was not read to its end, through the pfc extension
// PfcGetTraceProblem (pfc/etw/pfc_etw_ext.h, docs/etw.md "pfc extensions").
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

}  // namespace pfc::cli
