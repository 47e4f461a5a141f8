// cli/trace_problem.cc — PfcGetTraceProblem's text into a string (cli/trace_problem.h).
#include "cli/trace_problem.h"

#include <utility>

#include "pfc/etw/pfc_etw_ext.h"

namespace pfc::cli {

TraceProblem trace_problem(TRACEHANDLE handle) {
  TraceProblem out;
  ULONG size = 0;
  BOOLEAN damaged = FALSE;
  // The size first; the text cannot change between the calls (the handle's reading ended,
  // and the open problem is the calling thread's).
  if (PfcGetTraceProblem(handle, nullptr, 0, &size, &damaged) != ERROR_MORE_DATA) return out;
  std::string text(size, '\0');
  if (PfcGetTraceProblem(handle, text.data(), size, &size, &damaged) != ERROR_SUCCESS) return out;
  text.resize(size - 1);
  out.text = std::move(text);
  out.damaged = damaged != FALSE;
  return out;
}

std::string open_problem() { return trace_problem(INVALID_PROCESSTRACE_HANDLE).text; }

}  // namespace pfc::cli
