// cli/trace_problem.cc — the pfc extensions' problem texts into strings (cli/trace_problem.h).
#include "cli/trace_problem.h"

#include <utility>

#include "pfc/etw/pfc_etw_ext.h"

namespace pfc::cli {
namespace {

// The text of `get(Buffer, BufferSize, TextSize)`, a pfc extension with PfcGetTraceProblem's
// text convention; "" when it fails.
template <class Get>
std::string extension_text(Get get) {
  ULONG size = 1;
  std::string text;
  for (int tries = 0; tries < 3; ++tries) {  // the text may change between the calls
    text.assign(size, '\0');
    const ULONG rc = get(text.data(), size, &size);
    if (rc == ERROR_MORE_DATA) continue;
    if (rc != ERROR_SUCCESS) return "";
    text.resize(size - 1);
    return text;
  }
  return "";
}

}  // namespace

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

std::string start_problem() { return extension_text(PfcGetStartTraceProblem); }

std::string namespace_problem() { return extension_text(PfcGetNamespaceProblem); }

}  // namespace pfc::cli
